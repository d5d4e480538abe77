/**
 * Data a method builds itself and then walks (issue #38's "data the program builds"): a ring
 * the builder closes, a doubly linked list counted along `next`, and a list of lists a static
 * builder makes while reading a static array, flattened by a recursion that writes into it.
 */
public class SelfBuilt {
    SelfBuilt next;
    SelfBuilt pred;
    Object value;

    /** A ring of n + 1 cells walked from the last cell's successor back to it. */
    static int ring(int n) {
        SelfBuilt first = new SelfBuilt();
        SelfBuilt cur = first;
        while (n-- > 0) {
            cur.next = new SelfBuilt();
            cur = cur.next;
        }
        cur.next = first;
        return cur.around();
    }

    /** The steps from this cell's successor around the ring back to this cell. */
    int around() {
        int steps = 0;
        SelfBuilt c = this.next;
        while (c != this) {
            c = c.next;
            steps++;
        }
        return steps;
    }

    /**
     * A ring of n + 1 cells unlinked cell by cell, from the last cell's successor round. Built
     * here as in {@link #ring}: a static builder on primitives would get a method graph of its
     * own, whose result carries only `⟲`, not the facts its writes derive.
     */
    static int ringUnlinked(int n) {
        SelfBuilt first = new SelfBuilt();
        SelfBuilt cur = first;
        while (n-- > 0) {
            cur.next = new SelfBuilt();
            cur = cur.next;
        }
        cur.next = first;
        return cur.unlinkAround();
    }

    /**
     * Unlinks the cells from this cell's successor round the ring back to this cell, each cut
     * off before the walk moves on, and closes this cell on itself.
     */
    int unlinkAround() {
        int steps = 0;
        SelfBuilt c = this.next;
        while (c != this) {
            SelfBuilt after = c.next;
            c.next = null;
            c = after;
            steps++;
        }
        this.next = this;
        return steps;
    }

    /** A doubly linked list of n + 1 cells, its length counted along `next`. */
    static int doubly(int n) {
        Cell cur = new Cell(null);
        Cell first = cur;
        while (n-- > 0) {
            cur = new Cell(cur);
        }
        return Cell.length(first);
    }

    static String[] names = {"ab", "c", ""};
    static int made;

    static SelfBuilt cell(Object v, SelfBuilt next) {
        SelfBuilt c = new SelfBuilt();
        c.value = v;
        c.next = next;
        return c;
    }

    /** n cells whose values are lists as long as the names read from the static array. */
    static SelfBuilt lists(int n) {
        SelfBuilt cur = null;
        if (names == null || names.length == 0) {
            return null;
        }
        for (int i = 0; i < n; i++) {
            SelfBuilt inner = null;
            for (int j = names[i % names.length].length(); j > 0; j--) {
                inner = cell(null, inner);
            }
            cur = cell(inner, cur);
            made++;
        }
        return cur;
    }

    /** The cells of a list of lists, an inner list's cells moved out one by one. */
    static int count(SelfBuilt cur) {
        if (cur == null) {
            return 0;
        }
        if (cur.value instanceof SelfBuilt) {
            SelfBuilt inner = (SelfBuilt) cur.value;
            cur.value = inner.next;
            cur = cell(inner.value, cur);
        }
        return 1 + count(cur.next);
    }

    /** Counts what `lists` built: its result shares nothing with the static array. */
    static int flattened(int n) {
        return count(lists(n));
    }

    /** n cells each holding the static array: the result shares it. */
    static SelfBuilt holdingNames(int n) {
        SelfBuilt cur = null;
        for (int i = 0; i < n; i++) {
            cur = cell(names, cur);
        }
        return cur;
    }

    /** Whether the list `holdingNames` built holds the static array. */
    static boolean holdsNames(int n) {
        SelfBuilt l = holdingNames(n);
        return l != null && l.value == names;
    }
}

/** A cell of a doubly linked list. */
class Cell {
    Cell next;
    Cell pred;

    /** A cell after `pred`, linked both ways. */
    Cell(Cell pred) {
        if (pred != null) {
            pred.next = this;
        }
        this.pred = pred;
    }

    /** The cells from `l` along `next`. */
    static int length(Cell l) {
        int len = 0;
        for (; l != null; l = l.next) {
            len++;
        }
        return len;
    }
}
