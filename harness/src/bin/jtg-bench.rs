//! Tracing benchmark: `Bench.walk` over a cyclic 3-node `List` (12 bytecodes per iteration,
//! ≥ 10^6 executed instructions). Prints medians over repeated runs of: the plain run
//! (uninstrumented loader, cached like the traced one), the traced run (Java side only), the
//! overhead ratio, recorded steps per second, and the end-to-end `trace_method` time (loader,
//! input, run, pulling and decoding the buffers; classes are instrumented once per process).
//!
//! Then the graph-construction benchmark of the fixture suite (`bench/graph.rs`), the corpus
//! graphs of the 348 TPDB jars beside AProVE's (`bench/corpus.rs`), prove times on the same jars
//! (`bench/prove.rs`), the
//! checker's throughput (on materialised steps, and on the recorded trace with decoding, as
//! `jtg check` reads it), and the `jtg check` commands of the thesis examples end to end.
//!
//! Usage: `cargo run --release -p jtg-harness --bin jtg-bench -- [iterations] [repeats]`
//! (defaults 100000 and 7; fixtures from `JTG_FIXTURES` or `build/fixtures`).
//! `JTG_BENCH=trace,graph,corpus,prove,check,e2e` (any subset) runs only those sections; `e2e`
//! includes `jtg prove --check 20` on a recursion of depth 10 000 and its peak memory.

/// The engine clones and drops many small heap maps per node; jemalloc makes that markedly
/// cheaper than the system allocator (see `make bench`, corpus graphs). Its symbols are
/// prefixed, so the embedded JVM keeps the system `malloc`.
#[global_allocator]
static ALLOC: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

#[path = "bench/corpus.rs"]
mod corpus;
#[path = "bench/graph.rs"]
mod graph;
#[path = "bench/prove.rs"]
mod prove;
#[path = "bench/tpdb.rs"]
mod tpdb;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use jtg_jvm::{
    run_plain, trace_method, CHeap, CObject, CValue, ConcreteInput, ObjId, TraceEnd, TraceOptions,
};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// CPU time of the calling thread so far (Linux `/proc/thread-self/schedstat`), if readable.
fn thread_cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

