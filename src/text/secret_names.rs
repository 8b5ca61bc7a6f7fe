//! Key names that name a secret (`apiKey`, `API_KEY`, `x-api-key`, `client_secret`):
//! the values of such members are never shown, whatever they look like.

use std::ops::Range;

use crate::search::AsciiSet;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64", all(target_arch = "wasm32", target_feature = "simd128")))]
use crate::search::Bytes;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use crate::search::Lanes;

/// Words that make a key name a secret, wherever they stand in the name, also in the
/// plural (`passwords`, `secrets`) and at the end of a joined word (`pgpassword`,
/// `accesstoken`, `clientsecret`).
const SECRET_KEY_WORDS: &[&str] = &[
    "password",
    "passwd",
    "pwd",
    "passphrase",
    "passcode",
    // A pre-shared key (`psk=` of WPA supplicant, IPsec and TLS-PSK configurations).
    "psk",
    // German and French, which hold the `pass` stem (`Passwort`, `mot_de_passe`).
    "passwort",
    "motdepasse",
    "secret",
    "token",
    "apikey",
    "credential",
    // `creds`, `db_creds`: the short form, kept plural (`cred` alone would be a stem that
    // passes the hints of nearly every English text).
    "creds",
    "cookie",
    "authorization",
    "auth",
    "bearer",
    "sessionid",
    "signature",
    "privatekey",
    "secretkey",
    "accesskey",
    "masterkey",
    "signingkey",
    "encryptionkey",
    "hmackey",
    "accountkey",
    "subscriptionkey",
];

/// Short words that name a password only as the last word of a longer name (`DB_PASS`,
/// `bind_pw`, `keystore.pass`): alone they mean other things.
const TRAILING_SECRET_WORDS: &[&str] = &["pass", "pw", "pin"];

/// English words ending in `pass`, which name no password.
const PASS_WORDS: &[&str] =
    &["bypass", "compass", "trespass", "surpass", "encompass", "overpass", "underpass", "multipass", "firstpass", "onepass", "singlepass"];

/// Adjacent word pairs that make a key name a secret.
const SECRET_KEY_PAIRS: &[(&str, &str)] = &[
    ("api", "key"),
    ("access", "key"),
    ("private", "key"),
    ("secret", "key"),
    ("session", "id"),
    ("client", "secret"),
    ("access", "tokens"),
    ("refresh", "tokens"),
    ("auth", "tokens"),
    ("api", "tokens"),
    // French `mot de passe` in words (`mot_de_passe`, `MotDePasse`).
    ("de", "passe"),
];

/// What a name's last word `key` is qualified by when the key is no secret (`sort_key`,
/// `public_key`, `idempotency_key`); any other `…_key` name is taken for a secret
/// (`signing_key`, `MASTER_KEY`, `Ocp-Apim-Subscription-Key`, `STRIPE_KEY`).
const PLAIN_KEY_QUALIFIERS: &[&str] = &[
    "sort",
    "primary",
    "foreign",
    "partition",
    "cache",
    "idempotency",
    "public",
    "object",
    "row",
    "hash",
    "range",
    "lookup",
    "map",
    "dict",
    "group",
    "cluster",
    "shard",
    "index",
    "composite",
    "unique",
    "natural",
    "surrogate",
    "sequence",
    "message",
    "event",
    "routing",
    "dedup",
    "dedupe",
    "translation",
    "i18n",
    "locale",
    "label",
    "field",
    "column",
    "table",
    "s3",
    "bucket",
    "registry",
    "config",
    "setting",
    "settings",
    "react",
    "list",
    "item",
    "entry",
    "dictionary",
    "json",
    "yaml",
    "sorting",
    "order",
    "grouping",
    "join",
    "match",
    "search",
    "query",
    "request",
    "response",
    "metric",
    "metrics",
    "tag",
    "tags",
    "hotkey",
    "short",
    "keyboard",
    "the",
    "a",
];

/// Last words that make a secret-sounding name describe the secret rather than hold it
/// (`password_policy`, `token_expires_in`, `api_key_last4`, `PASSWORD_FILE`).
const METADATA_WORDS: &[&str] = &[
    "policy",
    "type",
    "types",
    "url",
    "uri",
    "endpoint",
    "method",
    "scheme",
    "name",
    "names",
    "count",
    "limit",
    "usage",
    "length",
    "len",
    "file",
    "path",
    "dir",
    "version",
    "expires",
    "expiry",
    "expiration",
    "in",
    "at",
    "ttl",
    "last4",
    "hint",
    "prefix",
    "format",
    "enabled",
    "required",
    "set",
    "present",
    "exists",
    "rotated",
    "created",
    "updated",
    "age",
    "strength",
    "rules",
    "reset",
    "changed",
    "id",
    "ids",
    // What a setting about a secret names besides the secret: where it is kept, how it
    // is sent or checked, how much of it is allowed (`secret_store`, `auth_token_header`,
    // `token_budget`, `password_min`).
    "budget",
    "store",
    "storage",
    "backend",
    "provider",
    "manager",
    "header",
    "headers",
    "field",
    "fields",
    "param",
    "parameter",
    "label",
    "location",
    "source",
    "env",
    "var",
    "variable",
    "mode",
    "kind",
    "status",
    "state",
    "error",
    "min",
    "max",
    "minimum",
    "maximum",
    "size",
    "timeout",
    "lifetime",
    "duration",
    "rotation",
    "complexity",
    "quota",
    "algorithm",
    "strategy",
    "validator",
    "validation",
    "regex",
    "pattern",
    "hasher",
    "hashers",
    // Periods: `secret_rotation_days`, `token_refresh_interval`.
    "day",
    "hour",
    "minute",
    "second",
    "sec",
    "ms",
    "interval",
    "period",
    "frequency",
    // Where and as whom a credential is used, which is no secret: `auth_username`,
    // `auth.database`, `X-Auth-Email`, `SSH_AUTH_SOCK`.
    "username",
    "user",
    "email",
    "host",
    "hostname",
    "port",
    "database",
    "db",
    "realm",
    "domain",
    "server",
    "scope",
    "scopes",
    "issuer",
    "audience",
    "sock",
    "socket",
    "plugin",
    "mechanism",
];

