public class Loop { static int count;
   static int forever(int x) { while (true) { x++; } }
   static int down(int n) { return down(n + 1) + 1; }
   static int bump() { count++; return count; }
   // javac's handler of a synchronized block covers its own first instruction
   static int lockedSum(int n) { Object lock = new Object(); int s = 0; synchronized (lock) { for (int i = 0; i < n; i++) s += i; } return s; } }
