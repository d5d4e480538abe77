/** Non-termination beyond one simple loop (issue #34): infinite recursion, runs that alternate
 *  between branches, and loops that never end under Java's 32-bit ints. */
public class RecNo {
    /** Recurses forever on odd or negative i (i skips 0); ends on even i ≥ 0. */
    static int down2(int i) {
        if (i == 0) return 0;
        return down2(i - 2);
    }

    /** Recurses forever from a positive i (i grows away from 0); ends on i ≤ 0. */
    static int up(int i) {
        if (i <= 0) return 0;
        return up(i + 1);
    }

    /** Mutual recursion: never ends on odd or negative n. */
    static boolean even(int n) {
        if (n == 0) return true;
        return odd(n - 1);
    }

    static boolean odd(int n) {
        if (n == 0) return false;
        return even(n - 1);
    }

    /** Two calls, the first returns: from x > 0 the second call recurses forever. f(1) calls
     *  f(0), which returns, then f(2), which calls f(1) again: the chain of calls that never
     *  return alternates f(2), f(1), with returned calls of f(0) in between. */
    static int twoCalls(int x) {
        if (x <= 0) return 0;
        return twoCalls(x - 1) + twoCalls(x + 1);
    }

    /** Recursion on a list: never ends on a cyclic list. */
    static int len(List l) {
        if (l == null) return 0;
        return 1 + len(l.next);
    }

    /** Alternates between two branches: neither alone repeats, the counter c grows forever. */
    static int alternate(int x) {
        int c = 0;
        while (x != 0) {
            if (x > 0) x = -x;
            else x = -x;
            c++;
        }
        return c;
    }

    /** Never ends on odd x, also with 32-bit wrap-around (x stays odd). */
    static int parity(int x) {
        while (x != 0) x -= 2;
        return x;
    }

    /** Never ends for n = Integer.MAX_VALUE: i <= n always holds, i wraps. */
    static int upTo(int n) {
        int i = 0;
        for (i = 0; i <= n; i++) {}
        return i;
    }

    /** Never ends on mathematical integers from x > 0; Java's ints end it by overflow. */
    static int grow(int x) {
        while (x > 0) x++;
        return x;
    }
}
