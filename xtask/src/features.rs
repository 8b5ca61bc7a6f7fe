//! Editing a WebAssembly module's `target_features` custom section.
//!
//! wasm-bindgen reads that section to decide whether to rewrite exports that return
//! several values (a `Result`, a string) as multi-value functions. V8 cannot call those
//! through its generic JS-to-Wasm wrapper, so it compiles one wrapper per distinct
//! signature with TurboFan when the module is compiled: about 1.5 ms of the package's
//! start-up on the measuring machine (docs/PERFORMANCE-js.md). The Rust toolchain marks
//! `multivalue` as used because its prebuilt standard library was compiled with the
//! feature on, even though no function of ours returns several values; dropping the entry
//! before wasm-bindgen runs keeps its return-pointer convention instead.

use crate::util::Result;

/// The custom section wasm-ld writes the features of a module into.
const SECTION: &str = "target_features";

/// `module` with `feature` removed from its `target_features` section (unchanged when the
/// section or the entry is absent). Fails only on bytes that are not a WebAssembly module.
pub fn without_feature(module: &[u8], feature: &str) -> Result<Vec<u8>> {
    let mut out = module.get(..8).unwrap_or_default().to_vec();
    for_each_section(module, |whole, features| {
        match features {
            Some(entries) => push_custom_section(&mut out, SECTION, &filtered_entries(entries, feature)?),
            None => out.extend_from_slice(&module[whole]),
        }
        Ok(())
    })?;
    Ok(out)
}

/// Whether `module`'s `target_features` section lists `feature` as used.
pub fn has_feature(module: &[u8], feature: &str) -> Result<bool> {
    let mut found = false;
    for_each_section(module, |_, features| {
        if let Some(entries) = features {
            found |= filtered_entries(entries, feature)? != entries;
        }
        Ok(())
    })?;
    Ok(found)
}

/// Visit each section of `module` in order: its bytes' range, and for the
/// `target_features` section its entry vector.
fn for_each_section(module: &[u8], mut visit: impl FnMut(std::ops::Range<usize>, Option<&[u8]>) -> Result) -> Result {
    if module.len() < 8 || &module[..4] != b"\0asm" {
        return Err("not a WebAssembly module (no \\0asm header)".into());
    }
    let mut at = 8;
    while at < module.len() {
        let start = at;
        let id = module[at];
        at += 1;
        let len = read_u32(module, &mut at)? as usize;
        let body = at;
        let end = body.checked_add(len).filter(|&e| e <= module.len()).ok_or("a section runs past the end of the module")?;
        at = end;
        let mut features = None;
        if id == 0 {
            let section = &module[..end];
            let mut name_at = body;
            let name_len = read_u32(section, &mut name_at)? as usize;
            let name = section.get(name_at..name_at.saturating_add(name_len)).ok_or("a custom section name runs past its section")?;
            if name == SECTION.as_bytes() {
                features = Some(&module[name_at + name_len..end]);
            }
        }
        visit(start..end, features)?;
    }
    Ok(())
}

/// The section's entry vector (`count`, then a prefix byte and a name per entry) without
/// the entries naming `feature`.
fn filtered_entries(entries: &[u8], feature: &str) -> Result<Vec<u8>> {
    let mut at = 0;
    let count = read_u32(entries, &mut at)?;
    let mut kept = Vec::new();
    let mut n = 0u32;
    for _ in 0..count {
        let start = at;
        at += 1; // '+', '-' or '='
        let len = read_u32(entries, &mut at)? as usize;
        let name = entries.get(at..at + len).ok_or("a feature name runs past the section")?;
        at += len;
        if name != feature.as_bytes() {
            kept.extend_from_slice(&entries[start..at]);
            n += 1;
        }
    }
    let mut out = Vec::new();
    write_u32(&mut out, n);
    out.extend_from_slice(&kept);
    Ok(out)
}

/// Append a custom section (id 0) named `name` holding `content`.
fn push_custom_section(out: &mut Vec<u8>, name: &str, content: &[u8]) {
    let mut section = Vec::new();
    write_u32(&mut section, name.len() as u32);
    section.extend_from_slice(name.as_bytes());
    section.extend_from_slice(content);
    out.push(0);
    write_u32(out, section.len() as u32);
    out.extend_from_slice(&section);
}

fn read_u32(bytes: &[u8], at: &mut usize) -> Result<u32> {
    let mut value = 0u32;
    for shift in (0..35).step_by(7) {
        let byte = *bytes.get(*at).ok_or("a LEB128 number runs past the end")?;
        *at += 1;
        if shift == 28 && byte > 0x0f {
            return Err("a LEB128 number does not fit in 32 bits".into());
        }
        value |= u32::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err("a LEB128 number is longer than five bytes".into())
}

fn write_u32(out: &mut Vec<u8>, mut value: u32) {
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module holding one type section and a `target_features` section with `features`.
    fn module(features: &[&str]) -> Vec<u8> {
        let mut m = b"\0asm\x01\0\0\0".to_vec();
        m.extend_from_slice(&[1, 4, 1, 0x60, 0, 0]); // type section: one `() -> ()`
        let mut entries = Vec::new();
        write_u32(&mut entries, features.len() as u32);
        for f in features {
            entries.push(b'+');
            write_u32(&mut entries, f.len() as u32);
            entries.extend_from_slice(f.as_bytes());
        }
        push_custom_section(&mut m, SECTION, &entries);
        m
    }

    #[test]
    fn drops_only_the_named_feature() {
        let before = module(&["bulk-memory", "multivalue", "reference-types"]);
        let after = without_feature(&before, "multivalue").unwrap();
        assert_eq!(after, module(&["bulk-memory", "reference-types"]));
    }

    #[test]
    fn tells_whether_a_feature_is_listed() {
        let m = module(&["bulk-memory", "simd128"]);
        assert!(has_feature(&m, "simd128").unwrap());
        assert!(!has_feature(&m, "multivalue").unwrap());
        assert!(!has_feature(b"\0asm\x01\0\0\0", "simd128").unwrap());
        assert!(has_feature(b"not wasm", "simd128").is_err());
    }

    #[test]
    fn leaves_a_module_without_the_feature_unchanged() {
        let before = module(&["bulk-memory"]);
        assert_eq!(without_feature(&before, "multivalue").unwrap(), before);
    }

    #[test]
    fn rejects_truncated_and_foreign_bytes() {
        let mut cut = module(&["multivalue"]);
        cut.truncate(cut.len() - 3);
        assert!(without_feature(&cut, "multivalue").is_err());
        assert!(without_feature(b"not wasm", "multivalue").is_err());
    }

    #[test]
    fn rejects_a_section_name_past_its_section_and_oversized_numbers() {
        // A custom section of length 2 whose name claims 15 bytes ("target_features").
        let mut m = b"\0asm\x01\0\0\0".to_vec();
        m.extend_from_slice(&[0, 2, 15, b't']);
        m.extend_from_slice(&module(&["multivalue"])[8..]);
        assert!(without_feature(&m, "multivalue").is_err());
        let mut at = 0;
        assert!(read_u32(&[0xff, 0xff, 0xff, 0xff, 0x1f], &mut at).is_err());
    }

    #[test]
    fn leb128_round_trips() {
        for v in [0, 1, 127, 128, 300, 16_384, u32::MAX] {
            let mut b = Vec::new();
            write_u32(&mut b, v);
            let mut at = 0;
            assert_eq!(read_u32(&b, &mut at).unwrap(), v);
            assert_eq!(at, b.len());
        }
    }
}
