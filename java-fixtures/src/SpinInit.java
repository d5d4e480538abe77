/**
 * Static initialisers that never finish, as in TPDB Costa_Julia_09/Init.jar. The engine treats
 * every class as initialised; the tracer must still end such runs at the step budget.
 */
public class SpinInit {
    /** Reaches Spinner's initialiser mid-run, at the getstatic (pc 4). */
    static int touch(int x) {
        x = x + 1;
        return Spinner.f + x;
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
