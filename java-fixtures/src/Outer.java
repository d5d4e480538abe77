/**
 * An inner class: javac's constructor of Cell stores `this$0` before calling `super()`, a
 * putfield on an object that is not initialised yet (TPDB Costa_Julia_09/LinkedList.jar).
 */
public class Outer {
    int v;

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
}
