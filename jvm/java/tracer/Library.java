/*
 * The state of JDK collections that the engine models (engine/src/models/collections.rs),
 * recorded as fields of their objects: a collection (ArrayList, LinkedList, ArrayDeque,
 * HashSet, HashMap, LinkedHashSet, LinkedHashMap, TreeMap, TreeSet, Stack, PriorityQueue, List.of's
 * lists, Arrays.asList's list) as one field "size" (its size()), a map's keySet()/values()/
 * entrySet() view as "of" (its map), an iterator of a list, a (Linked)HashSet, a TreeSet, a Stack, a PriorityQueue or a map's view as
 * "of" (the collection or view it iterates; an ArrayDeque's iterator too) and
 * "remaining" (how many elements next() still returns; -1 once its collection was structurally
 * modified other than through it: its expectedModCount differs from the modCount), a
 * StringBuilder as one field "count" (its length()), and a java.util.Optional as its one field
 * "value" (immutable: never logged as changed).
 *
 * These values change inside JDK code, which is not instrumented: the recorder calls sync()
 * before every step once such an object is known, and logs a change as an update record in
 * the heap log (step, id, classStr, K_UPDATE, slot, value): the value holds from the step
 * after `step` on. The fields are read through Unsafe (java.base is not opened to us).
 * Single-threaded, like the recorder.
 */
package tracer;

import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;

final class Library {
    private Library() {}

    static final int K_UPDATE = 3;

    /** Tracked objects of this run: object, id, slot of the changing field, its last value. */
    static Object[] objs = new Object[16];
    static int[] tids = new int[16];
    static int[] slots = new int[16];
    static int[] last = new int[16];
    static int count;

    static final sun.misc.Unsafe U = Recorder.ClassInfo.U;

    /** java.lang.Enum's fields (engine/src/models/enums.rs): final, set by its constructor. */
    private static final Field ENUM_NAME = enumField("name"), ENUM_ORDINAL = enumField("ordinal");

    private static Field enumField(String name) {
        try {
            return Enum.class.getDeclaredField(name);
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException("java.lang.Enum." + name, e);
        }
    }

    /**
     * Adds java.lang.Enum's fields "name" and "ordinal" to the fields {@code out} of an object of
     * the program class {@code c} below Enum (an enum constant), after the program's own:
     * Fields.fieldKeys keys one as "java/lang/Enum.name" where the class declares a field of
     * the same name, as the engine does. They never change, so no update is logged.
     */
    static void enumFields(Class<?> c, java.util.ArrayList<Field> out) {
        if (Enum.class.isAssignableFrom(c) && c.getClassLoader() instanceof InstrumentingLoader) {
            out.add(ENUM_NAME);
            out.add(ENUM_ORDINAL);
        }
    }

    private static final int COLLECTION = 1, ARRAY_ITR = 2, LINKED_ITR = 3, KEY_ITR = 4,
            IMMUTABLE_ITR = 5, ARRAYS_ITR = 6, MAP_VIEW = 7, VALUE_ITR = 8, ENTRY_ITR = 9,
            TREE_KEY_ITR = 10, TREE_VALUE_ITR = 11, TREE_ENTRY_ITR = 12, BUILDER = 13,
            LINKED_KEY_ITR = 14, LINKED_VALUE_ITR = 15, LINKED_ENTRY_ITR = 16, OPTIONAL = 17,
            DEQUE_ITR = 18, ABSTRACT_LIST_ITR = 19, VECTOR_ITR = 20, QUEUE_ITR = 21;

    private static final String[] COLLECTIONS = {
        "java.util.ArrayList", "java.util.LinkedList", "java.util.ArrayDeque",
        "java.util.HashSet", "java.util.HashMap", "java.util.TreeMap", "java.util.Stack",
        "java.util.LinkedHashSet", "java.util.LinkedHashMap",
        "java.util.PriorityQueue", "java.util.TreeSet",
        "java.util.ImmutableCollections$ListN", "java.util.ImmutableCollections$List12",
        "java.util.Arrays$ArrayList",
    };

