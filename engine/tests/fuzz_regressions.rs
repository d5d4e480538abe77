//! Regression tests of the fuzzers' findings (`fuzz/`, docs/fuzzing.md): class files the JVM
//! verifier would reject, built by a tiny assembler, must give errors, never panics.

use jtg_engine::class::ClassPath;
use jtg_engine::state::{IntSemantics, MethodId};
use jtg_engine::{build_graph, EngineError, Options, Program};

/// One method of an assembled class: access flags, name, descriptor, and its Code attribute
/// (`max_stack`, `max_locals`, bytecode), or no code.
struct M<'a> {
    access: u16,
    name: &'a str,
    desc: &'a str,
    code: Option<(u16, u16, &'a [u8])>,
}

const ACC_STATIC: u16 = 0x0008;

/// A class file (version 52) `name extends java/lang/Object` with the given methods.
fn assemble(name: &str, methods: &[M<'_>]) -> Vec<u8> {
    let mut pool: Vec<Vec<u8>> = Vec::new();
    let utf8 = |pool: &mut Vec<Vec<u8>>, s: &str| -> u16 {
        let mut e = vec![1];
        e.extend_from_slice(&(s.len() as u16).to_be_bytes());
        e.extend_from_slice(s.as_bytes());
        pool.push(e);
        pool.len() as u16
    };
    let this_name = utf8(&mut pool, name);
    pool.push([vec![7], this_name.to_be_bytes().to_vec()].concat());
    let this_class = pool.len() as u16;
    let super_name = utf8(&mut pool, "java/lang/Object");
    pool.push([vec![7], super_name.to_be_bytes().to_vec()].concat());
    let super_class = pool.len() as u16;
    let code_attr = utf8(&mut pool, "Code");
    let mut body = Vec::new();
    body.extend_from_slice(&(methods.len() as u16).to_be_bytes());
    for m in methods {
        let n = utf8(&mut pool, m.name);
        let d = utf8(&mut pool, m.desc);
        body.extend_from_slice(&m.access.to_be_bytes());
        body.extend_from_slice(&n.to_be_bytes());
        body.extend_from_slice(&d.to_be_bytes());
        match m.code {
            None => body.extend_from_slice(&0u16.to_be_bytes()),
            Some((max_stack, max_locals, code)) => {
                body.extend_from_slice(&1u16.to_be_bytes());
                body.extend_from_slice(&code_attr.to_be_bytes());
                let len = 2 + 2 + 4 + code.len() + 2 + 2;
                body.extend_from_slice(&(len as u32).to_be_bytes());
                body.extend_from_slice(&max_stack.to_be_bytes());
                body.extend_from_slice(&max_locals.to_be_bytes());
                body.extend_from_slice(&(code.len() as u32).to_be_bytes());
                body.extend_from_slice(code);
                body.extend_from_slice(&0u16.to_be_bytes()); // exception table
                body.extend_from_slice(&0u16.to_be_bytes()); // attributes
            }
        }
    }
    let mut out = vec![0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52];
    out.extend_from_slice(&(pool.len() as u16 + 1).to_be_bytes());
    for e in &pool {
        out.extend_from_slice(e);
    }
    out.extend_from_slice(&0x0021u16.to_be_bytes()); // public super
    out.extend_from_slice(&this_class.to_be_bytes());
    out.extend_from_slice(&super_class.to_be_bytes());
    out.extend_from_slice(&0u16.to_be_bytes()); // interfaces
    out.extend_from_slice(&0u16.to_be_bytes()); // fields
    out.extend_from_slice(&body);
    out.extend_from_slice(&0u16.to_be_bytes()); // class attributes
    out
}

fn program(name: &str, methods: &[M<'_>]) -> Program {
    Program::new(ClassPath::from_classes(vec![(
        name.to_string(),
        assemble(name, methods),
    )]))
}

/// Builds the graph of `class.name desc` from the default start, like `jtg graph`.
fn graph(prog: &Program, class: &str, name: &str, desc: &str) -> Result<usize, EngineError> {
    let m = MethodId::new(class, name, desc);
    let start = prog.default_start(&m, IntSemantics::Unbounded)?;
    let opts = Options {
        max_nodes: 200,
        ..Options::default()
    };
    build_graph(prog, &m, start, &opts)
        .map(|g| g.nodes.len())
        .map_err(|f| f.error)
}

#[test]
fn assembler_makes_loadable_classes() {
    // iload_0; ireturn
    let prog = program(
        "A",
        &[M {
            access: ACC_STATIC,
            name: "id",
            desc: "(I)I",
            code: Some((1, 1, &[0x1a, 0xac])),
        }],
    );
    let nodes = graph(&prog, "A", "id", "(I)I").expect("graph of A.id");
    assert!(nodes >= 2, "{nodes} nodes");
}

/// Finding 1 (build_graph): an instance method with `max_locals` 0 panicked in
/// `default_start` (index out of bounds storing `this`).
#[test]
fn parameters_beyond_max_locals_are_invalid() {
    let prog = program(
        "A",
        &[
            M {
                access: 0,
                name: "m",
                desc: "()V",
                code: Some((0, 0, &[0xb1])), // return
            },
            M {
                access: ACC_STATIC,
                name: "wide",
                desc: "(IJ)V",
                code: Some((0, 2, &[0xb1])), // the long needs slots 1 and 2
            },
        ],
    );
    for (name, desc) in [("m", "()V"), ("wide", "(IJ)V")] {
        let e = graph(&prog, "A", name, desc).unwrap_err();
        assert!(
            matches!(e, EngineError::Invalid { .. }) && e.to_string().contains("max_locals"),
            "A.{name}: {e}"
        );
    }
}
