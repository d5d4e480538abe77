package everyday;

import java.util.Arrays;

/** Everyday calls into the JDK's arrays, numbers, characters and strings (the models of libs). */
public class JdkLibs {
    // --- arrays ---

    static int[] shiftRight(int[] a) {
        System.arraycopy(a, 0, a, 1, a.length - 1);
        return a;
    }

    static int[] copyRange(int[] src, int from, int n) {
        int[] dst = new int[n];
        System.arraycopy(src, from, dst, 0, n);
        return dst;
    }

    static Object[] copyObjects(Object[] src, int n) {
        Object[] dst = new Object[n];
        System.arraycopy(src, 0, dst, 0, n);
        return dst;
    }

    static String[] concat(String[] a, String[] b) {
        String[] r = new String[a.length + b.length];
        System.arraycopy(a, 0, r, 0, a.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    static int smallCopy() {
        int[] a = {3, 1, 2};
        int[] b = new int[4];
        System.arraycopy(a, 0, b, 1, 3);
        return b[0] + b[1] + b[3];
    }

    static int sumSorted(int[] a) {
        int[] b = a.clone();
        Arrays.sort(b);
        int s = 0;
        for (int i = 0; i < b.length; i++) s += b[i];
        return s;
    }

    static long maxOfSorted(long[] a) {
        if (a.length == 0) return 0;
        Arrays.sort(a);
        return a[a.length - 1];
    }

    static int sortLiteral() {
        int[] a = {5, -2, 9};
        Arrays.sort(a);
        return a[0];
    }

    static char[] filledChars(int n, char c) {
        char[] a = new char[n];
        Arrays.fill(a, c);
        return a;
    }

    static Integer[] fillBoxes(Integer[] a, Integer v) {
        Arrays.fill(a, v);
        return a;
    }

    static Integer[] boxesCopy(Integer[] a, int n) {
        return Arrays.copyOf(a, n);
    }

    static long[] longsCopy(long[] a) {
        return Arrays.copyOf(a, a.length + 1);
    }

    static boolean equalAfterCopy(int[] a) {
        int[] b = Arrays.copyOf(a, a.length);
        return Arrays.equals(a, b);
    }

    static int describeLength(int[] a) {
        return Arrays.toString(a).length() + Arrays.hashCode(a) % 2;
    }

    static Object[] cloneObjects(Object[] a) {
        Object[] b = a.clone();
        if (b.length > 0) b[0] = null;
        return b;
    }

    // --- numbers ---

    static long absLong(long x) {
        return Math.abs(x);
    }

    static int wrapIndex(int i, int n) {
        if (n <= 0) return -1;
        return Math.floorMod(i, n);
    }

    static int floorDivide(int a, int b) {
        return Math.floorDiv(a, b);
    }

    static int checkedAdd(int a, int b) {
        return Math.addExact(a, b);
    }

    static int checkedTimes(int a, int b) {
        return Math.multiplyExact(a, b);
    }

    static int countDownExact(int n) {
        int steps = 0;
        while (n > 0) {
            n = Math.decrementExact(n);
            steps++;
        }
        return steps;
    }

    static double hypotenuse(double a, double b) {
        return Math.sqrt(a * a + b * b) + Math.log(a) + Math.pow(a, b);
    }

    static long longMax(long a, long b) {
        return Math.max(a, b) - Math.min(a, b);
    }

    static int signs(int x, long y) {
        return Integer.signum(x) + Long.signum(y);
    }

    static int compareBoth(int a, int b) {
        return Integer.compare(a, b) + Long.compare(a, b);
    }

    static int bits(int x) {
        return Integer.bitCount(x) + Integer.numberOfLeadingZeros(x) + Long.numberOfTrailingZeros(x);
    }

    static int powerBelow(int x) {
        return Integer.highestOneBit(x);
    }

    static int sums(int a, int b) {
        return Integer.sum(a, b) + Integer.max(a, b);
    }

    static long parseOrZero(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    static int halvings(int n) {
        int k = 0;
        while (n > 1) {
            n = Math.floorDiv(n, 2);
            k++;
        }
        return k;
    }

    // --- characters ---

    static int classify(char c) {
        int r = 0;
        if (Character.isDigit(c)) r += 1;
        if (Character.isLetter(c)) r += 2;
        if (Character.isWhitespace(c)) r += 4;
        if (Character.isUpperCase(c)) r += 8;
        if (Character.isLowerCase(c)) r += 16;
        if (Character.isLetterOrDigit(c)) r += 32;
        return r;
    }

    static int caseAndValue(char c) {
        return Character.toUpperCase(c) + Character.toLowerCase(c) + Character.getNumericValue(c)
                + Character.digit(c, 16);
    }

    static int digitsOf(int n) {
        int k = 0;
        for (char c = '0'; c <= '9'; c++) {
            if (Character.isDigit(c)) k++;
        }
        return k + n;
    }

    // --- strings ---

    static int trimmedLength(String s) {
        return s.trim().length() + s.strip().length();
    }

    static int dropFirstUntilEmpty(String s) {
        int n = 0;
        while (!s.isEmpty()) {
            s = s.substring(1);
            n++;
        }
        return n;
    }

    static int charsSum(String s) {
        int t = 0;
        for (char c : s.toCharArray()) t += c;
        return t;
    }

    static boolean blankOrUpper(String s) {
        return s.isBlank() || s.toUpperCase().equals(s) || s.toLowerCase().equalsIgnoreCase(s);
    }

    static int replaced(String s) {
        return s.replace('a', 'b').length() + s.compareToIgnoreCase("x");
    }

    static String fromChars(char[] cs) {
        return String.valueOf(cs);
    }

    static String numbersText(long x, char c) {
        return Long.toString(x).concat(Character.toString(c));
    }

    static int builderOps(String s, int i) {
        StringBuilder sb = new StringBuilder(s);
        sb.reverse();
        sb.insert(0, 'x');
        sb.insert(0, i);
        int n = sb.length();
        if (i >= 0 && i < n) {
            sb.setCharAt(i, 'y');
            return sb.charAt(i) + sb.deleteCharAt(i).length();
        }
        sb.setLength(0);
        return n;
    }
}
