/**
 * Static fields as part of a run's input (jtg-jvm's ConcreteInput::statics, `static:` lines of
 * `jtg trace --input` / `jtg check --input`): `shared` may alias the parameter at entry.
 */
public class StaticInput {
    static StaticInput shared;
    static int count;
    static final int LIMIT = 3;
    int val;

    /** p.val + count after clearing shared.val: count exactly when shared aliases p. */
    static int clearShared(StaticInput p) {
        if (shared != null) {
            shared.val = 0;
        }
        return p.val + count;
    }
}
