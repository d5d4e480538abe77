package everyday;

import java.util.Arrays;

/** Everyday uses of {@link Arrays} and {@link System#arraycopy}. */
public class ArrayUtils {
    static int sortedMedian(int[] a) {
        if (a.length == 0) return 0;
        int[] b = Arrays.copyOf(a, a.length);
        Arrays.sort(b);
        return b[b.length / 2];
    }

    static int[] filled(int n, int v) {
        int[] a = new int[n];
        Arrays.fill(a, v);
        return a;
    }

    static int[] append(int[] a, int x) {
        int[] b = new int[a.length + 1];
        System.arraycopy(a, 0, b, 0, a.length);
        b[a.length] = x;
        return b;
    }

    static int[] doubled(int[] a) {
        int[] b = a.clone();
        for (int i = 0; i < b.length; i++) b[i] *= 2;
        return b;
    }

    static boolean sameContents(int[] a, int[] b) {
        return Arrays.equals(a, b);
    }

    static Integer[] boxedCopy(Integer[] a) {
        return a.clone();
    }

    static int[] grow(int[] a) {
        int[] b = Arrays.copyOf(a, a.length * 2 + 1);
        return b;
    }
}