    private static final ClassValue<Integer> KIND = new ClassValue<Integer>() {
        @Override
        protected Integer computeValue(Class<?> c) {
            if (c.getClassLoader() != null) {
                return 0; // a program class, even one extending a collection
            }
            String n = c.getName();
            if (Arrays.asList(COLLECTIONS).contains(n)) {
                return COLLECTION;
            }
            switch (n) {
                case "java.util.ArrayList$Itr":
                case "java.util.ArrayList$ListItr": return ARRAY_ITR;
                case "java.util.ArrayDeque$DeqIterator": return DEQUE_ITR;
                case "java.util.AbstractList$ListItr": return ABSTRACT_LIST_ITR;
                case "java.util.Vector$Itr": return VECTOR_ITR;
                case "java.util.PriorityQueue$Itr": return QUEUE_ITR;
                case "java.util.LinkedList$ListItr": return LINKED_ITR;
                case "java.util.HashMap$KeyIterator": return KEY_ITR;
                case "java.util.HashMap$ValueIterator": return VALUE_ITR;
                case "java.util.HashMap$EntryIterator": return ENTRY_ITR;
                case "java.util.TreeMap$KeyIterator": return TREE_KEY_ITR;
                case "java.util.TreeMap$ValueIterator": return TREE_VALUE_ITR;
                case "java.util.TreeMap$EntryIterator": return TREE_ENTRY_ITR;
                case "java.util.LinkedHashMap$LinkedKeyIterator": return LINKED_KEY_ITR;
                case "java.util.LinkedHashMap$LinkedValueIterator": return LINKED_VALUE_ITR;
                case "java.util.LinkedHashMap$LinkedEntryIterator": return LINKED_ENTRY_ITR;
                case "java.util.HashMap$KeySet":
                case "java.util.HashMap$Values":
                case "java.util.HashMap$EntrySet":
                case "java.util.LinkedHashMap$LinkedKeySet":
                case "java.util.LinkedHashMap$LinkedValues":
                case "java.util.LinkedHashMap$LinkedEntrySet":
                case "java.util.TreeMap$KeySet":
                case "java.util.TreeMap$Values":
                case "java.util.TreeMap$EntrySet": return MAP_VIEW;
                case "java.util.ImmutableCollections$ListItr": return IMMUTABLE_ITR;
                case "java.util.Arrays$ArrayItr": return ARRAYS_ITR;
                case "java.lang.StringBuilder": return BUILDER;
                case "java.util.Optional": return OPTIONAL;
                default: return 0;
            }
        }
    };

    static void reset() {
        if (objs == null || objs.length > 1 << 10) {
            objs = new Object[16];
            tids = new int[16];
            slots = new int[16];
            last = new int[16];
        }
        Arrays.fill(objs, 0, count, null);
        count = 0;
    }

    /** Drops the recorded objects without allocating ({@link Recorder#release}). */
    static void release() {
        objs = null;
        count = 0;
    }

    /** Whether objects of {@code c} are recorded by this class. */
    static boolean modelled(Class<?> c) {
        return KIND.get(c) != 0;
    }

    /** The number of fields a record of {@code c} has. */
    static int fieldCount(Class<?> c) {
        int kind = KIND.get(c);
        return kind == COLLECTION || kind == MAP_VIEW || kind == BUILDER || kind == OPTIONAL ? 1 : 2;
    }

