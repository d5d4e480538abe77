/**
 * Type tests on values whose static type is java.lang.Object: the engine cannot enumerate
 * Object's subtypes, so it refines by existence (ifnull) and by type against the tested class
 * (instanceof, checkcast), spec §5.3 steps 1 and 2.
 */
public class Types {
    Object item;
    Types next;

    /** The number of cells whose item is itself a cell. */
    static int countNested(Types cur) {
        int n = 0;
        while (cur != null) {
            if (cur.item instanceof Types) {
                n++;
            }
            cur = cur.next;
        }
        return n;
    }

    /** Follows items while there are any; an item that is not a cell is a ClassCastException. */
    static int depth(Object o) {
        int d = 0;
        while (o != null) {
            Types t = (Types) o;
            o = t.item;
            d++;
        }
        return d;
    }

    /**
     * The number of cells that are their own item: Object.equals, which Types does not
     * override, is identity.
     */
    static int countSelfItems(Types cur) {
        int n = 0;
        while (cur != null) {
            if (cur.equals(cur.item)) {
                n++;
            }
            cur = cur.next;
        }
        return n;
    }

    /** Object.hashCode is any int (a NullPointerException for null). */
    static int hashParity(Types t) {
        int h = t.hashCode();
        return h % 2 == 0 ? 0 : 1;
    }
}
