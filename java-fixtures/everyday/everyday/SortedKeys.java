package everyday;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Sorted collections of strings, in methods that also hold integers: a TreeMap, TreeSet,
 * PriorityQueue or sort compares with compareTo, which throws ClassCastException across
 * Integer and String. The model keeps no element, so where the collections may hold both a
 * comparison on a non-empty collection may throw or not; the raw-typed methods do throw.
 */
public class SortedKeys {
    /** Word counts in a TreeMap: merge of String keys. */
    static int countWords(String[] words) {
        Map<String, Integer> counts = new TreeMap<>();
        for (String w : words) counts.merge(w, 1, Integer::sum);
        return counts.size();
    }

    /** Word counts into a map the caller gives (any Map: a TreeMap of Integer keys throws). */
    static int countInto(Map<String, Integer> counts, String[] words) {
        for (String w : words) counts.put(w, counts.getOrDefault(w, 0) + 1);
        return counts.size();
    }

    /** Distinct words drained from a TreeSet in order. */
    static int drainDistinct(String[] words) {
        TreeSet<String> set = new TreeSet<>();
        for (String w : words) set.add(w);
        int n = 0;
        while (!set.isEmpty()) {
            n += set.pollFirst().length();
        }
        return n;
    }

    /** Strings through a priority queue. */
    static int queueLengths(String[] words) {
        PriorityQueue<String> q = new PriorityQueue<>();
        for (String w : words) q.add(w);
        int n = 0;
        while (!q.isEmpty()) n += q.poll().length();
        return n;
    }

    /** A sorted list of words and its largest. */
    static int sortedWords(String[] words) {
        List<String> xs = new ArrayList<>();
        for (String w : words) xs.add(w);
        Collections.sort(xs);
        return xs.isEmpty() ? 0 : Collections.max(xs).length();
    }

    /** Removal of words from a set the caller gives (a TreeSet of Integers throws). */
    static int removeAll(Set<String> set, String[] words) {
        int n = 0;
        for (String w : words) {
            if (set.remove(w)) n++;
        }
        return n;
    }

    /** Integers and a string in one raw list: sorting two or more throws ClassCastException. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    static int sortMixed(String[] words) {
        List xs = new ArrayList();
        for (int i = 0; i < words.length; i++) xs.add(i);
        xs.add("end");
        Collections.sort(xs);
        return xs.size();
    }

    /** A String key into a TreeMap of Integer keys: ClassCastException once it is not empty. */
    static int stringKeyAfterInts(TreeMap<Integer, Integer> m, String k) {
        m.put(m.size(), 0);
        return m.containsKey(k) ? 1 : 0;
    }

    /** A sorted copy of a list the caller gives, drained: null elements throw. */
    static int drainCopy(List<Integer> xs) {
        TreeSet<Integer> set = new TreeSet<>(xs);
        int n = 0;
        while (!set.isEmpty()) {
            set.pollFirst();
            n++;
        }
        return n;
    }

    /** Distinct words of an array through a TreeSet copy of its list view. */
    static int distinctWords(String[] words) {
        return new TreeSet<>(java.util.Arrays.asList(words)).size();
    }

    /** For-each over a TreeSet the caller gives. */
    static int sumSorted(TreeSet<Integer> set) {
        int n = 0;
        for (int x : set) n += x;
        return n;
    }

    /** Words in order: a TreeSet built, then iterated. */
    static int sortedLengths(String[] words) {
        TreeSet<String> set = new TreeSet<>();
        for (String w : words) set.add(w);
        int n = 0;
        for (String w : set) n += w.length();
        return n;
    }

    /** Removal through a TreeSet's iterator. */
    static int removeBelow(TreeSet<Integer> set, int bound) {
        java.util.Iterator<Integer> it = set.iterator();
        while (it.hasNext()) {
            if (it.next() < bound) it.remove();
        }
        return set.size();
    }
}