/// Whether `word` (lower case) says what a secret's setting is rather than the secret
/// ([`METADATA_WORDS`]): in prose, `the password policy for … is` names no password.
pub(crate) fn is_metadata_word(word: &str) -> bool {
    METADATA_WORDS.contains(&word)
}

/// First words that make the name a flag about a secret (`has_password`, `is_token`).
const FLAG_WORDS: &[&str] = &["has", "is", "use", "uses", "needs", "requires", "no", "with", "without", "show", "hide"];

/// Key names (as snake_case words) that contain a secret word but name no secret.
const SECRET_KEY_ALLOWLIST: &[&str] = &[
    "max_tokens",
    "tokens",
    "total_tokens",
    "input_tokens",
    "output_tokens",
    "prompt_tokens",
    "completion_tokens",
    "cached_tokens",
    "reasoning_tokens",
    "num_tokens",
    "token_usage",
    "next_page_token",
    "page_token",
    "nextpagetoken",
    "continuation_token",
    "continuationtoken",
    "sync_token",
    "synctoken",
    "cursor_token",
    "secret_name",
    "credential_type",
    "next_token",
    "nexttoken",
    "pagination_token",
];

/// Stems of which every built-in secret name holds one (ASCII case-insensitively): the
/// secret words and pairs, the trailing words, the weak names and a `…_key` name. Most
/// keys hold none, and a text without any has no built-in secret name to judge.
pub(crate) const SECRET_NAME_STEMS: &[&str] =
    &["pass", "pw", "pin", "psk", "secret", "token", "key", "credential", "creds", "cookie", "auth", "bearer", "session", "signature"];

/// Whether `key` holds one of [`SECRET_NAME_STEMS`] (either case).
fn holds_a_stem(key: &str) -> bool {
    next_stem(key, 0).is_some()
}

/// Every pair of bytes that starts some stem, in either case, a bit each (8 KiB): a
/// lookup per byte finds the stems' candidates in a text.
static STEM_PAIRS: [u64; 1024] = {
    let mut table = [0u64; 1024];
    let mut k = 0;
    while k < SECRET_NAME_STEMS.len() {
        let stem = SECRET_NAME_STEMS[k].as_bytes();
        let (a, b) = (stem[0], stem[1]);
        let pairs = [(a, b), (a - 32, b), (a, b - 32), (a - 32, b - 32)];
        let mut p = 0;
        while p < pairs.len() {
            let index = (pairs[p].0 as usize) << 8 | pairs[p].1 as usize;
            table[index / 64] |= 1 << (index % 64);
            p += 1;
        }
        k += 1;
    }
    table
};

/// The first position at or after `from` where one of [`SECRET_NAME_STEMS`] starts in
/// `text` (either case). Every occurrence is found, overlapping ones too, so a key that
/// holds a stem holds a position this gives.
pub(crate) fn next_stem(text: &str, from: usize) -> Option<usize> {
    next_stem_and_index(text.as_bytes(), from).map(|(at, _)| at)
}

/// [`next_stem`], and the index in [`SECRET_NAME_STEMS`] of the stem that starts there
/// (one at most: no stem is the start of another).
fn next_stem_and_index(bytes: &[u8], from: usize) -> Option<(usize, usize)> {
    let mut at = from;
    while let Some(candidate) = next_stem_start(bytes, at) {
        if let Some(k) = stem_at(bytes, candidate) {
            return Some((candidate, k));
        }
        at = candidate + 1;
    }
    None
}

/// Where the stems of [`SECRET_NAME_STEMS`] start in one text, found in one pass and kept
/// as a bit a byte, and which stems occur: every rule that judges key names walks the
/// stems of the same text, and none of them searches the text for a stem again.
#[derive(Debug)]
pub(crate) struct StemStarts {
    /// A bit for each byte at which a stem starts.
    starts: Vec<u64>,
    /// A bit for each stem (its index in [`SECRET_NAME_STEMS`]) that occurs.
    found: u16,
}

const _: () = assert!(SECRET_NAME_STEMS.len() <= 16, "StemStarts keeps a bit a stem in a u16");

/// The longest stem, in bytes.
const MAX_STEM: usize = {
    let mut longest = 0;
    let mut k = 0;
    while k < SECRET_NAME_STEMS.len() {
        if SECRET_NAME_STEMS[k].len() > longest {
            longest = SECRET_NAME_STEMS[k].len();
        }
        k += 1;
    }
    longest
};

impl StemStarts {
    /// The stems' starts in `text`. Where the compiler has vector registers, 32 positions
    /// are compared with the stems' first two letters a step (16 in WebAssembly with
    /// SIMD), and only the positions that pass are compared with the stems; the rest of
    /// the text (and all of it elsewhere) goes through [`next_stem_and_index`].
    pub(crate) fn of(text: &str) -> Self {
        Self::within(text, std::iter::once(0..text.len()))
    }

