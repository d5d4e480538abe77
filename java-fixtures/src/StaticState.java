/** Static state that must not leak from one traced run into the next (jvm/tests/loaders.rs). */
public class StaticState {
    static int counter = 41; // set by the static initializer
    static int next() { return ++counter; }
    static final int LIMIT = 3; // a compile-time constant: no static state
}

/** A static field no code of its own writes. */
class Counter { static int value; }

/** Writes another class's static field (no static initializer of its own). */
class Poke { static int poke() { Counter.value++; return Counter.value; } }

/** A static initializer that throws: the class is erroneous in the loader that ran it. */
class BadInit {
    static int x = 1 / Integer.parseInt("0");
    static int get() { return x; }
}
