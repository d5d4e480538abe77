/**
 * Static initialisers that never finish, as in TPDB Costa_Julia_09/Init.jar. The engine treats
 * every class as initialised; the tracer must still end such runs at the step budget, and no
 * method that may start one is YES. `Squares`' initialiser loops and ends. `Failing`'s initialiser
 * throws: the first use of `Failing` throws ExceptionInInitializerError, which ends a run unless
 * the method catches it.
 */
public class SpinInit {
    /** Reaches Spinner's initialiser mid-run, at the getstatic (pc 4). */
    static int touch(int x) {
        x = x + 1;
        return Spinner.f + x;
    }

    /** Starts Squares' initialiser, whose loop ends. */
    static int square(int x) {
        return Squares.table[x & 7];
    }

    /** The error of Failing's initialiser ends the run: no handler catches it. */
    static int failing(int n) {
        return Failing.x + n;
    }

    /** Catches the error of Failing's initialiser, then spins. */
    static int rescue(int n) {
        try {
            return Failing.x + n;
        } catch (Throwable t) {
            while (true) {
                n++;
            }
        }
    }

    /** A synchronized block's handler only rethrows: the error of Failing's initialiser ends the run. */
    static int lockedFailing(int[] lock, int n) {
        synchronized (lock) {
            return Failing.x + n;
        }
    }

    /** An input's Spinner: building it starts Spinner's initialiser, which never ends. */
    static int holdsSpinner(Spinner s) {
        return s == null ? 0 : 1;
    }

    /** An input's Failing: no object of it can exist, its initialiser throws. */
    static int holdsFailing(Failing f) {
        return f == null ? 0 : 1;
    }

    /** A handler for Squares' initialiser, which cannot throw. */
    static int squareOrZero(int x) {
        try {
            return Squares.table[x & 7];
        } catch (Throwable t) {
            return 0;
        }
    }
}

class Failing {
    static int x = 1 / zero();

    static int zero() {
        return 0;
    }
}

class Spinner {
    static int f;

    static {
        int a = 0;
        while (a == 0) {
            f++;
        }
    }

    /** Its own class's initialiser spins before the first instruction. */
    static int get() {
        return f;
    }
}

class Squares {
    static int[] table = new int[8];

    static {
        for (int i = 0; i < table.length; i++) {
            table[i] = i * i;
        }
    }
}
