package everyday;

import java.util.AbstractList;

/*
 * Classes that no everyday method can reach, each of which the engine cannot model: compiled
 * beside everyday fixtures by engine/tests/closed_world.rs, they must change none of their
 * graphs (a class the entry cannot reach never makes it unsupported).
 */

/** An enum with a switch over itself, values() and a field. */
enum Suit {
    CLUBS(1), HEARTS(2);

    final int rank;

    Suit(int rank) {
        this.rank = rank;
    }

    static int total() {
        int s = 0;
        for (Suit x : values()) {
            switch (x) {
                case CLUBS:
                    s += 1;
                    break;
                default:
                    s += x.rank;
            }
        }
        return s;
    }
}

/** A program class below an unmodelled JDK class. */
class PoisonList extends AbstractList<Integer> {
    static PoisonList shared = new PoisonList();

    @Override
    public Integer get(int i) {
        return i;
    }

    @Override
    public int size() {
        return shared.hashCode();
    }
}

/** A thread, and a class that holds the other poison in fields and statics. */
class PoisonThread extends Thread implements Comparable<PoisonThread> {
    static Suit favourite = Suit.HEARTS;
    PoisonList list;

    @Override
    public void run() {
        list = PoisonList.shared;
    }

    @Override
    public int compareTo(PoisonThread o) {
        return favourite.ordinal() - o.list.size();
    }
}
