/**
 * Rapid type analysis (issue #21): the classes a run can make bound virtual dispatch and
 * instance refinement. `main` makes `Rta$Node`, `Rta$Dec` and `Rta$Half` objects; no code it
 * reaches makes a `Rta$Grow`, so its calls of `Step.apply` never run `Grow.apply`. `run` may be
 * given a list whose steps are of every class.
 */
public class Rta {
    abstract static class Step {
        abstract int apply(int x);
    }

    static final class Dec extends Step {
        int apply(int x) {
            return x - 1;
        }
    }

    static final class Half extends Step {
        int apply(int x) {
            return x / 2;
        }
    }

    /** Never made by code that `main` reaches. */
    static final class Grow extends Step {
        int apply(int x) {
            return x + 1;
        }
    }

    static final class Node {
        Step step;
        Node next;
    }

    /** Grows a list of steps from the arguments, then applies it to their count. */
    public static void main(String[] args) {
        Node list = null;
        for (int i = 0; i < args.length; i++) {
            Node n = new Node();
            n.step = i % 2 == 0 ? new Dec() : new Half();
            n.next = list;
            list = n;
        }
        run(list, args.length);
    }

    /** Applies every node's step to x, first to last. */
    static int run(Node n, int x) {
        while (n != null) {
            x = n.step.apply(x);
            n = n.next;
        }
        return x;
    }

    /** Makes a `Grow`, so that the class path has a `new` of it that `main` does not reach. */
    static Step grow() {
        return new Grow();
    }
}
