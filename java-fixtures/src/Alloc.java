/**
 * Allocation as large as an input asks: `fill(n)` allocates `new int[n]` and loops over it. The
 * generator's boundary bias picks n = 2^31-1, which no JVM heap holds; other large n give arrays
 * whose recording the run's recording budget bounds (jtg-jvm's TraceOptions::max_heap).
 */
public class Alloc {
    /** n (n >= 0) after writing and reading back every element of a fresh int[n]. */
    static int fill(int n) {
        int[] b = new int[n];
        for (int i = 0; i < n; i++) {
            b[i] = 1;
        }
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += b[i];
        }
        return s;
    }

    /** fill(n), or -1 if it throws: a handler the recorder must not let run once it stopped. */
    static int guarded(int n) {
        try {
            return fill(n);
        } catch (Throwable t) {
            return -1;
        }
    }

    /**
     * The length after n appends to a string that is copied each time: quadratic allocation, most
     * of it garbage — but every string the run shows keeps its recorder id, so the recorder holds
     * them all until the JVM's heap runs out (the run's outcome, not a failure of its batch).
     */
    static int strings(int n) {
        String s = "";
        for (int i = 0; i < n; i++) {
            s = s + "abcdefghijklmnopqrstuvwxyz";
        }
        return s.length();
    }
}
