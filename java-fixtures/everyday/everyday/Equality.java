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
}
