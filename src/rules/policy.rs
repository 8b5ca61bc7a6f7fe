//! Caps and limits: policy settings with documented defaults. Changing them never changes
//! the contract version (the caps are implementation limits, not wire guarantees). A
//! policy may also add to the redaction rules, as data in the built-in rules' own form
//! (key names, token formats) and an allowlist: bounded lists, no patterns.

use std::sync::Arc;

use crate::error::{ErrorCode, ReportError};
use crate::json::{parse_json, utf16_len, write_string, Json, INPUT_LIMITS};
use crate::text::{canonical_key, CustomRules, CustomTokens, KeyNames, Redactions, TokenAlphabet, TokenFormat, MARKER_PREFIX};

wire_enum! {
    /// The tunable caps, by their names in a policy JSON object, in the order
    /// `docs/contract.md` lists them.
    ///
    /// ```
    /// use codemode_errors::{Cap, Policy};
    /// let policy = Policy::default().with("max_error_bytes", 8192.0)?;
    /// assert_eq!(policy.get(Cap::MaxErrorBytes), 8192);
    /// assert_eq!(Cap::from_wire("max_json_depth"), Some(Cap::MaxJsonDepth));
    /// assert_eq!(Cap::ALL.len(), 9);
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
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
///
/// ```
/// use codemode_errors::Cap;
/// let spec = Cap::MaxTextChars.spec();
/// assert_eq!((spec.default, spec.min, spec.max), (8192, 64, 65536));
/// ```
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
    ///
    /// ```
    /// use codemode_errors::{Cap, Policy};
    /// for cap in Cap::ALL {
    ///     assert_eq!(Policy::default().get(*cap), cap.spec().default as usize);
    /// }
    /// assert!(Policy::default().with("max_content_blocks", f64::from(Cap::MaxContentBlocks.spec().max) + 1.0).is_err());
    /// ```
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

wire_enum! {
    /// The lists a policy adds to the redaction rules, by their names in a policy JSON
    /// object, in the order `docs/contract.md` lists them.
    pub(crate) RuleList {
        /// Key names judged secret besides the built-in ones.
        SecretKeys = "secret_keys",
        /// Token formats besides the built-in ones.
        TokenFormats = "token_formats",
        /// Exact values never redacted.
        Allow = "allow",
        /// Key names never judged secret.
        AllowKeys = "allow_keys",
    }
}

/// Longest entry of a policy's string lists (a key name, an allowed value), in UTF-16
/// code units.
pub(crate) const MAX_ENTRY_CHARS: usize = 128;

impl RuleList {
    /// The most entries the list may hold.
    pub(crate) const fn max_entries(self) -> usize {
        match self {
            RuleList::TokenFormats => 64,
            RuleList::SecretKeys | RuleList::Allow | RuleList::AllowKeys => 256,
        }
    }
}

/// The caps a normalizer applies, and what it adds to the redaction rules. Build one with
/// [`Policy::default`] or [`Policy::from_json`].
///
/// ```
/// let policy = codemode_errors::Policy::from_json(r#"{"max_text_chars": 2048}"#).unwrap();
/// assert_eq!(policy.max_text_chars(), 2048);
/// assert_eq!(policy.max_content_blocks(), 16);
/// ```
///
/// The redaction rules a policy adds are data, read by the built-in scanners in the same
/// passes (no pattern language, so redaction stays linear in the text):
///
/// - `secret_keys`: key names judged secret wherever the built-in names are (structured
///   members, `key=value` and `key: value` text, headers, flags, query parameters),
///   compared as the built-in names are: any case and separators, plurals, inside a
///   longer name or at the end of a joined word (`acme_session` matches `AcmeSession`,
///   `X-ACME-SESSIONS`, `myacmesession`), but not in a longer name that only describes
///   the secret (`acme_session_expires_at`).
/// - `token_formats`: token families in the built-in table's form ([`TokenFormat`]):
///   `[REDACTED:<family>]`, counted per family in `evidence.redactions`.
/// - `allow`: exact values never redacted (a published demo key): a span a rule would
///   redact is kept only when it is one of them whole. An allowed value inside a longer
///   secret, or a secret inside an allowed value's text, is redacted as ever, and so is
///   every other secret beside it.
/// - `allow_keys`: key names never judged secret (`session_token` in a system where it
///   names no credential), matched as the whole name in any case style. Only the key-name rules let their values pass: a value that
///   is a token, a JWT or a private key is still redacted by its own rule.
///
/// ```
/// let policy = codemode_errors::Policy::from_json(
///     r#"{"secret_keys": ["acme_session"], "allow": ["pk_demo_0000"], "allow_keys": ["session_token"]}"#,
/// )?;
/// let text = "AcmeSession=s3cr3t session_token=abc123";
/// let default = codemode_errors::Normalizer::default();
/// assert_eq!(default.redact_text(text), "AcmeSession=s3cr3t session_token=[REDACTED:secret_field]");
/// let n = codemode_errors::Normalizer::new(policy);
/// assert_eq!(n.redact_text(text), "AcmeSession=[REDACTED:secret_field] session_token=abc123");
/// assert_eq!(n.redact_text("api_key=pk_demo_0000, password=hunter2"), "api_key=pk_demo_0000, password=[REDACTED:secret_field]");
/// # Ok::<(), codemode_errors::ReportError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Policy {
    /// One value per cap, in [`Cap::ALL`] order.
    values: [u32; CAP_COUNT],
    /// What the policy adds to the redaction rules, shared by its clones; `None` when it
    /// adds nothing.
    custom: Option<Arc<Custom>>,
}

