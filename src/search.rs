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
    if needle.is_empty() {
        return (from <= hay.len()).then_some(from);
    }
    let last_start = hay.len().checked_sub(needle.len())?;
    // Where the compiler has vector registers, candidates are found by the needle's least
    // common pair of adjacent bytes, 32 positions a step: `://` by `:/`, not at each `:`
    // of every timestamp. A needle with a rare byte (a capital, a backslash: `eyJ` by its
    // `J`) is found by that byte alone, a comparison a block fewer.
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64", all(target_arch = "wasm32", target_feature = "simd128")))]
    if needle.len() >= 2 && needle.iter().all(|&b| commonness(b) >= RARE) {
        let anchor = rarest_pair(needle);
        let pair = [needle[anchor], needle[anchor + 1]];
        let mut start = from;
        while start <= last_start {
            let found = next_pair(&hay[anchor..], start, pair, [0, 0])?;
            if found > last_start {
                return None;
            }
            if &hay[found..found + needle.len()] == needle {
                return Some(found);
            }
            start = found + 1;
        }
        return None;
    }
    // Elsewhere (and for a single byte), by the needle's least common byte (`eyJ` by its
    // `J`, not its `e`): fewer stops than at its first byte, each checked by comparing the
    // needle.
    let anchor = (0..needle.len()).min_by_key(|&k| commonness(needle[k])).unwrap_or(0);
    let rare = needle[anchor];
    let mut start = from;
    while start <= last_start {
        let found = find_byte(&hay[..=last_start + anchor], start + anchor, rare)? - anchor;
        if &hay[found..found + needle.len()] == needle {
            return Some(found);
        }
        start = found + 1;
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

/// Bytes as a byte class reads them: one byte ([`u8`], whose tests are `bool`s) or, in
/// WebAssembly with SIMD, sixteen side by side ([`Lanes`]). A class is written once over
/// `Bytes` and is the same rule on every target: natively the compiler vectorizes its
/// byte form in the block loops below; WebAssembly, built for size, does not vectorize
/// loops, so there the lanes form is written out.
pub(crate) trait Bytes: Copy {
    /// A test's outcome: a `bool` for a byte, a lane of all ones or zeros for lanes.
    type Mask: Copy + core::ops::BitOr<Output = Self::Mask> + core::ops::BitAnd<Output = Self::Mask> + core::ops::Not<Output = Self::Mask>;
    /// Equal to `byte`.
    fn is(self, byte: u8) -> Self::Mask;
    /// In `lo..=hi`.
    fn within(self, lo: u8, hi: u8) -> Self::Mask;
    /// With bit 5 set, which maps `A`..`Z` onto `a`..`z` (and nothing else onto a letter).
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64", all(target_arch = "wasm32", target_feature = "simd128"))),
        allow(dead_code)
    )]
    fn folded(self) -> Self;
}

impl Bytes for u8 {
    type Mask = bool;

    #[inline(always)]
    fn is(self, byte: u8) -> bool {
        self == byte
    }

    #[inline(always)]
    fn within(self, lo: u8, hi: u8) -> bool {
        self.wrapping_sub(lo) <= hi.wrapping_sub(lo)
    }

    #[inline(always)]
    fn folded(self) -> u8 {
        self | 0x20
    }
}

/// A class of bytes the scanners skip to ([`next_in_class`]), written over [`Bytes`].
/// Define one with [`byte_class!`].
pub(crate) trait ByteClass {
    fn test<B: Bytes>(b: B) -> B::Mask;
}

/// A class of positions read by their byte and the next one ([`next_in_pair_class`]).
pub(crate) trait PairClass {
    fn test<B: Bytes>(b: B, next: B) -> B::Mask;
}

/// A unit struct that is a [`ByteClass`] (`Name = |b| …`) or a [`PairClass`]
/// (`Name = |b, next| …`), the body written with [`Bytes`]' tests:
///
/// ```ignore
/// byte_class!(Quote = |b| b.is(b'"') | b.is(b'\''));
/// assert_eq!(next_in_class(b"it's", 0, Quote), 2);
/// ```
macro_rules! byte_class {
    ($(#[$doc:meta])* $vis:vis $name:ident = |$b:ident| $body:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        $vis struct $name;
        impl $crate::search::ByteClass for $name {
            #[inline(always)]
            fn test<B: $crate::search::Bytes>($b: B) -> B::Mask {
                $body
            }
        }
    };
    ($(#[$doc:meta])* $vis:vis $name:ident = |$b:ident, $next:ident| $body:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        $vis struct $name;
        impl $crate::search::PairClass for $name {
            #[inline(always)]
            fn test<B: $crate::search::Bytes>($b: B, $next: B) -> B::Mask {
                $body
            }
        }
    };
}
pub(crate) use byte_class;

/// Sixteen bytes of a text side by side, in WebAssembly built with SIMD: the lanes form
/// of [`Bytes`], each test one or two vector instructions.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) use lanes::Lanes;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod lanes {
    use core::arch::wasm32::{u64x2, u8x16_bitmask, u8x16_eq, u8x16_le, u8x16_splat, u8x16_sub, v128, v128_and, v128_not, v128_or};

    #[derive(Clone, Copy)]
    pub(crate) struct Lanes(v128);

    impl Lanes {
        /// The 16 bytes of `hay` from `i`, when there are as many.
        #[inline(always)]
        pub(crate) fn at(hay: &[u8], i: usize) -> Option<Lanes> {
            let block: &[u8; 16] = hay.get(i..i.checked_add(16)?)?.try_into().ok()?;
            let (lo, hi) = block.split_at(8);
            Some(Lanes(u64x2(u64::from_le_bytes(lo.try_into().ok()?), u64::from_le_bytes(hi.try_into().ok()?))))
        }

        /// A bit for each lane of a mask that is set, lane k as bit k.
        #[inline(always)]
        pub(crate) fn bits(self) -> u32 {
            u32::from(u8x16_bitmask(self.0))
        }
    }

    impl core::ops::BitOr for Lanes {
        type Output = Lanes;
        #[inline(always)]
        fn bitor(self, other: Lanes) -> Lanes {
            Lanes(v128_or(self.0, other.0))
        }
    }

    impl core::ops::BitAnd for Lanes {
        type Output = Lanes;
        #[inline(always)]
        fn bitand(self, other: Lanes) -> Lanes {
            Lanes(v128_and(self.0, other.0))
        }
    }

    impl core::ops::Not for Lanes {
        type Output = Lanes;
        #[inline(always)]
        fn not(self) -> Lanes {
            Lanes(v128_not(self.0))
        }
    }

    impl super::Bytes for Lanes {
        type Mask = Lanes;

        #[inline(always)]
        fn is(self, byte: u8) -> Lanes {
            Lanes(u8x16_eq(self.0, u8x16_splat(byte)))
        }

        #[inline(always)]
        fn within(self, lo: u8, hi: u8) -> Lanes {
            Lanes(u8x16_le(u8x16_sub(self.0, u8x16_splat(lo)), u8x16_splat(hi.wrapping_sub(lo))))
        }

        #[inline(always)]
        fn folded(self) -> Lanes {
            Lanes(v128_or(self.0, u8x16_splat(0x20)))
        }
    }
}

/// The first position at or after `from` whose lane is set in `test(i)`, the mask of the
/// 16 positions from `i`, 16 positions a step; or, when `test` gives no mask (the text's
/// lanes ran out), the position it stopped at (`Err`): the WebAssembly form of the block
/// loops.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn next_in_lanes(from: usize, test: impl Fn(usize) -> Option<Lanes>) -> Result<usize, usize> {
    let mut i = from;
    while let Some(mask) = test(i) {
        let bits = mask.bits();
        if bits != 0 {
            return Ok(i + bits.trailing_zeros() as usize);
        }
        i += 16;
    }
    Err(i)
}

