/**
 * An inner class: javac's constructor of Cell stores `this$0` before calling `super()`, a
 * putfield on an object that is not initialised yet (TPDB Costa_Julia_09/LinkedList.jar).
 */
public class Outer {
    int v;

    Outer() {}

    Outer(int v) {
        this.v = v;
    }

    class Cell {
        int get() {
            return v;
        }
    }

    static int make(int x) {
        Outer o = new Outer();
        o.v = x;
        Cell c = o.new Cell();
        return c.get();
    }

    /**
     * The uninitialised object of `new Outer` is on the stack across a branch, so a stack map
     * frame names it by the offset of its `new`.
     */
    static int pick(int x) {
        return new Outer(x > 0 ? x : -x).v;
    }

    /** Its constructor runs the (traced) superclass constructor Outer(int) before `w = x`. */
    static class Sub extends Outer {
        int w;

        Sub(int x) {
            super(x + 1);
            w = x;
        }
    }

    static int chain(int x) {
        Sub s = new Sub(x);
        return s.v + s.w;
    }

    /** `o.new Cell()` on a maybe-null `o`: javac's Objects.requireNonNull throws the NPE. */
    static int cellOf(Outer o) {
        return o.new Cell().get();
    }
}
