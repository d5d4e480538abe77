package everyday;

/** An enum whose constants have class bodies: each constant is the one object of its own class. */
enum Op {
    ADD {
        @Override
        int apply(int a, int b) {
            return a + b;
        }
    },
    MAX {
        @Override
        int apply(int a, int b) {
            return Math.max(a, b);
        }
    };

    abstract int apply(int a, int b);
}

/** Methods a subclass overrides: their own code runs for a `Bird` only through `super`. */
class Animal {
    int legs() {
        return 4;
    }

    int wings() {
        return 0;
    }
}

class Bird extends Animal {
    @Override
    int legs() {
        return 2;
    }

    @Override
    int wings() {
        return super.wings() + 2;
    }
}

/** Virtual calls on enum constants with bodies and on overridden methods. */
public class Dispatch {
    static int fold(Op op, int[] xs) {
        int acc = 0;
        for (int x : xs) {
            acc = op.apply(acc, x);
        }
        return acc;
    }

    static int limbs(Animal[] as) {
        int s = 0;
        for (Animal a : as) {
            s += a.legs() + a.wings();
        }
        return s;
    }
}
