/*
 * The recorder's object ids (Recorder.ids): an open-addressing identity map, Object -> int id
 * (0 = absent). Single-threaded, like the recorder.
 */
package tracer;

/** Open-addressing identity map Object -> int id (0 = absent). */
final class IdMap {
    Object[] keys = new Object[1 << 8];
    int[] vals = new int[1 << 8];
    int size;

    private static int hash(Object o, int mask) {
        int h = System.identityHashCode(o) * 0x9E3779B9;
        return (h ^ (h >>> 16)) & mask;
    }

    int get(Object o) {
        Object[] ks = keys;
        int mask = ks.length - 1;
        for (int i = hash(o, mask);; i = (i + 1) & mask) {
            Object k = ks[i];
            if (k == o) {
                return vals[i];
            }
            if (k == null) {
                return 0;
            }
        }
    }

    void put(Object o, int v) {
        if (2 * (size + 1) > keys.length) {
            grow();
        }
        Object[] ks = keys;
        int mask = ks.length - 1;
        int i = hash(o, mask);
        while (ks[i] != null && ks[i] != o) {
            i = (i + 1) & mask;
        }
        if (ks[i] == null) {
            size++;
        }
        ks[i] = o;
        vals[i] = v;
    }

    private void grow() {
        Object[] oldK = keys;
        int[] oldV = vals;
        keys = new Object[oldK.length * 2];
        vals = new int[oldK.length * 2];
        size = 0;
        for (int i = 0; i < oldK.length; i++) {
            if (oldK[i] != null) {
                put(oldK[i], oldV[i]);
            }
        }
    }
}
