public class List { List next; int val;
   static boolean contains(List cur, int x) { while (cur != null) { if (cur.val == x) return true; cur = cur.next; } return false; }
   int get(int x) { List cur = this; while (x-- > 0) cur = cur.next; return cur.val; } }
