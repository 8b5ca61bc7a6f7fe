//! Secret redaction: the baseline rules, kept as data.
//!
//! Each [`SecretRule`] names a family, literal hints of which one must occur (ASCII
//! case-insensitively) before the rule runs at all, and a scanner from [`crate::text::scan`]
//! that finds the secret spans; a rule that judges key names also needs one of the stems
//! every built-in secret name holds. Most hints are ruled out without a search, by the
//! bytes and pairs of bytes the text holds ([`Hints`]); the places where the stems start
//! are found once, when a rule first asks, and every rule that judges key names (and every
//! hint that starts with a stem) reads them instead of searching the text again. A
//! policy's additions ([`CustomRules`]) are read by the same scanners: its key names by
//! the rules that judge key names, its token formats by the provider-token scanner, its
//! allowed values where a span is taken. In a long text the pairs are also told block by
//! block ([`Hints::lines`]): the stems are sought, and the rules that judge only the line
//! their anchor stands on ([`SecretRule::lines`]) read, only where an anchor may start,
//! so a log with a secret every few hundred lines is read about once, not once a rule.
//! A span becomes `[REDACTED:<family>]`; the text
//! around it that helps a reader (a header name, a URL scheme, quotes) is kept. Every
//! redaction is counted by family; the secret itself is never recorded. The scanners are
//! plain byte loops: redaction runs on every text block, so it must cost little.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::ops::Range;

use crate::search::{contains_ignore_ascii_case, find_byte, hints, pair_index, AsciiSet, BlockPairs, Literal, PairSet, ShortPairs};
use crate::text::custom::CustomRules;
use crate::text::safe::SafeText;
use crate::text::scan;
use crate::text::secret_names::{KeyNames, StemStarts, SECRET_NAME_STEMS};
use crate::text::tokens::{CustomTokens, TOKENS};

/// Redaction counts by family, as shown in `evidence.redactions`. The families are the
/// few of the redaction rules (and of a policy's token formats), so the counts are a
/// short list kept sorted by family.
///
/// ```
/// use codemode_errors::{Normalizer, Redactions};
/// let mut counts = Redactions::default();
/// Normalizer::default().redact_text_counted("password=a Authorization: Bearer abc.def.ghi123", &mut counts);
/// assert_eq!(counts.total(), 2);
/// assert_eq!(counts.get("secret_field"), 1);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Redactions(Vec<(Cow<'static, str>, u64)>);

impl Redactions {
    /// Count one redaction of `family`.
    ///
    /// ```
    /// let mut counts = codemode_errors::Redactions::default();
    /// counts.add("github_token");
    /// counts.add("github_token");
    /// assert_eq!(counts.get("github_token"), 2);
    /// ```
    pub fn add(&mut self, family: &'static str) {
        self.add_family(Family::Builtin(family), 1);
    }

    fn add_family(&mut self, family: Family<'_>, n: u64) {
        match self.0.binary_search_by(|(f, _)| f.as_ref().cmp(family.name())) {
            Ok(i) => self.0[i].1 += n,
            Err(i) => self.0.insert(i, (family.to_cow(), n)),
        }
    }

    /// How many redactions `family` made.
    ///
    /// ```
    /// let mut counts = codemode_errors::Redactions::default();
    /// counts.add("jwt");
    /// assert_eq!((counts.get("jwt"), counts.get("aws_key")), (1, 0));
    /// ```
    pub fn get(&self, family: &str) -> u64 {
        self.0.binary_search_by(|(f, _)| f.as_ref().cmp(family)).map_or(0, |i| self.0[i].1)
    }

    /// Add every count of `other`.
    ///
    /// ```
    /// use codemode_errors::Redactions;
    /// let (mut a, mut b) = (Redactions::default(), Redactions::default());
    /// a.add("jwt");
    /// b.add("jwt");
    /// b.add("secret_field");
    /// a.merge(&b);
    /// assert_eq!((a.get("jwt"), a.get("secret_field"), a.total()), (2, 1, 3));
    /// ```
    pub fn merge(&mut self, other: &Redactions) {
        for (family, n) in &other.0 {
            let family = match family {
                Cow::Borrowed(f) => Family::Builtin(f),
                Cow::Owned(f) => Family::Custom(f),
            };
            self.add_family(family, *n);
        }
    }

    /// The first built-in family counted (in the order of names), if any.
    fn first_builtin(&self) -> Option<&'static str> {
        self.0.iter().find_map(|(family, _)| match family {
            Cow::Borrowed(f) => Some(*f),
            Cow::Owned(_) => None,
        })
    }

    /// Total redactions of every family.
    ///
    /// ```
    /// let mut counts = codemode_errors::Redactions::default();
    /// counts.add("jwt");
    /// counts.add("secret_field");
    /// assert_eq!(counts.total(), 2);
    /// ```
    pub fn total(&self) -> u64 {
        self.0.iter().map(|(_, n)| n).sum()
    }

    /// The counts as `(family, count)` pairs sorted by family.
    ///
    /// ```
    /// let mut counts = codemode_errors::Redactions::default();
    /// counts.add("secret_field");
    /// counts.add("jwt");
    /// let pairs: Vec<(String, u64)> = counts.to_pairs().into_iter().map(|(f, n)| (f.into_string(), n)).collect();
    /// assert_eq!(pairs, [("jwt".to_owned(), 1), ("secret_field".to_owned(), 1)]); // sorted by family
    /// ```
    pub fn to_pairs(&self) -> Vec<(SafeText, u64)> {
        let name = |family: &Cow<'static, str>| match family {
            Cow::Borrowed(f) => SafeText::literal(f),
            // A policy's families are checked identifiers.
            Cow::Owned(f) => SafeText::identifier(f).unwrap_or_else(|| SafeText::literal("token")),
        };
        self.0.iter().map(|(k, v)| (name(k), *v)).collect()
    }
}

/// The family a span is redacted as: a built-in rule's, or a policy token format's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family<'r> {
    /// A built-in rule's family.
    Builtin(&'static str),
    /// A policy's token format's family (a checked identifier).
    Custom(&'r str),
}

impl Family<'_> {
    /// The family's name.
    pub(crate) fn name(&self) -> &str {
        match self {
            Family::Builtin(f) => f,
            Family::Custom(f) => f,
        }
    }

    fn to_cow(self) -> Cow<'static, str> {
        match self {
            Family::Builtin(f) => Cow::Borrowed(f),
            Family::Custom(f) => Cow::Owned(f.to_owned()),
        }
    }
}

/// One redaction rule.
#[derive(Debug)]
pub(crate) struct SecretRule {
    /// The family named in the marker and the counts.
    pub family: &'static str,
    /// Lowercase literals of which at least one must occur for the rule to run (none: the
    /// rule always runs; its scanner is a single pass anyway).
    pub hints: &'static [Literal],
    /// Finds the secrets (the parts to replace) in a text.
    pub scan: Scan,
    /// Where in a long text the rule's secrets lie: `Some` when each lies on a line where
    /// the anchor starts (and the rule reads nothing beyond that line to judge it), so the
    /// rule reads only the lines of the blocks where the anchor may start ([`Hints::lines`]);
    /// `None` for a rule that reads across lines or finds secrets away from its hints.
    pub lines: Option<Anchor>,
}

/// What starts on every line that holds a rule's secret ([`SecretRule::lines`]), as the
/// pairs of one block of a text tell it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Anchor {
    /// One of the rule's hints (each two bytes or more: checked when the table is compiled).
    Hints,
    /// One of these literals (each two bytes or more).
    Literals(&'static [Literal]),
    /// A stem of a secret query parameter's name, or a percent escape (a name is compared
    /// decoded).
    QueryNames,
    /// A built-in token format's prefix.
    TokenPrefixes,
}

