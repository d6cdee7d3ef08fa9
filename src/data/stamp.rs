//! The time now as text, in UTC, without a calendar crate: for when a template set was made and
//! for naming game logs.

use std::time::{SystemTime, UNIX_EPOCH};

/// Seconds since 1970 now.
pub fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Year, month, day, hour, minute, second (UTC) of seconds since 1970.
pub fn civil(secs: u64) -> (i64, u32, u32, u32, u32, u32) {
    let days = (secs / 86_400) as i64;
    let rest = secs % 86_400;
    // Days to a date in the proleptic Gregorian calendar (eras of 400 years from 0000-03-01).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    let (h, m, s) = (rest / 3600, rest / 60 % 60, rest % 60);
    (year, month, day, h as u32, m as u32, s as u32)
}

/// Like `2026-11-26 09:41:07 UTC`.
pub fn text(secs: u64) -> String {
    let (y, mo, d, h, mi, s) = civil(secs);
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02} UTC")
}

/// Like `20261126-094107`: sorts in time order, fits any file system.
pub fn file_text(secs: u64) -> String {
    let (y, mo, d, h, mi, s) = civil(secs);
    format!("{y:04}{mo:02}{d:02}-{h:02}{mi:02}{s:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_across_leap_years_and_centuries() {
        assert_eq!(text(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(text(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(text(4_107_542_399), "2100-02-28 23:59:59 UTC");
        assert_eq!(text(4_107_542_400), "2100-03-01 00:00:00 UTC");
        assert_eq!(file_text(1_795_772_467), "20261127-094107");
    }
}
