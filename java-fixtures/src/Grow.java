/** A full binary tree grown by a recursive constructor, then walked by a recursive method. */
public class Grow {
    /** Strings the program holds in a static field: nothing a tree reaches. */
    static String[] names;
    Grow left;
    Grow right;

    Grow(int depth) {
        if (depth > 1) {
            left = new Grow(depth - 1);
            right = new Grow(depth - 1);
        }
    }

    int height() {
        if (left == null) return 1;
        return 1 + left.height();
    }

    static int grownHeight(String[] args) {
        names = args;
        return new Grow(names.length).height();
    }
}