/// How a rule finds its secrets.
#[derive(Debug)]
pub(crate) enum Scan {
    /// Byte ranges, all of the rule's family.
    Spans(fn(&str) -> Vec<Range<usize>>),
    /// Byte ranges, all of the rule's family, found from a literal that starts with a stem
    /// of secret names ([`Hints::stems`]): the text is not searched for it again.
    Stemmed(fn(&str, &Hints<'_>) -> Vec<Range<usize>>),
    /// Byte ranges, each with its own family (shaped tokens, webhooks).
    Families(FamilyScan),
    /// Byte ranges of values named by a key, judged with the key names in force (the
    /// built-in ones and a policy's), and the stems of which every built-in name the scanner
    /// takes for a secret's holds one: with none of them in the text, the rule has nothing
    /// to find. With a policy's secret names the rule runs whatever its hints and stems.
    Named(NamedScan, &'static [Literal]),
    /// Provider tokens of the built-in table and a policy's formats, each with its family.
    Tokens(TokenScan),
    /// Encoded blobs, each with the text it decodes to: a blob is taken whole when that
    /// text holds a secret (by every rule, a policy's included), under the family of the
    /// first secret's (`encoded_secret` when only a policy's format matched).
    Encoded(EncodedScan),
}

/// A scanner of spans of several built-in families: each span with its family. It may rule
/// out its shapes by the text's [`Hints`] before it searches for them.
pub(crate) type FamilyScan = fn(&str, &Hints<'_>) -> Vec<(Range<usize>, &'static str)>;

/// A scanner of values named by a key: spans. It may rule out its names' stems by the
/// text's [`Hints`] before it searches for them.
pub(crate) type NamedScan = fn(&str, &KeyNames, &Hints<'_>) -> Vec<Range<usize>>;

/// A scanner of encoded runs: spans, each with the text it decodes to.
pub(crate) type EncodedScan = fn(&str) -> Vec<(Range<usize>, String)>;

/// A scanner of provider tokens: spans, each with the family of its format.
pub(crate) type TokenScan = for<'r> fn(&str, &'r CustomTokens) -> Vec<(Range<usize>, Family<'r>)>;

/// The baseline rules, applied in this order (each sees the previous one's output).
pub(crate) const SECRET_RULES: &[SecretRule] = &[
    SecretRule {
        family: "private_key",
        hints: hints![
            "private key-----",
            "private key ----",
            "private key block-----",
            "putty-user-key-file-",
            // DER bodies without armour.
            "ibadanbgkqhkig9w0baq",
            "mc4caqawbqydk2vwbciei",
            "ibaakcaqea",
            "ibaakcagea",
            "mhccaqeei",
            "migkagebbda",
            "b3blbnnzac1rzxktdjeaaaaa",
        ],
        scan: Scan::Spans(scan::private_keys),
        lines: None,
    },
    // Before the shapes: a blob may have one (an Azure key's 88 characters), and the
    // family is what it holds.
    SecretRule {
        family: "encoded_secret",
        // The scanner finds the openings in one pass of its own.
        hints: hints![],
        scan: Scan::Encoded(scan::base64_blobs),
        lines: None,
    },
    SecretRule { family: "encoded_secret", hints: hints!["%22", "%7b"], scan: Scan::Encoded(scan::percent_encoded_runs), lines: None },
    SecretRule {
        family: "webhook",
        hints: hints!["hooks.slack.com/", r"hooks.slack.com\/", "/api/webhooks/", "webhook"],
        scan: Scan::Families(scan::webhook_urls),
        lines: Some(Anchor::Hints),
    },
    SecretRule {
        family: "token",
        // A dot stands in nearly every text: found at once, it lets the rule run; the
        // literals the shapes are found from anchor its lines.
        hints: hints!["-us", "q~", ".", "=="],
        scan: Scan::Families(scan::shaped_tokens),
        lines: Some(Anchor::Literals(hints!["-us", "q~", ".atlasv1.", "==", "s."])),
    },
    SecretRule { family: "token", hints: hints!["."], scan: Scan::Families(scan::dotted_tokens), lines: None },
    // Bot tokens' secret part starts `AA` in the format Telegram issues.
    SecretRule { family: "telegram_bot_token", hints: hints![":aa"], scan: Scan::Spans(scan::telegram_tokens), lines: None },
    SecretRule { family: "jwt", hints: hints!["eyj"], scan: Scan::Spans(scan::jwts), lines: Some(Anchor::Hints) },
    SecretRule { family: "api_key", hints: hints![], scan: Scan::Tokens(scan::provider_tokens), lines: Some(Anchor::TokenPrefixes) },
    SecretRule { family: "authorization", hints: hints!["authorization"], scan: Scan::Stemmed(scan::authorization_values), lines: None },
    SecretRule { family: "authorization", hints: hints!["bearer"], scan: Scan::Stemmed(scan::bearer_tokens), lines: None },
    SecretRule { family: "authorization", hints: hints!["basic "], scan: Scan::Spans(scan::basic_credentials), lines: None },
    SecretRule { family: "aws_secret_access_key", hints: hints!["akia", "asia"], scan: Scan::Spans(scan::aws_secret_keys), lines: None },
    SecretRule { family: "cookie", hints: hints!["cookie"], scan: Scan::Spans(scan::cookie_headers), lines: None },
    SecretRule { family: "cookie", hints: hints!["\ttrue\t", "\tfalse\t"], scan: Scan::Spans(scan::cookie_jar_values), lines: None },
    SecretRule {
        family: "url_credentials",
        hints: hints!["://", r":\/\/"],
        scan: Scan::Spans(scan::url_credentials),
        lines: Some(Anchor::Hints),
    },
    SecretRule {
        family: "url_credentials",
        hints: hints!["@tcp(", "@unix(", "@udp(", "sqlplus ", "rman ", "expdp ", "impdp ", "sqlldr ", "jdbc:oracle:"],
        scan: Scan::Spans(scan::schemeless_dsn),
        lines: None,
    },
    SecretRule { family: "url_credentials", hints: hints!["@"], scan: Scan::Spans(scan::proxy_credentials), lines: None },
    SecretRule { family: "secret_field", hints: hints![":"], scan: Scan::Spans(scan::pgpass_passwords), lines: None },
    // Passwords a statement or a form sets: SQL's `IDENTIFIED BY`, an HTML password field.
    SecretRule { family: "secret_field", hints: hints!["identified", "<input"], scan: Scan::Spans(set_passwords), lines: None },
    SecretRule {
        family: "secret_field",
        // The scanner reads the lines' starts; a hint per label would cost a search each
        // in a text that has none.
        hints: hints![":", "="],
        scan: Scan::Spans(scan::latin_labeled_values),
        lines: None,
    },
    // Labels in other scripts have no ASCII to hint them: the scanner answers at once for
    // an ASCII text.
    SecretRule { family: "secret_field", hints: hints![], scan: Scan::Spans(scan::script_labeled_values), lines: None },
    SecretRule {
        family: "url_query",
        hints: hints!["?", "&", ";", "%3f", "%26"],
        scan: Scan::Named(scan::secret_query_values, &QUERY_NAME_STEM_HINTS),
        lines: Some(Anchor::QueryNames),
    },
    SecretRule {
        family: "secret_field",
        hints: hints![":", "="],
        scan: Scan::Named(scan::secret_field_values, &SECRET_NAME_STEM_HINTS),
        lines: None,
    },
    SecretRule { family: "secret_field", hints: hints!["--"], scan: Scan::Named(scan::flag_values, &SECRET_NAME_STEM_HINTS), lines: None },
    SecretRule {
        family: "secret_field",
        hints: hints!["pass", "pwd", "secret", "token", "key", "credential", "auth"],
        scan: Scan::Named(scan::spaced_values, &SECRET_NAME_STEM_HINTS),
        lines: None,
    },
    SecretRule {
        family: "secret_field",
        hints: hints!["\",", "\"]", "',", "']"],
        scan: Scan::Named(scan::quoted_pairs, &SECRET_NAME_STEM_HINTS),
        lines: None,
    },
    SecretRule {
        family: "secret_field",
        // A tab alone is no hint: the pairs fold it onto `)`, so a log's parentheses would
        // send the rule to search the whole text for one (and so would a letter before a
        // tab, `t)`). A tab-separated header's secret column after the first starts
        // after a tab with a secret name's first letter.
        hints: hints![",", "|", "\tp", "\tt", "\ts", "\tk", "\ta", "\tc"],
        scan: Scan::Named(scan::column_values, &SECRET_NAME_STEM_HINTS),
        lines: None,
    },
    SecretRule {
        family: "secret_field",
        hints: hints!["value", "</"],
        scan: Scan::Named(scan::paired_values, &SECRET_NAME_STEM_HINTS),
        lines: None,
    },
    SecretRule {
        family: "cli_password",
        hints: hints![" -", "\"-", "pass:", "/user:", "freerdp", "net user "],
        scan: Scan::Spans(scan::cli_credentials),
        lines: None,
    },
];

/// Passwords SQL sets for a user and HTML password fields hold (each scanner searches for
/// its own anchor).
fn set_passwords(text: &str) -> Vec<Range<usize>> {
    let mut spans = scan::sql_identified_by(text);
    spans.extend(scan::password_inputs(text));
    spans
}

/// The stems of secret names as hints.
const SECRET_NAME_STEM_HINTS: [Literal; SECRET_NAME_STEMS.len()] = Literal::all(SECRET_NAME_STEMS);

/// The stems of secret query parameters' names as hints.
const QUERY_NAME_STEM_HINTS: [Literal; scan::QUERY_NAME_STEMS.len()] = Literal::all(scan::QUERY_NAME_STEMS);

/// The marker that replaces a secret of `family`.
pub(crate) fn marker(family: &str) -> String {
    let mut marker = String::with_capacity(MARKER_PREFIX.len() + family.len() + 1);
    marker.push_str(MARKER_PREFIX);
    marker.push_str(family);
    marker.push(']');
    marker
}

/// How every redaction marker starts; rules that look a fixed distance stop at it.
pub(crate) const MARKER_PREFIX: &str = "[REDACTED:";

/// Redact every secret in `text` by the built-in rules and `custom`'s, counting each
/// redaction in `counts`.
///
/// One engine run: the hints of every rule are looked up once, each rule whose hint
/// occurs scans the same text, and the spans are resolved and written in one copy (a text
/// without secrets is returned as it is, not copied). Spans are resolved in rule order, as
/// if each rule saw the previous rules' output: a span inside one already taken is the
/// earlier rule's secret seen again and is dropped; a span that reaches past one already
/// taken covers both with one marker of its own family (the earlier redaction still
/// counts, as it would have been made first). A span that is exactly one of `custom`'s
/// allowed values is not taken.
pub(crate) fn redact_secrets<'a>(text: &'a str, custom: &CustomRules, counts: &mut Redactions) -> Cow<'a, str> {
    redact_secrets_with(TextHints::of(text), custom, counts)
}

/// What one pass over a text tells, for both steps of cleaning it: whether it may hold a
/// chat marker for the defanging to look for, and the hints its redaction reads.
pub(crate) struct TextHints<'t>(HintCache<'t>);

impl<'t> TextHints<'t> {
    /// The hints of `text`.
    pub(crate) fn of(text: &'t str) -> Self {
        TextHints(HintCache::of(text))
    }

    /// Whether the text may hold anything the defanging changes (a chat marker, a role
    /// line, an image, a link, a heading: see [`defang_markers`]): one of `signs` (the
    /// defanging's [`MARKER_SIGNS`]), as the text's bytes and pairs tell (a sign of one byte
    /// is looked for), or a character other than ASCII (a look-alike of one of those).
    ///
    /// [`defang_markers`]: crate::text::defang::defang_markers
    /// [`MARKER_SIGNS`]: crate::text::defang::MARKER_SIGNS
    pub(crate) fn may_hold_a_marker(&self, signs: &[&str]) -> bool {
        let hints = &self.0.hints;
        let holds = |sign: &&str| match sign.as_bytes() {
            &[b] => hints.present.has_byte(b) && hints.text.as_bytes().contains(&b),
            _ => hints.may_occur(sign),
        };
        signs.iter().any(holds) || !hints.text.is_ascii()
    }
}

/// [`redact_secrets`] of the text `hints` were read from.
pub(crate) fn redact_secrets_with<'a>(hints: TextHints<'a>, custom: &CustomRules, counts: &mut Redactions) -> Cow<'a, str> {
    let text = hints.0.hints.text;
    let taken = spans_with(hints.0, custom, counts);
    if taken.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut markers = Vec::with_capacity(taken.len());
    let mut copied = 0;
    for t in &taken {
        out.push_str(&text[copied..t.span.start]);
        let at = out.len();
        t.write_marker(&mut out);
        markers.push(at..out.len());
        copied = t.span.end;
    }
    out.push_str(&text[copied..]);
    Cow::Owned(settle(out, markers, 2 * text.len() + SETTLE_ALLOWANCE, custom, counts))
}

