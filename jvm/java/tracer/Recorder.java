/*
 * Runtime side of the tracer: the static calls that instrumented code makes.
 *
 * Trace buffer (int[]), per step: mid << 16 | pc, depth (or -1, mid, pc, depth if the method id
 * does not fit in 16 bits; no pc is 0xffff), then the step's values untagged: the locals by
 * slot, then the operand stack TOP FIRST. Their kinds are static per pc, so the instrumenter's
 * method table has them (the layout of each pc, see Instrumenter.methodInfo) and the values are
 * INT v | FLOAT bits | LONG hi lo | DOUBLE hi lo | REF id (0 = null); a TOP or an UNINIT value
 * takes no ints. An UNINIT value is an object whose constructor has not run yet; its site (in the
 * layout) is the original pc of the `new` that created it, or -1 for `this` in a constructor
 * before `super()` (within one frame the verifier makes equal sites one object).
 *
 * Objects get ids at first sight (identity map). At first sight an object and every not yet
 * seen object reachable from it are dumped into the heap log (int[]):
 *   step, id, classStr, kind, then kind INSTANCE: nFields, (keyStr, tagged value)*
 *                                   kind ARRAY: elemDescStr, length, tagged value*
 *                                   kind STRING: length
 * (java.lang.String is recorded by its length only; instances record the fields their program
 * classes declare, none of a JDK class: see Fields.instanceFields.) Later writes are not logged here; the
 * Rust decoder replays putfield / xastore from the recorded pre-state operands. In verify mode
 * a full snapshot of every known object is taken at pseudo-random steps (same encoding, into a
 * separate buffer) so the replay can be checked. Heap records keep tagged values: INT v |
 * FLOAT bits | LONG hi lo | DOUBLE hi lo | REF id (0 = null, -1 in a snapshot: never seen).
 *
 * A step budget ends the run with StepBudgetExceeded; static initialisers spend it through
 * tick(). A recording budget bounds the heap log: every object record counts one value plus
 * one per field or array element, and the record that would pass the budget is not written;
 * HeapBudgetExceeded ends the run instead (the step in progress is dropped), so recording
 * costs at most the budget, never the size of an array the program allocates. That error, and
 * a StackOverflowError or OutOfMemoryError inside recorder code, stop the recorder: every
 * later probe re-throws it (a program that catches it cannot go on being recorded), so the
 * run ends with a consistent prefix.
 * Single-threaded by design: the Rust side serialises runs.
 */
package tracer;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.SplittableRandom;

public final class Recorder {
    private Recorder() {}

    /** Tags of heap-record values (trace steps are untagged). */
    public static final int T_INT = 0, T_FLOAT = 1, T_LONG = 2, T_DOUBLE = 3, T_REF = 4;
    public static final int K_INSTANCE = 0, K_ARRAY = 1, K_STRING = 2;

    // ---- strings (process-wide, never reset; Rust pulls new entries) ----------------------
    private static final ArrayList<String> strings = new ArrayList<>();
    private static final HashMap<String, Integer> stringIds = new HashMap<>();

    public static synchronized int intern(String s) {
        Integer i = stringIds.get(s);
        if (i != null) {
            return i;
        }
        strings.add(s);
        stringIds.put(s, strings.size() - 1);
        return strings.size() - 1;
    }

    public static synchronized String[] stringsFrom(int start) {
        return strings.subList(start, strings.size()).toArray(new String[0]);
    }

    // ---- per-run state ---------------------------------------------------------------------
    static int[] buf = new int[1 << 12];
    /** Trace buffers up to this many ints (64 MiB) are kept from run to run. */
    static final int KEEP_TRACE_INTS = 1 << 24;
    static int pos;
    static int stepStart;
    static boolean open;
    static long steps;
    static long maxSteps = Long.MAX_VALUE;
    /** Ticks of static initialisers (not traced) in this run; bounded by maxSteps as well. */
    static long ticks;
    static int depth;
    static boolean cut;
    /** Values the heap log may hold in this run (see the class comment), and those it holds. */
    static long maxHeap = Long.MAX_VALUE;
    static long heapValues;
    /** Set when the recorder has stopped: the run's end, re-thrown by every later probe. */
    static Error stop;

    static int[] hbuf = new int[1 << 10];
    static int hpos;
    static int hcommit;

    static boolean verify;
    static SplittableRandom rnd;
    static long nextSnap = -1;
    static int[] sbuf = new int[16];
    static int spos;
    static int snapshots;

