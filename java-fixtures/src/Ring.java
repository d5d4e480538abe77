/** A cyclic list walked around back to its start. */
public class Ring {
    Ring next;
    int val;

    int iterate() {
        int n = 1;
        Ring current = this.next;
        while (current != this) { current = current.next; n++; }
        return n;
    }
}
