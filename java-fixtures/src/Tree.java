/** Binary trees, traversed iteratively with an explicit work list. */
public class Tree {
    Tree left;
    Tree right;

    static int size(Tree root) {
        int n = 0;
        Work todo = null;
        if (root != null) todo = new Work(root, null);
        while (todo != null) {
            Tree t = todo.tree;
            todo = todo.rest;
            n++;
            if (t.left != null) todo = new Work(t.left, todo);
            if (t.right != null) todo = new Work(t.right, todo);
        }
        return n;
    }

    /** Height of the leftmost path. */
    static int leftHeight(Tree t) {
        int h = 0;
        while (t != null) { h++; t = t.left; }
        return h;
    }
}

/** A stack of trees still to visit. */
class Work {
    Tree tree;
    Work rest;

    Work(Tree tree, Work rest) { this.tree = tree; this.rest = rest; }
}
