/**
 * HashMap-style lookups on keys of unknown class (issue #21): `==` on two `Object`s needs only
 * their existence and aliasing, and `equals`/`hashCode` on an `Object` dispatch over the
 * classes there are (the class path and the modelled JDK classes).
 */
public class Keys {
    static class Entry {
        Object key;
        int value;
        Entry next;
    }

    static final class Content {
        int v;

        public boolean equals(Object o) {
            return o instanceof Content && ((Content) o).v == v;
        }

        public int hashCode() {
            return v;
        }
    }

    /** The value of the first entry whose key is `key` or equal to it, else -1. */
    public static int find(Entry e, Object key) {
        while (e != null) {
            Object k = e.key;
            if (k == key || (key != null && key.equals(k))) {
                return e.value;
            }
            e = e.next;
        }
        return -1;
    }

    /** An array's hash code: `Object`'s own method on a realized array receiver. */
    public static int arrayHash(int[] a) {
        return a == null ? 0 : a.hashCode() % 2;
    }

    /** The sum of the keys' hash codes, null keys counting 0. */
    public static int hashAll(Entry e) {
        int h = 0;
        while (e != null) {
            Object k = e.key;
            h += k == null ? 0 : k.hashCode();
            e = e.next;
        }
        return h;
    }
}
