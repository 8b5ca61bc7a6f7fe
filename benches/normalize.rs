//! Native core benchmarks: small, typical and large failure reports, a 50 MB text block,
//! and a naive alternative (parse, stringify, a regex list, truncate) in the same run.
//! Redaction throughput on text is `benches/redact.rs`.
//!
//! `cargo bench -p codemode-errors --bench normalize`

use std::hint::black_box;

use codemode_errors::{parse_json, Normalizer, Policy};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

mod inputs;
use inputs::{huge_report, large_report, small_report, typical_report};

/// What a gateway author might write instead: stringify the result, run a short regex list,
/// truncate. (It misses most of the contract; see docs/PERFORMANCE.md.)
fn naive(report: &str, patterns: &[regex::Regex]) -> String {
    let value: serde_json::Value = serde_json::from_str(report).unwrap_or(serde_json::Value::Null);
    let mut text = serde_json::to_string(&value).unwrap_or_default();
    for re in patterns {
        text = re.replace_all(&text, "[REDACTED]").into_owned();
    }
    text.truncate(32 * 1024);
    text
}

fn bench(c: &mut Criterion) {
    let normalizer = Normalizer::new(Policy::default());
    let patterns: Vec<regex::Regex> = [
        r"gh[pousr]_[A-Za-z0-9]{36}",
        r"sk-[A-Za-z0-9_-]{20,}",
        r"(?i)bearer [A-Za-z0-9._-]+",
        r"eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+",
    ]
    .iter()
    .map(|p| regex::Regex::new(p).expect("valid pattern"))
    .collect();

    let mut group = c.benchmark_group("normalize");
    for (name, report) in [("small", small_report()), ("typical", typical_report()), ("large", large_report())] {
        group.throughput(Throughput::Bytes(report.len() as u64));
        group.bench_with_input(BenchmarkId::new("core", name), &report, |b, r| b.iter(|| normalizer.normalize_json(black_box(r))));
        group.bench_with_input(BenchmarkId::new("naive", name), &report, |b, r| b.iter(|| naive(black_box(r), &patterns)));
        group.bench_with_input(BenchmarkId::new("parse_only", name), &report, |b, r| b.iter(|| parse_json(black_box(r))));
    }
    group.finish();

    let mut group = c.benchmark_group("huge_text_block");
    group.sample_size(10);
    let report = huge_report();
    group.throughput(Throughput::Bytes(report.len() as u64));
    group.bench_function("core", |b| b.iter(|| normalizer.normalize_json(black_box(&report))));
    group.bench_function("parse_only", |b| b.iter(|| parse_json(black_box(&report))));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
