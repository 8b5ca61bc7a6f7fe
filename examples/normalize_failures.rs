//! Normalize every failure report in a folder with the native core and print each outcome
//! readably. `cargo run --example normalize_failures -- examples/failures`

use std::path::Path;

use codemode_errors::{Normalizer, Policy};

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "examples/failures".to_owned());
    let mut files: Vec<_> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "json")).collect(),
        Err(e) => {
            eprintln!("cannot read {dir}: {e}");
            std::process::exit(2);
        }
    };
    files.sort();
    let normalizer = Normalizer::new(Policy::default());
    println!("Native core, {} failure reports from {dir}\n", files.len());
    for path in files {
        show(&normalizer, &path);
    }
}

fn show(normalizer: &Normalizer, path: &Path) {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return println!("== {name}\n   cannot read: {e}\n"),
    };
    match normalizer.normalize_json(&text) {
        Err(e) => println!("== {name}\n   rejected: {e}\n"),
        Ok(outcome) => {
            println!("== {name}   breaker: {}", outcome.breaker);
            match outcome.error {
                None => println!("   not a failure: the call completed\n"),
                Some(e) => {
                    println!(
                        "   kind {} ({}), origin {}, side effects {}",
                        e.kind,
                        e.kind_source.map_or("-", |s| s.as_str()),
                        e.origin,
                        e.side_effects
                    );
                    println!("   recovery {} / same arguments {}", e.recovery.action, e.recovery.same_arguments);
                    println!("   message: {}", e.message);
                    for a in &e.invalid_arguments {
                        println!("   argument {}: {}", if a.path.is_empty() { "(all)" } else { &a.path }, a.problem);
                    }
                    println!("   Error.message ({} bytes): {}\n", e.to_json().len(), e.to_json());
                }
            }
        }
    }
}
