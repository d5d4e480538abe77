/** List algorithms over the thesis' List class (fixture suite of the engine). */
public class ListOps {
    static int length(List cur) {
        int n = 0;
        while (cur != null) { n++; cur = cur.next; }
        return n;
    }

    static int sum(List cur) {
        int s = 0;
        while (cur != null) { s = s + cur.val; cur = cur.next; }
        return s;
    }

    /** In-place reversal; returns the new head. */
    static List reverse(List cur) {
        List prev = null;
        while (cur != null) { List next = cur.next; cur.next = prev; prev = cur; cur = next; }
        return prev;
    }

    /** Destructive append of b behind a. */
    static List append(List a, List b) {
        if (a == null) return b;
        List c = a;
        while (c.next != null) c = c.next;
        c.next = b;
        return a;
    }

    /** A fresh copy of the list. */
    static List copy(List cur) {
        List head = null;
        List tail = null;
        while (cur != null) {
            List n = new List();
            n.val = cur.val;
            if (tail == null) head = n; else tail.next = n;
            tail = n;
            cur = cur.next;
        }
        return head;
    }

    static int countPositive(List cur) {
        int n = 0;
        while (cur != null) { if (cur.val > 0) n++; cur = cur.next; }
        return n;
    }

    /** Removes the first node holding x; returns the new head. */
    static List removeFirst(List head, int x) {
        if (head == null) return null;
        if (head.val == x) return head.next;
        List prev = head;
        List cur = head.next;
        while (cur != null) {
            if (cur.val == x) { prev.next = cur.next; return head; }
            prev = cur;
            cur = cur.next;
        }
        return head;
    }

    /** Floyd's cycle detection: terminates on acyclic, cyclic and panhandle lists. */
    static boolean hasCycle(List head) {
        List slow = head;
        List fast = head;
        while (fast != null && fast.next != null) {
            slow = slow.next;
            fast = fast.next.next;
            if (slow == fast) return true;
        }
        return false;
    }

    /** Throws NullPointerException for lists shorter than two. */
    static int second(List l) {
        return l.next.val;
    }
}
