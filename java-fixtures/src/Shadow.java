/**
 * Shadowed fields (issue #21): an inner class and its inner subclass each get their own
 * `this$0` (javac gives every inner class one), as the iterators of a HashMap do, and a class
 * that redeclares a field of its superclass. The engine keys an object's fields by name, and a
 * shadowed one by its declaring class too.
 */
public class Shadow {
    int size;

    Shadow(int size) {
        this.size = size;
    }

    abstract class Iter {
        int left;

        Iter() {
            left = size;
        }

        boolean hasNext() {
            return left > 0;
        }
    }

    class KeyIter extends Iter {
        int next() {
            left--;
            return size - left;
        }
    }

    /** Counts the elements of an `n`-element container through an inner-class iterator. */
    public static int count(int n) {
        Shadow s = new Shadow(n);
        KeyIter it = s.new KeyIter();
        int c = 0;
        while (it.hasNext()) {
            c += it.next();
        }
        return c;
    }

    static class Cell {
        Cell next;
        int v;
    }

    static class Twice extends Cell {
        Twice next;

        int sum() {
            int s = 0;
            Twice t = this;
            while (t != null) {
                s += t.v;
                Cell up = ((Cell) t).next;
                if (up != null) {
                    s += up.v;
                }
                t = t.next;
            }
            return s;
        }
    }

    /** Walks a list through the shadowing `next`, reading the shadowed one at every node. */
    public static int sumBoth(Twice t) {
        return t == null ? 0 : t.sum();
    }
}