/// The lists of a policy as given, and the rules compiled from them.
#[derive(Default)]
struct Custom {
    secret_keys: Vec<String>,
    token_formats: Vec<TokenFormat>,
    allow: Vec<String>,
    allow_keys: Vec<String>,
    rules: Option<CustomRules>,
}

impl std::fmt::Debug for Custom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Custom")
            .field("secret_keys", &self.secret_keys)
            .field("token_formats", &self.token_formats)
            .field("allow", &self.allow)
            .field("allow_keys", &self.allow_keys)
            .finish()
    }
}

impl Custom {
    fn lists(&self) -> (&[String], &[TokenFormat], &[String], &[String]) {
        (&self.secret_keys, &self.token_formats, &self.allow, &self.allow_keys)
    }

    fn is_empty(&self) -> bool {
        self.secret_keys.is_empty() && self.token_formats.is_empty() && self.allow.is_empty() && self.allow_keys.is_empty()
    }

    /// The lists compiled into rules (the lists are checked already), checked once more
    /// as compiled: a format's family is written in every object's `evidence.redactions`
    /// and read back through the same rules, so no rule may redact it.
    fn compiled(mut self) -> Result<Option<Arc<Custom>>, ReportError> {
        if self.is_empty() {
            return Ok(None);
        }
        let canonical = |names: &[String]| names.iter().filter_map(|n| canonical_key(n)).collect::<Vec<_>>();
        let keys = KeyNames::new(&canonical(&self.secret_keys), &canonical(&self.allow_keys));
        let rules = CustomRules::new(keys, CustomTokens::new(&self.token_formats), &self.allow);
        for (i, f) in self.token_formats.iter().enumerate() {
            if crate::text::redact::redact_secrets(&f.family, &rules, &mut Redactions::default()) != f.family.as_str() {
                let path = format!("{}[{i}].family", RuleList::TokenFormats);
                return Err(invalid(path, "would itself be redacted (it reads as a secret to the rules in force)"));
            }
        }
        self.rules = Some(rules);
        Ok(Some(Arc::new(self)))
    }
}

const CAP_COUNT: usize = Cap::ALL.len();

impl Default for Policy {
    fn default() -> Self {
        let mut values = [0; CAP_COUNT];
        for (v, cap) in values.iter_mut().zip(Cap::ALL) {
            *v = cap.spec().default;
        }
        Policy { values, custom: None }
    }
}

impl PartialEq for Policy {
    fn eq(&self, other: &Self) -> bool {
        fn lists(p: &Policy) -> (&[String], &[TokenFormat], &[String], &[String]) {
            p.custom.as_deref().map_or((&[], &[], &[], &[]), Custom::lists)
        }
        self.values == other.values && lists(self) == lists(other)
    }
}

impl Eq for Policy {}

impl Policy {
    /// The value of `cap`.
    ///
    /// ```
    /// use codemode_errors::{Cap, Policy};
    /// assert_eq!(Policy::default().get(Cap::MaxJsonItems), 32);
    /// ```
    pub fn get(&self, cap: Cap) -> usize {
        self.values[cap as usize] as usize
    }

    /// Content blocks shown as evidence.
    ///
    /// ```
    /// assert_eq!(codemode_errors::Policy::default().max_content_blocks(), 16);
    /// ```
    pub fn max_content_blocks(&self) -> usize {
        self.get(Cap::MaxContentBlocks)
    }

    /// UTF-16 code units kept of each text block.
    ///
    /// ```
    /// assert_eq!(codemode_errors::Policy::default().max_text_chars(), 8192);
    /// ```
    pub fn max_text_chars(&self) -> usize {
        self.get(Cap::MaxTextChars)
    }

