//! Text safety: everything a model reads passes through here. [`clean`] is the pipeline
//! (sanitize, redact, defang, then cap); the other modules are its steps.

pub(crate) mod clean;
pub(crate) mod redact;
pub(crate) mod safe;
pub(crate) mod sanitize;
pub(crate) mod scan;
pub(crate) mod secret_names;
pub(crate) mod tokens;

pub(crate) use clean::{capped_text, clean_text, clean_whole, cut_safe, label, one_line, CappedText, REDACTION_MARGIN};
pub(crate) use redact::marker;
pub use redact::Redactions;
pub(crate) use safe::SafeTextBuilder;
pub use safe::{SafeJson, SafeText};
pub(crate) use secret_names::is_secret_key;
