/** Programs on the modelled String and Integer methods (engine/src/models/text.rs). */
public class Text {
    /** Integer.parseInt: an int, or NumberFormatException ("x" for x <= 0). */
    static int parse(int x) {
        String s = x > 0 ? String.valueOf(x) : "x";
        return Integer.parseInt(s) + 1;
    }

    /** Integer.valueOf caches -128..127: the two boxes are one object there, two elsewhere. */
    static int box(int x) {
        Integer a = Integer.valueOf(x);
        Integer b = Integer.valueOf(x);
        if (a == b) {
            return 1;
        }
        return a.intValue() - b.intValue();
    }

    /** Equal literals are one interned object; charAt out of range throws. */
    static int literals(int x) {
        String a = "ab";
        String b = "ab";
        int same = a == b ? 1 : 0;
        return same + a.charAt(x);
    }

    /** split, substring (throws for x outside [0, 7]), queries. */
    static int queries(int x) {
        String s = "abc,def";
        String[] parts = s.split(",");
        String head = s.substring(0, x);
        int n = parts.length + head.length();
        if (s.startsWith(head) && head.endsWith("c")) {
            n++;
        }
        if (head.equals(parts[0])) {
            n += 10;
        }
        String t = head.concat("!");
        n += t.indexOf('!') + s.compareTo(t) + s.lastIndexOf("d");
        if (t == s) {
            n = -n;
        }
        return n;
    }

    /** new String(s) copies s (same length, another object); queries from an offset. */
    static int copies(int x) {
        String s = x > 0 ? "abcabc" : null;
        String c = new String(s);
        int n = c == s ? 100 : c.length();
        if (c.startsWith("bc", x)) {
            n++;
        }
        return n + c.indexOf("c", x) + c.lastIndexOf("a", x) + c.indexOf('b', x);
    }

    /** An empty StringBuilder's toString() is the interned "" (JDK 17), not a new object. */
    static int emptyBuilder(int x) {
        String e = "";
        StringBuilder b = new StringBuilder();
        if (x > 0) {
            b.append(x);
        }
        String s = b.toString();
        return s == e ? 1 : s.length();
    }

    /** intern() of a built string is the pooled literal of the same contents. */
    static int interned(int x) {
        String lit = "7";
        String s = String.valueOf(x).intern();
        return s == lit ? 1 : s.length();
    }

    static String empty = "";

    /**
     * JDK 17's substring(1) of a one-char string is the interned "", which a static read later
     * may hold: the static's first value may be a string the run already has.
     */
    static int internedLater(String s) {
        if (s.length() != 1) return 0;
        String t = s.substring(1);
        return t == empty ? 1 : 0;
    }

    /** Character.valueOf caches '\u0000'..'\u007F': two boxes of such a char are one object. */
    static int charBox(int x) {
        char c = (char) x;
        Character a = Character.valueOf(c);
        Character b = Character.valueOf(c);
        if (a == b) {
            return 1;
        }
        return a.charValue() - b.charValue() + a.compareTo(b) + (a.equals(b) ? 1 : 0);
    }

    /** replace(CharSequence, CharSequence) gives the receiver itself when nothing matches. */
    static int replaced(int x) {
        String s = String.valueOf(x);
        String t = s.replace("7", "77");
        return (t == s ? 100 : 0) + t.length();
    }
}
