/**
 * One static field named through two classes: `Sub.count` is `StaticAlias.count` (javac keeps
 * the qualifying class in the instruction, field resolution finds the declaring one).
 */
public class StaticAlias {
    static int count;

    static class Sub extends StaticAlias {}

    /** Always 1. */
    static int bump() {
        count = 0;
        Sub.count = Sub.count + 1;
        return count;
    }
}