/// How many times the text around new markers is read again, at most. Each round reads
/// only the lines near the last round's new markers, and the budget bounds them all, so
/// the rounds end when nothing new is found, long before this on any text but a chain
/// built to need them (each redaction bringing the next secret within a rule's reach).
const SETTLE_PASSES: usize = 64;

/// Lines read again on each side of a marker.
const SETTLE_LINES: usize = 2;

/// Bytes read again on each side of a marker at least (then on to a line's end), past
/// the farthest any rule looks for a value's name (a sibling `name`, 160 bytes).
const SETTLE_NEAR: usize = 256;

/// Bytes any text may read again besides twice its length.
const SETTLE_ALLOWANCE: usize = 4096;

/// The farthest a line read again reaches from a marker, in bytes.
const SETTLE_REACH: usize = 4096;

/// `out`, a redacted text, with the lines around its new `markers` redacted again until
/// they hold no secret. A marker changes what the rules see near it: a value that held a
/// `: ` no longer reads as a nested YAML mapping, a `<` inside a password no longer ends
/// an element's text, a value shortened by a marker fits the length a value may have.
/// Without this, redacting the output again would redact more; with it, the output is a
/// fixed point of the rules as far as their reach. Only the lines near each marker are
/// read, at most `budget` bytes in all (twice the length of the text first redacted and
/// [`SETTLE_ALLOWANCE`]), so settling costs at most a few more passes over the input,
/// however dense its markers.
fn settle(mut out: String, mut markers: Vec<Range<usize>>, mut budget: usize, custom: &CustomRules, counts: &mut Redactions) -> String {
    for _ in 0..SETTLE_PASSES {
        let mut next = String::new();
        let mut new_markers = Vec::new();
        let mut copied = 0;
        for region in around(&out, &markers) {
            if region.len() > budget {
                break;
            }
            budget -= region.len();
            for t in secret_spans(&out[region.clone()], custom, counts) {
                let span = region.start + t.span.start..region.start + t.span.end;
                if next.capacity() == 0 {
                    next.reserve(out.len());
                }
                next.push_str(&out[copied..span.start]);
                let at = next.len();
                t.write_marker(&mut next);
                new_markers.push(at..next.len());
                copied = span.end;
            }
        }
        if new_markers.is_empty() {
            break;
        }
        next.push_str(&out[copied..]);
        out = next;
        markers = new_markers;
    }
    out
}

/// The regions of `text` within [`SETTLE_LINES`] lines and [`SETTLE_NEAR`] bytes (at most
/// [`SETTLE_REACH`] bytes) of a marker in `markers` (sorted), merged, in order. Each byte is scanned for line breaks
/// at most once on each side.
fn around(text: &str, markers: &[Range<usize>]) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut regions: Vec<Range<usize>> = Vec::new();
    for m in markers {
        let floor = regions.last().map_or(0, |r| r.end).max(m.start.saturating_sub(SETTLE_REACH));
        let mut start = m.start;
        let mut lines = 0;
        while start > floor
            && !(bytes[start - 1] == b'\n' && {
                lines += 1;
                lines > SETTLE_LINES && m.start - start >= SETTLE_NEAR
            })
        {
            start -= 1;
        }
        let from = regions.last().map_or(m.end, |r| r.end.max(m.end));
        let ceiling = bytes.len().min(m.end + SETTLE_REACH);
        let mut end = from;
        let mut lines = 0;
        while end < ceiling
            && !(bytes[end] == b'\n' && {
                lines += 1;
                lines > SETTLE_LINES && end - m.end >= SETTLE_NEAR
            })
        {
            end += 1;
        }
        let (start, end) = (crate::search::ceil_boundary(text, start), crate::search::floor_boundary(text, end));
        match regions.last_mut() {
            Some(last) if start <= last.end => last.end = last.end.max(end),
            _ => regions.push(start..end),
        }
    }
    regions
}

/// The secrets [`redact_secrets`] replaces in `text`, sorted and disjoint, each counted in
/// `counts`: for a caller that must write only some of them.
pub(crate) fn secret_spans<'r>(text: &str, custom: &'r CustomRules, counts: &mut Redactions) -> Vec<Taken<'r>> {
    spans_with(HintCache::of(text), custom, counts)
}

/// [`secret_spans`] of the text `hints` are of.
fn spans_with<'r>(mut hints: HintCache<'_>, custom: &'r CustomRules, counts: &mut Redactions) -> Vec<Taken<'r>> {
    let text = hints.hints.text;
    let mut taken: Vec<Taken> = Vec::new();
    let adds_names = custom.keys.adds_secret_names();
    for (k, rule) in SECRET_RULES.iter().enumerate() {
        let runs = match rule.scan {
            Scan::Named(_, stems) => adds_names || (hints.any(rule.hints) && hints.any(stems)),
            // A policy's formats are looked for everywhere; the built-in ones where one of
            // their prefixes may occur.
            Scan::Tokens(_) => custom.tokens.adds_formats() || hints.hints.may_hold_a_provider_token(),
            _ => rule.hints.is_empty() || hints.any(rule.hints),
        };
        if !runs {
            continue;
        }
        // A policy's names and formats hold no anchor: with them, the rules that read
        // them read the whole text.
        let anywhere = match rule.scan {
            Scan::Named(..) => adds_names,
            Scan::Tokens(_) => custom.tokens.adds_formats(),
            _ => false,
        };
        match rule.lines.filter(|_| !anywhere).and_then(|_| hints.hints.lines(k)) {
            None => scan_part(rule, text, 0..text.len(), &hints.hints, custom, &mut taken, counts),
            Some(lines) => {
                for line in lines {
                    let part_hints = hints.hints.of_part(&text[line.clone()]);
                    scan_part(rule, text, line, &part_hints, custom, &mut taken, counts);
                }
            }
        }
    }
    taken
}

/// Run `rule` on `part` of `text` (what `hints` tell of), taking the spans it finds.
#[inline(always)]
fn scan_part<'r>(
    rule: &SecretRule,
    text: &str,
    part: Range<usize>,
    hints: &Hints<'_>,
    custom: &'r CustomRules,
    taken: &mut Vec<Taken<'r>>,
    counts: &mut Redactions,
) {
    let (at, part) = (part.start, &text[part]);
    let mut take_span = |span: Range<usize>, family| take(taken, text, at + span.start..at + span.end, family, custom, counts);
    match rule.scan {
        Scan::Spans(scan) => scan(part).into_iter().for_each(|span| take_span(span, Family::Builtin(rule.family))),
        Scan::Stemmed(scan) => scan(part, hints).into_iter().for_each(|span| take_span(span, Family::Builtin(rule.family))),
        Scan::Families(scan) => scan(part, hints).into_iter().for_each(|(span, family)| take_span(span, Family::Builtin(family))),
        Scan::Named(scan, _) => scan(part, &custom.keys, hints).into_iter().for_each(|span| take_span(span, Family::Builtin(rule.family))),
        Scan::Tokens(scan) => scan(part, &custom.tokens).into_iter().for_each(|(span, family)| take_span(span, family)),
        Scan::Encoded(scan) => {
            for (span, decoded) in scan(part) {
                // What a blob decodes to is a text of its own, read by every rule (its own
                // blobs included: each level is shorter by a quarter).
                let mut inside = Redactions::default();
                if let Cow::Owned(_) = redact_secrets(&decoded, custom, &mut inside) {
                    take_span(span, Family::Builtin(inside.first_builtin().unwrap_or("encoded_secret")));
                }
            }
        }
    }
}

/// A span the engine will replace, with the family its marker names.
#[derive(Debug)]
pub(crate) struct Taken<'r> {
    /// Where the secret lies in the text, in bytes.
    pub(crate) span: Range<usize>,
    family: Family<'r>,
}

impl Taken<'_> {
    /// Append the marker that replaces this secret.
    pub(crate) fn write_marker(&self, out: &mut String) {
        out.push_str(MARKER_PREFIX);
        out.push_str(self.family.name());
        out.push(']');
    }

    /// Count this secret's redaction in `counts`.
    pub(crate) fn count_in(&self, counts: &mut Redactions) {
        counts.add_family(self.family, 1);
    }
}

/// Add one rule's span to the taken spans (kept sorted and disjoint). A marker is never
/// redacted again, nor the ellipsis that ends a cut text (a value cut away after its
/// name): both are the core's own output. Nor is a value the policy allows.
fn take<'r>(taken: &mut Vec<Taken<'r>>, text: &str, span: Range<usize>, family: Family<'r>, custom: &CustomRules, counts: &mut Redactions) {
    // A span that starts inside a marker is the marker misread (`-u NAME=[REDACTED:x]`
    // read as a user and a password); one that ends inside a marker takes all of it, so
    // no marker is ever left in pieces.
    if marker_around(text, span.start).is_some_and(|m| m.start < span.start) {
        return;
    }
    let span = match marker_around(text, span.end) {
        Some(m) if m.start < span.end => span.start..m.end,
        _ => span,
    };
    let secret = &text[span.clone()];
    if secret.is_empty() || secret.starts_with(MARKER_PREFIX) || is_cut_marker(secret) || custom.allows(secret) {
        return;
    }
    // The taken spans that touch this one: from the first ending after its start to the
    // last starting before its end. Rules find their spans left to right, so the search
    // is from the end in the common case.
    let first = taken.partition_point(|t| t.span.end <= span.start);
    let last = first + taken[first..].iter().take_while(|t| t.span.start < span.end).count();
    if first == last {
        taken.insert(first, Taken { span, family });
        counts.add_family(family, 1);
        return;
    }
    let (lo, hi) = (taken[first].span.start, taken[last - 1].span.end);
    if lo <= span.start && span.end <= hi && last - first == 1 {
        return;
    }
    let merged = lo.min(span.start)..hi.max(span.end);
    let family = if lo < span.start { taken[first].family } else { family };
    taken.drain(first + 1..last);
    taken[first] = Taken { span: merged, family };
    counts.add_family(family, 1);
}