    /// The stems' starts in `text` that lie in `ranges` (in order, disjoint), and perhaps
    /// a few more: a range is read in whole steps, so up to a step past its end. For a
    /// caller that knows where no stem can start ([`PairSet::by_blocks`]): the starts are
    /// then all of [`StemStarts::of`] the whole text.
    ///
    /// [`PairSet::by_blocks`]: crate::search::PairSet::by_blocks
    pub(crate) fn within(text: &str, ranges: impl IntoIterator<Item = Range<usize>>) -> Self {
        let mut set = StemStarts { starts: vec![0u64; text.len().div_ceil(64)], found: 0 };
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64", all(target_arch = "wasm32", target_feature = "simd128")))]
        let bytes = text.as_bytes();
        let mut read = 0;
        for range in ranges {
            #[cfg_attr(
                not(any(target_arch = "x86_64", target_arch = "aarch64", all(target_arch = "wasm32", target_feature = "simd128"))),
                allow(unused_mut)
            )]
            let mut from = range.start.max(read);
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            while let (true, Some(firsts), Some(seconds)) =
                (from < range.end, crate::search::block_at(bytes, from), crate::search::block_at(bytes, from + 1))
            {
                set.add_candidates(bytes, from, head_mask(firsts, seconds));
                from += 32;
            }
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            while let (true, Some(firsts), Some(seconds)) = (from < range.end, Lanes::at(bytes, from), Lanes::at(bytes, from + 1)) {
                set.add_candidates(bytes, from, at_stem_head(firsts, seconds).bits());
                from += 16;
            }
            // What the steps leave of the range (its end, or the text's last bytes), read
            // to the range's end and as far past it as the longest stem reaches.
            let reach = &text.as_bytes()[..text.len().min(range.end + MAX_STEM)];
            while let Some((at, k)) = next_stem_and_index(reach, from).filter(|&(at, _)| at < range.end) {
                set.add(at, k);
                from = at + 1;
            }
            crate::search::work::tally((from.max(range.end) - range.start.min(from)) / 8 + 1);
            read = from.max(range.end);
        }
        set
    }

    /// Add the stems that start at the positions `from + k` for each bit k of
    /// `candidates`.
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64", all(target_arch = "wasm32", target_feature = "simd128")))]
    #[inline(always)]
    fn add_candidates(&mut self, bytes: &[u8], from: usize, mut candidates: u32) {
        while candidates != 0 {
            let at = from + candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            if let Some(k) = stem_at(bytes, at) {
                self.add(at, k);
            }
        }
    }

    fn add(&mut self, at: usize, stem: usize) {
        self.starts[at / 64] |= 1 << (at % 64);
        self.found |= 1 << stem;
    }

    /// No stem anywhere.
    pub(crate) fn none() -> Self {
        StemStarts { starts: Vec::new(), found: 0 }
    }

    /// The first position at or after `from` where a stem starts: [`next_stem`] of the
    /// same text, read off the bits (a word for 64 bytes).
    pub(crate) fn next(&self, from: usize) -> Option<usize> {
        let mut word = from / 64;
        let mut bits = self.starts.get(word)? & (u64::MAX << (from % 64));
        loop {
            if bits != 0 {
                return Some(word * 64 + bits.trailing_zeros() as usize);
            }
            word += 1;
            bits = *self.starts.get(word)?;
            crate::search::work::tally(1);
        }
    }

    /// Whether `literal` (lowercase) occurs in `text`, the text these are the starts of,
    /// ASCII case-insensitively, when the starts can tell: a stem is known by whether it
    /// occurs, a literal that starts with a stem is compared where that stem starts, and
    /// for any other literal this says nothing (`None`).
    pub(crate) fn occurs(&self, text: &str, literal: &str) -> Option<bool> {
        let k = SECRET_NAME_STEMS.iter().position(|s| literal.starts_with(s))?;
        if self.found & (1 << k) == 0 || literal.len() == SECRET_NAME_STEMS[k].len() {
            return Some(self.found & (1 << k) != 0);
        }
        Some(self.positions_of(text, literal).next().is_some())
    }

    /// Where `literal` (lowercase, starting with one of [`SECRET_NAME_STEMS`]) occurs in
    /// `text`, the text these are the starts of, ASCII case-insensitively: compared only
    /// where a stem starts.
    pub(crate) fn positions_of<'a>(&'a self, text: &'a str, literal: &'a str) -> impl Iterator<Item = usize> + 'a {
        debug_assert!(SECRET_NAME_STEMS.iter().any(|s| literal.starts_with(s)), "{literal} starts with no stem");
        let bytes = text.as_bytes();
        let mut from = 0;
        std::iter::from_fn(move || {
            while let Some(at) = self.next(from) {
                from = at + 1;
                if bytes[at..].get(..literal.len()).is_some_and(|w| w.eq_ignore_ascii_case(literal.as_bytes())) {
                    return Some(at);
                }
            }
            None
        })
    }
}

