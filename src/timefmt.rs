//! Time as the picker shows it: RFC 3339 parsing and printing in UTC, and relative ages.
//!
//! Pure and clock-free: callers pass `now`. Civil-date arithmetic follows Howard Hinnant's
//! days-from-civil algorithm, so no date crate is needed.

/// Milliseconds since the Unix epoch.
pub type Millis = i64;

/// Days since 1970-01-01 of a civil date (proleptic Gregorian).
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date (year, month, day) of a day number since 1970-01-01.
pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn digits(s: &[u8]) -> Option<i64> {
    if s.is_empty() || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(s).ok()?.parse().ok()
}

/// Parse `YYYY-MM-DDThh:mm:ss[.fff][Z|±hh:mm]` to epoch milliseconds. `None` for anything else.
pub fn parse_rfc3339(text: &str) -> Option<Millis> {
    let b = text.as_bytes();
    if b.len() < 19 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (y, mo, d) = (digits(&b[0..4])?, digits(&b[5..7])?, digits(&b[8..10])?);
    let (h, mi, s) = (
        digits(&b[11..13])?,
        digits(&b[14..16])?,
        digits(&b[17..19])?,
    );
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || s > 60 {
        return None;
    }
    let mut rest = &b[19..];
    let mut millis = 0i64;
    if let Some(frac) = rest.strip_prefix(b".") {
        let n = frac.iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return None;
        }
        let mut ms = frac[..n]
            .iter()
            .take(3)
            .fold(0i64, |acc, c| acc * 10 + i64::from(c - b'0'));
        for _ in n..3 {
            ms *= 10;
        }
        millis = ms;
        rest = &frac[n..];
    }
    let offset_minutes = match rest {
        b"" | b"Z" | b"z" => 0,
        [sign @ (b'+' | b'-'), hh1, hh2, b':', mm1, mm2] => {
            let hh = digits(&[*hh1, *hh2])?;
            let mm = digits(&[*mm1, *mm2])?;
            let off = hh * 60 + mm;
            if *sign == b'+' {
                off
            } else {
                -off
            }
        }
        _ => return None,
    };
    let days = days_from_civil(y, mo, d);
    let secs = days * 86_400 + h * 3600 + mi * 60 + s - offset_minutes * 60;
    Some(secs * 1000 + millis)
}

/// Format epoch milliseconds as `YYYY-MM-DDThh:mm:ss.fffZ` (UTC).
pub fn format_rfc3339(ms: Millis) -> String {
    let mut out = String::with_capacity(24);
    push_rfc3339(&mut out, ms);
    out
}

/// [`format_rfc3339`] appended to `out`: digits written directly, since `list --json` prints
/// one per row and the formatting machinery cost more than the rest of the row's fields.
pub fn push_rfc3339(out: &mut String, ms: Millis) {
    let secs = ms.div_euclid(1000);
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let sod = secs.rem_euclid(86_400);
    if !(0..=9999).contains(&y) {
        // Outside four-digit years the padded form is kept exactly as `format!` gives it.
        out.push_str(&format!("{y:04}"));
    } else {
        push_digits(out, y, 4);
    }
    out.push('-');
    push_digits(out, m, 2);
    out.push('-');
    push_digits(out, d, 2);
    out.push('T');
    push_digits(out, sod / 3600, 2);
    out.push(':');
    push_digits(out, sod % 3600 / 60, 2);
    out.push(':');
    push_digits(out, sod % 60, 2);
    out.push('.');
    push_digits(out, ms.rem_euclid(1000), 3);
    out.push('Z');
}

/// The last `width` decimal digits of `n` (0 <= n), zero-padded.
fn push_digits(out: &mut String, n: i64, width: u32) {
    for place in (0..width).rev() {
        let digit = n / 10i64.pow(place) % 10;
        out.push(char::from(b'0' + digit as u8));
    }
}

/// Format epoch milliseconds as `YYYY-MM-DD hh:mm` (UTC), for compact displays.
pub fn format_short(ms: Millis) -> String {
    let full = format_rfc3339(ms);
    format!("{} {}", &full[..10], &full[11..16])
}

/// A compact age such as `now`, `42s`, `5m`, `3h`, `2d`, `6w`, `4mo`, `2y`.
pub fn relative(then: Millis, now: Millis) -> String {
    let secs = (now - then).max(0) / 1000;
    match secs {
        0..=4 => "now".to_owned(),
        5..=59 => format!("{secs}s"),
        60..=3599 => format!("{}m", secs / 60),
        3600..=86_399 => format!("{}h", secs / 3600),
        86_400..=1_209_599 => format!("{}d", secs / 86_400),
        1_209_600..=5_183_999 => format!("{}w", secs / 604_800),
        5_184_000..=31_535_999 => format!("{}mo", secs / 2_592_000),
        _ => format!("{}y", secs / 31_536_000),
    }
}

/// The wall clock, in milliseconds since the epoch (0 before it).
pub fn now_ms() -> Millis {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_codex_timestamps() {
        let ms = parse_rfc3339("2026-11-30T10:02:41.879Z").unwrap();
        assert_eq!(format_rfc3339(ms), "2026-11-30T10:02:41.879Z");
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            parse_rfc3339("2026-11-30T10:02:49.158778186Z"),
            parse_rfc3339("2026-11-30T10:02:49.158Z")
        );
        assert_eq!(
            parse_rfc3339("2026-11-30T12:00:00+02:00"),
            parse_rfc3339("2026-11-30T10:00:00Z")
        );
    }

    #[test]
    fn printed_digits_match_the_formatting_machinery() {
        let reference = |ms: Millis| {
            let secs = ms.div_euclid(1000);
            let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
            let sod = secs.rem_euclid(86_400);
            format!(
                "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
                sod / 3600,
                sod % 3600 / 60,
                sod % 60,
                ms.rem_euclid(1000)
            )
        };
        let mut ms: Millis = -62_200_000_000_000;
        while ms < 260_000_000_000_000 {
            for near in [ms, ms + 1, ms - 1, ms + 999] {
                assert_eq!(format_rfc3339(near), reference(near), "{near}");
                if (0..253_402_300_800_000).contains(&near) {
                    assert_eq!(parse_rfc3339(&format_rfc3339(near)), Some(near), "{near}");
                }
            }
            ms += 7_919_000_017;
        }
    }

    #[test]
    fn rejects_garbage() {
        for bad in [
            "",
            "yesterday",
            "2026-13-01T00:00:00Z",
            "2026-11-30T10:02",
            "2026-11-30T10:02:41.Z",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
    }

    #[test]
    fn ages() {
        let now = 10_000_000_000;
        assert_eq!(relative(now, now), "now");
        assert_eq!(relative(now - 90_000, now), "1m");
        assert_eq!(relative(now - 3 * 3_600_000, now), "3h");
        assert_eq!(relative(now - 3 * 86_400_000, now), "3d");
        assert_eq!(relative(now - 400 * 86_400_000, now), "1y");
        assert_eq!(relative(now + 5000, now), "now", "future clamps");
    }
}
