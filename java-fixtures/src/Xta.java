/**
 * Field type sets (issue #21): a field's values may all be of a class narrower than its
 * declared type. `Cell.item` is declared `Item`, but no code `main` reaches stores anything but
 * a `Key` into it, so `item.same(o)` on an item read from a list runs `Key.same` only: never
 * `Bag.same` (a loop over two lists), although `main` makes bags too. `has` may be given cells
 * holding any item: its items are of any class below `Item`. (`same`, not `equals`: an
 * `Object` method overridden here would join the dispatch of every fixture with an `Object`
 * input.)
 */
public class Xta {
    abstract static class Item {
        abstract boolean same(Item o);
    }

    static final class Key extends Item {
        final int v;

        Key(int v) {
            this.v = v;
        }

        boolean same(Item o) {
            return o instanceof Key && ((Key) o).v == v;
        }
    }

    /** A list cell. */
    static final class Cell {
        Item item;
        Cell next;

        Cell(Item item, Cell next) {
            this.item = item;
            this.next = next;
        }
    }

    /** A list of items that is an item itself, the same as another bag item by item. */
    static final class Bag extends Item {
        Cell first;

        void add(Item o) {
            first = new Cell(o, first);
        }

        boolean same(Item o) {
            if (!(o instanceof Bag)) {
                return false;
            }
            Cell a = first;
            Cell b = ((Bag) o).first;
            while (a != null && b != null) {
                if (!a.item.same(b.item)) {
                    return false;
                }
                a = a.next;
                b = b.next;
            }
            return a == b;
        }
    }

    /** Fills a bag with a key per argument, looks one up, and compares two bags. */
    public static void main(String[] args) {
        Bag bag = new Bag();
        for (int i = 0; i < args.length; i++) {
            bag.add(new Key(args[i].length()));
        }
        Bag other = new Bag();
        other.add(new Key(args.length));
        has(bag.first, new Key(0));
        bag.same(other);
    }

    /** Whether some item of the list from `c` is the same as `o`. */
    static boolean has(Cell c, Item o) {
        while (c != null) {
            if (c.item.same(o)) {
                return true;
            }
            c = c.next;
        }
        return false;
    }
}
