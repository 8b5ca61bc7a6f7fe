//! Substring search for the rule tables: the needles are short literals, the texts are
//! windows of a few KiB, so a byte loop that skips to the needle's first byte and then
//! compares beats a general algorithm on both code size and start-up.
//!
//! Why not `str::find` and friends: in WebAssembly, the standard library's two-way
//! searcher is about 3 KiB of code every first call compiles, and its per-byte loop is
//! large. V8 charges a function's tier-up budget per loop iteration by the size of the
//! loop's code, so that loop alone sent the first call into a background TurboFan compile
//! (docs/PERFORMANCE-js.md). The skip loops here are a few instructions each. The worst
//! case (a text of repeated first bytes) costs the needle's length per position, bounded
//! by the caps on every text the scanners see.

/// The first position at or after `from` where `needle` occurs in `hay`.
pub(crate) fn find_from(hay: &str, needle: &str, from: usize) -> Option<usize> {
    let found = find_from_uncounted(hay, needle, from);
    work::tally(found.unwrap_or(hay.len()).saturating_sub(from) + needle.len());
    found
}

fn find_from_uncounted(hay: &str, needle: &str, from: usize) -> Option<usize> {
    let (hay, needle) = (hay.as_bytes(), needle.as_bytes());
    let Some((&first, rest)) = needle.split_first() else {
        return (from <= hay.len()).then_some(from);
    };
    let last_start = hay.len().checked_sub(needle.len())?;
    let last = needle[needle.len() - 1];
    let mut i = from;
    while i <= last_start {
        i = find_byte(&hay[..=last_start], i, first)?;
        // The last byte first: it rules out most candidates without a call to compare.
        if hay[i + needle.len() - 1] == last && &hay[i + 1..i + needle.len()] == rest {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// A count of the bytes the scanners step over, kept in tests only: the linear-time tests
/// compare it across input sizes, which wall-clock time cannot prove.
pub(crate) mod work {
    #[cfg(test)]
    thread_local! {
        static STEPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }

    /// Count `n` steps.
    #[inline(always)]
    pub(crate) fn tally(n: usize) {
        #[cfg(test)]
        STEPS.with(|s| s.set(s.get() + n as u64));
        #[cfg(not(test))]
        let _ = n;
    }

    /// The steps counted on this thread since the last call.
    #[cfg(test)]
    pub(crate) fn take() -> u64 {
        STEPS.with(|s| s.replace(0))
    }
}

/// The first position at or after `from` holding `byte`, eight bytes a step: a zero byte
/// of `word ^ pattern` marks a match, and the lowest flagged byte is always a true one.
fn find_byte(hay: &[u8], from: usize, byte: u8) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let pattern = ONES * u64::from(byte);
    let mut i = from;
    while let Some(chunk) = hay.get(i..i + 8) {
        let Ok(word) = <[u8; 8]>::try_from(chunk) else { break };
        let x = u64::from_le_bytes(word) ^ pattern;
        let flagged = x.wrapping_sub(ONES) & !x & HIGHS;
        if flagged != 0 {
            return Some(i + (flagged.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    hay.get(i..)?.iter().position(|&b| b == byte).map(|k| i + k)
}

/// The first position where `needle` occurs in `hay`.
pub(crate) fn find(hay: &str, needle: &str) -> Option<usize> {
    find_from(hay, needle, 0)
}

/// Whether `needle` occurs in `hay`.
pub(crate) fn contains(hay: &str, needle: &str) -> bool {
    find(hay, needle).is_some()
}

/// The last position where `needle` occurs in `hay`.
pub(crate) fn rfind(hay: &str, needle: &str) -> Option<usize> {
    let (hay, needle) = (hay.as_bytes(), needle.as_bytes());
    let Some((&first, rest)) = needle.split_first() else {
        return Some(hay.len());
    };
    let mut end = hay.len().checked_sub(needle.len())? + 1;
    while end > 0 {
        let i = hay[..end].iter().rposition(|&b| b == first)?;
        if &hay[i + 1..i + needle.len()] == rest {
            return Some(i);
        }
        end = i;
    }
    None
}

/// Every start of `needle` in `hay`, left to right, not overlapping (as
/// `str::match_indices`). An empty needle yields nothing.
pub(crate) fn positions<'a>(hay: &'a str, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
    let mut from = 0;
    std::iter::from_fn(move || {
        if needle.is_empty() {
            return None;
        }
        let at = find_from(hay, needle, from)?;
        from = at + needle.len();
        Some(at)
    })
}

/// `hay` split around the first `needle`, as `str::split_once`.
pub(crate) fn split_once<'a>(hay: &'a str, needle: &str) -> Option<(&'a str, &'a str)> {
    let at = find(hay, needle)?;
    Some((&hay[..at], &hay[at + needle.len()..]))
}

/// `hay` split around the last `needle`, as `str::rsplit_once`.
pub(crate) fn rsplit_once<'a>(hay: &'a str, needle: &str) -> Option<(&'a str, &'a str)> {
    let at = rfind(hay, needle)?;
    Some((&hay[..at], &hay[at + needle.len()..]))
}

/// Whether `hay` contains `needle` (lowercase ASCII), ASCII case-insensitively. No
/// allocation: candidates are found by the needle's first byte in either case.
pub(crate) fn contains_ignore_ascii_case(hay: &str, needle: &str) -> bool {
    let (hay, needle) = (hay.as_bytes(), needle.as_bytes());
    let Some((&first, rest)) = needle.split_first() else {
        return true;
    };
    let upper = first.to_ascii_uppercase();
    let mut from = 0;
    while let Some(found) = hay.get(from..).and_then(|h| h.iter().position(|&b| b == first || b == upper)) {
        let after = from + found + 1;
        if hay.get(after..after + rest.len()).is_some_and(|h| h.eq_ignore_ascii_case(rest)) {
            return true;
        }
        from = after;
    }
    false
}

/// The ASCII bytes that occur in a text, letters folded to lowercase: one pass, after
/// which most hints are ruled out without searching. (Two words, not a `u128`, whose
/// shifts WebAssembly has no instruction for.)
#[derive(Clone, Copy)]
pub(crate) struct AsciiSet([u64; 2]);

impl AsciiSet {
    pub(crate) fn of(text: &str) -> Self {
        let mut set = [0u64; 2];
        for b in text.bytes().filter(u8::is_ascii) {
            let b = b.to_ascii_lowercase();
            set[usize::from(b >> 6)] |= 1 << (b & 63);
        }
        AsciiSet(set)
    }

    /// Whether every byte of `word` (lowercase ASCII) occurs: necessary for `word` to occur.
    pub(crate) fn has_all(self, word: &str) -> bool {
        word.bytes().all(|b| b.is_ascii() && self.0[usize::from(b >> 6)] & (1 << (b & 63)) != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HAYS: &[&str] = &[
        "",
        "a",
        "aaaa",
        "abababab",
        "retry-after: 30, Retry-After 5",
        "status 404 status=500 xstatus",
        "-----BEGIN RSA PRIVATE KEY-----\nMII\n-----END RSA PRIVATE KEY-----",
        "naïve café — 日本語 at object root at x",
        "::a::b::",
    ];
    const NEEDLES: &[&str] =
        &["a", "ab", "aa", "status", "retry-after", "-----END", " at ", "::", "é", "日本", "zz", "abababab", "ababababa"];

    #[test]
    fn agrees_with_the_standard_library() {
        for hay in HAYS {
            for needle in NEEDLES {
                assert_eq!(find(hay, needle), hay.find(needle), "find {needle:?} in {hay:?}");
                assert_eq!(rfind(hay, needle), hay.rfind(needle), "rfind {needle:?} in {hay:?}");
                assert_eq!(contains(hay, needle), hay.contains(needle));
                let ours: Vec<usize> = positions(hay, needle).collect();
                let std: Vec<usize> = hay.match_indices(needle).map(|(i, _)| i).collect();
                assert_eq!(ours, std, "positions of {needle:?} in {hay:?}");
                assert_eq!(split_once(hay, needle), hay.split_once(needle));
                assert_eq!(rsplit_once(hay, needle), hay.rsplit_once(needle));
                for from in 0..=hay.len() {
                    let expected = hay.get(from..).and_then(|h| h.find(needle)).map(|i| i + from);
                    if hay.is_char_boundary(from) {
                        assert_eq!(find_from(hay, needle, from), expected, "find {needle:?} in {hay:?} from {from}");
                    }
                }
            }
        }
    }

    #[test]
    fn byte_search_finds_the_first_match_in_every_lane() {
        for len in 0..40 {
            for at in 0..len {
                for other in [0u8, b'a', 0x80, 0xff] {
                    let mut hay = vec![other; len];
                    hay[at] = b'x';
                    // A second match further on must not hide the first.
                    if at + 9 < len {
                        hay[at + 9] = b'x';
                    }
                    for from in 0..=at {
                        assert_eq!(find_byte(&hay, from, b'x'), Some(at), "len {len} at {at} from {from} around {other}");
                    }
                    assert_eq!(find_byte(&hay, at + 1, b'x'), (at + 9 < len).then_some(at + 9));
                }
            }
            assert_eq!(find_byte(&vec![b'y'; len], 0, b'x'), None);
        }
        assert_eq!(find_byte(b"abc", 7, b'a'), None);
    }

    #[test]
    fn empty_needles_match_where_the_standard_library_does() {
        assert_eq!(find("abc", ""), Some(0));
        assert_eq!(find_from("abc", "", 3), Some(3));
        assert_eq!(find_from("abc", "", 4), None);
        assert_eq!(rfind("abc", ""), Some(3));
        assert_eq!(positions("abc", "").count(), 0);
    }

    proptest::proptest! {
        /// Small alphabets make matches, near misses and repeated first bytes common.
        #[test]
        fn every_search_agrees_with_the_standard_library(hay in "[abé-]{0,80}", needle in "[abé]{0,5}") {
            proptest::prop_assert_eq!(find(&hay, &needle), hay.find(needle.as_str()));
            proptest::prop_assert_eq!(rfind(&hay, &needle), hay.rfind(needle.as_str()));
            let std: Vec<usize> = if needle.is_empty() { Vec::new() } else { hay.match_indices(needle.as_str()).map(|(i, _)| i).collect() };
            proptest::prop_assert_eq!(positions(&hay, &needle).collect::<Vec<_>>(), std);
            proptest::prop_assert_eq!(rsplit_once(&hay, &needle), hay.rsplit_once(needle.as_str()));
        }
    }

    #[test]
    fn starts_past_the_end_find_nothing() {
        assert_eq!(find_from("abc", "c", 3), None);
        assert_eq!(find_from("abc", "c", 10), None);
    }

    #[test]
    fn case_insensitive_search_finds_any_case_and_nothing_else() {
        assert!(contains_ignore_ascii_case("X-Api-TOKEN: 1", "token"));
        assert!(contains_ignore_ascii_case("tok tokEN", "token"));
        assert!(contains_ignore_ascii_case("a=b", "="));
        assert!(contains_ignore_ascii_case("anything", ""));
        assert!(!contains_ignore_ascii_case("toke", "token"));
        assert!(!contains_ignore_ascii_case("tøken", "token"));
    }
}
