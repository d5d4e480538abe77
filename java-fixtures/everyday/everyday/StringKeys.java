package everyday;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Collections whose elements or keys are strings, the way people write word counts. */
public class StringKeys {
    static int wordFreq(String[] ws) {
        Map<String, Integer> m = new HashMap<>();
        for (String w : ws) {
            m.put(w, m.getOrDefault(w, 0) + 1);
        }
        int best = 0;
        for (int v : m.values()) {
            best = Math.max(best, v);
        }
        return best;
    }

    static boolean positiveEntry(Map<String, Integer> m, String k) {
        return m.containsKey(k) && m.get(k) > 0;
    }

    static int distinctWords(String[] ws) {
        Set<String> seen = new HashSet<>();
        int dups = 0;
        for (String w : ws) {
            if (!seen.add(w)) {
                dups++;
            }
        }
        return seen.size() - dups;
    }

    static int keyLengths(String[] ws) {
        Map<String, Integer> m = new HashMap<>();
        for (int i = 0; i < ws.length; i++) {
            if (ws[i] != null) {
                m.put(ws[i], i);
            }
        }
        int total = 0;
        for (String k : m.keySet()) {
            total += k.length();
        }
        return total;
    }

    static int countKnown(List<String> known, String[] ws) {
        int n = 0;
        for (String w : ws) {
            if (known.contains(w)) {
                n++;
            }
        }
        return n;
    }

    static int collectNonEmpty(String[] ws) {
        List<String> out = new ArrayList<>();
        for (String w : ws) {
            if (w != null && !w.isEmpty()) {
                out.add(w);
            }
        }
        int n = 0;
        for (String s : out) {
            n += s.length();
        }
        return n;
    }

    static int asListOfWords(String[] ws) {
        return Arrays.asList(ws).size();
    }

    /** A TreeMap's keys are compared with compareTo: a String against Integer keys throws. */
    static boolean treeHasWord(TreeMap<Integer, Integer> t, String w) {
        return t.containsKey(w);
    }
}
