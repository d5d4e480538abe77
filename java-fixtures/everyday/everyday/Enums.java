package everyday;

/** Three colours: an enum without fields. */
enum Color {
    RED, GREEN, BLUE
}

/** An enum whose constants carry fields set by its constructor. */
enum Coin {
    PENNY(1), NICKEL(5), DIME(10), QUARTER(25);

    final int cents;

    Coin(int cents) {
        this.cents = cents;
    }

    int times(int n) {
        return cents * n;
    }
}

/** Everyday enum code: switches, values(), ordinal(), name(), compareTo, equals, constants. */
public class Enums {
    static int code(Color c) {
        switch (c) {
            case RED:
                return 1;
            case GREEN:
                return 2;
            default:
                return 3;
        }
    }

    static int countColors() {
        int n = 0;
        for (Color c : Color.values()) n++;
        return n;
    }

    static int ordinalSum() {
        int s = 0;
        for (Color c : Color.values()) s += c.ordinal();
        return s;
    }

    static boolean isRed(Color c) {
        return c == Color.RED;
    }

    static int order(Color a, Color b) {
        return a.compareTo(b);
    }

    static boolean same(Color a, Color b) {
        return a.equals(b);
    }

    static int nameLength(Color c) {
        return c.name().length();
    }

    static Color next(Color c) {
        Color[] all = Color.values();
        return all[(c.ordinal() + 1) % all.length];
    }

    static int stepsToRed(Color c) {
        int n = 0;
        while (c != Color.RED) {
            c = next(c);
            n++;
        }
        return n;
    }

    static int total(Coin c, int n) {
        int s = 0;
        for (int i = 0; i < n; i++) s += c.times(1);
        return s;
    }

    static int allCents() {
        int s = 0;
        for (Coin c : Coin.values()) s += c.cents;
        return s;
    }

    static Color parse(String s) {
        return Color.valueOf(s);
    }

    static boolean sameColor(Tile a, Tile b) {
        return a.color == b.color;
    }

    static int countSameAsFirst(Tile t) {
        int n = 0;
        for (Tile u = t; u != null; u = u.next) {
            if (u.color == t.color) n++;
        }
        return n;
    }

    static boolean firstTwoSame(Color[] cs) {
        return cs[0] == cs[1];
    }

    // YES: a switch expression over every constant; javac 17 adds a default that throws
    // IncompatibleClassChangeError (reached only if the enum changed after compilation)
    static int weigh(Color[] cs, int x) {
        for (Color c : cs) {
            x = switch (c) {
                case RED -> x + 1;
                case GREEN -> x - 1;
                case BLUE -> x * 2;
            };
        }
        return x;
    }

    // YES: a name read back gives the constant itself (valueOf returns the cached constant)
    static boolean roundTrip(Color c) {
        return Color.valueOf(c.name()) == c;
    }

    // YES: count the words that name a colour (valueOf throws for the others)
    static int countColorWords(String[] words) {
        int n = 0;
        for (String w : words) {
            try {
                Enum.valueOf(Color.class, w);
                n++;
            } catch (IllegalArgumentException e) {
                // not a colour
            }
        }
        return n;
    }

    // unsupported: a Class parameter says nothing the engine knows of its class
    static Color byClass(Class<Color> c, String s) {
        return Enum.valueOf(c, s);
    }
}

/** Tiles in a list, each with a colour: two tiles may have one constant. */
class Tile {
    Color color;
    Tile next;
}