    /** The static fields the input set: (classStr, nameStr, tagged value)* (see recordStatics). */
    static int[] stbuf = new int[16];
    static int stpos;

    static IdMap ids = new IdMap();
    static int nextId;
    static Object[] work = new Object[64];
    static int nwork;

    /** Clears all per-run state. {@code seed} is used only if {@code verifyReplay}. */
    public static void reset(long max, long maxHeapValues, boolean verifyReplay, long seed) {
        // buffers are reused unless a long run grew them (then they are dropped); the trace
        // buffer is kept up to KEEP_TRACE_INTS: regrowing it would cost a long run more than
        // recording its steps (zeroed allocations and copies of the doubled arrays)
        if (buf == null || buf.length > KEEP_TRACE_INTS) {
            buf = new int[1 << 12];
        }
        Inits.reset();
        pos = 0;
        stepStart = 0;
        open = false;
        steps = 0;
        ticks = 0;
        maxSteps = max;
        depth = 0;
        cut = false;
        maxHeap = maxHeapValues;
        heapValues = 0;
        stop = null;
        if (hbuf == null || hbuf.length > 1 << 14) {
            hbuf = new int[1 << 10];
        }
        hpos = 0;
        hcommit = 0;
        verify = verifyReplay;
        rnd = verifyReplay ? new SplittableRandom(seed) : null;
        nextSnap = verifyReplay ? rnd.nextInt(8) : -1;
        if (sbuf == null || sbuf.length > 1 << 14) {
            sbuf = new int[16];
        }
        spos = 0;
        snapshots = 0;
        stpos = 0;
        if (stbuf == null) {
            stbuf = new int[16];
        }
        if (ids == null || ids.size > 0 || ids.keys.length > 1 << 8) {
            ids = new IdMap();
        }
        nextId = 0;
        if (work == null || work.length > 64) {
            work = new Object[64];
        }
        Arrays.fill(work, 0, nwork, null);
        nwork = 0;
        Library.reset();
    }

    /**
     * Drops everything a run recorded without allocating: after an OutOfMemoryError the heap
     * may hold no room even for {@link #reset}'s fresh buffers until these are gone (the ids
     * keep every object the run showed). {@link #clear} must follow before the next use.
     */
    static void release() {
        ids = null;
        buf = null;
        hbuf = null;
        sbuf = null;
        stbuf = null;
        work = null;
        nwork = 0;
        stop = null;
        rnd = null;
        Library.release();
    }

    // ---- probe entry points ----------------------------------------------------------------
    public static void enter() {
        depth++;
    }

    public static void exit() {
        depth--;
    }

    /** Opens a step at {@code at} = mid << 16 | pc that writes {@code n} value ints. */
    public static void begin(int at, int n) {
        int p = start(2 + n);
        buf[p] = at;
        buf[p + 1] = depth;
        pos = p + 2;
    }

    /** {@link #begin} for a method id that does not fit in 16 bits. */
    public static void beginWide(int mid, int pc, int n) {
        int p = start(4 + n);
        int[] b = buf;
        b[p] = -1;
        b[p + 1] = mid;
        b[p + 2] = pc;
        b[p + 3] = depth;
        pos = p + 4;
    }

    /** Starts a step of {@code ints} ints; returns its position in {@link #buf}. */
    private static int start(int ints) {
        int p = pos;
        if (open || p + ints > buf.length || steps >= maxSteps || stop != null || Library.count != 0) {
            return startSlow(ints);
        }
        stepStart = p;
        open = true;
        return p;
    }

