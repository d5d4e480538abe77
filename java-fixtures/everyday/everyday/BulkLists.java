package everyday;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;

/** Whole collections at once: addAll and toArray, and loops over what they give. */
public class BulkLists {
    static int concatSize(List<Integer> a, List<Integer> b) {
        List<Integer> r = new ArrayList<>(a);
        r.addAll(b);
        return r.size();
    }

    static int drainAll(LinkedList<Integer> a, ArrayList<Integer> b) {
        int c = 0;
        if (a.addAll(b)) c++;
        while (!a.isEmpty()) {
            a.removeFirst();
            c++;
        }
        return c;
    }

    static int keysThenCount(Map<Integer, Integer> m) {
        List<Integer> ks = new ArrayList<>();
        ks.addAll(m.keySet());
        ks.addAll(m.values());
        int c = 0;
        for (int i = 0; i < ks.size(); i++) c++;
        return c;
    }

    static int arrayLength(List<Integer> xs) {
        Integer[] a = xs.toArray(new Integer[0]);
        int s = 0;
        for (int i = 0; i < a.length; i++) {
            if (a[i] != null && a[i] > 0) s++;
        }
        return s;
    }

    static int objects(List<Integer> xs) {
        Object[] a = xs.toArray();
        return a.length;
    }

    static int stringsOfInts(ArrayList<Integer> xs) {
        String[] a = xs.toArray(new String[0]);
        return a.length;
    }

    static int doubling(int n) {
        List<Integer> xs = new ArrayList<>();
        xs.add(n);
        int rounds = 0;
        while (xs.size() < n) {
            xs.addAll(xs);
            rounds++;
        }
        return rounds;
    }
}
