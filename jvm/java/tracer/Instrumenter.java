/*
 * Bytecode instrumentation for concrete tracing (ASM 9.4).
 *
 * Pipeline per class: ClassReader(EXPAND_FRAMES) -> ProbeVisitor -> AnalyzerAdapter ->
 * ClassWriter(COMPUTE_MAXS). Before every reachable original instruction the probe spills
 * the operand stack into fresh temporaries (at slots >= the original max_locals), records
 * (method id, original pc, depth, locals, stack) through static calls into Recorder, and
 * reloads the stack. The inserted code has no branches, so the original StackMapTable frames
 * stay valid (only their names of objects under construction are moved from the probe of a
 * `new` to the `new` itself); the JVM verifier (kept on) checks the result. An object under
 * construction is recorded by its site: the pc of its `new`, or -1 for `this` before `super()`.
 *
 * Original pcs come from a scan of the Code attribute (opcode length table incl.
 * tableswitch/lookupswitch padding and wide; CodeScan), paired 1:1 with ASM's instruction visits.
 * Method entry calls Recorder.enter(), every *return calls Recorder.exit() after its probe,
 * and the first probe of an exception handler calls Recorder.beginH (which re-synchronises
 * the depth counter after exceptional unwinding). <clinit> is not traced (the engine treats
 * every class as initialised), nor are the methods it calls (Inits), but it calls
 * Recorder.tick() on entry and before every jump, so a static initialiser that does not
 * terminate ends the run at the step budget.
 *
 * Every instrumented method is registered in a process-wide table (method id -> class,
 * name, descriptor, max_locals, per-pc opcode + auxiliary info, per-pc value layout) that the
 * Rust side pulls. The kinds of the locals and stack entries at a pc are static (the verifier's
 * types), so the layout is emitted once here and a step records untagged values only; a TOP or
 * an object under construction (its site is static too) records nothing.
 */
package tracer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.AnalyzerAdapter;

public final class Instrumenter {
    private Instrumenter() {}

    /** Highest class-file major version ASM 9.4 reads (Java 20). */
    public static final int MAX_MAJOR = 64;

    private static final String REC = "tracer/Recorder";

    // ---- process-wide method table -------------------------------------------------------
    private static final ArrayList<String> methodNames = new ArrayList<>();
    private static final ArrayList<int[]> methodInfos = new ArrayList<>();
    /** Messages of instrumentation failures since the last {@link #takeFailures()}. */
    private static final ArrayList<String> failures = new ArrayList<>();

    static synchronized int register(String cls, String name, String desc, int[] info) {
        methodNames.add(cls + " " + name + " " + desc);
        methodInfos.add(info);
        return methodNames.size() - 1;
    }

    static synchronized void setInfo(int mid, int[] info) {
        methodInfos.set(mid, info);
    }

    public static synchronized int methodCount() {
        return methodNames.size();
    }

    /** "class name desc" of method {@code mid}. */
    public static synchronized String methodName(int mid) {
        return methodNames.get(mid);
    }

    /**
     * [maxLocals, nInsns, (pc, opcode, aux)*nInsns, (pc, nl, ns, code*(nl + ns))*] of method
     * {@code mid}; aux = pops for invokes (plus {@link #libraryWrite} << 8 for a JDK method that
     * writes into an array argument), string index of "owner.name:desc" for putfield,
     * getstatic and putstatic, string index of the class for new, the local slot for loads and
     * stores, else -1. The second part
     * has one layout per probed (reachable) instruction: the kinds of the locals (by slot) and
     * of the stack entries (top first) its step records, a code each: {@code kind}, or for an
     * object under construction {@code K_UNINIT | (site + 1) << 3}.
     */
    public static synchronized int[] methodInfo(int mid) {
        return methodInfos.get(mid);
    }

    static synchronized void fail(String msg) {
        failures.add(msg);
    }

