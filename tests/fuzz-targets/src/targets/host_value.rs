//! The host-value walk the npm package reads JavaScript values with
//! (`codemode_errors::json::read_host_value`), on arbitrary values of a host that behaves
//! as JavaScript does: UTF-16 strings (lone surrogates and strings past the kept head
//! included), arrays whose `length` may lie (as a Proxy's can), objects with unique keys in
//! order, `undefined`, non-finite numbers, bigints, symbols, functions, reads that throw,
//! and nesting past the depth limit.
//!
//! Asserts, for every value:
//! - the walk never reads more than the limits keep: no string past the kept head is
//!   converted, no array item past the kept items is read, no member past the object's
//!   count, and at most `count` keys and values per object;
//! - a value JSON can hold reads into the same tree (heads, totals, member order) as its
//!   `JSON.stringify` text read by `parse_json`, or is refused with the same error code
//!   (lone surrogates, depth; the text reader places its refusal by line and column, the
//!   walk by the value's path);
//! - a value JSON cannot hold (a function, a symbol, a bigint, a non-finite number, a read
//!   that throws, `undefined` at the top) is refused as `invalid_json`, never accepted;
//! - the walk is deterministic.

use std::cell::Cell;
use std::rc::Rc;

use arbitrary::{Arbitrary, Unstructured};
use codemode_errors::json::{parse_json, read_host_value, write_number, HostMembers, HostText, HostValue, Shape, Thrown, INPUT_LIMITS};
use codemode_errors::ErrorCode;

/// A value as the fuzzer describes it.
#[derive(Arbitrary, Debug)]
enum Spec {
    Text(TextSpec),
    Array(Vec<Spec>),
    /// An array whose `length` claims something else than its items.
    LyingArray(Vec<Spec>, LengthClaim),
    Object(Vec<(TextSpec, Spec)>),
    /// An object of `n` members named `k0`, `k1`, ..., each the same string, and every
    /// `every`-th member `undefined` (none when `every` is 0).
    Wide(u16, TextSpec, u8),
    /// `n` arrays nested around a value.
    Deep(u8, Box<Spec>),
    Leaf(Leaf),
}

/// A value that holds no other.
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq)]
enum Leaf {
    Bool(bool),
    Number(f64),
    Null,
    Undefined,
    BigInt,
    Symbol,
    Function,
    /// A value whose type test throws (a revoked Proxy).
    Throws,
}

impl Leaf {
    /// Whether JSON can hold it (`undefined` only as a member or an item).
    fn expressible(self, top: bool) -> bool {
        match self {
            Leaf::Number(n) => n.is_finite(),
            Leaf::Undefined => !top,
            Leaf::BigInt | Leaf::Symbol | Leaf::Function | Leaf::Throws => false,
            Leaf::Bool(_) | Leaf::Null => true,
        }
    }

    fn stringify(self, out: &mut String) {
        match self {
            Leaf::Bool(b) => out.push_str(if b { "true" } else { "false" }),
            Leaf::Number(n) => write_number(out, n),
            _ => out.push_str("null"),
        }
    }

    fn shape(self) -> Result<Shape<Text>, Thrown> {
        Ok(match self {
            Leaf::Bool(b) => Shape::Bool(b),
            Leaf::Number(n) => Shape::Number(n),
            Leaf::Null => Shape::Null,
            Leaf::Undefined => Shape::Undefined,
            Leaf::BigInt => Shape::BigInt,
            Leaf::Symbol => Shape::Symbol,
            Leaf::Function => Shape::Function,
            Leaf::Throws => return Err(Thrown),
        })
    }
}

#[derive(Arbitrary, Debug)]
enum LengthClaim {
    Units(u32),
    Fraction(f64),
}

#[derive(Arbitrary, Debug)]
enum TextSpec {
    Plain(String),
    Units(Vec<u16>),
    /// A unit pattern repeated, to reach past the kept head (and put a surrogate pair,
    /// or half of one, at the cut).
    Repeat(Vec<u16>, u32),
}

impl TextSpec {
    fn units(&self) -> Vec<u16> {
        match self {
            TextSpec::Plain(s) => s.encode_utf16().collect(),
            TextSpec::Units(u) => u.clone(),
            TextSpec::Repeat(pattern, n) => {
                let pattern = if pattern.is_empty() { &[0x61][..] } else { &pattern[..pattern.len().min(8)] };
                let reps = (*n as usize % (INPUT_LIMITS.string_head / pattern.len() + 64)).max(1);
                pattern.iter().copied().cycle().take(reps * pattern.len()).collect()
            }
        }
    }
}

