/** Inputs the generator must reach: long parameters and fields, statics, long lists. */
public class GenInputs {
    static int limit;
    static GenInputs shared;
    long stamp;
    double weight;
    int val;
    GenInputs next;

    /** A long parameter against long constants and a shift loop (at most 64 rounds). */
    static int bits(long x) {
        if (x == Long.MIN_VALUE) {
            return -1;
        }
        int n = 0;
        while (x != 0L) {
            x = x >>> 1;
            n++;
        }
        return n;
    }

    /** Counts the nodes of a list whose stamp is positive: long fields of objects. */
    static int stamped(GenInputs p) {
        int n = 0;
        while (p != null) {
            if (p.stamp > 0L) {
                n++;
            }
            p = p.next;
        }
        return n;
    }

    /** A loop bounded by a static: the start state's `static:` line drives `limit`. */
    static int upTo(int n) {
        int s = 0;
        for (int i = 0; i < limit && i < n; i++) {
            s += i;
        }
        return s;
    }

    /** Writes through a static that may alias the parameter (start predicate between them). */
    static int clear(GenInputs p) {
        if (shared != null) {
            shared.val = 0;
        }
        return p.val;
    }

    /** The length of an array: a counter that runs past the small sizes. */
    static int count(int[] a) {
        int i = 0;
        while (i < a.length) {
            i++;
        }
        return i;
    }
}
