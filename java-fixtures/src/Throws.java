public class Throws { Throws next; int val;
   static int div(int a, int b) { return a / b; }
   static int readNext(Throws t) { return t.next.val; }
   static int caught(int a) { try { return div(a, 0); } catch (ArithmeticException e) { return -1; } } }
