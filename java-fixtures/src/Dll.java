/**
 * A doubly linked list with a sentinel header, as java.util.LinkedList (issue #21): `build`
 * links `n` entries in, `removeFirst` unlinks the first one (the TPDB juLinkedListCreatePoll
 * family: every entry's `next` and `previous` form cycles through the header).
 */
public class Dll {
    static class Entry {
        int value;
        Entry next;
        Entry previous;
    }

    Entry header;
    int size;

    Dll() {
        header = new Entry();
        header.next = header;
        header.previous = header;
    }

    void addLast(int v) {
        Entry e = new Entry();
        e.value = v;
        e.next = header;
        e.previous = header.previous;
        e.previous.next = e;
        e.next.previous = e;
        size++;
    }

    int remove(Entry e) {
        if (e == header) {
            return -1;
        }
        int v = e.value;
        e.previous.next = e.next;
        e.next.previous = e.previous;
        e.next = null;
        e.previous = null;
        size--;
        return v;
    }

    /** Builds a list of `n` entries and removes its first one. */
    public static int buildAndRemove(int n) {
        Dll l = new Dll();
        while (n > 0) {
            l.addLast(n);
            n--;
        }
        return l.remove(l.header.next);
    }
}