/// The host's values, built from a spec: what the walk reads. Shared, so that handing a
/// value to the walk costs no copy.
#[derive(Clone, Debug)]
enum Value {
    Text(Rc<[u16]>),
    Array(Rc<Vec<Value>>, f64),
    Object(Rc<Vec<(Rc<[u16]>, Value)>>),
    Leaf(Leaf),
}

const UNDEFINED: Value = Value::Leaf(Leaf::Undefined);

impl Value {
    fn is_undefined(&self) -> bool {
        matches!(self, Value::Leaf(Leaf::Undefined))
    }

    fn build(spec: &Spec, budget: &mut usize) -> Value {
        // Every value costs one unit of budget, so a spec builds a bounded value.
        *budget = budget.saturating_sub(1);
        match spec {
            Spec::Text(t) => {
                let units = t.units();
                // Long strings cost their length too.
                *budget = budget.saturating_sub(units.len() / 1024);
                Value::Text(units.into())
            }
            Spec::Array(items) => {
                let items = Value::list(items, budget);
                let n = items.len() as f64;
                Value::Array(Rc::new(items), n)
            }
            Spec::LyingArray(items, claim) => {
                let items = Value::list(items, budget);
                let claim = match claim {
                    LengthClaim::Units(n) => f64::from(*n % 600),
                    LengthClaim::Fraction(f) => *f,
                };
                Value::Array(Rc::new(items), claim)
            }
            Spec::Object(members) => {
                // JavaScript objects have unique keys: the first of a repeated key stays.
                let mut seen: Vec<Rc<[u16]>> = Vec::new();
                let mut kept = Vec::new();
                for (k, v) in members {
                    if *budget == 0 {
                        break;
                    }
                    let k: Rc<[u16]> = k.units().into();
                    let v = Value::build(v, budget);
                    if !seen.contains(&k) {
                        seen.push(k.clone());
                        kept.push((k, v));
                    }
                }
                Value::Object(Rc::new(kept))
            }
            Spec::Wide(n, text, every) => {
                let mut text = text.units();
                text.truncate(16);
                let text: Rc<[u16]> = text.into();
                let n = usize::from(*n % 700);
                let every = usize::from(*every);
                let value = |i: usize| if every > 0 && i % every == every - 1 { UNDEFINED } else { Value::Text(text.clone()) };
                Value::Object(Rc::new((0..n).map(|i| (format!("k{i}").encode_utf16().collect(), value(i))).collect()))
            }
            Spec::Deep(n, v) => {
                let mut value = Value::build(v, budget);
                // Past the walk's depth limit every value is refused the same way, so the
                // wrapping stops two levels beyond it: nested `Deep`s would otherwise build
                // values thousands of levels deep, and this harness's own recursive
                // `stringify` overflowed the stack on one (a SIGSEGV in the campaign).
                let room = (INPUT_LIMITS.max_depth + 2).saturating_sub(value.depth());
                for _ in 0..usize::from(*n).min(room) {
                    value = Value::Array(Rc::new(vec![value]), 1.0);
                }
                value
            }
            Spec::Leaf(leaf) => Value::Leaf(*leaf),
        }
    }

    fn list(specs: &[Spec], budget: &mut usize) -> Vec<Value> {
        let mut items = Vec::new();
        for spec in specs {
            if *budget == 0 {
                break;
            }
            items.push(Value::build(spec, budget));
        }
        items
    }

    /// Levels of arrays and objects, this one included (a leaf or a text is 0).
    fn depth(&self) -> usize {
        match self {
            Value::Array(items, _) => 1 + items.iter().map(Value::depth).max().unwrap_or(0),
            Value::Object(members) => 1 + members.iter().map(|(_, v)| v.depth()).max().unwrap_or(0),
            Value::Leaf(_) | Value::Text(_) => 0,
        }
    }

    /// Whether `JSON.stringify` and the walk can agree on this value: nothing JSON
    /// cannot hold, and every array's `length` its real item count.
    fn expressible(&self, top: bool) -> bool {
        match self {
            Value::Array(items, n) => *n == items.len() as f64 && items.iter().all(|v| v.expressible(false)),
            Value::Object(members) => members.iter().all(|(_, v)| v.is_undefined() || v.expressible(false)),
            Value::Leaf(leaf) => leaf.expressible(top),
            Value::Text(_) => true,
        }
    }

    /// The value as `JSON.stringify` writes it (lone surrogates as `\uXXXX` escapes,
    /// `undefined` members left out and `undefined` items as `null`).
    fn stringify(&self, out: &mut String) {
        match self {
            Value::Text(units) => quote(units, out),
            Value::Array(items, _) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.stringify(out);
                }
                out.push(']');
            }
            Value::Object(members) => {
                out.push('{');
                let mut first = true;
                for (k, v) in members.iter().filter(|(_, v)| !v.is_undefined()) {
                    if !first {
                        out.push(',');
                    }
                    first = false;
                    quote(k, out);
                    out.push(':');
                    v.stringify(out);
                }
                out.push('}');
            }
            Value::Leaf(leaf) => leaf.stringify(out),
        }
    }
}

