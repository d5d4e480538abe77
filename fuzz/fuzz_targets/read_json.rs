//! The JSON graph reader on arbitrary text, with the fixtures' local names; a graph that reads
//! must render and read back.
#![no_main]

mod common;

use jtg_engine::render::json::{read, render};
use jtg_engine::Program;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

static PROGRAM: OnceLock<Program> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let prog = PROGRAM.get_or_init(common::fixture_program);
    if let Ok(g) = read(text, prog) {
        let out = render(&g, prog);
        if let Err(e) = read(&out, prog) {
            panic!("rendered graph does not read back: {e}\n{out}");
        }
    }
});
