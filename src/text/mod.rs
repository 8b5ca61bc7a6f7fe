//! Text safety: everything a model reads passes through here. [`clean`] is the pipeline
//! (sanitize, defang, redact, then cap); the other modules are its steps.

pub(crate) mod clean;
pub(crate) mod redact;
pub(crate) mod safe;
pub(crate) mod sanitize;
pub(crate) mod scan;
pub(crate) mod secret_names;
pub(crate) mod tokens;

pub(crate) use clean::{capped_text, clean_text, clean_whole, cut_safe, label, one_line, qualified_label, CappedText};
pub(crate) use redact::marker;
pub use redact::Redactions;
pub(crate) use safe::SafeTextBuilder;
pub use safe::{SafeJson, SafeText};
pub(crate) use scan::looks_random;
pub(crate) use secret_names::{is_secret_key, is_weak_secret_key};

/// Linear time, proved by counting: the bytes the scanners step over
/// ([`search::work`](crate::search::work)) for a pathological text of 4× the length are at
/// most about 4× those for the text itself.
#[cfg(test)]
mod linear_time {
    use super::*;
    use crate::search::work;

    /// Texts that made some scanner rescan from every candidate.
    const PATHOLOGICAL: &[&str] = &[
        "?",
        "eyJ-",
        "=",
        ":",
        "@",
        "%",
        "-----BEGIN",
        "-----BEGIN PRIVATE KEY-----",
        "aB3+",
        "\u{200B}",
        "authorization=",
        "authorization: Bearer ",
        "password=",
        "token: ",
        "token: |\n ",
        "value",
        "\"name\": \"api_key\", \"value\": ",
        "<password>",
        "Q~",
        "-us",
        ".",
        "--password ",
        "sshpass -p ",
        "bot1234567890:",
        "[",
        "![",
        "<|",
        "https://a:b",
        "ghp_",
        "cookie: ",
        "Bearer ",
    ];

    fn work_for(pattern: &str, bytes: usize) -> u64 {
        let text = pattern.repeat(bytes / pattern.len());
        work::take();
        let mut counts = Redactions::default();
        let _ = clean_whole(&text, &mut counts);
        work::take()
    }

    #[test]
    fn four_times_the_input_costs_at_most_about_four_times_the_work() {
        for pattern in PATHOLOGICAL {
            let small = work_for(pattern, 32 * 1024);
            let large = work_for(pattern, 128 * 1024);
            assert!(large <= small * 9 / 2 + 4096, "{pattern:?}: {small} steps for 32 KiB, {large} for 128 KiB");
        }
    }
}
