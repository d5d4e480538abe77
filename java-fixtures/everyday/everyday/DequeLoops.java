package everyday;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Iterator;

/**
 * Loops over any collection or iterable, an ArrayDeque among them: its iterator
 * (ArrayDeque$DeqIterator) counts down its own remaining elements and is not fail-fast.
 */
public class DequeLoops {
    // YES: the sum of any collection (a Collection parameter may be an ArrayDeque)
    static int sumAll(Collection<Integer> c) {
        int n = 0;
        for (int x : c) n += x;
        return n;
    }

    // YES: the same over an Iterable
    static int sumIterable(Iterable<Integer> c) {
        int n = 0;
        for (int x : c) n += x;
        return n;
    }

    // YES: removal through a deque's iterator
    static int dropNegatives(int[] a) {
        ArrayDeque<Integer> d = new ArrayDeque<>();
        for (int x : a) d.add(x);
        Iterator<Integer> it = d.iterator();
        while (it.hasNext()) if (it.next() < 0) it.remove();
        return d.size();
    }

    // YES: adding while iterating: the iterator still ends after the count it started with
    // (or throws ConcurrentModificationException where it meets an empty slot)
    static int growWhileIterating(int n) {
        ArrayDeque<Integer> d = new ArrayDeque<>();
        for (int i = 0; i < n; i++) d.add(i);
        int c = 0;
        for (int x : d) {
            if (c < 3) d.addLast(x);
            c++;
        }
        return c;
    }

    // three values into a deque, summed by its iterator: the count the checker's model tests
    // change
    static int threeSum(int a, int b, int c) {
        ArrayDeque<Integer> d = new ArrayDeque<>();
        d.add(a);
        d.add(b);
        d.add(c);
        int t = 0;
        for (Iterator<Integer> it = d.iterator(); it.hasNext(); ) t += it.next();
        return t;
    }
}