/// The index of the stem that starts at `at` in `bytes` (either case), if one does.
fn stem_at(bytes: &[u8], at: usize) -> Option<usize> {
    // Bit 5 set maps `A`..`Z` onto `a`..`z` and nothing else onto a letter: the stems'
    // first two letters are compared so, the rest of a stem only where they match.
    let head = [bytes.get(at)? | 0x20, bytes.get(at + 1)? | 0x20];
    let mut stems = STEMS_BY_HEAD[head_index(head)];
    // The four bytes from `at` (a space past the text's end), folded: compared with a
    // stem's first four letters at once, the rest of a longer stem only where they match.
    let mut four = [b' '; 4];
    for (slot, &b) in four.iter_mut().zip(&bytes[at..]) {
        *slot = b;
    }
    let four = u32::from_le_bytes(four) | 0x2020_2020;
    while stems != 0 {
        let k = stems.trailing_zeros() as usize;
        stems &= stems - 1;
        let (letters, mask) = STEM_WORDS[k];
        let stem = SECRET_NAME_STEMS[k].as_bytes();
        if four & mask == letters && (stem.len() <= 4 || bytes[at..].get(..stem.len()).is_some_and(|w| w.eq_ignore_ascii_case(stem))) {
            return Some(k);
        }
    }
    None
}

/// Each stem's first four letters (fewer for a shorter stem) as a little-endian word, and
/// the mask of the bytes they take.
const STEM_WORDS: [(u32, u32); SECRET_NAME_STEMS.len()] = {
    let mut words = [(0u32, 0u32); SECRET_NAME_STEMS.len()];
    let mut k = 0;
    while k < words.len() {
        let stem = SECRET_NAME_STEMS[k].as_bytes();
        let mut j = 0;
        while j < stem.len() {
            // Folding by bit 5 is exact only against lowercase letters.
            assert!(stem[j].is_ascii_lowercase(), "a stem is lowercase letters");
            j += 1;
        }
        j = 0;
        while j < stem.len() && j < 4 {
            words[k].0 |= (stem[j] as u32) << (8 * j);
            words[k].1 |= 0xff << (8 * j);
            j += 1;
        }
        k += 1;
    }
    words
};

/// A head's slot in [`STEMS_BY_HEAD`]: the low five bits of each byte (several heads share
/// a slot; only one of them is a stem's, compared after the lookup).
const fn head_index(head: [u8; 2]) -> usize {
    ((head[0] & 31) as usize) << 5 | (head[1] & 31) as usize
}

/// For each slot of [`head_index`], a bit for each stem whose head is in it: a candidate
/// is compared with these stems only, not with all twelve.
static STEMS_BY_HEAD: [u16; 1024] = {
    let mut table = [0u16; 1024];
    let mut k = 0;
    while k < STEM_HEADS.len() {
        table[head_index(STEM_HEADS[k])] |= 1 << k;
        k += 1;
    }
    table
};

/// A bit for each of the 32 positions of a block at which the first two letters of a stem
/// stand (bytes folded by setting bit 5): a flag a position compared with every stem's
/// head without a branch (vector comparisons), then the flags gathered into bits
/// ([`flags_mask`](crate::search::flags_mask)).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
fn head_mask(firsts: &[u8; 32], seconds: &[u8; 32]) -> u32 {
    let mut flags = [0u8; 32];
    for ((flag, &a), &b) in flags.iter_mut().zip(firsts).zip(seconds) {
        *flag = u8::from(at_stem_head(a, b));
    }
    crate::search::flags_mask(&flags)
}

/// Whether the first two letters of a stem stand at a position whose byte is `a` and whose
/// next byte is `b`, in either case: each stem's head compared, without a branch.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64", all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn at_stem_head<B: Bytes>(a: B, b: B) -> B::Mask {
    let (a, b) = (a.folded(), b.folded());
    let mut hit = a.is(STEM_HEADS[0][0]) & b.is(STEM_HEADS[0][1]);
    for head in &STEM_HEADS[1..] {
        hit = hit | (a.is(head[0]) & b.is(head[1]));
    }
    hit
}

/// The first two letters of each stem.
const STEM_HEADS: [[u8; 2]; SECRET_NAME_STEMS.len()] = {
    let mut heads = [[0u8; 2]; SECRET_NAME_STEMS.len()];
    let mut k = 0;
    while k < heads.len() {
        let stem = SECRET_NAME_STEMS[k].as_bytes();
        heads[k] = [stem[0], stem[1]];
        k += 1;
    }
    heads
};

/// The first position at or after `from` where a pair of [`STEM_PAIRS`] stands: the loop
/// every text's bytes go through. Where the compiler has vector registers, blocks of 32
/// positions are ruled out a block a step (each pair compared with the stems' first two
/// letters, bytes folded by setting bit 5), and a block that may hold one is searched a
/// pair a step by the exact table; elsewhere (WebAssembly, built for size, whose loops
/// are not vectorized) the table alone, a lookup a byte.
#[inline(never)]
fn next_stem_start(bytes: &[u8], from: usize) -> Option<usize> {
    let exact = |j: usize| {
        let pair = usize::from(bytes[j]) << 8 | usize::from(bytes[j + 1]);
        STEM_PAIRS[pair >> 6] & (1 << (pair & 63)) != 0
    };
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64", all(target_arch = "wasm32", target_feature = "simd128"))),
        allow(unused_mut)
    )]
    let mut i = from;
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    while let (Some(firsts), Some(seconds)) = (crate::search::block_at(bytes, i), crate::search::block_at(bytes, i + 1)) {
        let mut seen = 0u8;
        for (&a, &b) in firsts.iter().zip(seconds) {
            seen |= u8::from(at_stem_head(a, b));
        }
        if seen != 0 {
            if let Some(j) = (i..i + 32).find(|&j| exact(j)) {
                crate::search::work::tally((j - from) / 8 + 1);
                return Some(j);
            }
        }
        i += 32;
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    while let (Some(firsts), Some(seconds)) = (Lanes::at(bytes, i), Lanes::at(bytes, i + 1)) {
        if at_stem_head(firsts, seconds).bits() != 0 {
            if let Some(j) = (i..i + 16).find(|&j| exact(j)) {
                crate::search::work::tally((j - from) / 8 + 1);
                return Some(j);
            }
        }
        i += 16;
    }
    let found = (i.min(bytes.len())..bytes.len().saturating_sub(1)).find(|&j| exact(j));
    crate::search::work::tally((found.unwrap_or(bytes.len()).saturating_sub(from)) / 8 + 1);
    found
}

