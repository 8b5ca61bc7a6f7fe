//! Redaction throughput on the text suite (`benches/texts.rs`): the core's `redact_text`
//! against what a Rust user would run instead, in the same process on the same bytes, the
//! engines taking turns round by round:
//!
//! - `alternation`: 15 gitleaks-style patterns joined into one `regex::Regex`, replaced in
//!   one `replace_all` pass;
//! - `gitleaks`: gitleaks' 221 published rules (`benches/gitleaks-rules.tsv`) as a
//!   `regex::RegexSet`, then `replace_all` with each rule the set reports.
//!
//! `cargo bench -p codemode-errors --bench redact` (all families, 64 KB and 10 MB), or
//! `... --bench redact -- --quick` (64 KB only). Prints a markdown table: the median of
//! the rounds in MB/s (10^6 bytes a second) and the core's ratio to each alternative.

use std::hint::black_box;
use std::time::{Duration, Instant};

use regex::{Regex, RegexBuilder, RegexSet, RegexSetBuilder};

mod texts;
use texts::FAMILIES;

/// The alternation of the earlier bench and of the npm comparison's plain-JS list.
const ALTERNATION: [&str; 15] = [
    r"gh[pousr]_[A-Za-z0-9]{36}",
    r"github_pat_[A-Za-z0-9_]{22,}",
    r"glpat-[A-Za-z0-9_-]{20,}",
    r"xox[abposr]-[A-Za-z0-9-]{10,}",
    r"(?:AKIA|ASIA)[A-Z0-9]{16}",
    r"AIza[A-Za-z0-9_-]{35}",
    r"sk-[A-Za-z0-9_-]{20,}",
    r"[sr]k_(?:live|test)_[A-Za-z0-9]{16,}",
    r"eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*",
    r"(?i)bearer [A-Za-z0-9._~+/-]{8,}=*",
    r"(?i)(?:password|passwd|secret|token|api[_-]?key)\s*[:=]\s*[^\s,;]+",
    r"[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@",
    r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----",
    r"https://hooks\.slack\.com/services/[A-Za-z0-9/]+",
    r"npm_[A-Za-z0-9]{36}",
];

/// gitleaks' rules: the set, and each rule for the replacement.
struct Gitleaks {
    set: RegexSet,
    rules: Vec<Regex>,
}

impl Gitleaks {
    fn load() -> Self {
        let file = include_str!("gitleaks-rules.tsv");
        let patterns: Vec<&str> =
            file.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).filter_map(|l| l.split_once('\t').map(|(_, re)| re)).collect();
        let size = 1 << 30;
        let set = RegexSetBuilder::new(&patterns).size_limit(size).dfa_size_limit(size).build().expect("gitleaks' rules compile as a set");
        let rules = patterns.iter().map(|p| RegexBuilder::new(p).size_limit(size).build().expect("a gitleaks rule compiles")).collect();
        Gitleaks { set, rules }
    }

    fn redact(&self, text: &str) -> usize {
        let mut out = std::borrow::Cow::Borrowed(text);
        for k in self.set.matches(text).iter() {
            if let std::borrow::Cow::Owned(s) = self.rules[k].replace_all(&out, "[REDACTED]") {
                out = std::borrow::Cow::Owned(s);
            }
        }
        out.len()
    }
}

/// The median of a series of timings.
fn median(samples: &mut [Duration]) -> Duration {
    samples.sort_unstable();
    samples[samples.len() / 2]
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let sizes: &[(&str, usize)] = if quick { &[("64 KB", 64 << 10)] } else { &[("64 KB", 64 << 10), ("10 MB", 10 << 20)] };
    let alternation = Regex::new(&ALTERNATION.join("|")).expect("valid alternation");
    let gitleaks = Gitleaks::load();
    println!("| family | size | secrets | core found | core MB/s | alternation MB/s | core / alternation | gitleaks set MB/s | core / gitleaks |");
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut worst = f64::INFINITY;
    for family in &FAMILIES {
        for &(label, bytes) in sizes {
            let (text, secrets) = family.text(bytes);
            let found = codemode_errors::redact_text(&text).matches("[REDACTED:").count();
            // Calls a sample: about 20 ms of the core's work.
            let calls = if bytes > 1 << 20 { 1 } else { 64 };
            let rounds = if bytes > 1 << 20 { 7 } else { 15 };
            let mut times = [Vec::new(), Vec::new(), Vec::new()];
            for _ in 0..rounds {
                let t = Instant::now();
                for _ in 0..calls {
                    black_box(codemode_errors::redact_text(black_box(&text)));
                }
                times[0].push(t.elapsed() / calls);
                let t = Instant::now();
                for _ in 0..calls {
                    black_box(alternation.replace_all(black_box(&text), "[REDACTED]").len());
                }
                times[1].push(t.elapsed() / calls);
                let t = Instant::now();
                for _ in 0..calls {
                    black_box(gitleaks.redact(black_box(&text)));
                }
                times[2].push(t.elapsed() / calls);
            }
            let mbs = |d: Duration| text.len() as f64 / d.as_secs_f64() / 1e6;
            let [core, alt, gl] = times.map(|mut t| mbs(median(&mut t)));
            worst = worst.min(core / alt);
            println!(
                "| {} | {label} | {secrets} | {found} | {core:.0} | {alt:.0} | {:.2}x | {gl:.1} | {:.1}x |",
                family.name,
                core / alt,
                core / gl
            );
        }
    }
    println!("\nlowest core / alternation over the families: {worst:.2}x");
}
