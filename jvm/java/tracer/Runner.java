/*
 * Entry points the Rust side calls through JNI: getting the loader of a run (cached while it
 * is reusable, see InstrumentingLoader), resolving classes and field layouts for building
 * inputs, and running a batch of inputs of one method on a dedicated Java thread (with its
 * own, configurable stack size, so deep recursion ends in a StackOverflowError inside that
 * thread instead of touching the Rust thread's stack). Before each run the entry class is
 * initialised (uninstrumented <clinit>) and the recorder reset. Program exceptions are caught
 * here and reported as the run's end; each run's end and buffers become one record of the
 * batch (see runBatch).
 */
package tracer;

import java.io.File;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import org.objectweb.asm.Type;

public final class Runner {
    private Runner() {}

    /** Run ends: returned, threw, cut by the step budget, cut by the recording budget. */
    public static final int RETURNED = 0, THREW = 1, CUT = 2, CUT_HEAP = 3;

    /*
     * What traced programs print goes nowhere: this JVM shares jtg's standard output (its
     * JSON and text reports) and error. A program cannot read back what it printed, so the
     * runs are the same; System.out stays a java.io.PrintStream, as the engine's model says.
     */
    static {
        System.setOut(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
        System.setErr(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
    }

    /** Loaders that may serve another run, by class path and instrumentation (most recent last). */
    private static final LinkedHashMap<String, InstrumentingLoader> loaders = new LinkedHashMap<>(8, 0.75f, true);
    private static final int MAX_LOADERS = 4;
    private static int loadersCreated;

    /**
     * The loader for a run on {@code entries}: the previous one of the same class path while it
     * is reusable (see InstrumentingLoader), else a fresh one.
     */
    public static synchronized ClassLoader loaderFor(String[] entries, boolean instrument, String[] assertions)
            throws Exception {
        URL[] urls = new URL[entries.length];
        StringBuilder key = new StringBuilder(instrument ? "i" : "p");
        for (int i = 0; i < entries.length; i++) {
            urls[i] = new File(entries[i]).getAbsoluteFile().toURI().toURL();
            key.append('\0').append(urls[i]);
        }
        for (String a : assertions) {
            key.append('\1').append(a);
        }
        String k = key.toString();
        InstrumentingLoader l = loaders.get(k);
        if (l != null && l.singleUse() == null) {
            l.users++;
            return l;
        }
        if (l != null) {
            retire(loaders.remove(k));
        }
        l = new InstrumentingLoader(urls, Runner.class.getClassLoader(), instrument);
        l.users++;
        // the assertion status of a class ("+a/B" enabled, "-a/B" disabled) is the loader's,
        // read once by the class's initialiser (javac's `$assertionsDisabled`); the JVM's own
        // default (-ea) holds for every other class
        for (String a : assertions) {
            l.setClassAssertionStatus(a.substring(1).replace('/', '.'), a.charAt(0) == '+');
        }
        loadersCreated++;
        loaders.put(k, l);
        if (loaders.size() > MAX_LOADERS) {
            Iterator<InstrumentingLoader> it = loaders.values().iterator();
            InstrumentingLoader old = it.next();
            it.remove();
            retire(old);
        }
        return l;
    }

    /**
     * The end of a session that {@link #loaderFor} served: a loader no longer cached closes
     * its class path (the jars' files) once no session uses it, instead of when a collection
     * happens to find it (a corpus run would keep every jar it ran open).
     */
    public static synchronized void release(ClassLoader loader) {
        if (loader instanceof InstrumentingLoader) {
            InstrumentingLoader l = (InstrumentingLoader) loader;
            l.users--;
            if (l.retired && l.users == 0) {
                close(l);
            }
        }
    }

    /** Out of the cache: closed now if unused, else by the last {@link #release}. */
    private static void retire(InstrumentingLoader l) {
        l.retired = true;
        if (l.users == 0) {
            close(l);
        }
    }

    /**
     * Closes {@code l}'s class path. A failure leaves a jar's file open until the loader is
     * collected; it must not cost the batch that just ran, nor leave {@link #loaderFor} with a
     * loader it counted a user of and never returned.
     */
    private static void close(InstrumentingLoader l) {
        try {
            l.close();
        } catch (IOException e) {
            // nothing to undo: the loader serves no run any more either way
        }
    }

    /** Loaders created so far (tests: a stateless program reuses one). */
    public static synchronized int loadersCreated() {
        return loadersCreated;
    }

    /** Why {@code l} will not serve another run, or null. */
    public static String singleUse(ClassLoader l) {
        return l instanceof InstrumentingLoader ? ((InstrumentingLoader) l).singleUse() : "not a run loader";
    }

    /**
     * The constant of ordinal {@code ordinal} of the enum class of {@code c} ({@code c} itself,
     * or the enum whose constant's class body {@code c} is), read from its static ACC_ENUM field,
     * which initialises the class (under a step budget: its static initialiser may not end);
     * null when {@code c} is not below java.lang.Enum. Refused when there is no such constant of class {@code c}.
     */
    public static Object enumConstant(Class<?> c, int ordinal) throws IllegalAccessException {
        if (c == Enum.class || !Enum.class.isAssignableFrom(c)) {
            return null;
        }
        Class<?> e = c;
        while (e.getSuperclass() != Enum.class) {
            e = e.getSuperclass();
        }
        Recorder.reset(ENUM_INIT_STEPS, Long.MAX_VALUE, false, 0);
        try {
            for (java.lang.reflect.Field f : e.getDeclaredFields()) {
                if (f.isEnumConstant()) {
                    f.setAccessible(true);
                    Object v = f.get(null);
                    if (c.isInstance(v) && ((Enum<?>) v).ordinal() == ordinal) {
                        return v;
                    }
                }
            }
        } finally {
            Recorder.clear();
        }
        throw new IllegalArgumentException("enum " + e.getName() + " has no constant of ordinal " + ordinal
                + (c == e ? "" : " whose class is " + c.getName()));
    }

    /** The step budget of an enum class's initialiser run by {@link #enumConstant}. */
    private static final long ENUM_INIT_STEPS = 10_000_000;

    /**
     * An input collection of class {@code internal} ("java/util/ArrayList", ...) holding the
     * boxes of {@code elems} in order (a map: each as a key, mapped to the next one,
     * cyclically); refused when it does not come out with one element per value (a set or map
     * of equal values).
     */
    public static Object collection(String internal, int[] elems) {
        java.util.Collection<Integer> c = null;
        java.util.Map<Integer, Integer> m = null;
        switch (internal) {
            case "java/util/ArrayList": c = new ArrayList<>(); break;
            case "java/util/LinkedList": c = new java.util.LinkedList<>(); break;
            case "java/util/ArrayDeque": c = new java.util.ArrayDeque<>(); break;
            case "java/util/HashSet": c = new java.util.HashSet<>(); break;
            case "java/util/HashMap": m = new java.util.HashMap<>(); break;
            case "java/util/TreeMap": m = new java.util.TreeMap<>(); break;
            case "java/util/LinkedHashSet": c = new java.util.LinkedHashSet<>(); break;
            case "java/util/LinkedHashMap": m = new java.util.LinkedHashMap<>(); break;
            case "java/util/TreeSet": c = new java.util.TreeSet<>(); break;
            case "java/util/Stack": c = new java.util.Stack<>(); break;
            case "java/util/PriorityQueue": c = new java.util.PriorityQueue<>(); break;
            default: throw new IllegalArgumentException("not an input collection: " + internal);
        }
        for (int k = 0; k < elems.length; k++) {
            if (c != null) {
                c.add(elems[k]);
            } else {
                m.put(elems[k], elems[(k + 1) % elems.length]);
            }
        }
        int size = c != null ? c.size() : m.size();
        if (size != elems.length) {
            throw new IllegalArgumentException(internal + " of " + elems.length
                    + " values has size " + size + " (equal values)");
        }
        return c != null ? c : m;
    }

    /** Class by internal name ("a/B") or array descriptor ("[I"), not initialised. */
    public static Class<?> classFor(ClassLoader l, String internal) throws ClassNotFoundException {
        return Class.forName(internal.replace('/', '.'), false, l);
    }

    /**
     * Initialises {@code c} before an input's object of it is allocated (JNI AllocObject would,
     * and report a failure without its cause): null, or why no object of {@code c} can exist
     * (its static initialiser threw, now or in an earlier use of the loader). A step budget
     * that cuts the initialiser propagates.
     */
    public static String initialise(Class<?> c) throws ClassNotFoundException {
        try {
            Class.forName(c.getName(), true, c.getClassLoader());
            return null;
        } catch (ExceptionInInitializerError e) {
            return "its static initializer threw " + e.getCause();
        } catch (LinkageError e) {
            return "it cannot be initialized: " + e;
        }
    }

    /** Class of a field descriptor ("I", "La/B;", "[I"). */
    public static Class<?> classForDesc(ClassLoader l, String desc) throws ClassNotFoundException {
        switch (desc.charAt(0)) {
            case 'Z': return boolean.class;
            case 'B': return byte.class;
            case 'C': return char.class;
            case 'S': return short.class;
            case 'I': return int.class;
            case 'J': return long.class;
            case 'F': return float.class;
            case 'D': return double.class;
            case 'L': return classFor(l, desc.substring(1, desc.length() - 1));
            case '[': return classFor(l, desc);
            default: throw new ClassNotFoundException("bad descriptor " + desc);
        }
    }

    /** Instance fields incl. inherited, 4 strings each: key, declaring class (internal), name, descriptor. */
    public static String[] fieldsOf(Class<?> c) {
        ArrayList<java.lang.reflect.Field> fs = Fields.instanceFields(c);
        String[] keys = Fields.fieldKeys(fs);
        String[] out = new String[4 * fs.size()];
        for (int i = 0; i < fs.size(); i++) {
            out[4 * i] = keys[i];
            out[4 * i + 1] = fs.get(i).getDeclaringClass().getName().replace('.', '/');
            out[4 * i + 2] = fs.get(i).getName();
            out[4 * i + 3] = Type.getDescriptor(fs.get(i).getType());
        }
        return out;
    }

    /**
     * The static field {@code name} of {@code c} (declared there, in a superinterface or a
     * superclass, as field resolution finds it), made settable. A final static is refused: the
     * JVM may have folded its value into the code that reads it. The one exception is javac's
     * assertion status field (see {@link #isAssertionStatus}): it is never set, the run's loader
     * gives the class that status (loaderFor), and runOne checks the value it got.
     */
    public static java.lang.reflect.Field staticField(Class<?> c, String name) throws NoSuchFieldException {
        java.lang.reflect.Field f = resolveField(c, name);
        if (f == null) {
            throw new NoSuchFieldException(c.getName() + " has no field " + name);
        }
        if (!Modifier.isStatic(f.getModifiers())) {
            throw new NoSuchFieldException(c.getName() + "." + name + " is not a static field");
        }
        if (isAssertionStatus(f)) {
            f.setAccessible(true);
            return f;
        }
        if (Modifier.isFinal(f.getModifiers())) {
            throw new IllegalArgumentException(c.getName() + "." + name + " is final: a final static cannot be set");
        }
        f.setAccessible(true);
        return f;
    }

    /** Name of the field javac gives a class with {@code assert}: {@code !desiredAssertionStatus()}. */
    public static final String ASSERTIONS_DISABLED = "$assertionsDisabled";

    /** Whether {@code f} is javac's assertion status field: static final synthetic boolean {@code $assertionsDisabled}. */
    static boolean isAssertionStatus(java.lang.reflect.Field f) {
        int m = f.getModifiers();
        return f.getName().equals(ASSERTIONS_DISABLED) && Modifier.isStatic(m) && Modifier.isFinal(m)
                && f.isSynthetic() && f.getType() == boolean.class;
    }

    /** Field resolution (JVMS 5.4.3.2): declared in {@code c}, its superinterfaces, its superclasses. */
    private static java.lang.reflect.Field resolveField(Class<?> c, String name) {
        for (java.lang.reflect.Field f : c.getDeclaredFields()) {
            if (f.getName().equals(name)) {
                return f;
            }
        }
        for (Class<?> i : c.getInterfaces()) {
            java.lang.reflect.Field f = resolveField(i, name);
            if (f != null) {
                return f;
            }
        }
        return c.getSuperclass() == null ? null : resolveField(c.getSuperclass(), name);
    }

    /**
     * The value to set static {@code f} to: the primitive of kind {@code kind} ('I' int-like,
     * 'J', 'F', 'D') from raw {@code bits}, or {@code ref} for kind 'L', checked against the
     * field's type.
     */
    public static Object staticValue(java.lang.reflect.Field f, int kind, long bits, Object ref) {
        Class<?> t = f.getType();
        Type ft = Type.getType(t);
        boolean fits;
        switch (kind) {
            case 'I': fits = t == int.class || t == short.class || t == byte.class || t == char.class || t == boolean.class; break;
            case 'J': fits = t == long.class; break;
            case 'F': fits = t == float.class; break;
            case 'D': fits = t == double.class; break;
            default: fits = !t.isPrimitive() && (ref == null || t.isInstance(ref)); break;
        }
        if (!fits) {
            String what = kind == 'L' ? (ref == null ? "null" : ref.getClass().getName()) : "a " + (char) kind + " value";
            throw new IllegalArgumentException(f.getDeclaringClass().getName() + "." + f.getName() + " of type "
                    + t.getName() + " cannot hold " + what);
        }
        return kind == 'L' ? ref : unbits(ft, bits);
    }

    static Method find(Class<?> c, String name, String desc) throws NoSuchMethodException {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            for (Method m : k.getDeclaredMethods()) {
                if (m.getName().equals(name) && Type.getMethodDescriptor(m).equals(desc)) {
                    return m;
                }
            }
        }
        throw new NoSuchMethodException(c.getName() + "." + name + desc);
    }

    /** Number of argument values (incl. the receiver for instance methods) of the method. */
    public static int arity(Class<?> c, String name, String desc) throws NoSuchMethodException {
        Method m = find(c, name, desc);
        return m.getParameterCount() + (Modifier.isStatic(m.getModifiers()) ? 0 : 1);
    }

    private static Object unbits(Type t, long bits) {
        switch (t.getSort()) {
            case Type.BOOLEAN: return bits != 0;
            case Type.CHAR: return (char) bits;
            case Type.BYTE: return (byte) bits;
            case Type.SHORT: return (short) bits;
            case Type.INT: return (int) bits;
            case Type.FLOAT: return Float.intBitsToFloat((int) bits);
            case Type.LONG: return bits;
            case Type.DOUBLE: return Double.longBitsToDouble(bits);
            default: throw new IllegalArgumentException("not primitive: " + t);
        }
    }

    private static long bits(Object r) {
        if (r instanceof Boolean) return ((Boolean) r) ? 1 : 0;
        if (r instanceof Character) return (Character) r;
        if (r instanceof Byte || r instanceof Short || r instanceof Integer) return ((Number) r).intValue();
        if (r instanceof Long) return (Long) r;
        if (r instanceof Float) return Float.floatToRawIntBits((Float) r) & 0xffffffffL;
        if (r instanceof Double) return Double.doubleToRawLongBits((Double) r);
        return 0;
    }

    // ---- batches -----------------------------------------------------------------------------
    /*
     * A batch runs several inputs of one method, one after the other on one Java thread, and
     * leaves one record per run in an int[] that Rust reads in place (batchBuffer, batchLength):
     *
     *   kind, resultBits hi, lo, resultId, thrownId, thrownClassStr, thrownTextStr,
     *   runNanos hi, lo, nTrace, nHeap, nSnapshots, nStatics, trace ints, heap ints,
     *   snapshot ints, statics ints
     *
     * (string ids index Recorder's table, -1 = none; thrownText only for VerifyError; kind is
     * RETURNED, THREW, CUT or CUT_HEAP; resultId -1: the result passed the recording budget). The
     * batch ends early after a run that left the loader single-use (its classes may now differ
     * from fresh ones, and the remaining inputs were built in it) or changed the thread's state,
     * and once the records exceed BATCH_INTS; runBatch returns how many inputs ran.
     */
    private static final int BATCH_INTS = 1 << 22;
    /** The records buffer is kept from batch to batch up to this many ints (64 MiB). */
    private static final int KEEP_OUT_INTS = 1 << 24;
    static int[] out = new int[1 << 12];
    static int outPos;

    private static void emit(int v) {
        if (outPos == out.length) {
            out = Arrays.copyOf(out, out.length * 2);
        }
        out[outPos++] = v;
    }

    /** Appends {@code a[0..n)}. */
    private static void emit(int[] a, int n) {
        if (outPos + n > out.length) {
            out = Arrays.copyOf(out, Math.max(outPos + n, out.length * 2));
        }
        System.arraycopy(a, 0, out, outPos, n);
        outPos += n;
    }

    /**
     * Runs {@code c.name desc} on inputs {@code 0..n-1}: input k's argument i is
     * {@code refs[k][i]} for reference parameters and {@code prims[k][i]} (raw bits) for
     * primitives; index 0 is the receiver of instance methods. Returns the number of inputs run.
     */
    public static int runBatch(Class<?> c, String name, String desc, long[][] prims, Object[][] refs,
            Object[][] statics, int n, long maxSteps, long maxHeap, boolean verify, long seed, long stackSize,
            boolean record) throws Exception {
        Method m = find(c, name, desc);
        m.setAccessible(true);
        boolean isStatic = Modifier.isStatic(m.getModifiers());
        // the graph is of this method's code, for a receiver of any subclass: the run must
        // execute it as invokespecial does, never an override the receiver's class declares
        MethodHandle special = isStatic ? null
                : MethodHandles.privateLookupIn(c, MethodHandles.lookup()).unreflectSpecial(m, c);
        Type[] pt = Type.getArgumentTypes(desc);
        int rs = Type.getReturnType(desc).getSort();
        boolean refResult = rs == Type.OBJECT || rs == Type.ARRAY;
        int off = isStatic ? 0 : 1;
        Object[] recvs = new Object[n];
        Object[][] args = new Object[n][];
        for (int k = 0; k < n; k++) {
            if (prims[k].length != pt.length + off || refs[k].length != pt.length + off) {
                throw new IllegalArgumentException(c.getName() + "." + name + desc + " takes " + (pt.length + off)
                        + " argument values, got " + refs[k].length);
            }
            recvs[k] = isStatic ? null : refs[k][0];
            args[k] = new Object[pt.length];
            for (int i = 0; i < pt.length; i++) {
                int s = pt[i].getSort();
                args[k][i] = (s == Type.OBJECT || s == Type.ARRAY) ? refs[k][i + off] : unbits(pt[i], prims[k][i + off]);
            }
        }
        if (out.length > KEEP_OUT_INTS) {
            out = new int[1 << 12];
        }
        outPos = 0;
        ClassLoader loader = c.getClassLoader();
        int[] done = {0};
        Throwable[] crashed = {null};
        Thread t = new Thread(null, () -> {
            Thread me = Thread.currentThread();
            String tname = me.getName();
            int prio = me.getPriority();
            ClassLoader ctx = me.getContextClassLoader();
            Thread.UncaughtExceptionHandler ueh = me.getUncaughtExceptionHandler();
            try {
                for (int k = 0; k < n; k++) {
                    runOne(c, m, special, recvs[k], args[k], statics[k], maxSteps, maxHeap, verify, seed, record,
                            refResult);
                    recvs[k] = null;
                    args[k] = null;
                    statics[k] = null;
                    done[0] = k + 1;
                    boolean threadChanged = Thread.interrupted() || !tname.equals(me.getName())
                            || prio != me.getPriority() || ctx != me.getContextClassLoader()
                            || ueh != me.getUncaughtExceptionHandler();
                    if (threadChanged || singleUse(loader) != null || outPos > BATCH_INTS) {
                        break;
                    }
                }
            } catch (Throwable e) {
                crashed[0] = e;
            }
        }, "jtg-trace", stackSize);
        t.start();
        t.join();
        if (crashed[0] != null) {
            throw new IllegalStateException("batch runner failed: " + crashed[0], crashed[0]);
        }
        return done[0];
    }

    /**
     * Every assertion status field of the input has the value it asks for (the loader's status
     * for its class, see loaderFor): else the run would not be the input's, and the batch fails.
     */
    private static void checkAssertionStatus(Object[] statics) {
        for (int i = 0; statics != null && i + 1 < statics.length; i += 2) {
            java.lang.reflect.Field f = (java.lang.reflect.Field) statics[i];
            if (!isAssertionStatus(f)) {
                continue;
            }
            Object have;
            try {
                Class.forName(f.getDeclaringClass().getName(), true, f.getDeclaringClass().getClassLoader());
                have = f.get(null);
            } catch (ReflectiveOperationException | LinkageError e) {
                throw new IllegalStateException("cannot read " + f + ": " + e, e);
            }
            if (!have.equals(statics[i + 1])) {
                throw new IllegalStateException(f.getDeclaringClass().getName() + "." + f.getName() + " is " + have
                        + ", not the input's " + statics[i + 1] + " (the loader's assertion status does not reach it)");
            }
        }
    }

    /**
     * Before the Rust side builds a batch's inputs: building an object (JNI AllocObject, an enum
     * constant) starts its class's static initialiser, which spends the run's step budget like
     * the entry class's does (runOne) instead of running without bound.
     */
    public static void beginInputs(long maxSteps) {
        Recorder.reset(maxSteps, Long.MAX_VALUE, false, 0);
    }

    /**
     * After an input could not be built: whether a static initialiser it started was cut by the
     * step budget. The class then stays uninitialisable in {@code loader}: no later run may use
     * the loader.
     */
    public static boolean inputsCut(ClassLoader loader) {
        boolean cut = Recorder.wasCut();
        Recorder.clear();
        if (cut && loader instanceof InstrumentingLoader) {
            ((InstrumentingLoader) loader).markSingleUse("an input's class initialiser was cut");
        }
        return cut;
    }

    /**
     * One run of a batch ({@link #recordOneRun}). A run whose bookkeeping finds no room in this
     * JVM's heap (the recorder's ids keep every object the run showed, so a run that makes many
     * large strings can fill the heap with them; the point where it does depends on the
     * collector) ends as the JVM's memory limit, with no step recorded: a per-run outcome, never
     * a failure of the batch. The recorder's data goes first, without allocating, to make room.
     */
    private static void runOne(Class<?> c, Method m, MethodHandle special, Object recv, Object[] args,
            Object[] statics, long maxSteps, long maxHeap, boolean verify, long seed, boolean record,
            boolean refResult) {
        int start = outPos;
        ranOutOfMemory = false;
        try {
            recordOneRun(c, m, special, recv, args, statics, maxSteps, maxHeap, verify, seed, record, refResult);
            return;
        } catch (OutOfMemoryError e) {
            // the bookkeeping's own allocation failed
        } catch (RuntimeException e) {
            if (!ranOutOfMemory) {
                throw e;
            }
            // the heap ran out inside a probe of the recorder, whose data that probe may have
            // left half-written: what the bookkeeping then reads is not to be trusted
        }
        Recorder.release();
        Recorder.clear();
        outPos = start;
        emitRecord(THREW, 0, 0, 0, Recorder.intern("java/lang/OutOfMemoryError"), -1, 0, false);
    }

    /** The run just made ended with an OutOfMemoryError (set before its bookkeeping). */
    private static boolean ranOutOfMemory;

    /** One run of a batch: initialise the entry class, record, emit the run's record. */
    private static void recordOneRun(Class<?> c, Method m, MethodHandle special, Object recv, Object[] args,
            Object[] statics, long maxSteps, long maxHeap, boolean verify, long seed, boolean record,
            boolean refResult) {
        Object resultRef = null;
        long resultBits = 0;
        Throwable thrown = null;
        long runNanos = 0;
        int kind = THREW;
        // the entry class's static initialiser runs under the run's step budget (not traced)
        Recorder.reset(record ? maxSteps : Long.MAX_VALUE, Long.MAX_VALUE, false, 0);
        boolean initialised;
        boolean initCut = false;
        try {
            Class.forName(c.getName(), true, c.getClassLoader());
            for (int i = 0; statics != null && i + 1 < statics.length; i += 2) {
                java.lang.reflect.Field f = (java.lang.reflect.Field) statics[i];
                if (isAssertionStatus(f)) {
                    continue; // given by the loader, compared below
                }
                // the run's classes no longer have their initial statics: no later run may
                // use this loader
                ((InstrumentingLoader) c.getClassLoader()).markSingleUse("an input set static fields");
                f.set(null, statics[i + 1]);
            }
            initialised = true;
        } catch (Throwable e) {
            thrown = e;
            initialised = false;
            initCut = Recorder.wasCut();
            Recorder.clear(); // steps of methods the initialiser called are not the run's
        }
        if (initialised) {
            checkAssertionStatus(statics);
        }
        if (initialised) {
            if (record) {
                Recorder.reset(maxSteps, maxHeap, verify, seed);
                if (statics != null) {
                    Recorder.recordStatics(statics);
                }
            } else {
                Recorder.clear();
            }
            long t0 = System.nanoTime();
            try {
                Object r = special == null ? m.invoke(recv, args) : invokeSpecial(special, recv, args);
                runNanos = System.nanoTime() - t0;
                resultRef = r;
                resultBits = bits(r);
                kind = RETURNED;
            } catch (InvocationTargetException e) {
                runNanos = System.nanoTime() - t0;
                thrown = e.getCause();
            } catch (Throwable e) {
                runNanos = System.nanoTime() - t0;
                thrown = e;
            }
        }
        ranOutOfMemory = thrown instanceof OutOfMemoryError;
        if (thrown instanceof LinkageError && c.getClassLoader() instanceof InstrumentingLoader) {
            // a class that failed to link or initialise stays failed in this loader
            ((InstrumentingLoader) c.getClassLoader()).markSingleUse("the run threw " + thrown);
        }
        Inits.leave(); // an initialiser that threw out of the run
        int resultId = kind == RETURNED && refResult ? Recorder.resultId(resultRef) : 0;
        if (record && Recorder.wasHeapCut()) {
            kind = CUT_HEAP;
        } else if (record && (initCut || Recorder.wasCut())) {
            kind = CUT;
        }
        int thrownId = thrown == null ? 0 : Recorder.peekId(thrown);
        int thrownClass = -1, thrownText = -1;
        if (thrown != null) {
            thrownClass = Recorder.intern(thrown.getClass().getName().replace('.', '/'));
            if (thrown instanceof VerifyError) {
                thrownText = Recorder.intern(String.valueOf(thrown));
            }
        }
        emitRecord(kind, resultBits, resultId, thrownId, thrownClass, thrownText, runNanos, true);
        Recorder.clear();
    }

    /**
     * Calls the entry {@code special} (an instance method, bound to no receiver) on {@code recv}
     * and {@code args}; what the method throws comes out unwrapped.
     */
    private static Object invokeSpecial(MethodHandle special, Object recv, Object[] args) throws Throwable {
        Object[] all = new Object[args.length + 1];
        all[0] = recv;
        System.arraycopy(args, 0, all, 1, args.length);
        return special.invokeWithArguments(all);
    }

    /** Appends one run's record, with the recorder's buffers or, without {@code buffers}, none. */
    private static void emitRecord(int kind, long resultBits, int resultId, int thrownId, int thrownClass,
            int thrownText, long runNanos, boolean buffers) {
        // the recorder's buffers are copied into the records as they are (no copy in between:
        // a long run's trace would be garbage the size of the trace)
        int nTrace = buffers ? Recorder.traceLength() : 0;
        int nHeap = buffers ? Recorder.hcommit : 0;
        int nSnap = buffers ? Recorder.spos : 0;
        emit(kind);
        emit((int) (resultBits >>> 32));
        emit((int) resultBits);
        emit(resultId);
        emit(thrownId);
        emit(thrownClass);
        emit(thrownText);
        emit((int) (runNanos >>> 32));
        emit((int) runNanos);
        int nStatics = buffers ? Recorder.stpos : 0;
        emit(nTrace);
        emit(nHeap);
        emit(nSnap);
        emit(nStatics);
        emit(Recorder.buf, nTrace);
        emit(Recorder.hbuf, nHeap);
        emit(Recorder.sbuf, nSnap);
        emit(Recorder.stbuf, nStatics);
    }

    /** The records of the last batch, in place: {@code batchBuffer()[0..batchLength())}. */
    public static int[] batchBuffer() {
        return out;
    }

    public static int batchLength() {
        return outPos;
    }

    /** Drops references and buffers kept from the last batch. */
    public static void clear() {
        outPos = 0;
        if (out.length > KEEP_OUT_INTS) {
            out = new int[1 << 12];
        }
        Recorder.clear();
    }
}
