/**
 * Sizes of objects the program builds (docs/proving.md, *Sizes*): a realized object's size is
 * at most one more than the sum of its children's, and exactly that when its children's
 * structures are disjoint and acyclic. `skipTwo` recurses on `new Nat(x.pred.pred)`, whose size
 * `1 + |x.pred.pred|` is below `|x|`; `copy` returns an object of its argument's size, which the
 * summary of its recursion keeps, so `chop`'s recursion on `copy(x.pred)` falls too.
 */
public class Sizes {
    static final class Nat {
        Nat pred;

        Nat(Nat pred) {
            this.pred = pred;
        }
    }

    public static int skipTwo(Nat x) {
        if (x == null || x.pred == null) {
            return 0;
        }
        return 1 + skipTwo(new Nat(x.pred.pred));
    }

    static Nat copy(Nat x) {
        if (x == null) {
            return null;
        }
        return new Nat(copy(x.pred));
    }

    public static int chop(Nat x) {
        if (x == null) {
            return 0;
        }
        return 1 + chop(copy(x.pred));
    }

    /**
     * A suffix of `x`, so no larger: an inequality of a recursion's summary, found by a widened
     * fixpoint; `chunks`' recursion on `drop(x.pred, 2)` falls by it. `grow` returns a larger
     * object, so `spin`'s recursion on it never ends.
     */
    static Nat drop(Nat x, int k) {
        if (x == null || k <= 0) {
            return x;
        }
        return drop(x.pred, k - 1);
    }

    public static int chunks(Nat x) {
        if (x == null) {
            return 0;
        }
        return 1 + chunks(drop(x.pred, 2));
    }

    static Nat grow(Nat x, int k) {
        if (k <= 0) {
            return new Nat(x);
        }
        return grow(new Nat(x), k - 1);
    }

    public static int spin(Nat x, int k) {
        if (x == null) {
            return 0;
        }
        return 1 + spin(grow(x.pred, k), k);
    }
}
