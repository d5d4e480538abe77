package everyday;

import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * LinkedHashMap and LinkedHashSet: a HashMap and a HashSet whose iterators follow the insertion
 * order (their own iterator, view and entry classes, which the recorder follows through the
 * `after` links).
 */
public class LinkedCollections {
    // YES: character counts in first-seen order
    static Map<Character, Integer> firstSeenCounts(String s) {
        Map<Character, Integer> m = new LinkedHashMap<>();
        for (int i = 0; i < s.length(); i++) m.put(s.charAt(i), m.getOrDefault(s.charAt(i), 0) + 1);
        return m;
    }

    // YES: the distinct words in first-seen order
    static Set<String> distinctWords(String[] words) {
        return new LinkedHashSet<>(Arrays.asList(words));
    }

    // YES: three values into a set, summed by its iterator (the set's own iterator class)
    static int distinctSum(int a, int b, int c) {
        Set<Integer> s = new LinkedHashSet<>();
        s.add(a);
        s.add(b);
        s.add(c);
        int t = 0;
        for (Iterator<Integer> it = s.iterator(); it.hasNext(); ) t += it.next();
        return t;
    }

    // YES: counts of three keys, read back through the entry set
    static int countKeys(int a, int b, int c) {
        Map<Integer, Integer> m = new LinkedHashMap<>();
        m.merge(a, 1, Integer::sum);
        m.merge(b, 1, Integer::sum);
        m.merge(c, 1, Integer::sum);
        int t = 0;
        for (Map.Entry<Integer, Integer> e : m.entrySet()) t += e.getKey() * e.getValue();
        return t;
    }

    // YES: the key and value views of a map built in a loop (a negative capacity throws)
    static int keysAndValues(int n) {
        Map<Integer, Integer> m = new LinkedHashMap<>(n);
        for (int i = 0; i < n; i++) m.put(i % 7, i);
        int t = 0;
        for (int k : m.keySet()) t += k;
        for (int v : m.values()) t += v;
        return t;
    }

    // YES: removal through the set's iterator
    static int dropEven(int[] a) {
        Set<Integer> s = new LinkedHashSet<>();
        for (int x : a) s.add(x);
        Iterator<Integer> it = s.iterator();
        while (it.hasNext()) if (it.next() % 2 == 0) it.remove();
        return s.size();
    }

    // MAYBE: a removal other than through the iterator ends the loop with
    // ConcurrentModificationException at the next next(), unless no element is left; the model
    // keeps no count of a stale iterator (the JDK's fail-fast is "on a best-effort basis")
    static int removeWhileIterating(int n) {
        Set<Integer> s = new LinkedHashSet<>();
        for (int i = 0; i < n; i++) s.add(i);
        int c = 0;
        for (int x : s) {
            if (x == 1) s.remove(0);
            c++;
        }
        return c;
    }

    // YES: a parameter declared a LinkedHashMap (drawn as one; a Map parameter is never one)
    static int entrySum(LinkedHashMap<Integer, Integer> m) {
        int t = 0;
        for (Map.Entry<Integer, Integer> e : m.entrySet()) t += e.getKey() + e.getValue();
        return t;
    }

    // YES: copies of a map (HashMap(Map), LinkedHashMap(Map)) have its size
    static int copies(Map<Integer, Integer> m, int k) {
        Map<Integer, Integer> c = new java.util.HashMap<>(m);
        c.put(k, 1);
        Map<Integer, Integer> d = new LinkedHashMap<>(c);
        int t = 0;
        for (int v : d.values()) t += v;
        return t + c.size() * 100 + m.size() * 10000;
    }
}
