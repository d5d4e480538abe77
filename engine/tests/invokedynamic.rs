//! `invokedynamic` in the engine (`everyday.Indy`, `make fixtures`): lambda sites make classes
//! the hierarchy, the rapid type analysis and the field type analysis know; what the engine
//! does not model (another bootstrap method, a boxing adaptation, a record method that would run
//! program code) is unsupported, named.

mod common;

use jtg_engine::class::{ClassPath, FieldType, Insn};
use jtg_engine::state::IntSemantics;
use jtg_engine::{build_graph, Options, Program};

const INDY: &str = "everyday/Indy";

/// The lambda site numbers of `method` of `everyday.Indy`.
fn lambda_sites(prog: &Program, method: &str) -> Vec<u32> {
    let class = prog.hierarchy.classpath().load(INDY).expect("Indy");
    let m = class.method(method, None).expect("method");
    m.code
        .iter()
        .flat_map(|c| c.insns.iter())
        .filter_map(|(_, i)| match i {
            Insn::InvokeDynamic { site, .. } => site.lambda_index,
            _ => None,
        })
        .collect()
}

#[test]
fn a_lambda_site_makes_a_class_below_its_interface() {
    let prog = common::program();
    let [site] = lambda_sites(&prog, "lambdaArgument")[..] else {
        panic!("lambdaArgument has one lambda site");
    };
    let name = format!("{INDY}$$Lambda${site}");
    let class = prog
        .hierarchy
        .classpath()
        .load(&name)
        .expect("lambda class");
    assert!(class.is_final && !class.is_interface);
    assert!(prog
        .hierarchy
        .is_subtype(&name, "java/util/function/IntUnaryOperator")
        .expect("subtype"));
    let sam = class
        .method("applyAsInt", Some("(I)I"))
        .expect("its method");
    // its code calls the implementation, a synthetic static method of Indy
    let calls: Vec<String> = sam
        .code
        .iter()
        .flat_map(|c| c.insns.iter())
        .filter_map(|(_, i)| match i {
            Insn::Invoke { method, .. } => Some(format!("{}.{}", method.class, method.name)),
            _ => None,
        })
        .collect();
    assert!(
        matches!(&calls[..], [c] if c.starts_with("everyday/Indy.lambda$lambdaArgument$")),
        "{calls:?}"
    );
    // a name no site has is no class
    assert!(prog
        .hierarchy
        .classpath()
        .load(&format!("{INDY}$$Lambda$999"))
        .is_err());
}

#[test]
fn the_closed_world_holds_lambda_classes_and_the_fields_that_store_them() {
    let prog = common::program();
    let m = prog
        .find_method("everyday.Indy.storedField")
        .expect("method");
    let st = prog
        .default_start(&m, IntSemantics::Unbounded)
        .expect("start");
    let world = prog.world(&st);
    let [site] = lambda_sites(&prog, "storedField")[..] else {
        panic!("storedField has one lambda site");
    };
    let lambda = format!("{INDY}$$Lambda${site}");
    assert!(world.contains(&lambda), "{:?}", world.classes);
    // the variable type analysis follows the site: Holder.op holds only that class
    let declared = FieldType::Object("java/util/function/IntUnaryOperator".into());
    assert_eq!(
        world.field_type("everyday/Indy$Holder", "op", &declared),
        FieldType::Object(lambda)
    );
}

#[test]
fn member_order_does_not_change_lambda_class_names() {
    let plain = common::program();
    let shuffled = Program::new(
        ClassPath::from_paths(&[common::fixtures_dir()])
            .expect("class path")
            .with_member_shuffle(7),
    );
    for m in ["loop", "storedField", "boundRef", "combine"] {
        assert_eq!(lambda_sites(&plain, m), lambda_sites(&shuffled, m), "{m}");
    }
}

#[test]
fn a_boxing_adaptation_is_unsupported_and_named() {
    common::unsupported_naming(
        "everyday.Indy.boxedRef",
        &["java.lang.Integer.sum(II)I", "boxing or unboxing"],
    );
}

