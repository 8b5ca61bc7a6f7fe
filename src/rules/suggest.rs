//! The nearest names to one a model's code asked for and the catalog lacks: models often
//! call a tool by a name close to a real one (`kv.put` for `kv.set`, `github.create_isue`).
//! Closeness is the edit distance between the names, ASCII case folded, over a bounded
//! number of bounded names, so a call costs at most a few hundred thousand steps whatever
//! the catalog and the name.

/// Longest name compared, in bytes (a longer one is compared by its first bytes).
const MAX_NAME: usize = 64;

/// Most catalog names considered.
const MAX_CANDIDATES: usize = 512;

/// Most names suggested.
pub(crate) const MAX_SUGGESTIONS: usize = 3;

/// The edit distance (insertions, deletions, substitutions, transpositions of neighbours)
/// between `a` and `b`, ASCII case folded, each cut to [`MAX_NAME`] bytes.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<u8> = a.bytes().take(MAX_NAME).map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<u8> = b.bytes().take(MAX_NAME).map(|c| c.to_ascii_lowercase()).collect();
    // Three rows of the table: two back (for a transposition), one back, this one.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut row = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..=b.len() {
            let substitution = previous[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            let mut best = substitution.min(previous[j] + 1).min(row[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(before[j - 2] + 1);
            }
            row[j] = best;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut row);
    }
    previous[b.len()]
}

/// The names of `candidates` (`namespace::tool`) nearest to `requested`, at most
/// [`MAX_SUGGESTIONS`], nearest first (the catalog's order between equals). The namespaces
/// and the tools' names are compared apart (a requested name without a namespace matches
/// any), each near within a quarter of the longer one's length or two edits; the
/// sum orders them. A name that differs only in case is nearest of all.
pub(crate) fn nearest<'a>(requested: &str, candidates: &[&'a str]) -> Vec<&'a str> {
    let near = |a: &str, b: &str| {
        let d = distance(a, b);
        (d <= (a.len().max(b.len()).min(MAX_NAME) / 4).max(2)).then_some(d)
    };
    let (namespace, tool) = requested.rsplit_once("::").map_or((None, requested), |(ns, t)| (Some(ns), t));
    let mut scored: Vec<(usize, usize, &'a str)> = candidates
        .iter()
        .take(MAX_CANDIDATES)
        .enumerate()
        .filter_map(|(k, &name)| {
            let (their_namespace, their_tool) = name.rsplit_once("::").unwrap_or(("", name));
            let spaced = match namespace {
                Some(ns) => near(ns, their_namespace)?,
                None => 0,
            };
            Some((spaced + near(tool, their_tool)?, k, name))
        })
        .collect();
    crate::order::sort_by_key(&mut scored, |&(d, k, _)| (d, k));
    scored.into_iter().take(MAX_SUGGESTIONS).map(|(_, _, name)| name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_count_edits() {
        assert_eq!(distance("kv::put", "kv::put"), 0);
        assert_eq!(distance("KV::Put", "kv::put"), 0);
        assert_eq!(distance("create_isue", "create_issue"), 1);
        assert_eq!(distance("craete", "create"), 1);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("abc", ""), 3);
    }

    #[test]
    fn the_nearest_names_first_and_only_near_ones() {
        let catalog = ["github::create_issue", "github::list_issues", "github::get_issue", "fs::read_file"];
        assert_eq!(nearest("github::create_isue", &catalog), ["github::create_issue"]);
        assert_eq!(nearest("kv::put", &["kv::set", "kv::get", "kv::delete"]), ["kv::set", "kv::get"]);
        assert_eq!(nearest("github::get_issues", &catalog), ["github::get_issue"]);
        assert_eq!(nearest("gihub::create_issue", &catalog), ["github::create_issue"]);
        assert!(nearest("weather::forecast", &catalog).is_empty());
        // Bounded whatever the name: a long name is compared by its first bytes.
        let long = "x".repeat(100_000);
        assert!(nearest(&long, &catalog).is_empty());
    }
}
