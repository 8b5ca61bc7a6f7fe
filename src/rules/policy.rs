//! Caps and limits: policy settings with documented defaults. Changing them never changes
//! the contract version (the caps are implementation limits, not wire guarantees).

use crate::error::{ErrorCode, ReportError};
use crate::json::{parse_json, Json, INPUT_LIMITS};

wire_enum! {
    /// The tunable caps, by their names in a policy JSON object, in the order
    /// `docs/contract.md` lists them.
    pub Cap {
        /// Content blocks shown as evidence.
        MaxContentBlocks = "max_content_blocks",
        /// UTF-16 code units kept of each text block.
        MaxTextChars = "max_text_chars",
        /// Serialized bytes of `evidence.structured_content`.
        MaxStructuredBytes = "max_structured_bytes",
        /// Serialized bytes of `evidence.parsed_error`.
        MaxParsedErrorBytes = "max_parsed_error_bytes",
        /// Serialized bytes of the whole error object.
        MaxErrorBytes = "max_error_bytes",
        /// Nesting levels kept in structured evidence.
        MaxJsonDepth = "max_json_depth",
        /// Items or members kept per level of structured evidence.
        MaxJsonItems = "max_json_items",
        /// UTF-16 code units kept of each string in structured evidence.
        MaxJsonStringChars = "max_json_string_chars",
        /// Largest text block parsed in search of a JSON error object.
        MaxParseChars = "max_parse_chars",
    }
}

/// One cap's default, allowed range, and what it bounds.
#[derive(Debug)]
pub struct CapSpec {
    /// The default value (the contract's).
    pub default: u32,
    /// The smallest allowed value.
    pub min: u32,
    /// The largest allowed value.
    pub max: u32,
    /// What the cap bounds, as `docs/contract.md` says it.
    pub doc: &'static str,
}

impl Cap {
    /// The cap's default, range and meaning: the table.
    pub const fn spec(self) -> CapSpec {
        const fn spec(default: u32, min: u32, max: u32, doc: &'static str) -> CapSpec {
            CapSpec { default, min, max, doc }
        }
        match self {
            Cap::MaxContentBlocks => spec(16, 1, 256, "content blocks shown as evidence; the rest are counted in omitted_content_blocks"),
            Cap::MaxTextChars => spec(8192, 64, 65536, "UTF-16 code units kept of each text block and embedded text resource"),
            Cap::MaxStructuredBytes => spec(8192, 256, 65536, "serialized bytes of evidence.structured_content"),
            Cap::MaxParsedErrorBytes => spec(4096, 256, 65536, "serialized bytes of evidence.parsed_error"),
            Cap::MaxErrorBytes => spec(32768, 4096, 1048576, "serialized bytes of the whole error object"),
            Cap::MaxJsonDepth => spec(8, 1, 32, "nesting levels kept in structured evidence"),
            Cap::MaxJsonItems => spec(32, 1, 256, "array items or object members kept per level of structured evidence"),
            Cap::MaxJsonStringChars => spec(1024, 16, 65536, "UTF-16 code units kept of each string in structured evidence"),
            Cap::MaxParseChars => spec(65536, 0, 131072, "largest text block (UTF-16 code units) parsed in search of a JSON error object"),
        }
    }
}

/// The caps a normalizer applies. Build one with [`Policy::default`] or [`Policy::from_json`].
///
/// ```
/// let policy = codemode_errors::Policy::from_json(r#"{"max_text_chars": 2048}"#).unwrap();
/// assert_eq!(policy.max_text_chars(), 2048);
/// assert_eq!(policy.max_content_blocks(), 16);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// One value per cap, in [`Cap::ALL`] order.
    values: [u32; CAP_COUNT],
}

const CAP_COUNT: usize = Cap::ALL.len();

impl Default for Policy {
    fn default() -> Self {
        let mut values = [0; CAP_COUNT];
        for (v, cap) in values.iter_mut().zip(Cap::ALL) {
            *v = cap.spec().default;
        }
        Policy { values }
    }
}

impl Policy {
    /// The value of `cap`.
    pub fn get(&self, cap: Cap) -> usize {
        self.values[cap as usize] as usize
    }

    /// Content blocks shown as evidence.
    pub fn max_content_blocks(&self) -> usize {
        self.get(Cap::MaxContentBlocks)
    }

    /// UTF-16 code units kept of each text block.
    pub fn max_text_chars(&self) -> usize {
        self.get(Cap::MaxTextChars)
    }

    /// Serialized bytes of `evidence.structured_content`.
    pub fn max_structured_bytes(&self) -> usize {
        self.get(Cap::MaxStructuredBytes)
    }

    /// Serialized bytes of `evidence.parsed_error`.
    pub fn max_parsed_error_bytes(&self) -> usize {
        self.get(Cap::MaxParsedErrorBytes)
    }

    /// Serialized bytes of the whole error object.
    pub fn max_error_bytes(&self) -> usize {
        self.get(Cap::MaxErrorBytes)
    }

    /// Nesting levels kept in structured evidence.
    pub fn max_json_depth(&self) -> usize {
        self.get(Cap::MaxJsonDepth)
    }

    /// Items or members kept per level of structured evidence.
    pub fn max_json_items(&self) -> usize {
        self.get(Cap::MaxJsonItems)
    }

    /// UTF-16 code units kept of each string in structured evidence.
    pub fn max_json_string_chars(&self) -> usize {
        self.get(Cap::MaxJsonStringChars)
    }

    /// Largest text block parsed in search of a JSON error object.
    pub fn max_parse_chars(&self) -> usize {
        self.get(Cap::MaxParseChars)
    }
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
        let Some(cap) = Cap::from_wire(name) else {
            let known: Vec<&str> = Cap::ALL.iter().map(|c| c.as_str()).collect();
            return Err(ReportError::new(
                ErrorCode::InvalidPolicy,
                name,
                format!("unknown policy setting; expected one of {}", known.join(", ")),
            ));
        };
        let spec = cap.spec();
        if !(value.fract() == 0.0 && value >= f64::from(spec.min) && value <= f64::from(spec.max)) {
            return Err(ReportError::new(
                ErrorCode::InvalidPolicy,
                name,
                format!("must be a whole number from {} to {}", spec.min, spec.max),
            ));
        }
        self.values[cap as usize] = value as u32;
        Ok(self)
    }

    /// The policy as a JSON object with every cap, for display and round trips.
    pub fn to_json(&self) -> String {
        let parts: Vec<String> = Cap::ALL.iter().zip(self.values).map(|(c, v)| format!("\"{c}\":{v}")).collect();
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
    fn every_cap_is_documented_with_its_default_and_range() {
        let contract = include_str!("../../docs/contract.md");
        for (i, cap) in Cap::ALL.iter().enumerate() {
            assert_eq!(*cap as usize, i, "values are indexed by declaration order");
            let spec = cap.spec();
            let row = format!("| `{cap}` | {} | {}-{} |", spec.default, spec.min, spec.max);
            assert!(contract.lines().any(|l| l.starts_with(&row)), "docs/contract.md has no row {row}");
            assert!(spec.min <= spec.default && spec.default <= spec.max, "{cap}");
        }
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
