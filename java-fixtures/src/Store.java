/**
 * Stores into arrays of references (issue #21): an array the program allocated has an exact
 * runtime type, so storing a subclass object is decided (no ArrayStoreException); a store into
 * an array of unknown length is hidden sharing between the array and the stored object.
 */
public class Store {
    static class A {
        int v;
    }

    static final class B extends A {
    }

    /** Fills a fresh `A[2]` with an `A` and a `B` and reads one back. */
    public static int mixed(int x) {
        A[] data = new A[2];
        data[0] = new A();
        data[1] = new B();
        data[1].v = x;
        return data[x > 0 ? 1 : 0].v;
    }

    /** The list's nodes in a fresh array of the list's length. */
    public static Object[] nodes(List l) {
        int n = 0;
        for (List c = l; c != null; c = c.next) {
            n++;
        }
        Object[] out = new Object[n];
        int i = 0;
        for (List c = l; c != null && i < n; c = c.next) {
            out[i++] = c;
        }
        return out;
    }
}
