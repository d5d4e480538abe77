/*
 * The instance fields of a class as the recorder shows them, and their map keys (split out of
 * Recorder: its per-run state and probes are enough for one file).
 */
package tracer;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;

final class Fields {
    private Fields() {}

    /**
     * The instance fields of {@code c} the engine models, most derived class first: those its
     * program classes declare (loaded by an {@link InstrumentingLoader}), none of a JDK class
     * but java.lang.Enum's of an enum object (Library.enumFields). A program class that
     * extends a JDK class (an exception, say) carries the JDK's private state (Throwable's
     * backtrace, its cause pointing back at itself, ...), which the engine does not model and
     * the trace would otherwise show as shapes no abstract state can have.
     */
    static ArrayList<Field> instanceFields(Class<?> c) {
        ArrayList<Field> out = new ArrayList<>();
        for (Class<?> k = c; k != null && k.getClassLoader() instanceof InstrumentingLoader; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    out.add(f);
                }
            }
        }
        Library.enumFields(c, out);
        return out;
    }

    /**
     * Map keys of fields: the plain name, or "DeclaringClass.name" for a field shadowed by a
     * field of the same name in a more derived class.
     */
    static String[] fieldKeys(ArrayList<Field> fs) {
        String[] keys = new String[fs.size()];
        java.util.HashSet<String> used = new java.util.HashSet<>();
        for (int i = 0; i < fs.size(); i++) {
            Field f = fs.get(i);
            String k = f.getName();
            if (!used.add(k)) {
                k = f.getDeclaringClass().getName().replace('.', '/') + "." + f.getName();
            }
            keys[i] = k;
        }
        return keys;
    }
}
