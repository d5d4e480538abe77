package everyday;

import java.util.Iterator;
import java.util.PriorityQueue;
import java.util.Stack;

/** For-each over a Stack (a Vector's iterator) and a PriorityQueue (in heap order). */
public class QueueIteration {
    /** For-each over a stack the caller gives. */
    static int sumStack(Stack<Integer> s) {
        int n = 0;
        for (int x : s) n += x;
        return n;
    }

    /** A stack built, then iterated bottom to top. */
    static int pushedLengths(String[] words) {
        Stack<String> s = new Stack<>();
        for (String w : words) s.push(w);
        int n = 0;
        for (String w : s) n += w.length();
        return n;
    }

    /** For-each over a priority queue the caller gives. */
    static int sumQueue(PriorityQueue<Integer> q) {
        int n = 0;
        for (int x : q) n += x;
        return n;
    }

    /** Removal through a priority queue's iterator (a removal may move the last element
     * behind the cursor, which the iterator still returns). */
    static int dropNegatives(PriorityQueue<Integer> q) {
        Iterator<Integer> it = q.iterator();
        while (it.hasNext()) {
            if (it.next() < 0) it.remove();
        }
        return q.size();
    }

    /** Removal through a stack's iterator. */
    static int dropZeros(Stack<Integer> s) {
        Iterator<Integer> it = s.iterator();
        while (it.hasNext()) {
            Integer x = it.next();
            if (x != null && x == 0) it.remove();
        }
        return s.size();
    }

    /**
     * A removal through the iterator that moves the heap's last element behind the cursor
     * (removing 11 from [0, 10, 1, 11, 12, 2] moves 2 up to slot 1): the iterator still
     * returns it, after the heap's other slots (JDK 17 forgetMeNot).
     */
    static int movedBehind() {
        PriorityQueue<Integer> q = new PriorityQueue<>();
        q.add(0);
        q.add(10);
        q.add(1);
        q.add(11);
        q.add(12);
        q.add(2);
        int seen = 0;
        Iterator<Integer> it = q.iterator();
        while (it.hasNext()) {
            if (it.next() == 11) it.remove();
            seen++;
        }
        return seen;
    }
}
