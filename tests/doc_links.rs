//! The docs name only what exists. Every relative link and every repository path written in
//! README.md, CONTRIBUTING.md, CHANGELOG.md (once there is one) and docs/*.md must lead to
//! a file or folder of this repository, so a reader who follows one never lands nowhere.
//!
//! - A markdown link `[text](target)`, an image `![alt](target)` or a reference definition
//!   `[label]: target` whose target is no URL (no scheme such as `https:` or `mailto:`, no
//!   `//host`) is resolved against the document's folder (a leading `/` against the
//!   repository root), after its `?query` and `#fragment` are cut off; the file or folder
//!   must exist inside the repository. A `#fragment` into a markdown file (this one
//!   included, for a `#fragment`-only link) must name one of its headings by GitHub's slug:
//!   lowercase, each space a `-`, every character other than letters, digits, `-` and `_`
//!   dropped, `-1`, `-2`, ... for repeated headings.
//! - An inline code span whose whole content looks like a repository path must name one:
//!   it starts with a top-level entry of the repository (the root folder's entries at test
//!   time, minus `target`, `node_modules` and hidden ones other than `.ci` and `.cargo`)
//!   followed by `/`, or it is the name of a file at the root (`Cargo.toml`); it holds no
//!   blank, `<`, `>`, `*`, `{`, `$`, `…` or `...` (those are patterns and elisions, not
//!   paths). A `:line` or `:line:col` suffix is cut off; a trailing `/` asks for a folder.
//!   The build outputs in [`IGNORED_OUTPUTS`] are allowed not to exist.
//! - Fenced code blocks hold neither links nor paths: they are examples.
//!
//! The failure lists every broken reference as `file:line: target (what is wrong)`, so all
//! of them can be fixed in one go.

use std::collections::{BTreeSet, HashMap};
use std::path::{Component, Path, PathBuf};

/// Paths the build or a campaign writes and git ignores (`.gitignore`): a document may
/// name them before they exist.
const IGNORED_OUTPUTS: &[&str] = &["target/", "fuzz/corpus/", "fuzz/artifacts/", "js-package/dist/", "js-package/pkg/"];

/// Hidden root entries that are part of the repository's layout.
const TRACKED_HIDDEN: &[&str] = &[".ci", ".cargo"];

/// Root entries that are never repository paths a document may name.
const UNTRACKED: &[&str] = &["target", "node_modules"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The documents checked: README.md and CONTRIBUTING.md (both must exist), CHANGELOG.md
/// when there is one, and every docs/*.md, sorted.
fn documents() -> (Vec<PathBuf>, Vec<String>) {
    let mut docs = Vec::new();
    let mut missing = Vec::new();
    for name in ["README.md", "CONTRIBUTING.md"] {
        if root().join(name).is_file() {
            docs.push(PathBuf::from(name));
        } else {
            missing.push(format!("{name}: missing (the repository's front page and its guide to changes are checked here)"));
        }
    }
    if root().join("CHANGELOG.md").is_file() {
        docs.push(PathBuf::from("CHANGELOG.md"));
    }
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ is readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "md"))
        .map(|p| PathBuf::from("docs").join(p.file_name().expect("a file name")))
        .collect();
    pages.sort();
    docs.extend(pages);
    (docs, missing)
}

/// The root's entries a repository path may start with, and which of them are files.
struct TopLevel {
    entries: BTreeSet<String>,
    files: BTreeSet<String>,
}

impl TopLevel {
    fn read() -> Self {
        let mut entries = BTreeSet::new();
        let mut files = BTreeSet::new();
        for entry in std::fs::read_dir(root()).expect("the repository root is readable") {
            let entry = entry.expect("a root entry");
            let name = entry.file_name().to_string_lossy().into_owned();
            if UNTRACKED.contains(&name.as_str()) || (name.starts_with('.') && !TRACKED_HIDDEN.contains(&name.as_str())) {
                continue;
            }
            if entry.path().is_file() {
                files.insert(name.clone());
            }
            entries.insert(name);
        }
        TopLevel { entries, files }
    }
}

