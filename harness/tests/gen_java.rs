//! `jtg gen --format java`: the factories compile with javac and, run in a JVM, build object
//! graphs of the samples' shapes (classes, field values, sharing and cycles), compared by a
//! canonical walk done in Java on the built objects and in Rust on the samples `jtg gen
//! --format json` prints for the same seed.

mod common;
use common::fixtures;

use jtg_check::concrete::{arg_slots, state_to_input};
use jtg_engine::class::ClassPath;
use jtg_engine::state::text::{parse_state, TextContext};
use jtg_engine::Program;
use jtg_jvm::{CObject, CValue, ConcreteInput, ObjId};
use std::collections::{BTreeMap, VecDeque};
use std::path::Path;
use std::process::Command;

/// The walk: objects numbered by first visit from the arguments (breadth first), one line
/// per object: class and fields by name, references as `#k`.
fn walk(input: &ConcreteInput) -> String {
    let mut num: BTreeMap<ObjId, usize> = BTreeMap::new();
    let mut order = VecDeque::new();
    let visit = |v: &CValue, num: &mut BTreeMap<ObjId, usize>, order: &mut VecDeque<ObjId>| match v
    {
        CValue::Ref(o) => {
            let n = num.len();
            let k = *num.entry(*o).or_insert_with(|| {
                order.push_back(*o);
                n
            });
            format!("#{k}")
        }
        CValue::Int(i) => i.to_string(),
        CValue::Long(l) => l.to_string(),
        _ => "null".into(),
    };
    let args: Vec<String> = input
        .args
        .iter()
        .map(|v| visit(v, &mut num, &mut order))
        .collect();
    let mut out = format!("args {}\n", args.join(" "));
    while let Some(o) = order.pop_front() {
        let line = match &input.heap[&o] {
            CObject::Instance { class, fields } => {
                let fs: Vec<String> = fields
                    .iter()
                    .map(|(k, v)| format!("{k}={}", visit(v, &mut num, &mut order)))
                    .collect();
                format!("{}({})", class.replace('/', "."), fs.join(","))
            }
            CObject::Array { elems, .. } => {
                let es: Vec<String> = elems
                    .iter()
                    .map(|v| visit(v, &mut num, &mut order))
                    .collect();
                format!("[{}]", es.join(","))
            }
            CObject::Str { len } => format!("String({len})"),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

const WALK_JAVA: &str = r##"
import java.lang.reflect.*;
import java.util.*;

public class Walk {
    static Map<Object, Integer> num = new IdentityHashMap<>();
    static ArrayDeque<Object> order = new ArrayDeque<>();

    static String visit(Object v) {
        if (v == null) return "null";
        if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) return v.toString();
        if (v instanceof Character) return Integer.toString((Character) v);
        if (v instanceof Boolean) return ((Boolean) v) ? "1" : "0";
        Integer k = num.get(v);
        if (k == null) { k = num.size(); num.put(v, k); order.add(v); }
        return "#" + k;
    }

    public static void main(String[] a) throws Exception {
        for (Object[] args : JtgSamples.all()) {
            num.clear();
            StringBuilder sb = new StringBuilder("args");
            for (Object x : args) sb.append(' ').append(visit(x));
            System.out.println(sb);
            while (!order.isEmpty()) {
                Object o = order.poll();
                if (o instanceof String) { System.out.println("String(" + ((String) o).length() + ")"); continue; }
                if (o.getClass().isArray()) {
                    java.util.List<String> es = new ArrayList<>();
                    for (int i = 0; i < Array.getLength(o); i++) es.add(visit(Array.get(o, i)));
                    System.out.println("[" + String.join(",", es) + "]");
                    continue;
                }
                TreeMap<String, Field> fs = new TreeMap<>();
                for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass())
                    for (Field f : c.getDeclaredFields())
                        if (!Modifier.isStatic(f.getModifiers())) fs.putIfAbsent(f.getName(), f);
                java.util.List<String> parts = new ArrayList<>();
                for (Map.Entry<String, Field> e : fs.entrySet()) {
                    e.getValue().setAccessible(true);
                    parts.add(e.getKey() + "=" + visit(e.getValue().get(o)));
                }
                System.out.println(o.getClass().getName() + "(" + String.join(",", parts) + ")");
            }
            System.out.println("--");
        }
    }
}
"##;

fn jtg(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_jtg"))
        .args(args)
        .output()
        .expect("run jtg");
    assert_eq!(
        out.status.code(),
        Some(0),
        "jtg {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

fn run_java(dir: &Path, fx: &str, source: &str) -> String {
    std::fs::write(dir.join("JtgSamples.java"), source).expect("write");
    std::fs::write(dir.join("Walk.java"), WALK_JAVA).expect("write");
    let cp = format!("{fx}:{}", dir.display());
    let javac = Command::new("javac")
        .args(["-nowarn", "-cp", &cp, "-d"])
        .arg(dir)
        .arg(dir.join("JtgSamples.java"))
        .arg(dir.join("Walk.java"))
        .output()
        .expect("javac");
    assert!(
        javac.status.success(),
        "javac: {}",
        String::from_utf8_lossy(&javac.stderr)
    );
    let java = Command::new("java")
        .args(["-cp", &cp, "Walk"])
        .output()
        .expect("java");
    assert!(
        java.status.success(),
        "java: {}",
        String::from_utf8_lossy(&java.stderr)
    );
    String::from_utf8(java.stdout).expect("utf-8")
}

#[test]
fn the_factories_build_the_samples_shapes() {
    let fx = fixtures();
    let fxs = fx.to_str().expect("utf-8 path");
    let prog = Program::new(ClassPath::from_paths(std::slice::from_ref(&fx)).expect("class path"));
    let cyclic = fx
        .join("../../java-fixtures/start/List.contains.cyclic.state")
        .to_str()
        .expect("utf-8 path")
        .to_string();
    let cases: [(&str, Vec<&str>); 2] = [
        ("List.contains", vec!["--start", &cyclic]),
        ("List.contains", vec![]),
    ];
    let mut cycles = 0;
    for (k, (method, extra)) in cases.iter().enumerate() {
        let dir = std::env::temp_dir().join(format!("jtg-gen-java-{}-{k}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let base = [&["gen", fxs, method, "-n", "12", "--seed", "3"][..], extra].concat();
        let source = jtg(&[&base[..], &["--format", "java"]].concat());
        let texts: Vec<String> =
            serde_json::from_str(&jtg(&[&base[..], &["--format", "json"]].concat())).expect("json");
        let m = prog.find_method(method).expect("method");
        let slots = arg_slots(
            prog.method(&m).expect("m").is_static,
            &prog.method(&m).expect("m").desc.params,
        );
        let ctx = TextContext::for_method(m.clone(), &prog);
        let mut expected = String::new();
        for t in &texts {
            let st = parse_state(t, &ctx).expect("sample text");
            let w = walk(&state_to_input(&st, &slots).expect("input"));
            // a cycle: some object line names an object of a smaller number
            if w.lines().skip(1).enumerate().any(|(i, l)| {
                l.split(['=', ',', ')', '('])
                    .filter_map(|x| x.strip_prefix('#'))
                    .any(|n| n.parse::<usize>().is_ok_and(|n| n <= i))
            }) {
                cycles += 1;
            }
            expected.push_str(&w);
            expected.push_str("--\n");
        }
        assert_eq!(run_java(&dir, fxs, &source), expected, "{method} {extra:?}");
        std::fs::remove_dir_all(&dir).ok();
    }
    assert!(cycles > 0, "some sample has a cycle");
}
