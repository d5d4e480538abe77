/*
 * Instructions the instrumenter adds at call sites, behind the probes and the AnalyzerAdapter:
 * they are no steps of the run and leave the stack as they find it. LambdaNames tells the
 * recorder which class the engine gives each lambda object; EnumLookups readies an enum's
 * constants before Enum.valueOf (see Inits.enumReady).
 */
package tracer;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

final class SiteHooks {
    private SiteHooks() {}

    /**
     * Names the objects of lambda call sites ({@code LambdaMetafactory}) as the engine names
     * their classes: {@code Host$$Lambda$N} for the N-th lambda site of the class, methods in
     * class-file order, instructions in code order (the engine's {@code class/lambda.rs}).
     * After each such {@code invokedynamic} it tells the recorder the class of the object it
     * made ({@link Recorder#lambdaSite}); the JVM's own name of the hidden class says nothing
     * of the site. Sits behind the probes and the AnalyzerAdapter: its instructions are no
     * steps, and leave the stack as they find it.
     */
    static final class LambdaNames extends MethodVisitor {
        final String owner;
        final int[] sites;

        LambdaNames(MethodVisitor mv, String owner, int[] sites) {
            super(Opcodes.ASM9, mv);
            this.owner = owner;
            this.sites = sites;
        }

        @Override
        public void visitInvokeDynamicInsn(String name, String desc, org.objectweb.asm.Handle bsm, Object... args) {
            super.visitInvokeDynamicInsn(name, desc, bsm, args);
            if (bsm.getOwner().equals("java/lang/invoke/LambdaMetafactory")
                    && (bsm.getName().equals("metafactory") || bsm.getName().equals("altMetafactory"))) {
                mv.visitInsn(Opcodes.DUP);
                mv.visitLdcInsn(owner + "$$Lambda$" + sites[0]++);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, "tracer/Recorder", "lambdaSite", "(Ljava/lang/Object;Ljava/lang/String;)V", false);
            }
        }
    }

    /**
     * Before each {@code Enum.valueOf(Class, String)}: {@link Inits#enumReady} with the class
     * argument, so that the JDK finds the enum's constants cached and calls no program code
     * during the call (the first lookup calls the enum's {@code values()} through reflection,
     * whose steps the engine's model of valueOf does not have). Sits behind the probes like
     * {@link LambdaNames}: its instructions are no steps, and leave the stack as they find it.
     */
    static final class EnumLookups extends MethodVisitor {
        EnumLookups(MethodVisitor mv) {
            super(Opcodes.ASM9, mv);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String desc, boolean itf) {
            if (opcode == Opcodes.INVOKESTATIC && owner.equals("java/lang/Enum") && name.equals("valueOf")
                    && desc.equals("(Ljava/lang/Class;Ljava/lang/String;)Ljava/lang/Enum;")) {
                // class, name -> name, class -> class, name, class -> class, name
                mv.visitInsn(Opcodes.SWAP);
                mv.visitInsn(Opcodes.DUP_X1);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, "tracer/Inits", "enumReady", "(Ljava/lang/Class;)V", false);
            }
            super.visitMethodInsn(opcode, owner, name, desc, itf);
        }
    }
}