    private static int startSlow(int ints) {
        if (stop != null) {
            throw stop;
        }
        if (open) {
            pos = stepStart; // the previous probe was interrupted (its instruction never ran)
            open = false;
        }
        if (steps >= maxSteps) {
            cut = true;
            throw new StepBudgetExceeded(maxSteps);
        }
        if (Inits.active != 0) {
            pos = 0;
        } else if (Library.count != 0 && steps > 0) {
            try {
                // what JDK code did to the collections during the last step
                Library.sync(steps - 1);
            } catch (VirtualMachineError | HeapBudgetExceeded e) {
                stop = e;
                throw e;
            }
        }
        try {
            int need = pos + ints;
            if (need > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(need, buf.length * 2));
            }
        } catch (VirtualMachineError e) {
            stop = e;
            throw e;
        }
        stepStart = pos;
        open = true;
        return pos;
    }

    /** Probe of static initialisers: they are not traced, but they spend the step budget. */
    public static void tick() {
        if (++ticks > maxSteps) {
            cut = true;
            throw new StepBudgetExceeded(maxSteps);
        }
    }

    /** First probe of an exception handler: re-synchronise the depth counter by a stack walk. */
    public static void beginH(int at, int n) {
        resync();
        begin(at, n);
    }

    /** {@link #beginH} for a method id that does not fit in 16 bits. */
    public static void beginHWide(int mid, int pc, int n) {
        resync();
        beginWide(mid, pc, n);
    }

    private static void resync() {
        if (stop != null) {
            throw stop;
        }
        try {
            if (Inits.active != 0 && StackWalker.getInstance().walk(s -> s.noneMatch(f -> f.getMethodName().equals("<clinit>")))) {
                Inits.leave(); // an initialiser threw
            }
            depth = walkDepth();
        } catch (VirtualMachineError e) {
            stop = e;
            throw e;
        }
    }

    private static int walkDepth() {
        return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).walk(s -> (int) s
                .filter(f -> !f.getMethodName().equals("<clinit>")
                        && f.getDeclaringClass().getClassLoader() instanceof InstrumentingLoader
                        && ((InstrumentingLoader) f.getDeclaringClass().getClassLoader()).instrumenting())
                .count());
    }

    public static void i(int v) {
        buf[pos++] = v;
    }

    public static void f(float v) {
        buf[pos++] = Float.floatToRawIntBits(v);
    }

    public static void j(long v) {
        int p = pos;
        buf[p] = (int) (v >>> 32);
        buf[p + 1] = (int) v;
        pos = p + 2;
    }

    public static void d(double v) {
        long bits = Double.doubleToRawLongBits(v);
        int p = pos;
        buf[p] = (int) (bits >>> 32);
        buf[p + 1] = (int) bits;
        pos = p + 2;
    }

    // The probes' entry points stay within C2's MaxInlineSize (35 bytecodes) with their rare
    // paths in separate methods: a call site the profile does not count as hot inlines only such
    // small methods, and a call per recorded value costs more than the value.

    public static void a(Object o) {
        buf[pos++] = o == null ? 0 : ref(o);
    }

    private static int ref(Object o) {
        if (Inits.active != 0) {
            return 0; // a step no one reads: the object gets its id when the run sees it
        }
        try {
            return id(o);
        } catch (VirtualMachineError | HeapBudgetExceeded e) {
            stop = e;
            throw e;
        }
    }

    public static void end() {
        open = false;
        long s = steps++;
        if (s == nextSnap) {
            snap(s);
        }
    }

    private static void snap(long s) {
        try {
            snapshot(s);
        } catch (VirtualMachineError e) {
            stop = e;
            throw e;
        }
        nextSnap = s + 1 + rnd.nextInt(16);
    }

    // ---- object ids and the heap log -------------------------------------------------------

    /** Id of {@code o}, dumping it (and its unseen closure) at first sight. */
    static int id(Object o) {
        int id = ids.get(o);
        if (id != 0) {
            return id;
        }
        id = idOf(o);
        drain();
        return id;
    }

    /** Existing id, or a new one with the object queued for dumping. */
    private static int idOf(Object o) {
        if (o == null) {
            return 0;
        }
        int id = ids.get(o);
        if (id == 0) {
            id = ++nextId;
            ids.put(o, id);
            if (nwork == work.length) {
                work = Arrays.copyOf(work, nwork * 2);
            }
            work[nwork++] = o;
        }
        return id;
    }

    private static void drain() {
        while (nwork > 0) {
            Object x = work[--nwork];
            work[nwork] = null;
            int[][] box = {hbuf};
            int[] at = {hpos};
            hbuf = null;
            try {
                dump(x, ids.get(x), box, at, true);
            } finally {
                hbuf = box[0];
            }
            hpos = at[0];
        }
        hcommit = hpos;
    }

    /**
     * Records the static fields an input set before the run ({@code statics}: field, value,
     * field, value, ...): per field the strings of its declaring class and name and its tagged
     * value; a referenced object is seen (and logged) here, at step 0. Past the recording
     * budget the recorder stops: the run is cut before its first step.
     */
    public static void recordStatics(Object[] statics) {
        int[][] box = {stbuf};
        int[] at = {stpos};
        int start = at[0];
        try {
            for (int i = 0; i + 1 < statics.length; i += 2) {
                start = at[0];
                java.lang.reflect.Field f = (java.lang.reflect.Field) statics[i];
                Object v = statics[i + 1];
                put(box, at, intern(f.getDeclaringClass().getName().replace('.', '/')));
                put(box, at, intern(f.getName()));
                Class<?> t = f.getType();
                if (t == long.class) {
                    putTagged(box, at, T_LONG, (Long) v);
                } else if (t == double.class) {
                    putTagged(box, at, T_DOUBLE, Double.doubleToRawLongBits((Double) v));
                } else if (t == float.class) {
                    putTagged(box, at, T_FLOAT, Float.floatToRawIntBits((Float) v) & 0xffffffffL);
                } else if (t == boolean.class) {
                    putTagged(box, at, T_INT, ((Boolean) v) ? 1 : 0);
                } else if (t == char.class) {
                    putTagged(box, at, T_INT, (Character) v);
                } else if (t.isPrimitive()) {
                    putTagged(box, at, T_INT, ((Number) v).intValue());
                } else {
                    putTagged(box, at, T_REF, v == null ? 0 : id(v));
                }
            }
        } catch (HeapBudgetExceeded e) {
            stop = e;
            at[0] = start; // the field whose value passed the budget is not recorded
        } finally {
            stbuf = box[0];
            stpos = at[0];
        }
    }

    /**
     * Id of a result value (assigned and dumped if new); -1 if dumping it would pass the
     * recording budget (the run is then cut, see {@link #wasHeapCut}).
     */
    public static int resultId(Object o) {
        if (o == null) {
            return 0;
        }
        try {
            return id(o);
        } catch (HeapBudgetExceeded e) {
            stop = e;
            return -1;
        }
    }

    /** Whether the recording budget ended the run. */
    public static boolean wasHeapCut() {
        return stop instanceof HeapBudgetExceeded;
    }

    /** Existing id of {@code o}, 0 if never seen. */
    public static int peekId(Object o) {
        return o == null ? 0 : ids.get(o);
    }

    private static int[] ensure(int[][] box, int[] at, int n) {
        int[] b = box[0];
        if (at[0] + n > b.length) {
            b = Arrays.copyOf(b, Math.max(at[0] + n, b.length * 2));
            box[0] = b;
        }
        return b;
    }

    static void put(int[][] box, int[] at, int v) {
        int[] b = ensure(box, at, 1);
        b[at[0]++] = v;
    }

    static void putTagged(int[][] box, int[] at, int tag, long v) {
        int[] b = ensure(box, at, 3);
        int p = at[0];
        b[p++] = tag;
        if (tag == T_LONG || tag == T_DOUBLE) {
            b[p++] = (int) (v >>> 32);
            b[p++] = (int) v;
        } else {
            b[p++] = (int) v;
        }
        at[0] = p;
    }

    /**
     * Writes one object record. {@code assign}: unseen referents get ids and are queued
     * (heap log); otherwise (snapshots) they are written as id -1.
     */
    private static void dump(Object x, int id, int[][] box, int[] at, boolean assign) {
        Class<?> c = x.getClass();
        ClassInfo ci = ClassInfo.of(c);
        if (assign) {
            // the budget of the heap log: checked before anything of the record is written
            long values = 1 + (c.isArray() ? java.lang.reflect.Array.getLength(x)
                    : x instanceof String ? 0
                    : Library.modelled(c) ? Library.fieldCount(c) : ci.offsets.length);
            if (values > maxHeap - heapValues) {
                throw new HeapBudgetExceeded(maxHeap);
            }
            heapValues += values;
        }
        put(box, at, (int) steps);
        put(box, at, id);
        put(box, at, ci.nameStr);
        if (x instanceof String) {
            put(box, at, K_STRING);
            put(box, at, ((String) x).length());
            return;
        }
        if (c.isArray()) {
            put(box, at, K_ARRAY);
            put(box, at, ci.elemStr);
            int n = java.lang.reflect.Array.getLength(x);
            put(box, at, n);
            if (x instanceof int[]) {
                int[] a = (int[]) x;
                for (int v : a) putTagged(box, at, T_INT, v);
            } else if (x instanceof long[]) {
                for (long v : (long[]) x) putTagged(box, at, T_LONG, v);
            } else if (x instanceof boolean[]) {
                for (boolean v : (boolean[]) x) putTagged(box, at, T_INT, v ? 1 : 0);
            } else if (x instanceof byte[]) {
                for (byte v : (byte[]) x) putTagged(box, at, T_INT, v);
            } else if (x instanceof char[]) {
                for (char v : (char[]) x) putTagged(box, at, T_INT, v);
            } else if (x instanceof short[]) {
                for (short v : (short[]) x) putTagged(box, at, T_INT, v);
            } else if (x instanceof float[]) {
                for (float v : (float[]) x) putTagged(box, at, T_FLOAT, Float.floatToRawIntBits(v) & 0xffffffffL);
            } else if (x instanceof double[]) {
                for (double v : (double[]) x) putTagged(box, at, T_DOUBLE, Double.doubleToRawLongBits(v));
            } else {
                for (Object v : (Object[]) x) putTagged(box, at, T_REF, refValue(v, assign));
            }
            return;
        }
        put(box, at, K_INSTANCE);
        if (Library.modelled(c)) {
            Library.dump(x, id, box, at, assign);
            return;
        }
        int nf = ci.offsets.length;
        put(box, at, nf);
        sun.misc.Unsafe u = ClassInfo.U;
        for (int k = 0; k < nf; k++) {
            put(box, at, ci.keyStrs[k]);
            long off = ci.offsets[k];
            if (ci.reflective[k] != null) {
                putReflective(box, at, x, ci.reflective[k], ci.kinds[k], assign);
                continue;
            }
            switch (ci.kinds[k]) {
                case 'Z': putTagged(box, at, T_INT, u.getBoolean(x, off) ? 1 : 0); break;
                case 'B': putTagged(box, at, T_INT, u.getByte(x, off)); break;
                case 'C': putTagged(box, at, T_INT, u.getChar(x, off)); break;
                case 'S': putTagged(box, at, T_INT, u.getShort(x, off)); break;
                case 'I': putTagged(box, at, T_INT, u.getInt(x, off)); break;
                case 'J': putTagged(box, at, T_LONG, u.getLong(x, off)); break;
                case 'F': putTagged(box, at, T_FLOAT, Float.floatToRawIntBits(u.getFloat(x, off)) & 0xffffffffL); break;
                case 'D': putTagged(box, at, T_DOUBLE, Double.doubleToRawLongBits(u.getDouble(x, off))); break;
                default: putTagged(box, at, T_REF, refValue(u.getObject(x, off), assign)); break;
            }
        }
    }

    /** One field read by reflection, tagged like the Unsafe reads of {@link #dump}. */
    private static void putReflective(int[][] box, int[] at, Object x, Field f, char kind, boolean assign) {
        try {
            switch (kind) {
                case 'Z': putTagged(box, at, T_INT, f.getBoolean(x) ? 1 : 0); break;
                case 'B': putTagged(box, at, T_INT, f.getByte(x)); break;
                case 'C': putTagged(box, at, T_INT, f.getChar(x)); break;
                case 'S': putTagged(box, at, T_INT, f.getShort(x)); break;
                case 'I': putTagged(box, at, T_INT, f.getInt(x)); break;
                case 'J': putTagged(box, at, T_LONG, f.getLong(x)); break;
                case 'F': putTagged(box, at, T_FLOAT, Float.floatToRawIntBits(f.getFloat(x)) & 0xffffffffL); break;
                case 'D': putTagged(box, at, T_DOUBLE, Double.doubleToRawLongBits(f.getDouble(x))); break;
                default: putTagged(box, at, T_REF, refValue(f.get(x), assign)); break;
            }
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("field " + f + " not readable", e);
        }
    }

    static long refValue(Object v, boolean assign) {
        if (v == null) {
            return 0;
        }
        if (assign) {
            return idOf(v);
        }
        int id = ids.get(v);
        return id == 0 ? -1 : id;
    }

    /**
     * Logs that field {@code slot} of the tracked JDK object {@code x} (id {@code id}) holds
     * {@code v} after step {@code step} (see {@link Library}); counts one value of the budget.
     */
    static void logUpdate(long step, int id, Object x, int slot, int v) {
        if (1 > maxHeap - heapValues) {
            throw new HeapBudgetExceeded(maxHeap);
        }
        heapValues += 1;
        int[][] box = {hbuf};
        int[] at = {hpos};
        put(box, at, (int) step);
        put(box, at, id);
        put(box, at, ClassInfo.of(x.getClass()).nameStr);
        put(box, at, Library.K_UPDATE);
        put(box, at, slot);
        put(box, at, v);
        hbuf = box[0];
        hpos = at[0];
        hcommit = hpos;
    }

    /** Full snapshot of every object that has an id, at the end of step {@code s}. */
    private static void snapshot(long s) {
        int[][] box = {sbuf};
        int[] at = {spos};
        put(box, at, (int) s);
        put(box, at, nextId);
        put(box, at, 0);
        int countAt = at[0] - 1;
        int n = 0;
        Object[] keys = ids.keys;
        int[] vals = ids.vals;
        for (int k = 0; k < keys.length; k++) {
            if (keys[k] != null) {
                dump(keys[k], vals[k], box, at, false);
                n++;
            }
        }
        box[0][countAt] = n;
        sbuf = box[0];
        spos = at[0];
        snapshots++;
    }

    // ---- pulled by Rust after a run --------------------------------------------------------
    /** The committed steps of the trace buffer. */
    /** Ints of the trace recorded so far: {@code buf[0..traceLength())} (no copy). */
    static int traceLength() {
        return open ? stepStart : pos;
    }

    public static long stepCount() {
        return steps;
    }

    public static boolean wasCut() {
        return cut;
    }

    /** Drops the buffers of the last run (keeps the string table). */
    public static void clear() {
        reset(Long.MAX_VALUE, Long.MAX_VALUE, false, 0);
    }

    /**
     * The engine's names of the hidden classes of lambda objects ({@code Host$$Lambda$N}, see
     * {@code Instrumenter.LambdaNames}), by class. Weak: a run's classes may be unloaded.
     */
    private static final java.util.Map<Class<?>, String> LAMBDA_NAMES =
            java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    /** The object {@code o} of the lambda site {@code name} was made (instrumented code). */
    public static void lambdaSite(Object o, String name) {
        if (o != null) {
            String before = LAMBDA_NAMES.putIfAbsent(o.getClass(), name);
            if (before != null && !before.equals(name)) {
                // one hidden class for two sites: no site names it
                LAMBDA_NAMES.put(o.getClass(), o.getClass().getName().replace('.', '/'));
            }
        }
    }

    /** The name of class {@code c} in the trace: the engine's name of a lambda site's class. */
    static String traceName(Class<?> c) {
        String n = LAMBDA_NAMES.get(c);
        return n != null ? n : c.getName().replace('.', '/');
    }

    /** Per-class layout for dumps: instance fields incl. inherited, read through Unsafe. */
    static final class ClassInfo {
        static final sun.misc.Unsafe U;

        static {
            try {
                Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
                f.setAccessible(true);
                U = (sun.misc.Unsafe) f.get(null);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private static final ClassValue<ClassInfo> CACHE = new ClassValue<ClassInfo>() {
            @Override
            protected ClassInfo computeValue(Class<?> c) {
                return new ClassInfo(c);
            }
        };

        static ClassInfo of(Class<?> c) {
            return CACHE.get(c);
        }

        final int nameStr;
        final int elemStr;
        final long[] offsets;
        final char[] kinds;
        final int[] keyStrs;
        /** Per field: null, or the field read by reflection (a hidden class's: no offset). */
        final Field[] reflective;

        ClassInfo(Class<?> c) {
            nameStr = intern(traceName(c));
            elemStr = c.isArray() ? intern(org.objectweb.asm.Type.getDescriptor(c.getComponentType())) : -1;
            ArrayList<Field> fs = new ArrayList<>();
            if (!c.isArray() && c != String.class && c != Class.class) {
                fs = Fields.instanceFields(c);
            }
            ArrayList<Long> offs = new ArrayList<>();
            ArrayList<Character> ks = new ArrayList<>();
            ArrayList<Integer> names = new ArrayList<>();
            ArrayList<Field> refl = new ArrayList<>();
            String[] keys = Fields.fieldKeys(fs);
            for (int i = 0; i < fs.size(); i++) {
                Field f = fs.get(i);
                long off;
                Field r = null;
                try {
                    off = U.objectFieldOffset(f);
                } catch (UnsupportedOperationException e) {
                    // hidden classes (lambda objects) and records: read by reflection
                    try {
                        f.setAccessible(true);
                    } catch (RuntimeException denied) {
                        continue;
                    }
                    off = -1;
                    r = f;
                }
                refl.add(r);
                offs.add(off);
                Class<?> t = f.getType();
                ks.add(t.isPrimitive() ? org.objectweb.asm.Type.getDescriptor(t).charAt(0) : 'L');
                names.add(intern(keys[i]));
            }
            offsets = new long[offs.size()];
            kinds = new char[offs.size()];
            keyStrs = new int[offs.size()];
            reflective = refl.toArray(new Field[0]);
            for (int i = 0; i < offsets.length; i++) {
                offsets[i] = offs.get(i);
                kinds[i] = ks.get(i);
                keyStrs[i] = names.get(i);
            }
        }
    }
}
