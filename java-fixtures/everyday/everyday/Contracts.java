package everyday;

/**
 * Loops bounded by what a library call's contract relates to its arguments: `Math.min`/`max`
 * bound their result by each operand, `indexOf(c, from)` finds at or after `from`,
 * `lastIndexOf(c, from)` at or before it, `x << k` is `x · 2ᵏ`, and `(long) i` is `i` (as is
 * `(int) j` of a long inside the int range); `x & m` of a non-negative `m` lies in `[0, m]`
 * (`x & (x - 1)` below `x`). The two `never*` loops do
 * not end once entered: their proofs must not say YES.
 */
public class Contracts {
    static int clampDown(int x) {
        int steps = 0;
        while (x > 0) {
            x = Math.min(x - 1, 100);
            steps++;
        }
        return steps;
    }

    static int strideUp(int n, int k) {
        int c = 0;
        for (int i = 0; i < n; i = Math.max(i + 1, i + k)) {
            c++;
        }
        return c;
    }

    static long clampLong(long x) {
        long steps = 0;
        while (x > 0) {
            x = Math.min(x - 2, 1000L);
            steps++;
        }
        return steps;
    }

    static int countSpaces(String s) {
        int c = 0;
        int i = 0;
        while ((i = s.indexOf(' ', i)) >= 0) {
            c++;
            i++;
        }
        return c;
    }

    static int countFromEnd(String s, char ch) {
        int c = 0;
        int i = s.length();
        while (i > 0 && (i = s.lastIndexOf(ch, i - 1)) >= 0) {
            c++;
        }
        return c;
    }

    static int occurrences(String s, String word) {
        int c = 0;
        int i = s.indexOf(word);
        while (i >= 0 && i < s.length()) {
            c++;
            i = s.indexOf(word, i + 1);
        }
        return c;
    }

    static int nextPowerOfTwo(int n) {
        int p = 1;
        while (p < n && p < (1 << 30)) {
            p <<= 1;
        }
        return p;
    }

    static long doublings(long n) {
        long p = 1;
        int c = 0;
        while (p < n && p < (1L << 40)) {
            p = p << 1;
            c++;
        }
        return c;
    }

    static int sieve(int n) {
        if (n < 2) {
            return 0;
        }
        boolean[] composite = new boolean[n + 1];
        int primes = 0;
        for (int i = 2; i <= n; i++) {
            if (!composite[i]) {
                primes++;
                for (long j = (long) i * i; j <= n; j += i) {
                    composite[(int) j] = true;
                }
            }
        }
        return primes;
    }

    static int popCount(int x) {
        if (x < 0) {
            return -1;
        }
        int c = 0;
        while (x != 0) {
            x &= x - 1;
            c++;
        }
        return c;
    }

    static int bucketOf(int[] table, int hash) {
        if (table.length == 0) {
            return -1;
        }
        return table[(hash & 0x7fffffff) % table.length];
    }

    static int neverBelowOne(int x) {
        while (x > 0) {
            x = Math.max(x - 1, 1);
        }
        return x;
    }

    static int neverPastFound(String s) {
        int c = 0;
        int i = 0;
        while ((i = s.indexOf('a', i)) >= 0) {
            c++;
        }
        return c;
    }
}
