package everyday;

import java.util.ArrayList;
import java.util.List;

/** Strings made by the JDK from numbers and from other strings: the radix forms of an int, the
 *  decimal form, and String.join over a list, an array and varargs. */
public class TextForms {
    static int binaryOnes(int n) {
        String b = Integer.toBinaryString(n);
        int c = 0;
        for (int i = 0; i < b.length(); i++) {
            if (b.charAt(i) == '1') c++;
        }
        return c;
    }

    static int hexDigits(int n) {
        return Integer.toHexString(n).length() + Integer.toOctalString(n).length();
    }

    static int decimalWidth(int n, long m) {
        return Integer.toString(n).length() + String.valueOf(m).length() + String.valueOf(n > 0).length();
    }

    static String joinList(List<String> words) {
        return String.join(", ", words);
    }

    static int joinArray(String[] words) {
        return String.join("-", words).length();
    }

    static String joinTwo(String a, String b) {
        return String.join("/", a, b);
    }

    static int joinBuilt(int n) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < n; i++) parts.add(Integer.toHexString(i));
        String s = String.join(",", parts);
        int c = 0;
        for (int i = 0; i < s.length(); i++) c++;
        return c;
    }
}
