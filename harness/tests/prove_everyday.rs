//! Issue #38 on the everyday fixtures (`java-fixtures/everyday`): loops any Java developer
//! writes get YES — an array's and a string's length read in the loop, a two-phase loop
//! (nested ranking function), the same loops under `--ints java` where the guard rules out
//! overflow, gcd by a split of its loop head — each cross-checked on 20 JVM runs; and a
//! MAYBE says why.

mod common;

use common::jtg;

fn fixtures() -> String {
    common::fixtures().display().to_string()
}

/// `jtg prove <method> --check 20 [extra]`: YES with 0 violations; returns the output.
fn proved(method: &str, extra: &[&str]) -> String {
    let f = fixtures();
    let mut args = vec!["prove", &f, method, "--check", "20"];
    args.extend(extra);
    let (code, out, err) = jtg(&args);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(": YES"), "{method} {extra:?}: {out}");
    assert!(out.contains(", 0 violations"), "{method} {extra:?}: {out}");
    out
}

#[test]
fn an_array_loop_reading_a_length_terminates() {
    // for (int i = 0; i < a.length; i++) s += a[i];  (the length is read every lap)
    let out = proved("everyday.ArrayLoops.sum", &[]);
    assert!(out.contains("len("), "ranked by the array's length: {out}");
}

