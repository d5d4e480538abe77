package everyday;

/** Everyday string code: queries, building, concatenation (invokedynamic since javac 9). */
public class Strings {
    static boolean isPalindrome(String s) {
        int i = 0;
        int j = s.length() - 1;
        while (i < j) {
            if (s.charAt(i) != s.charAt(j)) return false;
            i++;
            j--;
        }
        return true;
    }

    static int count(String s, char c) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == c) n++;
        }
        return n;
    }

    static String describe(int n) {
        return "n=" + n;
    }

    static String greet(String name) {
        return "Hello, " + name + "!";
    }

    static String reverse(String s) {
        return new StringBuilder(s).reverse().toString();
    }

    static String joinDigits(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (i > 0) sb.append(',');
            sb.append(i);
        }
        return sb.toString();
    }

    static boolean isBlank(String s) {
        return s.trim().isEmpty();
    }

    static int parseDigits(String s) {
        int v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!Character.isDigit(c)) break;
            v = v * 10 + (c - '0');
        }
        return v;
    }

    static int countWords(String s) {
        int words = 0;
        boolean inWord = false;
        for (char c : s.toCharArray()) {
            if (Character.isWhitespace(c)) inWord = false;
            else if (!inWord) {
                inWord = true;
                words++;
            }
        }
        return words;
    }

    static boolean startsWithUpper(String s) {
        return !s.isEmpty() && Character.isUpperCase(s.charAt(0));
    }

    static int indexOfChar(String s, char c) {
        return s.indexOf(c);
    }

    static int lengthByRecursion(String s) {
        return s.isEmpty() ? 0 : 1 + lengthByRecursion(s.substring(1));
    }

    static int peelBothEnds(String s) {
        int layers = 0;
        while (s.length() > 1) {
            s = s.substring(1, s.length() - 1);
            layers++;
        }
        return layers;
    }

    static int suffixLengths(String s) {
        int total = 0;
        for (int i = 0; i < s.length(); i++) total += s.substring(i).length();
        return total;
    }

    /** JDK 17: the receiver for the whole range, the interned "" for an empty one, else new. */
    static int substringIdentity(String s, int k) {
        String empty = "";
        String rest = s.substring(k);
        String whole = s.substring(0);
        return (rest == s ? 1 : 0) + (whole == s ? 2 : 0) + (rest == empty ? 4 : 0);
    }

    // YES: a builder's length grows by one a lap up to n (the model keeps the length)
    static String padTo(StringBuilder sb, int n) {
        while (sb.length() < n) sb.append('.');
        return sb.toString();
    }

    // YES: an int's digits are at least one character
    static int digitsUpTo(int n) {
        StringBuilder sb = new StringBuilder();
        while (sb.length() < n) sb.append(sb.length());
        return sb.length();
    }

    // YES: each lap removes the last character of a builder
    static String trimTrailing(StringBuilder sb) {
        while (sb.length() > 0 && sb.charAt(sb.length() - 1) == ' ') sb.deleteCharAt(sb.length() - 1);
        return sb.toString();
    }

    // NO: appending the empty string never grows the builder (`repeatTo("", 1)`)
    static String repeatTo(String s, int n) {
        StringBuilder sb = new StringBuilder();
        while (sb.length() < n) sb.append(s);
        return sb.toString();
    }

    // YES: a string made from a char array has the array's length
    static int charsBack(char[] cs) {
        String s = new String(cs);
        int n = 0;
        for (int i = 0; i < s.length(); i++) if (s.charAt(i) == cs[0]) n++;
        return n;
    }

    // YES: n dots; its builder's length is what the checker's model tests change
    static int dots(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) sb.append('.');
        return sb.length();
    }

    // YES: the letters of every word without its spaces (replace(" ", ""))
    static int squeezed(String[] words) {
        int n = 0;
        for (String w : words) n += w.replace(" ", "").length();
        return n;
    }

    // YES: a ruler of n dashes, walked char by char (repeat(1) is the string itself, repeat(0)
    // the empty one)
    static int ruler(int n) {
        if (n < 0) return 0;
        String line = "-".repeat(n);
        int c = line == "-" ? 100 : 0;
        for (int i = 0; i < line.length(); i++) if (line.charAt(i) == '-') c++;
        return c;
    }
}
