/*
 * The instrumenter's scan of the Code attribute: the original pc of every instruction of every
 * method, from the opcode length table (tableswitch/lookupswitch padding and wide included).
 * ASM's instruction visits are paired 1:1 with these pcs (see Instrumenter).
 */
package tracer;

import java.util.HashMap;
import java.util.Map;
import org.objectweb.asm.ClassReader;

final class CodeScan {
    private CodeScan() {}

    private static final byte[] LEN = new byte[256];

    static {
        java.util.Arrays.fill(LEN, (byte) 1);
        int[] two = {0x10, 0x12, 0x15, 0x16, 0x17, 0x18, 0x19, 0x36, 0x37, 0x38, 0x39, 0x3a, 0xa9, 0xbc};
        for (int op : two) LEN[op] = 2;
        int[] three = {0x11, 0x13, 0x14, 0x84, 0xa7, 0xa8, 0xbb, 0xbd, 0xc0, 0xc1, 0xc6, 0xc7};
        for (int op : three) LEN[op] = 3;
        for (int op = 0x99; op <= 0xa6; op++) LEN[op] = 3;
        for (int op = 0xb2; op <= 0xb8; op++) LEN[op] = 3;
        LEN[0xc5] = 4;
        LEN[0xb9] = 5;
        LEN[0xba] = 5;
        LEN[0xc8] = 5;
        LEN[0xc9] = 5;
    }

    private static int s4(byte[] b, int o) {
        return (b[o] << 24) | ((b[o + 1] & 0xff) << 16) | ((b[o + 2] & 0xff) << 8) | (b[o + 3] & 0xff);
    }

    /** Length in bytes of the instruction at {@code pc} of {@code code} starting at {@code base}. */
    static int insnLen(byte[] b, int base, int pc) {
        int op = b[base + pc] & 0xff;
        if (op == 0xaa) { // tableswitch
            int p = (pc + 4) & ~3;
            int lo = s4(b, base + p + 4);
            int hi = s4(b, base + p + 8);
            return p + 12 + 4 * (hi - lo + 1) - pc;
        }
        if (op == 0xab) { // lookupswitch
            int p = (pc + 4) & ~3;
            int n = s4(b, base + p + 4);
            return p + 8 + 8 * n - pc;
        }
        if (op == 0xc4) { // wide
            return (b[base + pc + 1] & 0xff) == 0x84 ? 6 : 4;
        }
        return LEN[op];
    }

    /**
     * Per method "name desc": {maxLocals, pc0, pc1, ...}; into {@code handlers}, per method, its
     * exception table as {start0, end0, handler0, start1, ...} in table order (ASM visits the
     * try-catch blocks in that order).
     */
    static Map<String, int[]> scanCode(ClassReader cr, byte[] b, Map<String, int[]> handlers) {
        Map<String, int[]> out = new HashMap<>();
        char[] buf = new char[cr.getMaxStringLength()];
        int off = cr.header + 6;
        int nIf = cr.readUnsignedShort(off);
        off += 2 + 2 * nIf;
        int nFields = cr.readUnsignedShort(off);
        off += 2;
        for (int i = 0; i < nFields; i++) {
            off = skipMember(cr, off);
        }
        int nMethods = cr.readUnsignedShort(off);
        off += 2;
        for (int i = 0; i < nMethods; i++) {
            String name = cr.readUTF8(off + 2, buf);
            String desc = cr.readUTF8(off + 4, buf);
            int nAttr = cr.readUnsignedShort(off + 6);
            int a = off + 8;
            for (int k = 0; k < nAttr; k++) {
                String an = cr.readUTF8(a, buf);
                int len = cr.readInt(a + 2);
                if (an.equals("Code")) {
                    int maxLocals = cr.readUnsignedShort(a + 8);
                    int codeLen = cr.readInt(a + 10);
                    int base = a + 14;
                    int[] pcs = new int[codeLen + 1];
                    int n = 0;
                    pcs[n++] = maxLocals;
                    for (int pc = 0; pc < codeLen; pc += insnLen(b, base, pc)) {
                        pcs[n++] = pc;
                    }
                    out.put(name + " " + desc, java.util.Arrays.copyOf(pcs, n));
                    int t = base + codeLen;
                    int[] table = new int[3 * cr.readUnsignedShort(t)];
                    for (int e = 0; e < table.length; e++) {
                        table[e] = cr.readUnsignedShort(t + 2 + 8 * (e / 3) + 2 * (e % 3));
                    }
                    handlers.put(name + " " + desc, table);
                }
                a += 6 + len;
            }
            off = a;
        }
        return out;
    }

    private static int skipMember(ClassReader cr, int off) {
        int nAttr = cr.readUnsignedShort(off + 6);
        int a = off + 8;
        for (int k = 0; k < nAttr; k++) {
            a += 6 + cr.readInt(a + 2);
        }
        return a;
    }
}
