package everyday;

/** try/catch/finally as people write it. */
public class Finally {
    /** The finally's increment is never read: its iinc result is dead at once. */
    static int parseOr(String s, int fallback) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return fallback;
        } finally {
            fallback++;
        }
    }

    /** A loop whose body has a finally. */
    static int attempts(int n) {
        int tries = 0;
        for (int i = 0; i < n; i++) {
            try {
                if (i % 3 == 0) {
                    continue;
                }
            } finally {
                tries++;
            }
        }
        return tries;
    }
}
