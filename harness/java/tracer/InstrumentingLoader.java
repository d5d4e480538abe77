/*
 * Per-run class loader for the analysed program. Classes found in the given class path
 * entries (directories and jars) are defined here, child-first, instrumented by Instrumenter
 * (or verbatim for plain runs); everything else (JDK, tracer runtime, ASM) is delegated to
 * the parent. A fresh loader per run gives each run its own classes and static state.
 */
package tracer;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;

public final class InstrumentingLoader extends ClassLoader {
    static {
        registerAsParallelCapable();
    }

    private final URLClassLoader source;
    private final boolean instrument;

    public InstrumentingLoader(URL[] entries, ClassLoader parent, boolean instrument) {
        super("jtg-run", parent);
        this.source = new URLClassLoader(entries, null);
        this.instrument = instrument;
    }

    public boolean instrumenting() {
        return instrument;
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
                try (InputStream in = u.openStream()) {
                    bytes = in.readAllBytes();
                } catch (IOException e) {
                    throw new ClassNotFoundException(name + ": " + e, e);
                }
                if (instrument) {
                    try {
                        bytes = Instrumenter.instrument(bytes);
                    } catch (RuntimeException e) {
                        Instrumenter.fail(name + ": " + e);
                        throw new ClassNotFoundException("cannot instrument " + name + ": " + e, e);
                    }
                }
                c = defineClass(name, bytes, 0, bytes.length);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }
}
