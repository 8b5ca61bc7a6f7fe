//! Native core benchmarks: small, typical and large failure reports, a 50 MB text block,
//! and a naive alternative (parse, stringify, a regex list, truncate) in the same run.
//!
//! `cargo bench -p codemode-errors --bench normalize`

use std::hint::black_box;

use codemode_errors::{parse_json, Normalizer, Policy};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

/// A gateway budget block: no evidence to process.
pub fn small_report() -> String {
    r#"{"tool":"search::web","budget":{"kind":"quota_exceeded","message":"code-mode run exceeded 50 tool calls","retry_after_ms":60000}}"#
        .to_owned()
}

/// A typical tool failure: two text blocks (about 1 KB), one with a token, annotations.
pub fn typical_report() -> String {
    let body = "GitHub API error: HTTP/1.1 422 Unprocessable Entity\\nValidation Failed: title is too long. \
                See https://docs.github.com/rest/issues#create-an-issue for the field limits. "
        .repeat(4);
    format!(
        r#"{{"tool":"github::create_issue","annotations":{{"readOnlyHint":false,"idempotentHint":false}},"dispatched":true,
"tool_result":{{"content":[{{"type":"text","text":"{body}"}},{{"type":"text","text":"request id C0DE:1234 auth=Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789"}}],"isError":true}}}}"#
    )
}

/// A large failure: 16 text blocks of 20 KB, a 60 KB structured value, a 1 MB image.
pub fn large_report() -> String {
    let text = "line of tool output with a path /srv/data/file.txt and status=ok\\n".repeat(300);
    let blocks: Vec<String> = (0..16).map(|_| format!(r#"{{"type":"text","text":"{text}"}}"#)).collect();
    let items: Vec<String> = (0..1500).map(|i| format!(r#"{{"id":{i},"name":"item {i}","token":"t-{i}"}}"#)).collect();
    let image = "A".repeat(1 << 20);
    format!(
        r#"{{"tool":"data::export","tool_result":{{"content":[{},{{"type":"image","data":"{image}","mimeType":"image/png"}}],"structuredContent":{{"items":[{}]}},"isError":true}}}}"#,
        blocks.join(","),
        items.join(",")
    )
}

/// One 50 MB text block.
pub fn huge_report() -> String {
    let text = "x".repeat(50 << 20);
    format!(r#"{{"tool":"logs::tail","tool_result":{{"content":[{{"type":"text","text":"{text}"}}],"isError":true}}}}"#)
}

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