    /// Serialized bytes of `evidence.structured_content`.
    ///
    /// ```
    /// assert_eq!(codemode_errors::Policy::default().max_structured_bytes(), 8192);
    /// ```
    pub fn max_structured_bytes(&self) -> usize {
        self.get(Cap::MaxStructuredBytes)
    }

    /// Serialized bytes of `evidence.parsed_error`.
    ///
    /// ```
    /// assert_eq!(codemode_errors::Policy::default().max_parsed_error_bytes(), 4096);
    /// ```
    pub fn max_parsed_error_bytes(&self) -> usize {
        self.get(Cap::MaxParsedErrorBytes)
    }

    /// Serialized bytes of the whole error object.
    ///
    /// ```
    /// assert_eq!(codemode_errors::Policy::default().max_error_bytes(), 32768);
    /// ```
    pub fn max_error_bytes(&self) -> usize {
        self.get(Cap::MaxErrorBytes)
    }

    /// Nesting levels kept in structured evidence.
    ///
    /// ```
    /// assert_eq!(codemode_errors::Policy::default().max_json_depth(), 8);
    /// ```
    pub fn max_json_depth(&self) -> usize {
        self.get(Cap::MaxJsonDepth)
    }

    /// Items or members kept per level of structured evidence.
    ///
    /// ```
    /// assert_eq!(codemode_errors::Policy::default().max_json_items(), 32);
    /// ```
    pub fn max_json_items(&self) -> usize {
        self.get(Cap::MaxJsonItems)
    }

    /// UTF-16 code units kept of each string in structured evidence.
    ///
    /// ```
    /// assert_eq!(codemode_errors::Policy::default().max_json_string_chars(), 1024);
    /// ```
    pub fn max_json_string_chars(&self) -> usize {
        self.get(Cap::MaxJsonStringChars)
    }

    /// Largest text block parsed in search of a JSON error object.
    ///
    /// ```
    /// assert_eq!(codemode_errors::Policy::default().max_parse_chars(), 65536);
    /// ```
    pub fn max_parse_chars(&self) -> usize {
        self.get(Cap::MaxParseChars)
    }

    /// Key names the policy judges secret, as given.
    ///
    /// ```
    /// let policy = codemode_errors::Policy::default().with_secret_key("acme_session")?;
    /// assert_eq!(policy.secret_keys(), ["acme_session"]);
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn secret_keys(&self) -> &[String] {
        self.custom.as_deref().map_or(&[], |c| &c.secret_keys)
    }

    /// Token formats the policy adds, as given.
    ///
    /// ```
    /// let policy = codemode_errors::Policy::from_json(
    ///     r#"{"token_formats": [{"family": "acme_token", "prefix": "acme_", "alphabet": "alnum", "min_body_length": 24}]}"#,
    /// )?;
    /// assert_eq!(policy.token_formats()[0].prefix, "acme_");
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn token_formats(&self) -> &[TokenFormat] {
        self.custom.as_deref().map_or(&[], |c| &c.token_formats)
    }

    /// Values the policy never redacts, as given.
    ///
    /// ```
    /// let policy = codemode_errors::Policy::default().with_allowed("pk_demo_0000")?;
    /// assert_eq!(policy.allow(), ["pk_demo_0000"]);
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn allow(&self) -> &[String] {
        self.custom.as_deref().map_or(&[], |c| &c.allow)
    }

    /// Key names the policy never judges secret, as given.
    ///
    /// ```
    /// let policy = codemode_errors::Policy::default().with_allowed_key("token_budget")?;
    /// assert_eq!(policy.allow_keys(), ["token_budget"]);
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn allow_keys(&self) -> &[String] {
        self.custom.as_deref().map_or(&[], |c| &c.allow_keys)
    }

    /// The policy's additions to the redaction rules, compiled.
    pub(crate) fn custom_rules(&self) -> &CustomRules {
        self.custom.as_deref().and_then(|c| c.rules.as_ref()).unwrap_or(CustomRules::none())
    }
}

impl Policy {
    /// Parse a policy from a JSON object of cap names to whole numbers and of the
    /// redaction lists (`secret_keys`, `token_formats`, `allow`, `allow_keys`) to arrays.
    /// Missing settings keep their defaults; unknown names, out-of-range values and
    /// malformed or oversized lists are `invalid_policy` errors naming the member
    /// (`token_formats[2].prefix`).
    ///
    /// ```
    /// use codemode_errors::Policy;
    /// assert_eq!(Policy::from_json(r#"{"max_json_depth": 4}"#)?.max_json_depth(), 4);
    /// let err = Policy::from_json(r#"{"max_text_chars": 10}"#).unwrap_err();
    /// assert_eq!((err.code().as_str(), err.path()), ("invalid_policy", "max_text_chars"));
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn from_json(text: &str) -> Result<Self, ReportError> {
        let value = parse_json(text).map_err(|e| ReportError::new(ErrorCode::InvalidPolicy, e.path(), e.message()))?;
        Self::from_value(&value)
    }

