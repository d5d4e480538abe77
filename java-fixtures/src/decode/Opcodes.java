package decode;

/** Decoder coverage: switches, wide locals, long/double/string constants, arrays, exceptions. */
public class Opcodes {
    static final long BIG = 1234567890123L;
    static int table(int x) {
        switch (x) { case 1: return 10; case 2: return 20; case 3: return 30; default: return -1; }
    }
    static int lookup(int x) {
        switch (x) { case -1000: return 1; case 7: return 2; case 100000: return 3; default: return 0; }
    }
    static double consts(long l) { return l * 1234567890123L + 2.5 + "abc".length() + 100000; }
    static int wide(int a) {
        int v0 = a, v1 = a, v2 = a, v3 = a, v4 = a, v5 = a, v6 = a, v7 = a, v8 = a, v9 = a;
        int[] big = new int[300];
        long[][] grid = new long[2][3];
        long p0 = 0, p1 = 1, p2 = 2, p3 = 3, p4 = 4, p5 = 5, p6 = 6, p7 = 7, p8 = 8, p9 = 9, p10 = 10, p11 = 11, p12 = 12, p13 = 13, p14 = 14, p15 = 15, p16 = 16, p17 = 17, p18 = 18, p19 = 19, p20 = 20, p21 = 21, p22 = 22, p23 = 23, p24 = 24, p25 = 25, p26 = 26, p27 = 27, p28 = 28, p29 = 29, p30 = 30, p31 = 31, p32 = 32, p33 = 33, p34 = 34, p35 = 35, p36 = 36, p37 = 37, p38 = 38, p39 = 39, p40 = 40, p41 = 41, p42 = 42, p43 = 43, p44 = 44, p45 = 45, p46 = 46, p47 = 47, p48 = 48, p49 = 49, p50 = 50, p51 = 51, p52 = 52, p53 = 53, p54 = 54, p55 = 55, p56 = 56, p57 = 57, p58 = 58, p59 = 59, p60 = 60, p61 = 61, p62 = 62, p63 = 63, p64 = 64, p65 = 65, p66 = 66, p67 = 67, p68 = 68, p69 = 69, p70 = 70, p71 = 71, p72 = 72, p73 = 73, p74 = 74, p75 = 75, p76 = 76, p77 = 77, p78 = 78, p79 = 79, p80 = 80, p81 = 81, p82 = 82, p83 = 83, p84 = 84, p85 = 85, p86 = 86, p87 = 87, p88 = 88, p89 = 89, p90 = 90, p91 = 91, p92 = 92, p93 = 93, p94 = 94, p95 = 95, p96 = 96, p97 = 97, p98 = 98, p99 = 99, p100 = 100, p101 = 101, p102 = 102, p103 = 103, p104 = 104, p105 = 105, p106 = 106, p107 = 107, p108 = 108, p109 = 109, p110 = 110, p111 = 111, p112 = 112, p113 = 113, p114 = 114, p115 = 115, p116 = 116, p117 = 117, p118 = 118, p119 = 119, p120 = 120, p121 = 121, p122 = 122, p123 = 123, p124 = 124, p125 = 125, p126 = 126, p127 = 127, p128 = 128, p129 = 129;
        int w = (int) p129;
        w += 1000;
        return v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + big.length + grid.length + w;
    }
    static int guarded(int[] a) {
        try { return a[0] / a[1]; } catch (ArithmeticException e) { return 0; } finally { a[0] = 1; }
    }
}
