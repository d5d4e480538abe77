public class Loop { static int count;
   static int forever(int x) { while (true) { x++; } }
   static int down(int n) { return down(n + 1) + 1; }
   static int bump() { count++; return count; } }
