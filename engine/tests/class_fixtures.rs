//! Decoding and hierarchy tests over the javac-compiled fixtures (`make fixtures`).

use std::path::PathBuf;
use std::sync::Arc;

use jtg_engine::class::{
    parse_class, ArrayKind, ClassError, ClassPath, Cond, Constant, FieldType, Hierarchy, Insn,
    InvokeKind, Kind,
};

fn fixtures() -> PathBuf {
    let dir = std::env::var_os("JTG_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| jtg_testkit::repo_dir().join("build/fixtures"));
    assert!(
        dir.join("List.class").is_file(),
        "fixtures missing in {}: run `make fixtures` first",
        dir.display()
    );
    dir
}

fn classpath() -> ClassPath {
    ClassPath::from_paths(&[fixtures()]).expect("fixture class path")
}

fn listing(cp: &ClassPath, class: &str, method: &str) -> Vec<(u32, String)> {
    let c = cp.load(class).expect("load");
    let m = c.method(method, None).expect("method");
    let code = m.code.as_ref().expect("code");
    code.insns
        .iter()
        .map(|(pc, i)| (*pc, i.to_string()))
        .collect()
}

#[test]
fn list_contains_decodes_like_javap() {
    let cp = classpath();
    let c = cp.load("List").expect("load List");
    assert_eq!(c.source_file.as_deref(), Some("List.java"));
    assert_eq!(c.super_name.as_deref(), Some("java/lang/Object"));
    let m = c.method("contains", Some("(LList;I)Z")).expect("contains");
    assert!(m.is_static);
    let code = m.code.as_ref().expect("code");
    let want: Vec<(u32, &str)> = vec![
        (0, "aload_0"),
        (1, "ifnull 22"),
        (4, "aload_0"),
        (5, "getfield List.val:I"),
        (8, "iload_1"),
        (9, "if_icmpne 14"),
        (12, "iconst_1"),
        (13, "ireturn"),
        (14, "aload_0"),
        (15, "getfield List.next:LList;"),
        (18, "astore_0"),
        (19, "goto 0"),
        (22, "iconst_0"),
        (23, "ireturn"),
    ];
    let got: Vec<(u32, String)> = code
        .insns
        .iter()
        .map(|(pc, i)| (*pc, i.to_string()))
        .collect();
    let got: Vec<(u32, &str)> = got.iter().map(|(pc, s)| (*pc, s.as_str())).collect();
    assert_eq!(got, want);
    assert_eq!(code.insns[0].1, Insn::Load(Kind::Ref, 0));
    assert_eq!(code.insns[1].1, Insn::IfNull { target: 22 });
    assert_eq!(
        code.insns[5].1,
        Insn::IfICmp {
            cond: Cond::Ne,
            target: 14
        }
    );
    match &code.insns[3].1 {
        Insn::GetField(f) => {
            assert_eq!((f.class.as_str(), f.name.as_str()), ("List", "val"));
            assert_eq!(f.desc, FieldType::Int);
        }
        other => panic!("expected getfield, got {other:?}"),
    }
    assert_eq!(code.insns[11].1, Insn::Goto(0));
    assert_eq!(code.insns[13].1, Insn::Return(Some(Kind::Int)));
    assert_eq!(code.insns[0].1.mnemonic(), "aload_0");
    assert_eq!(code.insns[0].1.opcode(), 0x2a);
    assert_eq!(code.insns[5].1.mnemonic(), "if_icmpne");
    assert_eq!(code.insns[5].1.opcode(), 0xa0);
    assert_eq!(code.local_name(0, 0), Some("cur"));
    assert_eq!(code.local_name(1, 23), Some("x"));
    assert_eq!(code.local_name(1, 24), None);
    assert_eq!(code.local_name(2, 0), None);
    assert_eq!(code.next_pc(1), Some(4));
    assert_eq!(code.next_pc(23), None);
    assert_eq!(code.next_pc(2), None);
    assert_eq!(code.index_of(22), Some(12));
    assert_eq!(code.at(19), Some(&Insn::Goto(0)));
    assert_eq!(code.at(20), None);
}

#[test]
fn list_get_decodes_like_javap() {
    let cp = classpath();
    let got = listing(&cp, "List", "get");
    let want = [
        (0, "aload_0"),
        (1, "astore_2"),
        (2, "iload_1"),
        (3, "iinc 1, -1"),
        (6, "ifle 17"),
        (9, "aload_2"),
        (10, "getfield List.next:LList;"),
        (13, "astore_2"),
        (14, "goto 2"),
        (17, "aload_2"),
        (18, "getfield List.val:I"),
        (21, "ireturn"),
    ];
    let got: Vec<(u32, &str)> = got.iter().map(|(pc, s)| (*pc, s.as_str())).collect();
    assert_eq!(got, want);
    let c = cp.load("List").expect("load");
    let m = c.method("get", Some("(I)I")).expect("get");
    assert!(!m.is_static);
    let code = m.code.as_ref().expect("code");
    assert_eq!(
        code.insns[3].1,
        Insn::IInc {
            index: 1,
            delta: -1
        }
    );
    assert_eq!(
        code.insns[4].1,
        Insn::If {
            cond: Cond::Le,
            target: 17
        }
    );
    assert_eq!(code.local_name(0, 0), Some("this"));
    assert_eq!(
        code.local_name(2, 1),
        None,
        "javac's LVT starts after the store"
    );
    assert_eq!(code.local_name(2, 2), Some("cur"));
    let ctor = c.method("<init>", None).expect("ctor");
    match &ctor.code.as_ref().expect("code").insns[1].1 {
        Insn::Invoke { kind, method } => {
            assert_eq!(*kind, InvokeKind::Special);
            assert_eq!(method.class, "java/lang/Object");
            assert_eq!(method.desc_str, "()V");
            assert!(!method.interface);
        }
        other => panic!("expected invokespecial, got {other:?}"),
    }
}

#[test]
fn method_lookup_errors_list_candidates() {
    let cp = classpath();
    let c = cp.load("List").expect("load");
    let err = c.method("nope", None).expect_err("missing");
    let msg = err.to_string();
    assert!(msg.contains("List.nope"), "{msg}");
    assert!(msg.contains("contains(LList;I)Z"), "{msg}");
    let err = c.method("get", Some("()V")).expect_err("wrong desc");
    assert!(err.to_string().contains("get(I)I"), "{err}");
    assert!(c.field("next").is_some());
    assert!(c.field("nope").is_none());
    assert!(matches!(cp.load("Nope"), Err(ClassError::NotFound { .. })));
    assert!(matches!(
        cp.load("../List"),
        Err(ClassError::NotFound { .. })
    ));
    let again = cp.load("List").expect("cached");
    assert!(Arc::ptr_eq(&again, &cp.load("List").expect("cached")));
}

#[test]
fn opcodes_fixture_switches_wide_constants() {
    let cp = classpath();
    let c = cp.load("decode/Opcodes").expect("load Opcodes");
    let big = c.field("BIG").expect("BIG");
    assert!(big.is_static);
    assert_eq!(big.constant, Some(Constant::Long(1234567890123)));

    let table = c.method("table", None).expect("table");
    let code = table.code.as_ref().expect("code");
    assert_eq!(
        code.insns[1].1,
        Insn::TableSwitch {
            default: 37,
            low: 1,
            targets: vec![28, 31, 34]
        }
    );
    assert_eq!(code.insns[2], (28, Insn::IConst(10)));
    assert_eq!(code.insns[2].1.to_string(), "bipush 10");
    assert_eq!(code.at(37), Some(&Insn::IConst(-1)));

    let lookup = c.method("lookup", None).expect("lookup");
    match &lookup.code.as_ref().expect("code").insns[1].1 {
        Insn::LookupSwitch { pairs, .. } => {
            let keys: Vec<i32> = pairs.iter().map(|p| p.0).collect();
            assert_eq!(keys, vec![-1000, 7, 100000]);
        }
        other => panic!("expected lookupswitch, got {other:?}"),
    }

    let consts = c.method("consts", None).expect("consts");
    let insns: Vec<&Insn> = consts
        .code
        .as_ref()
        .expect("code")
        .insns
        .iter()
        .map(|p| &p.1)
        .collect();
    assert!(insns.contains(&&Insn::Ldc(Constant::Long(1234567890123))));
    assert!(insns.contains(&&Insn::Ldc(Constant::Double(2.5))));
    assert!(insns.contains(&&Insn::Ldc(Constant::String("abc".into()))));
    assert!(insns
        .iter()
        .any(|i| i.mnemonic() == "ldc2_w" && i.opcode() == 0x14));

    let wide = c.method("wide", None).expect("wide");
    let insns: Vec<&Insn> = wide
        .code
        .as_ref()
        .expect("code")
        .insns
        .iter()
        .map(|p| &p.1)
        .collect();
    assert!(insns.contains(&&Insn::IInc {
        index: 273,
        delta: 1000
    }));
    assert!(insns.contains(&&Insn::Store(Kind::Long, 271)));
    assert!(insns.contains(&&Insn::NewArray(ArrayKind::Int)));
    assert!(insns.contains(&&Insn::MultiANewArray {
        class: "[[J".into(),
        dims: 2
    }));
    assert!(insns.contains(&&Insn::IConst(300)), "sipush 300");

    let guarded = c.method("guarded", None).expect("guarded");
    let code = guarded.code.as_ref().expect("code");
    assert_eq!(code.handlers.len(), 3);
    assert_eq!(code.handlers[0].start, 0);
    assert_eq!(code.handlers[0].end, 8);
    assert_eq!(code.handlers[0].handler, 14);
    assert_eq!(
        code.handlers[0].catch_type.as_deref(),
        Some("java/lang/ArithmeticException")
    );
    assert_eq!(code.handlers[1].catch_type, None);
    assert!(code.insns.iter().any(|(_, i)| *i == Insn::AThrow));
    assert!(code
        .insns
        .iter()
        .any(|(_, i)| *i == Insn::ArrayStore(ArrayKind::Int)));
}

#[test]
fn class_names_lists_all_fixtures_sorted() {
    let names = classpath().class_names();
    assert!(names.contains(&"List".to_string()));
    assert!(names.contains(&"decode/Opcodes".to_string()));
    assert!(names.contains(&"hier/Sq".to_string()));
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
}

fn hierarchy() -> Hierarchy {
    Hierarchy::new(Arc::new(classpath()), jtg_engine::models::JDK_CLASSES)
}

#[test]
fn subtyping_classes_interfaces_arrays() {
    let h = hierarchy();
    let yes = [
        ("hier/Sq", "hier/Base"),
        ("hier/Unit", "hier/Base"),
        ("hier/Unit", "hier/Shape"),
        ("hier/Sq", "java/lang/Object"),
        ("hier/Shape", "java/lang/Object"),
        ("[Lhier/Unit;", "[Lhier/Shape;"),
        ("[[Lhier/Unit;", "[[Lhier/Base;"),
        ("[[Lhier/Unit;", "[Ljava/lang/Object;"),
        ("[I", "java/lang/Object"),
        ("[I", "java/lang/Cloneable"),
        ("[LList;", "java/io/Serializable"),
        ("[I", "[I"),
        ("java/lang/String", "java/lang/CharSequence"),
        (
            "java/lang/ArrayIndexOutOfBoundsException",
            "java/lang/RuntimeException",
        ),
        ("java/lang/StackOverflowError", "java/lang/Throwable"),
        ("java/lang/Integer", "java/io/Serializable"),
    ];
    for (a, b) in yes {
        assert!(
            h.is_subtype(a, b).expect(a),
            "{a} should be a subtype of {b}"
        );
    }
    let no = [
        ("hier/Base", "hier/Sq"),
        ("hier/Circ", "hier/Sq"),
        ("[I", "[J"),
        ("[I", "[Ljava/lang/Object;"),
        ("[Lhier/Base;", "[Lhier/Sq;"),
        ("hier/Sq", "[Lhier/Sq;"),
        ("[LList;", "List"),
        ("java/lang/NullPointerException", "java/lang/Error"),
        ("List", "java/lang/Comparable"),
    ];
    for (a, b) in no {
        assert!(
            !h.is_subtype(a, b).expect(a),
            "{a} should not be a subtype of {b}"
        );
    }
    assert!(matches!(
        h.is_subtype("hier/Nope", "hier/Base"),
        Err(ClassError::NotFound { .. })
    ));
    // the second time each answer comes from the memo of the class's supertypes
    for (a, b) in yes {
        assert!(h.is_subtype(a, b).expect(a), "{a} ⊑ {b}, asked again");
    }
    for (a, b) in no {
        assert!(!h.is_subtype(a, b).expect(a), "{a} ⋢ {b}, asked again");
    }
    assert!(h.is_subtype("hier/Nope", "hier/Base").is_err());
}

#[test]
fn builtins_and_flags() {
    let h = hierarchy();
    assert!(h.is_library("java/lang/Object"));
    assert!(h.is_library("java/lang/ArithmeticException"));
    assert!(!h.is_library("List"));
    assert!(h.is_abstract("java/lang/Comparable").expect("builtin"));
    assert!(h
        .is_abstract("java/lang/VirtualMachineError")
        .expect("builtin"));
    assert!(!h
        .is_abstract("java/lang/NullPointerException")
        .expect("builtin"));
    assert!(h.is_abstract("hier/Base").expect("Base"));
    assert!(h.is_abstract("hier/Shape").expect("Shape"));
    assert!(!h.is_abstract("hier/Sq").expect("Sq"));
    assert_eq!(h.super_of("java/lang/Object").expect("Object"), None);
    assert_eq!(
        h.super_of("java/lang/RuntimeException")
            .expect("RTE")
            .as_deref(),
        Some("java/lang/Exception")
    );
    assert_eq!(
        h.super_of("hier/Unit").expect("Unit").as_deref(),
        Some("hier/Sq")
    );
    let names: Vec<&str> = jtg_engine::models::JDK_CLASSES
        .iter()
        .map(|c| c.name)
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "the JDK table must stay sorted for lookup");
    for n in names {
        let mut c = n.to_string();
        // Every builtin's ancestors are builtins too.
        while let Some(s) = h.super_of(&c).expect(n) {
            assert!(h.is_library(&s), "{s}");
            c = s;
        }
    }
}

