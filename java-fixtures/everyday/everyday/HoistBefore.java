package everyday;

/** A loop over an array that reads the bound at every test (`jtg diff` against HoistAfter). */
public class HoistBefore {
    static int sum(int[] a) {
        int s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i];
        }
        return s;
    }
}
