/*
 * Static initialisers during a run. The engine treats every class as initialised, so neither a
 * <clinit> nor the methods it calls are steps of the run: the instrumenter gives a <clinit> the
 * probes enter() at its entry and exit() before its return (besides Recorder.tick(), which
 * spends the step budget). While one is active the recorder writes its steps into a scratch
 * buffer and assigns no object ids (an object gets its id when the run sees it); when the
 * outermost one returns, the recorder's position and step count are as before it, and the
 * steps it made count as ticks. An initialiser that throws does not reach exit(): the next
 * exception handler of a traced method (Recorder.beginH, no <clinit> left on the stack) or the
 * run's end (Runner) calls leave(). Single-threaded, like the recorder.
 */
package tracer;

public final class Inits {
    private Inits() {}

    /** Active static initialisers (nested: one may trigger another). */
    static int active;
    /** The recorder's trace buffer while one is active (null when none is). */
    private static int[] savedBuf;
    private static int savedPos;
    private static long savedSteps, savedSnap;
    private static boolean savedOpen;

    /** First probe of a static initialiser. */
    public static void enter() {
        if (active++ == 0) {
            savedBuf = Recorder.buf;
            savedPos = Recorder.pos;
            savedSteps = Recorder.steps;
            savedSnap = Recorder.nextSnap;
            savedOpen = Recorder.open;
            Recorder.buf = new int[64];
            Recorder.pos = 0;
            Recorder.open = false;
            Recorder.nextSnap = -1;
        }
    }

    /** Probe before a static initialiser's return. */
    public static void exit() {
        if (active > 0 && --active == 0) {
            leave();
        }
    }

    /**
     * Before a call of Enum.valueOf(c, name) (the instrumenter adds the call): c's constants
     * are cached in its Class object (getEnumConstants() initialises c, calls the enum's
     * values() through reflection and keeps the result), so that valueOf, which builds its
     * name directory from that cache, calls no program code. Like a static initialiser, and
     * with it, its steps are no steps of the run: the engine models valueOf as returning a
     * constant or throwing.
     */
    public static void enumReady(Class<?> c) {
        enter();
        try {
            if (c != null) {
                c.getEnumConstants();
            }
        } catch (Throwable t) {
            // values() failed: the cache stays empty and valueOf calls it again, steps that
            // the checker reports (no graph has them)
        } finally {
            exit();
        }
    }

    /** Drops what the initialisers' callees recorded: the recorder is as before the first. */
    static void leave() {
        if (savedBuf == null) {
            active = 0;
            return;
        }
        Recorder.ticks += Recorder.steps - savedSteps;
        Recorder.buf = savedBuf;
        Recorder.pos = savedPos;
        Recorder.steps = savedSteps;
        Recorder.nextSnap = savedSnap;
        Recorder.open = savedOpen;
        savedBuf = null;
        active = 0;
    }

    /** A new run (Recorder.reset): no initialiser is active. */
    static void reset() {
        savedBuf = null;
        active = 0;
    }
}
