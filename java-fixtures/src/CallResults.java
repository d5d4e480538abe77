/**
 * Call summaries (docs/proving.md, *Call summaries*): the result of an abstracted call related
 * to its arguments by affine equalities found on the callee's method graph. `nest` returns 0
 * for every argument it returns from (by induction over the recursion), so the outer call
 * `nest(nest(x - 1))` gets 0 < x; `minus` keeps `x − y` through its loop and returns `x − y`, so
 * `mod`'s loop falls by `y ≥ 1` every lap; `dec(x, k)` returns `x − 1` after `k` recursive calls.
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
}