/// Whether a key name (any case style: `apiKey`, `API_KEY`, `x-api-key`) names a secret,
/// by the built-in names alone (a policy's names: [`KeyNames::is_secret`]).
pub(crate) fn is_secret_key(key: &str) -> bool {
    if !holds_a_stem(key) || names_a_source_file(key) {
        return false;
    }
    let words = key_words(key);
    let joined = words.join("_");
    if SECRET_KEY_ALLOWLIST.contains(&joined.as_str()) {
        return false;
    }
    let words = singular(&words);
    if describes(&words) {
        return false;
    }
    let Some(last) = words.last() else {
        return false;
    };
    let secret_word = |w: &str| {
        SECRET_KEY_WORDS.iter().any(|s| w == *s || (w.len() > s.len() + 1 && w.ends_with(s)))
            // A joined name ending in `pass` (`SSHPASS`, `dbpass`, `rootpass`), not an
            // English word that ends so (`bypass`, `compass`).
            || (w.len() >= 6 && w.ends_with("pass") && !PASS_WORDS.contains(&w))
    };
    words.iter().any(|w| secret_word(w))
        || (words.len() > 1 && TRAILING_SECRET_WORDS.contains(last))
        || words.windows(2).any(|p| SECRET_KEY_PAIRS.contains(&(p[0], p[1])))
        || (words.len() > 1 && *last == "key" && !PLAIN_KEY_QUALIFIERS.contains(&words[words.len() - 2]))
}

/// Whether `key` is a file's name (`TokenService.java`, `token.go`, `password_policy.yaml`):
/// in a stack frame, `TokenService.java:42` is a place in the code, and its line number no
/// secret; after a file's name, a colon starts what is said of the file. A key file's
/// name (`tls.key`, `id_rsa.pem`) is no such name: its value is the key.
fn names_a_source_file(key: &str) -> bool {
    key.rsplit_once('.').is_some_and(|(name, extension)| {
        !name.is_empty() && SOURCE_FILE_EXTENSIONS.iter().chain(DATA_FILE_EXTENSIONS).any(|e| extension.eq_ignore_ascii_case(e))
    })
}

/// The extensions of configuration and data files whose names messages quote before a
/// colon (`Error reading 'password_policy.yaml': …`).
const DATA_FILE_EXTENSIONS: &[&str] =
    &["yaml", "yml", "json", "toml", "ini", "cfg", "conf", "txt", "xml", "csv", "md", "log", "lock", "html"];

/// The extensions of source files whose names stack frames and compiler messages show
/// before a line number.
const SOURCE_FILE_EXTENSIONS: &[&str] = &[
    "java", "kt", "kts", "scala", "groovy", "clj", "py", "rb", "php", "pl", "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "go",
    "rs", "c", "cc", "cpp", "cxx", "h", "hpp", "cs", "fs", "vb", "swift", "m", "mm", "dart", "lua", "ex", "exs", "erl", "hs", "ml", "zig",
    "nim", "cr", "jl", "r", "sh", "ps1", "vue", "svelte",
];

/// Plurals as their singular (`api_keys`, `passwords`), except `tokens`, which is nearly
/// always a count, and `creds`, a name of its own; `pass` and `access` are no plurals.
fn singular(words: &[String]) -> Vec<&str> {
    words
        .iter()
        .map(|w| match w.strip_suffix('s') {
            Some(stem) if w.len() > 3 && !w.ends_with("ss") && w != "tokens" && w != "creds" => stem,
            _ => w.as_str(),
        })
        .collect()
}

/// Whether a name of several words describes a secret rather than holds it: its last word
/// is metadata (`password_policy`, `token_expires_in`) or its first a flag (`has_password`).
/// `session_id`, Vault's `secret_id` and AWS's `access_key_id` are credentials (or half of
/// one) all the same; `api_key_id` names one.
fn describes(words: &[&str]) -> bool {
    let (Some(first), Some(last)) = (words.first(), words.last()) else {
        return false;
    };
    let id_credential = words.len() > 1
        && *last == "id"
        && (matches!(words[words.len() - 2], "session" | "secret")
            || words.ends_with(&["access", "key", "id"])
            || words.ends_with(&["accesskey", "id"]));
    words.len() > 1 && !id_credential && (METADATA_WORDS.contains(last) || FLAG_WORDS.contains(first))
}

/// Short names that hold a secret only sometimes (see [`is_weak_secret_key`]).
const WEAK_SECRET_NAMES: &[&str] = &["pass", "pw", "key", "tokens", "session"];

/// Whether a key is a short name that holds a secret only sometimes (`pass`, `pw`, `key`,
/// `tokens`, `session`): its value is a secret when it looks generated.
pub(crate) fn is_weak_secret_key(key: &str) -> bool {
    WEAK_SECRET_NAMES.iter().any(|w| key.eq_ignore_ascii_case(w))
}

