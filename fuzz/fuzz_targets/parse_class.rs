//! Class-file parsing and bytecode decoding: `parse_class` on arbitrary bytes (it decodes the
//! code of every method), then everything a graph construction asks of a parsed method:
//! descriptor, instruction lookup by pc, local names, liveness. Errors are fine; a panic,
//! a hang or a run-away allocation is a finding.
#![no_main]

use jtg_engine::class::{decode_code, parse_class, ConstantPool, MethodDescriptor};
use jtg_engine::class::Liveness;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The decoder alone on raw bytecode, with an empty constant pool.
    let _ = decode_code(data, &ConstantPool::new(&[]));
    let Ok(class) = parse_class(data) else {
        return;
    };
    for m in &class.methods {
        let _ = MethodDescriptor::parse(&m.desc_str);
        let _ = class.method(&m.name, Some(&m.desc_str));
        let Some(code) = &m.code else { continue };
        let live = Liveness::of(code);
        for &(pc, _) in &code.insns {
            assert!(code.at(pc).is_some());
            let _ = code.next_pc(pc);
            for slot in 0..usize::from(code.max_locals).min(16) {
                let _ = live.is_live(pc, slot);
                let _ = code.local_name(slot as u16, pc);
            }
        }
    }
});
