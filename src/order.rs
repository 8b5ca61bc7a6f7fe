//! Sorting, one implementation for the whole crate. Each use of the standard library's
//! sorts is a copy of a large generic sort in the compiled module (2 to 8 KB each in
//! WebAssembly, where the npm package's size is a budget); here one merge sort over
//! indices is compiled once, and each list only moves its items into the order it finds.

/// The indices `0..n` in the order `less` puts the items they stand for, equal items in
/// index order (stable). A bottom-up merge sort: `n log n` comparisons at most, one copy
/// in the module whatever is sorted.
fn order_of(n: usize, less: &dyn Fn(usize, usize) -> bool) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut merged = vec![0; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = n.min(start + width);
            let end = n.min(start + 2 * width);
            let (mut left, mut right) = (start, mid);
            for slot in &mut merged[start..end] {
                // The right run's item goes first only when strictly less: stable.
                let from_right = right < end && (left >= mid || less(order[right], order[left]));
                if from_right {
                    *slot = order[right];
                    right += 1;
                } else {
                    *slot = order[left];
                    left += 1;
                }
            }
            start = end;
        }
        std::mem::swap(&mut order, &mut merged);
        width *= 2;
    }
    order
}

/// Sort `items` so that no item is `less` than one before it, items that are not `less`
/// than each other kept in the order they had (stable). Costs one pass when the items are
/// in order already, as scanners' spans mostly are.
pub(crate) fn sort_by<T>(items: &mut Vec<T>, less: impl Fn(&T, &T) -> bool) {
    if items.windows(2).all(|w| !less(&w[1], &w[0])) {
        return;
    }
    let order = {
        let items = &*items;
        order_of(items.len(), &|a, b| less(&items[a], &items[b]))
    };
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(order.into_iter().filter_map(|i| slots.get_mut(i).and_then(Option::take)));
}

/// [`sort_by`] the key `key` gives each item.
pub(crate) fn sort_by_key<T, K: PartialOrd>(items: &mut Vec<T>, key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a) < key(b));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_by_key_and_keeps_equal_keys_in_order() {
        let mut spans = vec![(5..6, "a"), (1..9, "b"), (5..7, "c"), (1..2, "d"), (5..6, "e")];
        sort_by_key(&mut spans, |(s, _)| s.start);
        assert_eq!(spans.iter().map(|(_, f)| *f).collect::<String>(), "bdace");
        sort_by_key(&mut spans, |(s, _)| (s.start, s.end));
        assert_eq!(spans.iter().map(|(_, f)| *f).collect::<String>(), "dbaec");
        let mut empty: Vec<u8> = Vec::new();
        sort_by_key(&mut empty, |&b| b);
        assert!(empty.is_empty());
    }

    #[test]
    fn sorts_what_the_standard_library_sorts() {
        // Lengths around every power of two the merge passes double through.
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for n in 0..300 {
            let mut items: Vec<u64> = (0..n)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    seed % 50
                })
                .collect();
            let mut expected = items.clone();
            expected.sort();
            sort_by(&mut items, |a, b| a < b);
            assert_eq!(items, expected, "{n} items");
        }
        let mut names = vec!["b".to_owned(), "a".to_owned(), "c".to_owned()];
        sort_by(&mut names, |a, b| a < b);
        assert_eq!(names, ["a", "b", "c"]);
    }
}