fn quote(units: &[u16], out: &mut String) {
    out.push('"');
    for c in char::decode_utf16(units.iter().copied()) {
        match c {
            Ok('"') => out.push_str("\\\""),
            Ok('\\') => out.push_str("\\\\"),
            Ok(c) if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            Ok(c) => out.push(c),
            Err(lone) => out.push_str(&format!("\\u{:04x}", lone.unpaired_surrogate())),
        }
    }
    out.push('"');
}

thread_local! {
    /// Reads the walk made: array items, member keys and values.
    static READS: Cell<usize> = const { Cell::new(0) };
}

fn read_one() {
    READS.with(|r| r.set(r.get() + 1));
}

#[derive(Clone, Debug)]
struct Text(Rc<[u16]>);

impl HostText for Text {
    fn units(&self) -> usize {
        self.0.len()
    }
    fn unit_at(&self, index: usize) -> u16 {
        self.0[index]
    }
    fn head(&self, units: usize) -> Text {
        Text(self.0[..units].into())
    }
    fn to_lossy_string(&self) -> String {
        assert!(self.0.len() <= INPUT_LIMITS.string_head, "the walk converted {} units, past the kept head", self.0.len());
        String::from_utf16_lossy(&self.0)
    }
    fn is_well_formed(&self) -> bool {
        String::from_utf16(&self.0).is_ok()
    }
}

struct Members(Rc<Vec<(Rc<[u16]>, Value)>>);

impl HostMembers for Members {
    type Value = Value;
    type Text = Text;
    fn count(&self) -> u32 {
        self.0.len() as u32
    }
    fn key(&self, index: u32) -> Text {
        read_one();
        Text(self.0[index as usize].0.clone())
    }
    fn value(&self, index: u32) -> Value {
        read_one();
        self.0[index as usize].1.clone()
    }
    fn is_present(&self, index: u32) -> bool {
        !self.0[index as usize].1.is_undefined()
    }
    /// As the npm package does it: the keys joined by U+0000 in one string, when the
    /// chunk has three keys or more, is short enough and well formed.
    fn keys_at_once(&self, start: u32, end: u32, max_units: usize) -> Option<Vec<String>> {
        if end - start < 3 {
            return None;
        }
        let mut joined: Vec<u16> = Vec::new();
        for (i, (k, _)) in self.0[start as usize..end as usize].iter().enumerate() {
            if i > 0 {
                joined.push(0);
            }
            joined.extend_from_slice(k);
        }
        if joined.len() > max_units {
            return None;
        }
        let text = String::from_utf16(&joined).ok()?;
        let names: Vec<String> = text.split('\u{0}').map(str::to_owned).collect();
        Some(names)
    }
}

impl HostValue for Value {
    type Text = Text;
    type Members = Members;
    fn shape(&self) -> Result<Shape<Text>, Thrown> {
        Ok(match self {
            Value::Text(u) => Shape::Text(Text(u.clone())),
            Value::Array(..) => Shape::Array,
            Value::Object(_) => Shape::Object,
            Value::Leaf(leaf) => return leaf.shape(),
        })
    }
    fn array_length(&self) -> Result<f64, Thrown> {
        match self {
            Value::Array(_, n) => Ok(*n),
            _ => Err(Thrown),
        }
    }
    fn item(&self, index: u32) -> Result<Value, Thrown> {
        read_one();
        assert!((index as usize) < INPUT_LIMITS.array_items, "the walk read item {index}, past the kept items");
        match self {
            // Past the real items, as a Proxy claiming a longer length would answer.
            Value::Array(items, _) => Ok(items.get(index as usize).cloned().unwrap_or(UNDEFINED)),
            _ => Err(Thrown),
        }
    }
    fn members(&self) -> Result<Members, Thrown> {
        match self {
            Value::Object(m) => Ok(Members(Rc::clone(m))),
            _ => Err(Thrown),
        }
    }
}

/// The items an array claiming `length` has, as JavaScript reads a `length` (a whole
/// number below 2^32, anything else none): the oracle's own statement of the rule.
fn claimed(length: f64) -> usize {
    if length.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&length) {
        length as usize
    } else {
        0
    }
}

