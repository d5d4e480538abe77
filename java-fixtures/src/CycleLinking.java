/**
 * Which abstracted callees may make or link in a cycle (`CalleeFacts::cycle_linking`) or
 * make a tree share (`CalleeFacts::tree_breaking`).
 * `insert` writes only fresh leaves: after each of its calls the tree is havocked but stays
 * an acyclic tree, so `insertAll`'s later calls (and their recursion on `left`/`right`) still
 * have a size that decreases. `close` writes the head into the last cell: after its call the
 * list is a ring, and the continuation must say so (`⟲`), or `jtg check` reports the cyclic
 * heap. `graft` hangs a subtree that has a parent below another node: after its call the
 * tree is a DAG, and the continuation must say so (`♦`).
 */
public class CycleLinking {
    static final class Tree {
        int value;
        Tree left;
        Tree right;

        Tree(int value) {
            this.value = value;
        }

        void insert(int v) {
            if (v <= value) {
                if (left == null) {
                    left = new Tree(v);
                } else {
                    left.insert(v);
                }
            } else {
                if (right == null) {
                    right = new Tree(v);
                } else {
                    right.insert(v);
                }
            }
        }
    }

    static final class Cell {
        int value;
        Cell next;

        Cell(int value, Cell next) {
            this.value = value;
            this.next = next;
        }
    }

    /** A search tree of the values, built by repeated recursive inserts. */
    public static Tree insertAll(int[] values) {
        if (values.length == 0) {
            return null;
        }
        Tree root = new Tree(values[0]);
        for (int i = 1; i < values.length; i++) {
            root.insert(values[i]);
        }
        return root;
    }

    /** Links the last cell of the list from `c` back to `head`. */
    static void close(Cell head, Cell c) {
        if (c.next == null) {
            c.next = head;
        } else {
            close(head, c.next);
        }
    }

    /** Closes the list into a ring, then walks it for at most `steps` cells. */
    public static int closeAndWalk(Cell head, int steps) {
        if (head == null) {
            return 0;
        }
        close(head, head);
        int n = 0;
        for (Cell c = head; c != null && n < steps; c = c.next) {
            n++;
        }
        return n;
    }

    /** A tree of depth n whose two children are one subtree: a DAG, no tree. The result of
     *  each abstracted call `twins(n - 1)` may share below it (`♦`, `CalleeFacts::shared_result`). */
    public static Tree twins(int n) {
        Tree t = new Tree(n);
        if (n > 0) {
            Tree c = twins(n - 1);
            t.left = c;
            t.right = c;
        }
        return t;
    }

    /** Hangs `sub` below the leftmost node of `t`. */
    static void graft(Tree t, Tree sub) {
        if (t.left == null) {
            t.left = sub;
        } else {
            graft(t.left, sub);
        }
    }

    /** Hangs the right subtree of `root` below its leftmost node too, then counts the nodes on
     *  the way down the left: `root.right` is reached twice after `graft`, so the tree may
     *  share (`♦`), though no cycle is made. */
    public static int graftRight(Tree root) {
        if (root == null || root.right == null) {
            return 0;
        }
        graft(root, root.right);
        int n = 0;
        for (Tree t = root; t != null; t = t.left) {
            n++;
        }
        return n;
    }
}