    /** Writes the fields of {@code x} (after its kind K_INSTANCE); tracks it in the heap log. */
    static void dump(Object x, int id, int[][] box, int[] at, boolean assign) {
        int kind = KIND.get(x.getClass());
        if (kind == MAP_VIEW) {
            // a HashMap's keySet(), values() or entrySet(): its map, which never changes
            Recorder.put(box, at, 1);
            Recorder.put(box, at, Recorder.intern("of"));
            Recorder.putTagged(box, at, Recorder.T_REF,
                    Recorder.refValue(U.getObject(x, F.VIEW_OUTER.get(x.getClass())), assign));
            return;
        }
        if (kind == OPTIONAL) {
            // its value, which never changes: not tracked
            Recorder.put(box, at, 1);
            Recorder.put(box, at, Recorder.intern("value"));
            Recorder.putTagged(box, at, Recorder.T_REF,
                    Recorder.refValue(U.getObject(x, F.OPTIONAL_VALUE), assign));
            return;
        }
        int v = value(x, kind);
        if (kind == COLLECTION || kind == BUILDER) {
            Recorder.put(box, at, 1);
            Recorder.put(box, at, Recorder.intern(kind == BUILDER ? "count" : "size"));
            Recorder.putTagged(box, at, Recorder.T_INT, v);
        } else {
            Recorder.put(box, at, 2);
            Recorder.put(box, at, Recorder.intern("of"));
            Recorder.putTagged(box, at, Recorder.T_REF, Recorder.refValue(of(x, kind), assign));
            Recorder.put(box, at, Recorder.intern("remaining"));
            Recorder.putTagged(box, at, Recorder.T_INT, v);
        }
        if (assign) {
            track(x, id, kind == COLLECTION || kind == BUILDER ? 0 : 1, v);
        }
    }

    private static void track(Object x, int id, int slot, int v) {
        if (count == objs.length) {
            objs = Arrays.copyOf(objs, count * 2);
            tids = Arrays.copyOf(tids, count * 2);
            slots = Arrays.copyOf(slots, count * 2);
            last = Arrays.copyOf(last, count * 2);
        }
        objs[count] = x;
        tids[count] = id;
        slots[count] = slot;
        last[count] = v;
        count++;
    }

    /**
     * Logs every tracked value that changed since it was last logged, as changed by step
     * {@code step} (the last completed one).
     */
    static void sync(long step) {
        for (int k = 0; k < count; k++) {
            Object x = objs[k];
            int v = value(x, KIND.get(x.getClass()));
            if (v != last[k]) {
                last[k] = v;
                Recorder.logUpdate(step, tids[k], x, slots[k], v);
            }
        }
    }

    private static int value(Object x, int kind) {
        switch (kind) {
            case COLLECTION:
                return x instanceof Map ? ((Map<?, ?>) x).size() : ((Collection<?>) x).size();
            case BUILDER:
                return ((StringBuilder) x).length();
            case ARRAY_ITR:
                return listRemaining(x, F.ITR_OUTER, F.ITR_EXPECTED, F.ITR_CURSOR);
            case LINKED_ITR:
                return listRemaining(x, F.LITR_OUTER, F.LITR_EXPECTED, F.LITR_NEXT_INDEX);
            case KEY_ITR:
            case VALUE_ITR:
            case ENTRY_ITR: {
                Object map = U.getObject(x, F.HITR_OUTER);
                if (U.getInt(map, F.HMAP_MOD_COUNT) != U.getInt(x, F.HITR_EXPECTED)) {
                    return -1;
                }
                // the node to return next, the rest of its bin, then the bins from `index` on
                int n = 0;
                for (Object e = U.getObject(x, F.HITR_NEXT); e != null; e = U.getObject(e, F.NODE_NEXT)) {
                    n++;
                }
                Object[] table = (Object[]) U.getObject(map, F.HMAP_TABLE);
                if (table != null) {
                    for (int i = U.getInt(x, F.HITR_INDEX); i < table.length; i++) {
                        for (Object e = table[i]; e != null; e = U.getObject(e, F.NODE_NEXT)) {
                            n++;
                        }
                    }
                }
                return n;
            }
            case LINKED_KEY_ITR:
            case LINKED_VALUE_ITR:
            case LINKED_ENTRY_ITR: {
                Object map = U.getObject(x, F.LITR_MAP);
                if (U.getInt(map, F.HMAP_MOD_COUNT) != U.getInt(x, F.LITR_MAP_EXPECTED)) {
                    return -1;
                }
                // the entry to return next and those after it in insertion order
                int n = 0;
                for (Object e = U.getObject(x, F.LITR_MAP_NEXT); e != null; e = U.getObject(e, F.LENTRY_AFTER)) {
                    n++;
                }
                return n;
            }
            case TREE_KEY_ITR:
            case TREE_VALUE_ITR:
            case TREE_ENTRY_ITR: {
                Object map = U.getObject(x, F.TITR_OUTER);
                if (U.getInt(map, F.TMAP_MOD_COUNT) != U.getInt(x, F.TITR_EXPECTED)) {
                    return -1;
                }
                // the entry to return next and its successors in key order
                int n = 0;
                for (Object e = U.getObject(x, F.TITR_NEXT); e != null; e = successor(e)) {
                    n++;
                }
                return n;
            }
            case IMMUTABLE_ITR:
                return U.getInt(x, F.IMM_SIZE) - U.getInt(x, F.IMM_CURSOR);
            case DEQUE_ITR:
                // its own count, which only its next() lowers (not fail-fast)
                return U.getInt(x, F.DEQ_REMAINING);
            case VECTOR_ITR:
                // a Stack's
                return listRemaining(x, F.VITR_OUTER, F.VITR_EXPECTED, F.VITR_CURSOR);
            case QUEUE_ITR: {
                // the heap's slots from the cursor on, then the elements a remove() moved
                // behind it (forgetMeNot)
                Object q = U.getObject(x, F.QITR_OUTER);
                if (U.getInt(q, F.QUEUE_MOD_COUNT) != U.getInt(x, F.QITR_EXPECTED)) {
                    return -1;
                }
                int n = ((Collection<?>) q).size() - U.getInt(x, F.QITR_CURSOR);
                Object moved = U.getObject(x, F.QITR_FORGET_ME_NOT);
                return moved == null ? n : n + ((Collection<?>) moved).size();
            }
            case ABSTRACT_LIST_ITR:
                // an Arrays.asList list's listIterator(), AbstractList's
                return listRemaining(x, F.AITR_OUTER, F.AITR_EXPECTED, F.AITR_CURSOR_LIST);
            case ARRAYS_ITR:
                return ((Object[]) U.getObject(x, F.AITR_A)).length - U.getInt(x, F.AITR_CURSOR);
            default:
                throw new IllegalStateException("not a modelled collection: " + x.getClass());
        }
    }

