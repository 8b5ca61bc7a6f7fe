//! Writing the bounded tree (and the contract types built on it) as compact JSON.
//!
//! Every writer takes a [`JsonSink`]: a `String` that receives the text, or a
//! [`ByteCount`] that only measures it. The size cap asks for lengths many times while it
//! shrinks an error; measuring costs a scan of each string, never a copy.

use std::fmt;

use super::{exact_integer, Json};

/// Where serialized JSON goes.
///
/// ```
/// use codemode_errors::json::{parse_json, write_json, ByteCount};
/// let value = parse_json(r#"{"kind":"timeout"}"#).unwrap();
/// let (mut text, mut count) = (String::new(), ByteCount::default());
/// write_json(&mut text, &value);
/// write_json(&mut count, &value);
/// assert_eq!(count.0, text.len()); // measured without building the text
/// ```
pub trait JsonSink {
    /// Append `s`.
    ///
    /// ```
    /// use codemode_errors::json::JsonSink;
    /// let mut out = String::from("[");
    /// out.put("1]");
    /// assert_eq!(out, "[1]");
    /// ```
    fn put(&mut self, s: &str);
}

impl JsonSink for String {
    fn put(&mut self, s: &str) {
        self.push_str(s);
    }
}

/// A sink that keeps only the number of bytes written to it.
///
/// ```
/// use codemode_errors::json::{write_string, ByteCount};
/// let mut count = ByteCount::default();
/// write_string(&mut count, "a\"b");
/// assert_eq!(count, ByteCount(6)); // "a\"b" with its quotes
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ByteCount(pub usize);

impl JsonSink for ByteCount {
    fn put(&mut self, s: &str) {
        self.0 += s.len();
    }
}

/// Write `n` as JSON the way JavaScript's `JSON.stringify` writes it (ECMAScript's
/// `Number::toString`): whole numbers up to 2^53 without a fraction, others from the
/// shortest digits that read back to the same double, in plain notation while the decimal
/// point falls 6 places before the digits to 21 after, and as `d.ddde±x` beyond. The npm
/// package's consumers re-serialize with `JSON.stringify`, and a JavaScript gateway's
/// output must be the bytes every surface gives, so the core writes what JavaScript does.
///
/// ```
/// # use codemode_errors::json::write_number;
/// let mut out = String::new();
/// for n in [1e21, 1.1111111111111112e28, 1e20, 0.000001, 1e-7, -0.5] {
///     write_number(&mut out, n);
///     out.push(' ');
/// }
/// assert_eq!(out, "1e+21 1.1111111111111112e+28 100000000000000000000 0.000001 1e-7 -0.5 ");
/// ```
pub fn write_number<S: JsonSink + ?Sized>(out: &mut S, n: f64) {
    if let Some(i) = exact_integer(n) {
        if i < 0 {
            out.put("-");
        }
        write_decimal(out, i.unsigned_abs());
        return;
    }
    write_fraction(out, n);
}