    /// Build a policy from an already-read JSON value.
    ///
    /// ```
    /// use codemode_errors::{parse_json, Policy};
    /// let policy = Policy::from_value(&parse_json(r#"{"max_content_blocks": 4, "allow_keys": ["token_budget"]}"#)?)?;
    /// assert_eq!((policy.max_content_blocks(), policy.allow_keys().len()), (4, 1));
    /// assert_eq!(Policy::from_value(&parse_json("[]")?).unwrap_err().code().as_str(), "invalid_policy");
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn from_value(value: &Json) -> Result<Self, ReportError> {
        let members = value.as_object().ok_or_else(|| {
            ReportError::new(ErrorCode::InvalidPolicy, "", format!("a policy is a JSON object, not {}", value.type_name()))
        })?;
        let mut policy = Policy::default();
        let mut custom = Custom::default();
        for (key, v) in members.items() {
            match RuleList::from_wire(key) {
                Some(RuleList::SecretKeys) => custom.secret_keys = strings(v, RuleList::SecretKeys, key_name_problem)?,
                Some(RuleList::AllowKeys) => custom.allow_keys = strings(v, RuleList::AllowKeys, key_name_problem)?,
                Some(RuleList::Allow) => custom.allow = strings(v, RuleList::Allow, allowed_value_problem)?,
                Some(RuleList::TokenFormats) => custom.token_formats = token_formats(v)?,
                None => policy = policy.with(key, v.as_f64().unwrap_or(f64::NAN))?,
            }
        }
        check_lists(&custom)?;
        policy.custom = custom.compiled()?;
        Ok(policy)
    }

