/**
 * An expression tree behind an abstract class: `Expr.evaluate` names no subclass, so only a
 * generator that draws every subtype on the class path reaches `Lit`, `Add` and `Neg`.
 */
public abstract class Expr {
    abstract int eval();

    /** Dispatches on the runtime class of `e` (null throws). */
    static int evaluate(Expr e) {
        return e.eval();
    }
}

class Lit extends Expr {
    int value;

    int eval() {
        return value;
    }
}

class Add extends Expr {
    Expr left;
    Expr right;

    int eval() {
        return left.eval() + right.eval();
    }
}

class Neg extends Expr {
    Expr inner;

    int eval() {
        return -inner.eval();
    }
}
