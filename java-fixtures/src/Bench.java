public class Bench {
   static int walk(List cur, int n) { int s = 0; while (n-- > 0) { s += cur.val; cur = cur.next; } return s; } }