#[test]
fn concrete_subtypes_sorted() {
    let h = hierarchy();
    assert_eq!(
        h.non_abstract_subtypes("hier/Base").expect("Base"),
        vec!["hier/Circ", "hier/Shadow", "hier/Sq", "hier/Unit"]
    );
    assert_eq!(
        h.non_abstract_subtypes("hier/Shape").expect("Shape"),
        vec!["hier/Circ", "hier/Shadow", "hier/Sq", "hier/Unit"]
    );
    assert_eq!(
        h.non_abstract_subtypes("hier/Unit").expect("Unit"),
        vec!["hier/Unit"]
    );
    let rte = h
        .non_abstract_subtypes("java/lang/IndexOutOfBoundsException")
        .expect("IOOBE");
    assert_eq!(
        rte,
        vec![
            "java/lang/ArrayIndexOutOfBoundsException",
            "java/lang/IndexOutOfBoundsException",
            "java/lang/StringIndexOutOfBoundsException"
        ]
    );
    let all = h.non_abstract_subtypes("java/lang/Object").expect("Object");
    assert!(all.contains(&"List".to_string()));
    assert!(all.contains(&"java/lang/String".to_string()));
    assert!(!all.contains(&"hier/Base".to_string()));
    let mut sorted = all.clone();
    sorted.sort();
    assert_eq!(all, sorted);
}

