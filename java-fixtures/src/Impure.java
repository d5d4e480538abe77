/**
 * Callee assumptions checked while the graph grows (issue #21). `shift` is recursive, so its
 * calls are abstracted; the builder first assumes it pure (it leaves the caller's heap as it
 * was), but it moves the times of the list it is given in place. Under that assumption `s`
 * stays a list of three known cells after the call, and both `count`s over it are unrolled;
 * without it `s` is havocked and each `count` is a loop over any list: the graph of the first
 * build is 504 nodes, the final one 403.
 */
public class Impure {
    static final class Cell {
        int time;
        Cell next;

        Cell(int time, Cell next) {
            this.time = time;
            this.next = next;
        }
    }

    /** Moves every time of the list by d, in place. */
    static Cell shift(Cell c, int d) {
        if (c == null) {
            return null;
        }
        c.time = c.time + d;
        shift(c.next, d);
        return c;
    }

    /** The cells of the list up to time t. */
    static int count(Cell c, int t) {
        int n = 0;
        while (c != null && c.time < t) {
            n++;
            c = c.next;
        }
        return n;
    }

    public static int run(int a, int b, int c) {
        Cell s = new Cell(a, new Cell(b, new Cell(c, null)));
        shift(s, 1);
        return count(s, 0) + count(s, 1);
    }
}
