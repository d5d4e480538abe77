package everyday;

/** Everyday loops over arrays. */
public class ArrayLoops {
    static int sum(int[] a) {
        int s = 0;
        for (int i = 0; i < a.length; i++) s += a[i];
        return s;
    }

    static int sumForEach(int[] a) {
        int s = 0;
        for (int x : a) s += x;
        return s;
    }

    static int max(int[] a) {
        int m = Integer.MIN_VALUE;
        for (int i = 0; i < a.length; i++) {
            if (a[i] > m) m = a[i];
        }
        return m;
    }

    static int indexOf(int[] a, int x) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == x) return i;
        }
        return -1;
    }

    static void reverseInPlace(int[] a) {
        for (int i = 0, j = a.length - 1; i < j; i++, j--) {
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }

    static void bubbleSort(int[] a) {
        for (int i = 0; i < a.length; i++) {
            for (int j = 0; j + 1 < a.length - i; j++) {
                if (a[j] > a[j + 1]) {
                    int t = a[j];
                    a[j] = a[j + 1];
                    a[j + 1] = t;
                }
            }
        }
    }

    static int binarySearch(int[] a, int key) {
        int lo = 0;
        int hi = a.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < key) lo = mid + 1;
            else if (a[mid] > key) hi = mid - 1;
            else return mid;
        }
        return -(lo + 1);
    }

    static boolean isPalindrome(int[] a) {
        int i = 0;
        int j = a.length - 1;
        while (i < j) {
            if (a[i] != a[j]) return false;
            i++;
            j--;
        }
        return true;
    }

    static int countEven(int[] a) {
        int c = 0;
        for (int x : a) {
            if (x % 2 == 0) c++;
        }
        return c;
    }

    static int[] prefixSums(int[] a) {
        int[] p = new int[a.length + 1];
        for (int i = 0; i < a.length; i++) p[i + 1] = p[i] + a[i];
        return p;
    }

    static int matrixSum(int[][] m) {
        int s = 0;
        for (int i = 0; i < m.length; i++) {
            for (int j = 0; j < m[i].length; j++) s += m[i][j];
        }
        return s;
    }

    static int[] range(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) r[i] = i;
        return r;
    }

    static int countNonNull(Object[] xs) {
        int c = 0;
        for (Object x : xs) {
            if (x != null) c++;
        }
        return c;
    }

    /** A labeled continue out of the inner loop of a jagged grid. */
    static int rowsWithZero(int[][] g) {
        int found = 0;
        outer:
        for (int i = 0; i < g.length; i++) {
            for (int j = 0; j < g[i].length; j++) {
                if (g[i][j] == 0) {
                    found++;
                    continue outer;
                }
            }
        }
        return found;
    }

    /** The words' characters, each word re-read from the array at every character. */
    static int lettersA(String[] words) {
        int c = 0;
        for (int i = 0; i < words.length; i++) {
            for (int j = 0; j < words[i].length(); j++) {
                if (words[i].charAt(j) == 'a') c++;
            }
        }
        return c;
    }

    /** Replaces the row it walks by a longer one: never ends on a non-empty first row. */
    static int growRow(int[][] g) {
        int c = 0;
        for (int j = 0; j < g[0].length; j++) {
            g[0] = new int[g[0].length + 1];
            c++;
        }
        return c;
    }
}