#[test]
fn fields_inherited_sorted_and_shadowing_marked() {
    let h = hierarchy();
    let layout = |class: &str| -> Vec<(String, String, bool)> {
        h.instance_fields(class)
            .expect(class)
            .into_iter()
            .map(|f| (f.declared_in, f.name, f.shadowed))
            .collect()
    };
    let own = |c: &str, n: &str, s: bool| (c.to_string(), n.to_string(), s);
    assert_eq!(
        layout("hier/Unit"),
        vec![
            own("hier/Base", "a", false),
            own("hier/Sq", "b", false),
            own("hier/Unit", "c", false)
        ]
    );
    assert_eq!(
        h.instance_fields("hier/Unit").expect("Unit")[0].ty,
        FieldType::Int
    );
    // Shadow declares its own `a`: Base's is shadowed, the most derived one comes first
    assert_eq!(
        layout("hier/Shadow"),
        vec![
            own("hier/Shadow", "a", false),
            own("hier/Base", "a", true),
            own("hier/Sq", "b", false)
        ]
    );
    assert!(h
        .instance_fields("java/lang/Object")
        .expect("Object")
        .is_empty());
    let statics = h.static_fields("hier/Base").expect("Base statics");
    assert_eq!(
        statics,
        vec![("hier/Base".to_string(), "count".to_string(), FieldType::Int)]
    );
    assert!(h.static_fields("hier/Sq").expect("Sq statics").is_empty());
    let r = h
        .resolve_field("hier/Unit", "a")
        .expect("resolve")
        .expect("found");
    assert_eq!(r.class, "hier/Base");
    let r = h
        .resolve_field("hier/Sq", "count")
        .expect("resolve")
        .expect("found");
    assert!(r.field.is_static);
    assert!(h
        .resolve_field("hier/Sq", "zzz")
        .expect("resolve")
        .is_none());
}

