//! Shortening a URL or path to a width, keeping the part that tells it apart.
//! Pure: widths come from a per-character measure (the font's glyph widths in
//! the window, a fixed width in tests), so proportional fonts fit exactly
//! without laying out the text over and over.

/// The mark that stands for what was left out.
pub const ELLIPSIS: char = '…';

/// How a URL is shown in `max` points: whole when it fits, else its host,
/// "…", and as much of the end of the path as fits, from a "/" when it can.
/// The end of the path is what tells links to one site apart, the host what
/// tells sites apart; the scheme ("https://") tells nothing and goes first.
/// The host stays as long as it fits, however little of the path does; only
/// when the host itself does not fit does the end stay alone. Returns (the kept start, the kept
/// end): drawn as start + "…" + end, or just start when nothing was left out
/// (end is `None`).
pub fn elide_middle(
    text: &str,
    host_end: usize,
    max: f32,
    width: impl Fn(char) -> f32,
) -> (&str, Option<&str>) {
    let measure = |s: &str| s.chars().map(&width).sum::<f32>();
    if measure(text) <= max {
        return (text, None);
    }
    let host_end = floor_boundary(text, host_end);
    let (head, tail) = text.split_at(host_end);
    let host = &head[head.find("://").map_or(0, |i| i + 3)..];
    let room = max - measure(host) - width(ELLIPSIS);
    // At least a few characters of the path, or the host gives way.
    let enough = |end: &str| end.chars().count() >= tail.chars().count().min(6);
    if room < 0.0 {
        return ("", Some(longest_end(text, max - width(ELLIPSIS), &width)));
    }
    let end = longest_end(tail, room, &width);
    let whole_segments = from_a_slash(end);
    (
        host,
        Some(Some(whole_segments).filter(|e| enough(e)).unwrap_or(end)),
    )
}

/// `end` from its first "/" on, so it starts with a whole path segment
/// ("…/kontakt/presse.html", not "…akt/presse.html"); unchanged when the
/// last segment alone is cut.
fn from_a_slash(end: &str) -> &str {
    match end.find('/') {
        Some(at) if at + 1 < end.len() => &end[at..],
        _ => end,
    }
}

/// `text` in `max` points: whole, or "…" and the longest end that fits (the
/// page field shows the end of a long path, where the file name is).
pub fn elide_start(text: &str, max: f32, width: impl Fn(char) -> f32) -> Option<&str> {
    let total: f32 = text.chars().map(&width).sum();
    (total > max).then(|| longest_end(text, max - width(ELLIPSIS), &width))
}

/// The longest end of `text` no wider than `room`.
fn longest_end<'a>(text: &'a str, room: f32, width: &impl Fn(char) -> f32) -> &'a str {
    let mut used = 0.0;
    let mut start = text.len();
    for (i, c) in text.char_indices().rev() {
        used += width(c);
        if used > room {
            break;
        }
        start = i;
    }
    &text[start..]
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character one point wide: widths are character counts.
    fn one(_: char) -> f32 {
        1.0
    }

    fn shown((start, end): (&str, Option<&str>)) -> String {
        match end {
            Some(end) => format!("{start}{ELLIPSIS}{end}"),
            None => start.to_owned(),
        }
    }

    const KONTAKT: &str = "https://www.beltz.de/kinder_jugendbuch/kontakt/presse.html";
    const HOST_END: usize = "https://www.beltz.de".len();

    #[test]
    fn a_url_that_fits_is_shown_whole() {
        assert_eq!(elide_middle(KONTAKT, HOST_END, 100.0, one), (KONTAKT, None));
    }

    #[test]
    fn a_long_url_keeps_its_host_and_the_end_of_its_path() {
        let shown = shown(elide_middle(KONTAKT, HOST_END, 40.0, one));
        assert_eq!(shown, "www.beltz.de…/kontakt/presse.html");
        assert!(shown.chars().count() <= 40);
        // Five links to one site differ in the end that stays.
        let other = KONTAKT.replace("presse", "lizenzen");
        assert_ne!(
            shown,
            self::shown(elide_middle(&other, HOST_END, 40.0, one))
        );
    }

    #[test]
    fn a_cut_last_segment_is_kept_as_far_as_it_fits() {
        let shown = shown(elide_middle(KONTAKT, HOST_END, 24.0, one));
        assert_eq!(shown, "www.beltz.de…presse.html");
    }

    #[test]
    fn the_host_stays_while_it_fits_however_little_of_the_path_does() {
        let shown = shown(elide_middle(KONTAKT, HOST_END, 16.0, one));
        assert_eq!(shown, "www.beltz.de…tml");
        assert_eq!(
            self::shown(elide_middle(KONTAKT, HOST_END, 13.0, one)),
            "www.beltz.de…"
        );
    }

    #[test]
    fn when_even_the_host_does_not_fit_the_end_stays() {
        let shown = shown(elide_middle(KONTAKT, HOST_END, 10.0, one));
        assert_eq!(shown, "…esse.html");
    }

    #[test]
    fn wide_characters_count_by_their_width_and_boundaries_hold() {
        let url = "https://例え.jp/パス/ページ/長い名前";
        let host_end = "https://例え.jp".len();
        let wide = |c: char| if c.is_ascii() { 1.0 } else { 2.0 };
        let (start, end) = elide_middle(url, host_end, 24.0, wide);
        // "…/長い名前" would be too short a piece: the cut stays mid-segment.
        assert_eq!((start, end), ("例え.jp", Some("ページ/長い名前")));
        // A host end inside a character is moved back to its start.
        let inside = "https://例".len() + 1;
        assert_eq!(floor_boundary(url, inside), "https://例".len());
    }

    #[test]
    fn the_start_is_left_out_of_a_long_path() {
        let path = "/home/user/saved/pages/beltz/kontakt.html";
        assert_eq!(elide_start(path, 100.0, one), None);
        assert_eq!(elide_start(path, 20.0, one), Some("/beltz/kontakt.html"));
        assert_eq!(elide_start(path, 0.0, one), Some(""));
    }
}
