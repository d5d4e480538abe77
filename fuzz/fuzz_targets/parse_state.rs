//! The state text parser on arbitrary text, plain (locals `l<n>` only) and in the context of a
//! fixture method with the fixtures' local names; a parsed state must print and parse back.
#![no_main]

mod common;

use jtg_engine::state::text::{parse_state, print_state, TextContext};
use jtg_engine::state::MethodId;
use jtg_engine::Program;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

static PROGRAM: OnceLock<Program> = OnceLock::new();

fn round_trip(text: &str, ctx: &TextContext<'_>) {
    if let Ok(st) = parse_state(text, ctx) {
        let printed = print_state(&st, ctx);
        if let Err(e) = parse_state(&printed, ctx) {
            panic!("printed state does not parse back: {e}\n{printed}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    round_trip(text, &TextContext::plain());
    let prog = PROGRAM.get_or_init(common::fixture_program);
    let ctx = TextContext::for_method(MethodId::new("List", "get", "(I)I"), prog);
    round_trip(text, &ctx);
});