#[test]
fn method_resolution_and_dispatch() {
    let h = hierarchy();
    let m = h
        .resolve_method("hier/Unit", "area", "()I")
        .expect("resolve")
        .expect("found");
    assert_eq!(m.method().class, "hier/Sq");
    let m = h
        .dispatch_virtual("hier/Circ", "sides", "()I")
        .expect("dispatch")
        .expect("default");
    assert_eq!(m.method().class, "hier/Shape");
    let m = h
        .dispatch_virtual("hier/Unit", "sides", "()I")
        .expect("dispatch")
        .expect("found");
    assert_eq!(m.method().class, "hier/Sq");
    let m = h
        .resolve_method("hier/Base", "area", "()I")
        .expect("resolve")
        .expect("abstract");
    assert!(m.method().is_abstract);
    assert!(h
        .dispatch_virtual("hier/Circ", "nope", "()V")
        .expect("dispatch")
        .is_none());
    let m = h
        .dispatch_virtual("hier/Unit", "<init>", "()V")
        .expect("dispatch")
        .expect("ctor");
    assert_eq!(m.method().class, "hier/Unit");
    assert!(h
        .resolve_method("java/lang/Object", "hashCode", "()I")
        .expect("builtin")
        .is_none());
}

#[test]
fn truncated_and_flipped_class_files_never_panic() {
    let bytes = std::fs::read(fixtures().join("List.class")).expect("read List.class");
    assert!(parse_class(&bytes).is_ok());
    for len in 0..bytes.len() {
        assert!(
            parse_class(&bytes[..len]).is_err(),
            "prefix of length {len} accepted"
        );
    }
    // Deterministic pseudo-random byte flips (xorshift), several per mutant.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..3000 {
        let mut m = bytes.clone();
        let flips = 1 + next() % 4;
        for _ in 0..flips {
            let at = (next() % m.len() as u64) as usize;
            m[at] ^= 1 << (next() % 8);
        }
        let _ = parse_class(&m);
    }
    let opcodes = std::fs::read(fixtures().join("decode/Opcodes.class")).expect("read Opcodes");
    for len in (0..opcodes.len()).step_by(7) {
        let _ = parse_class(&opcodes[..len]);
    }
    for i in 0..opcodes.len() {
        let mut m = opcodes.clone();
        m[i] = m[i].wrapping_add(0x41);
        let _ = parse_class(&m);
    }
}

