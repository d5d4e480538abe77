package everyday;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Everyday code over the JDK's collections. */
public class Collections {
    static int sum(List<Integer> xs) {
        int s = 0;
        for (int x : xs) s += x;
        return s;
    }

    static int sumIndexed(ArrayList<Integer> xs) {
        int s = 0;
        for (int i = 0; i < xs.size(); i++) s += xs.get(i);
        return s;
    }

    static List<Integer> range(int n) {
        List<Integer> r = new ArrayList<>();
        for (int i = 0; i < n; i++) r.add(i);
        return r;
    }

    static int evens(int n) {
        List<Integer> r = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (i % 2 == 0) r.add(i);
        }
        return r.size();
    }

    static int removeNegatives(List<Integer> xs) {
        int removed = 0;
        Iterator<Integer> it = xs.iterator();
        while (it.hasNext()) {
            if (it.next() < 0) {
                it.remove();
                removed++;
            }
        }
        return removed;
    }

    static int distinct(int[] a) {
        Set<Integer> seen = new HashSet<>();
        for (int x : a) seen.add(x);
        return seen.size();
    }

    static int mostFrequent(int[] a) {
        Map<Integer, Integer> counts = new HashMap<>();
        int best = 0;
        int bestCount = 0;
        for (int x : a) {
            int c = counts.getOrDefault(x, 0) + 1;
            counts.put(x, c);
            if (c > bestCount) {
                best = x;
                bestCount = c;
            }
        }
        return best;
    }

    static int drainQueue(int n) {
        Deque<Integer> q = new ArrayDeque<>();
        for (int i = 0; i < n; i++) q.addLast(i);
        int s = 0;
        while (!q.isEmpty()) s += q.pollFirst();
        return s;
    }

    static int linkedStack(int n) {
        LinkedList<Integer> st = new LinkedList<>();
        for (int i = 0; i < n; i++) st.push(i);
        int s = 0;
        while (!st.isEmpty()) s += st.pop();
        return s;
    }

    static int firstKey(int[] a) {
        TreeMap<Integer, Integer> m = new TreeMap<>();
        for (int x : a) m.put(x, x);
        return m.isEmpty() ? -1 : m.firstKey();
    }

    static int sumOf3(int a, int b, int c) {
        int s = 0;
        for (int x : List.of(a, b, c)) s += x;
        return s;
    }

    static int sortedFirst(int a, int b, int c) {
        List<Integer> xs = new ArrayList<>(Arrays.asList(a, b, c));
        java.util.Collections.sort(xs);
        return xs.get(0);
    }

    static boolean containsAll(List<Integer> xs, int[] ys) {
        for (int y : ys) {
            if (!xs.contains(y)) return false;
        }
        return true;
    }

    static int floorOr(int[] a, int k) {
        TreeMap<Integer, Integer> m = new TreeMap<>();
        for (int x : a) m.put(x, 1);
        Integer f = m.floorKey(k);
        return f == null ? -1 : f;
    }

    static int countUpward(int[] a) {
        TreeMap<Integer, Integer> m = new TreeMap<>();
        for (int x : a) m.put(x, x);
        int c = 0;
        for (Integer k = m.isEmpty() ? null : m.firstKey(); k != null; k = m.higherKey(k)) c++;
        return c;
    }

    static int lowerOf(TreeMap<Integer, Integer> m, Integer k) {
        Integer l = m.lowerKey(k);
        Integer c = m.ceilingKey(k);
        return (l == null ? 0 : 1) + (c == null ? 0 : 2);
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    static int higherOfText(TreeMap<Integer, Integer> m, String s) {
        return ((TreeMap) m).higherKey(s) == null ? 0 : 1;
    }

    static int stackSum(int n) {
        java.util.Stack<Integer> st = new java.util.Stack<>();
        for (int i = 0; i < n; i++) st.push(i);
        int s = 0;
        while (!st.empty()) s += st.pop();
        return s;
    }

    static int stackTop(int n) {
        java.util.Stack<Integer> st = new java.util.Stack<>();
        for (int i = 0; i < n; i++) st.add(i);
        return st.peek() + (st.isEmpty() ? 0 : st.size());
    }

    static Integer pushed(int x) {
        java.util.Stack<Integer> st = new java.util.Stack<>();
        return st.push(x);
    }

    static int queueDrain(int n) {
        java.util.PriorityQueue<Integer> q = new java.util.PriorityQueue<>();
        for (int i = n; i > 0; i--) q.add(i % 10);
        int s = 0;
        while (!q.isEmpty()) s += q.poll();
        return s;
    }

    static int queuePolled(int n) {
        java.util.PriorityQueue<Integer> q = new java.util.PriorityQueue<>();
        for (int i = 0; i < n; i++) q.offer(i);
        int c = 0;
        while (q.poll() != null) c++;
        return c;
    }

    /** add(null) throws NullPointerException, element() of an empty queue NoSuchElementException. */
    static int queueHead(int n, Integer x) {
        java.util.PriorityQueue<Integer> q = new java.util.PriorityQueue<>();
        if (n > 0) q.add(x);
        int h = q.element();
        q.remove();
        return h + q.size() + (q.peek() == null ? 0 : 1) + (q.contains(x) ? 1 : 0);
    }
}