/// Whether the section `name` is selected by `JTG_BENCH` (all are when it is unset).
fn section(name: &str) -> bool {
    std::env::var("JTG_BENCH").map_or(true, |v| v.split(',').any(|s| s.trim() == name))
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let iters: i32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let repeats: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(7).max(1);
    let fixtures = std::env::var_os("JTG_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../build/fixtures"));
    if !fixtures.join("Bench.class").is_file() {
        eprintln!(
            "jtg-bench: no Bench.class in {}: run `make fixtures`",
            fixtures.display()
        );
        return ExitCode::FAILURE;
    }
    if section("trace") {
        if let Err(e) = trace_bench(&fixtures, iters, repeats) {
            eprintln!("jtg-bench: {e}");
            return ExitCode::FAILURE;
        }
    }
    let cp = [fixtures];
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    if section("graph") {
        if let Err(e) = graph::run(&cp[0], &repo, repeats) {
            eprintln!("jtg-bench: graph construction: {e}");
            return ExitCode::FAILURE;
        }
    }
    if section("corpus") {
        if let Err(e) = corpus::run(&repo) {
            eprintln!("jtg-bench: corpus: {e}");
            return ExitCode::FAILURE;
        }
    }
    if section("prove") {
        if let Err(e) = prove::run(&repo) {
            eprintln!("jtg-bench: prove: {e}");
            return ExitCode::FAILURE;
        }
    }
    if section("check") {
        if let Err(e) = check_bench(&cp[0], repeats) {
            eprintln!("jtg-bench: check: {e}");
            return ExitCode::FAILURE;
        }
    }
    if section("e2e") {
        if let Err(e) = check_end_to_end(&cp[0], &repo) {
            eprintln!("jtg-bench: jtg check: {e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// The tracing benchmark (module docs).
fn trace_bench(fixtures: &std::path::Path, iters: i32, repeats: usize) -> Result<(), String> {
    let mut heap = CHeap::new();
    for i in 0..3u32 {
        let fields = BTreeMap::from([
            ("val".to_string(), CValue::Int(i as i32 + 1)),
            ("next".to_string(), CValue::Ref(ObjId((i + 1) % 3 + 1))),
        ]);
        heap.insert(
            ObjId(i + 1),
            CObject::Instance {
                class: "List".into(),
                fields,
            },
        );
    }
    let input = ConcreteInput {
        args: vec![CValue::Ref(ObjId(1)), CValue::Int(iters)],
        heap,
        ..Default::default()
    };
    let opts = TraceOptions {
        max_steps: 12 * iters as u64 + 100,
        ..TraceOptions::default()
    };
    let cp = [fixtures.to_path_buf()];
    let (mut plain, mut traced, mut total, mut decode) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut steps = 0;
    let mut cold = (0.0, 0.0);
    for r in 0..repeats + 1 {
        let p = run_plain(&cp, "Bench", "walk", "(LList;I)I", &input, &opts)
            .map_err(|e| format!("plain run failed: {e}"))?;
        let t0 = Instant::now();
        let t = trace_method(&cp, "Bench", "walk", "(LList;I)I", &input, &opts)
            .map_err(|e| format!("traced run failed: {e}"))?;
        let wall = t0.elapsed().as_secs_f64();
        if !matches!(t.end, TraceEnd::Returned(Some(_))) || t.end != p.end {
            return Err(format!(
                "traced run ended {:?}, plain run {:?}",
                t.end, p.end
            ));
        }
        // consumer side: materialise every executing frame
        let t1 = Instant::now();
        let mut acc = 0u64;
        for i in 0..t.len() {
            acc += t.top_frame(i).pc as u64;
        }
        std::hint::black_box(acc);
        let frames = t1.elapsed().as_secs_f64();
        steps = t.len();
        if r == 0 {
            // warm-up (JVM start, first ASM use, buffers grown from their small size)
            cold = (p.run_nanos as f64, t.run_nanos as f64);
            continue;
        }
        plain.push(p.run_nanos as f64);
        traced.push(t.run_nanos as f64);
        total.push(wall);
        decode.push(frames);
    }
    let (p, t, w, d) = (median(plain), median(traced), median(total), median(decode));
    println!("jtg-bench: Bench.walk over a cyclic 3-node list, {iters} iterations, {steps} steps, median of {repeats}");
    println!(
        "  plain run (uninstrumented loader)       {:>10.3} ms",
        p / 1e6
    );
    println!(
        "  traced run (Java side)                  {:>10.3} ms  = {:.1} ns/step",
        t / 1e6,
        t / steps as f64
    );
    println!(
        "  overhead traced/plain                   {:>10.1} x  (issue #37 goal: ≤ 30 x)",
        t / p
    );
    println!(
        "  first (warm-up) run: plain {:.3} ms, traced {:.3} ms = {:.1} ns/step",
        cold.0 / 1e6,
        cold.1 / 1e6,
        cold.1 / steps as f64
    );
    println!(
        "  recorded steps per second               {:>10.2} M",
        steps as f64 / t * 1e3
    );
    println!(
        "  trace_method end to end                 {:>10.3} ms  = {:.2} M steps/s",
        w * 1e3,
        steps as f64 / w / 1e6
    );
    println!(
        "  top_frame() over all steps              {:>10.3} ms",
        d * 1e3
    );
    Ok(())
}

/// The `jtg check` commands of the thesis examples end to end, as a user runs them (a process
/// each: JVM start, graph, inputs, tracing, matching): `List.contains -n 10000` (median of 3)
/// and `List.get` from the cyclic start state with its default inputs (one run); then
/// `Alloc.fill -n 2000`, whose inputs ask for arrays up to 2^31-1 elements, with its peak
/// resident memory (target: under 1 GB; the JVM's heap limit and the recording budget bound
/// it).
fn check_end_to_end(fixtures: &std::path::Path, repo: &std::path::Path) -> Result<(), String> {
    let jtg = std::env::current_exe()
        .map_err(|e| e.to_string())?
        .with_file_name("jtg");
    if !jtg.is_file() {
        println!(
            "\n== jtg check end to end: {} not built, skipped",
            jtg.display()
        );
        return Ok(());
    }
    let fx = fixtures.to_string_lossy().to_string();
    let get_start = repo.join("java-fixtures/start/List.get.cyclic.state");
    let get_start = get_start.to_string_lossy().to_string();
    let runs: [(&str, Vec<&str>, usize); 2] = [
        (
            "List.contains -n 10000 --seed 1",
            vec!["check", &fx, "List.contains", "-n", "10000", "--seed", "1"],
            3,
        ),
        (
            "List.get --start List.get.cyclic.state --seed 1",
            vec![
                "check", &fx, "List.get", "--start", &get_start, "--seed", "1",
            ],
            1,
        ),
    ];
    println!("\n== jtg check end to end (a process each, JVM start included)");
    for (name, args, n) in runs {
        let mut times = Vec::new();
        let mut summary = String::new();
        for _ in 0..n {
            let t0 = Instant::now();
            let out = std::process::Command::new(&jtg)
                .args(&args)
                .output()
                .map_err(|e| format!("{}: {e}", jtg.display()))?;
            times.push(t0.elapsed().as_secs_f64());
            if !out.status.success() {
                return Err(format!(
                    "jtg {name} exited with {}: {}",
                    out.status,
                    String::from_utf8_lossy(&out.stderr).trim()
                ));
            }
            summary = String::from_utf8_lossy(&out.stdout).trim().to_string();
        }
        println!("  {name:<48} {:>8.2} s wall", median(times));
        println!("    {summary}");
    }
    let t0 = Instant::now();
    let (out, peak) = peak_rss(std::process::Command::new(&jtg).args([
        "check",
        &fx,
        "Alloc.fill",
        "-n",
        "2000",
    ]))?;
    let wall = t0.elapsed().as_secs_f64();
    if !out.status.success() {
        return Err(format!(
            "jtg check Alloc.fill exited with {}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let peak = peak.map_or("unknown".to_string(), |kb| {
        format!("{:.0} MB", kb as f64 / 1024.0)
    });
    println!(
        "  {:<48} {wall:>8.2} s wall, peak RSS {peak}",
        "Alloc.fill -n 2000"
    );
    println!("    {}", String::from_utf8_lossy(&out.stdout).trim());
    prove_deep_recursion(&jtg, &fx)
}

/// `jtg prove --check 20` and `--input` n = 10 000 on `everyday.Daily.ternaryRec` (a
/// recursion as deep as its argument), with their peak resident memory (target: under
/// 300 MB; the cross-check materialised every step's frames and took 2.4 GB).
fn prove_deep_recursion(jtg: &std::path::Path, fx: &str) -> Result<(), String> {
    let input = std::env::temp_dir().join(format!("jtg-bench-n10000-{}.state", std::process::id()));
    std::fs::write(&input, "00 | n: i1 | ε\ni1: 10000\n").map_err(|e| e.to_string())?;
    let input = input.to_string_lossy().to_string();
    let m = "everyday.Daily.ternaryRec";
    let runs: [(&str, Vec<&str>); 2] = [
        (
            "prove ternaryRec --check 20",
            vec!["prove", fx, m, "--check", "20"],
        ),
        (
            "prove ternaryRec --input n=10000",
            vec!["prove", fx, m, "--input", &input, "--max-steps", "100000"],
        ),
    ];
    for (name, args) in runs {
        let t0 = Instant::now();
        let (out, peak) = peak_rss(std::process::Command::new(jtg).args(&args))?;
        let wall = t0.elapsed().as_secs_f64();
        if !out.status.success() {
            return Err(format!(
                "jtg {name} exited with {}: {}",
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        let peak = peak.map_or("unknown".to_string(), |kb| {
            format!("{:.0} MB (target: under 300 MB)", kb as f64 / 1024.0)
        });
        println!("  {name:<48} {wall:>8.2} s wall, peak RSS {peak}");
        let text = String::from_utf8_lossy(&out.stdout);
        if let Some(check) = text.lines().find(|l| l.starts_with("check: ")) {
            println!("    {check}");
        }
    }
    Ok(())
}

/// Runs `cmd` to its end and samples its resident memory (Linux `/proc/PID/status`, `VmHWM`:
/// the kernel's own high-water mark, read just before the process is reaped).
fn peak_rss(
    cmd: &mut std::process::Command,
) -> Result<(std::process::Output, Option<u64>), String> {
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let status_file = format!("/proc/{}/status", child.id());
    let hwm = || -> Option<u64> {
        let s = std::fs::read_to_string(&status_file).ok()?;
        let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    // the pipes are drained on threads: a child blocked on a full pipe would never end
    let mut stdout = child.stdout.take().ok_or("no stdout")?;
    let mut stderr = child.stderr.take().ok_or("no stderr")?;
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut v);
        v
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut v);
        v
    });
    let mut peak = None;
    let status = loop {
        // VmHWM only grows: the last reading before the exit is the peak
        if let Some(kb) = hwm() {
            peak = Some(kb);
        }
        if let Some(s) = child.try_wait().map_err(|e| e.to_string())? {
            break s;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let output = std::process::Output {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    };
    Ok((output, peak))
}

/// Checker throughput: `List.get` from the thesis' cyclic start state (Fig. 2.13) on a 3-node
/// ring with x = 5000, one long trace. The steps are materialised first, so the number is the
/// matching alone (c ⊑ s per step, witnesses, labels), without JVM or decoding time.
fn check_bench(fixtures: &std::path::Path, repeats: usize) -> Result<(), String> {
    use jtg_check::{check_run, Target, Verdict};
    use jtg_check::{Matcher, Recorded};
    use jtg_engine::class::ClassPath;
    use jtg_engine::state::text::{parse_state, TextContext};
    use jtg_engine::state::IntSemantics;
    use jtg_engine::{build_graph, Options, Program};
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../java-fixtures");
    let cp = ClassPath::parse(&fixtures.to_string_lossy()).map_err(|e| e.to_string())?;
    let prog = Program::new(cp);
    let m = prog.find_method("List.get").map_err(|e| e.to_string())?;
    let ctx = TextContext::for_method(m.clone(), &prog);
    let read =
        |p: PathBuf| std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()));
    let start = parse_state(&read(root.join("start/List.get.cyclic.state"))?, &ctx)
        .map_err(|e| e.to_string())?;
    let input_text =
        read(root.join("inputs/List.get.cyclic3.state"))?.replace("i1: 7", "i1: 50000");
    let input = parse_state(&input_text, &ctx).map_err(|e| e.to_string())?;
    let g = build_graph(&prog, &m, start, &Options::default()).map_err(|f| f.error.to_string())?;
    let target =
        Target::new(&prog, m.clone(), vec![fixtures.to_path_buf()]).map_err(|e| e.to_string())?;
    let trace = target.trace(&input, 1_000_000).map_err(|e| e.to_string())?;
    let t0 = Instant::now();
    let rec = Recorded::of(&trace);
    let materialise = t0.elapsed().as_secs_f64();
    let matcher = Matcher::new(&g, &prog, IntSemantics::Unbounded);
    let (mut times, mut cpu) = (Vec::new(), Vec::new());
    for _ in 0..repeats {
        let c0 = thread_cpu_seconds();
        let c = check_run(&matcher, &prog, &rec, IntSemantics::Unbounded);
        if let (Some(a), Some(b)) = (c0, thread_cpu_seconds()) {
            cpu.push(b - a);
        }
        if c.verdict != Verdict::Pass {
            return Err(format!("List.get trace does not pass: {:?}", c.verdict));
        }
        times.push(c.match_nanos as f64 / 1e9);
    }
    let t = median(times);
    let cpu = (!cpu.is_empty()).then(|| median(cpu));
    // what `jtg check` does: match the recorded trace itself, decoding each step on the way
    let mut direct = Vec::new();
    for _ in 0..repeats {
        let c0 = thread_cpu_seconds();
        let c = check_run(&matcher, &prog, &trace, IntSemantics::Unbounded);
        if c.verdict != Verdict::Pass {
            return Err(format!("List.get trace does not pass: {:?}", c.verdict));
        }
        direct.push(match (c0, thread_cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => c.match_nanos as f64 / 1e9,
        });
    }
    let direct = median(direct);
    let steps = rec.steps.len();
    let c = check_run(&matcher, &prog, &rec, IntSemantics::Unbounded);
    let t1 = Instant::now();
    let _ = jtg_check::first_overflow(&rec, &prog);
    let scan = t1.elapsed().as_secs_f64();
    println!("jtg-bench: check of List.get (cyclic start, Fig. 2.13) on a 3-node ring, x = 50000, {steps} steps, {} nodes, median of {repeats}", g.nodes.len());
    println!(
        "  matching (steps materialised)           {:>10.3} ms  = {:.2} M steps/s",
        t * 1e3,
        steps as f64 / t / 1e6
    );
    if let Some(c) = cpu {
        // the same on the thread's CPU clock: what a loaded machine does not distort
        println!(
            "  matching, thread CPU time               {:>10.3} ms  = {:.2} M steps/s",
            c * 1e3,
            steps as f64 / c / 1e6
        );
    }
    println!(
        "  matching the trace (decoding included)  {:>10.3} ms  = {:.2} M steps/s (goal: ≥ 5 M)",
        direct * 1e3,
        steps as f64 / direct / 1e6
    );
    println!(
        "  (node, step) instance checks            {:>10}  = {:.2} per step; overflow scan {:.3} ms",
        c.checked,
        c.checked as f64 / steps as f64,
        scan * 1e3
    );
    println!(
        "  materialising the steps (Trace::step)   {:>10.3} ms  = {:.2} M steps/s (not on the matcher's path)",
        materialise * 1e3,
        steps as f64 / materialise / 1e6
    );
    Ok(())
}