#[test]
fn named_classes_are_the_transitive_references_of_the_entry_class() {
    let prog = jtg_engine::Program::new(ClassPath::from_paths(&[fixtures()]).expect("classpath"));
    let types = prog.named_classes("Types");
    // Types names itself (field types, casts); java/lang/Object is not on the class path
    assert!(types.contains("Types"), "{types:?}");
    assert!(!types.contains("decode/Opcodes"), "{types:?}");
    assert!(!types.contains("List"), "{types:?}");
    // Tree.size's class names its own node class and nothing of the other fixtures
    let tree = prog.named_classes("Tree");
    assert!(tree.contains("Tree"), "{tree:?}");
    assert!(!tree.contains("Types"), "{tree:?}");
    // a missing entry class names nothing
    assert!(prog.named_classes("NoSuchClass").is_empty());
}

#[test]
fn proper_subtypes_of_arrays_follow_their_elements() {
    let h = hierarchy();
    for (t, want) in [
        ("[I", false),
        ("[[I", false),
        ("[Lhier/Unit;", false),
        ("[Lhier/Sq;", true),
        ("[[Lhier/Shape;", true),
        ("hier/Unit", false),
        ("hier/Base", true),
    ] {
        assert_eq!(h.has_proper_subtype(t).expect(t), want, "{t}");
    }
}

