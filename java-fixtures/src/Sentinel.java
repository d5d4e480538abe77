/**
 * A cyclic doubly linked list with a header sentinel, as java.util.LinkedList (jtg issue #19):
 * `indexOf` walks from the header's successor along `next` until it meets the header again.
 * The list's sizes do not decrease along the walk (it is cyclic); the distance to the header
 * along `next` does (start state `Sentinel.indexOf.cyclic.state`).
 */
public class Sentinel {
    static class Node {
        int value;
        Node next;
        Node previous;
    }

    Node header;

    int indexOf(int v) {
        int index = 0;
        for (Node e = header.next; e != header; e = e.next) {
            if (e.value == v) {
                return index;
            }
            index++;
        }
        return -1;
    }
}
