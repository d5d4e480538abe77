package everyday;

/**
 * `synchronized` blocks: javac's monitorenter/monitorexit, whose exception handler covers its
 * own monitorexit. On a null lock the block is never entered (monitorenter throws).
 */
public class Synchronized {
    static int sum(int[] a) {
        int s = 0;
        synchronized (a) {
            for (int x : a) {
                s += x;
            }
        }
        return s;
    }

    static int countTo(Object lock, int n) {
        int c = 0;
        synchronized (lock) {
            while (c < n) {
                c++;
            }
        }
        return c;
    }

    static synchronized int guarded(int n) {
        return n > 0 ? n : -n;
    }
}