/// A document's lines, each marked when it belongs to a fenced code block (fence lines
/// included).
fn fenced_lines(text: &str) -> Vec<(&str, bool)> {
    let mut out = Vec::new();
    let mut open: Option<(char, usize)> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        let fence = ['`', '~'].into_iter().find_map(|c| {
            let n = trimmed.chars().take_while(|&x| x == c).count();
            (n >= 3).then_some((c, n))
        });
        match (open, fence) {
            (None, Some(f)) => {
                open = Some(f);
                out.push((line, true));
            }
            (Some((c, n)), Some((d, m))) if c == d && m >= n && trimmed[m..].trim().is_empty() => {
                open = None;
                out.push((line, true));
            }
            (Some(_), _) => out.push((line, true)),
            (None, None) => out.push((line, false)),
        }
    }
    out
}

/// The document outside its fences as paragraphs (runs of non-blank lines), each with the
/// zero-based number of its first line. Fenced lines end a paragraph.
fn paragraphs(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (n, (line, fenced)) in fenced_lines(text).into_iter().enumerate() {
        if fenced || line.trim().is_empty() {
            out.extend(current.take());
            continue;
        }
        match &mut current {
            Some((_, p)) => {
                p.push('\n');
                p.push_str(line);
            }
            None => current = Some((n, line.to_owned())),
        }
    }
    out.extend(current);
    out
}

/// The inline code spans of a paragraph, by CommonMark's rule: a run of n backticks opens
/// a span that the next run of exactly n backticks closes; a run without its match is
/// literal text. Each span as (its start, its end, its content with line breaks read as
/// blanks and one blank trimmed off each side when both are there).
fn code_spans(paragraph: &str) -> Vec<(usize, usize, String)> {
    let bytes = paragraph.as_bytes();
    let run_at = |i: usize| bytes[i..].iter().take_while(|&&b| b == b'`').count();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'`' {
            i += 1;
            continue;
        }
        let escaped = bytes[..i].iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 1;
        let n = run_at(i);
        if escaped {
            i += 1;
            continue;
        }
        let mut j = i + n;
        let close = loop {
            match bytes[j.min(bytes.len())..].iter().position(|&b| b == b'`') {
                None => break None,
                Some(k) => {
                    let at = j + k;
                    let m = run_at(at);
                    if m == n {
                        break Some(at);
                    }
                    j = at + m;
                }
            }
        };
        match close {
            Some(at) => {
                let raw = paragraph[i + n..at].replace('\n', " ");
                let content = match raw.strip_prefix(' ').and_then(|r| r.strip_suffix(' ')) {
                    Some(inner) if !raw.trim().is_empty() => inner.to_owned(),
                    _ => raw,
                };
                spans.push((i, at + n, content));
                i = at + n;
            }
            None => i += n,
        }
    }
    spans
}

/// The paragraph with every code span blanked out (same length, line breaks kept), so a
/// link written inside code (`![alt](url)`) is no link.
fn without_code(paragraph: &str, spans: &[(usize, usize, String)]) -> String {
    let mut bytes = paragraph.as_bytes().to_vec();
    for (start, end, _) in spans {
        for b in &mut bytes[*start..*end] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    }
    String::from_utf8(bytes).expect("only whole spans are blanked")
}

/// The link targets of a paragraph without its code: `[text](target)`, `![alt](target)`
/// and reference definitions `[label]: target`, each with its byte offset.
fn link_targets(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = text[from..].find("](") {
        let start = from + k + 2;
        from = start;
        if !text[..start].contains('[') {
            continue;
        }
        let rest = &text[start..];
        let rest_trimmed = rest.trim_start_matches([' ', '\t']);
        let skipped = rest.len() - rest_trimmed.len();
        let target = if let Some(inner) = rest_trimmed.strip_prefix('<') {
            match inner.find(['>', '\n']) {
                Some(end) if inner.as_bytes()[end] == b'>' => inner[..end].to_owned(),
                _ => continue,
            }
        } else {
            let mut depth = 0usize;
            let end = rest_trimmed
                .char_indices()
                .find(|&(_, c)| match c {
                    '(' => {
                        depth += 1;
                        false
                    }
                    ')' if depth == 0 => true,
                    ')' => {
                        depth -= 1;
                        false
                    }
                    c => c.is_whitespace(),
                })
                .map_or(rest_trimmed.len(), |(at, _)| at);
            rest_trimmed[..end].to_owned()
        };
        if !target.is_empty() {
            out.push((start + skipped, target));
        }
    }
    let mut offset = 0;
    for line in text.split('\n') {
        let indent = line.len() - line.trim_start_matches(' ').len();
        let definition = line.trim_start_matches(' ').strip_prefix('[').and_then(|rest| {
            let close = rest.find("]:")?;
            let label = &rest[..close];
            if label.is_empty() || label.starts_with('^') || label.contains(']') {
                return None;
            }
            let target = rest[close + 2..].split_whitespace().next()?;
            Some(target.trim_start_matches('<').trim_end_matches('>').to_owned())
        });
        if let Some(target) = definition.filter(|_| indent <= 3) {
            out.push((offset + indent, target));
        }
        offset += line.len() + 1;
    }
    out
}

