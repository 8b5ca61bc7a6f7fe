//! Text safety: everything a model reads passes through here. [`clean`] is the pipeline
//! (sanitize, defang, redact, then cap); the other modules are its steps.

pub(crate) mod clean;
pub(crate) mod custom;
pub(crate) mod defang;
pub(crate) mod redact;
pub(crate) mod safe;
pub(crate) mod sanitize;
pub(crate) mod scan;
pub(crate) mod secret_names;
pub(crate) mod tokens;

pub(crate) use clean::{
    capped_str, capped_text, clean_identifier, clean_text, clean_text_for_any_policy, clean_whole, clean_whole_if_changed, cut_safe, label,
    one_line, qualified_label, refusal, CappedText,
};
pub(crate) use custom::CustomRules;
pub use redact::Redactions;
pub(crate) use redact::{marker, MARKER_PREFIX};
pub(crate) use safe::SafeTextBuilder;
pub use safe::{SafeJson, SafeText};
pub(crate) use scan::looks_random;
pub(crate) use secret_names::{canonical_key, KeyNames};
pub(crate) use tokens::CustomTokens;
pub use tokens::{TokenAlphabet, TokenFormat};

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
        "eyJ",
        "eyJhdXRoIjoi",
        "LS0tLS1CRUdJTi",
        "Basic ",
        "Basic dXNlcjpw",
        "AKIAAAAAAAAAAAAAAAAA ",
        "h.x:5432:",
        "h:1:d:u:",
        "[a](https://",
        "[a]: //",
        "<system ",
        "«ѕуѕtеm",
        "\nΗuman",
        "\n### ",
        "[",
        "![",
        "<|",
        "https://a:b",
        "ghp_",
        "cookie: ",
        "Bearer ",
        "| password |",
        "|password| ",
        "the password is ",
        "ann:pw@h:1",
        "user,password\n",
        "a,Xk9vQ2mLp7,",
        "| id | token |\n",
    ];

    fn work_for(pattern: &str, bytes: usize, custom: &CustomRules) -> u64 {
        let text = pattern.repeat(bytes / pattern.len());
        work::take();
        let mut counts = Redactions::default();
        let _ = clean_whole(&text, custom, &mut counts);
        work::take()
    }

    #[test]
    fn four_times_the_input_costs_at_most_about_four_times_the_work() {
        for pattern in PATHOLOGICAL {
            let small = work_for(pattern, 32 * 1024, CustomRules::none());
            let large = work_for(pattern, 128 * 1024, CustomRules::none());
            assert!(large <= small * 9 / 2 + 4096, "{pattern:?}: {small} steps for 32 KiB, {large} for 128 KiB");
            // Both long enough to be read by blocks and lines.
            let (long, longer) = (work_for(pattern, 80 * 1024, CustomRules::none()), work_for(pattern, 320 * 1024, CustomRules::none()));
            assert!(longer <= long * 9 / 2 + 4096, "{pattern:?}: {long} steps for 80 KiB, {longer} for 320 KiB");
        }
    }

    /// A policy at every bound: formats whose prefixes share their first bytes, secret
    /// names of many words, full allowlists.
    fn largest_policy() -> crate::Policy {
        let formats: Vec<String> = (0..64)
            .map(|i| format!(r#"{{"family":"f{i}","prefix":"aa{i:02}_","alphabet":"alnum","min_body_length":{}}}"#, 8 + i * 3))
            .collect();
        let names = |f: &dyn Fn(usize) -> String| (0..256).map(|i| format!("\"{}\"", f(i))).collect::<Vec<_>>().join(",");
        let json = format!(
            r#"{{"token_formats":[{}],"secret_keys":[{}],"allow":[{}],"allow_keys":[{}]}}"#,
            formats.join(","),
            names(&|i| format!("a_b_c_d_e_f_g_h_{i}")),
            names(&|i| format!("aa00_{i:0>24}")),
            names(&|i| format!("a_b_c_d_{i}")),
        );
        crate::Policy::from_json(&json).unwrap()
    }

    /// Texts that make a policy's rules work hardest: candidates for every format at every
    /// byte, keys of many words judged at every separator, values the allowlist compares.
    const PATHOLOGICAL_WITH_A_POLICY: &[&str] = &[
        "aa",
        "aa01_",
        "aa63_abc ",
        "aa00_000000000000000000000001 ",
        "a_b_c_d_e_f_g_h_1=",
        "a_b_c_d_e_f_g_h_1 ",
        "a_b_c_d_e_f_g_h_1 aB3dE5gH7jK9 ",
        "?a_b_c_d_e_f_g_h_1=x",
        "a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a=",
        "a-b-c-d-e-f-g-h-",
        "AbCdEfGh",
        "\"a_b_c_d_e_f_g_h_2\", \"",
        "--a_b_c_d_e_f_g_h_3 ",
        "password=",
    ];

    #[test]
    fn a_policy_at_its_bounds_keeps_the_work_linear() {
        let policy = largest_policy();
        for pattern in PATHOLOGICAL.iter().chain(PATHOLOGICAL_WITH_A_POLICY) {
            let small = work_for(pattern, 32 * 1024, policy.custom_rules());
            let large = work_for(pattern, 128 * 1024, policy.custom_rules());
            assert!(large <= small * 9 / 2 + 4096, "{pattern:?}: {small} steps for 32 KiB, {large} for 128 KiB");
        }
    }
}
