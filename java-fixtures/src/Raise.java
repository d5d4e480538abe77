/**
 * A program exception class: its JDK superclass's private state (Throwable's backtrace, its
 * cause pointing back at the exception itself) is outside the model, so a run that throws it
 * must match the graph without it (TPDB Java_Util/juLinkedList*'s NoSuchElementException).
 */
public class Raise {
    static class Empty extends RuntimeException {
        int code;

        Empty(int code) {
            this.code = code;
        }
    }

    /** The first value of a list, or an Empty (caught below) for no list. */
    static int first(List l) {
        if (l == null) {
            throw new Empty(7);
        }
        return l.val;
    }

    static int firstOr(List l, int dflt) {
        try {
            return first(l);
        } catch (Empty e) {
            return dflt + e.code;
        }
    }
}
