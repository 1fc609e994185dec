//! Typing slips: of the words one edit from what was typed, those a hand on a keyboard makes
//! of the word meant. A letter left out (`propse` for `propose`), two letters swapped (`teh`),
//! a letter doubled (`retryy`), a neighbouring key hit as well (`retruy`) or instead (`retrt`)
//! on a QWERTY keyboard. Any other edit (a letter of the far side of the keyboard put in,
//! `usges` read as `uses`) is a typo that fits less well: both find sessions, slips rank first
//! (`super::tier::Held`).
//!
//! Written here rather than taken from a crate: the rule is the product's (which edits rank
//! above which), and the keyboard is four rows of text.

/// The rows of a QWERTY keyboard, each shifted half a key right of the one above.
const ROWS: [&[u8]; 4] = [b"1234567890", b"qwertyuiop", b"asdfghjkl", b"zxcvbnm"];

/// Where `key` sits (row, column), for ASCII letters and digits.
fn place(key: u8) -> Option<(usize, usize)> {
    let key = key.to_ascii_lowercase();
    ROWS.iter()
        .enumerate()
        .find_map(|(r, row)| row.iter().position(|&k| k == key).map(|c| (r, c)))
}

/// Whether two keys touch on the keyboard (a key touches itself).
pub(super) fn touch(a: u8, b: u8) -> bool {
    let (Some((ra, ca)), Some((rb, cb))) = (place(a), place(b)) else {
        return a == b;
    };
    match ra as isize - rb as isize {
        0 => ca.abs_diff(cb) <= 1,
        // `b` on the row below `a`: it sits half a key left, so its own column or the next.
        -1 => ca == cb || ca == cb + 1,
        1 => cb == ca || cb == ca + 1,
        _ => false,
    }
}

/// Whether `typed` is a slip of `word`: `word` one letter longer (a letter left out), the same
/// length with two neighbouring letters swapped or one key hit for a touching one, or one letter
/// shorter where `typed`'s extra letter touches (or repeats) one beside it.
pub(super) fn is_slip(typed: &[u8], word: &[u8]) -> bool {
    match word.len() as isize - typed.len() as isize {
        1 => one_more(word, typed),
        0 => swapped_or_touching(typed, word),
        -1 => (0..typed.len()).any(|k| {
            let without = typed[..k].iter().chain(&typed[k + 1..]);
            without.eq(word.iter()) && extra_key(typed, k)
        }),
        _ => false,
    }
}

/// Whether `long` is `short` with one byte put in.
fn one_more(long: &[u8], short: &[u8]) -> bool {
    let i = short
        .iter()
        .zip(long)
        .position(|(a, b)| a != b)
        .unwrap_or(short.len());
    long[i + 1..] == short[i..]
}

/// Whether `typed[k]` touches the key before or after it (a doubled letter touches itself).
fn extra_key(typed: &[u8], k: usize) -> bool {
    let before = k.checked_sub(1).map(|j| typed[j]);
    let after = typed.get(k + 1).copied();
    [before, after]
        .into_iter()
        .flatten()
        .any(|n| touch(typed[k], n))
}

/// Equal lengths: two neighbouring bytes swapped, or one byte a touching key.
fn swapped_or_touching(typed: &[u8], word: &[u8]) -> bool {
    let differ: Vec<usize> = (0..typed.len()).filter(|&i| typed[i] != word[i]).collect();
    match differ.as_slice() {
        [i] => touch(typed[*i], word[*i]),
        [i, j] => *j == i + 1 && typed[*i] == word[*j] && typed[*j] == word[*i],
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slip(typed: &str, word: &str) -> bool {
        is_slip(typed.as_bytes(), word.as_bytes())
    }

    #[test]
    fn keys_touch_across_and_along_the_rows() {
        for (a, b) in [
            ("g", "t"),
            ("g", "y"),
            ("g", "f"),
            ("g", "v"),
            ("g", "b"),
            ("w", "2"),
        ] {
            assert!(touch(a.as_bytes()[0], b.as_bytes()[0]), "{a} {b}");
            assert!(touch(b.as_bytes()[0], a.as_bytes()[0]), "{b} {a}");
        }
        for (a, b) in [("g", "s"), ("g", "r"), ("g", "n"), ("q", "p"), ("1", "a")] {
            assert!(!touch(a.as_bytes()[0], b.as_bytes()[0]), "{a} {b}");
        }
    }

    #[test]
    fn a_letter_left_out_swapped_doubled_or_a_touching_key_is_a_slip() {
        assert!(slip("propse", "propose"));
        assert!(slip("usges", "usages"));
        assert!(slip("retyr", "retry"));
        assert!(slip("retryy", "retry"));
        assert!(slip("retruy", "retry"));
        assert!(slip("retrt", "retry"));
        assert!(slip("rtery", "retry"));
        assert!(slip("t710", "t7100"));
        // Left out at either end.
        assert!(slip("etry", "retry"));
        assert!(slip("retr", "retry"));
    }

    #[test]
    fn other_edits_are_not() {
        // A far key put in, a far key for another, two edits, the word itself.
        assert!(!slip("usges", "uses"));
        assert!(!slip("pathd", "path"));
        assert!(!slip("retrp", "retry"));
        assert!(!slip("rqtry", "retry"));
        assert!(!slip("retry", "retry"));
        assert!(!slip("ab", "abcd"));
    }
}
