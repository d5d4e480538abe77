/**
 * A static field written inside a loop: at the loop head the first visit has never accessed
 * `last` and later visits know it. A state that knows `last` is not an instance of one that
 * does not (there, a later read of `last` gives a value that cannot alias the list), so the
 * loop head merges, giving the first state `last`'s first-access value.
 */
public class Statics {
    static Statics last;
    int val;
    Statics next;

    /**
     * Remembers the last positive cell and clears it: when that is the head, the result is 0,
     * which only a graph that keeps `last =? head` allows.
     */
    static int clearLastPositive(Statics head) {
        if (head == null || head.val <= 0) {
            return -1;
        }
        Statics cur = head;
        while (cur != null) {
            if (cur.val > 0) {
                last = cur;
            }
            cur = cur.next;
        }
        if (last != null) {
            last.val = 0;
        }
        return head.val;
    }
}