/// The 32 bytes of `hay` from `i`, when there are as many.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
pub(crate) fn block_at(hay: &[u8], i: usize) -> Option<&[u8; 32]> {
    hay.get(i..i.checked_add(32)?).and_then(|b| b.try_into().ok())
}

/// Whether some byte of a block is in `class`: a flag gathered over the whole block
/// without a branch, which the compiler turns into a few vector instructions where the
/// target has them (a `bool` fold is compiled a byte or two a step).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
fn any_in_block(block: &[u8; 32], class: impl Fn(u8) -> bool) -> bool {
    let mut seen = 0u8;
    for &b in block {
        seen |= u8::from(class(b));
    }
    seen != 0
}

/// The first position at or after `from` holding `byte`, eight bytes a step: a zero byte
/// of `word ^ pattern` marks a match, and the lowest flagged byte is always a true one.
pub(crate) fn find_byte(hay: &[u8], from: usize, byte: u8) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let pattern = ONES * u64::from(byte);
    let mut i = from;
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    while let Some(block) = block_at(hay, i) {
        if any_in_block(block, |b| b == byte) {
            break;
        }
        i += 32;
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    match next_in_lanes(i, |i| Some(Lanes::at(hay, i)?.is(byte))) {
        Ok(found) => return Some(found),
        Err(end) => i = end,
    }
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

/// The first position at or after `from` whose byte is in `class`, or the end of `hay`.
/// Blocks of 32 bytes with no byte in the class are skipped a block a step (where the
/// compiler has vector registers, one test a block; in WebAssembly with SIMD, 16 bytes
/// a step), and the hit is then found in its block; `class` must be a few comparisons.
#[inline(always)]
pub(crate) fn next_in_class<C: ByteClass>(hay: &[u8], from: usize, _: C) -> usize {
    let mut i = from;
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    while let Some(block) = block_at(hay, i) {
        if any_in_block(block, |b| C::test(b)) {
            i += first_in_block(block, |b| C::test(b));
            work::tally(i.saturating_sub(from) / 8 + 1);
            return i;
        }
        i += 32;
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    match next_in_lanes(i, |i| Some(C::test(Lanes::at(hay, i)?))) {
        Ok(found) => {
            work::tally(found.saturating_sub(from) / 8 + 1);
            return found;
        }
        Err(end) => i = end,
    }
    while i < hay.len() && !C::test(hay[i]) {
        i += 1;
    }
    work::tally(i.saturating_sub(from) / 8 + 1);
    i
}

/// The start of the first block of sixteen bytes, at `from` or `step` bytes after it
/// again and again (`from` and `step` multiples of sixteen), whose bytes are all in
/// `class`. A run of `step + 15` bytes or more of the class holds such a block whole, so
/// a scan for long runs looks only where one is. Where the compiler has vector registers
/// a block is one test (in WebAssembly with SIMD, one lanes test); elsewhere its bytes
/// are tested until one is not in the class.
///
/// ```ignore
/// byte_class!(Letter = |b| b.within(b'a', b'z'));
/// assert_eq!(next_block_all_in(&[b"is it".repeat(4), [b'x'; 16].to_vec()].concat(), 0, 16, Letter), Some(32));
/// ```
#[inline(always)]
pub(crate) fn next_block_all_in<C: ByteClass>(hay: &[u8], from: usize, step: usize, _: C) -> Option<usize> {
    let mut i = from;
    while let Some(block) = hay.get(i..i.checked_add(16)?) {
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        let all = {
            let mut outside = 0u8;
            for &b in block {
                outside |= u8::from(!C::test(b));
            }
            outside == 0
        };
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        let all = Lanes::at(block, 0).is_some_and(|lanes| C::test(lanes).bits() == 0xffff);
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64", all(target_arch = "wasm32", target_feature = "simd128"))))]
        let all = block.iter().all(|&b| C::test(b));
        work::tally(1);
        if all {
            return Some(i);
        }
        i += step;
    }
    None
}

/// The first position at or after `from` whose byte and the byte after it (0 past the end)
/// are in `class`, or the end of `hay`: [`next_in_class`] for a class that looks at the
/// next byte too, 32 positions a step where the compiler has vector registers.
#[inline(always)]
pub(crate) fn next_in_pair_class<C: PairClass>(hay: &[u8], from: usize, _: C) -> usize {
    let mut i = from;
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    while let (Some(firsts), Some(seconds)) = (block_at(hay, i), block_at(hay, i + 1)) {
        let mut seen = 0u8;
        for (&a, &b) in firsts.iter().zip(seconds) {
            seen |= u8::from(C::test(a, b));
        }
        if seen != 0 {
            let mut flags = [0u8; 32];
            for ((flag, &a), &b) in flags.iter_mut().zip(firsts).zip(seconds) {
                *flag = u8::from(C::test(a, b));
            }
            i += flags_mask(&flags).trailing_zeros() as usize;
            work::tally(i.saturating_sub(from) / 8 + 1);
            return i;
        }
        i += 32;
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    match next_in_lanes(i, |i| Some(C::test(Lanes::at(hay, i)?, Lanes::at(hay, i + 1)?))) {
        Ok(found) => {
            work::tally(found.saturating_sub(from) / 8 + 1);
            return found;
        }
        Err(end) => i = end,
    }
    while i + 1 < hay.len() && !C::test(hay[i], hay[i + 1]) {
        i += 1;
    }
    // The last byte, with nothing after it.
    if i + 1 == hay.len() && !C::test(hay[i], 0) {
        i += 1;
    }
    work::tally(i.saturating_sub(from) / 8 + 1);
    i
}

/// The position of the first byte of a block in `class` (32 when none is): a flag a byte
/// without a branch (vector comparisons), gathered into bits eight at a time by a
/// multiplication, so the hit costs a few steps wherever it is in the block.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
pub(crate) fn first_in_block(block: &[u8; 32], class: impl Fn(u8) -> bool) -> usize {
    let mut flags = [0u8; 32];
    for (flag, &b) in flags.iter_mut().zip(block) {
        *flag = u8::from(class(b));
    }
    flags_mask(&flags).trailing_zeros() as usize
}

/// The bits of 32 flags of 0 or 1, flag k as bit k: for eight bytes of 0 or 1, the
/// product with 0x0102_0408_1020_4080 holds byte k's flag as bit k of its top byte.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
pub(crate) fn flags_mask(flags: &[u8; 32]) -> u32 {
    let mut mask = 0u32;
    for (w, chunk) in flags.chunks_exact(8).enumerate() {
        let Ok(word) = <[u8; 8]>::try_from(chunk) else { continue };
        mask |= ((u64::from_le_bytes(word).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32) << (8 * w);
    }
    mask
}

/// `at` (at most `text`'s length), or the nearest character boundary of `text` before it:
/// where a byte reach that may end inside a character is sliced.
///
/// ```ignore
/// assert_eq!(floor_boundary("aé", 2), 1);
/// ```
pub(crate) fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// `at` (at most `text`'s length), or the nearest character boundary of `text` after it.
pub(crate) fn ceil_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
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
    starts(hay, needle, find_from)
}

/// Whether `b` belongs to a word: an ASCII letter or digit, or `_`.
pub(crate) fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Every start of `word` in `hay` that stands alone: no word byte ([`is_word_byte`])
/// right before it or right after it. An empty word yields nothing.
pub(crate) fn whole_word_positions<'a>(hay: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    let bytes = hay.as_bytes();
    positions(hay, word).filter(move |&i| {
        let before = i > 0 && is_word_byte(bytes[i - 1]);
        let after = bytes.get(i + word.len()).is_some_and(|&b| is_word_byte(b));
        !before && !after
    })
}

/// Whether `word` stands alone somewhere in `hay` ([`whole_word_positions`]).
pub(crate) fn has_whole_word(hay: &str, word: &str) -> bool {
    whole_word_positions(hay, word).next().is_some()
}

/// Every start of `needle` (lowercase ASCII) in `hay`, ASCII case-insensitively, left to
/// right, not overlapping: [`positions`] of the lowercased text, without lowercasing it.
pub(crate) fn positions_ignore_ascii_case<'a>(hay: &'a str, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
    starts(hay, needle, find_ignore_ascii_case)
}

/// The starts `find` gives, each search from the end of the previous match.
fn starts<'a>(hay: &'a str, needle: &'a str, find: fn(&str, &str, usize) -> Option<usize>) -> impl Iterator<Item = usize> + 'a {
    let mut from = 0;
    std::iter::from_fn(move || {
        if needle.is_empty() {
            return None;
        }
        let at = find(hay, needle, from)?;
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

/// Whether `hay` contains `needle` (lowercase ASCII), ASCII case-insensitively.
pub(crate) fn contains_ignore_ascii_case(hay: &str, needle: &str) -> bool {
    find_ignore_ascii_case(hay, needle, 0).is_some()
}

/// The first position at or after `from` where `needle` (lowercase ASCII) occurs in `hay`,
/// ASCII case-insensitively. No allocation. Candidates are found by the needle's rarest
/// pair of adjacent bytes (in either case, a block of positions a step), so a needle that
/// does not occur costs one fast pass, and each candidate is checked by comparing at most
/// the needle's length.
pub(crate) fn find_ignore_ascii_case(hay: &str, needle: &str, from: usize) -> Option<usize> {
    let (hay, needle) = (hay.as_bytes(), needle.as_bytes());
    if from > hay.len() {
        return None;
    }
    if needle.len() < 2 {
        return match needle.first() {
            None => Some(from),
            Some(&b) => find_folded_byte(hay, from, b),
        };
    }
    let last_start = hay.len().checked_sub(needle.len())?;
    let anchor = rarest_pair(needle);
    let pair = [needle[anchor], needle[anchor + 1]];
    let mut start = from;
    while let Some(found) = find_folded_pair(&hay[anchor..], start, pair) {
        work::tally(needle.len());
        if found > last_start {
            break;
        }
        if hay[found..found + needle.len()].eq_ignore_ascii_case(needle) {
            return Some(found);
        }
        start = found + 1;
    }
    work::tally(hay.len().saturating_sub(from));
    None
}

/// The first position at or after `from` where the two bytes of `pair` (lowercase) stand
/// side by side, ASCII letters matched in either case.
fn find_folded_pair(hay: &[u8], from: usize, pair: [u8; 2]) -> Option<usize> {
    let fold = |b: u8| if b.is_ascii_lowercase() { 0x20 } else { 0 };
    let (f0, f1) = (fold(pair[0]), fold(pair[1]));
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64", all(target_arch = "wasm32", target_feature = "simd128")))]
    return next_pair(hay, from, pair, [f0, f1]);
    // Elsewhere (WebAssembly without SIMD): to each first byte eight bytes a step, then
    // the second compared.
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64", all(target_arch = "wasm32", target_feature = "simd128"))))]
    {
        let mut i = from;
        loop {
            let j = find_folded_byte(hay, i, pair[0])?;
            if j + 1 >= hay.len() {
                return None;
            }
            if (hay[j] | f0 == pair[0]) & (hay[j + 1] | f1 == pair[1]) {
                return Some(j);
            }
            i = j + 1;
        }
    }
}

/// The first position at or after `from` where `pair[0]` stands with `pair[1]` after it,
/// each byte of the text first given the bits of `fold` (`0x20` matches a lowercase
/// letter in either case, `0` matches exactly). 32 positions are ruled out a step: each
/// position's difference from the pair is computed as bytes (`(a | f) ^ p`, both halves
/// ORed), and a block is passed over when none of its differences is zero. Written so,
/// the compiler turns a block into a few vector comparisons and one mask; a block test
/// written as two comparisons joined by `&` it compiled into narrow, shuffled pieces
/// several times dearer. A block with a hit is searched a byte a step.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64", all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn next_pair(hay: &[u8], from: usize, pair: [u8; 2], fold: [u8; 2]) -> Option<usize> {
    let hit = |a: u8, b: u8| (a | fold[0] == pair[0]) & (b | fold[1] == pair[1]);
    let mut i = from;
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    while let (Some(firsts), Some(seconds)) = (block_at(hay, i), block_at(hay, i + 1)) {
        let mut apart = [0u8; 32];
        for ((d, &a), &b) in apart.iter_mut().zip(firsts).zip(seconds) {
            *d = ((a | fold[0]) ^ pair[0]) | ((b | fold[1]) ^ pair[1]);
        }
        if any_in_block(&apart, |d| d == 0) {
            break;
        }
        i += 32;
    }
    // In WebAssembly, 16 positions a step, compared directly.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    if let Ok(found) = next_in_lanes(i, |i| {
        let (a, b) = (Lanes::at(hay, i)?, Lanes::at(hay, i + 1)?);
        let (a, b) = (if fold[0] == 0 { a } else { a.folded() }, if fold[1] == 0 { b } else { b.folded() });
        Some(a.is(pair[0]) & b.is(pair[1]))
    })
    .map_err(|end| i = end)
    {
        work::tally(found.saturating_sub(from) / 8 + 1);
        return Some(found);
    }
    while i + 1 < hay.len() && !hit(hay[i], hay[i + 1]) {
        i += 1;
    }
    work::tally(i.saturating_sub(from) / 8 + 1);
    // (A first byte at the text's end has no pair.)
    (i + 1 < hay.len()).then_some(i)
}

/// How common a byte is in the texts the core sees (log lines, JSON, prose): the anchor of
/// a search is the needle's least common byte. Letters rank by English frequency; space,
/// digits and the punctuation of logs and JSON are common, JSON's `"`, `:` and `,` most.
fn commonness(b: u8) -> usize {
    usize::from(COMMONNESS[usize::from(b)])
}

/// Where the least common pair of adjacent bytes of `needle` (two bytes or more) starts:
/// the anchor of a search by pairs.
fn rarest_pair(needle: &[u8]) -> usize {
    (0..needle.len().saturating_sub(1)).min_by_key(|&k| commonness(needle[k]) + commonness(needle[k + 1])).unwrap_or(0)
}

/// The [`commonness`] below which a byte is rare enough to anchor a search alone: every
/// byte but the lowercase letters and the common punctuation.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64", all(target_arch = "wasm32", target_feature = "simd128")))]
const RARE: usize = 20;

/// [`commonness`] of every byte, as a table.
const COMMONNESS: [u8; 256] = {
    const LETTERS: &[u8] = b"zqjxkvbpygfwmucldrhsnioate";
    let mut table = [10u8; 256];
    let mut i = 0;
    while i < LETTERS.len() {
        table[LETTERS[i] as usize] = 20 + 2 * i as u8;
        i += 1;
    }
    let common = b"0123456789.=-_";
    let mut k = 0;
    while k < common.len() {
        table[common[k] as usize] = 70;
        k += 1;
    }
    // JSON's own punctuation stands at every member; a slash is rarer (paths and URLs).
    table[b':' as usize] = 74;
    table[b'"' as usize] = 74;
    table[b',' as usize] = 74;
    table[b'/' as usize] = 66;
    table[b' ' as usize] = 100;
    table
};

/// The first position at or after `from` holding `byte` (lowercase), ASCII letters matched
/// in either case: eight bytes a step, as [`find_byte`], on the bytes with bit 5 set when
/// the needle is a letter (which maps only `A`..`Z` onto `a`..`z` among the bytes that
/// can equal a letter).
fn find_folded_byte(hay: &[u8], from: usize, byte: u8) -> Option<usize> {
    if !byte.is_ascii_lowercase() {
        return find_byte(hay, from, byte);
    }
    let mut i = from;
    // Where the compiler has vector registers for the 32 comparisons of a block: a flag
    // per block, then the position inside the one block that has it.
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    while let Some(block) = block_at(hay, i) {
        if any_in_block(block, |b| b | 0x20 == byte) {
            break;
        }
        i += 32;
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    match next_in_lanes(i, |i| Some(Lanes::at(hay, i)?.folded().is(byte))) {
        Ok(found) => return Some(found),
        Err(end) => i = end,
    }
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    const FOLD: u64 = ONES * 0x20;
    let pattern = ONES * u64::from(byte);
    while let Some(chunk) = hay.get(i..i + 8) {
        let Ok(word) = <[u8; 8]>::try_from(chunk) else { break };
        let x = (u64::from_le_bytes(word) | FOLD) ^ pattern;
        let flagged = x.wrapping_sub(ONES) & !x & HIGHS;
        if flagged != 0 {
            return Some(i + (flagged.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    hay.get(i..)?.iter().position(|&b| b | 0x20 == byte).map(|k| i + k)
}

/// The ASCII bytes that occur in a text, letters folded to lowercase: one pass, after
/// which most hints are ruled out without searching. (Two words, not a `u128`, whose
/// shifts WebAssembly has no instruction for.)
#[derive(Clone, Copy, Debug)]
pub(crate) struct AsciiSet([u64; 2]);

impl AsciiSet {
    pub(crate) fn of(text: &str) -> Self {
        let mut set = [0u64; 2];
        let add = |b: u8| {
            let b = b.to_ascii_lowercase();
            set[usize::from(b >> 6)] |= 1 << (b & 63);
        };
        if text.len() < 256 {
            text.bytes().filter(u8::is_ascii).for_each(add);
        } else {
            // Long texts: a flag per byte value first (one store a byte, no shifts),
            // folded into bits once.
            let mut seen = [false; 128];
            for b in text.bytes() {
                seen[usize::from(b & 0x7f)] |= b.is_ascii();
            }
            (0..128u8).filter(|&b| seen[usize::from(b)]).for_each(add);
        }
        AsciiSet(set)
    }

    /// Whether every byte of `other` occurs in this set too.
    pub(crate) fn includes(self, other: AsciiSet) -> bool {
        self.0[0] & other.0[0] == other.0[0] && self.0[1] & other.0[1] == other.0[1]
    }

    /// Whether `b` occurs (ASCII case-insensitively).
    pub(crate) fn has_byte(self, b: u8) -> bool {
        let b = b.to_ascii_lowercase();
        b.is_ascii() && self.0[usize::from(b >> 6)] & (1 << (b & 63)) != 0
    }

    /// Whether every byte of `literal` occurs.
    pub(crate) fn has_literal(self, literal: &Literal) -> bool {
        self.includes(literal.bytes)
    }

    /// Whether every byte of `word` (ASCII, letters in either case) occurs: necessary for
    /// `word` to occur, ASCII case-insensitively.
    pub(crate) fn has_all(self, word: &str) -> bool {
        word.bytes().map(|b| b.to_ascii_lowercase()).all(|b| b.is_ascii() && self.0[usize::from(b >> 6)] & (1 << (b & 63)) != 0)
    }
}

/// The pairs of adjacent bytes that occur in a text, ASCII letters folded to lowercase:
/// one pass, after which a hint with a pair the text lacks is ruled out without a search.
/// A pair is read as two bytes with bit 5 set ([`fold`]), which maps `A`..`Z` onto
/// `a`..`z` and merges a few other bytes (a control character with the punctuation mark
/// 32 above it, `@` with `` ` ``): a pair set may say a hint may occur where it does not
/// (a merged byte), never that one does not where it does.
pub(crate) struct PairSet {
    /// A flag for each folded pair, indexed by the first byte plus 256 × the second.
    flags: PairFlags,
    /// The text's first byte, folded (every other byte is the second of a pair).
    first: Option<u8>,
}

/// A pair set's flags: a bit a pair for a text shorter than [`BYTE_FLAGS_FROM`] (8 KiB to
/// zero), a byte a pair for a longer one (64 KiB to zero, one store a pair).
enum PairFlags {
    Bits(Box<[u64; 1 << 10]>),
    Bytes(Box<[u8; 1 << 16]>),
    /// The number (from 1) of the last block a pair occurs in: [`PairSet::by_blocks`].
    Stamps(Box<[u16; 1 << 16]>),
}

/// The length from which a pair set keeps a byte a pair: zeroing its table costs less
/// than the bit arithmetic a byte saves from here on.
const BYTE_FLAGS_FROM: usize = 16 * 1024;

/// A byte as the pair set reads it: bit 5 set.
const fn fold(b: u8) -> u8 {
    b | 0x20
}

/// The index of a pair of bytes in a pair set.
pub(crate) const fn pair_index(first: u8, second: u8) -> usize {
    fold(first) as usize | (fold(second) as usize) << 8
}

/// Every pair of adjacent bytes of `bytes`, as its index: eight pairs a step, read off one
/// eight-byte word and the byte after it.
#[inline(always)]
fn each_pair(bytes: &[u8], mut visit: impl FnMut(usize)) {
    const FOLD: u64 = 0x2020_2020_2020_2020;
    let mut i = 0;
    while let Some(block) = bytes.get(i..i + 9) {
        let Ok(word) = <[u8; 8]>::try_from(&block[..8]) else { break };
        let word = u64::from_le_bytes(word) | FOLD;
        let next = u64::from(fold(block[8]));
        for k in 0..7 {
            visit(((word >> (8 * k)) & 0xffff) as usize);
        }
        visit(((word >> 56) | next << 8) as usize);
        i += 8;
    }
    for w in bytes.get(i..).unwrap_or_default().windows(2) {
        visit(pair_index(w[0], w[1]));
    }
}

impl PairSet {
    /// The pairs of `text`.
    pub(crate) fn of(text: &str) -> Self {
        Self::with_flags(text, text.len() >= BYTE_FLAGS_FROM)
    }

    /// The pairs of `text`, a byte a pair when `bytes`, else a bit.
    fn with_flags(text: &str, bytes: bool) -> Self {
        let input = text.as_bytes();
        // Zeroed on the heap (a `Box::new` of an array may build it on the stack first).
        let flags = if bytes {
            let mut seen: Box<[u8; 1 << 16]> = vec![0u8; 1 << 16].into_boxed_slice().try_into().unwrap_or_else(|_| Box::new([0; 1 << 16]));
            each_pair(input, |i| seen[i] = 1);
            PairFlags::Bytes(seen)
        } else {
            let mut seen: Box<[u64; 1 << 10]> =
                vec![0u64; 1 << 10].into_boxed_slice().try_into().unwrap_or_else(|_| Box::new([0; 1 << 10]));
            each_pair(input, |i| seen[i >> 6] |= 1 << (i & 63));
            PairFlags::Bits(seen)
        };
        work::tally(input.len() / 8);
        PairSet { flags, first: input.first().map(|&b| fold(b)) }
    }

    /// The pairs of `text`, and a mark for each block of `block` bytes (more for a text
    /// of more than 65 534 such blocks: [`PairSet::block_size`]): what `mark` makes of
    /// the block's own pairs, asked as soon as they are known. A block's pairs are those
    /// that start in it or in the [`BLOCK_OVERLAP`] bytes after it, so a literal that
    /// starts in a block has all its pairs there (a hint is at most that long). The text
    /// is still read once: each pair's flag is the number of the last block it was seen
    /// in, and a block's own pairs are those flagged with its number.
    ///
    /// ```ignore
    /// let (pairs, marks) = PairSet::by_blocks(text, 4096, |block| block.may_contain("eyj"));
    /// ```
    pub(crate) fn by_blocks<M>(text: &str, block: usize, mut mark: impl FnMut(&BlockPairs) -> M) -> (Self, Vec<M>) {
        let input = text.as_bytes();
        let block = Self::block_size(input.len(), block);
        let mut stamps: Box<[u16; 1 << 16]> = vec![0u16; 1 << 16].into_boxed_slice().try_into().unwrap_or_else(|_| Box::new([0; 1 << 16]));
        let mut marks = Vec::with_capacity(input.len().div_ceil(block));
        for (n, start) in (0..input.len()).step_by(block).enumerate() {
            // At most 65 534 blocks: the number fits, and 0 stays "never seen".
            let stamp = u16::try_from(n + 1).unwrap_or(u16::MAX);
            let end = input.len().min(start + block + BLOCK_OVERLAP);
            each_pair(&input[start..end], |i| stamps[i] = stamp);
            marks.push(mark(&BlockPairs { stamps: &stamps, stamp }));
        }
        work::tally(input.len() / 8);
        (PairSet { flags: PairFlags::Stamps(stamps), first: input.first().map(|&b| fold(b)) }, marks)
    }

    /// The size of the blocks [`PairSet::by_blocks`] marks in a text of `len` bytes when
    /// asked for `block`: larger when the text would have more blocks than a stamp can count.
    pub(crate) fn block_size(len: usize, block: usize) -> usize {
        block.max(len.div_ceil(usize::from(u16::MAX) - 1)).max(1)
    }

    fn has(&self, index: usize) -> bool {
        match &self.flags {
            PairFlags::Bits(bits) => bits[(index >> 6) & 1023] & (1 << (index & 63)) != 0,
            PairFlags::Bytes(bytes) => bytes[index & 0xffff] != 0,
            PairFlags::Stamps(stamps) => stamps[index & 0xffff] != 0,
        }
    }

    /// Whether some pair ends with the folded byte `second`.
    fn ends_some_pair(&self, second: u8) -> bool {
        let row = usize::from(second) << 8;
        match &self.flags {
            PairFlags::Bits(bits) => bits[row >> 6..(row >> 6) + 4].iter().any(|&w| w != 0),
            PairFlags::Bytes(bytes) => bytes[row..row + 256].iter().fold(0u8, |any, &f| any | f) != 0,
            PairFlags::Stamps(stamps) => stamps[row..row + 256].iter().fold(0u16, |any, &f| any | f) != 0,
        }
    }

    /// The ASCII bytes that may occur: every byte that folds onto one the text holds
    /// (exact for letters, and for digits in a text without controls), without a second
    /// pass over the text.
    pub(crate) fn bytes(&self) -> AsciiSet {
        let mut set = [0u64; 2];
        let mut add = |folded: u8| {
            // Both bytes that fold onto it (letters: both cases; the set keeps lowercase).
            for b in [folded, folded & !0x20] {
                if b.is_ascii() {
                    let b = b.to_ascii_lowercase();
                    set[usize::from(b >> 6)] |= 1 << (b & 63);
                }
            }
        };
        if let Some(first) = self.first {
            add(first);
        }
        for second in (0..128u8).filter(|&b| self.ends_some_pair(b)) {
            add(second);
        }
        AsciiSet(set)
    }

    /// Whether every pair of adjacent bytes of `needle` occurs: necessary for `needle` to
    /// occur, ASCII case-insensitively.
    pub(crate) fn may_contain(&self, needle: &str) -> bool {
        needle.as_bytes().windows(2).all(|w| self.has(pair_index(w[0], w[1])))
    }
}

/// How far past its end a block's pairs are collected ([`PairSet::by_blocks`]): the
/// longest hint, so a hint that starts in a block is seen whole in it.
pub(crate) const BLOCK_OVERLAP: usize = MAX_LITERAL;

/// The pairs of one block of a text, as [`PairSet::by_blocks`] asks about them.
pub(crate) struct BlockPairs<'s> {
    stamps: &'s [u16; 1 << 16],
    stamp: u16,
}

impl BlockPairs<'_> {
    /// Whether every pair of adjacent bytes of `needle` occurs in the block, ASCII
    /// case-insensitively: necessary for `needle` to start in it. A one-byte needle has
    /// no pair: it may always occur.
    pub(crate) fn may_contain(&self, needle: &str) -> bool {
        needle.as_bytes().windows(2).all(|w| self.stamps[pair_index(w[0], w[1])] == self.stamp)
    }

    /// Whether the pair of [`pair_index`] `index` occurs in the block.
    #[inline(always)]
    pub(crate) fn has_pair_index(&self, index: u16) -> bool {
        self.stamps[usize::from(index)] == self.stamp
    }
}

/// A hint: a lowercase ASCII literal whose presence the hint filters test, with what they
/// test read off it at compile time: its bytes as an [`AsciiSet`] and the bits its pairs
/// take in a [`ShortPairs`]. A rule asks a short text about each of its hints on every
/// call, which then costs a few instructions a pair, not a fold and a hash.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Literal {
    /// The literal.
    pub(crate) text: &'static str,
    bytes: AsciiSet,
    /// The [`short_hash`] of each of its pairs, in order.
    short: [u16; MAX_LITERAL - 1],
}

/// The longest hint.
const MAX_LITERAL: usize = 32;

impl Literal {
    /// The literal `text`: ASCII without capitals, 1 to [`MAX_LITERAL`] bytes (checked
    /// when the table is compiled).
    pub(crate) const fn new(text: &'static str) -> Literal {
        let bytes = text.as_bytes();
        assert!(!bytes.is_empty() && bytes.len() <= MAX_LITERAL, "a hint holds 1 to 32 bytes");
        let mut set = [0u64; 2];
        let mut short = [0u16; MAX_LITERAL - 1];
        let mut k = 0;
        while k < bytes.len() {
            let b = bytes[k];
            assert!(b.is_ascii() && !b.is_ascii_uppercase(), "a hint is lowercase ASCII");
            set[(b >> 6) as usize] |= 1 << (b & 63);
            if k + 1 < bytes.len() {
                short[k] = short_hash(pair_index(b, bytes[k + 1])) as u16;
            }
            k += 1;
        }
        Literal { text, bytes: AsciiSet(set), short }
    }

    /// Every literal of `texts` (`N` of them), in order.
    pub(crate) const fn all<const N: usize>(texts: &[&'static str]) -> [Literal; N] {
        assert!(texts.len() == N, "as many literals as texts");
        let mut out = [Literal::new("a"); N];
        let mut k = 0;
        while k < N {
            out[k] = Literal::new(texts[k]);
            k += 1;
        }
        out
    }

    /// The bits of its pairs in a [`ShortPairs`].
    fn short_bits(&self) -> &[u16] {
        &self.short[..self.text.len() - 1]
    }
}

/// A table of [`Literal`]s, written as their texts: `hints!["cookie", "set-cookie"]`.
macro_rules! hints {
    ($($text:literal),* $(,)?) => {
        &[$($crate::search::Literal::new($text)),*]
    };
}
pub(crate) use hints;

/// The pairs of adjacent bytes of a short text, folded like a [`PairSet`]'s and hashed
/// into 1024 bits (128 bytes to zero, on the stack): a filter for texts too short to pay
/// for a pair set's table. Like a pair set it may say a needle may occur where it does
/// not (a merged byte, or two pairs that share a bit), never that one does not where it
/// does.
pub(crate) struct ShortPairs([u64; 16]);

impl ShortPairs {
    /// The pairs of `text`.
    pub(crate) fn of(text: &str) -> Self {
        let mut bits = [0u64; 16];
        each_pair(text.as_bytes(), |i| {
            let h = short_hash(i);
            bits[h >> 6] |= 1 << (h & 63);
        });
        work::tally(text.len() / 8 + 1);
        ShortPairs(bits)
    }

    /// Whether every pair of adjacent bytes of `needle` may occur.
    pub(crate) fn may_contain(&self, needle: &str) -> bool {
        needle.as_bytes().windows(2).all(|w| self.has(short_hash(pair_index(w[0], w[1]))))
    }

    /// Whether every pair of adjacent bytes of `literal` may occur.
    pub(crate) fn may_contain_literal(&self, literal: &Literal) -> bool {
        literal.short_bits().iter().all(|&h| self.has(usize::from(h)))
    }

    fn has(&self, h: usize) -> bool {
        self.0[h >> 6] & (1 << (h & 63)) != 0
    }
}

/// A pair's index spread over 1024 bits (a multiplicative hash: its top ten bits).
const fn short_hash(index: usize) -> usize {
    ((index as u32).wrapping_mul(0x9E37_79B1) >> 22) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A short text's hashed pairs never rule out a needle the text holds (either case),
    /// and rule out most that it does not.
    #[test]
    fn short_pairs_never_rule_out_what_occurs() {
        for hay in HAYS.iter().copied().chain(["Authorization: Bearer x", "request id C0DE:1234 auth=Bearer ghp_abc"]) {
            let short = ShortPairs::of(hay);
            for needle in NEEDLES.iter().copied().chain(["authorization", "BEARER", "ghp_", "id c0"]) {
                if contains_ignore_ascii_case(hay, needle) {
                    assert!(short.may_contain(needle), "{hay:?} {needle:?}");
                }
            }
        }
        let short = ShortPairs::of("request id C0DE:1234 auth=Bearer ghp_abc");
        let ruled_out =
            ["-----begin", "password", "xoxb-", "://", "cookie", "secret", "AKIA", "eyJ"].iter().filter(|n| !short.may_contain(n)).count();
        assert!(ruled_out >= 6, "{ruled_out}");
    }

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

    /// The pair set's bytes hold every byte the text holds (a filter may only say "may
    /// occur"), and exactly the letters and digits it holds.
    #[test]
    fn a_pair_sets_bytes_hold_the_texts_bytes() {
        for hay in HAYS.iter().copied().chain(["x", "Zz09 -.*|~", "\u{1F600}a", "A"]) {
            let (pairs, exact) = (PairSet::of(hay), AsciiSet::of(hay));
            assert!(pairs.bytes().includes(exact), "{hay:?}");
            for b in (b'a'..=b'z').chain(b'0'..=b'9') {
                let one = (b as char).to_string();
                assert_eq!(pairs.bytes().has_all(&one), exact.has_all(&one), "{hay:?} {one}");
            }
        }
    }

    /// The block loop records exactly the pairs a plain reading of every window does, at
    /// every length and wherever a pair falls against the eight-byte blocks; and a needle
    /// the text holds is never ruled out.
    #[test]
    fn a_pair_set_holds_every_pair_of_the_text() {
        // xorshift64, a fixed seed.
        let mut state = 0x51_7CC1_B727_220Au64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        const ALPHABET: &[u8] = b"aZ09:=?-_ \n\t\x01\x80\xc3@`[{";
        for len in 0..80 {
            for _ in 0..20 {
                let bytes: Vec<u8> = (0..len).map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize]).collect();
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let mut expected = vec![false; 1 << 16];
                for w in text.as_bytes().windows(2) {
                    expected[usize::from(w[0] | 0x20) | usize::from(w[1] | 0x20) << 8] = true;
                }
                let (bits, bytes) = (PairSet::with_flags(&text, false), PairSet::with_flags(&text, true));
                assert!((0..1 << 16).all(|i| bits.has(i) == expected[i] && bytes.has(i) == expected[i]), "{text:?}");
                assert!(bits.bytes().includes(bytes.bytes()) && bytes.bytes().includes(bits.bytes()), "{text:?}");
                let pairs = if len % 2 == 0 { bits } else { bytes };
                for start in 0..text.len() {
                    for end in start + 1..=text.len().min(start + 6) {
                        if let Some(needle) = text.get(start..end) {
                            assert!(pairs.may_contain(needle), "{needle:?} in {text:?}");
                            assert!(pairs.may_contain(&needle.to_ascii_uppercase()), "{needle:?} in {text:?}");
                        }
                    }
                }
                assert!(pairs.bytes().includes(AsciiSet::of(&text)), "{text:?}");
            }
        }
    }

    /// The first byte in a class is found wherever it falls against the 32-byte blocks,
    /// a later one never hiding it, from every start.
    #[test]
    fn class_search_finds_the_first_hit_in_every_lane() {
        byte_class!(Query = |b| b.is(b'?') | b.is(b'&'));
        let class = Query;
        for len in 0..80 {
            for at in 0..len {
                let mut hay = vec![b'a'; len];
                hay[at] = b'?';
                if at + 5 < len {
                    hay[at + 5] = b'&';
                }
                for from in 0..=at {
                    assert_eq!(next_in_class(&hay, from, class), at, "len {len} at {at} from {from}");
                }
                let after = if at + 5 < len { at + 5 } else { len };
                assert_eq!(next_in_class(&hay, at + 1, class), after, "len {len} after {at}");
            }
            assert_eq!(next_in_class(&vec![b'a'; len], 0, class), len);
        }
    }

    /// A literal read at compile time is filtered exactly as its text is, in short texts
    /// (hashed pairs) and by bytes.
    #[test]
    fn a_literal_is_filtered_as_its_text_is() {
        let literals: Vec<&str> = NEEDLES
            .iter()
            .map(|n| n.to_ascii_lowercase())
            .filter(|n| !n.is_empty() && n.len() <= 32 && n.is_ascii())
            .map(|n| &*n.leak())
            .collect();
        assert!(literals.len() > 5);
        for hay in HAYS {
            let (pairs, bytes) = (ShortPairs::of(hay), AsciiSet::of(hay));
            for &text in &literals {
                let literal = Literal::new(text);
                assert_eq!(pairs.may_contain_literal(&literal), pairs.may_contain(text), "{text:?} in {hay:?}");
                assert_eq!(bytes.has_literal(&literal), bytes.has_all(text), "{text:?} in {hay:?}");
            }
        }
    }

    /// A range test is the inclusive range, for every byte and every bound.
    #[test]
    fn a_range_test_is_the_inclusive_range() {
        for lo in 0..=255u8 {
            for hi in lo..=255u8 {
                for b in 0..=255u8 {
                    assert_eq!(b.within(lo, hi), (lo..=hi).contains(&b), "{b} in {lo}..={hi}");
                }
            }
        }
        assert!((0..=255u8).all(|b| b.folded() == b | 0x20 && b.is(b) && !b.is(b.wrapping_add(1))));
    }

    #[test]
    fn agrees_with_the_standard_library() {
        for hay in HAYS {
            for needle in NEEDLES {
                assert_eq!(find(hay, needle), hay.find(needle), "find {needle:?} in {hay:?}");
                assert_eq!(rfind(hay, needle), hay.rfind(needle), "rfind {needle:?} in {hay:?}");
                assert_eq!(contains(hay, needle), hay.contains(needle));
                let lower = hay.to_ascii_lowercase();
                let folded: Vec<usize> = positions_ignore_ascii_case(hay, &needle.to_ascii_lowercase()).collect();
                assert_eq!(folded, positions(&lower, &needle.to_ascii_lowercase()).collect::<Vec<_>>(), "{needle:?} in {hay:?}");
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

    /// A needle found by a pair of its bytes, in every lane of a block, behind near misses
    /// (its first byte alone, its first pair with the wrong third byte).
    #[test]
    fn literal_search_finds_the_first_match_in_every_lane() {
        for len in 3..80 {
            for at in 0..=len - 3 {
                let mut hay = vec![b':'; len];
                for k in (0..at).step_by(3) {
                    hay[k + 1] = b'/';
                }
                hay[at..at + 3].copy_from_slice(b"://");
                let hay = String::from_utf8(hay).unwrap();
                let expected = hay.find("://").unwrap();
                for from in 0..=expected {
                    assert_eq!(find_from(&hay, "://", from), Some(expected), "{hay:?} from {from}");
                }
                let later = hay[expected + 1..].find("://").map(|i| i + expected + 1);
                assert_eq!(find_from(&hay, "://", expected + 1), later, "{hay:?}");
                let upper = hay.replace(':', "K").replace('/', "k");
                let folded = upper.to_ascii_lowercase().find("kkk");
                assert_eq!(find_ignore_ascii_case(&upper, "kkk", 0), folded, "{upper:?}");
            }
        }
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
        // Bytes that differ from a letter only in bit 5 are not that letter.
        assert!(!contains_ignore_ascii_case("\u{0b}\u{4b}", "+k"));
        assert!(contains_ignore_ascii_case("x+K", "+k"));
        assert!(!contains_ignore_ascii_case("[@`", "{"));
    }

    proptest::proptest! {
        /// Every lane of the eight-byte step, letters in both cases and their bit-5 twins.
        #[test]
        fn case_insensitive_search_agrees_with_lowercasing(hay in "[kK+\\x0bq~@`zZé ]{0,40}", needle in "[k+q~z@`]{1,4}") {
            let expected = hay.to_ascii_lowercase().contains(needle.as_str());
            proptest::prop_assert_eq!(contains_ignore_ascii_case(&hay, &needle), expected);
            let lower = hay.to_ascii_lowercase();
            let all: Vec<usize> = (0..=hay.len()).filter(|&i| lower.is_char_boundary(i) && lower[i..].starts_with(needle.as_str())).collect();
            for from in 0..=hay.len() {
                let next = all.iter().copied().find(|&i| i >= from);
                proptest::prop_assert_eq!(find_ignore_ascii_case(&hay, &needle, from), next);
            }
        }
    }
}
