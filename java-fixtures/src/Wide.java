/** long, float and double values: longs are integers (category 2), floats are coarse. */
public class Wide {
    long total;
    static long counter;

    /** A loop on a long counter: `lcmp` against a literal refines the counter. */
    static int countDownLong(int n) {
        long x = n;
        int steps = 0;
        while (x > 0L) {
            x = x - 1L;
            steps++;
        }
        return steps;
    }

    /** A long accumulator, a long constant (ldc2_w) and a long static. */
    static long sumTo(int n) {
        long s = 1234567890123L;
        for (int i = 0; i < n; i++) {
            s += i;
        }
        counter = s;
        return s;
    }

    /** `lcmp` of two unknown longs, then l2i, shifts and a long division. */
    static int compare(int a, int b) {
        long x = a;
        long y = (long) a * b;
        if (x < y) {
            return (int) (y >> 3) + (int) (y / 7L);
        }
        if (x == y) {
            return 0;
        }
        return (int) (x % 5L);
    }

    static long twice(long v) {
        return v + v;
    }

    /** Long arguments (two local slots), pop2, dup2, dup2_x1, dup2_x2, long fields and arrays. */
    static long shapes(int n) {
        twice(n);
        Wide w = new Wide();
        long[] a = new long[2];
        a[1] = n;
        w.total = a[1] += 5L;
        long t = w.total += twice(a[0]);
        return t - a[1];
    }

    /** Floats and doubles: a float accumulator, conversions and comparisons. */
    static int floats(int n) {
        float f = 0.0f;
        double d = n;
        int k = 0;
        while (k < n && k < 100) {
            f += 0.5f;
            d = d * 2.0;
            k++;
        }
        if (f > d) {
            return 1;
        }
        float[] fs = new float[1];
        fs[0] = (float) d;
        return (int) f + (int) (d / 3.0) + (int) (long) fs[0];
    }
}
