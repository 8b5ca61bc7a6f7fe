//! The inputs of the native benchmarks (`benches/normalize.rs`), shared with the
//! instruction counter (`examples/instructions.rs`), so both measure the same texts.

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
