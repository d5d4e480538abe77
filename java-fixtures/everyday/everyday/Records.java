package everyday;

/** Records (Java 16+): accessors, compact constructors, and the equals/hashCode/toString javac writes as ObjectMethods call sites. */
public class Records {
    record Point(int x, int y) {
        Point {
            if (x < 0 || y < 0) throw new IllegalArgumentException("negative");
        }

        Point plus(Point o) {
            return new Point(x + o.x, y + o.y);
        }

        int manhattan() {
            return x + y;
        }
    }

    record Named(String name, int score) {}

    record Range(int lo, int hi) {
        boolean contains(int v) {
            return lo <= v && v < hi;
        }
    }

    /** A record made in a loop: ends after n laps. */
    static int walk(int n) {
        Point p = new Point(0, 0);
        for (int i = 0; i < n; i++) {
            p = p.plus(new Point(1, 2));
        }
        return p.manhattan();
    }

    /** The equals javac writes (an ObjectMethods call site). */
    static boolean samePoint(int a, int b) {
        return new Point(a, b).equals(new Point(a, b));
    }

    /** The hashCode javac writes. */
    static int pointHash(Point p) {
        return p == null ? 0 : p.hashCode();
    }

    /** The toString javac writes, of a record with a String component. */
    static int labelLength(Named n) {
        return n.toString().length() + n.name().length();
    }

    /** A loop over a record's accessors. */
    static int rangeSum(Range r) {
        int s = 0;
        for (int i = r.lo(); i < r.hi(); i++) {
            s += i;
        }
        return s;
    }

    /** A for-each over an array of records. */
    static int best(Named[] ns) {
        int best = Integer.MIN_VALUE;
        for (Named n : ns) {
            if (n != null && n.score() > best) {
                best = n.score();
            }
        }
        return best;
    }

    /** A type pattern (Java 16) on a record. */
    static int area(Object o) {
        if (o instanceof Range r) {
            return r.hi() - r.lo();
        }
        return 0;
    }
}
