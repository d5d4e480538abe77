fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let its = if path.ends_with(".ari") { jtg_prove::parse_ari(&text).unwrap() } else { jtg_prove::parse_koat(&text).unwrap() };
    print!("{its}");
    let p = jtg_prove::prove(&its, &jtg_prove::Options::default());
    println!("{}", serde_json::to_string_pretty(&p).unwrap());
}
