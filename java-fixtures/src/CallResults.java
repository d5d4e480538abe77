/**
 * Call summaries (docs/proving.md, *Call summaries*): the result of an abstracted call related
 * to its arguments by affine equalities found on the callee's method graph. `nest` returns 0
 * for every argument it returns from (by induction over the recursion), so the outer call
 * `nest(nest(x - 1))` gets 0 < x; `minus` keeps `x − y` through its loop and returns `x − y`, so
 * `mod`'s loop falls by `y ≥ 1` every lap; `dec(x, k)` returns `x − 1` after `k` recursive calls.
 * Inequalities hold under what every call site guarantees: `rem(a, b)` called with `b ≥ 1`
 * returns less than `b` (`gcd`), `capped(n, 100)` at most 100 (`upToClamped`); called with any
 * `b`, `rem` may return `a` itself (`stuck` never ends for `b ≤ 0`).
 */
public class CallResults {
    static int nest(int x) {
        if (x == 0) {
            return 0;
        }
        return nest(nest(x - 1));
    }

    public static int nestFrom(int x) {
        if (x < 0) {
            return 0;
        }
        return nest(x);
    }

    static int minus(int x, int y) {
        while (y != 0) {
            if (y > 0) {
                y--;
                x--;
            } else {
                y++;
                x++;
            }
        }
        return x;
    }

    public static int mod(int x, int y) {
        while (x >= y && y > 0) {
            x = minus(x, y);
        }
        return x;
    }

    static int dec(int x, int k) {
        if (k == 0) {
            return x - 1;
        }
        return dec(x, k - 1);
    }

    /** Counts `x` down through a recursion that returns `x − 1` after `k` calls. */
    public static int countDown(int x, int k) {
        if (k < 0) {
            return x;
        }
        while (x > 0) {
            x = dec(x, k);
        }
        return x;
    }

    static int rem(int a, int b) {
        while (a >= b && b > 0) {
            a -= b;
        }
        return a;
    }

    /** Euclid with a remainder computed by a loop: `b` falls since `rem(a, b) < b` for `b ≥ 1`. */
    public static int gcd(int a, int b) {
        while (b > 0 && a > 0) {
            int t = b;
            b = rem(a, b);
            a = t;
        }
        return a;
    }

    static int capped(int n, int cap) {
        int c = 0;
        while (c < n && c < cap) {
            c++;
        }
        return c;
    }

    /** The bound is a call result, re-read every lap: at most 100 by `capped`'s summary. */
    public static int upToClamped(int n) {
        int s = 0;
        for (int i = 0; i < capped(n, 100); i++) {
            s += i;
        }
        return s;
    }

    /** Never ends for `a > 0, b ≤ 0`: `rem` returns `a` itself there. */
    public static int stuck(int a, int b) {
        while (a > 0) {
            a = rem(a, b);
        }
        return a;
    }

    /** At most `x − 1`: a recursion's inequality, from a widened fixpoint (`stepLoop`). */
    static int stepDown(int x) {
        if (x <= 10) {
            return x - 1;
        }
        return stepDown(x - 3);
    }

    /** `stepDown(n) ≤ n − 1`: an inequality of a recursion's summary. */
    public static int stepLoop(int n) {
        int c = 0;
        while (n > 0) {
            n = stepDown(n);
            c++;
        }
        return c;
    }

    /** `x − 1` at its base and more above it: no bound survives the widening (`stepStuck`). */
    static int stepUp(int x) {
        if (x <= 10) {
            return x - 1;
        }
        return stepUp(x - 3) + 4;
    }

    /** Never ends from `n ≥ 11`: `stepUp(n) = n − 1 + k` after `k ≥ 1` recursive calls. */
    public static int stepStuck(int n) {
        while (n > 0) {
            n = stepUp(n);
        }
        return n;
    }
}
