/**
 * Static initialisers that never finish, as in TPDB Costa_Julia_09/Init.jar. The engine treats
 * every class as initialised; the tracer must still end such runs at the step budget, and no
 * method that may start one is YES. `Squares`' initialiser loops and ends.
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
