//! Writes the redaction benchmark's text suite (`benches/texts.rs`) to a folder, one file a
//! family and size (`<family>-64k.txt`, `<family>-10m.txt`), for the npm comparison
//! (`js-package/bench/compare.mjs`) and for reading what the benchmark measures.
//!
//! `cargo run --release --example bench_texts -- DIR [--quick]`

#[path = "../benches/texts.rs"]
mod texts;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: bench_texts DIR [--quick]");
        std::process::exit(2);
    };
    let quick = args.any(|a| a == "--quick");
    let dir = std::path::Path::new(&dir);
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("bench_texts: {}: {e}", dir.display());
        std::process::exit(1);
    }
    let sizes: &[(&str, usize)] = if quick { &[("64k", 64 << 10)] } else { &[("64k", 64 << 10), ("10m", 10 << 20)] };
    for family in &texts::FAMILIES {
        for &(label, bytes) in sizes {
            let (text, secrets) = family.text(bytes);
            let path = dir.join(format!("{}-{label}.txt", family.name));
            if let Err(e) = std::fs::write(&path, &text) {
                eprintln!("bench_texts: {}: {e}", path.display());
                std::process::exit(1);
            }
            println!("{} {} bytes, {secrets} secrets", path.display(), text.len());
        }
    }
}