#[test]
fn boxing_a_program_methods_result_is_unsupported_and_named() {
    // a library method's int result is boxed (`Lambdas.lengthOf` is a suite entry); a program
    // method's frame would return into the hidden class's, which boxes
    common::unsupported_naming(
        "everyday.Indy.programResultBoxed",
        &["everyday.Indy$Square.area()I", "without a library model"],
    );
}

/// `javac -XDstringConcat=indy` concatenates with `StringConcatFactory.makeConcat`, a bootstrap
/// the engine does not model: the error names it, the class, the method and the pc.
#[test]
fn another_bootstrap_method_is_unsupported_and_named() {
    let dir = std::env::temp_dir().join(format!("jtg-indy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let src = dir.join("Concat.java");
    std::fs::write(
        &src,
        "class Concat { static String f(int n) { return \"n=\" + n; } }\n",
    )
    .expect("source");
    let status = std::process::Command::new(std::env::var("JAVAC").unwrap_or("javac".into()))
        .args(["-XDstringConcat=indy", "-d"])
        .arg(&dir)
        .arg(&src)
        .status()
        .expect("javac runs");
    assert!(status.success(), "javac failed");
    let prog = Program::new(ClassPath::from_paths(std::slice::from_ref(&dir)).expect("class path"));
    let e = common::failure(&prog, "Concat.f");
    std::fs::remove_dir_all(&dir).ok();
    match common::unsupported(e) {
        Some((method, pc, what)) => {
            assert_eq!(method.to_string(), "Concat.f(I)Ljava/lang/String;");
            // ldc "n=" (0), iload_0 (2), invokedynamic (3): makeConcat takes the constant
            assert_eq!(pc, 3);
            assert!(
                what.starts_with("invokedynamic: bootstrap method")
                    && what.contains("java.lang.invoke.StringConcatFactory.makeConcat("),
                "{what}"
            );
        }
        None => panic!("not an unsupported feature"),
    }
}

/// A record's `equals`, `hashCode` and `toString` are `ObjectMethods.bootstrap` sites (JDK 16+):
/// modelled where the JDK runs no program code (primitive, array and JDK value components), a
/// complete graph; a component of a program class, whose `equals` the JDK would call, is
/// unsupported, named.
#[test]
fn record_methods_are_modelled_and_program_components_named() {
    let prog = common::program();
    for method in [
        "everyday.Records.samePoint",
        "everyday.Records.pointHash",
        "everyday.Records.labelLength",
    ] {
        let m = prog.find_method(method).expect("method");
        let st = prog
            .default_start(&m, IntSemantics::Unbounded)
            .expect("start");
        let g = build_graph(&prog, &m, st, &Options::default()).expect("complete graph");
        assert!(g.nodes.len() > 1, "{method}");
    }
    // compiled apart: in the fixtures' closed world its `equals` would be a target of every
    // `Object.equals` call
    let dir = std::env::temp_dir().join(format!("jtg-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let src = dir.join("Segment.java");
    std::fs::write(
        &src,
        "record Segment(Point from, Point to) {\n\
         record Point(int x, int y) {}\n\
         static boolean same(Segment a, Segment b) { return a.equals(b); }\n}\n",
    )
    .expect("source");
    let status = std::process::Command::new(std::env::var("JAVAC").unwrap_or("javac".into()))
        .args(["-g", "-d"])
        .arg(&dir)
        .arg(&src)
        .status()
        .expect("javac runs");
    assert!(status.success(), "javac failed");
    let prog = Program::new(ClassPath::from_paths(std::slice::from_ref(&dir)).expect("class path"));
    let e = common::failure(&prog, "Segment.same");
    std::fs::remove_dir_all(&dir).ok();
    match common::unsupported(e) {
        Some((method, pc, what)) => {
            assert_eq!(method.to_string(), "Segment.equals(Ljava/lang/Object;)Z");
            assert_eq!(pc, 2, "aload_0, aload_1, invokedynamic");
            assert!(
                what.contains("the component from of type LSegment$Point;"),
                "{what}"
            );
        }
        None => panic!("not an unsupported feature"),
    }
}
