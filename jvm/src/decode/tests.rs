//! Unit tests of the decoder on hand-written buffers.

use std::sync::Arc;

use super::methods::MethodMeta;
use super::wire::{header_at, K_INSTANCE, K_INT, K_LONG, K_REF, T_REF, WIDE};
use super::{decode as decode_raw, Raw, TraceData};
use crate::values::{CStatics, CValue, ObjId, StaticKey};

const OP_GETSTATIC: u8 = 0xb2;
const OP_PUTSTATIC: u8 = 0xb3;

#[test]
fn step_headers_pack_method_and_pc_or_escape_wide_method_ids() {
    // mid 3, pc 17, depth 2, then one value; mid 0x8001 packs into a negative int
    let buf = [3 << 16 | 17, 2, 42, (0x8001u32 << 16 | 5) as i32, 1];
    assert_eq!(header_at(&buf, 0), Some((3, 17, 2, 2)));
    assert_eq!(header_at(&buf, 3), Some((0x8001, 5, 1, 5)));
    // a method id above 16 bits: -1, mid, pc, depth
    let wide = [WIDE, 70_000, 65_534, 4, 7];
    assert_eq!(header_at(&wide, 0), Some((70_000, 65_534, 4, 4)));
    assert_eq!(header_at(&wide[..3], 0), None);
    assert_eq!(header_at(&buf[..1], 0), None);
}

const OP_POP: i32 = 0x57;
const OP_RETURN: i32 = 0xb1;
const OP_INVOKESTATIC: i32 = 0xb8;
const OP_ICONST_0: i32 = 0x03;

/// One method from `(pc, opcode, aux, stack kinds top first)` rows (no locals).
fn method(name: &str, rows: &[(i32, i32, i32, &[i32])], strings: &[String]) -> MethodMeta {
    let mut info = vec![0, rows.len() as i32];
    for &(pc, op, aux, _) in rows {
        info.extend([pc, op, aux]);
    }
    for &(pc, _, _, stack) in rows {
        info.extend([pc, 0, stack.len() as i32]);
        info.extend(stack);
    }
    MethodMeta::parse(name, &info, strings).expect("method info")
}

