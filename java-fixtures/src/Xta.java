/**
 * Field type sets (issue #21): a field's values may all be of a class narrower than its
 * declared type. `Cell.item` is declared `Object`, but no code `main` reaches stores anything
 * but a `Key` into it, so `item.equals(o)` on an item read from a list runs `Key.equals` only:
 * never `Bag.equals` (a loop over two lists), although `main` makes bags too. `has` may be
 * given cells holding any object: its items are any class.
 */
public class Xta {
    static final class Key {
        final int v;

        Key(int v) {
            this.v = v;
        }

        public boolean equals(Object o) {
            return o instanceof Key && ((Key) o).v == v;
        }

        public int hashCode() {
            return v;
        }
    }

    /** A list cell whose item may be any object. */
    static final class Cell {
        Object item;
        Cell next;

        Cell(Object item, Cell next) {
            this.item = item;
            this.next = next;
        }
    }

    /** A list with a structural `equals` that walks two lists. */
    static final class Bag {
        Cell first;

        void add(Object o) {
            first = new Cell(o, first);
        }

        public boolean equals(Object o) {
            if (!(o instanceof Bag)) {
                return false;
            }
            Cell a = first;
            Cell b = ((Bag) o).first;
            while (a != null && b != null) {
                if (!a.item.equals(b.item)) {
                    return false;
                }
                a = a.next;
                b = b.next;
            }
            return a == b;
        }

        public int hashCode() {
            return 1;
        }
    }

    /** Fills a bag with a key per argument, then looks one up, and compares two bags. */
    public static void main(String[] args) {
        Bag bag = new Bag();
        for (int i = 0; i < args.length; i++) {
            bag.add(new Key(args[i].length()));
        }
        Bag other = new Bag();
        other.add(new Key(args.length));
        has(bag.first, new Key(0));
        bag.equals(other);
    }

    /** Whether some item of the list from `c` equals `o`. */
    static boolean has(Cell c, Object o) {
        while (c != null) {
            if (c.item.equals(o)) {
                return true;
            }
            c = c.next;
        }
        return false;
    }
}
