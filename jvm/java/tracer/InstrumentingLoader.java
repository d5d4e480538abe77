/*
 * Class loader for the analysed program. Classes found in the given class path entries
 * (directories and jars) are defined here, child-first, instrumented by Instrumenter (or
 * verbatim for plain runs); everything else (JDK, tracer runtime, ASM) is delegated to the
 * parent. The bytes come from Instrumenter.prepare, which instruments each distinct class file
 * once per process.
 *
 * Runner reuses a loader for the next run of the same class path only while every class it has
 * defined is stateless (Instrumenter.staticState: no static initializer, no putstatic), so that
 * each run starts from the classes' initial static state exactly as in a fresh loader; a class
 * with static state, or a failed definition, makes the loader single-use.
 */
package tracer;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.net.URLClassLoader;

public final class InstrumentingLoader extends ClassLoader {
    static {
        registerAsParallelCapable();
    }

    private final URLClassLoader source;
    private final boolean instrument;
    /** Why this loader must not serve another run, or null while it may. */
    private volatile String singleUse;
    /** Sessions using the loader, and whether Runner's cache dropped it (both under Runner's lock). */
    int users;
    boolean retired;

    public InstrumentingLoader(URL[] entries, ClassLoader parent, boolean instrument) {
        super("jtg-run", parent);
        this.source = new URLClassLoader(entries, null);
        this.instrument = instrument;
    }

    /** Closes the class path's files: no class can be loaded from them after this. */
    void close() throws IOException {
        source.close();
    }

    public boolean instrumenting() {
        return instrument;
    }

    /** Why the loader cannot be reused (a class with static state, a failed definition), or null. */
    public String singleUse() {
        return singleUse;
    }

    void markSingleUse(String why) {
        if (singleUse == null) {
            singleUse = why;
        }
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                URL u = name.startsWith("java.") || name.startsWith("tracer.")
                        ? null
                        : source.findResource(name.replace('.', '/') + ".class");
                if (u == null) {
                    return super.loadClass(name, resolve);
                }
                byte[] bytes;
                // uncached: a cached `jar:` connection keeps the jar open for the process
                URLConnection conn;
                try {
                    conn = u.openConnection();
                } catch (IOException e) {
                    markSingleUse("reading " + name + " failed");
                    throw new ClassNotFoundException(name + ": " + e, e);
                }
                conn.setUseCaches(false);
                try (InputStream in = conn.getInputStream()) {
                    bytes = in.readAllBytes();
                } catch (IOException e) {
                    markSingleUse("reading " + name + " failed");
                    throw new ClassNotFoundException(name + ": " + e, e);
                }
                Instrumenter.Prepared p;
                try {
                    p = Instrumenter.prepare(name, bytes, instrument);
                } catch (RuntimeException e) {
                    markSingleUse("cannot instrument " + name);
                    Instrumenter.fail(name + ": " + e);
                    throw new ClassNotFoundException("cannot instrument " + name + ": " + e, e);
                }
                if (p.stateful != null) {
                    markSingleUse(p.stateful);
                }
                try {
                    c = defineClass(name, p.bytes, 0, p.bytes.length);
                } catch (LinkageError e) {
                    markSingleUse("defining " + name + " failed: " + e);
                    throw e;
                }
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }
}
