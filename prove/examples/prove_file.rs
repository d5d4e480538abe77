//! Proves an ITS file (ARI, or KoAT for `.koat`) and prints the verdict, the notes and the
//! LP statistics: `cargo run --release -p jtg-prove --example prove_file -- FILE`.
fn main() {
    let path = std::env::args().nth(1).expect("usage: prove_file FILE");
    let text = std::fs::read_to_string(&path).expect("readable file");
    let its = if path.ends_with(".koat") {
        jtg_prove::parse_koat(&text).expect("a KoAT ITS")
    } else {
        jtg_prove::parse_ari(&text).expect("an ARI ITS")
    };
    let t = std::time::Instant::now();
    let mut opts = jtg_prove::Options::default();
    if let Some(w) = std::env::var("MAX_WORK").ok().and_then(|w| w.parse().ok()) {
        opts.max_work = w;
    }
    if let Some(t) = std::env::var("TIMEOUT").ok().and_then(|w| w.parse().ok()) {
        opts.timeout = std::time::Duration::from_secs(t);
    }
    let proof = jtg_prove::prove(&its, &opts);
    println!("{} in {:?}", proof.verdict, t.elapsed());
    println!("lp: {:?}", proof.lp);
    for n in &proof.notes {
        println!("note: {n}");
    }
}
