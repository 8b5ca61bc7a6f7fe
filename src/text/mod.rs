//! Text safety: everything a model reads passes through here. [`clean`] is the pipeline
//! (sanitize, redact, defang, then cap); the other modules are its steps.

pub(crate) mod clean;
pub(crate) mod redact;
pub(crate) mod sanitize;
pub(crate) mod scan;
pub(crate) mod secret_names;

pub(crate) use clean::{capped_text, clean_text, cut_at, label, without_open_marker, CappedText, REDACTION_MARGIN};
pub use redact::Redactions;
pub(crate) use redact::{marker, redact_secrets};
pub(crate) use sanitize::{defang_chat_markers, strip_controls, strip_controls_prefix};
pub(crate) use secret_names::is_secret_key;
