package everyday;

/** Everyday methods of issue #36 (daily use): bounded prove and trace, verdicts that state their model. */
public class Daily {
    /** A recursion as deep as its argument. */
    static int ternaryRec(int n) {
        return n <= 0 ? 0 : 1 + ternaryRec(n - 1);
    }

    /** Ends under mathematical integers; with n = Integer.MAX_VALUE, i overflows in Java and it does not. */
    static int upTo(int n) {
        int steps = 0;
        for (int i = 0; i <= n; i++) {
            steps++;
        }
        return steps;
    }

    /** Never ends: every call makes another, until the JVM's stack overflows. */
    static int down(int n) {
        return down(n + 1) + 1;
    }
}
