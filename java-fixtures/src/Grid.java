/**
 * A program without inputs (issue #21): an `int[10][10]` filled by two nested constant loops.
 * Its arrays are concrete; at the loop heads an array whose contents the loop changes becomes
 * an abstract array of its length (else every store at the index `j`, not a literal, would
 * refine `j` into each of the ten elements, and the graph had over 160 000 nodes).
 */
public class Grid {
    public static int fill() {
        int[][] a = new int[10][10];
        for (int i = 0; i < 10; i++) {
            for (int j = 0; j < 10; j++) {
                a[i][j] = i + j;
            }
        }
        return a[3][4];
    }
}
