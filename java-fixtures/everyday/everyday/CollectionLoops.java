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
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;

/** Loops over the JDK's collections: one family or use each, inputs of collection types. */
public class CollectionLoops {
    /** For-each over a parameter list. */
    static int countPositive(List<Integer> xs) {
        int n = 0;
        for (int x : xs) {
            if (x > 0) n++;
        }
        return n;
    }

    /** A list built in a loop, then its size. */
    static int buildList(int n) {
        List<Integer> r = new ArrayList<>();
        for (int i = 0; i < n; i++) r.add(i * 2);
        return r.size();
    }

    /** A list built in a loop, then iterated. */
    static int buildAndIterate(int n) {
        ArrayList<Integer> r = new ArrayList<>();
        for (int i = n; i > 0; i--) r.add(i);
        int s = 0;
        for (Integer x : r) s += x;
        return s;
    }

    /** Removal through the iterator. */
    static int dropNegatives(List<Integer> xs) {
        Iterator<Integer> it = xs.iterator();
        while (it.hasNext()) {
            if (it.next() < 0) it.remove();
        }
        return xs.size();
    }

    /** A queue filled, then drained in a loop. */
    static int drain(int n) {
        Queue<Integer> q = new ArrayDeque<>();
        for (int i = 0; i < n; i++) q.offer(i);
        int steps = 0;
        while (!q.isEmpty()) {
            q.poll();
            steps++;
        }
        return steps;
    }

    /** A linked list as a queue. */
    static int linkedQueue(int n) {
        LinkedList<Integer> q = new LinkedList<>();
        for (int i = 0; i < n; i++) q.addLast(i);
        int last = -1;
        while (!q.isEmpty()) last = q.removeFirst();
        return last;
    }

    /** A map counting occurrences. */
    static int countKeys(int a, int b, int c) {
        Map<Integer, Integer> m = new HashMap<>();
        m.put(a, 1);
        Integer old = m.get(b);
        m.put(b, old == null ? 1 : old + 1);
        m.put(c, m.getOrDefault(c, 0) + 1);
        return m.size();
    }

    /** A set of the values seen. */
    static int distinctOf(int a, int b, int c) {
        Set<Integer> seen = new HashSet<>();
        seen.add(a);
        seen.add(b);
        seen.add(c);
        return seen.size();
    }

    /** For-each over a set. */
    static int setSum(Set<Integer> s) {
        int sum = 0;
        for (int x : s) sum += x;
        return sum;
    }

    /** A sorted map's smallest key. */
    static int smallest(int a, int b) {
        TreeMap<Integer, Integer> m = new TreeMap<>();
        m.put(a, 0);
        m.put(b, 1);
        return m.firstKey();
    }

    /** `List.of` of two: an immutable list, iterated; adding to it throws. */
    static int pairSum(int a, int b) {
        List<Integer> p = List.of(a, b);
        int s = 0;
        for (int x : p) s += x;
        return s;
    }

    /** `Arrays.asList`: a fixed-size list of the arguments. */
    static int asListSize(int a, int b, int c) {
        List<Integer> l = Arrays.asList(a, b, c);
        int n = 0;
        for (Integer x : l) {
            if (x != null) n++;
        }
        return n + l.size();
    }

    /** Indexed loop over a list parameter of the interface type. */
    static int sumIndexed(List<Integer> xs) {
        int s = 0;
        for (int i = 0; i < xs.size(); i++) s += xs.get(i);
        return s;
    }

    /** A deque parameter used as a stack until empty. */
    static int popAll(Deque<Integer> d) {
        int n = 0;
        while (!d.isEmpty()) {
            d.pop();
            n++;
        }
        return n;
    }

    /** A map parameter queried for a key. */
    static int lookup(Map<Integer, Integer> m, int k) {
        Integer v = m.get(k);
        return v == null ? -1 : m.size();
    }

    /** Modification of the list while iterating it: ConcurrentModificationException. */
    static int addWhileIterating(List<Integer> xs) {
        int n = 0;
        for (int x : xs) {
            if (x < 0) xs.add(0);
            n++;
        }
        return n;
    }

    /** A sorted copy: the first element. */
    static int minOf(int a, int b, int c) {
        List<Integer> xs = new ArrayList<>(List.of(a, b, c));
        java.util.Collections.sort(xs);
        return xs.get(0);
    }

