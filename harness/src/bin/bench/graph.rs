//! Graph-construction benchmark: for every fixture-suite entry (java-fixtures/suite.txt) the
//! median construction time over repeated builds and the node count, in both integer
//! semantics.

use jtg_engine::class::ClassPath;
use jtg_engine::state::text::{parse_state, TextContext};
use jtg_engine::state::IntSemantics;
use jtg_engine::{build_graph, Options, Program};
use std::path::Path;
use std::time::Instant;

pub fn run(fixtures: &Path, repo: &Path, repeats: usize) -> Result<(), String> {
    let suite = std::fs::read_to_string(repo.join("java-fixtures/suite.txt"))
        .map_err(|e| format!("java-fixtures/suite.txt: {e}"))?;
    let prog =
        Program::new(ClassPath::from_paths(&[fixtures.to_path_buf()]).map_err(|e| e.to_string())?);
    println!("\n== graph construction (median of {repeats} builds)");
    println!(
        "{:<48} {:>9} {:>7} {:>9} {:>7}",
        "graph", "unbounded", "nodes", "java", "nodes"
    );
    let mut total = [0f64; 2];
    for line in suite
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
    {
        if line.is_empty() {
            continue;
        }
        let mut parts = line.split_whitespace();
        let (Some(method), start) = (parts.next(), parts.next()) else {
            continue;
        };
        let m = prog.find_method(method).map_err(|e| e.to_string())?;
        let mut cells = Vec::new();
        for (k, ints) in [IntSemantics::Unbounded, IntSemantics::Java]
            .into_iter()
            .enumerate()
        {
            let st = match start {
                None => prog.default_start(&m, ints).map_err(|e| e.to_string())?,
                Some(f) => {
                    let text = std::fs::read_to_string(repo.join("java-fixtures/start").join(f))
                        .map_err(|e| format!("{f}: {e}"))?;
                    parse_state(&text, &TextContext::for_method(m.clone(), &prog))
                        .map_err(|e| e.to_string())?
                }
            };
            let opts = Options {
                ints,
                ..Options::default()
            };
            let mut times = Vec::with_capacity(repeats);
            let mut nodes = 0;
            for _ in 0..repeats {
                let t = Instant::now();
                let g = build_graph(&prog, &m, st.clone(), &opts)
                    .map_err(|f| format!("{method}: {f:?}"))?;
                times.push(t.elapsed().as_secs_f64() * 1e3);
                nodes = g.nodes.len();
            }
            let med = super::median(times);
            total[k] += med;
            cells.push(format!("{med:>7.2}ms {nodes:>7}"));
        }
        let name = match start {
            Some(f) => format!("{method} [{}]", f.trim_end_matches(".state")),
            None => method.to_string(),
        };
        println!("{name:<48} {}", cells.join(" "));
    }
    println!(
        "{:<48} {:>7.2}ms {:>7} {:>7.2}ms",
        "total", total[0], "", total[1]
    );
    Ok(())
}
