package everyday;

import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/** Iteration over a map's keys, values and entries (keySet(), values(), entrySet()). */
public class MapViews {
    static int sumKeys(HashMap<Integer, Integer> m) {
        int s = 0;
        for (Integer k : m.keySet()) {
            if (k != null) {
                s += k;
            }
        }
        return s;
    }

    static int sumValues(HashMap<Integer, Integer> m) {
        int s = 0;
        for (Integer v : m.values()) {
            if (v != null) {
                s += v;
            }
        }
        return s;
    }

    static int maxValue(HashMap<Integer, Integer> m) {
        int best = Integer.MIN_VALUE;
        for (Map.Entry<Integer, Integer> e : m.entrySet()) {
            Integer v = e.getValue();
            if (v != null && v > best) {
                best = v;
            }
        }
        return best;
    }

    /** The most frequent number of a, by a HashMap of counts and a pass over its entries. */
    static int mostFrequent(int[] a) {
        HashMap<Integer, Integer> counts = new HashMap<>();
        for (int x : a) {
            counts.put(x, counts.getOrDefault(x, 0) + 1);
        }
        int best = 0;
        int bestCount = 0;
        for (Map.Entry<Integer, Integer> e : counts.entrySet()) {
            if (e.getValue() > bestCount) {
                best = e.getKey();
                bestCount = e.getValue();
            }
        }
        return best;
    }

    /** Removal through the key set's iterator removes from the map. */
    static int removeBelow(HashMap<Integer, Integer> m, int t) {
        Iterator<Integer> it = m.keySet().iterator();
        while (it.hasNext()) {
            Integer k = it.next();
            if (k == null || k < t) {
                it.remove();
            }
        }
        return m.size();
    }

    /** JDK 17 caches a map's views: keySet() twice is one object. */
    static boolean sameKeySet(HashMap<Integer, Integer> m) {
        return m.keySet() == m.keySet() && m.keySet().size() == m.size();
    }

    /** Removing from the map while iterating its keys: ConcurrentModificationException. */
    static int removeWhileIterating(HashMap<Integer, Integer> m) {
        int n = 0;
        try {
            for (Integer k : m.keySet()) {
                n++;
                m.remove(k);
            }
        } catch (ConcurrentModificationException e) {
            return -1;
        }
        return n;
    }

    static boolean emptyValues(HashMap<Integer, Integer> m) {
        return m.values().isEmpty();
    }

    /** A Map parameter: a HashMap or a TreeMap (keys in order). */
    static int countKeysAbove(Map<Integer, Integer> m, int t) {
        int n = 0;
        for (Integer k : m.keySet()) {
            if (k != null && k > t) {
                n++;
            }
        }
        return n;
    }

    /** Removal through a TreeMap's entry iterator. */
    static int dropNullValues(TreeMap<Integer, Integer> m) {
        Iterator<Map.Entry<Integer, Integer>> it = m.entrySet().iterator();
        while (it.hasNext()) {
            if (it.next().getValue() == null) {
                it.remove();
            }
        }
        return m.size();
    }
}
