// Loops under Java's 32-bit ints (issue #38, docs/proving.md *Java ints*): YES where no
// wrap-around can keep them going, never YES where one does.
public class JavaInts {
    static final class Node {
        int value;
        Node next;

        Node(int value, Node next) {
            this.value = value;
            this.next = next;
        }
    }

    // counters the loop never tests, as java.util.LinkedList's size and modCount
    Node head;
    int size;
    int modCount;

    void addFirst(int v) {
        head = new Node(v, head);
        size++;
        modCount++;
    }

    // YES: n falls to 0; size and modCount may wrap, but nothing reads them
    static JavaInts fill(int n) {
        JavaInts l = new JavaInts();
        while (n > 0) {
            l.addFirst(n);
            n--;
        }
        return l;
    }

    // YES under Java ints: every index is below an array length, so no increment wraps; the
    // bound of `i++` and `k++` is an invariant of the loop (`i < a.length` holds all through
    // the inner loop), not a test of the rule that increments (wrap_free.rs)
    static int difference(int[] a, int[] b, int[] d) {
        int k = 0;
        int i = 0;
        while (i < a.length) {
            int j = 0;
            boolean found = false;
            while (j < b.length && !found) {
                if (a[i] == b[j]) {
                    found = true;
                } else {
                    j++;
                }
            }
            if (!found) {
                d[k] = a[i];
                k++;
            }
            i++;
        }
        return k;
    }

    // YES under Java ints: the outer `i++` runs after the inner loop, whose rules do not test
    // `i`; `i < n <= MAX` holds at every inner lap (TPDB Julia Carre's imprimer)
    static int square(int n) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                c ^= j;
            }
        }
        return c;
    }

    // YES under Java ints: the increment runs on the smaller of two different ints, below the
    // larger (`x != y` and `x <= y` give `x < y`; TPDB PastaA10)
    static int meet(int x, int y) {
        while (x != y) {
            if (x > y) {
                y++;
            } else {
                x++;
            }
        }
        return x;
    }

    // YES under Java ints: x and y stay positive at every lap (intervals the loop keeps, no
    // test of the subtracting rule), so `x - y` and `y - x` never leave the int range; the
    // invariants of the ITS with both updates exact show it (wrap_free.rs,
    // exact_by_certified_invariants; TPDB PastaC5)
    static int subtractGcd(int x, int y) {
        if (x > 0 && y > 0) {
            while (x != y) {
                if (x > y) {
                    x = x - y;
                } else {
                    y = y - x;
                }
            }
        }
        return x;
    }

    // Not YES under Java ints: with x = MAX, y + 1 wraps to MIN at y = MAX and the loop goes on
    // forever (TPDB PastaA5; YES over mathematical integers)
    static int untilAbove(int x, int y) {
        while (x >= y + 1) {
            y++;
        }
        return y;
    }

    // Not YES under Java ints: for x > 2^30, y doubles to MIN, then to 0, and stays 0
    // (TPDB PastaC1's inner loop; YES over mathematical integers)
    static int doubling(int x) {
        int y = 1;
        while (x > y) {
            y = 2 * y;
        }
        return y;
    }

    // YES under Java ints: the loop tests `i <= index` only, but `index < size` was tested
    // before it and a size is at most MAX, so `i + 1` never wraps (java.util.LinkedList.entry)
    static final class Counted {
        int size;
    }

    static int walkTo(Counted c, int index) {
        if (index < 0 || index >= c.size) {
            return -1;
        }
        int k = 0;
        if (index < (c.size >> 1)) {
            for (int i = 0; i <= index; i++) {
                k += 2;
            }
        } else {
            for (int i = c.size; i > index; i--) {
                k += 2;
            }
        }
        return k;
    }

    // Not YES under Java ints: with index = MAX, `i <= index` holds for every int and
    // `i + 1` wraps to MIN
    static int walkToUnchecked(int index) {
        if (index < 0) {
            return -1;
        }
        int k = 0;
        for (int i = 0; i <= index; i++) {
            k += 2;
        }
        return k;
    }
}