    /// This policy with the cap `name` set to `value`.
    ///
    /// ```
    /// use codemode_errors::Policy;
    /// assert_eq!(Policy::default().with("max_text_chars", 2048.0)?.max_text_chars(), 2048);
    /// assert_eq!(Policy::default().with("max_text_chars", 2048.5).unwrap_err().path(), "max_text_chars");
    /// assert!(Policy::default().with("max_tokens", 10.0).is_err()); // unknown setting
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn with(mut self, name: &str, value: f64) -> Result<Self, ReportError> {
        if RuleList::from_wire(name).is_some() {
            return Err(ReportError::new(ErrorCode::InvalidPolicy, name, "is a list, not a cap; add its entries one by one"));
        }
        let Some(cap) = Cap::from_wire(name) else {
            let known: Vec<&str> = Cap::ALL.iter().map(|c| c.as_str()).chain(RuleList::ALL.iter().map(|l| l.as_str())).collect();
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

    /// This policy with one more key name judged secret (`secret_keys`).
    ///
    /// ```
    /// use codemode_errors::{Normalizer, Policy};
    /// let normalizer = Normalizer::new(Policy::default().with_secret_key("acme_session")?);
    /// assert_eq!(normalizer.redact_text("X-Acme-Session: s3cr3t"), "X-Acme-Session: [REDACTED:secret_field]");
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn with_secret_key(self, name: &str) -> Result<Self, ReportError> {
        self.with_entry(RuleList::SecretKeys, |c| c.secret_keys.push(name.to_owned()))
    }

    /// This policy with one more token format (`token_formats`).
    ///
    /// ```
    /// use codemode_errors::{Policy, TokenAlphabet, TokenFormat};
    /// let bad = TokenFormat { family: "Acme".into(), prefix: "acme_".into(), alphabet: TokenAlphabet::Alnum, min_body_length: 24 };
    /// assert_eq!(Policy::default().with_token_format(bad).unwrap_err().path(), "token_formats[0].family");
    /// ```
    pub fn with_token_format(self, format: TokenFormat) -> Result<Self, ReportError> {
        self.with_entry(RuleList::TokenFormats, |c| c.token_formats.push(format))
    }

    /// This policy with one more value never redacted (`allow`).
    ///
    /// ```
    /// use codemode_errors::{Normalizer, Policy};
    /// let normalizer = Normalizer::new(Policy::default().with_allowed("pk_demo_0000")?);
    /// assert_eq!(normalizer.redact_text("api_key=pk_demo_0000"), "api_key=pk_demo_0000");
    /// assert_eq!(normalizer.redact_text("api_key=pk_live_1234"), "api_key=[REDACTED:secret_field]");
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn with_allowed(self, value: &str) -> Result<Self, ReportError> {
        self.with_entry(RuleList::Allow, |c| c.allow.push(value.to_owned()))
    }

    /// This policy with one more key name never judged secret (`allow_keys`).
    ///
    /// ```
    /// use codemode_errors::{Normalizer, Policy};
    /// assert_eq!(Normalizer::default().redact_text("session_token=abc123"), "session_token=[REDACTED:secret_field]");
    /// let normalizer = Normalizer::new(Policy::default().with_allowed_key("session_token")?);
    /// assert_eq!(normalizer.redact_text("session_token=abc123"), "session_token=abc123");
    /// // A value that is a token is still redacted by its own rule.
    /// let token = "session_token=ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    /// assert_eq!(normalizer.redact_text(token), "session_token=[REDACTED:github_token]");
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn with_allowed_key(self, name: &str) -> Result<Self, ReportError> {
        self.with_entry(RuleList::AllowKeys, |c| c.allow_keys.push(name.to_owned()))
    }

    /// This policy with an entry added to one of its lists, checked as `from_json` checks it.
    fn with_entry(mut self, list: RuleList, add: impl FnOnce(&mut Custom)) -> Result<Self, ReportError> {
        let (secret_keys, token_formats, allow, allow_keys) = match self.custom.as_deref() {
            Some(c) => (c.secret_keys.clone(), c.token_formats.clone(), c.allow.clone(), c.allow_keys.clone()),
            None => Default::default(),
        };
        let mut custom = Custom { secret_keys, token_formats, allow, allow_keys, rules: None };
        add(&mut custom);
        let (len, last) = match list {
            RuleList::SecretKeys => (custom.secret_keys.len(), custom.secret_keys.last().and_then(|n| key_name_problem(n))),
            RuleList::AllowKeys => (custom.allow_keys.len(), custom.allow_keys.last().and_then(|n| key_name_problem(n))),
            RuleList::Allow => (custom.allow.len(), custom.allow.last().and_then(|v| allowed_value_problem(v))),
            RuleList::TokenFormats => (custom.token_formats.len(), None),
        };
        if len > list.max_entries() {
            return Err(too_many(list));
        }
        if let Some(problem) = last {
            return Err(ReportError::new(ErrorCode::InvalidPolicy, format!("{list}[{}]", len - 1), problem));
        }
        if let (RuleList::TokenFormats, Some(format)) = (list, custom.token_formats.last()) {
            if let Some((member, problem)) = format.problem() {
                return Err(ReportError::new(ErrorCode::InvalidPolicy, format!("{list}[{}].{member}", len - 1), problem));
            }
        }
        check_lists(&custom)?;
        self.custom = custom.compiled()?;
        Ok(self)
    }

    /// The policy as a JSON object with every cap and every list, for display and round
    /// trips.
    ///
    /// ```
    /// use codemode_errors::Policy;
    /// let policy = Policy::default().with("max_text_chars", 2048.0)?.with_secret_key("acme_session")?;
    /// let json = policy.to_json();
    /// assert!(json.contains(r#""max_text_chars":2048"#) && json.contains(r#""secret_keys":["acme_session"]"#));
    /// assert_eq!(Policy::from_json(&json)?, policy); // a round trip
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(512);
        out.push('{');
        for (c, v) in Cap::ALL.iter().zip(self.values) {
            out.push_str(&format!("\"{c}\":{v},"));
        }
        let strings = |out: &mut String, name: RuleList, list: &[String]| {
            out.push_str(&format!("\"{name}\":["));
            for (i, s) in list.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, s);
            }
            out.push_str("],");
        };
        strings(&mut out, RuleList::SecretKeys, self.secret_keys());
        out.push_str(&format!("\"{}\":[", RuleList::TokenFormats));
        for (i, f) in self.token_formats().iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"family\":");
            write_string(&mut out, &f.family);
            out.push_str(",\"prefix\":");
            write_string(&mut out, &f.prefix);
            out.push_str(&format!(",\"alphabet\":\"{}\",\"min_body_length\":{}}}", f.alphabet, f.min_body_length));
        }
        out.push_str("],");
        strings(&mut out, RuleList::Allow, self.allow());
        strings(&mut out, RuleList::AllowKeys, self.allow_keys());
        out.pop();
        out.push('}');
        out
    }
}

fn invalid(path: impl Into<String>, message: impl Into<String>) -> ReportError {
    ReportError::new(ErrorCode::InvalidPolicy, path, message)
}