/// Whether a link target is a URL (a scheme, or a network path `//host`).
fn is_url(target: &str) -> bool {
    if target.starts_with("//") {
        return true;
    }
    match target.find(':') {
        Some(colon) => {
            let scheme = &target[..colon];
            scheme.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
        }
        None => false,
    }
}

/// `%XX` escapes decoded (links to names with blanks are written `%20`).
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `path` (relative to the repository root) with `.` and `..` resolved lexically; `None`
/// when it climbs out of the repository.
fn normalized(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(p) => out.push(p),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

/// GitHub's anchor for a heading's text: inline markup dropped (code spans keep their
/// content, links their text), lowercase, each blank a `-`, and every character other
/// than letters, digits, `-` and `_` removed.
fn slug(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    // `[text](url)` reads as its text.
    while let Some(open) = rest.find('[') {
        let Some(mid) = rest[open..].find("](").map(|m| open + m) else { break };
        let Some(close) = rest[mid..].find(')').map(|c| mid + c) else { break };
        text.push_str(&rest[..open]);
        text.push_str(&rest[open + 1..mid]);
        rest = &rest[close + 1..];
    }
    text.push_str(rest);
    let mut out = String::new();
    for c in text.trim().chars() {
        if c == ' ' {
            out.push('-');
        } else if c.is_alphanumeric() || c == '-' || c == '_' {
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// The anchors a markdown file offers: its ATX headings' slugs (repeats numbered as GitHub
/// numbers them) and any `id="..."` or `name="..."` written in HTML.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = BTreeSet::new();
    for (line, fenced) in fenced_lines(text) {
        if fenced {
            continue;
        }
        for attribute in ["id=\"", "name=\""] {
            let mut rest = line;
            while let Some(at) = rest.find(attribute) {
                rest = &rest[at + attribute.len()..];
                if let Some(end) = rest.find('"') {
                    out.insert(rest[..end].to_owned());
                }
            }
        }
        let indent = line.len() - line.trim_start_matches(' ').len();
        let hashes = line[indent..].chars().take_while(|&c| c == '#').count();
        if indent > 3 || !(1..=6).contains(&hashes) {
            continue;
        }
        let after = &line[indent + hashes..];
        if !(after.is_empty() || after.starts_with([' ', '\t'])) {
            continue;
        }
        // An optional closing run of `#`s, after a blank.
        let mut title = after.trim();
        let unhashed = title.trim_end_matches('#');
        if unhashed.is_empty() || unhashed.ends_with([' ', '\t']) {
            title = unhashed.trim_end();
        }
        let base = slug(title);
        let n = seen.entry(base.clone()).or_insert(0);
        out.insert(if *n == 0 { base.clone() } else { format!("{base}-{n}") });
        *n += 1;
    }
    out
}

/// Whether a code span's content is meant as a repository path, and the path it names
/// (its `:line[:col]` suffix cut off).
fn repository_path(content: &str, top: &TopLevel) -> Option<String> {
    if content.is_empty()
        || content.chars().any(|c| c.is_whitespace() || matches!(c, '<' | '>' | '*' | '{' | '$' | '…'))
        || content.contains("...")
        || content.contains("//")
    {
        return None;
    }
    let mut path = content;
    for _ in 0..2 {
        if let Some((head, tail)) = path.rsplit_once(':') {
            if !tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit()) {
                path = head;
            }
        }
    }
    match path.split_once('/') {
        Some((first, _)) if top.entries.contains(first) => Some(path.to_owned()),
        None if top.files.contains(path) => Some(path.to_owned()),
        _ => None,
    }
}

fn is_ignored_output(path: &str) -> bool {
    IGNORED_OUTPUTS.iter().any(|ignored| path.starts_with(ignored) || path == ignored.trim_end_matches('/'))
}

/// What one document was checked for.
struct Checked {
    /// Every broken link and path, as `file:line: target (what is wrong)`.
    problems: Vec<String>,
    /// How many relative links were followed.
    links: usize,
    /// How many repository paths were looked up.
    paths: usize,
}

/// Check every relative link and repository path of one document.
fn check_document(doc: &Path, top: &TopLevel, anchors_of: &mut HashMap<PathBuf, BTreeSet<String>>) -> Checked {
    let text = std::fs::read_to_string(root().join(doc)).unwrap_or_else(|e| panic!("{}: {e}", doc.display()));
    let folder = doc.parent().unwrap_or(Path::new("")).to_path_buf();
    let mut problems = Vec::new();
    let (mut links, mut paths) = (0, 0);
    let mut anchors_in = |file: &Path| -> BTreeSet<String> {
        anchors_of
            .entry(file.to_path_buf())
            .or_insert_with(|| anchors(&std::fs::read_to_string(root().join(file)).unwrap_or_default()))
            .clone()
    };
    for (first_line, paragraph) in paragraphs(&text) {
        let line_of = |offset: usize| first_line + 1 + paragraph[..offset].matches('\n').count();
        let spans = code_spans(&paragraph);
        let mut report = |offset: usize, target: &str, what: &str| {
            problems.push((line_of(offset), format!("{}:{}: {target} ({what})", doc.display(), line_of(offset))));
        };

        for (offset, target) in link_targets(&without_code(&paragraph, &spans)) {
            if is_url(&target) {
                continue;
            }
            links += 1;
            let (before_fragment, fragment) = match target.split_once('#') {
                Some((path, fragment)) => (path, Some(fragment)),
                None => (target.as_str(), None),
            };
            let path = before_fragment.split('?').next().unwrap_or_default();
            let resolved = if path.is_empty() {
                Some(doc.to_path_buf())
            } else {
                let decoded = percent_decoded(path);
                match decoded.strip_prefix('/') {
                    Some(from_root) => normalized(Path::new(from_root)),
                    None => normalized(&folder.join(&decoded)),
                }
            };
            let Some(resolved) = resolved else {
                report(offset, &target, "link leaves the repository");
                continue;
            };
            let on_disk = root().join(&resolved);
            if !on_disk.exists() {
                report(offset, &target, "link to a missing file or folder");
                continue;
            }
            if path.ends_with('/') && !on_disk.is_dir() {
                report(offset, &target, "link with a trailing `/` to something that is no folder");
                continue;
            }
            let Some(fragment) = fragment.filter(|f| !f.is_empty()) else { continue };
            if on_disk.is_file() && resolved.extension().is_some_and(|e| e == "md") {
                let fragment = percent_decoded(fragment).to_lowercase();
                if !anchors_in(&resolved).contains(&fragment) {
                    report(offset, &target, &format!("{} has no heading with this anchor", resolved.display()));
                }
            }
        }

        for (start, _, content) in &spans {
            let Some(path) = repository_path(content, top) else { continue };
            if is_ignored_output(&path) {
                continue;
            }
            paths += 1;
            let on_disk = root().join(path.trim_end_matches('/'));
            if !on_disk.exists() {
                report(*start, content, "no such file or folder in the repository");
            } else if path.ends_with('/') && !on_disk.is_dir() {
                report(*start, content, "a trailing `/` names a folder, and this is a file");
            }
        }
    }
    problems.sort_by_key(|(line, _)| *line);
    Checked { problems: problems.into_iter().map(|(_, p)| p).collect(), links, paths }
}

#[test]
fn every_link_and_repository_path_in_the_docs_exists() {
    let top = TopLevel::read();
    assert!(top.entries.contains("src") && top.files.contains("Cargo.toml"), "the root listing is {:?}", top.entries);
    let (docs, mut problems) = documents();
    let mut anchors_of = HashMap::new();
    let (mut links, mut paths) = (0, 0);
    for doc in &docs {
        let checked = check_document(doc, &top, &mut anchors_of);
        problems.extend(checked.problems);
        (links, paths) = (links + checked.links, paths + checked.paths);
    }
    eprintln!("{} documents: {links} relative links, {paths} repository paths", docs.len());
    assert!(
        problems.is_empty(),
        "{} broken references in {} documents (fix each in the file named):\n{}",
        problems.len(),
        docs.len(),
        problems.join("\n")
    );
}

/// The readers above on small texts, so a change to them cannot quietly check less.
#[test]
fn the_readers_find_what_a_renderer_would() {
    assert_eq!(slug("When a whole run fails (`run`)"), "when-a-whole-run-fails-run");
    assert_eq!(slug("Recovery (rules 11-13)"), "recovery-rules-11-13");
    assert_eq!(slug("Input: the failure report"), "input-the-failure-report");
    assert_eq!(slug("The executor's rules (`run::ExecRequest`, `module_access`)"), "the-executors-rules-runexecrequest-module_access");
    assert_eq!(slug("See [the contract](docs/contract.md) now"), "see-the-contract-now");
    let found = anchors("# A\n\n## A\n\n```\n# not a heading\n```\n### B ###\n#hashtag\n");
    assert_eq!(found.into_iter().collect::<Vec<_>>(), ["a", "a-1", "b"]);

    let spans = code_spans("x `src/lib.rs` and ``a ` b`` and `open\nclose` and \\`no` `");
    let contents: Vec<&str> = spans.iter().map(|(_, _, c)| c.as_str()).collect();
    assert_eq!(contents, ["src/lib.rs", "a ` b", "open close", " "]);

    let paragraph = "see [the docs](docs/a.md#b), ![img](<x y.png>), `![code](no)` and [x](https://e.invalid)\n[ref]: ../up.md";
    let spans = code_spans(paragraph);
    let targets: Vec<String> = link_targets(&without_code(paragraph, &spans)).into_iter().map(|(_, t)| t).collect();
    assert_eq!(targets, ["docs/a.md#b", "x y.png", "https://e.invalid", "../up.md"]);
    assert!(is_url("https://e.invalid") && is_url("mailto:a@b") && is_url("//cdn") && !is_url("docs/a.md") && !is_url("a.md#x:y"));

    let top = TopLevel { entries: ["src", "fuzz", "Cargo.toml"].map(String::from).into(), files: ["Cargo.toml".to_owned()].into() };
    for (content, path) in [
        ("src/lib.rs", Some("src/lib.rs")),
        ("src/lib.rs:12:5", Some("src/lib.rs")),
        ("fuzz/corpus/", Some("fuzz/corpus/")),
        ("Cargo.toml", Some("Cargo.toml")),
        ("fuzz/regressions/<target>/", None),
        ("src/**/*.rs", None),
        ("cargo test", None),
        ("srcx/lib.rs", None),
        ("lib.rs", None),
        ("src/...", None),
    ] {
        assert_eq!(repository_path(content, &top).as_deref(), path, "{content}");
    }
    assert!(is_ignored_output("fuzz/corpus/report") && is_ignored_output("target") && !is_ignored_output("fuzz/seeds/report"));
    assert_eq!(normalized(Path::new("docs/../README.md")), Some(PathBuf::from("README.md")));
    assert_eq!(normalized(Path::new("docs/../../outside")), None);
    assert_eq!(percent_decoded("a%20b%2"), "a b%2");
}

/// The reference docs state what holds now, each figure once; history goes to CHANGELOG.md.
/// A reference that grows past this has become a log again.
const REFERENCE_DOC_BYTES: u64 = 15 * 1024;

#[test]
fn the_reference_docs_stay_references() {
    for doc in ["docs/PERFORMANCE.md", "docs/RELIABILITY.md"] {
        let bytes = std::fs::metadata(root().join(doc)).unwrap_or_else(|e| panic!("{doc}: {e}")).len();
        assert!(
            bytes <= REFERENCE_DOC_BYTES,
            "{doc} is {bytes} bytes, over {REFERENCE_DOC_BYTES}: keep only what holds now, move history to CHANGELOG.md"
        );
    }
}