/// What one pass over a text tells of which literals may occur in it: the ASCII bytes it
/// holds, and the pairs of adjacent bytes (hashed in a short text). A literal with a byte or a pair
/// the text lacks does not occur; the rest must be searched for. The starts of secret
/// names' stems are found once, when a rule first asks, and shared by every rule.
pub(crate) struct Hints<'t> {
    text: &'t str,
    present: AsciiSet,
    pairs: Option<PairSet>,
    /// A short text's pairs, hashed.
    short: Option<ShortPairs>,
    stems: OnceCell<StemStarts>,
    /// A long text's blocks, each with what may start in it.
    blocks: Option<Blocks>,
}

/// The length from which a text's pairs are collected in a [`PairSet`]: below it, its
/// table costs more to zero than the text to read, and the pairs are hashed instead.
const PAIRS_FROM: usize = 1024;

/// The length from which a text's bytes are read off its pairs rather than collected.
const BYTES_FROM_PAIRS: usize = 4096;

/// The length from which the provider-token rule runs only when one of the built-in
/// prefixes may occur: the prefixes' test costs about what scanning 4 KiB does.
const PROVIDER_PREFIXES_FROM: usize = 4096;

/// The length from which a text's pairs are also told block by block ([`Blocks`]), and a
/// rule with [`SecretRule::lines`] reads only the lines where its anchor may start.
const BLOCKS_FROM: usize = 64 * 1024;

/// The size of those blocks: telling which anchors may start in one costs a few
/// hundred lookups.
const BLOCK: usize = 2048;

/// What may start in each block of a long text: a bit for each rule of [`SECRET_RULES`]
/// whose [`SecretRule::lines`] anchor may, and [`STEMS_MARK`] where a stem of secret
/// names may.
struct Blocks {
    size: usize,
    marks: Vec<u32>,
}

/// The mark of a block where a stem of secret names may start.
const STEMS_MARK: u32 = 1 << 31;

/// Every anchor's literals ([`SecretRule::lines`], and the stems of secret names), each
/// with its mark and its first two pairs ([`pair_index`]; a two-byte literal's one pair
/// twice), in order of first pair; the table's first `.1` entries are used. A block is
/// marked for a literal's anchor when all the literal's pairs occur in it, asked first
/// pair, second pair, then the rest ([`Blocks::mark`]).
const ANCHOR_HEADS: (Heads, usize) = {
    let mut heads = ([Head { first: 0, second: 0, mark: 0, literal: "" }; MAX_HEADS], 0usize);
    let mut k = 0;
    while k < SECRET_NAME_STEMS.len() {
        heads = with_head(heads, SECRET_NAME_STEMS[k], STEMS_MARK);
        k += 1;
    }
    let mut r = 0;
    while r < SECRET_RULES.len() {
        let rule = &SECRET_RULES[r];
        let mark = 1 << r;
        match rule.lines {
            None => {}
            Some(anchor @ (Anchor::Hints | Anchor::Literals(_))) => {
                let literals = match anchor {
                    Anchor::Literals(literals) => literals,
                    _ => rule.hints,
                };
                let mut h = 0;
                while h < literals.len() {
                    heads = with_head(heads, literals[h].text, mark);
                    h += 1;
                }
            }
            Some(Anchor::QueryNames) => {
                let mut q = 0;
                while q < scan::QUERY_NAME_STEMS.len() {
                    // `%`: a name compared decoded; any escape may spell a stem.
                    if scan::QUERY_NAME_STEMS[q].len() > 1 {
                        heads = with_head(heads, scan::QUERY_NAME_STEMS[q], mark);
                    }
                    q += 1;
                }
                let mut x = 0;
                while x < PERCENT_ESCAPES.len() {
                    heads = with_head(heads, PERCENT_ESCAPES[x], mark);
                    x += 1;
                }
            }
            Some(Anchor::TokenPrefixes) => {
                let mut t = 0;
                while t < TOKENS.len() {
                    heads = with_head(heads, TOKENS[t].prefix, mark);
                    t += 1;
                }
            }
        }
        r += 1;
    }
    // In order of first pair, so a block looks each first pair up once.
    let mut i = 1;
    while i < heads.1 {
        let mut j = i;
        while j > 0 && heads.0[j - 1].first > heads.0[j].first {
            let swap = heads.0[j - 1];
            heads.0[j - 1] = heads.0[j];
            heads.0[j] = swap;
            j -= 1;
        }
        i += 1;
    }
    heads
};

/// The runs of [`ANCHOR_HEADS`] that share a first pair: the pair, and where the run
/// starts and ends in the table; the first `.1` runs are used.
const HEAD_RUNS: ([(u16, u8, u8); MAX_HEADS], usize) = {
    let (heads, n) = ANCHOR_HEADS;
    let mut runs = ([(0u16, 0u8, 0u8); MAX_HEADS], 0usize);
    let mut k = 0;
    while k < n {
        if runs.1 == 0 || runs.0[runs.1 - 1].0 != heads[k].first {
            runs.0[runs.1] = (heads[k].first, k as u8, k as u8);
            runs.1 += 1;
        }
        runs.0[runs.1 - 1].2 = (k + 1) as u8;
        k += 1;
    }
    runs
};

/// How every percent escape starts (the pairs fold case).
const PERCENT_ESCAPES: [&str; 16] = ["%0", "%1", "%2", "%3", "%4", "%5", "%6", "%7", "%8", "%9", "%a", "%b", "%c", "%d", "%e", "%f"];

/// Room for the anchors' literals (a run's ends are kept in a byte).
const MAX_HEADS: usize = 255;

/// An anchor's literal, its first two pairs and its anchor's mark.
#[derive(Clone, Copy)]
struct Head {
    first: u16,
    second: u16,
    mark: u32,
    literal: &'static str,
}

/// The anchors' literals.
type Heads = [Head; MAX_HEADS];

/// `heads` with `literal` (two bytes or more) marked `mark` too.
const fn with_head(mut heads: (Heads, usize), literal: &'static str, mark: u32) -> (Heads, usize) {
    let bytes = literal.as_bytes();
    assert!(bytes.len() >= 2, "a literal that anchors lines has a pair");
    let first = pair_index(bytes[0], bytes[1]) as u16;
    let second = if bytes.len() > 2 { pair_index(bytes[1], bytes[2]) as u16 } else { first };
    assert!(heads.1 < MAX_HEADS, "room for every anchor's literal");
    heads.0[heads.1] = Head { first, second, mark, literal };
    heads.1 += 1;
    heads
}

const _: () = assert!(SECRET_RULES.len() < 31, "a block's marks keep a bit a rule and one for the stems");

impl Blocks {
    /// What may start in `block`, by the anchors' literals ([`ANCHOR_HEADS`]): each first
    /// pair looked up once ([`HEAD_RUNS`]), and only the literals of a pair that occurs
    /// (whose mark is not yet made) by their second pair, then all.
    fn mark(block: &BlockPairs) -> u32 {
        let mut marks = 0;
        for &(first, start, end) in &HEAD_RUNS.0[..HEAD_RUNS.1] {
            if !block.has_pair_index(first) {
                continue;
            }
            for head in &ANCHOR_HEADS.0[usize::from(start)..usize::from(end)] {
                if head.mark & !marks != 0 && block.has_pair_index(head.second) && block.may_contain(head.literal) {
                    marks |= head.mark;
                }
            }
        }
        marks
    }

    /// The ranges of consecutive blocks of a `len`-byte text marked `mark`, in order.
    fn marked(&self, len: usize, mark: u32) -> impl Iterator<Item = Range<usize>> + '_ {
        let mut n = 0;
        std::iter::from_fn(move || {
            let first = n + self.marks[n..].iter().position(|m| m & mark != 0)?;
            let last = first + self.marks[first..].iter().take_while(|m| *m & mark != 0).count();
            n = last;
            Some(first * self.size..len.min(last * self.size))
        })
    }
}

impl<'t> Hints<'t> {
    /// The bytes (and pairs) of `text`.
    pub(crate) fn of(text: &'t str) -> Self {
        Self::by_blocks(text, (text.len() >= BLOCKS_FROM).then_some(BLOCK))
    }

    /// The bytes (and pairs) of `text`, told by blocks of `block` bytes when asked for
    /// (a short text's pairs are hashed unless it is).
    fn by_blocks(text: &'t str, block: Option<usize>) -> Self {
        let stems = OnceCell::new();
        if text.len() < PAIRS_FROM && block.is_none() {
            return Hints { text, present: AsciiSet::of(text), pairs: None, short: Some(ShortPairs::of(text)), stems, blocks: None };
        }
        let (pairs, blocks) = match block {
            None => (PairSet::of(text), None),
            Some(block) => {
                let (pairs, marks) = PairSet::by_blocks(text, block, Blocks::mark);
                (pairs, Some(Blocks { size: PairSet::block_size(text.len(), block), marks }))
            }
        };
        // Reading the bytes off the pairs costs a fixed few thousand steps, a second pass
        // over the text its length: the pass only for texts shorter than that.
        let present = if text.len() < BYTES_FROM_PAIRS { AsciiSet::of(text) } else { pairs.bytes() };
        Hints { text, present, pairs: Some(pairs), short: None, stems, blocks }
    }

