package everyday;

/** Everyday integer algorithms. */
public class Numbers {
    static int gcd(int a, int b) {
        while (b != 0) {
            int t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    static int gcdRec(int a, int b) {
        return b == 0 ? a : gcdRec(b, a % b);
    }

    static long factorial(int n) {
        long f = 1;
        for (int i = 2; i <= n; i++) f *= i;
        return f;
    }

    static int fib(int n) {
        int a = 0;
        int b = 1;
        for (int i = 0; i < n; i++) {
            int t = a + b;
            a = b;
            b = t;
        }
        return a;
    }

    static boolean isPrime(int n) {
        if (n < 2) return false;
        for (int d = 2; d * d <= n; d++) {
            if (n % d == 0) return false;
        }
        return true;
    }

    static int digitSum(int n) {
        n = Math.abs(n);
        int s = 0;
        while (n > 0) {
            s += n % 10;
            n /= 10;
        }
        return s;
    }

    static int pow(int b, int e) {
        int r = 1;
        for (int i = 0; i < e; i++) r *= b;
        return r;
    }

    static int abs(int x) {
        return Math.abs(x);
    }

    static long sumTo(long n) {
        long s = 0;
        for (long i = 0; i < n; i++) s += i;
        return s;
    }

    static int bitCount(int x) {
        int c = 0;
        while (x != 0) {
            c += x & 1;
            x >>>= 1;
        }
        return c;
    }

    static int reverseDigits(int n) {
        int r = 0;
        while (n != 0) {
            r = r * 10 + n % 10;
            n /= 10;
        }
        return r;
    }

    static int log2(int n) {
        int k = 0;
        while (n > 1) {
            n >>= 1;
            k++;
        }
        return k;
    }

    static int multiphase(int x, int y) {
        int steps = 0;
        while (x > 0) {
            x = x + y;
            y = y - 1;
            steps++;
        }
        return steps;
    }

    static int succ(int x) {
        return x + 1;
    }

    static int upToSucc(int x) {
        int y = succ(x);
        int n = 0;
        while (x != y) {
            x++;
            n++;
        }
        return n;
    }

    static int clamp(int x, int lo, int hi) {
        return Math.min(Math.max(x, lo), hi);
    }

    static int upToGap(int x, int gap) {
        if (gap < 0) return 0;
        int y = x + gap;
        int n = 0;
        while (x != y) {
            x++;
            n++;
        }
        return n;
    }

    static int digits(int n) {
        int c = 0;
        do {
            n /= 10;
            c++;
        } while (n != 0);
        return c;
    }

    // never ends from n = -1: -1 >> 1 is -1
    static int shiftHalvings(int n) {
        int c = 0;
        while (n != 0) {
            n >>= 1;
            c++;
        }
        return c;
    }
    // a char counter: `d++` is `(char) (d + 1)`, in range since d < c ≤ 65535
    static int lettersBefore(char c) {
        int n = 0;
        for (char d = 'a'; d < c; d++) {
            n++;
        }
        return n;
    }

    // a byte counter: `b++` is `(byte) (b + 1)`, in range since b < limit ≤ 127
    static int byteSteps(byte limit) {
        int n = 0;
        for (byte b = 0; b < limit; b++) {
            n++;
        }
        return n;
    }

    // a long counter tested through `(int) i`: the low 32 bits are i itself while i ≤ n
    static int narrowedCounter(int n) {
        int c = 0;
        for (long i = 0; (int) i < n; i++) {
            c++;
        }
        return c;
    }

    // never ends from limit = 127: b ≤ 127 always holds, 127 + 1 wraps to -128
    static int byteWraps(byte limit) {
        int n = 0;
        for (byte b = 0; b <= limit; b++) {
            n++;
        }
        return n;
    }
}
