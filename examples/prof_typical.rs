use codemode_errors::{Normalizer, Policy};
pub fn typical_report() -> String {
    let body = "GitHub API error: HTTP/1.1 422 Unprocessable Entity\\nValidation Failed: title is too long. \
                See https://docs.github.com/rest/issues#create-an-issue for the field limits. "
        .repeat(4);
    format!(
        r#"{{"tool":"github::create_issue","annotations":{{"readOnlyHint":false,"idempotentHint":false}},"dispatched":true,
"tool_result":{{"content":[{{"type":"text","text":"{body}"}},{{"type":"text","text":"request id C0DE:1234 auth=Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789"}}],"isError":true}}}}"#
    )
}
pub fn host_typical() -> String {
    r#"{"tool":"github::create_issue","annotations":{"readOnlyHint":false,"idempotentHint":false},"dispatched":true,"tool_result":{"isError":true,"content":[{"type":"text","text":"HTTP/1.1 429 Too Many Requests; Retry-After: 20 (token=ghp_abcdefghijklmnopqrstuvwxyz0123456789)"},{"type":"text","text":"{\"kind\":\"rate_limited\",\"message\":\"secondary rate limit for user octocat; retry after 20s\",\"retry_after_ms\":20000}"}],"structuredContent":{"error":{"kind":"rate_limited","message":"secondary rate limit","documentation_url":"https://docs.github.com/rest/overview/rate-limits","request_id":"C0DE:1234:5678:9ABC"},"headers":{"x-ratelimit-remaining":"0","x-ratelimit-reset":"1767225600","authorization":"Bearer abcdefghijklmnopqrstuvwxyz012345"}}}}"#.to_owned()
}
fn main() {
    let n = Normalizer::new(Policy::default());
    let r = if std::env::args().nth(2).as_deref() == Some("host") { host_typical() } else { typical_report() };
    let iters: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(300);
    let mut total = 0;
    let t = std::time::Instant::now();
    for _ in 0..iters {
        let o = n.normalize_json(&r).unwrap();
        total += o.to_json().len();
    }
    println!("{total} {:?}/iter", t.elapsed() / iters as u32);
}