fn too_many(list: RuleList) -> ReportError {
    invalid(list.as_str(), format!("holds at most {} entries", list.max_entries()))
}

/// The entries of a list: an array (of `what`) of at most the list's entries.
fn entries<'a>(value: &'a Json, list: RuleList, what: &str) -> Result<&'a [Json], ReportError> {
    let items = value.as_array().ok_or_else(|| invalid(list.as_str(), format!("must be an array of {what}, not {}", value.type_name())))?;
    if items.total() > list.max_entries() {
        return Err(too_many(list));
    }
    Ok(items.items())
}

/// The entries of a list of strings, each checked by `problem`.
fn strings(value: &Json, list: RuleList, problem: fn(&str) -> Option<String>) -> Result<Vec<String>, ReportError> {
    let items = entries(value, list, "strings")?;
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let path = || format!("{list}[{i}]");
        let text = item.as_text().ok_or_else(|| invalid(path(), format!("must be a string, not {}", item.type_name())))?;
        if !text.is_complete() || text.total_utf16() > MAX_ENTRY_CHARS {
            return Err(invalid(path(), format!("must be at most {MAX_ENTRY_CHARS} characters")));
        }
        if let Some(p) = problem(text.head()) {
            return Err(invalid(path(), p));
        }
        out.push(text.head().to_owned());
    }
    Ok(out)
}

/// What is wrong with a key name of `secret_keys` or `allow_keys`.
fn key_name_problem(name: &str) -> Option<String> {
    if name.is_empty() || name.len() > MAX_ENTRY_CHARS || !name.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return Some(format!("must be 1 to {MAX_ENTRY_CHARS} printable ASCII characters"));
    }
    canonical_key(name).is_none().then(|| "names no word (it has no letter or digit)".to_owned())
}

/// What is wrong with a value of `allow`: it must be a text the redactor can see, one
/// the text pipeline leaves as it is.
fn allowed_value_problem(value: &str) -> Option<String> {
    if value.is_empty() || utf16_len(value) > MAX_ENTRY_CHARS {
        return Some(format!("must be 1 to {MAX_ENTRY_CHARS} characters"));
    }
    let mut counts = Redactions::default();
    let sanitized = crate::text::sanitize::strip_controls(value);
    let seen = crate::text::defang::defang_markers(&sanitized, &mut counts);
    (seen != value || value.contains(MARKER_PREFIX)).then(|| {
        "must read as it is after sanitizing (no control or invisible character, chat-template marker or redaction marker)".to_owned()
    })
}

/// The entries of `token_formats`.
fn token_formats(value: &Json) -> Result<Vec<TokenFormat>, ReportError> {
    let list = RuleList::TokenFormats;
    let items = entries(value, list, "objects")?;
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        out.push(token_format(item).map_err(|e| e.within(&format!("{list}[{i}]")))?);
    }
    Ok(out)
}

/// The members a token format has, in the order `to_json` writes them.
const FORMAT_MEMBERS: &[&str] = &["family", "prefix", "alphabet", "min_body_length"];

/// One entry of `token_formats`; errors have paths relative to it.
fn token_format(value: &Json) -> Result<TokenFormat, ReportError> {
    let members = value.as_object().ok_or_else(|| invalid("", format!("a token format is an object, not {}", value.type_name())))?;
    if let Some((key, _)) = members.items().iter().find(|(k, _)| !FORMAT_MEMBERS.contains(&k.as_str())) {
        return Err(invalid(key.as_str(), format!("unknown member; expected {}", FORMAT_MEMBERS.join(", "))));
    }
    let text = |key: &str| match value.get(key) {
        Some(Json::String(t)) if t.is_complete() && t.total_utf16() <= MAX_ENTRY_CHARS => Ok(t.head().to_owned()),
        Some(Json::String(_)) => Err(invalid(key, format!("must be at most {MAX_ENTRY_CHARS} characters"))),
        Some(other) => Err(invalid(key, format!("must be a string, not {}", other.type_name()))),
        None => Err(invalid(key, "is required")),
    };
    let (family, prefix, alphabet) = (text("family")?, text("prefix")?, text("alphabet")?);
    let alphabet = TokenAlphabet::from_wire(&alphabet).ok_or_else(|| {
        let known: Vec<&str> = TokenAlphabet::ALL.iter().map(|a| a.as_str()).collect();
        invalid("alphabet", format!("unknown alphabet; expected one of {}", known.join(", ")))
    })?;
    let min = match value.get("min_body_length") {
        Some(v) => v.as_f64().unwrap_or(f64::NAN),
        None => return Err(invalid("min_body_length", "is required")),
    };
    let min_body_length = if min.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&min) { min as u32 } else { 0 };
    let format = TokenFormat { family, prefix, alphabet, min_body_length };
    match format.problem() {
        Some((member, problem)) => Err(invalid(member, problem)),
        None => Ok(format),
    }
}

