/*
 * Entry points the Rust side calls through JNI: creating per-run loaders, resolving classes
 * and field layouts for building inputs, and running one method on a dedicated Java thread
 * (with its own, configurable stack size, so deep recursion ends in a StackOverflowError
 * inside that thread instead of touching the Rust thread's stack). The entry class is
 * initialised (uninstrumented <clinit>) before recording starts. Program exceptions are
 * caught here and reported as the run's end; results are left in static fields.
 */
package tracer;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.util.ArrayList;
import org.objectweb.asm.Type;

public final class Runner {
    private Runner() {}

    public static final int RETURNED = 0, THREW = 1, CUT = 2;

    static Object resultRef;
    static long resultBits;
    static Throwable thrown;
    static long runNanos;
    static int kind;

    public static ClassLoader newLoader(String[] entries, boolean instrument) throws Exception {
        URL[] urls = new URL[entries.length];
        for (int i = 0; i < entries.length; i++) {
            urls[i] = new File(entries[i]).getAbsoluteFile().toURI().toURL();
        }
        return new InstrumentingLoader(urls, Runner.class.getClassLoader(), instrument);
    }

    /** Class by internal name ("a/B") or array descriptor ("[I"), not initialised. */
    public static Class<?> classFor(ClassLoader l, String internal) throws ClassNotFoundException {
        return Class.forName(internal.replace('/', '.'), false, l);
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
        ArrayList<java.lang.reflect.Field> fs = Recorder.instanceFields(c);
        String[] keys = Recorder.fieldKeys(fs);
        String[] out = new String[4 * fs.size()];
        for (int i = 0; i < fs.size(); i++) {
            out[4 * i] = keys[i];
            out[4 * i + 1] = fs.get(i).getDeclaringClass().getName().replace('.', '/');
            out[4 * i + 2] = fs.get(i).getName();
            out[4 * i + 3] = Type.getDescriptor(fs.get(i).getType());
        }
        return out;
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

    /**
     * Runs {@code c.name desc}. Argument i is {@code refs[i]} for reference parameters and
     * {@code prims[i]} (raw bits) for primitives; index 0 is the receiver of instance methods.
     * Returns RETURNED, THREW or CUT.
     */
    public static int run(Class<?> c, String name, String desc, long[] prims, Object[] refs, long maxSteps,
            boolean verify, long seed, long stackSize, boolean record) throws Exception {
        Method m = find(c, name, desc);
        m.setAccessible(true);
        boolean isStatic = Modifier.isStatic(m.getModifiers());
        Type[] pt = Type.getArgumentTypes(desc);
        int off = isStatic ? 0 : 1;
        if (prims.length != pt.length + off || refs.length != pt.length + off) {
            throw new IllegalArgumentException(c.getName() + "." + name + desc + " takes " + (pt.length + off)
                    + " argument values, got " + refs.length);
        }
        Object recv = isStatic ? null : refs[0];
        Object[] args = new Object[pt.length];
        for (int i = 0; i < pt.length; i++) {
            int s = pt[i].getSort();
            args[i] = (s == Type.OBJECT || s == Type.ARRAY) ? refs[i + off] : unbits(pt[i], prims[i + off]);
        }
        resultRef = null;
        resultBits = 0;
        thrown = null;
        runNanos = 0;
        kind = THREW;
        Thread t = new Thread(null, () -> {
            try {
                Class.forName(c.getName(), true, c.getClassLoader());
            } catch (Throwable e) {
                thrown = e;
                kind = THREW;
                return;
            }
            if (record) {
                Recorder.reset(maxSteps, verify, seed);
            }
            long t0 = System.nanoTime();
            try {
                Object r = m.invoke(recv, args);
                runNanos = System.nanoTime() - t0;
                resultRef = r;
                resultBits = bits(r);
                kind = RETURNED;
            } catch (InvocationTargetException e) {
                runNanos = System.nanoTime() - t0;
                thrown = e.getCause();
                kind = THREW;
            } catch (Throwable e) {
                runNanos = System.nanoTime() - t0;
                thrown = e;
                kind = THREW;
            }
        }, "jtg-trace", stackSize);
        t.start();
        t.join();
        if (record && Recorder.wasCut()) {
            kind = CUT;
        }
        return kind;
    }

    public static long resultBits() {
        return resultBits;
    }

    /** Object id of the returned reference (0 = null); dumps it if it was never seen. */
    public static int resultId() {
        return Recorder.resultId(resultRef);
    }

    public static String thrownClass() {
        return thrown == null ? null : thrown.getClass().getName().replace('.', '/');
    }

    public static String thrownText() {
        return String.valueOf(thrown);
    }

    /** Object id of the thrown exception if the trace saw it, else 0. */
    public static int thrownId() {
        return Recorder.peekId(thrown);
    }

    public static long runNanos() {
        return runNanos;
    }

    /** Drops references kept from the last run. */
    public static void clear() {
        resultRef = null;
        thrown = null;
        Recorder.clear();
    }
}