fn strings(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

/// Decodes `steps` (method id, pc, depth, values) over `methods`, with heap log `heap`.
fn decode(
    methods: Vec<MethodMeta>,
    steps: &[(i32, i32, i32, &[i32])],
    heap: &[i32],
    strings: &[String],
) -> TraceData {
    let mut trace = Vec::new();
    for &(mid, pc, depth, vals) in steps {
        trace.extend([mid << 16 | pc, depth]);
        trace.extend(vals);
    }
    let (data, _) = decode_raw(Raw {
        trace,
        heap: heap.to_vec(),
        snapshots: vec![],
        statics: vec![],
        strings,
        methods: Arc::new(methods.into_iter().map(Arc::new).collect()),
    })
    .expect("decode");
    data
}

fn key(c: &str, n: &str) -> StaticKey {
    StaticKey::new(c, n)
}

/// `getstatic` makes a field known from the next step on with the value on that step's
/// stack (a long as one value); `putstatic` sets it to its recorded operand (a boolean
/// narrowed as the JVM does); a reference static's objects are reachable at a step whose
/// frames do not hold them; only changes of the known statics change the heap version.
#[test]
fn statics_are_known_from_their_first_access() {
    let st = strings(&["T.x:I", "T.big:J", "T.flag:Z", "T.o:LT;", "T", "next"]);
    let m = method(
        "T m ()V",
        &[
            (0, OP_GETSTATIC as i32, 0, &[]),
            (3, OP_GETSTATIC as i32, 0, &[K_INT]),
            (6, OP_PUTSTATIC as i32, 2, &[K_INT, K_INT]),
            (9, OP_GETSTATIC as i32, 1, &[K_INT]),
            (12, OP_PUTSTATIC as i32, 1, &[K_LONG, K_INT]),
            (15, OP_GETSTATIC as i32, 3, &[K_INT]),
            (18, OP_POP, -1, &[K_REF, K_INT]),
            (19, OP_RETURN, -1, &[K_INT]),
        ],
        &st,
    );
    let big = -5_000_000_000i64;
    let steps: [(i32, i32, i32, &[i32]); 8] = [
        (0, 0, 1, &[]),
        (0, 3, 1, &[6]),
        (0, 6, 1, &[6, 6]),
        (0, 9, 1, &[7]),
        (0, 12, 1, &[(big >> 32) as i32, big as i32, 7]),
        (0, 15, 1, &[7]),
        (0, 18, 1, &[1, 7]),
        (0, 19, 1, &[7]),
    ];
    // objects 1 and 2 (1.next = 2), first seen at step 6
    let heap = [
        6, 1, 4, K_INSTANCE, 1, 5, T_REF, 2, //
        6, 2, 4, K_INSTANCE, 1, 5, T_REF, 0,
    ];
    let d = decode(vec![m], &steps, &heap, &st);
    assert!(d.statics_at(0).is_empty());
    // the read of step 0 and the repeated read of step 1 (no change)
    assert_eq!(
        d.statics_at(1),
        CStatics::from([(key("T", "x"), CValue::Int(6))])
    );
    assert_eq!(d.heap_version(1), 1);
    assert_eq!(d.heap_version(2), 1);
    // 6 into a boolean is 0
    assert_eq!(
        d.statics_at(3).get(&key("T", "flag")),
        Some(&CValue::Int(0))
    );
    assert_eq!(
        d.statics_at(4).get(&key("T", "big")),
        Some(&CValue::Long(big))
    );
    assert_eq!(
        d.statics_at(5).get(&key("T", "big")),
        Some(&CValue::Long(big))
    );
    assert_eq!(
        d.heap_version(5),
        3,
        "the put of the value read changes nothing"
    );
    let at7 = d.statics_at(7);
    assert_eq!(at7.get(&key("T", "o")), Some(&CValue::Ref(ObjId(1))));
    assert_eq!(at7.len(), 4);
    // step 7's frame holds no reference: the objects are the static's
    let (frames, _) = d.frames(7);
    let h = d.reachable_heap(7, &frames);
    assert_eq!(h.keys().copied().collect::<Vec<_>>(), [ObjId(1), ObjId(2)]);
    assert_eq!(d.heap_version(7), 4);
}

/// One field named through two classes is two keys until resolved, then one; a read that
/// disagrees with the replayed value (a write the tracer did not see) makes the field
/// unknown from the step after the last access that showed the old value up to the read.
#[test]
fn statics_resolve_to_one_key_and_unseen_writes_forget() {
    let st = strings(&["Sub.x:I", "T.x:I"]);
    let m = method(
        "T m ()V",
        &[
            (0, OP_GETSTATIC as i32, 0, &[]),
            (3, OP_POP, -1, &[K_INT]),
            (4, OP_ICONST_0, -1, &[]),
            (5, OP_PUTSTATIC as i32, 1, &[K_INT]),
            (8, OP_GETSTATIC as i32, 1, &[]),
            (11, OP_POP, -1, &[K_INT]),
            (12, OP_ICONST_0, -1, &[]),
            (13, OP_POP, -1, &[K_INT]),
            (14, OP_GETSTATIC as i32, 0, &[]),
            (17, OP_RETURN, -1, &[K_INT]),
        ],
        &st,
    );
    let steps: [(i32, i32, i32, &[i32]); 10] = [
        (0, 0, 1, &[]),
        (0, 3, 1, &[4]),
        (0, 4, 1, &[]),
        (0, 5, 1, &[8]),
        (0, 8, 1, &[]),
        (0, 11, 1, &[8]),
        (0, 12, 1, &[]),
        (0, 13, 1, &[0]),
        (0, 14, 1, &[]),
        (0, 17, 1, &[3]),
    ];
    let mut d = decode(vec![m], &steps, &[], &st);
    // unresolved, two fields: `Sub.x` read 4 then 3 (unknown in between)
    assert_eq!(d.statics_at(1).get(&key("Sub", "x")), Some(&CValue::Int(4)));
    assert_eq!(
        d.statics_at(5),
        CStatics::from([(key("T", "x"), CValue::Int(8))])
    );
    assert_eq!(d.statics_at(9).get(&key("Sub", "x")), Some(&CValue::Int(3)));
    d.resolve_statics(&|_, name| key("T", name));
    let x = |d: &TraceData, i| d.statics_at(i).get(&key("T", "x")).copied();
    assert_eq!(d.statics_at(2).len(), 1);
    assert_eq!(x(&d, 1), Some(CValue::Int(4)));
    assert_eq!(x(&d, 4), Some(CValue::Int(8)));
    // 8 last shown at step 5, 3 read at step 9: unknown in between
    assert_eq!(x(&d, 5), Some(CValue::Int(8)));
    for i in 6..9 {
        assert_eq!(x(&d, i), None, "step {i}");
    }
    assert_eq!(x(&d, 9), Some(CValue::Int(3)));
    let versions: Vec<u32> = (0..10).map(|i| d.heap_version(i)).collect();
    assert_eq!(versions, [0, 1, 1, 1, 2, 2, 3, 3, 3, 4]);
}

/// An access completes at the next step of its frame: steps of frames above in between
/// (a class initialiser's calls) do not see it; an access whose frame continues elsewhere
/// (a handler: it threw) is no access.
#[test]
fn static_accesses_complete_in_their_frame() {
    let st = strings(&["T.x:I", "T.y:I"]);
    let m = method(
        "T m ()V",
        &[
            (0, OP_GETSTATIC as i32, 0, &[]),
            (3, OP_GETSTATIC as i32, 1, &[K_INT]),
            (6, OP_POP, -1, &[K_INT, K_INT]),
            (20, OP_RETURN, -1, &[K_REF]),
        ],
        &st,
    );
    let init = method("T helper ()V", &[(0, OP_INVOKESTATIC, 0, &[])], &st);
    let steps: [(i32, i32, i32, &[i32]); 5] = [
        (0, 0, 1, &[]),
        // a method the initialiser calls, above the getstatic
        (1, 0, 2, &[]),
        (0, 3, 1, &[5]),
        // getstatic T.y threw: the handler at pc 20
        (0, 20, 1, &[0]),
        (0, 20, 1, &[0]),
    ];
    let d = decode(vec![m, init], &steps, &[], &st);
    assert!(d.statics_at(1).is_empty());
    assert_eq!(
        d.statics_at(2),
        CStatics::from([(key("T", "x"), CValue::Int(5))])
    );
    assert_eq!(d.statics_at(4).len(), 1);
}