    public static synchronized String takeFailures() {
        if (failures.isEmpty()) {
            return null;
        }
        String s = String.join("; ", failures);
        failures.clear();
        return s;
    }

    // ---- per-content cache -----------------------------------------------------------------

    /** What a loader defines for one class file: the bytes and whether runs can change its statics. */
    static final class Prepared {
        final byte[] bytes;
        /** Why a loader holding this class must not be reused across runs, or null. */
        final String stateful;

        Prepared(byte[] bytes, String stateful) {
            this.bytes = bytes;
            this.stateful = stateful;
        }
    }

    /** Cache key: class name, instrumented or not, and the original class file's content. */
    private static final class Key {
        final String name;
        final boolean instrument;
        final byte[] original;
        final int hash;

        Key(String name, boolean instrument, byte[] original) {
            this.name = name;
            this.instrument = instrument;
            this.original = original;
            this.hash = (name.hashCode() * 31 + java.util.Arrays.hashCode(original)) * 2 + (instrument ? 1 : 0);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Key)) {
                return false;
            }
            Key k = (Key) o;
            return hash == k.hash && instrument == k.instrument && name.equals(k.name)
                    && java.util.Arrays.equals(original, k.original);
        }
    }

    private static final HashMap<Key, Prepared> prepared = new HashMap<>();
    private static int instrumentedCount;

    /**
     * The bytes to define for class {@code name} read from {@code original}: instrumented (once
     * per distinct class file content; the method ids registered then stay valid) or verbatim.
     * Throws IllegalArgumentException for unsupported classes.
     */
    static Prepared prepare(String name, byte[] original, boolean instrument) {
        Key k = new Key(name, instrument, original);
        synchronized (prepared) {
            Prepared p = prepared.get(k);
            if (p != null) {
                return p;
            }
        }
        byte[] bytes = instrument ? instrument(original) : original;
        String stateful;
        try {
            stateful = staticState(original);
        } catch (RuntimeException e) {
            // a plain run of a class ASM cannot read: define it verbatim, in a single-use loader
            stateful = name + ": class file not analysable for static state (" + e + ")";
        }
        Prepared p = new Prepared(bytes, stateful);
        synchronized (prepared) {
            Prepared q = prepared.putIfAbsent(k, p);
            if (q != null) {
                return q;
            }
            if (instrument) {
                instrumentedCount++;
            }
        }
        return p;
    }

    /** Number of class files instrumented so far (each distinct content once). */
    public static int instrumentedCount() {
        synchronized (prepared) {
            return instrumentedCount;
        }
    }

    /**
     * Why a run can leave static state of this class different from a freshly loaded copy, or
     * null if it cannot: a static initializer (it may build mutable objects, or fail and leave
     * the class erroneous) or a putstatic anywhere in the class (it may write any class's static
     * fields). Without both, every static field keeps its prepared value (zero or its
     * ConstantValue) and initialising the class runs no code of the program.
     */
    static String staticState(byte[] original) {
        ClassReader cr = new ClassReader(original);
        String[] why = {null};
        String cls = cr.getClassName();
        cr.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exc) {
                if (why[0] != null) {
                    return null;
                }
                if (name.equals("<clinit>")) {
                    why[0] = cls + " has a static initializer";
                    return null;
                }
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitFieldInsn(int opcode, String owner, String fname, String fdesc) {
                        if (opcode == Opcodes.PUTSTATIC && why[0] == null) {
                            why[0] = cls + "." + name + " writes static field " + owner + "." + fname;
                        }
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return why[0];
    }

    // ---- instrumentation -------------------------------------------------------------------

    /** Instrumented bytes of a class; throws IllegalArgumentException for unsupported classes. */
    public static byte[] instrument(byte[] bytes) {
        int major = ((bytes[6] & 0xff) << 8) | (bytes[7] & 0xff);
        if (major > MAX_MAJOR) {
            throw new IllegalArgumentException(
                    "class file major version " + major + " > " + MAX_MAJOR + " (ASM 9.4 supports up to Java 20)");
        }
        if (major < 50) {
            throw new IllegalArgumentException(
                    "class file major version " + major + " < 50 has no StackMapTable (compile with --release >= 6)");
        }
        ClassReader cr = new ClassReader(bytes);
        Map<String, int[]> handlers = new HashMap<>();
        Map<String, int[]> pcs = CodeScan.scanCode(cr, bytes, handlers);
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cr.accept(new ClassVisitor(Opcodes.ASM9, cw) {
            String owner;

            @Override
            public void visit(int version, int access, String name, String sig, String sup, String[] itf) {
                owner = name;
                super.visit(version, access, name, sig, sup, itf);
            }

            /** Lambda sites of this class so far (see {@link SiteHooks.LambdaNames}). */
            final int[] lambdaSites = {0};

            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exc) {
                MethodVisitor mv = new SiteHooks.EnumLookups(
                        new SiteHooks.LambdaNames(super.visitMethod(access, name, desc, sig, exc), owner, lambdaSites));
                if (name.equals("<clinit>")) {
                    return new InitTicks(mv);
                }
                int[] p = pcs.get(name + " " + desc);
                if (p == null) {
                    return mv;
                }
                AnalyzerAdapter aa = new AnalyzerAdapter(owner, access, name, desc, mv);
                return new Probe(aa, owner, name, desc, p, handlers.get(name + " " + desc));
            }
        }, ClassReader.EXPAND_FRAMES);
        return cw.toByteArray();
    }

    /**
     * A static initialiser's only probes: Recorder.tick() at entry and before every jump and
     * switch (every loop passes one), which counts against the run's step budget, and
     * Inits.enter()/exit() at entry and before its return (see Inits). No stack effect and no
     * new branch, so the original frames stay valid.
     */
    private static final class InitTicks extends MethodVisitor {
        InitTicks(MethodVisitor mv) {
            super(Opcodes.ASM9, mv);
        }

        private void tick() {
            super.visitMethodInsn(Opcodes.INVOKESTATIC, REC, "tick", "()V", false);
        }

        @Override
        public void visitCode() {
            super.visitCode();
            super.visitMethodInsn(Opcodes.INVOKESTATIC, "tracer/Inits", "enter", "()V", false);
            tick();
        }

        @Override
        public void visitInsn(int opcode) {
            if (opcode == Opcodes.RETURN) {
                super.visitMethodInsn(Opcodes.INVOKESTATIC, "tracer/Inits", "exit", "()V", false);
            }
            super.visitInsn(opcode);
        }

        @Override
        public void visitJumpInsn(int opcode, Label label) {
            tick();
            super.visitJumpInsn(opcode, label);
        }

        @Override
        public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
            tick();
            super.visitTableSwitchInsn(min, max, dflt, labels);
        }

        @Override
        public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
            tick();
            super.visitLookupSwitchInsn(dflt, keys, labels);
        }
    }

    private static final int K_INT = 0, K_FLOAT = 1, K_LONG = 2, K_DOUBLE = 3, K_REF = 4, K_TOP = 5, K_UNINIT = 6;

    /** Ints a value of kind {@code k} takes in the trace buffer. */
    private static int width(int k) {
        return k == K_LONG || k == K_DOUBLE ? 2 : k == K_TOP || k == K_UNINIT ? 0 : 1;
    }

    private static int kindOf(Object t) {
        if (t == Opcodes.INTEGER) return K_INT;
        if (t == Opcodes.FLOAT) return K_FLOAT;
        if (t == Opcodes.LONG) return K_LONG;
        if (t == Opcodes.DOUBLE) return K_DOUBLE;
        if (t == Opcodes.TOP) return K_TOP;
        if (t == Opcodes.NULL || t instanceof String) return K_REF;
        return K_UNINIT; // Label (new) or UNINITIALIZED_THIS
    }

    /** Inserts the probes; sits in front of the AnalyzerAdapter and reads its state. */
    private static final class Probe extends MethodVisitor {
        final AnalyzerAdapter aa;
        final int[] pcs; // [maxLocals, pc...]
        final int maxLocals;
        final int mid;
        final String owner, name, desc;
        final Set<Label> handlers = new HashSet<>();
        final List<int[]> info = new ArrayList<>();
        /** Per probe: pc, nl, ns, codes (see {@link Instrumenter#methodInfo}). */
        final List<int[]> layouts = new ArrayList<>();
        /** Labels visited since the last original instruction (they sit before its probe). */
        final List<Label> pending = new ArrayList<>();
        /**
         * Stack map labels of `new` instructions -> the label placed right at the `new`, after
         * its probe (see {@link #visitTypeInsn}).
         */
        final Map<Label, Label> atNew = new HashMap<>();
        /** The label marking each `new` (the AnalyzerAdapter's uninitialized type) -> its pc. */
        final Map<Label, Integer> newPcs = new HashMap<>();
        int idx = 1;
        boolean atHandler;
        /** The exception table, {start, end, handler} per entry (see {@link CodeScan}). */
        final int[] table;
        /** Try-catch blocks visited so far. */
        int tryCatches;
        /**
         * Handlers inside their own range (javac's {@code synchronized}: {@code 44 48 44 any})
         * -> the label after their probe, where the range starts instead: once a run is over its
         * step budget every probe throws, and a probe its own handler catches would throw again
         * forever.
         */
        final Map<Label, Label> afterProbe = new HashMap<>();

        Probe(AnalyzerAdapter aa, String owner, String name, String desc, int[] pcs, int[] table) {
            super(Opcodes.ASM9, aa);
            this.aa = aa;
            this.table = table == null ? new int[0] : table;
            this.pcs = pcs;
            this.maxLocals = pcs[0];
            this.owner = owner;
            this.name = name;
            this.desc = desc;
            this.mid = register(owner, name, desc, new int[] {maxLocals, 0});
        }

        @Override
        public void visitCode() {
            super.visitCode();
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, REC, "enter", "()V", false);
        }

        @Override
        public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
            handlers.add(handler);
            int e = 3 * tryCatches++;
            if (e + 2 < table.length && table[e] <= table[e + 2] && table[e + 2] < table[e + 1]) {
                // the handler's probe left out of the range, its instruction kept in
                Label after = afterProbe.computeIfAbsent(handler, h -> new Label());
                if (table[e] < table[e + 2]) {
                    super.visitTryCatchBlock(start, handler, handler, type);
                }
                super.visitTryCatchBlock(after, end, handler, type);
                return;
            }
            super.visitTryCatchBlock(start, end, handler, type);
        }

        @Override
        public void visitLabel(Label label) {
            super.visitLabel(label);
            pending.add(label);
            if (handlers.contains(label)) {
                atHandler = true;
            }
        }

        /** Stack map types with the labels of `new` instructions moved to the `new` itself. */
        private Object[] atNew(int n, Object[] types) {
            if (types == null || atNew.isEmpty()) {
                return types;
            }
            Object[] out = null;
            for (int i = 0; i < n; i++) {
                Label l = types[i] instanceof Label ? atNew.get(types[i]) : null;
                if (l != null) {
                    if (out == null) {
                        out = types.clone();
                    }
                    out[i] = l;
                }
            }
            return out == null ? types : out;
        }

        @Override
        public void visitFrame(int type, int nLocal, Object[] local, int nStack, Object[] stack) {
            super.visitFrame(type, nLocal, atNew(nLocal, local), nStack, atNew(nStack, stack));
        }

        private void push(int v) {
            if (v >= -1 && v <= 5) {
                mv.visitInsn(Opcodes.ICONST_0 + v);
            } else if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
                mv.visitIntInsn(Opcodes.BIPUSH, v);
            } else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
                mv.visitIntInsn(Opcodes.SIPUSH, v);
            } else {
                mv.visitLdcInsn(v);
            }
        }

        private void rec(String m, String d) {
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, REC, m, d, false);
        }

        private void load(int kind, int slot) {
            switch (kind) {
                case K_INT: mv.visitVarInsn(Opcodes.ILOAD, slot); break;
                case K_FLOAT: mv.visitVarInsn(Opcodes.FLOAD, slot); break;
                case K_LONG: mv.visitVarInsn(Opcodes.LLOAD, slot); break;
                case K_DOUBLE: mv.visitVarInsn(Opcodes.DLOAD, slot); break;
                default: mv.visitVarInsn(Opcodes.ALOAD, slot); break;
            }
        }

        private void store(int kind, int slot) {
            switch (kind) {
                case K_INT: mv.visitVarInsn(Opcodes.ISTORE, slot); break;
                case K_FLOAT: mv.visitVarInsn(Opcodes.FSTORE, slot); break;
                case K_LONG: mv.visitVarInsn(Opcodes.LSTORE, slot); break;
                case K_DOUBLE: mv.visitVarInsn(Opcodes.DSTORE, slot); break;
                default: mv.visitVarInsn(Opcodes.ASTORE, slot); break;
            }
        }

        /** Site of an uninitialized value: pc of its `new`, -1 for `this` before `super()`. */
        private int site(Object type) {
            if (type == Opcodes.UNINITIALIZED_THIS) {
                return -1;
            }
            Integer pc = newPcs.get(type);
            if (pc == null) { // a stack map frame naming a `new` further down the code
                throw new IllegalArgumentException("uninitialized value of a `new` not visited yet in "
                        + owner + "." + name + desc);
            }
            return pc;
        }

        /** Layout code of a value of kind {@code k} and AnalyzerAdapter type {@code type}. */
        private int code(int k, Object type) {
            return k == K_UNINIT ? K_UNINIT | (site(type) + 1) << 3 : k;
        }

        /**
         * Records kind {@code k} from slot {@code slot} (value already not on the stack). TOP and
         * objects under construction record nothing: the layout has them.
         */
        private void record(int k, int slot) {
            switch (k) {
                case K_INT: load(k, slot); rec("i", "(I)V"); break;
                case K_FLOAT: load(k, slot); rec("f", "(F)V"); break;
                case K_LONG: load(k, slot); rec("j", "(J)V"); break;
                case K_DOUBLE: load(k, slot); rec("d", "(D)V"); break;
                case K_REF: load(k, slot); rec("a", "(Ljava/lang/Object;)V"); break;
                default: break;
            }
        }

        /** Called before every original instruction with its opcode and aux info; returns its pc. */
        private int probe(int opcode, int aux) {
            if (idx >= pcs.length) {
                throw new IllegalStateException("instruction count mismatch in " + owner + "." + name + desc);
            }
            int pc = pcs[idx++];
            boolean handler = atHandler;
            atHandler = false;
            List<Label> here = handler && !afterProbe.isEmpty() ? new ArrayList<>(pending) : List.of();
            pending.clear();
            info.add(new int[] {pc, opcode, aux});
            if (aa.locals == null) {
                placeAfterProbe(here);
                return pc; // unreachable code
            }
            List<Object> loc = aa.locals;
            List<Object> st = aa.stack;
            int nl = Math.min(loc.size(), maxLocals);
            int[] kinds = new int[st.size()];
            Object[] types = new Object[st.size()];
            int n = 0;
            for (int i = 0; i < st.size(); i++) {
                int k = kindOf(st.get(i));
                types[n] = st.get(i);
                kinds[n++] = k;
                if (k == K_LONG || k == K_DOUBLE) {
                    i++; // skip the TOP half
                }
            }
            int[] slots = new int[n];
            int t = maxLocals;
            for (int k = 0; k < n; k++) {
                slots[k] = t;
                t += (kinds[k] == K_LONG || kinds[k] == K_DOUBLE) ? 2 : 1;
            }
            for (int k = n - 1; k >= 0; k--) {
                store(kinds[k], slots[k]);
            }
            int[] layout = new int[3 + nl + n];
            layout[0] = pc;
            layout[1] = nl;
            layout[2] = n;
            int ints = 0;
            for (int s = 0; s < nl; s++) {
                int k = kindOf(loc.get(s));
                layout[3 + s] = code(k, loc.get(s));
                ints += width(k);
            }
            for (int k = n - 1; k >= 0; k--) { // top of stack first
                layout[3 + nl + (n - 1 - k)] = code(kinds[k], types[k]);
                ints += width(kinds[k]);
            }
            layouts.add(layout);
            if (mid < 1 << 16) { // one header int: mid << 16 | pc (pc < 0xffff)
                push(mid << 16 | pc);
                push(ints);
                rec(handler ? "beginH" : "begin", "(II)V");
            } else {
                push(mid);
                push(pc);
                push(ints);
                rec(handler ? "beginHWide" : "beginWide", "(III)V");
            }
            for (int s = 0; s < nl; s++) {
                record(kindOf(loc.get(s)), s);
            }
            for (int k = n - 1; k >= 0; k--) { // top of stack first
                record(kinds[k], slots[k]);
            }
            rec("end", "()V");
            for (int k = 0; k < n; k++) {
                load(kinds[k], slots[k]);
            }
            placeAfterProbe(here);
            return pc;
        }

        /** Marks here the start of the ranges of the handlers {@code labels} (see {@link #afterProbe}). */
        private void placeAfterProbe(List<Label> labels) {
            for (Label l : labels) {
                Label after = afterProbe.get(l);
                if (after != null) {
                    mv.visitLabel(after);
                }
            }
        }

        private void probe(int opcode) {
            probe(opcode, -1);
        }

        @Override
        public void visitInsn(int opcode) {
            probe(opcode);
            if (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
                rec("exit", "()V");
            }
            super.visitInsn(opcode);
        }

        @Override
        public void visitIntInsn(int opcode, int operand) {
            probe(opcode);
            super.visitIntInsn(opcode, operand);
        }

        @Override
        public void visitVarInsn(int opcode, int var) {
            if (opcode == Opcodes.RET) {
                throw new IllegalArgumentException("jsr/ret is not supported");
            }
            probe(opcode, var);
            super.visitVarInsn(opcode, var);
        }

        /**
         * A stack map frame names an uninitialized value by the label at its `new` (JVMS
         * Uninitialized(offset)). The reader's label at a `new` sits before the probe, so after
         * the probe a fresh label marks the `new` itself and the frames are rewritten to name it
         * (a frame that names a `new` not visited yet, only possible after a backward jump, is
         * left as it is).
         */
        @Override
        public void visitTypeInsn(int opcode, String type) {
            if (opcode != Opcodes.NEW) {
                probe(opcode);
                super.visitTypeInsn(opcode, type);
                return;
            }
            List<Label> before = new ArrayList<>(pending);
            int pc = probe(opcode, Recorder.intern(type));
            Label at = new Label();
            mv.visitLabel(at);
            for (Label l : before) {
                atNew.put(l, at);
            }
            // the AnalyzerAdapter types the new object as `at` (the probe's instructions cleared
            // its pending labels), and so do the rewritten frames
            newPcs.put(at, pc);
            super.visitTypeInsn(opcode, type);
        }

        @Override
        public void visitFieldInsn(int opcode, String owner, String name, String desc) {
            // the decoder replays putfield and tracks static fields (getstatic, putstatic)
            probe(opcode, opcode == Opcodes.GETFIELD ? -1 : Recorder.intern(owner + "." + name + ":" + desc));
            super.visitFieldInsn(opcode, owner, name, desc);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String desc, boolean itf) {
            int pops = Type.getArgumentTypes(desc).length + (opcode == Opcodes.INVOKESTATIC ? 0 : 1);
            probe(opcode, pops | libraryWrite(opcode, owner, name, desc) << 8);
            super.visitMethodInsn(opcode, owner, name, desc, itf);
        }

        /**
         * The JDK methods that write into an array argument, which the uninstrumented JDK does
         * where the recorder cannot see it: the decoder replays their writes from the call's
         * operands (jvm/src/decode/library.rs). 1 = System.arraycopy, 2 = Arrays.fill(a, v),
         * 3 = Arrays.sort(a) of a primitive array; 0 for every other call.
         */
        private int libraryWrite(int opcode, String owner, String name, String desc) {
            if (opcode != Opcodes.INVOKESTATIC) {
                return 0;
            }
            if (owner.equals("java/lang/System") && name.equals("arraycopy")
                    && desc.equals("(Ljava/lang/Object;ILjava/lang/Object;II)V")) {
                return 1;
            }
            if (!owner.equals("java/util/Arrays")) {
                return 0;
            }
            Type[] args = Type.getArgumentTypes(desc);
            boolean primArray = args.length >= 1 && args[0].getSort() == Type.ARRAY
                    && args[0].getDimensions() == 1 && args[0].getElementType().getSort() != Type.OBJECT;
            if (name.equals("fill") && args.length == 2 && args[0].getSort() == Type.ARRAY
                    && args[0].getDimensions() == 1
                    && args[0].getElementType().equals(args[1])) {
                return 2;
            }
            if (name.equals("fill") && desc.equals("([Ljava/lang/Object;Ljava/lang/Object;)V")) {
                return 2;
            }
            if (name.equals("sort") && args.length == 1 && primArray) {
                return 3;
            }
            return 0;
        }

        @Override
        public void visitInvokeDynamicInsn(String name, String desc, org.objectweb.asm.Handle bsm, Object... args) {
            probe(Opcodes.INVOKEDYNAMIC, Type.getArgumentTypes(desc).length);
            super.visitInvokeDynamicInsn(name, desc, bsm, args);
        }

        @Override
        public void visitJumpInsn(int opcode, Label label) {
            if (opcode == Opcodes.JSR) {
                throw new IllegalArgumentException("jsr/ret is not supported");
            }
            probe(opcode);
            super.visitJumpInsn(opcode, label);
        }

        @Override
        public void visitLdcInsn(Object value) {
            probe(Opcodes.LDC);
            super.visitLdcInsn(value);
        }

        @Override
        public void visitIincInsn(int var, int increment) {
            probe(Opcodes.IINC);
            super.visitIincInsn(var, increment);
        }

        @Override
        public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
            probe(Opcodes.TABLESWITCH);
            super.visitTableSwitchInsn(min, max, dflt, labels);
        }

        @Override
        public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
            probe(Opcodes.LOOKUPSWITCH);
            super.visitLookupSwitchInsn(dflt, keys, labels);
        }

        @Override
        public void visitMultiANewArrayInsn(String desc, int dims) {
            probe(Opcodes.MULTIANEWARRAY);
            super.visitMultiANewArrayInsn(desc, dims);
        }

        @Override
        public void visitEnd() {
            if (idx != pcs.length) {
                throw new IllegalStateException("instruction count mismatch in " + owner + "." + name + desc
                        + ": " + (idx - 1) + " visited, " + (pcs.length - 1) + " in Code");
            }
            int len = 2 + 3 * info.size();
            for (int[] l : layouts) {
                len += l.length;
            }
            int[] out = new int[len];
            out[0] = maxLocals;
            out[1] = info.size();
            for (int i = 0; i < info.size(); i++) {
                System.arraycopy(info.get(i), 0, out, 2 + 3 * i, 3);
            }
            int o = 2 + 3 * info.size();
            for (int[] l : layouts) {
                System.arraycopy(l, 0, out, o, l.length);
                o += l.length;
            }
            setInfo(mid, out);
            super.visitEnd();
        }
    }
}
