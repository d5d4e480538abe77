package everyday;

/** A binary tree node as application code writes it. */
class BTree {
    int key;
    BTree left;
    BTree right;

    BTree(int key) {
        this.key = key;
    }
}

/** Everyday recursions over {@link BTree}. */
public class Trees {
    static int size(BTree t) {
        if (t == null) return 0;
        return 1 + size(t.left) + size(t.right);
    }

    static int height(BTree t) {
        if (t == null) return 0;
        return 1 + Math.max(height(t.left), height(t.right));
    }

    static int sum(BTree t) {
        return t == null ? 0 : t.key + sum(t.left) + sum(t.right);
    }

    static boolean contains(BTree t, int k) {
        while (t != null) {
            if (k == t.key) return true;
            t = k < t.key ? t.left : t.right;
        }
        return false;
    }

    static BTree insert(BTree t, int k) {
        if (t == null) return new BTree(k);
        if (k < t.key) t.left = insert(t.left, k);
        else if (k > t.key) t.right = insert(t.right, k);
        return t;
    }

    static int min(BTree t) {
        if (t == null) throw new IllegalArgumentException("empty tree");
        while (t.left != null) t = t.left;
        return t.key;
    }

    static int leaves(BTree t) {
        if (t == null) return 0;
        if (t.left == null && t.right == null) return 1;
        return leaves(t.left) + leaves(t.right);
    }

    static BTree mirror(BTree t) {
        if (t == null) return null;
        BTree l = mirror(t.left);
        t.left = mirror(t.right);
        t.right = l;
        return t;
    }
}