    /// What these tell of `part`, a part of the text: only what may occur anywhere in the
    /// text, so no more than a filter (and its stems found anew, when asked).
    fn of_part(&self, part: &'t str) -> Hints<'t> {
        Hints { text: part, present: self.present, pairs: None, short: None, stems: OnceCell::new(), blocks: None }
    }

    /// Whether `literal` may occur, ASCII case-insensitively (so also where it is
    /// searched for in one case): `false` means it does not.
    pub(crate) fn may_occur(&self, literal: &str) -> bool {
        self.present.has_all(literal)
            && self.pairs.as_ref().is_none_or(|p| p.may_contain(literal))
            && self.short.as_ref().is_none_or(|p| p.may_contain(literal))
    }

    /// [`Hints::may_occur`] for a hint of a table, read off what was computed of it at
    /// compile time.
    pub(crate) fn may_occur_literal(&self, literal: &Literal) -> bool {
        self.present.has_literal(literal)
            && self.pairs.as_ref().is_none_or(|p| p.may_contain(literal.text))
            && self.short.as_ref().is_none_or(|p| p.may_contain_literal(literal))
    }

    /// Whether a built-in provider token's prefix may occur. Only a long text's pairs
    /// are asked (a pass over the table's prefixes costs more than a short text's scan).
    pub(crate) fn may_hold_a_provider_token(&self) -> bool {
        self.text.len() < PROVIDER_PREFIXES_FROM || TOKENS.iter().any(|t| self.may_occur(t.prefix))
    }

    /// Where the stems of secret names start in the text ([`SECRET_NAME_STEMS`]), found
    /// on the first call (and not at all when the text's pairs rule every stem out; in a
    /// long text, only in the blocks where one may start).
    pub(crate) fn stems(&self) -> &StemStarts {
        self.stems.get_or_init(|| {
            if !SECRET_NAME_STEM_HINTS.iter().any(|s| self.may_occur_literal(s)) {
                StemStarts::none()
            } else if let Some(blocks) = &self.blocks {
                StemStarts::within(self.text, blocks.marked(self.text.len(), STEMS_MARK))
            } else {
                StemStarts::of(self.text)
            }
        })
    }

    /// The lines where the anchor of the `k`th rule of [`SECRET_RULES`] may start, in
    /// order and disjoint, each ending after its line break (or at the text's end); `None`
    /// for a text too short to be told by blocks. A line runs from a block
    /// back to the line break before it, and from the block's last byte to the next one;
    /// lines that meet are one range, and each byte is read at most once looking for a
    /// break.
    fn lines(&self, k: usize) -> Option<Vec<Range<usize>>> {
        let blocks = self.blocks.as_ref()?;
        let bytes = self.text.as_bytes();
        let mut lines: Vec<Range<usize>> = Vec::new();
        for marked in blocks.marked(bytes.len(), 1 << k) {
            let end = match find_byte(bytes, marked.end.max(lines.last().map_or(0, |l| l.end)).saturating_sub(1), b'\n') {
                Some(line_break) => line_break + 1,
                None => bytes.len(),
            };
            match lines.last_mut() {
                Some(last) if marked.start < last.end => last.end = last.end.max(end),
                last => {
                    let floor = last.map_or(0, |l| l.end);
                    let start = bytes[floor..marked.start].iter().rposition(|&b| b == b'\n').map_or(floor, |at| floor + at + 1);
                    lines.push(start..end);
                }
            }
            let start = lines.last().map_or(0, |l| l.start);
            crate::search::work::tally(marked.start.saturating_sub(start) + (end.saturating_sub(marked.end)) / 8 + 1);
        }
        Some(lines)
    }
}

/// Which hints occur in one text, each looked up at most once and only when [`Hints`]
/// cannot rule it out.
struct HintCache<'t> {
    hints: Hints<'t>,
    known: Vec<(&'static str, bool)>,
}

impl<'t> HintCache<'t> {
    fn of(text: &'t str) -> Self {
        HintCache { hints: Hints::of(text), known: Vec::new() }
    }

    /// Whether one of `hints` occurs.
    fn any(&mut self, hints: &'static [Literal]) -> bool {
        hints.iter().any(|h| self.occurs(h))
    }

    fn occurs(&mut self, literal: &Literal) -> bool {
        if !self.hints.may_occur_literal(literal) {
            return false;
        }
        let hint = literal.text;
        // A stem of secret names, or a literal that starts with one: known from the
        // stems' one pass.
        if SECRET_NAME_STEMS.iter().any(|s| hint.starts_with(s)) {
            if let Some(found) = self.hints.stems().occurs(self.hints.text, hint) {
                return found;
            }
        }
        if let Some(&(_, known)) = self.known.iter().find(|(h, _)| *h == hint) {
            return known;
        }
        let found = contains_ignore_ascii_case(self.hints.text, hint);
        self.known.push((hint, found));
        found
    }
}

/// The longest marker: its prefix, the longest family name and the closing bracket.
const MAX_MARKER: usize = MARKER_PREFIX.len() + crate::text::tokens::MAX_FAMILY + 1;

/// The marker (`[REDACTED:family]`) that holds the position `at` of `text` (or ends just
/// before it is not counted: `at` must lie inside), if one does.
fn marker_around(text: &str, at: usize) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    // A marker's bytes are ASCII, so the `[` before `at` within the longest marker's
    // reach starts it, if anything does.
    let floor = at.saturating_sub(MAX_MARKER);
    let open = (floor..at).rev().find(|&i| bytes[i] == b'[')?;
    if !bytes[open..].starts_with(MARKER_PREFIX.as_bytes()) {
        return None;
    }
    let family = bytes[open + MARKER_PREFIX.len()..].iter().take(MAX_MARKER).position(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))?;
    let close = open + MARKER_PREFIX.len() + family;
    (bytes.get(close) == Some(&b']') && at <= close).then_some(open..close + 1)
}