/// What the lists must agree on together: a token format's prefix is declared once, and a
/// key name is not both secret and never secret.
fn check_lists(custom: &Custom) -> Result<(), ReportError> {
    for (i, f) in custom.token_formats.iter().enumerate() {
        if let Some(j) = custom.token_formats[..i].iter().position(|g| g.prefix == f.prefix) {
            return Err(invalid(format!("{}[{i}].prefix", RuleList::TokenFormats), format!("repeats the prefix of token_formats[{j}]")));
        }
    }
    let secret: Vec<Option<String>> = custom.secret_keys.iter().map(|n| canonical_key(n)).collect();
    for (i, name) in custom.allow_keys.iter().enumerate() {
        let canonical = canonical_key(name);
        if let Some(j) = secret.iter().position(|s| *s == canonical) {
            return Err(invalid(format!("{}[{i}]", RuleList::AllowKeys), format!("names the same key as secret_keys[{j}]")));
        }
    }
    Ok(())
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

    const LISTS: &str = r#"{"max_text_chars": 100, "secret_keys": ["acme_session", "X-Tenant-Ref"],
        "token_formats": [{"family": "acme_token", "prefix": "acme_", "alphabet": "alnum", "min_body_length": 24}],
        "allow": ["pk_demo_0000", "ünïcode demo"], "allow_keys": ["token_budget"]}"#;

    #[test]
    fn lists_round_trip_through_json_as_given() {
        let p = Policy::from_json(LISTS).unwrap();
        assert_eq!(p.secret_keys(), ["acme_session", "X-Tenant-Ref"]);
        assert_eq!(p.token_formats()[0].alphabet, TokenAlphabet::Alnum);
        assert_eq!(p.allow(), ["pk_demo_0000", "ünïcode demo"]);
        assert_eq!(p.allow_keys(), ["token_budget"]);
        let json = p.to_json();
        assert!(json.ends_with(r#""secret_keys":["acme_session","X-Tenant-Ref"],"token_formats":[{"family":"acme_token","prefix":"acme_","alphabet":"alnum","min_body_length":24}],"allow":["pk_demo_0000","ünïcode demo"],"allow_keys":["token_budget"]}"#), "{json}");
        assert_eq!(Policy::from_json(&json).unwrap(), p);
        // Empty lists are no additions: the same policy as the defaults.
        let empty = Policy::from_json(r#"{"secret_keys": [], "token_formats": [], "allow": [], "allow_keys": []}"#).unwrap();
        assert_eq!(empty, Policy::default());
        assert!(empty.custom.is_none());
        assert_eq!(Policy::from_json(&Policy::default().to_json()).unwrap(), Policy::default());
    }

    #[test]
    fn the_builders_check_what_from_json_checks() {
        let acme = TokenFormat { family: "acme_token".into(), prefix: "acme_".into(), alphabet: TokenAlphabet::Alnum, min_body_length: 24 };
        let built = Policy::default()
            .with("max_text_chars", 100.0)
            .and_then(|p| p.with_secret_key("acme_session"))
            .and_then(|p| p.with_secret_key("X-Tenant-Ref"))
            .and_then(|p| p.with_token_format(acme.clone()))
            .and_then(|p| p.with_allowed("pk_demo_0000"))
            .and_then(|p| p.with_allowed("ünïcode demo"))
            .and_then(|p| p.with_allowed_key("token_budget"))
            .unwrap();
        assert_eq!(built, Policy::from_json(LISTS).unwrap());
        let path = |r: Result<Policy, ReportError>| r.map(|_| ()).unwrap_err().path().to_owned();
        assert_eq!(path(built.clone().with_secret_key("")), "secret_keys[2]");
        assert_eq!(
            path(built.clone().with_token_format(TokenFormat { min_body_length: 2, ..acme.clone() })),
            "token_formats[1].min_body_length"
        );
        assert_eq!(path(built.clone().with_token_format(acme)), "token_formats[1].prefix");
        assert_eq!(path(built.clone().with_allowed("a\u{200B}b")), "allow[2]");
        assert_eq!(path(built.clone().with_allowed_key("ACME-SESSIONS")), "allow_keys[1]");
        assert_eq!(path(built.with("secret_keys", 1.0)), "secret_keys");
    }

    #[test]
    fn bad_lists_are_refused_with_their_path() {
        let refused = |json: &str| {
            let e = Policy::from_json(json).unwrap_err();
            assert_eq!(e.code(), ErrorCode::InvalidPolicy, "{json}");
            (e.path().to_owned(), e.message().to_owned())
        };
        let format = |member: &str| {
            format!(r#"{{"token_formats": [{{"family": "a", "prefix": "abc", "alphabet": "hex", "min_body_length": 8}}, {{{member}}}]}}"#)
        };
        for (json, path) in [
            (r#"{"secret_keys": "acme"}"#.to_owned(), "secret_keys"),
            (r#"{"secret_keys": [1]}"#.to_owned(), "secret_keys[0]"),
            (r#"{"secret_keys": ["ok", "--"]}"#.to_owned(), "secret_keys[1]"),
            (r#"{"secret_keys": ["tab\tname"]}"#.to_owned(), "secret_keys[0]"),
            (format!(r#"{{"secret_keys": ["{}"]}}"#, "k".repeat(129)), "secret_keys[0]"),
            (format!(r#"{{"allow": [{}]}}"#, vec!["\"v\""; 257].join(",")), "allow"),
            (r#"{"allow": [""]}"#.to_owned(), "allow[0]"),
            (r#"{"allow": ["x [REDACTED:jwt]"]}"#.to_owned(), "allow[0]"),
            (r#"{"allow": ["<|im_start|>"]}"#.to_owned(), "allow[0]"),
            (r#"{"allow_keys": ["acme"], "secret_keys": ["ACME"]}"#.to_owned(), "allow_keys[0]"),
            (r#"{"token_formats": {}}"#.to_owned(), "token_formats"),
            (r#"{"token_formats": ["acme_"]}"#.to_owned(), "token_formats[0]"),
            (format(r#""family": "b", "prefix": "abd", "alphabet": "hex""#), "token_formats[1].min_body_length"),
            (format(r#""family": "b", "prefix": "abd", "alphabet": "base62", "min_body_length": 8"#), "token_formats[1].alphabet"),
            (
                format(r#""family": "b", "prefix": "abd", "alphabet": "hex", "min_body_length": 8, "max_length": 9"#),
                "token_formats[1].max_length",
            ),
            (format(r#""family": "B", "prefix": "abd", "alphabet": "hex", "min_body_length": 8"#), "token_formats[1].family"),
            (format(r#""family": "b", "prefix": "a d", "alphabet": "hex", "min_body_length": 8"#), "token_formats[1].prefix"),
            (format(r#""family": "b", "prefix": "abc", "alphabet": "hex", "min_body_length": 8"#), "token_formats[1].prefix"),
            (format(r#""family": "b", "prefix": "abd", "alphabet": "hex", "min_body_length": 8.5"#), "token_formats[1].min_body_length"),
            (format(r#""family": 7, "prefix": "abd", "alphabet": "hex", "min_body_length": 8"#), "token_formats[1].family"),
            (
                format!(
                    r#"{{"token_formats": [{}]}}"#,
                    vec![r#"{"family":"a","prefix":"abc","alphabet":"hex","min_body_length":8}"#; 65].join(",")
                ),
                "token_formats",
            ),
        ] {
            assert_eq!(refused(&json).0, path, "{json}");
        }
        assert!(refused(r#"{"allow": [""]}"#).1.contains("1 to 128"));
        assert!(refused(&format(r#""family": "b", "prefix": "abd", "alphabet": "hex", "min_body_length": 300"#))
            .1
            .contains("from 8 to 256"));
        assert!(refused(r#"{"secret_key": []}"#).1.contains("secret_keys, token_formats, allow, allow_keys"));
        // A family the rules would redact could not be read back: by its own format, or a built-in one.
        let own = r#"{"token_formats": [{"family": "acme_token_family", "prefix": "acme", "alphabet": "word", "min_body_length": 8}]}"#;
        assert_eq!(refused(own).0, "token_formats[0].family");
        let stripe =
            r#"{"token_formats": [{"family": "sk_live_abcdefghijklmnop", "prefix": "acme_", "alphabet": "alnum", "min_body_length": 8}]}"#;
        assert_eq!(refused(stripe).0, "token_formats[0].family");
    }

    #[test]
    fn every_list_is_documented_with_its_bound() {
        let contract = include_str!("../../docs/contract.md");
        for list in RuleList::ALL {
            let row = format!("| `{list}` | {} |", list.max_entries());
            assert!(contract.lines().any(|l| l.starts_with(&row)), "docs/contract.md has no row {row}");
        }
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
