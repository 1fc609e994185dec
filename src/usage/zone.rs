//! The local time zone: how far local time is from UTC at a moment, as the system's C library
//! says (`localtime_r`, which follows `TZ` and the zone files, daylight saving included). The
//! answer is kept per quarter hour: a usage report asks it once for each quarter hour some
//! session used tokens in, not once per session.
//!
//! [`Fixed`] is a zone of one offset, for tests and for UTC.

use std::collections::HashMap;

use crate::timefmt::Millis;

const HOUR_MS: Millis = 3_600_000;

/// A time zone: the offset of local time from UTC at a UTC instant.
pub trait Zone {
    fn offset_ms(&mut self, utc: Millis) -> Millis;

    /// The local day number (days since 1970-01-01 in local time) of a UTC instant.
    fn day(&mut self, utc: Millis) -> i64 {
        (utc + self.offset_ms(utc)).div_euclid(86_400_000)
    }
}

/// One offset all year.
#[derive(Debug, Clone, Copy)]
pub struct Fixed(pub Millis);

impl Zone for Fixed {
    fn offset_ms(&mut self, _utc: Millis) -> Millis {
        self.0
    }
}

/// The system's local zone.
#[derive(Debug, Default)]
pub struct Local {
    by_quarter: HashMap<i64, Millis>,
}

impl Local {
    pub fn new() -> Local {
        #[cfg(unix)]
        // SAFETY: tzset only reads `TZ` and the zone files into the C library's own state;
        // nothing else in this process changes `TZ`.
        unsafe {
            tzset();
        }
        Local::default()
    }
}

#[cfg(unix)]
extern "C" {
    fn tzset();
}

impl Zone for Local {
    fn offset_ms(&mut self, utc: Millis) -> Millis {
        // Every zone changes its offset on a quarter hour: one answer holds for the quarter.
        let quarter = utc.div_euclid(HOUR_MS / 4);
        *self
            .by_quarter
            .entry(quarter)
            .or_insert_with(|| system_offset(quarter * (HOUR_MS / 4)))
    }
}

#[cfg(unix)]
fn system_offset(utc: Millis) -> Millis {
    let secs = utc.div_euclid(1000) as libc::time_t;
    // SAFETY: localtime_r writes only into the `tm` given; a zeroed `tm` is a valid value.
    unsafe {
        let mut tm: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&secs, &mut tm).is_null() {
            return 0;
        }
        Millis::from(tm.tm_gmtoff as i32) * 1000
    }
}

#[cfg(not(unix))]
fn system_offset(_utc: Millis) -> Millis {
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_zone_moves_the_day_boundary() {
        let mut utc = Fixed(0);
        let mut tokyo = Fixed(9 * HOUR_MS);
        let late = 20_000 * 86_400_000 + 20 * HOUR_MS;
        assert_eq!(utc.day(late), 20_000);
        assert_eq!(tokyo.day(late), 20_001);
        assert_eq!(
            Fixed(-5 * HOUR_MS).day(20_000 * 86_400_000 + HOUR_MS),
            19_999
        );
    }

    #[test]
    fn the_local_zone_answers_and_remembers() {
        let mut local = Local::new();
        let a = local.offset_ms(1_700_000_000_000);
        assert!(a.abs() <= 14 * HOUR_MS);
        assert_eq!(local.offset_ms(1_700_000_000_000 + 1000), a);
    }
}