#[test]
fn a_grid_loop_reading_its_rows_length_terminates() {
    // for (i < m.length) for (j < m[i].length): `m[i]` is read afresh every lap, but no row is
    // longer than the longest, which stays while no row is replaced
    for m in [
        "everyday.ArrayLoops.matrixSum",
        "everyday.ArrayLoops.rowsWithZero",
        "everyday.ArrayLoops.lettersA",
    ] {
        let out = proved(m, &[]);
        assert!(out.contains("maxlen("), "ranked by the longest row: {out}");
    }
    // (rowsWithZero's Java-int proof takes ~26 s, near the 30 s safety net: not a test)
    proved("everyday.ArrayLoops.matrixSum", &["--ints", "java"]);
    // a row replaced by a longer one inside the loop: no such bound
    let f = fixtures();
    let (code, out, err) = jtg(&["prove", &f, "everyday.ArrayLoops.growRow"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains(": YES"), "{out}");
    // the variable exists only where an element is read on a cycle: `main`'s `args[0]` read
    // once gives none
    let koat = |m: &str| {
        let (code, out, err) = jtg(&["graph", &f, m, "--format", "koat"]);
        assert_eq!(code, 0, "{out}{err}");
        out
    };
    assert!(koat("everyday.ArrayLoops.matrixSum").contains("elen_"));
    assert!(!koat("Corpus.main").contains("elen_"));
}

#[test]
fn a_string_loop_reading_its_length_terminates() {
    // for (int i = 0; i < s.length(); i++) if (s.charAt(i) == c) n++;
    proved("everyday.Strings.count", &[]);
}

#[test]
fn a_two_phase_loop_has_a_nested_ranking_function() {
    // while (x > 0) { x = x + y; y = y - 1; }
    let out = proved("everyday.Numbers.multiphase", &[]);
    assert!(out.contains('⟨'), "phases shown as ⟨f1, f2⟩: {out}");
}

#[test]
fn a_binary_search_halving_by_a_shift_terminates() {
    // while (lo <= hi) { int mid = (lo + hi) >>> 1; … lo = mid + 1 / hi = mid - 1 … }:
    // `>>> 1` of a non-negative sum is ⌊(lo + hi) / 2⌋, so lo ≤ mid ≤ hi and hi − lo falls
    proved("everyday.ArrayLoops.binarySearch", &[]);
    // `x >>>= 1` of a negative x is (x + 2³²) >> 1, non-negative: the loop still ends
    proved("everyday.Numbers.bitCount", &[]);
    proved("everyday.Numbers.bitCount", &["--ints", "java"]);
}

#[test]
fn a_callee_result_before_a_loop_makes_its_cycle_unreachable() {
    // int y = succ(x); while (x != y) x++;  — y = x + 1 on entry: the loop head the graph keeps
    // is reached by no run (its invariant is `false`), whatever the int model
    let out = proved("everyday.Numbers.upToSucc", &[]);
    assert!(out.contains("false (no run reaches it)"), "{out}");
    proved("everyday.Numbers.upToSucc", &["--ints", "java"]);
}

#[test]
fn a_difference_set_before_a_loop_bounds_it() {
    // y = x + gap (gap ≥ 0); while (x != y) x++;  — the invariant x − y ≤ 0 at the loop head
    // (no interval shows it) makes y − x a ranking function
    let out = proved("everyday.Numbers.upToGap", &[]);
    assert!(
        out.contains("y (") && out.contains("- x ("),
        "ranked by y − x: {out}"
    );
}

#[test]
fn java_ints_keep_yes_where_the_guard_rules_out_overflow() {
    // `i + 1` after `i < a.length`, and `i + 1` before the test `i < n` (its wrap runs once)
    proved("everyday.ArrayLoops.sum", &["--ints", "java"]);
    proved("everyday.Numbers.fib", &["--ints", "java"]);
}

#[test]
fn gcd_of_any_signs_terminates_by_a_split_of_its_loop_head() {
    // while (b != 0) { int t = a % b; a = b; b = t; }  — |b| falls, which is `b` where b ≥ 0
    // and `−b` where b ≤ −1: the loop head split by b's sign, a function per part
    let out = proved("everyday.Numbers.gcd", &[]);
    assert!(out.contains(" where "), "a function per part: {out}");
    proved("everyday.Numbers.gcd", &["--ints", "java"]);
    // the recursive version: the call's argument split the same way
    proved("everyday.Numbers.gcdRec", &[]);
}

#[test]
fn counting_digits_of_any_sign_terminates() {
    // do { n /= 10; c++; } while (n != 0);  — the quotient's sign is tested only after the
    // division: once chained, the test gives the dividend's sign and the division its bounds;
    // |n| falls, `n` and `−n` on the two parts of the loop head and of its test node
    let out = proved("everyday.Numbers.digits", &[]);
    assert!(out.contains(" where "), "a function per part: {out}");
    // while (n != 0) n >>= 1;  — from n = −1 it never ends: never YES
    let f = fixtures();
    let m = "everyday.Numbers.shiftHalvings";
    let (code, out, err) = jtg(&["prove", &f, m, "--check", "20"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains(": YES"), "{m} does not end from -1: {out}");
    assert!(out.contains(", 0 violations"), "{out}");
}

#[test]
fn char_and_byte_counters_terminate_where_the_guard_keeps_them_in_range() {
    // for (char d = 'a'; d < c; d++)  — `d++` is `(char) (d + 1)`: the narrowing is exact
    // where the loop's test `d < c ≤ 65535` keeps `d + 1` in the char range
    for ints in ["unbounded", "java"] {
        proved("everyday.Numbers.lettersBefore", &["--ints", ints]);
        proved("everyday.Numbers.byteSteps", &["--ints", ints]);
    }
    // for (long i = 0; (int) i < n; i++)  — `(int) i` is `i` while `i ≤ n ≤ MAX` (Java ints)
    proved("everyday.Numbers.narrowedCounter", &["--ints", "java"]);
    // for (byte b = 0; b <= limit; b++)  — from limit = 127 `b++` wraps to −128: never YES
    let f = fixtures();
    let m = "everyday.Numbers.byteWraps";
    for ints in ["unbounded", "java"] {
        let (code, out, err) = jtg(&["prove", &f, m, "--ints", ints, "--check", "20"]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(!out.contains(": YES"), "{m} does not end from 127: {out}");
        assert!(out.contains(", 0 violations"), "{out}");
    }
}

#[test]
fn a_tree_recursion_through_a_library_call_terminates() {
    // 1 + Math.max(height(t.left), height(t.right)): `Math.max` writes nothing, so the first
    // call keeps the tree's size for the second one's argument
    let out = proved("everyday.Trees.height", &[]);
    assert!(out.contains("|t|"), "ranked by the tree's size: {out}");
    proved("everyday.Trees.height", &["--ints", "java"]);
    // leaves(t.left) + leaves(t.right): the second call's argument reaches its invocation
    // through an instance edge; the node it leaves executes nothing, so the first call (which
    // writes nothing) keeps the right subtree's size
    proved("everyday.Trees.leaves", &[]);
}

#[test]
fn a_recursion_whose_first_call_writes_elsewhere_keeps_the_second_arguments_size() {
    // the frame rule: a callee writes only what its arguments and the statics reach, so a
    // subtree disjoint from them keeps its size across the call.
    // l = mirror(t.left); t.left = mirror(t.right): the first call rewrites t.left's subtree
    let out = proved("everyday.Trees.mirror", &[]);
    assert!(out.contains("|t|"), "ranked by the tree's size: {out}");
    // swap, then mirrorInPlace(t.left); mirrorInPlace(t.right)
    proved("everyday.Frames.mirrorInPlace", &[]);
    // growLeft(t.left) hangs a leaf into the left subtree; growLeft(t.right) walks the right
    proved("everyday.Frames.growLeft", &[]);
    // append(a) (recursive: abstracted inside) lengthens a's list; chase(a, b.next) walks b's
    proved("everyday.Frames.chase", &[]);
}

#[test]
fn a_callee_writing_through_an_alias_or_a_static_keeps_no_size() {
    // chase(a, b) runs forever when a's list reaches b's: with `a %$ b` or `a =? b` in the
    // start state, b's size is in append's frame and may grow, so never YES
    let f = fixtures();
    let dir = std::env::temp_dir().join(format!("jtg-frames-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (name, pred) in [("shared", "o1%$o2"), ("alias", "o1=?o2")] {
        let p = dir.join(format!("{name}.state"));
        let text =
            format!("00 | a: o1, b: o2 | ε\no1: everyday.Link(?)  o2: everyday.Link(?)\n{pred}\n");
        std::fs::write(&p, text).expect("write start state");
        let p = p.display().to_string();
        let m = "everyday.Frames.chase";
        let (code, out, err) = jtg(&["prove", &f, m, "--start", &p, "--check", "20"]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(!out.contains(": YES"), "{m} from {pred} may not end: {out}");
        assert!(out.contains(", 0 violations"), "{out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    // tail = b; chaseTail(b): appendToTail() reaches b's list through the static
    let m = "everyday.Frames.chaseOwnTail";
    let (code, out, err) = jtg(&["prove", &f, m, "--check", "20"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains(": YES"), "{m} does not end: {out}");
    assert!(out.contains(", 0 violations"), "{out}");
}

#[test]
fn library_arithmetic_keeps_its_relation_to_the_arguments() {
    // n = Math.decrementExact(n) is `n − 1` (or an ArithmeticException); Math.floorDiv(n, 2)
    // with n > 1 is `n / 2`: the engine labels both like the instructions, the checker checks
    // the labels on every JVM step
    for ints in ["unbounded", "java"] {
        proved("everyday.JdkLibs.countDownExact", &["--ints", ints]);
        proved("everyday.JdkLibs.halvings", &["--ints", ints]);
    }
}

#[test]
fn a_maybe_names_the_loop_without_a_ranking_function() {
    let f = fixtures();
    // for (int x : xs) { if (x < 0) xs.add(0); n++; }: the list may grow while it is walked
    let m = "everyday.CollectionLoops.addWhileIterating";
    let (code, out, err) = jtg(&["prove", &f, m]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(": MAYBE"), "{out}");
    // no ranking function, or a recurrent set the JVM did not confirm: either way the loop
    assert!(
        out.contains(&format!("the loop at {m}(Ljava/util/List;)I pc")),
        "{out}"
    );
    // and where it is in the source (the class file's line table)
    assert!(out.contains("(CollectionLoops.java:"), "{out}");
    let (_, json, _) = jtg(&["prove", &f, m, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    let reason = v["reason"].as_str().unwrap_or_default();
    assert!(reason.contains(m), "{json}");
    assert!(reason.contains("(CollectionLoops.java:"), "{json}");
}

#[test]
fn loops_over_records_terminate() {
    // p = p.plus(new Point(1, 2)) n times: a record made in a loop (its compact constructor
    // may throw); for (int i = r.lo(); i < r.hi(); i++): a loop bounded by accessors;
    // a for-each over a record array
    proved("everyday.Records.walk", &[]);
    proved("everyday.Records.rangeSum", &[]);
    proved("everyday.Records.best", &[]);
}

#[test]
fn a_loop_comparing_with_objects_equals_terminates() {
    // for (String s : names) if (Objects.equals(s, target)) c++;
    proved("everyday.Equality.countEqual", &[]);
}

#[test]
fn a_loop_with_a_finally_terminates() {
    // for (…; i < n; i++) { try { if (i % 3 == 0) continue; } finally { tries++; } }
    proved("everyday.Finally.attempts", &[]);
}

#[test]
fn generic_compare_to_loops_terminate() {
    // for (T x : xs) if (x.compareTo(pivot) < 0) c++;  — Comparable.compareTo(Object), the
    // bridge method of Integer and String
    proved("everyday.Equality.countLess", &[]);
    proved("everyday.Equality.maxOf", &[]);
}

#[test]
fn loops_around_collections_helpers_terminate() {
    // StringBuilder.append(s, i + 1, end) in a loop down the string; Collections.reverse
    // before a for-each
    proved("everyday.Utilities.reverseWords", &[]);
    proved("everyday.Utilities.reverseAndCount", &[]);
    // set and Collections.reverse on a List parameter, which may be an Arrays.asList list:
    // its array is reachable through the list alone, so the write-through changes nothing the
    // state shows; where the state holds an array it may write to, that stays unsupported
    proved("everyday.Utilities.incrementAll", &[]);
    proved("everyday.Utilities.reverseAny", &[]);
    let f = fixtures();
    let (code, out, err) = jtg(&["prove", &f, "everyday.Utilities.setThrough"]);
    assert_ne!(code, 0, "{out}{err}");
    assert!(
        err.contains(
            "set of an Arrays.asList list where the state holds an array it may write through to"
        ),
        "{out}{err}"
    );
}

#[test]
fn loops_and_recursions_shortening_a_string_by_substring_terminate() {
    // while (!s.isEmpty()) s = s.substring(1);  s.substring(1, s.length() - 1) while longer
    // than one; s.isEmpty() ? 0 : 1 + f(s.substring(1)): the new string is one shorter
    for ints in ["unbounded", "java"] {
        proved("everyday.JdkLibs.dropFirstUntilEmpty", &["--ints", ints]);
        proved("everyday.Strings.peelBothEnds", &["--ints", ints]);
    }
    proved("everyday.Strings.lengthByRecursion", &[]);
    proved("everyday.Strings.suffixLengths", &[]);
}

#[test]
fn loops_draining_a_priority_queue_terminate() {
    // while (!q.isEmpty()) s += q.poll();  and  while (q.poll() != null) c++;
    proved("everyday.Collections.queueDrain", &[]);
    proved("everyday.Collections.queuePolled", &[]);
    proved("everyday.Collections.queueDrain", &["--ints", "java"]);
    // a TreeSet drained from its smallest: while (s.pollFirst() != null) n++;
    proved("everyday.CollectionLoops.distinctSorted", &[]);
    proved(
        "everyday.CollectionLoops.distinctSorted",
        &["--ints", "java"],
    );
}

#[test]
fn loops_over_a_maps_views_terminate() {
    // for (Integer k : m.keySet()) …, for (Map.Entry e : m.entrySet()) …: the view's iterator
    // counts down the map's size; removal through it shrinks the map
    proved("everyday.MapViews.sumKeys", &[]);
    proved("everyday.MapViews.maxValue", &[]);
    proved("everyday.MapViews.countKeysAbove", &[]);
    proved("everyday.MapViews.removeBelow", &[]);
    proved("everyday.MapViews.dropNullValues", &[]);
}

#[test]
fn loops_bounded_by_what_an_object_holds_terminate() {
    // for (i = 0; i < b.count; i++), i < this.n, i < data.length, i < xs.size(),
    // k < m.size(), while (b.count > 0) b.count--: the loop's head realizes the object the
    // loop reads through a local it never assigns, so every lap reads the same bound
    for m in [
        "everyday.LoopBounds.fieldBound",
        "everyday.LoopBounds.ownField",
        "everyday.LoopBounds.arrayField",
        "everyday.LoopBounds.listSize",
        "everyday.LoopBounds.mapSize",
        "everyday.LoopBounds.countDown",
    ] {
        proved(m, &[]);
    }
}

#[test]
fn a_loop_whose_bound_no_variable_holds_is_never_no() {
    // while (a[0] > 0) a[0]--; while (b.inner.count > 0) b.inner.count--: they end, but the
    // proof sees the bound as a value read afresh each lap. The branch on it stays in the
    // ITS (a constrained temporary), so no recurrent set assumes the loop's branch is taken;
    // a run cut by the step budget (a large count) is no evidence by itself
    let f = fixtures();
    for m in [
        "everyday.LoopBounds.cellCountDown",
        "everyday.LoopBounds.innerCountDown",
    ] {
        let (code, out, err) = jtg(&["prove", &f, m]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(!out.contains(": NO"), "{m} ends: {out}");
    }
}

#[test]
fn loops_bounded_by_a_library_contract_terminate() {
    // x = Math.min(x - 1, 100) is ≤ x - 1; i = Math.max(i + 1, i + k) is ≥ i + 1 (the labels
    // `r ≤ a`, `r ≥ a` of the call); indexOf(c, from) finds at or after `from`,
    // lastIndexOf(c, from) at or before it; p <<= 1 is p · 2 — int and long alike; and the
    // sieve's `for (long j = (long) i * i; j <= n; j += i)` compares j with `(long) n`, n itself;
    // x &= x - 1 of a non-negative x is below x; (h & 0x7fffffff) % n is a valid index
    for m in [
        "clampDown",
        "strideUp",
        "clampLong",
        "countSpaces",
        "countFromEnd",
        "nextPowerOfTwo",
        "doublings",
        "sieve",
        "popCount",
        "bucketOf",
    ] {
        proved(&format!("everyday.Contracts.{m}"), &[]);
    }
    // the contracts claim no more: a floor of 1 keeps x > 0 forever, a search that never
    // moves past what it found repeats it
    let f = fixtures();
    for m in ["neverBelowOne", "neverPastFound"] {
        let m = format!("everyday.Contracts.{m}");
        let (code, out, err) = jtg(&["prove", &f, &m]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(!out.contains(": YES"), "{m} may not end: {out}");
    }
}

#[test]
fn loops_bounded_by_a_builders_length_terminate() {
    // while (sb.length() < n) sb.append('.'): the model keeps a builder's length
    for m in [
        "everyday.Strings.padTo",
        "everyday.Strings.digitsUpTo",
        "everyday.Strings.trimTrailing",
        "everyday.Strings.dots",
        "everyday.Strings.charsBack",
    ] {
        proved(m, &[]);
    }
    // appending a string that may be empty: a run that never ends (`repeatTo("", 1)`)
    let f = fixtures();
    let (code, out, err) = jtg(&["prove", &f, "everyday.Strings.repeatTo"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(": NO"), "{out}");
}

#[test]
fn a_list_of_any_family_filtered_into_another_terminates() {
    // each family's iterator keeps its count while `out` grows
    proved("everyday.CollectionLoops.evens", &[]);
}

#[test]
fn loops_over_collections_of_characters_terminate() {
    // `Deque<Character>`, `Map<Character, Integer>`, `Set<Character>`: boxes of chars
    for m in [
        "everyday.CollectionLoops.balanced",
        "everyday.CollectionLoops.mostFrequent",
        "everyday.CollectionLoops.firstRepeated",
    ] {
        proved(m, &[]);
    }
}

#[test]
fn loops_on_what_remove_and_add_return_terminate() {
    // `true` of remove(Object) / Set.add is a size one smaller / larger, `false` the same;
    // `merge(w, 1, Integer::sum)` of a new key grows the map
    for m in [
        "everyday.CollectionLoops.removeAll",
        "everyday.CollectionLoops.countNew",
        "everyday.CollectionLoops.fixedSize",
        "everyday.CollectionLoops.wordMerge",
        "everyday.CollectionLoops.mergeKeys",
    ] {
        proved(m, &[]);
    }
}

#[test]
fn a_switch_expression_over_an_enum_terminates() {
    // javac 17's default branch throws IncompatibleClassChangeError: a modelled class
    proved("everyday.Enums.weigh", &[]);
}

#[test]
fn enum_value_of_terminates() {
    // Enum.valueOf returns a constant or throws; a loop counting the words that name one
    for m in [
        "everyday.Enums.parse",
        "everyday.Enums.roundTrip",
        "everyday.Enums.countColorWords",
    ] {
        proved(m, &[]);
    }
}

#[test]
fn swaps_and_reverse_orders_terminate() {
    // Collections.swap keeps the size; Comparator.reverseOrder() sorts and queues like the
    // natural order as far as the models keep, Comparator.naturalOrder() is that order
    for m in [
        "everyday.CollectionLoops.swapPairs",
        "everyday.CollectionLoops.swapImmutable",
        "everyday.CollectionLoops.largestSum",
        "everyday.CollectionLoops.descending",
        "everyday.CollectionLoops.reverseQueue",
        "everyday.CollectionLoops.naturalOrder",
    ] {
        proved(m, &[]);
    }
}

#[test]
fn loops_over_static_collections_terminate() {
    // a static's value is what its stores make: `List.of`'s list, a `HashMap`
    proved("everyday.StaticCollections.smallFactors", &[]);
    proved("everyday.StaticCollections.remember", &[]);
}

#[test]
fn list_copies_terminate() {
    // List.copyOf: the list itself, JDK 17's one empty list, or a new immutable list
    proved("everyday.CollectionLoops.copies", &[]);
    proved("everyday.CollectionLoops.copyOrMinus", &[]);
}

#[test]
fn put_if_absent_add_all_and_checked_arguments_terminate() {
    for m in [
        "everyday.CollectionLoops.firstPositions",
        "everyday.CollectionLoops.unionSize",
        "everyday.CollectionLoops.checkedLength",
        "everyday.CollectionLoops.growBoth",
    ] {
        proved(m, &[]);
    }
}

#[test]
fn string_replace_and_repeat_terminate() {
    proved("everyday.Strings.squeezed", &[]);
    proved("everyday.Strings.ruler", &[]);
}

#[test]
fn loops_over_linked_hash_sets_and_maps_terminate() {
    // LinkedHashSet, LinkedHashMap: HashSet's and HashMap's models, their own iterator and view
    // classes (insertion order, which the model does not keep)
    for m in [
        "everyday.LinkedCollections.firstSeenCounts",
        "everyday.LinkedCollections.distinctWords",
        "everyday.LinkedCollections.distinctSum",
        "everyday.LinkedCollections.countKeys",
        "everyday.LinkedCollections.keysAndValues",
        "everyday.LinkedCollections.dropEven",
        // drawn inputs of the declared classes (`jtg check` refused them as bad input before)
        "everyday.LinkedCollections.entrySum",
        "everyday.CollectionLoops.drainAll",
        // HashMap(Map), LinkedHashMap(Map): a copy has the map's size
        "everyday.LinkedCollections.copies",
    ] {
        proved(m, &[]);
    }
}

#[test]
fn optionals_terminate() {
    for m in [
        "everyday.Optionals.lengthOfFirstLonger",
        "everyday.Optionals.largest",
        "everyday.Optionals.lengths",
        "everyday.Optionals.sameEmpty",
        "everyday.Optionals.valueOr",
    ] {
        proved(m, &[]);
    }
}

#[test]
fn a_loop_rolling_a_passed_random_terminates() {
    // the cross-check's inputs build a Random parameter by its constructor
    proved("everyday.Utilities.rolls", &[]);
}

#[test]
fn loops_over_any_collection_terminate() {
    // a Collection or Iterable parameter may be an ArrayDeque, whose iterator is modelled now
    for m in [
        "everyday.DequeLoops.sumAll",
        "everyday.DequeLoops.sumIterable",
        "everyday.DequeLoops.dropNegatives",
        "everyday.DequeLoops.growWhileIterating",
    ] {
        proved(m, &[]);
    }
}

#[test]
fn list_iterator_walks_terminate() {
    for m in [
        "everyday.Lists.dropZeros",
        "everyday.Lists.fixedWalk",
        "everyday.Lists.immutableWalk",
    ] {
        proved(m, &[]);
    }
}

#[test]
fn sorted_collections_of_strings_terminate_and_may_throw_across_classes() {
    // TreeMap, TreeSet, PriorityQueue, sort and max over strings in methods that also hold
    // integers: a comparison on a non-empty collection may throw ClassCastException (`X:`);
    // a TreeSet copied from a collection, iterated, removed from through its iterator
    for m in [
        "everyday.SortedKeys.countWords",
        "everyday.SortedKeys.countInto",
        "everyday.SortedKeys.drainDistinct",
        "everyday.SortedKeys.queueLengths",
        "everyday.SortedKeys.sortedWords",
        "everyday.SortedKeys.removeAll",
        "everyday.SortedKeys.sortMixed",
        "everyday.SortedKeys.drainCopy",
        "everyday.SortedKeys.distinctWords",
        "everyday.SortedKeys.sumSorted",
        "everyday.SortedKeys.sortedLengths",
        "everyday.SortedKeys.removeBelow",
    ] {
        proved(m, &[]);
    }
    // the JVM throws on these (a TreeMap input of Integer keys; a list of an Integer and a
    // String): every run is a path of the graph, so its `X:` case covers the throw
    let f = fixtures();
    for m in [
        "everyday.SortedKeys.countInto",
        "everyday.SortedKeys.sortMixed",
    ] {
        let (code, out, err) = jtg(&["graph", &f, m]);
        assert_eq!(code, 0, "{out}{err}");
        let x_node = |l: &str| {
            l.starts_with('[')
                && l.split_once(']')
                    .is_some_and(|(_, r)| r.trim_start().starts_with("X: "))
        };
        assert!(
            out.lines().any(x_node),
            "a ClassCastException outcome: {out}"
        );
        let (code, out, err) = jtg(&["check", &f, m, "-n", "100"]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains(" 0 violations"), "{out}");
    }
}

#[test]
fn stacks_and_priority_queues_iterate() {
    // Vector$Itr and PriorityQueue$Itr: for-each and removal through the iterator, a removal
    // that moves the heap's last element behind the cursor included
    for m in [
        "everyday.QueueIteration.sumStack",
        "everyday.QueueIteration.pushedLengths",
        "everyday.QueueIteration.sumQueue",
        "everyday.QueueIteration.dropNegatives",
        "everyday.QueueIteration.dropZeros",
        "everyday.QueueIteration.movedBehind",
    ] {
        proved(m, &[]);
    }
}