/// [`write_number`] for a number that is no exact integer: out of line, so that writing
/// whole numbers (nearly all an error object holds) compiles none of the float formatting.
#[cold]
#[inline(never)]
fn write_fraction<S: JsonSink + ?Sized>(out: &mut S, n: f64) {
    // Rust's `{:e}` prints the shortest digits that round-trip (finite by construction):
    // at most 17 digits, a point after the first, and the exponent.
    let mut shortest = Buffer::default();
    {
        use std::fmt::Write;
        let _ = write!(shortest, "{:e}", n.abs());
    }
    let (mantissa, exponent) = shortest.as_str().split_once('e').unwrap_or((shortest.as_str(), "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    // The digits are `first` then `rest`; `point` is where the decimal point falls,
    // counted from the first digit.
    let (first, rest) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = 1 + rest.len() as i32;
    let point = exponent + 1;
    if n < 0.0 {
        out.put("-");
    }
    if (digits..=21).contains(&point) {
        out.put(first);
        out.put(rest);
        (0..point - digits).for_each(|_| out.put("0"));
    } else if (1..=21).contains(&point) {
        let (whole, fraction) = rest.split_at(point as usize - 1);
        out.put(first);
        out.put(whole);
        out.put(".");
        out.put(fraction);
    } else if (-5..=0).contains(&point) {
        out.put("0.");
        (0..-point).for_each(|_| out.put("0"));
        out.put(first);
        out.put(rest);
    } else {
        out.put(first);
        if !rest.is_empty() {
            out.put(".");
            out.put(rest);
        }
        out.put(if exponent < 0 { "e-" } else { "e+" });
        write_decimal(out, u64::from(exponent.unsigned_abs()));
    }
}

/// A fixed buffer for one formatted double (`{:e}` needs at most 24 bytes).
#[derive(Default)]
struct Buffer {
    bytes: [u8; 32],
    len: usize,
}

impl Buffer {
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }
}

impl fmt::Write for Buffer {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        let slot = self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?;
        slot.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Write `n` in decimal digits. (Whole numbers are most numbers: this keeps the
/// formatting machinery off the common path.)
///
/// ```
/// use codemode_errors::json::write_decimal;
/// let mut out = String::new();
/// write_decimal(&mut out, 20_000);
/// assert_eq!(out, "20000");
/// ```
pub fn write_decimal<S: JsonSink + ?Sized>(out: &mut S, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // ASCII digits are always UTF-8.
    out.put(std::str::from_utf8(&digits[at..]).unwrap_or("0"));
}

/// The escape of each byte in a JSON string: 0 for none, `u` for `\u00XX`, else the
/// letter after the backslash.
const ESCAPES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = b'u';
        b += 1;
    }
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table[b'\n' as usize] = b'n';
    table[b'\r' as usize] = b'r';
    table[b'\t' as usize] = b't';
    table[0x08] = b'b';
    table[0x0C] = b'f';
    table
};

const LOW_BITS: u64 = 0x0101_0101_0101_0101;
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// Whether any of the eight bytes in `w` may need an escape (a control, `"` or `\`). It
/// never misses one; the byte loop that follows decides exactly.
fn may_need_escape(w: u64) -> bool {
    let has_zero = |x: u64| x.wrapping_sub(LOW_BITS) & !x & HIGH_BITS;
    let below_space = w.wrapping_sub(LOW_BITS * 0x20) & !w & HIGH_BITS;
    (below_space | has_zero(w ^ (LOW_BITS * u64::from(b'"'))) | has_zero(w ^ (LOW_BITS * u64::from(b'\\')))) != 0
}

/// Index of the first byte at or after `from` that needs an escape, or `bytes.len()`.
fn next_escape(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    let rest = bytes.get(from..).unwrap_or_default();
    for chunk in rest.chunks_exact(8) {
        let w = u64::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6], chunk[7]]);
        if may_need_escape(w) {
            break;
        }
        i += 8;
    }
    while i < bytes.len() && ESCAPES[usize::from(bytes[i])] == 0 {
        i += 1;
    }
    i
}

/// Write `s` as a JSON string literal (quotes and escapes included). Runs without escapes
/// are copied whole, eight bytes tested at a time.
///
/// ```
/// use codemode_errors::json::write_string;
/// let mut out = String::new();
/// write_string(&mut out, "line\n\"quoted\"\u{1}");
/// assert_eq!(out, r#""line\n\"quoted\"\u0001""#);
/// ```
pub fn write_string<S: JsonSink + ?Sized>(out: &mut S, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = s.as_bytes();
    out.put("\"");
    let mut start = 0;
    loop {
        let i = next_escape(bytes, start);
        out.put(s.get(start..i).unwrap_or_default());
        let Some(&b) = bytes.get(i) else { break };
        let escape = ESCAPES[usize::from(b)];
        if escape == b'u' {
            let hex = [b'\\', b'u', b'0', b'0', HEX[usize::from(b >> 4)], HEX[usize::from(b & 0xF)]];
            out.put(std::str::from_utf8(&hex).unwrap_or_default());
        } else {
            let pair = [b'\\', escape];
            out.put(std::str::from_utf8(&pair).unwrap_or_default());
        }
        start = i + 1;
    }
    out.put("\"");
}