    /**
     * A list iterator's remaining count: -1 once its list's modCount differs from the
     * iterator's expectedModCount (the field at {@code expected}), else the list's size less
     * the cursor (at {@code cursor}); the list is the iterator's field at {@code outer}.
     */
    private static int listRemaining(Object x, long outer, long expected, long cursor) {
        Object list = U.getObject(x, outer);
        if (U.getInt(list, F.MOD_COUNT) != U.getInt(x, expected)) {
            return -1;
        }
        return ((Collection<?>) list).size() - U.getInt(x, cursor);
    }

    /** The tracked set of class {@code c} whose backing map (field {@code mapField}) is {@code map}, or null. */
    private static Object trackedSet(Class<?> c, long mapField, Object map) {
        for (int k = 0; k < count; k++) {
            Object o = objs[k];
            if (o.getClass() == c && U.getObject(o, mapField) == map) {
                return o;
            }
        }
        return null;
    }

    /** The collection iterator {@code x} iterates (a tracked one for the wrapped kinds). */
    private static Object of(Object x, int kind) {
        switch (kind) {
            case ARRAY_ITR: return U.getObject(x, F.ITR_OUTER);
            case LINKED_ITR: return U.getObject(x, F.LITR_OUTER);
            case IMMUTABLE_ITR: return U.getObject(x, F.IMM_LIST);
            case DEQUE_ITR: return U.getObject(x, F.DEQ_OUTER);
            case VECTOR_ITR: return U.getObject(x, F.VITR_OUTER);
            case QUEUE_ITR: return U.getObject(x, F.QITR_OUTER);
            case ABSTRACT_LIST_ITR: return U.getObject(x, F.AITR_OUTER);
            case KEY_ITR: {
                // the HashSet whose map this is, else the map's key set (its iterator() made x)
                Object map = U.getObject(x, F.HITR_OUTER);
                Object set = trackedSet(java.util.HashSet.class, F.HSET_MAP, map);
                return set != null ? set : U.getObject(map, F.AMAP_KEY_SET);
            }
            case LINKED_KEY_ITR: {
                // the LinkedHashSet whose map this is, else the map's key set
                Object map = U.getObject(x, F.LITR_MAP);
                Object set = trackedSet(java.util.LinkedHashSet.class, F.HSET_MAP, map);
                return set != null ? set : U.getObject(map, F.AMAP_KEY_SET);
            }
            case LINKED_VALUE_ITR: return U.getObject(U.getObject(x, F.LITR_MAP), F.AMAP_VALUES);
            case LINKED_ENTRY_ITR: return U.getObject(U.getObject(x, F.LITR_MAP), F.HMAP_ENTRY_SET);
            // the map's cached view whose iterator() made x
            case VALUE_ITR: return U.getObject(U.getObject(x, F.HITR_OUTER), F.AMAP_VALUES);
            case ENTRY_ITR: return U.getObject(U.getObject(x, F.HITR_OUTER), F.HMAP_ENTRY_SET);
            case TREE_KEY_ITR: {
                // the TreeSet whose map this is, else the map's key set
                Object map = U.getObject(x, F.TITR_OUTER);
                Object set = trackedSet(java.util.TreeSet.class, F.TSET_MAP, map);
                return set != null ? set : U.getObject(map, F.TMAP_KEY_SET);
            }
            case TREE_VALUE_ITR: return U.getObject(U.getObject(x, F.TITR_OUTER), F.AMAP_VALUES);
            case TREE_ENTRY_ITR: return U.getObject(U.getObject(x, F.TITR_OUTER), F.TMAP_ENTRY_SET);
            case ARRAYS_ITR: {
                Object a = U.getObject(x, F.AITR_A);
                for (int k = 0; k < count; k++) {
                    Object o = objs[k];
                    if (o.getClass().getName().equals("java.util.Arrays$ArrayList")
                            && U.getObject(o, F.ALIST_A) == a) {
                        return o;
                    }
                }
                return null;
            }
            default:
                return null;
        }
    }

