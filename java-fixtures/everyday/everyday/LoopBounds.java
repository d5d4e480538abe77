package everyday;

import java.util.List;
import java.util.Map;

/**
 * Loops bounded by what an object holds: a field, a collection's size, an array field's
 * length, read again on every lap through a local the loop never assigns. And loops whose
 * bound no variable of the proof holds (an array cell, a field two hops away): they end, so
 * they must never be NO.
 */
public class LoopBounds {
    int n;
    int[] data;

    static final class Box {
        int count;
        Box inner;
    }

    /** The bound is a field of a parameter. */
    static int fieldBound(Box b) {
        int s = 0;
        for (int i = 0; i < b.count; i++) s += i;
        return s;
    }

    /** The bound is a field of this object. */
    int ownField() {
        int s = 0;
        for (int i = 0; i < n; i++) s += i;
        return s;
    }

    /** The bound is the length of an array field of this object. */
    int arrayField() {
        int s = 0;
        for (int i = 0; i < data.length; i++) s += data[i];
        return s;
    }

    /** The bound is a list's size(). */
    static int listSize(List<Integer> xs) {
        int s = 0;
        for (int i = 0; i < xs.size(); i++) s += xs.get(i);
        return s;
    }

    /** A counter against a map's size(). */
    static int mapSize(Map<Integer, Integer> m) {
        int k = 0;
        while (k < m.size()) k++;
        return k;
    }

    /** The loop counts a parameter's field down. */
    static int countDown(Box b) {
        int s = 0;
        while (b.count > 0) {
            b.count--;
            s++;
        }
        return s;
    }

    /** Counts an array cell down: the cell is no variable of the proof. */
    static int cellCountDown(int[] a) {
        int s = 0;
        while (a.length > 0 && a[0] > 0) {
            a[0]--;
            s++;
        }
        return s;
    }

    /** Counts a field two hops away down. */
    static int innerCountDown(Box b) {
        int s = 0;
        while (b.inner.count > 0) {
            b.inner.count--;
            s++;
        }
        return s;
    }
}
