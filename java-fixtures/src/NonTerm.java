/** Loops that do not terminate on some inputs: `jtg prove` answers NO with a looping input. */
public class NonTerm {
    /** Never ends on odd x (x skips 0); ends on even x. */
    static int parity(int x) {
        while (x != 0) x = x - 2;
        return x;
    }

    /** Walks a list to its end: never ends on a cyclic list (no bound, no stop at the start;
     *  its state repeats once the walk has gone round the cycle). */
    static void walk(List cur) {
        while (cur != null) cur = cur.next;
    }
}
