import java.util.ArrayList;
import java.util.List;

/**
 * Which objects a method's run may write (`class::own_writes`): those it allocated, its
 * parameters', or others. `copy` writes only the nodes it makes, so its abstracted calls
 * leave the caller's heap as it was: `copyBoth` copies the left subtree, then the right one
 * of the same, unchanged node.
 */
public class OwnWrites {
    static final class Node {
        int value;
        Node left;
        Node right;

        Node(int value) {
            this.value = value;
        }

        Node(int value, Node left, Node right) {
            this.value = value;
            this.left = left;
            this.right = right;
        }
    }

    static Node shared;

    /** A copy of the tree: writes only what it allocates. */
    static Node copy(Node t) {
        if (t == null) {
            return null;
        }
        return new Node(t.value, copy(t.left), copy(t.right));
    }

    /** The nodes of copies of both subtrees' roots. */
    public static int copyBoth(Node t) {
        if (t == null) {
            return 0;
        }
        Node a = copy(t.left);
        Node b = copy(t.right);
        return (a == null ? 0 : 1) + (b == null ? 0 : 1);
    }

    /** Writes its first parameter's object. */
    static void setLeft(Node t, Node v) {
        t.left = v;
    }

    /** Writes a parameter's object through a callee. */
    static void setLeftTwice(Node t) {
        setLeft(t, null);
        setLeft(t, null);
    }

    /** Writes through a callee into a node it made: only fresh objects. */
    static Node leaf(int v) {
        Node n = new Node(v);
        setLeft(n, null);
        return n;
    }

    /** Writes an object read from the heap. */
    static void deep(Node t) {
        t.left.value = 1;
    }

    /** Writes a static field. */
    static void publish(Node t) {
        shared = t;
    }

    /** Returns its parameter. */
    static Node same(Node t) {
        return t;
    }

    /** Writes its parameter's object through what a callee returns. */
    static void viaSame(Node t) {
        same(t).value = 2;
    }

    /** Writes a node a callee made. */
    static Node viaLeaf() {
        Node n = leaf(1);
        n.value = 3;
        return n;
    }

    /** A library method that writes. */
    static List<Node> listed(Node t) {
        List<Node> l = new ArrayList<>();
        l.add(t);
        return l;
    }

    /** A chain of nodes it allocates, holding nothing older: an isolated result. */
    static Node chain(int n) {
        Node c = null;
        while (n-- > 0) {
            c = new Node(n, c, null);
        }
        return c;
    }

    /** A new node holding its parameter: not isolated. */
    static Node wrap(Node t) {
        return new Node(0, t, null);
    }

    /** A new node a static field holds too: not isolated. */
    static Node published(int v) {
        Node n = new Node(v);
        shared = n;
        return n;
    }

    /** A new node holding what a static field holds: not isolated. */
    static Node holding(int v) {
        return new Node(v, shared, null);
    }

    /** A new lambda object capturing its parameter: not isolated. */
    static Runnable capturing(Node t) {
        return () -> t.value++;
    }

    /** A new list the library fills with its parameter: not isolated. */
    static List<Node> listedFresh(int v) {
        List<Node> l = new ArrayList<>();
        l.add(new Node(v));
        return l;
    }
}
