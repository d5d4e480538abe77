// Features of the Termination Competition programs: main(String[]) with args lengths as
// inputs, arrays, recursion (call abstraction), exceptions leaving recursive calls.
public class Corpus {
    static int fact(int n) {
        if (n <= 0) return 1;
        return n * fact(n - 1);
    }

    static int down(int[] a, int i) {
        if (i < 0) throw new IllegalStateException();
        a[i] = i;
        if (i == 0) return a[0];
        return down(a, i - 1);
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? args[0].length() : 0;
        int[] a = new int[n + 1];
        int s = 0;
        for (int i = 0; i < a.length; i++) {
            a[i] = i;
            s += a[i];
        }
        try {
            s += down(a, n);
        } catch (IllegalStateException e) {
            s = 0;
        }
        s = fact(s);
    }

    public static void small(String[] args) {
        int[] b = new int[3];
        b[args.length % 3] = 7;
        Object[] o = new String[2];
        int k = b[0] + b[1] + b[2];
        if (k > 0 && o[0] == null) {
            k = args[k].length();
        }
    }
}
