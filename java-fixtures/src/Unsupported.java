/** Programs using what the engine does not model: each must give an error naming it. */
public class Unsupported {
    static int viaUlp(int x) { return (int) Math.ulp((double) x); }

    static String show(int x) { return Integer.toString(x, 16); }

    static int hash(Object o) { return o.hashCode(); }

    static int objectsHash(Object o) { return java.util.Objects.hashCode(o); }
}