    /** A TreeSet of three, drained from its smallest: as many laps as distinct values. */
    static int distinctSorted(int a, int b, int c) {
        java.util.TreeSet<Integer> s = new java.util.TreeSet<>();
        s.add(a);
        s.add(b);
        s.add(c);
        int n = 0;
        while (s.pollFirst() != null) n++;
        return n;
    }

    // YES: a list of any family filtered into a new one; the iterator of each family the
    // parameter may be keeps its remaining count (its paths are not merged into one
    // `Iterator` of no count while `out` grows)
    static List<Integer> evens(List<Integer> xs) {
        List<Integer> out = new ArrayList<>();
        for (Integer x : xs) {
            if (x % 2 == 0) out.add(x);
        }
        return out;
    }

    // YES: brackets matched on a stack of Character boxes
    static boolean balanced(String s) {
        Deque<Character> open = new ArrayDeque<>();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(' || c == '[') {
                open.push(c);
            } else if (c == ')' || c == ']') {
                if (open.isEmpty()) return false;
                char o = open.pop();
                if ((c == ')' && o != '(') || (c == ']' && o != '[')) return false;
            }
        }
        return open.isEmpty();
    }

    // YES: the most frequent character's count, in a map keyed by Character
    static int mostFrequent(String s) {
        Map<Character, Integer> counts = new HashMap<>();
        for (char c : s.toCharArray()) counts.put(c, counts.getOrDefault(c, 0) + 1);
        int best = 0;
        for (int v : counts.values()) best = Math.max(best, v);
        return best;
    }

    // YES: the first character seen twice
    static char firstRepeated(String s) {
        Set<Character> seen = new HashSet<>();
        for (char c : s.toCharArray()) {
            if (!seen.add(c)) return c;
        }
        return ' ';
    }

    // YES: each `true` of remove(Object) took one element away (a list of any family; an
    // Arrays.asList list throws where it finds one)
    static int removeAll(List<Integer> xs, Integer x) {
        int removed = 0;
        while (xs.remove(x)) removed++;
        return removed;
    }

    // YES: a set of words, one `true` of add per new word
    static int countNew(Set<String> seen, String[] words) {
        int n = 0;
        for (String w : words) {
            if (seen.add(w)) n++;
        }
        return n;
    }

    // YES: Arrays.asList's list: remove(Object) and clear() throw only when there is an
    // element to remove
    static int fixedSize(int n) {
        List<Integer> l = Arrays.asList(1, 2, 3);
        int r = l.remove(Integer.valueOf(n)) ? 1 : 0;
        List<Integer> none = Arrays.asList();
        none.clear();
        return r + none.size();
    }

    // YES: word counts by merge with a method reference (a new key grows the map)
    static int wordMerge(String[] words) {
        Map<String, Integer> counts = new HashMap<>();
        for (String w : words) counts.merge(w, 1, Integer::sum);
        int best = 0;
        for (int v : counts.values()) best = Math.max(best, v);
        return best;
    }

    // merge on three keys; its map's size is what the checker's model tests change
    static int mergeKeys(int a, int b, int c) {
        Map<Integer, Integer> m = new HashMap<>();
        m.merge(a, 1, Integer::sum);
        m.merge(b, 1, Integer::sum);
        m.merge(c, 1, Math::max);
        return m.size() + m.get(a);
    }

    // YES: swap neighbours along a list of n numbers (no size change), then the first with
    // the k-th, which throws IndexOutOfBoundsException when k is out of range
    static int swapPairs(int n, int k) {
        List<Integer> xs = new ArrayList<>();
        for (int i = 0; i < n; i++) xs.add(i);
        for (int i = 0; i + 1 < xs.size(); i += 2) java.util.Collections.swap(xs, i, i + 1);
        java.util.Collections.swap(xs, 0, k);
        return xs.size();
    }

    // YES: List.of's lists refuse set, so swap throws UnsupportedOperationException for any
    // index in range
    static int swapImmutable(int a, int b, int k) {
        List<Integer> xs = List.of(a, b);
        try {
            java.util.Collections.swap(xs, 0, k);
        } catch (UnsupportedOperationException e) {
            return 1;
        }
        return 0;
    }

