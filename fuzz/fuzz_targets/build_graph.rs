//! Graph construction on mutated class files: the input is loaded as a class (any name it
//! declares), and the graph of each of its methods is built from the default start state
//! with a budget of 200 nodes. Any `Err` is fine; a panic or a hang is a finding.
#![no_main]

use jtg_engine::class::{parse_class, ClassPath};
use jtg_engine::state::MethodId;
use jtg_engine::{build_graph, Options, Program};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Parse once to learn the declared name; the class path parses again on load.
    let Ok(class) = parse_class(data) else {
        return;
    };
    let prog = Program::new(ClassPath::from_classes(vec![(
        class.name.clone(),
        data.to_vec(),
    )]));
    let opts = Options {
        max_nodes: 200,
        ..Options::default()
    };
    for m in class.methods.iter().take(8) {
        let id = MethodId::new(&class.name, &m.name, &m.desc_str);
        let Ok(start) = prog.default_start(&id, opts.ints) else {
            continue;
        };
        let _ = build_graph(&prog, &id, start, &opts);
    }
});