/// Write a bounded value as compact JSON. Object members come out in sorted key order so
/// that hosts which reorder keys (JavaScript puts integer-like keys first) still print the
/// same bytes. Only the kept parts are written: callers cap values before writing.
///
/// ```
/// use codemode_errors::json::{parse_json, write_json};
/// let mut out = String::new();
/// write_json(&mut out, &parse_json(r#"{"10": 1, "2": 2, "b": [1.0, -0.0]}"#).unwrap());
/// assert_eq!(out, r#"{"10":1,"2":2,"b":[1,0]}"#); // sorted keys, JavaScript's numbers
/// ```
pub fn write_json<S: JsonSink + ?Sized>(out: &mut S, value: &Json) {
    match value {
        Json::Null => out.put("null"),
        Json::Bool(true) => out.put("true"),
        Json::Bool(false) => out.put("false"),
        Json::Number(n) => write_number(out, *n),
        Json::String(t) => write_string(out, t.head()),
        Json::Array(a) => {
            out.put("[");
            for (i, v) in a.items().iter().enumerate() {
                if i > 0 {
                    out.put(",");
                }
                write_json(out, v);
            }
            out.put("]");
        }
        Json::Object(o) => {
            out.put("{");
            let mut members: Vec<&(String, Json)> = o.items().iter().collect();
            crate::order::sort_by(&mut members, |a, b| a.0 < b.0);
            for (i, (k, v)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.put(",");
                }
                write_string(out, k);
                out.put(":");
                write_json(out, v);
            }
            out.put("}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse_json;

    /// What `JSON.stringify` prints for each double (ECMAScript's `Number::toString`),
    /// around every boundary of its notation.
    const JAVASCRIPT_NUMBERS: &[(f64, &str)] = &[
        (0.0, "0"),
        (-0.0, "0"),
        (0.1, "0.1"),
        (-0.5, "-0.5"),
        (123.456, "123.456"),
        (4.35, "4.35"),
        (0.30000000000000004, "0.30000000000000004"),
        (9_007_199_254_740_991.0, "9007199254740991"),
        (9_007_199_254_740_994.0, "9007199254740994"),
        (1e16, "10000000000000000"),
        (1.5e17, "150000000000000000"),
        (1e20, "100000000000000000000"),
        (123_456_789_012_345_680_000.0, "123456789012345680000"),
        (1e21, "1e+21"),
        (-1e21, "-1e+21"),
        (1.1111111111111112e28, "1.1111111111111112e+28"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (0.000001, "0.000001"),
        (0.0000012345, "0.0000012345"),
        (1e-7, "1e-7"),
        (1.5e-7, "1.5e-7"),
        (2.225073858507201e-308, "2.225073858507201e-308"),
        (5e-324, "5e-324"),
    ];

    #[test]
    fn numbers_are_written_as_javascript_writes_them() {
        for &(n, js) in JAVASCRIPT_NUMBERS {
            let mut out = String::new();
            write_number(&mut out, n);
            assert_eq!(out, js, "{n:e}");
            assert_eq!(js.parse::<f64>().ok(), Some(n), "{js} reads back");
            let mut count = ByteCount::default();
            write_number(&mut count, n);
            assert_eq!(count.0, js.len());
        }
    }

    fn quoted(s: &str) -> String {
        let mut out = String::new();
        write_string(&mut out, s);
        out
    }

    #[test]
    fn numbers_read_and_written_print_as_javascript_prints_them() {
        let mut s = String::new();
        write_json(&mut s, &parse_json(r#"[1, 1.0, -0, 2.5, 1e21, 12345678901234567890, 1E-7]"#).unwrap());
        assert_eq!(s, "[1,1,0,2.5,1e+21,12345678901234567000,1e-7]");
    }

    #[test]
    fn whole_numbers_print_as_rust_prints_them() {
        for i in [0i64, 7, -7, 10, -10, 99, 100, 1_000_000, -9_007_199_254_740_991, 9_007_199_254_740_991] {
            let mut s = String::new();
            write_number(&mut s, i as f64);
            assert_eq!(s, i.to_string());
            let mut count = ByteCount::default();
            write_number(&mut count, i as f64);
            assert_eq!(count.0, s.len());
        }
        let mut s = String::new();
        write_decimal(&mut s, u64::MAX);
        assert_eq!(s, u64::MAX.to_string());
    }

    #[test]
    fn strings_escape_controls() {
        assert_eq!(quoted("a\"b\\c\n\u{1}"), r#""a\"b\\c\n\u0001""#);
        assert_eq!(quoted("\u{8}\u{c}\r\t\u{1f}\u{7f}"), "\"\\b\\f\\r\\t\\u001f\u{7f}\"");
    }

    #[test]
    fn every_byte_escapes_as_serde_json_does_at_every_offset() {
        // Each escapable character at each position of a 20-byte run, so that both the
        // eight-byte test and the byte loop see it.
        for c in (0u8..0x20).map(char::from).chain(['"', '\\', '/', 'é', '\u{7f}', '😀']) {
            for at in 0..20 {
                let s: String = (0..20).map(|i| if i == at { c } else { 'x' }).collect();
                assert_eq!(quoted(&s), serde_json::to_string(&s).unwrap(), "{c:?} at {at}");
            }
        }
    }

    #[test]
    fn byte_count_measures_what_a_string_receives() {
        let v = parse_json(r#"{"b":[1,2.5,"x\ny"],"a":{"k":"\u0001\"é"},"n":null,"t":true}"#).unwrap();
        let mut text = String::new();
        write_json(&mut text, &v);
        let mut count = ByteCount::default();
        write_json(&mut count, &v);
        assert_eq!(count.0, text.len());
        assert_eq!(text, r#"{"a":{"k":"\u0001\"é"},"b":[1,2.5,"x\ny"],"n":null,"t":true}"#);
    }
}
