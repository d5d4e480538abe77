/**
 * Trees grown by a random walk from the root and flattened into a list through a work list
 * (the TPDB programs Flatten and FlattenTree, issue #21). Growing keeps a pointer into the
 * tree (`t` is the root or a node below it) and only ever fills a null field with a fresh
 * node, so the structure stays a tree; flattening pushes both children of every node.
 */
public class Flatten {
    static class Node {
        Node left;
        Node right;
        int value;
    }

    static class Cell {
        int value;
        Cell next;

        Cell(int value, Cell next) {
            this.value = value;
            this.next = next;
        }
    }

    static class Todo {
        Node tree;
        Todo next;

        Todo(Node tree, Todo next) {
            this.tree = tree;
            this.next = next;
        }
    }

    /** A tree of at most `n + 1` nodes: each step walks left or right by a bit of `path`. */
    static Node grow(int n, int path) {
        Node root = new Node();
        Node t = root;
        while (n > 0) {
            if (path % 2 == 0) {
                if (t.left == null) {
                    t.left = new Node();
                    t.left.value = n;
                    t = root;
                } else {
                    t = t.left;
                }
            } else {
                if (t.right == null) {
                    t.right = new Node();
                    t.right.value = n;
                    t = root;
                } else {
                    t = t.right;
                }
            }
            path = path / 2;
            n--;
        }
        return root;
    }

    /** The values of the tree's nodes in a list, by a depth-first walk with a work list. */
    static Cell flatten(Node root) {
        Cell out = null;
        Todo todo = new Todo(root, null);
        while (todo != null) {
            Node t = todo.tree;
            todo = todo.next;
            if (t != null) {
                out = new Cell(t.value, out);
                todo = new Todo(t.left, todo);
                todo = new Todo(t.right, todo);
            }
        }
        return out;
    }

    public static int run(int n, int path) {
        int k = 0;
        for (Cell c = flatten(grow(n, path)); c != null; c = c.next) {
            k++;
        }
        return k;
    }
}