/// A key name as the rules compare it: its words (split at separators and camelCase
/// humps, lowercase, plurals as their singular) joined by `_`, so `AcmeSessions`,
/// `ACME_SESSION` and `acme-session` all read `acme_session`. `None` when it has no word.
///
/// A policy's names are kept in this form, so they apply as the built-in ones do.
pub(crate) fn canonical_key(key: &str) -> Option<String> {
    let words = key_words(key);
    let words = singular(&words);
    (!words.is_empty()).then(|| words.join("_"))
}

/// The key names a policy adds: names judged secret besides the built-in ones, and names
/// never judged secret. Both are kept in [`canonical_key`] form. A policy's secret name
/// matches a key that is the name itself, or holds its words in a row (`x-acme-session`
/// for `acme_session`), or ends a joined word with it (`myacmesession`), unless, for a
/// longer key, the key only describes the secret (`acme_session_expires_at`,
/// `has_acme_session`), exactly as the built-in words match. A plain name matches only a
/// key that is the name itself (`tokenBudget` for `token_budget`), and wins over every
/// secret name: its value is still scanned as text, so a token in it is still redacted.
#[derive(Clone, Debug, Default)]
pub(crate) struct KeyNames {
    /// The secret names, sorted.
    secret: Vec<String>,
    /// The same names with their words joined without `_` (`acmesession`), sorted.
    joined: Vec<String>,
    /// How the secret names start, as a key holding one must show it: the first two
    /// letters or digits of each name's first word, as a pair in a row (a bit per pair of
    /// `[a-z0-9]`), or a one-letter first word alone. A key showing none is ruled out
    /// without splitting it, whatever the number of names.
    starts: [u64; START_WORDS],
    /// The one-letter first words (a bit per `[a-z0-9]`).
    single_starts: u64,
    /// For each secret name, the letters and digits it has: a key lacking one of them
    /// cannot match it (checked once a key shows how some name starts).
    letters: Vec<AsciiSet>,
    /// The most words of a secret name.
    max_words: usize,
    /// The plain names, sorted.
    plain: Vec<String>,
}

impl KeyNames {
    /// The built-in names only.
    pub(crate) const NONE: KeyNames = KeyNames {
        secret: Vec::new(),
        joined: Vec::new(),
        starts: [0; START_WORDS],
        single_starts: 0,
        letters: Vec::new(),
        max_words: 0,
        plain: Vec::new(),
    };

    /// Names from a policy: `secret` and `plain`, each in [`canonical_key`] form.
    pub(crate) fn new(secret: &[String], plain: &[String]) -> Self {
        let mut names = KeyNames::default();
        for name in secret {
            names.secret.push(name.clone());
            names.joined.push(name.replace('_', ""));
            names.letters.push(AsciiSet::of(&names.joined[names.joined.len() - 1]));
            names.max_words = names.max_words.max(name.split('_').count());
            let first = name.split('_').next().unwrap_or("").as_bytes();
            match (first.first().copied().and_then(alnum_index), first.get(1).copied().and_then(alnum_index)) {
                (Some(a), Some(b)) => names.starts[(a * ALNUM + b) / 64] |= 1 << ((a * ALNUM + b) % 64),
                (Some(a), None) => names.single_starts |= 1 << a,
                // A first word outside `[a-z0-9]` (a canonical name has none): every key passes.
                _ => names.single_starts = u64::MAX,
            }
        }
        for list in [&mut names.secret, &mut names.joined] {
            crate::order::sort_by(list, |a, b| a < b);
            list.dedup();
        }
        names.plain = plain.to_vec();
        crate::order::sort_by(&mut names.plain, |a, b| a < b);
        names.plain.dedup();
        names
    }

    /// Whether the policy adds secret names.
    pub(crate) fn adds_secret_names(&self) -> bool {
        !self.secret.is_empty()
    }

    /// Whether a policy names keys never judged secret.
    pub(crate) fn adds_plain_names(&self) -> bool {
        !self.plain.is_empty()
    }

    /// Whether `key` names a secret: a built-in name or a policy's, and no plain name.
    pub(crate) fn is_secret(&self, key: &str) -> bool {
        // The checks of a policy's names come only when it has some (most have none).
        (is_secret_key(key) || (!self.secret.is_empty() && self.is_policy_secret(key))) && (self.plain.is_empty() || !self.is_plain(key))
    }

    /// Whether `name`, a `name` or `key` beside a `value`, says the value is a secret. A
    /// name the redactor replaced (`[REDACTED:secret_field]`) says nothing: the marker's
    /// family is no name, and the text before redaction named none either.
    pub(crate) fn names_its_value(&self, name: &str) -> bool {
        !name.contains(crate::text::MARKER_PREFIX) && self.is_secret(name)
    }

    /// Whether `key` is a short name that holds a secret only when its value looks
    /// generated ([`is_weak_secret_key`]), and no plain name.
    pub(crate) fn is_weak(&self, key: &str) -> bool {
        is_weak_secret_key(key) && !self.is_plain(key)
    }

    /// Whether `key` is one of the policy's plain names.
    pub(crate) fn is_plain(&self, key: &str) -> bool {
        !self.plain.is_empty() && canonical_key(key).is_some_and(|k| self.plain.binary_search(&k).is_ok())
    }

