package everyday;

/** A singly linked list as application code writes it. */
class Node {
    int value;
    Node next;

    Node(int value, Node next) {
        this.value = value;
        this.next = next;
    }
}

/** Everyday loops and recursions over {@link Node} lists. */
public class Lists {
    static int length(Node n) {
        int len = 0;
        for (Node c = n; c != null; c = c.next) len++;
        return len;
    }

    static int sum(Node n) {
        int s = 0;
        while (n != null) {
            s += n.value;
            n = n.next;
        }
        return s;
    }

    static int sumRec(Node n) {
        return n == null ? 0 : n.value + sumRec(n.next);
    }

    static boolean contains(Node n, int x) {
        for (Node c = n; c != null; c = c.next) {
            if (c.value == x) return true;
        }
        return false;
    }

    static Node reverse(Node n) {
        Node prev = null;
        while (n != null) {
            Node next = n.next;
            n.next = prev;
            prev = n;
            n = next;
        }
        return prev;
    }

    static int max(Node n) {
        if (n == null) throw new IllegalArgumentException("empty list");
        int m = n.value;
        for (Node c = n.next; c != null; c = c.next) m = Math.max(m, c.value);
        return m;
    }

    static Node removeAll(Node n, int x) {
        while (n != null && n.value == x) n = n.next;
        Node c = n;
        while (c != null && c.next != null) {
            if (c.next.value == x) c.next = c.next.next;
            else c = c.next;
        }
        return n;
    }

    static Node insertSorted(Node n, int x) {
        if (n == null || x <= n.value) return new Node(x, n);
        Node c = n;
        while (c.next != null && c.next.value < x) c = c.next;
        c.next = new Node(x, c.next);
        return n;
    }

    static boolean isSorted(Node n) {
        if (n == null) return true;
        for (Node c = n; c.next != null; c = c.next) {
            if (c.value > c.next.value) return false;
        }
        return true;
    }

    static Node build(int n) {
        Node head = null;
        for (int i = n; i > 0; i--) head = new Node(i, head);
        return head;
    }

    // YES: a list walked by its ListIterator, zeros removed through it
    static int dropZeros(java.util.List<Integer> xs) {
        java.util.ListIterator<Integer> it = xs.listIterator();
        int kept = 0;
        while (it.hasNext()) {
            if (it.next() == 0) it.remove();
            else kept++;
        }
        return kept;
    }

    // an Arrays.asList list's ListIterator (AbstractList's): remove() after a next() throws
    // UnsupportedOperationException, before one IllegalStateException
    static int fixedWalk(int a, int b) {
        java.util.ListIterator<Integer> it = java.util.Arrays.asList(a, b).listIterator();
        if (a < 0) it.remove();
        int n = 0;
        while (it.hasNext()) {
            if (it.next() == 0) it.remove();
            n++;
        }
        return n;
    }

    // List.of's ListIterator
    static int immutableWalk(int a, int b, int c) {
        java.util.ListIterator<Integer> it = java.util.List.of(a, b, c).listIterator();
        int t = 0;
        while (it.hasNext()) t += it.next();
        return t;
    }
}
