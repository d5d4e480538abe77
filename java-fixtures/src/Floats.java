/**
 * Floats and doubles as inputs: branches on comparisons that NaN, the signed zeros and the
 * infinities decide (dcmpl/dcmpg, fcmpl/fcmpg). Every branch is taken by some boundary value
 * the generator draws (0.0, -0.0, ±1, NaN, ±∞, MIN_VALUE, MAX_VALUE).
 */
public class Floats {
    /** The class of a double: NaN, ±∞, large, ±0.0, small. */
    static int classify(double d) {
        if (d != d) {
            // only NaN differs from itself (dcmpl is -1 for an unordered pair)
            return 0;
        }
        if (d > 1.0) {
            return d == Double.POSITIVE_INFINITY ? 1 : 2;
        }
        if (d < -1.0) {
            return d == Double.NEGATIVE_INFINITY ? 3 : 4;
        }
        if (d == 0.0) {
            // -0.0 == 0.0, but 1/-0.0 is -∞
            return 1.0 / d > 0.0 ? 5 : 6;
        }
        return 7;
    }

    /** Three-way comparison of floats, with the unordered case (a or b NaN) last. */
    static int compare(float a, float b) {
        if (a < b) {
            // fcmpg: NaN gives 1, so `<` is false
            return -1;
        }
        if (a > b) {
            // fcmpl: NaN gives -1, so `>` is false
            return 1;
        }
        if (a == b) {
            return 0;
        }
        return 2;
    }
}
