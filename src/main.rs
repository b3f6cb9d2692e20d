//! The `oust` binary (protocol loop to come): for now `oust bench [SECONDS]`.

fn main() {
    let secs: f64 = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let report = oust::bench::run(secs);
    println!("{report}");
}