    /// Whether `key` matches one of the policy's secret names (see [`KeyNames`]).
    pub(crate) fn is_policy_secret(&self, key: &str) -> bool {
        if self.secret.is_empty() {
            return false;
        }
        if !self.may_hold_a_name(key) {
            return false;
        }
        let present = AsciiSet::of(key);
        crate::search::work::tally(self.letters.len());
        if !self.letters.iter().any(|l| present.includes(*l)) {
            return false;
        }
        let words = key_words(key);
        let words = singular(&words);
        let mut window = String::with_capacity(key.len());
        let mut found = false;
        for start in 0..words.len() {
            window.clear();
            for (n, word) in words[start..].iter().take(self.max_words).enumerate() {
                if n > 0 {
                    window.push('_');
                }
                window.push_str(word);
                crate::search::work::tally(window.len());
                if self.secret.binary_search(&window).is_ok() {
                    if start == 0 && n + 1 == words.len() {
                        return true;
                    }
                    found = true;
                }
            }
        }
        // The end of a joined word, as `pgpassword` ends in `password`.
        found = found
            || words.iter().any(|w| {
                crate::search::work::tally(w.len());
                (0..w.len())
                    .filter(|&at| (at == 0 || at >= 2) && w.is_char_boundary(at))
                    .any(|at| self.joined.binary_search_by(|j| j.as_str().cmp(&w[at..])).is_ok())
            });
        found && !describes(&words)
    }
}

/// The number of `[a-z0-9]` characters, and of `u64` words a bit per pair of them takes.
const ALNUM: usize = 36;
const START_WORDS: usize = (ALNUM * ALNUM).div_ceil(64);

/// The index of an ASCII letter (either case) or digit among `[a-z0-9]`.
fn alnum_index(b: u8) -> Option<usize> {
    match b.to_ascii_lowercase() {
        c @ b'a'..=b'z' => Some(usize::from(c - b'a')),
        c @ b'0'..=b'9' => Some(26 + usize::from(c - b'0')),
        _ => None,
    }
}

impl KeyNames {
    /// Whether `key` shows how some secret name starts (see `starts`): a key holding a
    /// name holds its first word in a row, as a key word or the start of one (a plural
    /// or a joined word only adds letters after it). One pass over the key's bytes.
    fn may_hold_a_name(&self, key: &str) -> bool {
        crate::search::work::tally(key.len());
        let mut previous = None;
        for b in key.bytes() {
            let index = alnum_index(b);
            if let Some(i) = index {
                if self.single_starts & (1u64 << i) != 0 {
                    return true;
                }
                if let Some(p) = previous {
                    let pair = p * ALNUM + i;
                    if self.starts[pair / 64] & (1u64 << (pair % 64)) != 0 {
                        return true;
                    }
                }
            }
            previous = index;
        }
        false
    }
}