/// Every read the walk may make for `value`: each kept item, and each member's key and
/// value (the walk reads on past an `undefined` member).
fn read_bound(value: &Value, depth: usize) -> usize {
    if depth > INPUT_LIMITS.max_depth {
        return 0;
    }
    match value {
        Value::Array(items, n) => {
            let kept = claimed(*n).min(INPUT_LIMITS.array_items);
            kept + items.iter().take(kept).map(|v| read_bound(v, depth + 1)).sum::<usize>()
        }
        Value::Object(members) => 2 * members.len() + members.iter().map(|(_, v)| read_bound(v, depth + 1)).sum::<usize>(),
        _ => 0,
    }
}

/// One input: the checks this module's doc lists, each fatal.
pub fn run(data: &[u8]) {
    let Ok(spec) = Spec::arbitrary_take_rest(Unstructured::new(data)) else { return };
    let value = Value::build(&spec, &mut 4096);
    READS.with(|r| r.set(0));
    let walked = read_host_value(&value);
    let reads = READS.with(Cell::get);
    let bound = read_bound(&value, 1);
    assert!(reads <= bound, "the walk made {reads} reads, more than the {bound} the value allows");
    assert!(walked == read_host_value(&value), "the walk differs on a second run");
    if let Err(e) = &walked {
        assert!(matches!(e.code(), ErrorCode::InvalidJson | ErrorCode::TooDeep), "{e}");
    }
    if !value.expressible(true) {
        // Refused, unless what JSON cannot hold lies where the walk does not read.
        if let Ok(tree) = &walked {
            assert!(hidden(&value, 0, false, Hide::Unreadable), "a value JSON cannot hold was accepted: {}", tree.to_json());
        }
        return;
    }
    if hidden(&value, 0, false, Hide::Refused) {
        // A lone surrogate or nesting past what the walk reads: the text reader refuses
        // it, the walk (which counts what it does not keep, never inspects it) need not.
        return;
    }
    let mut text = String::new();
    value.stringify(&mut text);
    let parsed = parse_json(&text);
    match (&walked, &parsed) {
        (Ok(a), Ok(b)) => assert!(a == b, "the walk and the text reader differ:\n walk {a:?}\n text {b:?}"),
        // The text reader places a refusal by line and column (its path is empty); the
        // walk by the path to the value.
        (Err(a), Err(b)) => {
            assert_eq!(a.code(), b.code(), "refused differently: walk {a}, text {b}");
            assert!(b.path().is_empty() || a.path() == b.path(), "refused at different paths: walk {a}, text {b}");
        }
        _ => panic!("the walk and the text reader disagree: walk {walked:?}, text {parsed:?} for {}", truncate(&text)),
    }
}

/// What [`hidden`] looks for past what the walk reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hide {
    /// What JSON cannot hold (and any array that lies about its length, whose claim
    /// decides what is read).
    Unreadable,
    /// What the text reader refuses: a lone surrogate, nesting past the limit.
    Refused,
}

/// Whether `value` holds what `hide` names only where the walk does not read: string
/// units past the kept head, array items past the kept ones (or past a lying length),
/// members past the kept ones, levels past an unread container.
fn hidden(value: &Value, depth: usize, past: bool, hide: Hide) -> bool {
    let head_ok = |u: &[u16]| {
        let cap = INPUT_LIMITS.string_head;
        let kept = if u.len() <= cap {
            u.len()
        } else if (0xD800..=0xDBFF).contains(&u[cap - 1]) && (0xDC00..=0xDFFF).contains(&u[cap]) {
            cap - 1
        } else {
            cap
        };
        String::from_utf16(&u[..kept]).is_ok()
    };
    let lone = |u: &[u16], past: bool| String::from_utf16(u).is_err() && (past || head_ok(u));
    match value {
        Value::Text(u) => hide == Hide::Refused && lone(u, past),
        Value::Array(items, n) => {
            let depth = depth + 1;
            if hide == Hide::Refused && past && depth > INPUT_LIMITS.max_depth {
                return true;
            }
            if hide == Hide::Unreadable && *n != items.len() as f64 {
                return true;
            }
            let kept = claimed(*n).min(INPUT_LIMITS.array_items);
            items.iter().enumerate().any(|(i, v)| hidden(v, depth, past || i >= kept, hide))
        }
        Value::Object(members) => {
            let depth = depth + 1;
            if hide == Hide::Refused && past && depth > INPUT_LIMITS.max_depth {
                return true;
            }
            let mut kept = 0;
            members.iter().any(|(k, v)| {
                let unread = past || kept >= INPUT_LIMITS.object_members;
                if !v.is_undefined() {
                    kept += 1;
                }
                (hide == Hide::Refused && lone(k, unread)) || hidden(v, depth, unread, hide)
            })
        }
        Value::Leaf(leaf) => hide == Hide::Unreadable && past && !leaf.expressible(false),
    }
}

fn truncate(text: &str) -> &str {
    &text[..text.char_indices().nth(2000).map_or(text.len(), |(i, _)| i)]
}
