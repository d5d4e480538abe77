package everyday;

import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.IntBinaryOperator;
import java.util.function.IntPredicate;
import java.util.function.IntSupplier;
import java.util.function.IntUnaryOperator;
import java.util.function.LongUnaryOperator;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * invokedynamic beyond the shared everyday fixtures: captures of locals and of {@code this},
 * method references of each kind, lambdas in loops and in fields, and string concatenation of
 * every kind of value.
 */
public class Indy {
    interface Shape {
        int area();
    }

    static final class Square implements Shape {
        final int side;

        Square(int side) {
            this.side = side;
        }

        public int area() {
            return side * side;
        }
    }

    static final class Point {
        int x;

        Point(int x) {
            this.x = x;
        }
    }

    static final class Named {
        @Override
        public String toString() {
            return "named";
        }
    }

    static final class Holder {
        IntUnaryOperator op;
    }

    int base;

    static int twice(int v) {
        return 2 * v;
    }

    int addBase(int v) {
        return v + base;
    }

    int getBase() {
        return base;
    }

    // ---- captures ----

    static int captureLocals(int a, int b) {
        IntSupplier s = () -> a - b;
        return s.getAsInt();
    }

    int captureThis(int v) {
        IntUnaryOperator f = x -> x + base;
        return f.applyAsInt(v);
    }

    static long captureLong(long k, long x) {
        LongUnaryOperator f = v -> v * k;
        return f.applyAsLong(x);
    }

    // ---- method references: static, bound, unbound, interface, constructor ----

    static int staticRef(int x) {
        IntUnaryOperator f = Indy::twice;
        return f.applyAsInt(x);
    }

    int boundRef(int x) {
        IntUnaryOperator f = this::addBase;
        return f.applyAsInt(x);
    }

    static int unboundRef(Indy o) {
        ToIntFunction<Indy> f = Indy::getBase;
        return f.applyAsInt(o);
    }

    static int interfaceRef(int side) {
        Shape s = new Square(side);
        IntSupplier f = s::area;
        return f.getAsInt();
    }

    static int constructorRef(int n) {
        Supplier<StringBuilder> f = StringBuilder::new;
        StringBuilder sb = f.get();
        for (int i = 0; i < n; i++) sb.append('x');
        return sb.toString().length();
    }

    // ---- loops, fields, arguments ----

    static int loop(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            IntUnaryOperator f = v -> v + 1;
            s = f.applyAsInt(s);
        }
        return s;
    }

    static int loopCapture(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            final int k = i;
            IntUnaryOperator f = v -> v + k;
            s = f.applyAsInt(s);
        }
        return s;
    }

    static int storedField(int x, int k) {
        Holder h = new Holder();
        h.op = v -> v * k;
        return h.op.applyAsInt(x);
    }

    static int generic(int x) {
        Function<Integer, Integer> f = v -> v + 1;
        return f.apply(x);
    }

    static boolean predicate(int x) {
        IntPredicate p = v -> v > 10;
        return p.test(x);
    }

    static int applyTwice(IntUnaryOperator f, int x) {
        return f.applyAsInt(f.applyAsInt(x));
    }

    static int lambdaArgument(int x) {
        return applyTwice(v -> v * 3, x);
    }

    static int combine(int a, int b) {
        IntBinaryOperator op = (p, q) -> p - q;
        return op.applyAsInt(a, b);
    }

    // ---- string concatenation ----

    static String ofChar(char c) {
        return "c=" + c;
    }

    static String ofLong(long v) {
        return v + "L";
    }

    static String ofDouble(double d) {
        return "d=" + d;
    }

    static String ofNullable(String s) {
        return "[" + s + "]";
    }

    static String ofBoolean(boolean b) {
        return "b:" + b;
    }

    static String ofObject(Point p) {
        return "p=" + p;
    }

    static String ofNamed(Named n) {
        return "n=" + n;
    }

    static int concatLength(int n, String s) {
        String t = n + s + n;
        return t.length();
    }

    static int concatInLoop(int n) {
        String s = "";
        for (int i = 0; i < n; i++) s = s + i;
        return s.length();
    }

    // ---- what the engine refuses, named ----

    /** Integer::sum as a BinaryOperator<Integer>: its spun class unboxes and boxes. */
    static int boxedRef(int a, int b) {
        BinaryOperator<Integer> f = Integer::sum;
        return f.apply(a, b);
    }

    static int programResultBoxed(int side) {
        Function<Square, Integer> area = Square::area;
        return area.apply(new Square(side));
    }
}
