//! How tall the picker is: the whole screen (the alternate screen, the default), or a number of
//! rows below the prompt (`--height 20`, `--height 40%`, `height = 20` in the config file),
//! drawn inline as fzf's `--height` is. Pure: what the words mean and how many rows they give
//! for a terminal's height.

use std::fmt;
use std::str::FromStr;

/// The fewest rows the inline picker is drawn in: the query line and the list's first row, and
/// one row more so that a box drawn over them (the action menu, the rename field) still has a
/// line between its two borders, and a one-line question or message on the last row leaves a
/// row of the list in view. fzf's least height is 3 rows too (its prompt, its info line and
/// one item). Fewer rows than the full layout needs are drawn as the list alone
/// (`tui/app/geometry.rs` says which lines go first).
pub(crate) const MIN_ROWS: u16 = 3;

/// The picker's height.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Height {
    /// The whole screen (the alternate screen).
    #[default]
    Full,
    /// This many rows below the prompt (at least [`MIN_ROWS`]).
    Rows(u16),
    /// This percentage of the terminal's height when the picker opens (1 to 100), at least
    /// [`MIN_ROWS`].
    Percent(u16),
}

impl Height {
    /// The rows to draw in on a terminal `terminal_rows` high; `None` for the whole screen. A
    /// height past the terminal's is the terminal's (the rows above scroll away).
    pub fn rows(self, terminal_rows: u16) -> Option<u16> {
        let rows = match self {
            Height::Full => return None,
            Height::Rows(n) => n,
            Height::Percent(p) => {
                let share = u32::from(terminal_rows) * u32::from(p) / 100;
                u16::try_from(share).unwrap_or(u16::MAX).max(MIN_ROWS)
            }
        };
        Some(rows.min(terminal_rows))
    }
}

impl FromStr for Height {
    type Err = String;

    /// `full`, a number of rows (`20`) or a percentage of the terminal's height (`40%`).
    fn from_str(s: &str) -> Result<Height, String> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("full") {
            return Ok(Height::Full);
        }
        let (digits, percent) = match s.strip_suffix('%') {
            Some(digits) => (digits, true),
            None => (s, false),
        };
        let expected = || {
            format!(
                "height {}: expected `full`, a number of rows (at least {MIN_ROWS}) or a percentage such as 40%",
                crate::sanitize::one_line(s)
            )
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(expected());
        }
        let n: u16 = digits.parse().map_err(|_| expected())?;
        match (percent, n) {
            (true, 1..=100) => Ok(Height::Percent(n)),
            (true, _) => Err(format!("height {s}: a percentage from 1% to 100%")),
            (false, n) if n >= MIN_ROWS => Ok(Height::Rows(n)),
            (false, _) => Err(format!(
                "height {s}: too small, the picker needs at least {MIN_ROWS} rows"
            )),
        }
    }
}

impl fmt::Display for Height {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Height::Full => f.write_str("full"),
            Height::Rows(n) => write!(f, "{n}"),
            Height::Percent(p) => write!(f, "{p}%"),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Height {
    /// A number of rows (`height = 20`) or a string as on the command line (`"40%"`,
    /// `"full"`).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Height, D::Error> {
        d.deserialize_any(HeightVisitor)
    }
}

struct HeightVisitor;

impl serde::de::Visitor<'_> for HeightVisitor {
    type Value = Height;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "\"full\", a number of rows (at least {MIN_ROWS}) or a percentage such as \"40%\""
        )
    }

    fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<Height, E> {
        n.to_string().parse().map_err(E::custom)
    }

    fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Height, E> {
        n.to_string().parse().map_err(E::custom)
    }

    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Height, E> {
        s.parse().map_err(E::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_a_user_writes() {
        assert_eq!("full".parse(), Ok(Height::Full));
        assert_eq!("20".parse(), Ok(Height::Rows(20)));
        assert_eq!("40%".parse(), Ok(Height::Percent(40)));
        assert_eq!(" 100% ".parse(), Ok(Height::Percent(100)));
        for bad in [
            "", "%", "-3", "3.5", "20 %", "0%", "101%", "tall", "99999999",
        ] {
            assert!(bad.parse::<Height>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn too_few_rows_is_an_error_that_says_the_minimum() {
        let err = "2".parse::<Height>().unwrap_err();
        assert_eq!(err, "height 2: too small, the picker needs at least 3 rows");
        assert_eq!("3".parse(), Ok(Height::Rows(MIN_ROWS)));
        assert_eq!("5".parse(), Ok(Height::Rows(5)));
        for bad in ["0", "1", "2"] {
            assert!(bad.parse::<Height>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn rows_for_a_terminal() {
        assert_eq!(Height::Full.rows(40), None);
        assert_eq!(Height::Rows(20).rows(40), Some(20));
        // Past the terminal: the terminal's height.
        assert_eq!(Height::Rows(60).rows(40), Some(40));
        assert_eq!(Height::Percent(50).rows(40), Some(20));
        // A share smaller than the minimum is the minimum, but never past the terminal.
        assert_eq!(Height::Percent(5).rows(40), Some(MIN_ROWS));
        assert_eq!(Height::Percent(10).rows(40), Some(4));
        assert_eq!(Height::Percent(1).rows(2), Some(2));
        assert_eq!(Height::Percent(100).rows(40), Some(40));
    }
}
