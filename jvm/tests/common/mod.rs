//! Shared helpers of the JVM side's integration tests.

use jtg_jvm::{
    trace_method, CHeap, CObject, CValue, ConcreteInput, JvmError, ObjId, Trace, TraceOptions,
};
use std::collections::BTreeMap;

pub use jtg_testkit::fixtures;

/// Traces `class.method` on the fixtures.
#[allow(dead_code)]
pub fn run(
    class: &str,
    method: &str,
    desc: &str,
    input: &ConcreteInput,
    opts: &TraceOptions,
) -> Result<Trace, JvmError> {
    trace_method(&[fixtures()], class, method, desc, input, opts)
}

/// A linked list of `class` objects with the given values; `cycle_to` links the last node back.
#[allow(dead_code)]
pub fn list(class: &str, vals: &[i32], cycle_to: Option<usize>) -> CHeap {
    let mut heap = CHeap::new();
    for (i, v) in vals.iter().enumerate() {
        let next = if i + 1 < vals.len() {
            CValue::Ref(ObjId(i as u32 + 2))
        } else {
            cycle_to.map_or(CValue::Null, |t| CValue::Ref(ObjId(t as u32 + 1)))
        };
        let fields = BTreeMap::from([
            ("val".to_string(), CValue::Int(*v)),
            ("next".to_string(), next),
        ]);
        heap.insert(
            ObjId(i as u32 + 1),
            CObject::Instance {
                class: class.into(),
                fields,
            },
        );
    }
    heap
}

#[allow(dead_code)]
pub fn field(heap: &CHeap, v: CValue, name: &str) -> CValue {
    let CValue::Ref(id) = v else {
        panic!("{v:?} is not a reference")
    };
    match &heap[&id] {
        CObject::Instance { fields, .. } => fields[name],
        o => panic!("{o:?} has no fields"),
    }
}

/// The first step of `t` at pc `pc` of `class.method`.
#[allow(dead_code)]
pub fn first_at(t: &Trace, class: &str, method: &str, pc: u32) -> usize {
    (0..t.len())
        .find(|&i| t.position(i) == (class, method, pc))
        .unwrap_or_else(|| panic!("{class}.{method} pc {pc} never runs"))
}

#[allow(dead_code)]
pub fn pcs(t: &Trace) -> Vec<u32> {
    (0..t.len()).map(|i| t.position(i).2).collect()
}

/// Writes a jar at `jar` that holds the fixtures' `List.class`.
#[allow(dead_code)]
pub fn jar_with_list(jar: &std::path::Path) {
    let mut w = zip::ZipWriter::new(std::fs::File::create(jar).expect("jar"));
    w.start_file("List.class", zip::write::SimpleFileOptions::default())
        .expect("zip entry");
    std::io::Write::write_all(
        &mut w,
        &std::fs::read(fixtures().join("List.class")).expect("List.class"),
    )
    .expect("zip");
    w.finish().expect("zip");
}
