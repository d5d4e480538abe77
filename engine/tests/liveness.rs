//! Live locals on the List fixture (javac's bytecode of `get`, Fig. 2.12(b)).

mod common;

use jtg_engine::class::Liveness;

#[test]
fn list_get_liveness() {
    let prog = common::program();
    let m = prog.find_method("List.get").expect("get");
    let method = prog.method(&m).expect("method");
    let l = Liveness::of(method.code.as_ref().expect("code"));
    // 00 aload_0, 01 astore_2: `this` is read at 0 and never again
    assert!(l.is_live(0, 0));
    assert!(!l.is_live(1, 0));
    assert!(!l.is_live(2, 0));
    // cur (slot 2) is written at 1, read in the loop and after it
    assert!(!l.is_live(0, 2) && !l.is_live(1, 2));
    assert!(l.is_live(2, 2) && l.is_live(17, 2));
    // x (slot 1) is live in the loop, dead after it
    assert!(l.is_live(2, 1) && l.is_live(14, 1));
    assert!(!l.is_live(17, 1) && !l.is_live(21, 1));
    // unknown pcs are live (the safe answer)
    assert!(l.is_live(999, 1));
}

#[test]
fn handlers_keep_locals_live() {
    let prog = common::program();
    let m = prog.find_method("IntLoops.safeDivide").expect("safeDivide");
    let method = prog.method(&m).expect("method");
    let l = Liveness::of(method.code.as_ref().expect("code"));
    assert!(l.is_live(0, 0) && l.is_live(0, 1));
}
