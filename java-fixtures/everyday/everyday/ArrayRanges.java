package everyday;

import java.util.Arrays;

/** Arrays.copyOfRange and Arrays.binarySearch the way people call them. */
public class ArrayRanges {
    static int[] tail(int[] a, int from) {
        return Arrays.copyOfRange(a, from, a.length);
    }

    static int[] head(int[] a, int k) {
        return Arrays.copyOfRange(a, 0, k);
    }

    static long[] dropFirst(long[] a) {
        return Arrays.copyOfRange(a, 1, a.length);
    }

    static int halvings(int[] a) {
        int n = 0;
        while (a.length > 1) {
            a = Arrays.copyOfRange(a, a.length / 2, a.length);
            n++;
        }
        return n;
    }

    static int search(int[] a, int k) {
        int[] c = Arrays.copyOf(a, a.length);
        Arrays.sort(c);
        return Arrays.binarySearch(c, k);
    }

    static int insertionPoint(char[] cs, char c) {
        int i = Arrays.binarySearch(cs, c);
        return i >= 0 ? i : -(i + 1);
    }
}
