//! The control-flow graph of a method's code and the frame interpreter over it: switches,
//! handlers with their catch types, a loop, a try/finally as javac compiles it, and properties
//! on every fixture method (predecessors invert successors; the stack effects keep every stack
//! within javac's `max_stack`).

mod common;

use jtg_engine::class::{
    falls_through, interpret_frames, Cfg, ClassPath, Code, Edge, EdgeKind, Frame, Handler, Insn,
    Interpreter, Kind, Unfollowed,
};
use quickcheck::{QuickCheck, TestResult};
use std::collections::BTreeSet;
use std::sync::{Arc, OnceLock};

fn code_of(spec: &str) -> Code {
    let prog = common::program();
    let m = prog.find_method(spec).expect("method");
    let method = prog.method(&m).expect("resolves");
    method.method().code.clone().expect("code")
}

type MethodAt = (Arc<jtg_engine::class::Class>, usize);

/// Every method with code of the compiled fixtures, as (class, method index).
fn fixture_methods() -> &'static [MethodAt] {
    static METHODS: OnceLock<Vec<MethodAt>> = OnceLock::new();
    METHODS.get_or_init(load_fixture_methods)
}

fn load_fixture_methods() -> Vec<MethodAt> {
    let cp = ClassPath::from_paths(&[common::fixtures_dir()]).expect("class path");
    let mut out = Vec::new();
    for name in cp.class_names() {
        let class = cp.load(&name).expect("class loads");
        for (i, m) in class.methods.iter().enumerate() {
            if m.code.is_some() {
                out.push((class.clone(), i));
            }
        }
    }
    assert!(out.len() > 100, "only {} fixture methods", out.len());
    out
}

fn jumps(cfg: &Cfg, i: usize) -> BTreeSet<u32> {
    (cfg.successors(i).iter())
        .filter(|e| e.kind == EdgeKind::Jump)
        .map(|e| cfg.pc(e.to))
        .collect()
}

#[test]
fn switches_jump_to_every_case_and_the_default() {
    for spec in ["Switch.dense", "Switch.sparse"] {
        let code = code_of(spec);
        let cfg = Cfg::of(&code);
        let (i, insn) = (code.insns.iter().map(|(_, insn)| insn).enumerate())
            .find(|(_, insn)| matches!(insn, Insn::TableSwitch { .. } | Insn::LookupSwitch { .. }))
            .expect("a switch");
        let targets: BTreeSet<u32> = insn.branch_targets().into_iter().collect();
        assert!(targets.len() >= 4, "{spec}: {targets:?}");
        assert_eq!(jumps(&cfg, i), targets, "{spec}");
        // a switch never falls through; every edge out of it is a jump
        assert!(cfg.successors(i).iter().all(|e| e.kind == EdgeKind::Jump));
        for t in targets {
            let j = cfg.index_of(t).expect("target is an instruction");
            assert!(cfg.predecessors(j).contains(&i));
        }
    }
}

#[test]
fn covered_instructions_go_to_their_handler_with_its_catch_type() {
    let code = code_of("IntLoops.safeDivide");
    let cfg = Cfg::of(&code);
    let h = &code.handlers[0];
    assert_eq!(
        h.catch_type.as_deref(),
        Some("java/lang/ArithmeticException")
    );
    let handler = cfg.index_of(h.handler).expect("handler");
    for (i, (pc, _)) in code.insns.iter().enumerate() {
        let edge = Edge {
            to: handler,
            kind: EdgeKind::Handler {
                catch_type: h.catch_type.clone(),
            },
        };
        let covered = h.start <= *pc && *pc < h.end;
        assert_eq!(cfg.successors(i).contains(&edge), covered, "pc {pc}");
    }
}

#[test]
fn a_loop_has_a_back_edge_to_its_head() {
    let code = code_of("List.get");
    let cfg = Cfg::of(&code);
    let (head, back) = code.loop_ranges()[0];
    let (h, b) = (cfg.index_of(head).unwrap(), cfg.index_of(back).unwrap());
    assert!(jumps(&cfg, b).contains(&head));
    // the head is reached from before the loop and from its end
    assert!(cfg.predecessors(h).iter().any(|&p| p < h));
    assert!(cfg.predecessors(h).contains(&b));
}

/// `static int f(int x) { int r; try { r = 10 / x; } finally { x = 0; } return r; }` as javac
/// compiles it: the finally block once inline and once in a catch-all handler that rethrows.
fn try_finally() -> Code {
    use Insn::*;
    let insns = vec![
        (0, IConst(10)),
        (2, Load(Kind::Int, 0)),
        (3, Insn::Arith(Kind::Int, jtg_engine::class::ArithOp::Div)),
        (4, Store(Kind::Int, 1)),
        (5, IConst(0)),
        (6, Store(Kind::Int, 0)),
        (7, Goto(15)),
        (10, Store(Kind::Ref, 2)),
        (11, IConst(0)),
        (12, Store(Kind::Int, 0)),
        (13, Load(Kind::Ref, 2)),
        (14, AThrow),
        (15, Load(Kind::Int, 1)),
        (16, Return(Some(Kind::Int))),
    ];
    Code {
        max_stack: 2,
        max_locals: 3,
        insns,
        handlers: vec![Handler {
            start: 0,
            end: 5,
            handler: 10,
            catch_type: None,
        }],
        local_names: vec![],
        line_numbers: vec![],
    }
}