/// Whether `text` is only what the core writes where it cut a text: `…`, or `…[TRUNCATED]`
/// at the end of a structured string. Such a span, right after a secret's name, is a value
/// that was cut away, not a secret (and redacting it would change the core's own output
/// when it is read back).
fn is_cut_marker(text: &str) -> bool {
    matches!(text, "…" | "…[TRUNCATED]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::defang::MARKER_SIGNS;

    fn redact(text: &str) -> (String, Redactions) {
        let mut counts = Redactions::default();
        (redact_secrets(text, CustomRules::none(), &mut counts).into_owned(), counts)
    }

    /// One planted secret per family: (input, expected output, family).
    const CASES: &[(&str, &str, &str)] = &[
        // A YAML key with its value on the next line: a line that starts with a key is a
        // nested mapping, not the value; a `: ` later in the line does not make it one.
        ("password:\n  echo a: b1c2d3\nnext: 1", "password:\n  [REDACTED:secret_field]\nnext: 1", "secret_field"),
        (
            "db:\n  password:\n    \"my key\": x\n  token: hunter2hunter2",
            "db:\n  password:\n    \"my key\": x\n  token: [REDACTED:secret_field]",
            "secret_field",
        ),
        // An element's text up to its own closing tag (either case), or to the end of a
        // text cut inside that tag.
        ("<password>hunter2</Password> <other>x</other>", "<password>[REDACTED:secret_field]</Password> <other>x</other>", "secret_field"),
        ("<apiKey>Zm9vYmFy123</api", "<apiKey>[REDACTED:secret_field]</api", "secret_field"),
        (
            "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----\nafter",
            "key:\n[REDACTED:private_key]\nafter",
            "private_key",
        ),
        ("-----BEGIN PRIVATE KEY-----\nMIIEow cut off", "[REDACTED:private_key]", "private_key"),
        (
            "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U done",
            "token [REDACTED:jwt] done",
            "jwt",
        ),
        ("use sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAA now", "use [REDACTED:anthropic_key] now", "anthropic_key"),
        ("ghp_abcdefghijklmnopqrstuvwxyz0123456789", "[REDACTED:github_token]", "github_token"),
        ("id AKIAIOSFODNN7EXAMPLE.", "id [REDACTED:aws_access_key_id].", "aws_access_key_id"),
        ("xoxb-1234567890-abcdefghij", "[REDACTED:slack_token]", "slack_token"),
        ("Authorization: Basic dXNlcjpwYXNz", "Authorization: Basic [REDACTED:authorization]", "authorization"),
        ("sent Bearer abcdefghijkl123", "sent Bearer [REDACTED:authorization]", "authorization"),
        ("Cookie: sid=abc; theme=dark\nnext", "Cookie: [REDACTED:cookie]\nnext", "cookie"),
        ("https://user:hunter2@example.com/x", "https://[REDACTED:url_credentials]@example.com/x", "url_credentials"),
        // An `@` further on that no host follows does not hide the one that ends the user
        // info (found by the property test: it leaked the password).
        (
            "postgres://app:MQTPMOqfk@db.internal:5432/prod.n@\u{1a1e}d",
            "postgres://[REDACTED:url_credentials]@db.internal:5432/prod.n@\u{1a1e}d",
            "url_credentials",
        ),
        (
            "url=jdbc:oracle:thin:scott/UEDTtoY!rGUcsDju@//db:1521/ORCL failed",
            "url=jdbc:oracle:thin:[REDACTED:url_credentials]@//db:1521/ORCL failed",
            "url_credentials",
        ),
        (
            "GET https://api.example.com/v1?access_token=abc123&page=2",
            "GET https://api.example.com/v1?access_token=[REDACTED:url_query]&page=2",
            "url_query",
        ),
        (r#"{"password": "hunter2", "user": "bob"}"#, r#"{"password": "[REDACTED:secret_field]", "user": "bob"}"#, "secret_field"),
        ("Error: password: swordfish", "Error: password: [REDACTED:secret_field]", "secret_field"),
        ("DB_PASSWORD=abc API_KEY=xyz", "DB_PASSWORD=[REDACTED:secret_field] API_KEY=[REDACTED:secret_field]", "secret_field"),
        ("DB_CREDS=tMvJbB9fyaODg4uIxWuVD7Xd3 next", "DB_CREDS=[REDACTED:secret_field] next", "secret_field"),
        (r#"{"creds": "tMvJbB9fyaODg4uIxWuVD7Xd3"}"#, r#"{"creds": "[REDACTED:secret_field]"}"#, "secret_field"),
        ("clientSecret='s3cr3t'", "clientSecret='[REDACTED:secret_field]'", "secret_field"),
        ("$ htpasswd -b -c /etc/web ann Xk9vQ2mLp7", "$ htpasswd -b -c /etc/web ann [REDACTED:cli_password]", "cli_password"),
        ("htpasswd -bB -C 12 web ann Xk9vQ2mLp7 && reload", "htpasswd -bB -C 12 web ann [REDACTED:cli_password] && reload", "cli_password"),
        // `-n` writes no file: the second operand is the password. A JSON array's `]`
        // ends the arguments (the `}` after it was once taken for the password).
        (
            r#"{"argv": ["htpasswd", "-nbB", "admin", "Xk9vQ2mLp7"]}"#,
            r#"{"argv": ["htpasswd", "-nbB", "admin", "[REDACTED:cli_password]"]}"#,
            "cli_password",
        ),
        // keytool's flags are joined names ending in `pass`, which name a secret wherever
        // they stand.
        (
            "keytool -importkeystore -srcstorepass Xk9vQ2mLp7 -deststorepass Yk9vQ2mLp8",
            "keytool -importkeystore -srcstorepass [REDACTED:secret_field] -deststorepass [REDACTED:secret_field]",
            "secret_field",
        ),
        ("openssl enc -aes-256-cbc -k Xk9vQ2mLp7 -in f", "openssl enc -aes-256-cbc -k [REDACTED:cli_password] -in f", "cli_password"),
        // A bare `Basic` credential: base64 of `user:password`.
        ("retrying with Basic dXNlcm5hbWU6cEBzc3cwcmQxMjM= now", "retrying with Basic [REDACTED:authorization] now", "authorization"),
        // An AWS key pair with no names: the secret key stands after the id.
        (
            "keys: AKIAQYLPMN5HHHFPZAM2, 8mHWZdK9k3QvZ1x+T0pJvN4cRbLsYeAu/7FgH2iW",
            "keys: [REDACTED:aws_access_key_id], [REDACTED:aws_secret_access_key]",
            "aws_secret_access_key",
        ),
        // A PostgreSQL password file's line.
        ("db.internal:5432:app:alice:S3cr3t:Pg\\:Pass\n", "db.internal:5432:app:alice:[REDACTED:secret_field]\n", "secret_field"),
        // A key as a URL's only user information (Sentry's DSN).
        (
            "SENTRY: https://a1b2c3d4e5f60718293a4b5c6d7e8f90@o123456.ingest.sentry.io/7",
            "SENTRY: https://[REDACTED:url_credentials]@o123456.ingest.sentry.io/7",
            "url_credentials",
        ),
        // A quote after a backslash is part of the value.
        (r#"password = "abc\"def123ghi" next"#, r#"password = "[REDACTED:secret_field]" next"#, "secret_field"),
        // A secret inside a base64 blob: a Docker config in a Kubernetes Secret, a
        // kubeconfig's key. The blob goes whole, under the family of what it holds.
        (
            ".dockerconfigjson: eyJhdXRocyI6eyJyIjp7InVzZXJuYW1lIjoiYm90IiwicGFzc3dvcmQiOiJYazltUDJ2UXo3d1J0NGJOIn19fQ==",
            ".dockerconfigjson: [REDACTED:secret_field]",
            "secret_field",
        ),
        (
            "client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVBdGVzdGtleWJvZHlub3RyZWFsMTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3AKLS0tLS1FTkQgUlNBIFBSSVZBVEUgS0VZLS0tLS0K",
            "client-key-data: [REDACTED:private_key]",
            "private_key",
        ),
        // Percent-encoded JSON in a URL: the run goes whole.
        (
            "GET /cb?state=%7B%22access_token%22%3A%22ya29.a0AfH6SMBxQz7wRt4bN%22%7D&x=1",
            "GET /cb?state=[REDACTED:secret_field]&x=1",
            "secret_field",
        ),
        // Prose that names what a password is for before linking it to its value.
        ("the password for the staging box is Xk9mPq2vL7, same", "the password for the staging box is [REDACTED:secret_field], same", "secret_field"),
        ("password was set to Hv7#pLm2Qz and", "password was set to [REDACTED:secret_field] and", "secret_field"),
        // A password a person chose, shorter and less random than a key, in prose.
        ("the password is Tr0ub4dor&3, keep it", "the password is [REDACTED:secret_field], keep it", "secret_field"),
        ("my password was hunter22.", "my password was [REDACTED:secret_field].", "secret_field"),
        // A password's label in another language.
        ("Логин: admin\nПароль: Tz7vNq4Wx2", "Логин: admin\nПароль: [REDACTED:secret_field]", "secret_field"),
        ("密码：Ky3mRp8Ws5", "密码：[REDACTED:secret_field]", "secret_field"),
        ("Senha: Wd6hJs1Fq8", "Senha: [REDACTED:secret_field]", "secret_field"),
        // SQL setting a user's password, and Redis' AUTH.
        ("CREATE USER 'r'@'%' IDENTIFIED BY 'DHOTGoOWbY*e4TH';", "CREATE USER 'r'@'%' IDENTIFIED BY '[REDACTED:secret_field]';", "secret_field"),
        ("127.0.0.1:6379> AUTH yNSwGy670E!48Jk", "127.0.0.1:6379> AUTH [REDACTED:secret_field]", "secret_field"),
        // A joined name ending in `pass`: sshpass's environment variable.
        ("env: SSHPASS=Zq9xW2vB7nM4kL", "env: SSHPASS=[REDACTED:secret_field]", "secret_field"),
        // The value on the line after the line naming it.
        ("Property: app.passwd\nValue: \"Tr0ub4dor&3xyz\"", "Property: app.passwd\nValue: \"[REDACTED:secret_field]\"", "secret_field"),
        ("ssh-keygen -t ed25519 -N Xk9vQ2mLp7 -f k", "ssh-keygen -t ed25519 -N [REDACTED:cli_password] -f k", "cli_password"),
        ("redis-cli -h db --pass Xk9vQ2mLp7 ping", "redis-cli -h db --pass [REDACTED:cli_password] ping", "cli_password"),
        ("xfreerdp /v:host /u:admin /p:Xk9vQ2mLp7", "xfreerdp /v:host /u:admin /p:[REDACTED:cli_password]", "cli_password"),
        ("lftp -u bob,Xk9vQ2mLp7 ftp.example.com", "lftp -u bob,[REDACTED:cli_password] ftp.example.com", "cli_password"),
        ("http -a admin:Xk9vQ2mLp7 GET example.com", "http -a admin:[REDACTED:cli_password] GET example.com", "cli_password"),
        ("mosquitto_pub -h b -u bob -P Xk9vQ2mLp7 -t x", "mosquitto_pub -h b -u bob -P [REDACTED:cli_password] -t x", "cli_password"),
        ("cqlsh -u cassandra -p Xk9vQ2mLp7 db", "cqlsh -u cassandra -p [REDACTED:cli_password] db", "cli_password"),
    ];

    #[test]
    fn each_family_redacts_its_planted_secret() {
        for (input, expected, family) in CASES {
            let (out, counts) = redact(input);
            assert_eq!(&out, expected, "input: {input}");
            assert!(counts.get(family) >= 1, "family {family} not counted for {input}");
        }
    }

    #[test]
    fn allowlisted_and_ordinary_keys_pass() {
        for text in [
            // A flag that only starts like a password flag names a file.
            "openssl enc -kfile key.txt -in f",
            // A source file and line in a stack frame is no secret name and value.
            "at com.example.auth.TokenService.refresh(TokenService.java:42)",
            "    at Object.<anonymous> (/srv/app/secretManager.js:10:5)",
            "panic at pkg/auth/token.go:57 +0x1d",
            "  at KeyStoreLoader.load (KeyStoreLoader.kt:120)",
            "max_tokens=100 token_type=bearer sort_key=name",
            r#"{"author": "ann", "tokens": 5, "key": "value"}"#,
            "Error: file not found",
            "see https://example.com/docs?page=2",
            // Settings about a secret, and what a file's name is followed by.
            "token_budget=9000 password_min_length=12 secret_store: vault auth_token_header = X-Auth-Token",
            "Error reading 'password_policy.yaml': No",
            "password_auth: no",
            // Basic without credentials, a short user name, times and versions.
            r#"WWW-Authenticate: Basic realm="api" and basic auth is off"#,
            "https://git@github.com/org/repo.git and ssh://deploy@host:22/x",
            "at 10:30:45:123:abc and v1.2.3:5432:x",
            "the bypass=on compass=north",
            "the password policy for this account is Strict2024 hmm",
            "the password is sha256-hashed and the password is case-sensitive.",
            "password is ${DB_PASSWORD} or <password>; the password is required",
            "Die Kennwortrichtlinie: zwölf Zeichen",
            "identified by its name; IDENTIFIED BY PASSWORD",
            "auth failed: retry later",
            // Encoded text without a secret: a JSON config, a certificate.
            "config=eyJ0aW1lb3V0IjozMCwicmV0cmllcyI6M30=",
            "ca.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUMvakNDQWVhZ0F3SUJBZ0lCQURBTkJna3Foa2lHOXcwQkFRc0ZBREFWTVJNd0VRWURWUVFERXdwcmRXSmwKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo=",
        ] {
            let (out, counts) = redact(text);
            assert_eq!(out, text);
            assert_eq!(counts.total(), 0);
        }
    }

    /// Texts the fuzzer found where a second pass changed the first's output.
    #[test]
    fn fuzz_found_texts_are_fixed_points() {
        for text in [
            // A marker changes what the rules see around it: the text near it is read
            // again. A `-u` user and password read over a marker's colon is the marker
            // misread, and is dropped rather than leaving the marker in pieces.
            "$ curl -u EGRLT_TOKEN=3233:AAo,u",
            "curl -u, user:#passwpp-@tcp(pcm",
            "ps:/%.weLN$EbGw-'Key: sk_live_YktNULdmcUjZs#.==signingkey=Zx9",
            // A YAML value on the next line that held a `: ` inside a password another rule
            // redacts: it is a value (its line does not start with a key), on both passes.
            "6:ations:\n  API_key:\n    en$ curl -u~~~~ns:\u{0}\u{0}\u{0}tt~~ed: t~~ ",
            // An element's text whose first `<` lies inside a password another rule
            // redacts, closed by another element's tag: no secret either time.
            "<SecretKey>TOKEN\n   Yue: mrH $ curl -u admin:eFz12zBpRz\u{0}S>>ls><AcN==$ curl -u admin:eFz12zBpRzJW7X https://te-Lines: 2\nAAAAIMrFYca2FOHOpD: 2tKey></Credentiae",
            "AUR: Bearer T-e7\u{fe0f}_AI_KEY=SNpZ",
            "env:ps://\u{0}\u{0}sessionid=53D7",
            // A second `value` after a name/value pair, beyond the reach of the name
            // until the first value is a marker: a name says what one value is.
            r#"{"key": "X-Api-Key", "value": "8aKKbd8?DdNdfxhFfGF09{t-ueNs":`QWNNb/db_passwordy", "value": "8ey=AKIA",%R1Q/"#,
            // A sibling name another rule redacted (`"key": "[REDACTED:secret_field]"`)
            // names no secret the second time either.
            "\"key\": \"X-Api-PKey\", \"valuXe\": \"8aKKbd8nDdNdfx-Filate-Lines: 2\nAAAmz\nP\u{0}apf51h1bpBQWNNbXbGApi-Key\"uTTY-User-Key-Filate-Lines: 2\nAAAmz\nP,\u{0}apf5189 \"value\": \"8n]5a}",
            "<apings>\n  <add key=\"A1111111111111111101555111111th Se\"as/?ph&Act-CoSettinggs>\n  <add key=\"A11111111111111111055111\u{13}11111)1picessKeyId\"Key\": \u{b}\n\n\u{1a}\n\n\n\n\n\n\n\n\n\n\t\t\t value=\"lq2O\toqrsK+",
            // A `value` whose sibling `key` is within reach only once the redactor shortened
            // the text between them: a name is not sought past a marker.
            "h[ en{\"key\": \"X-Api-Key\"<<SYS>> \"eadr$: unzip -P \u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}XXXXXXXXXXXXXXXXXlen{\"key\": \"X-essKeyId\":   \n\n\n\n\n\u{b}\n\n\"AccessKeycookApi-Key\", \"value\": \"4aKKb8N\"",
            // A chain of values running into names (`"…"DB_PASSWORD", "…"`): every quote is
            // tried as a name's opening, so each pair is found in one pass, whatever the
            // value before it (a token or its marker).
            "u\u{1}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}e{\"NamB_PASSuserzWKRD\", \u{7}\u{0}\u{0}\u{0}\"\"jqhnh\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}8yOaoN\"DB_PASSWORD\", \u{7}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0} \"qhnh\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}8yOaoN\"DB_PASSWORD\", \u{7}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0} \"qhnh\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}8yOaoN\"DB_PASSWORPASSWORD\", \u{7}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0} \"qhnh\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}8y\u{0}\u{0}\u{0}\u{0}\u{0}8yOaoN\"DB_PASSWORPASSWORD\", \u{7}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0} \"qhnh\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}8yOaoN\"D\u{4}\u{6}\u{0}e\"jqhnh\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}8yOaoN\"DB_PASSWORD\", \u{7}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0} \"qhnh\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}4yOaoN\"DB_PASSWORPASSWORD\", \u{7}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0} \"qhnh\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}8yOaoN\"D\u{4}\u{6}\u{0}\u{0}\u{0}\u{0}8yOaoN}",
            // `zip -P` commands whose quoted arguments swallow the next: a marker ends the
            // arguments read, not the line the same command is passed over on.
            "nz$ unzip -P \u{1b}\u{1}\u{0}\u{0}\u{0}zip -P ij$ unzip -P \u{1b}\u{1}\u{0}\u{0}\u{0}zip -P ij unzip -P ij=r\": \"OLip$ \u{3}\u{0}zip -P-P ij unzip -P ij=f en\"$ r\": f en\"$  unziip -P p -P ij=r\": \"OLip$ \u{3}\u{0}zip -P-P ij unzip -P ij=f en\"$ r\": f en\"$ r\":i \"OLip$ \u{3}\u{0}zip -P-P ij unzip -Pr\": \"OLip$ \u{3}\u{0}zip -P-P ij unzip -P ij=f en\"$ r\": \"OLip$ \u{3}\u{0}zip -P \u{3}\u{0} -Piz$  ij=f\u{3}\u{0}zi -P - en\"$ r\": \"OLip$j \u{3}\u{0}zip -P \u{3}\u{0} -Piz$ \u{3}\u{0}zi -P -P \u{3}\u{0} -Piz$ \u{3}\u{0}zi -PP \u{3}\u{0} -Piz$ \u{3}\u{0}zi -P -Pi\u{0}--h\u{0}\u{0}\u{0}$ \u{3}ener -P=i\u{0}--h\u{0}\u{0}\u{0}$ \u{3}ener\"\"",
            // `htpasswd -b` takes its third operand, not the line's last word: read again,
            // the arguments stop at its marker, and the word before is no password.
            "$ htpasswd -b /etc/web ann tokens=5 monkey=report primaryKey=id",
            "re* htpasswd -b `TlutnizeIFAACEFAKEFAK1E235nized key: \\\":secr~et_field,{\"CP eEcceecognized key: \\\": htpasswd ld,{\"cognized key;backup+-errsr: X-A'or",
            "htpasswd    2   -b   \\\\rgum=''''''''+''+'''''sphraseD:oprrVVVuthor=ann tokens=5 monkeykey=george primarated_at auth_type=oauth2 token_count: 512 author=ann tokens=5 monkey=report primaryKey=id",
            // A command named again inside a quoted argument is read on its own: a marker
            // that stops the first command's arguments before the quote changes nothing.
            // `zip -P` and `unzip -P` commands named inside one another's quoted arguments,
            // over more than a command line's reach (the fuzzer's, minimized): a command
            // named inside a quoted argument is read on its own.
            include_str!("../../fuzz/regressions/redact_text/idempotence-zip-quoted-chain"),
            // A DSN's user info (`…:…@unix(`) that ends in a marker: the password was
            // redacted, and the text before the marker, now within the rule's reach, is
            // no user info (the fuzzer's, partly minimized).
            include_str!("../../fuzz/regressions/redact_text/idempotence-dsn-over-marker"),
            // A four-dash header before a five-dash one: both blocks in one marker.
            "hLakiGwCBL---- BEGIN SSBE PRIVATE KEY-----\\]a1in\"-----BEGIN PRIVATE KEY-----\\]\u{0}\u{0}\u{0}nM< ",
        ] {
            let (once, _) = redact(&crate::text::sanitize::strip_controls(text));
            let (twice, counts) = redact(&once);
            assert_eq!(once, twice, "{text}");
            assert_eq!(counts.total(), 0);
        }
    }

    #[test]
    fn a_marker_is_never_left_in_pieces() {
        for text in ["$ curl -u EGRLT_TOKEN=3233:AAo,u", "curl -u, user:#passwpp-@tcp(pcm", "-u a:[REDACTED:secret_field]x"] {
            let (out, _) = redact(text);
            assert!(!out.contains("[REDACTED:["), "{text:?} -> {out:?}");
            let opens = out.matches("[REDACTED:").count();
            assert_eq!(opens, out.matches(']').count(), "{text:?} -> {out:?}");
        }
    }

    #[test]
    fn the_marker_around_a_position() {
        let text = "a [REDACTED:github_token] b [x] [REDACTED:";
        let m = text.find("[REDACTED").unwrap();
        let end = text.find(" b").unwrap();
        assert_eq!(marker_around(text, m), None, "at the marker's start is before it");
        assert_eq!(marker_around(text, m + 1), Some(m..end));
        assert_eq!(marker_around(text, end - 1), Some(m..end));
        assert_eq!(marker_around(text, end), None, "just after it");
        assert_eq!(marker_around(text, text.find("x]").unwrap() + 1), None, "a bracket that opens no marker");
        assert_eq!(marker_around(text, text.len()), None, "an unclosed marker");
    }

    /// Settling reads the lines near each marker, merged, once each.
    #[test]
    fn the_regions_around_markers() {
        // Lines of 200 bytes: two lines each side, then on to the line break past 256 bytes
        // (`[M]` starts line 3, `[N]` stands in line 11).
        let line = |n: usize| format!("l{n}{}", ".".repeat(197));
        let lines: Vec<String> = (0..14).map(line).collect();
        let mut text = lines.join("\n");
        text.replace_range(600..603, "[M]");
        text.replace_range(2400..2403, "[N]");
        let at = |s: &str| text.find(s).unwrap();
        let (m, n) = (600..603, 2400..2403);
        assert_eq!(around(&text, std::slice::from_ref(&m)), vec![at("l1")..at("\nl6")]);
        assert_eq!(around(&text, &[m, n]), vec![at("l1")..at("\nl6"), at("l9")..text.len()]);
        // Short lines: at least 256 bytes each side.
        let short = "l0\nl1\nl2\nl3 [M] x\nl4\nl5";
        let m = short.find("[M]").unwrap();
        let regions = around(short, std::slice::from_ref(&(m..m + 3)));
        assert_eq!(regions.len(), 1);
        assert_eq!((regions[0].start, regions[0].end), (0, short.len()));
    }

    #[test]
    fn redaction_is_idempotent() {
        for (input, _, _) in CASES {
            let (once, _) = redact(input);
            let (twice, counts) = redact(&once);
            assert_eq!(once, twice);
            assert_eq!(counts.total(), 0, "second pass redacted again: {once}");
        }
    }

    /// The rules a test policy adds: a token format, a secret name, a plain name, and an
    /// allowed value that a built-in rule would redact (an OpenAI-shaped demo key).
    fn custom() -> CustomRules {
        let format = crate::text::TokenFormat {
            family: "acme_token".into(),
            prefix: "acme_".into(),
            alphabet: crate::text::TokenAlphabet::Alnum,
            min_body_length: 24,
        };
        let keys = KeyNames::new(&["acme_session".to_owned()], &["token_budget".to_owned()]);
        CustomRules::new(keys, CustomTokens::new(&[format]), &["sk-demo0000000000000000000000".to_owned(), "hunter2".to_owned()])
    }

    const TOKEN: &str = "acme_0123456789abcdefghijklmn";

    /// A text its hints say holds no chat marker is one the defanging leaves as it is; the
    /// markers and role lines it defangs are never ruled out.
    #[test]
    fn a_text_ruled_free_of_chat_markers_is_one_defanging_leaves() {
        let pad = "status=200 path=/srv/data/file.txt in 14 ms\n".repeat(16);
        let corpus = include_str!("../../tests/redaction/positives.jsonl")
            .lines()
            .chain(include_str!("../../tests/redaction/negatives.jsonl").lines());
        let mut ruled_out = 0;
        for text in corpus.filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok()?.get("text")?.as_str().map(str::to_owned))
        {
            // Short texts hash their pairs, long ones keep them.
            for text in [format!("{pad}{text}"), text] {
                if !TextHints::of(&text).may_hold_a_marker(&MARKER_SIGNS) {
                    ruled_out += 1;
                    let defanged = crate::text::defang::defang_markers(&text, &mut Redactions::default());
                    assert!(matches!(defanged, Cow::Borrowed(_)), "{text}");
                }
            }
        }
        assert!(ruled_out > 1000, "only {ruled_out} texts ruled out");
        for marker in [
            "<|im_start|>",
            "[INST]",
            "<<SYS>>",
            "![x](https://h/p.png)",
            "\nHuman: hi",
            "\n  Assistant: ok",
            "User: x",
            "<think>",
            "«system»",
            "\nΗuman: x",
            "### Instruction:",
            "SYSTEM: x",
            "\nAI: x",
            "[a](https://h)",
            "<img src=https://h/x>",
            "<https://h/x>",
            // A link's target after its `](`, its `[` on a line before or cut away (a fuzz
            // finding: a redaction marker's `[` then made the text read as one).
            "x\nthe text](q:evil.example/x",
            "{{#system}}",
        ] {
            for text in [format!("{pad}{marker}\n{pad}"), marker.to_owned()] {
                assert!(TextHints::of(&text).may_hold_a_marker(&MARKER_SIGNS), "{marker}");
                let defanged = crate::text::defang::defang_markers(&text, &mut Redactions::default());
                assert!(matches!(defanged, Cow::Owned(_)), "{marker}");
            }
        }
    }

    /// The spans and families found in `text` with its blocks of `block` bytes told, or
    /// none.
    fn spans_by_blocks(text: &str, custom: &CustomRules, block: Option<usize>) -> Vec<(Range<usize>, String)> {
        let hints = HintCache { hints: Hints::by_blocks(text, block), known: Vec::new() };
        spans_with(hints, custom, &mut Redactions::default()).into_iter().map(|t| (t.span, t.family.name().to_owned())).collect()
    }

    /// Reading only the lines where an anchor may start finds what reading the whole text
    /// finds: every text of the redaction corpus (secrets and negatives) set in long texts
    /// at every kind of place (a line of its own, glued to the line before, across a
    /// block's edge, in one long line), with and without a policy's names and formats.
    #[test]
    fn lines_by_blocks_find_what_the_whole_text_holds() {
        let corpus: Vec<String> =
            [include_str!("../../tests/redaction/positives.jsonl"), include_str!("../../tests/redaction/negatives.jsonl")]
                .iter()
                .flat_map(|file| file.lines())
                .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok()?.get("text")?.as_str().map(str::to_owned))
                .chain(
                    // A URL's user info cut off at a text's end counts, at a line's end not: a
                    // line read alone must end where the text does not.
                    ["fetch https://bob:s3cretpass\nnext", "proxy http://:Xk9vQ2mLp7\r\n", "https://ann:pw@host\nhttps://ann:Xk9vQ2"]
                        .map(str::to_owned),
                )
                .collect();
        assert!(corpus.len() > 1300, "{} texts", corpus.len());
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let filler = "2026-12-01T14:03:22.114Z INFO worker-3 GET /v1/items?page=2 status=200 in 14 ms (cache hit)";
        let policy = custom();
        let mut texts = 0;
        let mut found = 0;
        let mut pieces = corpus.iter().cycle();
        while texts < 24 {
            // Half the texts in one long line (no line break but the corpus's own).
            let one_line = texts % 2 == 1;
            let mut text = String::new();
            while text.len() < BLOCKS_FROM + 32 * 1024 {
                let fill = next(BLOCK);
                let pad = &filler[..next(filler.len())];
                text.push_str(&filler.repeat(fill / filler.len()));
                text.push_str(pad);
                text.push_str(if one_line || next(4) == 0 { " " } else { "\n" });
                for _ in 0..=next(5) {
                    text.push_str(pieces.next().map_or("", String::as_str));
                    text.push_str(if one_line { " " } else { ["\n", " ", "\r\n", "\t"][next(4)] });
                }
            }
            for rules in [CustomRules::none(), &policy] {
                let whole = spans_by_blocks(&text, rules, None);
                assert_eq!(spans_by_blocks(&text, rules, Some(BLOCK)), whole, "text {texts}");
                found += whole.len();
            }
            texts += 1;
        }
        assert!(found > 4000, "only {found} secrets found in the long texts");
        // Small blocks put an edge at every kind of place in every text of the corpus.
        let mut short_found = 0;
        for text in &corpus {
            let whole = spans_by_blocks(text, CustomRules::none(), None);
            for block in [5, 16, 37, 64] {
                assert_eq!(spans_by_blocks(text, CustomRules::none(), Some(block)), whole, "blocks of {block}: {text:?}");
            }
            short_found += whole.len();
        }
        assert!(short_found > 1100, "only {short_found} secrets found in the corpus");
    }

    #[test]
    fn a_policys_rules_redact_and_count_like_the_built_in_ones() {
        let custom = custom();
        let redact = |text: &str| {
            let mut counts = Redactions::default();
            (redact_secrets(text, &custom, &mut counts).into_owned(), counts)
        };
        for (input, expected, family) in [
            (format!("sent {TOKEN}."), "sent [REDACTED:acme_token].".to_owned(), "acme_token"),
            (format!("x{TOKEN}"), "x[REDACTED:acme_token]".to_owned(), "acme_token"),
            // A policy's format is tried first where a built-in one also matches.
            (format!("token={TOKEN}"), "token=[REDACTED:acme_token]".to_owned(), "acme_token"),
            ("AcmeSession: s3cr3t".to_owned(), "AcmeSession: [REDACTED:secret_field]".to_owned(), "secret_field"),
            ("run --acme-session s3cr3t".to_owned(), "run --acme-session [REDACTED:secret_field]".to_owned(), "secret_field"),
            ("GET /x?acme_session=s3cr3t&a=1".to_owned(), "GET /x?acme_session=[REDACTED:url_query]&a=1".to_owned(), "url_query"),
            ("export ACME_SESSION qX9vL2mR7tW4zP8k".to_owned(), "export ACME_SESSION [REDACTED:secret_field]".to_owned(), "secret_field"),
            (
                r#"<acmeSession>s3cr3t</acmeSession>"#.to_owned(),
                "<acmeSession>[REDACTED:secret_field]</acmeSession>".to_owned(),
                "secret_field",
            ),
        ] {
            let (out, counts) = redact(&input);
            assert_eq!(out, expected, "{input}");
            assert_eq!(counts.get(family), 1, "{input}: {counts:?}");
            let (again, counts) = redact(&out);
            assert_eq!((again.as_str(), counts.total()), (out.as_str(), 0), "a second pass changed {out}");
        }
        // The built-in rules alone know none of it.
        let mut counts = Redactions::default();
        assert_eq!(redact_secrets("AcmeSession: s3cr3t", CustomRules::none(), &mut counts), "AcmeSession: s3cr3t");
    }

    #[test]
    fn an_allowed_value_passes_whole_and_weakens_nothing_beside_it() {
        let custom = custom();
        let redact = |text: &str| redact_secrets(text, &custom, &mut Redactions::default()).into_owned();
        // Kept exactly, wherever a rule would have taken it whole.
        for kept in [
            "key sk-demo0000000000000000000000 ok",
            "OPENAI_API_KEY=sk-demo0000000000000000000000",
            "password: hunter2",
            r#"{"password": "hunter2"}"#,
        ] {
            assert_eq!(redact(kept), kept);
        }
        // A real secret beside it, an allowed value inside a longer secret, and a longer
        // value that starts with it are redacted as ever.
        assert_eq!(redact("password=hunter2 token=abc123"), "password=hunter2 token=[REDACTED:secret_field]");
        assert_eq!(redact("sk-demo0000000000000000000000x9"), "[REDACTED:openai_key]");
        assert_eq!(redact("https://ann:hunter2@example.com/"), "https://[REDACTED:url_credentials]@example.com/");
        assert_eq!(redact("password=hunter22"), "password=[REDACTED:secret_field]");
        // A plain name lets its value pass the key-name rules only.
        assert_eq!(redact("token_budget=9000 tokenBudget: 9000"), "token_budget=9000 tokenBudget: 9000");
        assert_eq!(redact(&format!("token_budget={TOKEN}")), "token_budget=[REDACTED:acme_token]");
    }

    #[test]
    fn a_redaction_is_counted_by_family() {
        let mut counts = Redactions::default();
        let out = redact_secrets("Authorization: Bearer abc.def.ghi123", CustomRules::none(), &mut counts);
        assert_eq!(out, "Authorization: Bearer [REDACTED:authorization]");
        assert_eq!(counts.get("authorization"), 1);
    }
}
