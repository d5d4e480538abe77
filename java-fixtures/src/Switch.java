public class Switch {
   static int dense(int x) { int r; switch (x) { case 0: r = 10; break; case 1: r = 11; break; case 2: r = 12; break; default: r = -1; } r += 1000; return r; }
   static int sparse(int x) { switch (x) { case -100: return 1; case 7: return 2; case 100000: return 3; default: return 0; } } }
