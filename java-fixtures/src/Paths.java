/**
 * Straight-line case analyses whose paths meet again: 2^7 paths reach the `return`, more than
 * the engine expands at one position before it merges parallel paths (docs/engine.md).
 */
public class Paths {
    public static int signs(int a, int b, int c, int d, int e, int f, int g) {
        int n = 0;
        if (a > 0) n = n + 1;
        if (b > 0) n = n + 2;
        if (c > 0) n = n + 4;
        if (d > 0) n = n + 8;
        if (e > 0) n = n + 16;
        if (f > 0) n = n + 32;
        if (g > 0) n = n + 64;
        return n;
    }
}
