/** Loops that do not terminate on some inputs: `jtg prove` answers NO with a looping input. */
public class NonTerm {
    /** Never ends on odd x (x skips 0); ends on even x. */
    static int parity(int x) {
        while (x != 0) x = x - 2;
        return x;
    }

    /** Never ends from 41 ≤ x ≤ 48: x counts down 47, 46, …, 40, where the first branch sends
     *  it back to 48 and the countdown to 47 again; ends from every other start. Neither branch
     *  repeats on its own: the recurrent set is closed under the loop's rules together
     *  (`prove/src/recur_closed/cycle.rs`). */
    static int cycleThroughBranches(int x) {
        while (x > 0) {
            if (x == 40) x = 48;
            if (x <= 48) x--; else x = 5;
        }
        return x;
    }

    /** Never ends from 0 ≤ x ≤ y over mathematical integers: x catches up with y, which then
     *  doubles, so no state repeats and no box is closed; the set {0 ≤ x ≤ y}, the negation of
     *  the exit, is (`relational_exits` in `prove/src/recur_closed/mod.rs`). */
    static int catchUp(int x, int y) {
        if (x < 0) return 0;
        while (y >= x) {
            if (x == y) {
                x++;
                y = 2 * y + 1;
            } else {
                y--;
            }
        }
        return x;
    }

    /** Never ends when `args[1]` has length 1000 exactly, ends on every other input. The
     *  recurrent set `{n = 1000}` is entered by one length of one argument, which the NO
     *  witness takes from the path's temporaries (`terminate/src/witness_input.rs`) rather
     *  than waiting for a random input to draw it. */
    static void spinsOnOneLength(String[] args) {
        int n = args[1].length();
        while (n == 1000) {
            n = 2000 - n;
        }
    }

    /** Walks a list to its end: never ends on a cyclic list (no bound, no stop at the start;
     *  its state repeats once the walk has gone round the cycle). */
    static void walk(List cur) {
        while (cur != null) cur = cur.next;
    }
}
