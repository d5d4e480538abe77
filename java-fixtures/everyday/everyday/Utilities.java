package everyday;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Small utilities over the JDK: java.util.Collections' helpers, StringBuilder ranges. */
public class Utilities {
    /** The numbers below n, last first. */
    static List<Integer> reversed(int n) {
        List<Integer> xs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            xs.add(i);
        }
        Collections.reverse(xs);
        return xs;
    }

    /**
     * Collections.reverse of a parameter (an ArrayList: an Arrays.asList list, which the closed
     * world of the fixtures also holds, writes through to its array, which is not modelled).
     */
    static int reverseAndCount(ArrayList<Integer> xs) {
        Collections.reverse(xs);
        int n = 0;
        for (Integer x : xs) {
            n++;
        }
        return n;
    }

    static int maxOf(List<Integer> xs) {
        return xs.isEmpty() ? 0 : Collections.max(xs);
    }

    static int minOf(List<Integer> xs) {
        return xs.isEmpty() ? 0 : Collections.min(xs);
    }

    /** Collections.reverse of List.of's list: UnsupportedOperationException from two on. */
    static int reverseImmutable(int n) {
        List<Integer> xs = n > 1 ? List.of(1, n) : List.of(n);
        Collections.reverse(xs);
        return xs.size();
    }

    /** The spread of three numbers by Collections.max and min (no null, no empty list). */
    static int spread(int a, int b, int c) {
        List<Integer> xs = List.of(a, b, c);
        return Collections.max(xs) - Collections.min(xs);
    }

    /** How often x occurs in xs (Collections.frequency: o.equals(e), JDK code for an Integer). */
    static int countOf(List<Integer> xs, int x) {
        return Collections.frequency(xs, x);
    }

    /** The words of s in reverse order, copied by StringBuilder.append(CharSequence, int, int). */
    static String reverseWords(String s) {
        StringBuilder out = new StringBuilder();
        int end = s.length();
        for (int i = s.length() - 1; i >= -1; i--) {
            if (i == -1 || s.charAt(i) == ' ') {
                if (end > i + 1) {
                    if (out.length() > 0) {
                        out.append(' ');
                    }
                    out.append(s, i + 1, end);
                }
                end = i;
            }
        }
        return out.toString();
    }

    /** A range of a string that may be null or out of bounds. */
    static int appendRange(String s, int from, int to) {
        StringBuilder sb = new StringBuilder();
        sb.append(s, from, to);
        return sb.length();
    }

    /** set on a List parameter of any class: an Arrays.asList list's array is its own here. */
    static int incrementAll(List<Integer> xs) {
        for (int i = 0; i < xs.size(); i++) {
            xs.set(i, xs.get(i) + 1);
        }
        return xs.size();
    }

    /** Collections.reverse of a List parameter of any class. */
    static int reverseAny(List<Integer> xs) {
        Collections.reverse(xs);
        return xs.size();
    }

    /** set through Arrays.asList onto an array the method holds: the write-through is not modelled. */
    static int setThrough(Integer[] a) {
        List<Integer> l = java.util.Arrays.asList(a);
        if (!l.isEmpty()) {
            l.set(0, 7);
        }
        return a[0];
    }

    // YES: dice rolled with a generator the caller passes (drawn by its constructor)
    static int rolls(java.util.Random r, int n) {
        int s = 0;
        for (int i = 0; i < n; i++) s += r.nextInt(6) + 1;
        return s;
    }
}