    /** TreeMap.successor: the entry after {@code t} in key order, or null. */
    private static Object successor(Object t) {
        Object r = U.getObject(t, F.TENTRY_RIGHT);
        if (r != null) {
            for (Object l = U.getObject(r, F.TENTRY_LEFT); l != null; l = U.getObject(r, F.TENTRY_LEFT)) {
                r = l;
            }
            return r;
        }
        Object ch = t;
        Object p = U.getObject(t, F.TENTRY_PARENT);
        while (p != null && ch == U.getObject(p, F.TENTRY_RIGHT)) {
            ch = p;
            p = U.getObject(p, F.TENTRY_PARENT);
        }
        return p;
    }

    /** Field offsets, looked up on first use. */
    private static final class F {
        static final long MOD_COUNT = off("java.util.AbstractList", "modCount");
        static final long ITR_OUTER = off("java.util.ArrayList$Itr", "this$0");
        static final long ITR_CURSOR = off("java.util.ArrayList$Itr", "cursor");
        static final long ITR_EXPECTED = off("java.util.ArrayList$Itr", "expectedModCount");
        static final long LITR_OUTER = off("java.util.LinkedList$ListItr", "this$0");
        static final long LITR_NEXT_INDEX = off("java.util.LinkedList$ListItr", "nextIndex");
        static final long LITR_EXPECTED = off("java.util.LinkedList$ListItr", "expectedModCount");
        static final long HITR_OUTER = off("java.util.HashMap$HashIterator", "this$0");
        static final long HITR_NEXT = off("java.util.HashMap$HashIterator", "next");
        static final long HITR_INDEX = off("java.util.HashMap$HashIterator", "index");
        static final long HITR_EXPECTED = off("java.util.HashMap$HashIterator", "expectedModCount");
        static final long HMAP_MOD_COUNT = off("java.util.HashMap", "modCount");
        static final long HMAP_TABLE = off("java.util.HashMap", "table");
        static final long NODE_NEXT = off("java.util.HashMap$Node", "next");
        static final long HSET_MAP = off("java.util.HashSet", "map");
        static final long TSET_MAP = off("java.util.TreeSet", "m");
        static final long AMAP_KEY_SET = off("java.util.AbstractMap", "keySet");
        static final long AMAP_VALUES = off("java.util.AbstractMap", "values");
        static final long HMAP_ENTRY_SET = off("java.util.HashMap", "entrySet");
        static final long LITR_MAP = off("java.util.LinkedHashMap$LinkedHashIterator", "this$0");
        static final long LITR_MAP_NEXT = off("java.util.LinkedHashMap$LinkedHashIterator", "next");
        static final long LITR_MAP_EXPECTED = off("java.util.LinkedHashMap$LinkedHashIterator", "expectedModCount");
        static final long LENTRY_AFTER = off("java.util.LinkedHashMap$Entry", "after");
        static final long TITR_OUTER = off("java.util.TreeMap$PrivateEntryIterator", "this$0");
        static final long TITR_NEXT = off("java.util.TreeMap$PrivateEntryIterator", "next");
        static final long TITR_EXPECTED = off("java.util.TreeMap$PrivateEntryIterator", "expectedModCount");
        static final long TMAP_MOD_COUNT = off("java.util.TreeMap", "modCount");
        static final long TMAP_KEY_SET = off("java.util.TreeMap", "navigableKeySet");
        static final long TMAP_ENTRY_SET = off("java.util.TreeMap", "entrySet");
        static final long TENTRY_LEFT = off("java.util.TreeMap$Entry", "left");
        static final long TENTRY_RIGHT = off("java.util.TreeMap$Entry", "right");
        static final long TENTRY_PARENT = off("java.util.TreeMap$Entry", "parent");
        /** The map of a view class: this$0 of an inner class, TreeMap$KeySet's m. */
        static final ClassValue<Long> VIEW_OUTER = new ClassValue<Long>() {
            @Override
            protected Long computeValue(Class<?> c) {
                return off(c.getName(), c.getName().equals("java.util.TreeMap$KeySet") ? "m" : "this$0");
            }
        };
        static final long IMM_LIST = off("java.util.ImmutableCollections$ListItr", "list");
        static final long IMM_SIZE = off("java.util.ImmutableCollections$ListItr", "size");
        static final long IMM_CURSOR = off("java.util.ImmutableCollections$ListItr", "cursor");
        static final long AITR_OUTER = off("java.util.AbstractList$Itr", "this$0");
        static final long AITR_CURSOR_LIST = off("java.util.AbstractList$Itr", "cursor");
        static final long AITR_EXPECTED = off("java.util.AbstractList$Itr", "expectedModCount");
        static final long DEQ_OUTER = off("java.util.ArrayDeque$DeqIterator", "this$0");
        static final long DEQ_REMAINING = off("java.util.ArrayDeque$DeqIterator", "remaining");
        static final long VITR_OUTER = off("java.util.Vector$Itr", "this$0");
        static final long VITR_CURSOR = off("java.util.Vector$Itr", "cursor");
        static final long VITR_EXPECTED = off("java.util.Vector$Itr", "expectedModCount");
        static final long QITR_OUTER = off("java.util.PriorityQueue$Itr", "this$0");
        static final long QITR_CURSOR = off("java.util.PriorityQueue$Itr", "cursor");
        static final long QITR_EXPECTED = off("java.util.PriorityQueue$Itr", "expectedModCount");
        static final long QITR_FORGET_ME_NOT = off("java.util.PriorityQueue$Itr", "forgetMeNot");
        static final long QUEUE_MOD_COUNT = off("java.util.PriorityQueue", "modCount");
        static final long OPTIONAL_VALUE = off("java.util.Optional", "value");
        static final long AITR_A = off("java.util.Arrays$ArrayItr", "a");
        static final long AITR_CURSOR = off("java.util.Arrays$ArrayItr", "cursor");
        static final long ALIST_A = off("java.util.Arrays$ArrayList", "a");

        private static long off(String c, String f) {
            try {
                Field fd = Class.forName(c).getDeclaredField(f);
                return U.objectFieldOffset(fd);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }
}
