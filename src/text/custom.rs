//! The redaction rules a [`Policy`](crate::Policy) adds to the built-in ones, compiled
//! once per policy: key names judged secret or never secret ([`KeyNames`]), token formats
//! in the built-in table's form ([`CustomTokens`]), and exact values never redacted. All
//! of it is data read by the same scanners in the same passes: a policy adds no pattern
//! language and no pass per rule, so redaction stays linear in the text.

use crate::text::secret_names::KeyNames;
use crate::text::tokens::CustomTokens;

/// A policy's additions to the redaction rules. [`CustomRules::none`] is the built-in
/// rules alone, what every function without a policy applies.
#[derive(Clone, Debug)]
pub(crate) struct CustomRules {
    /// Key names judged secret, and key names never judged secret.
    pub(crate) keys: KeyNames,
    /// Token formats beyond the built-in ones.
    pub(crate) tokens: CustomTokens,
    /// Values never redacted, sorted.
    allowed: Vec<String>,
}

static NONE: CustomRules = CustomRules { keys: KeyNames::NONE, tokens: CustomTokens::NONE, allowed: Vec::new() };

impl CustomRules {
    /// The built-in rules alone.
    pub(crate) fn none() -> &'static CustomRules {
        &NONE
    }

    /// Rules from a policy's checked members.
    pub(crate) fn new(keys: KeyNames, tokens: CustomTokens, allowed: &[String]) -> Self {
        let mut allowed = allowed.to_vec();
        crate::order::sort_by(&mut allowed, |a, b| a < b);
        allowed.dedup();
        CustomRules { keys, tokens, allowed }
    }

    /// Whether `secret`, a span a rule would redact, is exactly one of the allowed values.
    /// Only the whole span is compared: an allowed value inside a longer secret, or a
    /// secret inside an allowed value's text, is redacted as ever.
    pub(crate) fn allows(&self, secret: &str) -> bool {
        !self.allowed.is_empty() && self.allowed.binary_search_by(|a| a.as_str().cmp(secret)).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_whole_spans_are_allowed() {
        let rules = CustomRules::new(KeyNames::NONE, CustomTokens::NONE, &["pk_demo_123".to_owned(), "b".to_owned()]);
        assert!(rules.allows("pk_demo_123") && rules.allows("b"));
        assert!(!rules.allows("pk_demo_1234") && !rules.allows("pk_demo_12") && !rules.allows("PK_DEMO_123"));
        assert!(!CustomRules::none().allows("pk_demo_123"));
    }
}