#[test]
fn try_finally_edges() {
    let code = try_finally();
    let cfg = Cfg::of(&code);
    let i = |pc| cfg.index_of(pc).unwrap();
    let succ_pcs = |pc| -> Vec<(u32, EdgeKind)> {
        (cfg.successors(i(pc)).iter())
            .map(|e| (cfg.pc(e.to), e.kind.clone()))
            .collect()
    };
    let any = EdgeKind::Handler { catch_type: None };
    // the division may throw: on to the store or to the finally handler
    assert_eq!(succ_pcs(3), vec![(4, EdgeKind::Next), (10, any.clone())]);
    // the inline finally is outside the handler's range
    assert_eq!(succ_pcs(5), vec![(6, EdgeKind::Next)]);
    assert_eq!(succ_pcs(7), vec![(15, EdgeKind::Jump)]);
    assert_eq!(succ_pcs(14), vec![]);
    assert_eq!(succ_pcs(16), vec![]);
    assert_eq!(cfg.predecessors(i(10)), &[i(0), i(2), i(3), i(4)]);
    assert_eq!(cfg.predecessors(i(15)), &[i(7)]);
    assert!(!falls_through(&Insn::AThrow) && falls_through(&Insn::Jsr(0)));
}

/// Constant propagation of ints: `Some(c)` a known constant, `None` any value.
struct Constants;

impl Interpreter for Constants {
    type Value = Option<i32>;

    fn join(&mut self, into: &mut Option<i32>, v: &Option<i32>) -> bool {
        if into.is_some() && into != v {
            *into = None;
            return true;
        }
        false
    }

    fn copy(&mut self, _insn: &Insn, word: Option<i32>) -> Option<i32> {
        word
    }

    fn operation(
        &mut self,
        insn: &Insn,
        _: Vec<Option<i32>>,
    ) -> Result<Option<Option<i32>>, Unfollowed> {
        Ok(Some(match insn {
            Insn::IConst(c) => Some(*c),
            _ => None,
        }))
    }

    fn caught(&mut self, _catch_type: Option<&str>) -> Option<i32> {
        None
    }
}

#[test]
fn the_frame_interpreter_enters_handlers_and_joins_paths() {
    let code = try_finally();
    let cfg = Cfg::of(&code);
    let entry = Frame {
        locals: vec![None, Some(7), Some(7)],
        stack: vec![],
    };
    let frames = interpret_frames(&code, &cfg, entry, &mut Constants).expect("interprets");
    let at = |pc| frames[cfg.index_of(pc).unwrap()].clone().expect("reached");
    // the handler: the caught value alone on the stack; `r` unknown (the store at 4 may or may
    // not have happened), `x` as before or after an instruction of the range
    let h = at(10);
    assert_eq!(h.stack, vec![None]);
    assert_eq!(h.locals[1], None);
    // after the finally block (reached only inline), x is 0 and the stack empty
    let end = at(15);
    assert_eq!((end.locals[0], end.stack.len()), (Some(0), 0));
    // after the rethrow's load the stack holds the exception; nothing is unreachable
    assert!(frames.iter().all(Option::is_some));
    assert_eq!(at(14).stack, vec![None]);
}

/// Every word is the same: the interpreter checks only heights.
struct Heights;

impl Interpreter for Heights {
    type Value = ();
    fn join(&mut self, _: &mut (), _: &()) -> bool {
        false
    }
    fn copy(&mut self, _: &Insn, _: ()) {}
    fn operation(&mut self, _: &Insn, _: Vec<()>) -> Result<Option<()>, Unfollowed> {
        Ok(Some(()))
    }
    fn caught(&mut self, _: Option<&str>) {}
}

#[test]
fn stack_effects_keep_every_fixture_frame_within_max_stack() {
    let mut checked = 0;
    for (class, i) in fixture_methods() {
        let m = &class.methods[*i];
        let code = m.code.as_ref().unwrap();
        if code.insns.iter().any(|(_, i)| matches!(i, Insn::Jsr(_))) {
            continue;
        }
        let cfg = Cfg::of(code);
        let entry = Frame {
            locals: vec![(); usize::from(code.max_locals)],
            stack: vec![],
        };
        let frames = interpret_frames(code, &cfg, entry, &mut Heights)
            .unwrap_or_else(|e| panic!("{}.{}{}: {e}", class.name, m.name, m.desc_str));
        for f in frames.into_iter().flatten() {
            assert!(
                f.stack.len() <= usize::from(code.max_stack),
                "{}.{}",
                class.name,
                m.name
            );
        }
        checked += 1;
    }
    assert!(checked > 100);
}

#[test]
fn predecessors_invert_successors_on_fixture_methods() {
    fn prop(pick: usize) -> TestResult {
        let methods = fixture_methods();
        let (class, i) = &methods[pick % methods.len()];
        let code = class.methods[*i].code.as_ref().unwrap();
        let cfg = Cfg::of(code);
        for from in 0..cfg.len() {
            if cfg.index_of(cfg.pc(from)) != Some(from) {
                return TestResult::failed();
            }
            for e in cfg.successors(from) {
                if !cfg.predecessors(e.to).contains(&from) {
                    return TestResult::failed();
                }
            }
            for &p in cfg.predecessors(from) {
                if !cfg.successors(p).iter().any(|e| e.to == from) {
                    return TestResult::failed();
                }
            }
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(200)
        .quickcheck(prop as fn(usize) -> TestResult);
}
