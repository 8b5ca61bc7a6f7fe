//! One measured piece of work on the benchmarks' inputs, for an instruction counter: the
//! machine's load moves wall time, not instructions, so the redaction engine's figures in
//! docs/PERFORMANCE.md are counted with callgrind, and the same commands give them again.
//!
//! ```sh
//! cargo build --release --example instructions
//! valgrind --tool=callgrind target/release/examples/instructions app_log   # one redact_text of a family's 10 MB text
//! valgrind --tool=callgrind target/release/examples/instructions typical   # 100 normalize_json of the typical report
//! valgrind --tool=callgrind target/release/examples/instructions app_log --inputs-only   # and so on: to subtract
//! ```
//!
//! Instructions a byte: (the work's total − the same work's `--inputs-only` total) ÷ the
//! text's bytes; for the typical report, that difference ÷ 100 is a call. The families are
//! those of the redaction benchmark's text suite (`benches/texts.rs`).

#[path = "../benches/inputs.rs"]
#[allow(dead_code)]
mod inputs;
#[path = "../benches/texts.rs"]
mod texts;

use std::hint::black_box;

use codemode_errors::{Normalizer, Policy};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let inputs_only = args.iter().any(|a| a == "--inputs-only");
    match args.first().map(String::as_str) {
        Some(name) if texts::FAMILIES.iter().any(|f| f.name == name) => {
            let family = texts::FAMILIES.iter().find(|f| f.name == name).expect("found above");
            let (text, _) = family.text(10 << 20);
            eprintln!("{} bytes", text.len());
            if !inputs_only {
                black_box(codemode_errors::redact_text(black_box(&text)));
            }
        }
        Some("typical") => {
            let report = inputs::typical_report();
            let normalizer = Normalizer::new(Policy::default());
            for _ in 0..if inputs_only { 0 } else { 100 } {
                let _ = black_box(normalizer.normalize_json(black_box(&report)));
            }
        }
        other => {
            let names: Vec<&str> = texts::FAMILIES.iter().map(|f| f.name).collect();
            eprintln!("instructions: unknown work {other:?}; one of typical, {}, then --inputs-only to subtract", names.join(", "));
            std::process::exit(2);
        }
    }
}
