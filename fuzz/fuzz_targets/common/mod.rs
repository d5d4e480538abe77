//! Shared by the text targets: the fixture classes, compiled into the target (`make fixtures`
//! first), so that local-variable names in states (`this`, `x`, `cur`) resolve as in `jtg`.

use jtg_engine::class::ClassPath;
use jtg_engine::Program;

macro_rules! fixture {
    ($name:literal) => {
        (
            $name.to_string(),
            include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../build/fixtures/",
                $name,
                ".class"
            ))
            .to_vec(),
        )
    };
}

/// A program of the fixture classes, held in memory.
pub fn fixture_program() -> Program {
    Program::new(ClassPath::from_classes(vec![
        fixture!("List"),
        fixture!("ListOps"),
        fixture!("IntLoops"),
        fixture!("Ring"),
        fixture!("Tree"),
        fixture!("Throws"),
        fixture!("Loop"),
        fixture!("Mutate"),
        fixture!("Switch"),
        fixture!("Inputs"),
    ]))
}
