package everyday;

/** HoistBefore.sum with the bound `a.length` hoisted into a local. */
public class HoistAfter {
    static int sum(int[] a) {
        int s = 0;
        int n = a.length;
        for (int i = 0; i < n; i++) {
            s += a[i];
        }
        return s;
    }
}
