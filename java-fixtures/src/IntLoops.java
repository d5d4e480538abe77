/** Integer loops and arithmetic. */
public class IntLoops {
    static int nested(int n, int m) {
        int r = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++)
                r++;
        return r;
    }

    /** A negation and a branch on its result: the labels `i = -j` and `i < 0` of issue #20. */
    static int negate(int a) {
        int b = -a;
        if (b < 0) return 1 - b;
        return b;
    }

    static int countDown(int x) {
        while (x > 0) x--;
        return x;
    }

    static int countUp(int i, int n) {
        while (i < n) i++;
        return i;
    }

    static int gcdSub(int a, int b) {
        while (a > 0 && b > 0) {
            if (a > b) a = a - b; else b = b - a;
        }
        return a + b;
    }

    /**
     * The subtractive gcd behind an entry check (TPDB's PastaC5): the loop's guards allow
     * a, b <= 0, its ranking functions need the interval invariant a, b >= 1 at its head.
     */
    static int gcdPositive(int a, int b) {
        if (a <= 0 || b <= 0) return 0;
        while (a != b) {
            if (a > b) a = a - b; else b = b - a;
        }
        return a;
    }

    static int gcdMod(int a, int b) {
        while (b != 0) { int t = a % b; a = b; b = t; }
        return a;
    }

    /** ArithmeticException when b is 0. */
    static int divide(int a, int b) {
        return a / b;
    }

    /** Catches the division by zero. */
    static int safeDivide(int a, int b) {
        try { return a / b; } catch (ArithmeticException e) { return 0; }
    }

    /**
     * Two calls of a static loop on ints: each is an abstract call of gcdMod's own method
     * graph (built once), not an unrolled copy per call site.
     */
    static int gcdBoth(int a, int b) {
        return gcdMod(a, b) + gcdMod(b, 6);
    }
}