/// Rapid type analysis from `Rta.main`: the classes its code makes, the methods their
/// dispatch selects, and not the class that only unreached code makes.
#[test]
fn rapid_type_analysis_follows_reachable_code() {
    use jtg_engine::class::rapid_type_analysis;
    use std::collections::BTreeSet;
    let h = hierarchy();
    let main = (
        "Rta".to_string(),
        "main".to_string(),
        "([Ljava/lang/String;)V".to_string(),
    );
    let r = rapid_type_analysis(&h, &[main], &BTreeSet::new());
    let classes: Vec<&str> = r.classes.iter().map(String::as_str).collect();
    assert_eq!(classes, ["Rta$Dec", "Rta$Half", "Rta$Node"]);
    let methods: BTreeSet<(&str, &str)> = r
        .methods
        .iter()
        .map(|(c, n, _)| (c.as_str(), n.as_str()))
        .collect();
    for m in [
        ("Rta", "main"),
        ("Rta", "run"),
        ("Rta$Dec", "apply"),
        ("Rta$Half", "apply"),
        ("Rta$Node", "<init>"),
    ] {
        assert!(methods.contains(&m), "{m:?} reached: {methods:?}");
    }
    assert!(!methods.contains(&("Rta$Grow", "apply")));
    assert!(!methods.contains(&("Rta", "grow")));
    // a seed's methods are dispatched to like those of a class the code makes
    let seeded = rapid_type_analysis(
        &h,
        &[(
            "Rta".to_string(),
            "run".to_string(),
            "(LRta$Node;I)I".to_string(),
        )],
        &BTreeSet::from(["Rta$Grow".to_string()]),
    );
    assert_eq!(
        seeded.classes,
        BTreeSet::from(["Rta$Grow".to_string()]),
        "run makes nothing"
    );
    assert!(seeded
        .methods
        .iter()
        .any(|(c, n, _)| c == "Rta$Grow" && n == "apply"));
    assert!(!seeded.methods.iter().any(|(c, _, _)| c == "Rta$Dec"));
}

/// The classes whose initialization a run starts: its own `new`s and static accesses, and
/// what their initializers start; not a seed's class, whose object exists already, nor what
/// a seed's initializer reaches.
#[test]
fn rapid_type_analysis_tells_the_initializations_a_run_starts() {
    use jtg_engine::class::rapid_type_analysis;
    use std::collections::BTreeSet;
    let h = hierarchy();
    let key = |c: &str, n: &str, d: &str| (c.to_string(), n.to_string(), d.to_string());
    // SpinInit.touch reads Spinner.f: Spinner is triggered; a seed Squares is not
    let r = rapid_type_analysis(
        &h,
        &[key("SpinInit", "touch", "(I)I")],
        &BTreeSet::from(["Squares".to_string()]),
    );
    assert!(r.triggered.contains("Spinner") && r.triggered.contains("SpinInit"));
    assert!(!r.triggered.contains("Squares"), "{:?}", r.triggered);
    // Squares' initializer (reached for the seed) accesses its own statics: still not
    // triggered, though its code is reachable
    assert!(r.methods.contains(&key("Squares", "<clinit>", "()V")));
    // SpinInit.square reads Squares.table: now it is
    let r = rapid_type_analysis(&h, &[key("SpinInit", "square", "(I)I")], &BTreeSet::new());
    assert!(r.triggered.contains("Squares") && r.triggered.contains("java/lang/Object"));
    assert!(!r.triggered.contains("Spinner"));
}

/// The world of a run: only what `main` makes (and the JDK's classes) for the start of
/// `main(String[])`; every class the declared parameter types admit for another method, as
/// the checker's generator draws them.
#[test]
fn program_world_of_main_and_of_a_method_with_inputs() {
    use jtg_engine::state::IntSemantics;
    use jtg_engine::Program;
    let prog = Program::new(classpath());
    let start_of = |spec: &str| {
        let m = prog.find_method(spec).expect("method");
        prog.default_start(&m, IntSemantics::Unbounded)
            .expect("start")
    };
    let main = prog.world(&start_of("Rta.main"));
    assert!(main.contains("Rta$Dec") && main.contains("Rta$Half"));
    assert!(main.contains("java/lang/String"));
    assert!(
        !main.contains("Rta$Grow"),
        "nothing main reaches makes a Grow"
    );
    assert!(!main.contains("List"), "another fixture's class");
    let run = prog.world(&start_of("Rta.run"));
    for c in ["Rta$Dec", "Rta$Half", "Rta$Grow", "Rta$Node"] {
        assert!(run.contains(c), "{c} is an input class of run");
    }
}

