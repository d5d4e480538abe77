import java.util.Random;

/** Programs on the modelled library methods (engine/src/models/calls.rs). */
public class Lib {
    /** Random.nextInt(n): [0, n-1], IllegalArgumentException for n <= 0. */
    static int randomBelow(int n) {
        Random r = new Random(42);
        return r.nextInt(n);
    }

    /** A die: Random(seed).nextInt(6) is in [0, 5] for every seed (the wrong-model test). */
    static int die(int seed) {
        return new Random(seed).nextInt(6) + 1;
    }

    /**
     * Random.nextInt()/nextBoolean(): unknown values, whatever the seed. Seeded from the
     * parameter, so that a run is the same every time (an unseeded Random made the fates of
     * this graph's mutants differ between two runs of `make mutants`) and runs of different
     * inputs still draw different values (one fixed seed made every run draw the same ones,
     * and mutants only other draws kill survived).
     */
    static int randomWalk(int steps) {
        Random r = new Random(steps);
        int pos = 0;
        for (int i = 0; i < steps; i++) {
            if (r.nextBoolean()) {
                pos++;
            } else {
                pos += r.nextInt() % 3;
            }
        }
        return pos;
    }

    /** assert (the tracer's JVM runs with -ea): AssertionError for x <= 0. */
    static int checked(int x) {
        assert x > 0 : "x must be positive";
        return x - 1;
    }

    /** System.out.println of ints and strings; string concatenation (StringBuilder). */
    static int report(int x) {
        System.out.println(x);
        String s = "x = " + x + ", half " + (x / 2);
        System.out.println(s);
        System.out.print('!');
        System.out.println();
        return s.length();
    }
}
