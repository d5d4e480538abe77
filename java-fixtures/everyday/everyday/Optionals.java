package everyday;

import java.util.List;
import java.util.Optional;

/** java.util.Optional: of, ofNullable, empty, isPresent, isEmpty, get, orElseThrow, orElse. */
public class Optionals {
    // YES: the first word longer than n, or none
    static Optional<String> firstLonger(List<String> words, int n) {
        for (String w : words) if (w.length() > n) return Optional.of(w);
        return Optional.empty();
    }

    // YES: a search's result, unwrapped
    static int lengthOfFirstLonger(List<String> words, int n) {
        Optional<String> w = firstLonger(words, n);
        return w.isPresent() ? w.get().length() : -1;
    }

    // YES: the largest element, kept in an Optional
    static int largest(int[] a) {
        Optional<Integer> best = Optional.empty();
        for (int x : a) if (best.isEmpty() || x > best.get()) best = Optional.of(x);
        return best.orElse(-1);
    }

    // YES: the lengths of the present strings
    static int lengths(String[] xs) {
        int t = 0;
        for (String x : xs) t += Optional.ofNullable(x).orElse("").length();
        return t;
    }

    // YES: JDK 17 has one empty Optional (ofNullable(null) and empty() return it)
    static int sameEmpty(int k) {
        Optional<Integer> p = k == 0 ? Optional.ofNullable(null) : Optional.of(k);
        Optional<Integer> q = Optional.empty();
        return p == q ? 1 : 0;
    }

    // YES: the value, or NoSuchElementException
    static int unwrap(int k) {
        Optional<Integer> o = k > 0 ? Optional.of(k) : Optional.empty();
        return o.orElseThrow();
    }

    // YES: an Optional parameter (drawn empty or holding a box)
    static int valueOr(Optional<Integer> o, int dflt) {
        return o.isPresent() ? o.get() : dflt;
    }
}
