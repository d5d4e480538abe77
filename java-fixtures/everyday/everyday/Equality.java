package everyday;

import java.util.Objects;

/** java.util.Objects: equals, hashCode and hash as hand-written equals/hashCode methods use them. */
public class Equality {
    /** No equals of its own: Objects.equals is identity. */
    static final class Box {
        int v;
    }

    /** Objects.equals on strings, in a for-each. */
    static int countEqual(String[] names, String target) {
        int c = 0;
        for (String s : names) {
            if (Objects.equals(s, target)) {
                c++;
            }
        }
        return c;
    }

    /** Objects.hash of an int (boxed) and a string, as a hashCode() writes it. */
    static int hashOf(int a, String b) {
        return Objects.hash(a, b) + Objects.hashCode(b);
    }

    /** Objects.equals of objects with Object's equals. */
    static boolean sameBox(Box a, Box b) {
        return Objects.equals(a, b);
    }

    /** A generic loop: x.compareTo(pivot) is Comparable.compareTo(Object). */
    static <T extends Comparable<T>> int countLess(T[] xs, T pivot) {
        int c = 0;
        for (T x : xs) {
            if (x.compareTo(pivot) < 0) {
                c++;
            }
        }
        return c;
    }

    static int countShorter(String[] words, String w) {
        return countLess(words, w);
    }

    /** The bridge compareTo(Object) casts its argument: an Integer against a String throws. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    static int mixedCompare(int a) {
        Comparable[] xs = {a};
        try {
            return countLess(xs, (Comparable) "x");
        } catch (ClassCastException e) {
            return -1;
        }
    }

    /** The generic maximum of a list. */
    static <T extends Comparable<T>> T maxOf(java.util.List<T> xs) {
        T best = null;
        for (T x : xs) {
            if (best == null || x.compareTo(best) > 0) {
                best = x;
            }
        }
        return best;
    }
}