/// Field type sets (the world's narrowed fields): from `Xta.main`, only keys are stored into
/// `Cell.item`, so an item realized from a list is a `Key(…)`; `Xta.has` may be given cells
/// holding anything, so its world narrows no field of an input class.
#[test]
fn field_types_narrow_fields_to_what_the_run_stores() {
    use jtg_engine::class::FieldType;
    use jtg_engine::state::IntSemantics;
    use jtg_engine::Program;
    let prog = Program::new(classpath());
    let start_of = |spec: &str| {
        let m = prog.find_method(spec).expect("method");
        prog.default_start(&m, IntSemantics::Unbounded)
            .expect("start")
    };
    let item = FieldType::Object("Xta$Item".into());
    let main = prog.world(&start_of("Xta.main"));
    let narrowed: Vec<_> = main.narrowed_fields().collect();
    assert!(
        narrowed.contains(&(
            &("Xta$Cell".to_string(), "item".to_string()),
            &"Xta$Key".to_string()
        )),
        "{narrowed:?}"
    );
    assert_eq!(
        main.field_type("Xta$Cell", "item", &item),
        FieldType::Object("Xta$Key".into())
    );
    assert!(
        main.contains("Xta$Bag"),
        "main makes bags: dispatch alone keeps Bag.same"
    );
    let has = prog.world(&start_of("Xta.has"));
    assert_eq!(has.field_type("Xta$Cell", "item", &item), item);
    assert_eq!(has.narrowed_fields().count(), 0);
}

/// The variable type analysis itself: one set per variable, so `Bag.add`'s argument (keys
/// only) and its receiver (a bag) stay apart even with unknown entry parameters; a field that
/// inputs may fill holds any class; `Cell.next` holds cells only.
#[test]
fn field_types_keep_variables_apart_and_inputs_unknown() {
    use jtg_engine::class::{field_types, rapid_type_analysis, FlowSeeds};
    use std::collections::BTreeSet;
    let h = hierarchy();
    let main = (
        "Xta".to_string(),
        "main".to_string(),
        "([Ljava/lang/String;)V".to_string(),
    );
    let rta = rapid_type_analysis(&h, std::slice::from_ref(&main), &BTreeSet::new());
    let item = ("Xta$Cell".to_string(), "item".to_string());
    let next = ("Xta$Cell".to_string(), "next".to_string());
    let unknown_args = FlowSeeds {
        params: vec![(main, 0, None)],
        array_elems: None,
        unknown_fields: BTreeSet::new(),
        unknown_statics: true,
    };
    let t = field_types(&h, &rta.methods, &rta.classes, &unknown_args);
    assert!(t.complete);
    let keys: BTreeSet<String> = ["Xta$Key".to_string()].into();
    assert_eq!(t.of(&item), Some(&keys));
    let cells: BTreeSet<String> = ["Xta$Cell".to_string()].into();
    assert_eq!(t.of(&next), Some(&cells));
    let item_input = FlowSeeds {
        unknown_fields: [item.clone()].into(),
        ..unknown_args
    };
    let t = field_types(&h, &rta.methods, &rta.classes, &item_input);
    assert_eq!(t.of(&item), None, "an input may hold any item");
    assert_eq!(t.of(&next), Some(&cells));
}

/// Class initializers that end by their shape: straight-line code calling only such code or
/// JDK methods that run no program code; a loop (even one that ends) or a spin is not shown.
#[test]
fn loop_free_initializers() {
    let h = hierarchy();
    let trusted = |r: &jtg_engine::class::MethodRef| {
        jtg_engine::models::ends_without_program_code(&r.class, &r.name, &r.desc_str)
    };
    let clinit = |c: &str| (c.to_string(), "<clinit>".to_string(), "()V".to_string());
    // an enum's constants and `$VALUES` (its constructor calls `Enum.<init>`)
    assert!(jtg_engine::class::loop_free(
        &h,
        &clinit("everyday/Color"),
        &trusted
    ));
    // `static { while (a == 0) f++; }` and a table filled in a loop
    assert!(!jtg_engine::class::loop_free(
        &h,
        &clinit("Spinner"),
        &trusted
    ));
    assert!(!jtg_engine::class::loop_free(
        &h,
        &clinit("Squares"),
        &trusted
    ));
    // without trusting `Enum.<init>`, the enum's constructor is not shown to end
    assert!(!jtg_engine::class::loop_free(
        &h,
        &clinit("everyday/Color"),
        &|_| false
    ));
}
