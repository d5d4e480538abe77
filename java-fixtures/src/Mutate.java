public class Mutate { Mutate next; int val;
   static Mutate reverse(Mutate cur) { Mutate prev = null; while (cur != null) { Mutate n = cur.next; cur.next = prev; prev = cur; cur = n; } return prev; }
   static Mutate build(int n) { Mutate h = null; for (int i = 0; i < n; i++) { Mutate m = new Mutate(); m.val = i; m.next = h; h = m; } return h; }
   static int[] squares(int n) { int[] a = new int[n]; for (int i = 0; i < n; i++) a[i] = i * i; return a; }
   static int copyBlind(int[] a) { java.nio.IntBuffer.wrap(a).put(0, 77); int s = 0; for (int i = 0; i < a.length; i++) s += a[i]; return s; } }
