//! Caps and limits: policy settings with documented defaults. Changing them never changes
//! the contract version (the caps are implementation limits, not wire guarantees).

use crate::error::{ErrorCode, ReportError};
use crate::json::{parse_json, Json, INPUT_LIMITS};

/// One tunable cap: its JSON name, default, allowed range, and what it bounds.
#[derive(Debug)]
pub struct CapSpec {
    /// The key in a policy JSON object.
    pub name: &'static str,
    /// The default value.
    pub default: u32,
    /// The smallest allowed value.
    pub min: u32,
    /// The largest allowed value.
    pub max: u32,
    /// What the cap bounds.
    pub doc: &'static str,
}

/// Every cap, in the order `docs/contract.md` lists them. The defaults are the contract's.
pub const CAPS: &[CapSpec] = &[
    CapSpec {
        name: "max_content_blocks",
        default: 16,
        min: 1,
        max: 256,
        doc: "content blocks shown as evidence; the rest are counted in omitted_content_blocks",
    },
    CapSpec {
        name: "max_text_chars",
        default: 8192,
        min: 64,
        max: 65536,
        doc: "UTF-16 code units kept of each text block and embedded text resource",
    },
    CapSpec { name: "max_structured_bytes", default: 8192, min: 256, max: 65536, doc: "serialized bytes of evidence.structured_content" },
    CapSpec { name: "max_parsed_error_bytes", default: 4096, min: 256, max: 65536, doc: "serialized bytes of evidence.parsed_error" },
    CapSpec { name: "max_error_bytes", default: 32768, min: 4096, max: 1048576, doc: "serialized bytes of the whole error object" },
    CapSpec { name: "max_json_depth", default: 8, min: 1, max: 32, doc: "nesting levels kept in structured evidence" },
    CapSpec {
        name: "max_json_items",
        default: 32,
        min: 1,
        max: 256,
        doc: "array items or object members kept per level of structured evidence",
    },
    CapSpec {
        name: "max_json_string_chars",
        default: 1024,
        min: 16,
        max: 65536,
        doc: "UTF-16 code units kept of each string in structured evidence",
    },
    CapSpec {
        name: "max_parse_chars",
        default: 65536,
        min: 0,
        max: 131072,
        doc: "largest text block (UTF-16 code units) parsed in search of a JSON error object",
    },
];

/// The caps a normalizer applies. Build one with [`Policy::default`] or [`Policy::from_json`].
///
/// ```
/// let policy = codemode_errors::Policy::from_json(r#"{"max_text_chars": 2048}"#).unwrap();
/// assert_eq!(policy.max_text_chars(), 2048);
/// assert_eq!(policy.max_content_blocks(), 16);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    values: [u32; CAPS.len()],
}

impl Default for Policy {
    fn default() -> Self {
        let mut values = [0; CAPS.len()];
        for (v, spec) in values.iter_mut().zip(CAPS) {
            *v = spec.default;
        }
        Policy { values }
    }
}

macro_rules! cap_accessors {
    ($($(#[$doc:meta])* $fn:ident = $idx:literal;)+) => {
        impl Policy {
            $($(#[$doc])* pub fn $fn(&self) -> usize { self.values[$idx] as usize })+
        }
    };
}

cap_accessors! {
    /// Content blocks shown as evidence.
    max_content_blocks = 0;
    /// UTF-16 code units kept of each text block.
    max_text_chars = 1;
    /// Serialized bytes of `evidence.structured_content`.
    max_structured_bytes = 2;
    /// Serialized bytes of `evidence.parsed_error`.
    max_parsed_error_bytes = 3;
    /// Serialized bytes of the whole error object.
    max_error_bytes = 4;
    /// Nesting levels kept in structured evidence.
    max_json_depth = 5;
    /// Items or members kept per level of structured evidence.
    max_json_items = 6;
    /// UTF-16 code units kept of each string in structured evidence.
    max_json_string_chars = 7;
    /// Largest text block parsed in search of a JSON error object.
    max_parse_chars = 8;
}

impl Policy {
    /// Parse a policy from a JSON object of cap names to whole numbers. Missing caps keep
    /// their defaults; unknown names and out-of-range values are errors.
    pub fn from_json(text: &str) -> Result<Self, ReportError> {
        let value = parse_json(text).map_err(|e| ReportError::new(ErrorCode::InvalidPolicy, e.path(), e.message()))?;
        Self::from_value(&value)
    }

    /// Build a policy from an already-read JSON value.
    pub fn from_value(value: &Json) -> Result<Self, ReportError> {
        let members = value.as_object().ok_or_else(|| {
            ReportError::new(ErrorCode::InvalidPolicy, "", format!("a policy is a JSON object, not {}", value.type_name()))
        })?;
        let mut policy = Policy::default();
        for (key, v) in members.items() {
            policy = policy.with(key, v.as_f64().unwrap_or(f64::NAN))?;
        }
        Ok(policy)
    }

    /// This policy with the cap `name` set to `value`.
    pub fn with(mut self, name: &str, value: f64) -> Result<Self, ReportError> {
        let Some(idx) = CAPS.iter().position(|c| c.name == name) else {
            let known: Vec<&str> = CAPS.iter().map(|c| c.name).collect();
            return Err(ReportError::new(
                ErrorCode::InvalidPolicy,
                name,
                format!("unknown policy setting; expected one of {}", known.join(", ")),
            ));
        };
        let spec = &CAPS[idx];
        if !(value.fract() == 0.0 && value >= f64::from(spec.min) && value <= f64::from(spec.max)) {
            return Err(ReportError::new(
                ErrorCode::InvalidPolicy,
                name,
                format!("must be a whole number from {} to {}", spec.min, spec.max),
            ));
        }
        self.values[idx] = value as u32;
        Ok(self)
    }

    /// The policy as a JSON object with every cap, for display and round trips.
    pub fn to_json(&self) -> String {
        let parts: Vec<String> = CAPS.iter().zip(self.values).map(|(c, v)| format!("\"{}\":{}", c.name, v)).collect();
        format!("{{{}}}", parts.join(","))
    }
}

const _: () = assert!(131072 <= INPUT_LIMITS.string_head, "parse cap must fit the reader's string head");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_contract_caps() {
        let p = Policy::default();
        assert_eq!(p.max_content_blocks(), 16);
        assert_eq!(p.max_text_chars(), 8192);
        assert_eq!(p.max_structured_bytes(), 8192);
        assert_eq!(p.max_parsed_error_bytes(), 4096);
        assert_eq!(p.max_error_bytes(), 32768);
        assert_eq!(p.max_parse_chars(), 65536);
    }

    #[test]
    fn round_trips_through_json() {
        let p = Policy::default().with("max_text_chars", 100.0).unwrap();
        assert_eq!(Policy::from_json(&p.to_json()).unwrap(), p);
    }

    #[test]
    fn bad_policies_say_what_is_wrong() {
        let e = Policy::from_json(r#"{"max_text_char": 10}"#).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidPolicy);
        assert!(e.to_string().contains("unknown policy setting"));
        let e = Policy::from_json(r#"{"max_error_bytes": 10}"#).unwrap_err();
        assert!(e.to_string().contains("from 4096 to 1048576"), "{e}");
        let e = Policy::from_json(r#"{"max_text_chars": 100.5}"#).unwrap_err();
        assert_eq!(e.path(), "max_text_chars");
        assert_eq!(Policy::from_json("[]").unwrap_err().code(), ErrorCode::InvalidPolicy);
        assert_eq!(Policy::from_json("{").unwrap_err().code(), ErrorCode::InvalidPolicy);
    }
}
