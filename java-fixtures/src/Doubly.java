/**
 * Null-terminated doubly linked lists (the TPDB BOG_RTA_11 DoublyLinkedList family): every
 * cycle of the list runs through both `next` and `prev` (`⟲{next,prev}`), so a walk along one
 * field alone ends. A ring closed both ways has cycles through one field alone and does not.
 */
public class Doubly {
    int value;
    Doubly prev;
    Doubly next;

    Doubly(int v) {
        this.value = v;
    }

    /** `n` nodes linked both ways; the last one. */
    static Doubly build(int n) {
        Doubly cur = null;
        for (int i = 0; i < n; i++) {
            Doubly old = cur;
            cur = new Doubly(i);
            cur.prev = old;
            if (old != null) {
                old.next = cur;
            }
        }
        return cur;
    }

    /** The first node, back along `prev` (recursion). */
    Doubly first() {
        if (this.prev == null) {
            return this;
        }
        return this.prev.first();
    }

    /** The nodes from here along `next` (a loop). */
    int countForward() {
        int k = 0;
        for (Doubly d = this; d != null; d = d.next) {
            k++;
        }
        return k;
    }

    /** Builds a list, goes back to its first node and counts forward: YES. */
    public static int buildFirstCount(int n) {
        Doubly last = build(n);
        if (last == null) {
            return 0;
        }
        return last.first().countForward();
    }

    /** Builds a list, closes it into a ring both ways and walks back along `prev`: no end. */
    public static int ringBack(int n) {
        Doubly last = build(n);
        if (last == null) {
            return 0;
        }
        Doubly head = last.first();
        head.prev = last;
        last.next = head;
        int k = 0;
        for (Doubly d = last; d != null; d = d.prev) {
            k++;
        }
        return k;
    }
}
