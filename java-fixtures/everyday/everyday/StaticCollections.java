package everyday;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Collections held by statics: a static's value is what the program stored, read as an input.
 * Stores of objects the models know (`List.of`, `new HashMap<>()`) give graphs; a store of
 * `Set.of(…)`, whose set is of a class the engine does not model, is refused (Keywords).
 */
public class StaticCollections {
    static final List<Integer> PRIMES = List.of(2, 3, 5, 7);
    static final Map<String, Integer> SEEN = new HashMap<>();

    // YES: a loop over a static List.of list
    static int smallFactors(int x) {
        int n = 0;
        for (int p : PRIMES) if (x % p == 0) n++;
        return n;
    }

    // YES: a static map that remembers words
    static int remember(String[] words) {
        for (String w : words) SEEN.merge(w, 1, Integer::sum);
        return SEEN.size();
    }
}

/** A static `Set.of` set: its class is no modelled one, so reading the static is refused. */
class Keywords {
    static final Set<String> WORDS = Set.of("if", "for", "while");

    static int count(String[] ws) {
        int n = 0;
        for (String w : ws) if (WORDS.contains(w)) n++;
        return n;
    }
}