/// Split a key into lowercase words at separators and camelCase humps.
#[inline]
fn key_words(key: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut prev_lower = false;
    for c in key.chars() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stems' one pass gives every start [`next_stem`] gives, from every position, and
    /// says which stems occur; a stem starting inside another is still found.
    #[test]
    fn stem_starts_are_the_starts_next_stem_finds() {
        for (i, a) in SECRET_NAME_STEMS.iter().enumerate() {
            for b in &SECRET_NAME_STEMS[i + 1..] {
                assert!(!a.starts_with(b) && !b.starts_with(a), "{a} and {b}: one stem per place");
            }
        }
        let mut texts: Vec<String> = vec![
            String::new(),
            "p".into(),
            "PaSsWoRd=1 api_KEY: x".into(),
            "pwpwpwpw".into(),
            "xpasspasspass".into(),
            "token".repeat(30),
            format!("{}Session{}bearer", "a".repeat(63), "b".repeat(64)),
        ];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..300 {
            let mut t = String::new();
            while t.len() < 200 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let piece = [
                    "pass",
                    "PW",
                    "pin",
                    "seCret",
                    "token",
                    "key",
                    "cred",
                    "credential",
                    "cookie",
                    "auth",
                    "Authorization",
                    "bearer",
                    "sess",
                    "session",
                    "signature",
                    " ",
                    "_",
                    "é",
                    "ps",
                    "k",
                ][(state % 20) as usize];
                t.push_str(piece);
            }
            texts.push(t);
        }
        for text in &texts {
            let starts = StemStarts::of(text);
            let lower = text.to_ascii_lowercase();
            let stem_here = |i: usize| SECRET_NAME_STEMS.iter().any(|s| lower.as_bytes()[i..].starts_with(s.as_bytes()));
            for from in 0..=text.len() + 1 {
                assert_eq!(starts.next(from), next_stem(text, from), "from {from} in {text:?}");
                assert_eq!(next_stem(text, from), (from..text.len()).find(|&i| stem_here(i)), "from {from} in {text:?}");
            }
            for literal in SECRET_NAME_STEMS.iter().chain(&["pass:", "password", "authorization", "tokens", "keyk", "sessions"]) {
                assert_eq!(starts.occurs(text, literal), Some(lower.contains(literal)), "{literal} in {text:?}");
            }
            assert_eq!(starts.occurs(text, "pwd"), Some(lower.contains("pwd")), "{text:?}");
            assert_eq!(starts.occurs(text, "value"), None);
            for literal in ["authorization", "bearer", "pass:", "tokent", "pwpw"] {
                let expected: Vec<usize> = (0..text.len()).filter(|&i| lower.as_bytes()[i..].starts_with(literal.as_bytes())).collect();
                assert_eq!(starts.positions_of(text, literal).collect::<Vec<_>>(), expected, "{literal} in {text:?}");
            }
        }
    }

    /// The engine skips the key-name rules on a text without a stem, so every word a
    /// built-in name is judged by must hold one.
    #[test]
    fn every_built_in_secret_word_holds_a_stem() {
        let pairs: Vec<String> = SECRET_KEY_PAIRS.iter().map(|(a, b)| format!("{a}{b}")).collect();
        let words = SECRET_KEY_WORDS.iter().chain(TRAILING_SECRET_WORDS).chain(WEAK_SECRET_NAMES).copied();
        for word in words.chain(pairs.iter().map(String::as_str)).chain(["key"]) {
            assert!(SECRET_NAME_STEMS.iter().any(|s| word.contains(s)), "{word} holds none of SECRET_NAME_STEMS");
        }
        // The stems start with two lowercase letters (the table of their starts needs it).
        for stem in SECRET_NAME_STEMS {
            assert!(stem.len() >= 2 && stem.bytes().all(|b| b.is_ascii_lowercase()), "{stem}");
            assert!(holds_a_stem(stem) && holds_a_stem(&format!("X_{}s", stem.to_ascii_uppercase())), "{stem}");
        }
        assert!(!holds_a_stem("status") && !holds_a_stem("page_size") && !holds_a_stem("p_a_s_s"));
        // And a name without one is never a secret, whatever its shape.
        for key in ["PGPASSWORD", "x-api-key", "AccountKey", "sessionId", "DB_PASS"] {
            let hidden = key.replace(|c: char| c.is_ascii_alphabetic(), "q");
            assert!(is_secret_key(key) && !is_secret_key(&hidden), "{key}");
        }
    }

    #[test]
    fn secret_key_names_in_every_case_style() {
        for k in [
            "password",
            "apiKey",
            "API_KEY",
            "x-api-key",
            "client_secret",
            "refreshToken",
            "AWS_SECRET_ACCESS_KEY",
            "sessionId",
            "PGPASSWORD",
            "accesstoken",
            "clientsecret",
            "api_keys",
            "passwords",
            "DB_PASS",
            "bind_pw",
            "signingKey",
            "MASTER_KEY",
            "Ocp-Apim-Subscription-Key",
            "AccountKey",
            "access_tokens",
            "Passwort",
            "DB_PASSWORT",
            "mot_de_passe",
            "MotDePasse",
            "motdepasse",
        ] {
            assert!(is_secret_key(k), "{k}");
        }
        for k in [
            "max_tokens",
            "token_type",
            "sort_key",
            "author",
            "key",
            "monkey",
            "tokens",
            "primaryKey",
            "has_password",
            "api_key_last4",
            "PASSWORD_FILE",
            "nextPageToken",
            "token_expires_in",
            "public_key",
            "passenger",
            "pinned",
        ] {
            assert!(!is_secret_key(k), "{k}");
        }
    }

    fn names(secret: &[&str], plain: &[&str]) -> KeyNames {
        let canonical = |list: &[&str]| list.iter().map(|n| canonical_key(n).unwrap()).collect::<Vec<_>>();
        KeyNames::new(&canonical(secret), &canonical(plain))
    }

    #[test]
    fn key_names_are_compared_in_one_canonical_form() {
        for k in ["acme_session", "AcmeSession", "ACME-SESSIONS", "acme.session", "acmeSessions"] {
            assert_eq!(canonical_key(k).as_deref(), Some("acme_session"), "{k}");
        }
        assert_eq!(canonical_key("max_tokens").as_deref(), Some("max_tokens"));
        assert_eq!(canonical_key("--").as_deref(), None);
    }

    #[test]
    fn a_policy_secret_name_matches_as_the_built_in_words_do() {
        let n = names(&["acme_session", "Tenant-Ref"], &[]);
        for k in [
            "acme_session",
            "AcmeSession",
            "ACME_SESSIONS",
            "x-acme-session",
            "acmesession",
            "myacmesession",
            "acme_session_value",
            "acme_session_id",
            "tenantRef",
            "TENANT_REFS",
        ] {
            assert!(n.is_secret(k), "{k}");
        }
        for k in ["acme", "session_acme", "acme_session_expires_at", "has_acme_session", "xacmesession2", "tenant", "acme_sessionx"] {
            assert!(!n.is_secret(k), "{k}");
        }
        // A one-letter first word, and a name with a digit.
        let short = names(&["x_acme", "k8s_token_ref"], &[]);
        for k in ["X-Acme", "xAcme", "xacme", "my_x_acme_id2", "K8sTokenRef", "K8S_TOKEN_REFS"] {
            assert!(short.is_secret(k), "{k}");
        }
        for k in ["acme", "x", "xa_cme", "k8token_ref"] {
            assert!(!short.is_policy_secret(k), "{k}");
        }
        let exact = names(&["session_url"], &[]);
        assert!(exact.is_secret("SessionUrl"), "a metadata last word does not hide the policy's own name");
        assert!(!KeyNames::NONE.is_policy_secret("acme_session"));
    }

    #[test]
    fn plain_names_win_over_secret_ones_and_match_only_themselves() {
        let n = names(&["acme_ref"], &["token_budget", "code", "key"]);
        assert!(!n.is_secret("tokenBudget") && !n.is_secret("TOKEN_BUDGETS"));
        assert!(n.is_secret("token_budget_secret") && n.is_secret("x_acme_ref") && n.is_secret("password"));
        assert!(!n.is_weak("KEY") && n.is_weak("pass"));
        assert!(n.is_plain("Code") && !n.is_plain("codes_x"));
    }
}
