package everyday;

/** A singly linked cell as application code writes it. */
class Link {
    Link next;

    Link(Link next) {
        this.next = next;
    }
}

/**
 * Recursions whose first call writes into one part of the heap and whose second call walks
 * another: a callee writes only what its arguments and the statics reach, so a part disjoint
 * from them keeps its size across the call (the frame rule).
 */
public class Frames {
    /** Mirrors a tree in place: the first call rewrites the (new) left subtree only. */
    static void mirrorInPlace(BTree t) {
        if (t == null) return;
        BTree l = t.left;
        t.left = t.right;
        t.right = l;
        mirrorInPlace(t.left);
        mirrorInPlace(t.right);
    }

    /** Hangs a new leaf below the leftmost node of every right spine. */
    static void growLeft(BTree t) {
        if (t == null) return;
        if (t.left == null) t.left = new BTree(t.key);
        else growLeft(t.left);
        growLeft(t.right);
    }

    /** Appends a cell at the end of {@code a}'s list. */
    static void append(Link a) {
        if (a.next == null) a.next = new Link(null);
        else append(a.next);
    }

    /**
     * Walks {@code b} while appending to {@code a}: ends when the two lists are disjoint, runs
     * forever when {@code a}'s list reaches {@code b}'s (each lap adds the cell {@code b} walks
     * towards).
     */
    static int chase(Link a, Link b) {
        if (b == null) return 0;
        append(a);
        return 1 + chase(a, b.next);
    }

    static Link tail;

    /** Appends a cell at the end of the list {@code tail} holds (a static: the callee reaches it). */
    static void appendToTail() {
        Link c = tail;
        if (c == null) return;
        while (c.next != null) c = c.next;
        c.next = new Link(null);
    }

    /** Walks {@code b} while appending to the list {@code tail} holds. */
    static int chaseTail(Link b) {
        if (b == null) return 0;
        appendToTail();
        return 1 + chaseTail(b.next);
    }

    /** {@link #chaseTail} on the list {@code tail} holds: never ends for a non-empty list. */
    static int chaseOwnTail(Link b) {
        tail = b;
        return chaseTail(b);
    }
}
