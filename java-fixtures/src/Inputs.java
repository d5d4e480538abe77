public class Inputs {
   static int lens(String[] a) { int s = 0; for (int i = 0; i < a.length; i++) s += a[i].length(); return s; }
   static int same(Object a, Object b) { return a == b ? 1 : 0; }
   static long wide(long a, double d, float f) { long r = a + (long) d + (long) f; return r; } }