    // YES: the k largest of an array by a max-heap (a queue in reverse order)
    static int largestSum(int[] a, int k) {
        java.util.PriorityQueue<Integer> q = new java.util.PriorityQueue<>(java.util.Comparator.reverseOrder());
        for (int x : a) q.add(x);
        int s = 0;
        for (int i = 0; i < k && !q.isEmpty(); i++) s += q.poll();
        return s;
    }

    // YES: sort descending, then walk; a capacity below 1 throws IllegalArgumentException
    static int descending(List<Integer> xs, int cap) {
        xs.sort(java.util.Comparator.reverseOrder());
        java.util.Collections.sort(xs, java.util.Collections.reverseOrder());
        java.util.PriorityQueue<Integer> q = new java.util.PriorityQueue<>(cap, java.util.Collections.reverseOrder());
        for (int x : xs) q.offer(x);
        int n = 0;
        while (q.poll() != null) n++;
        return n;
    }

    // three numbers through a max-heap; its size is what the checker's model tests change
    static int reverseQueue(int a, int b, int c) {
        java.util.PriorityQueue<Integer> q = new java.util.PriorityQueue<>(java.util.Comparator.reverseOrder());
        q.add(a);
        q.add(b);
        q.add(c);
        return q.size() + q.poll();
    }

    // YES: defensive copies: of a built list, of List.of's list (itself), of an empty list
    // (JDK 17's one empty list, as List.of() is)
    static int copies(int n) {
        List<Integer> xs = new ArrayList<>();
        for (int i = 0; i < n; i++) xs.add(i);
        List<Integer> c = List.copyOf(xs);
        List<Integer> three = List.of(1, 2, 3);
        List<Integer> none = List.copyOf(new ArrayList<Integer>());
        int s = 0;
        for (int x : c) s += x;
        return s + (List.copyOf(three) == three ? 1 : 0) + (none == List.<Integer>of() ? 2 : 0);
    }

    // YES: a copy of a list holding null throws NullPointerException
    static int copyOrMinus(int n, boolean withNull) {
        List<Integer> xs = new LinkedList<>();
        for (int i = 0; i < n; i++) xs.add(withNull && i == 1 ? null : i);
        try {
            return List.copyOf(xs).size();
        } catch (NullPointerException e) {
            return -1;
        }
    }

    // YES: the first position of each word (putIfAbsent keeps the first)
    static int firstPositions(String[] words) {
        Map<String, Integer> first = new HashMap<>();
        for (int i = 0; i < words.length; i++) first.putIfAbsent(words[i], i);
        return first.size();
    }

    // YES: a union of two lists through a set (addAll adds at most the other's size)
    static int unionSize(List<Integer> a, List<Integer> b) {
        Set<Integer> s = new HashSet<>(a);
        boolean grew = s.addAll(b);
        int n = 0;
        for (int x : s) n++;
        return grew ? n : -n;
    }

    // YES: a non-null argument or NullPointerException with a message
    static int checkedLength(String s) {
        return java.util.Objects.requireNonNull(s, "s must not be null").length();
    }

    // addAll and putIfAbsent on three keys; the sizes are what the checker's model tests change
    static int growBoth(int a, int b, int c) {
        Set<Integer> s = new HashSet<>();
        s.addAll(List.of(b, c));
        Map<Integer, Integer> m = new HashMap<>();
        m.putIfAbsent(a, 1);
        m.putIfAbsent(b, 2);
        m.putIfAbsent(c, 3);
        return s.size() * 10 + m.size();
    }

    // YES: parameters declared of collection classes that no input of a wider type is (drawn
    // as declared)
    static int drainAll(java.util.Stack<Integer> s, java.util.PriorityQueue<Integer> q,
            java.util.TreeSet<Integer> t) {
        int n = 0;
        while (!s.isEmpty()) n += s.pop();
        while (!q.isEmpty()) n += q.poll();
        while (!t.isEmpty()) n += t.pollFirst();
        return n;
    }

    // YES: Comparator.naturalOrder() sorts and queues as the natural order does
    static int naturalOrder(List<Integer> xs) {
        java.util.Comparator<Integer> c = java.util.Comparator.naturalOrder();
        xs.sort(c);
        java.util.PriorityQueue<Integer> q = new java.util.PriorityQueue<>(c);
        for (int x : xs) q.add(x);
        int n = 0;
        while (q.poll() != null) n++;
        return n;
    }
}
