//! How large a settings list may be. Every cost of the settings is linear in
//! their size except one: a link is searched for every keyword at once, and
//! the keywords found at one place can be as many as the longest keyword is
//! long (`a`, `aa`, `aaa`, …), so a page costs its length times that. The
//! limits keep that product, and the automaton's build, bounded; no real
//! list comes near them (the defaults have 11 and 10 keywords).

/// Items per list (keywords, or allowed domains).
pub const MAX_ITEMS: usize = 10_000;
/// Characters per item, after trimming.
pub const MAX_ITEM_CHARS: usize = 1_000;
/// Characters of the whole list as stored: the automaton's build costs
/// about 100 bytes of memory per keyword character (10,000 items of 1,000
/// characters took 26 s and 1 GB), so the list's total is bounded too.
pub const MAX_LIST_CHARS: usize = 100_000;

/// A list over a limit, with what was found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OverLimit {
    #[error("`{key}` has {count} items; at most {MAX_ITEMS} are supported")]
    TooManyItems { key: &'static str, count: usize },
    #[error("`{key}` is {chars} characters long; at most {MAX_LIST_CHARS} are supported")]
    ListTooLong { key: &'static str, chars: usize },
    #[error(
        "`{key}` item {position} is {chars} characters long; at most {MAX_ITEM_CHARS} are supported"
    )]
    ItemTooLong {
        key: &'static str,
        /// 1-based, in list order.
        position: usize,
        chars: usize,
    },
}

impl OverLimit {
    /// The storage key of the list.
    pub fn key(&self) -> &'static str {
        match self {
            OverLimit::TooManyItems { key, .. }
            | OverLimit::ListTooLong { key, .. }
            | OverLimit::ItemTooLong { key, .. } => key,
        }
    }
}

/// Whether the list stored as `stored` under `key` is over a limit, as
/// `parse` splits it (`settings::parse_list`, passed in so this file needs
/// nothing of the settings, which use it).
pub fn list_over_limit(
    key: &'static str,
    stored: &str,
    parse: fn(&str) -> Vec<String>,
) -> Option<OverLimit> {
    // Cheap bounds first: a list can only be over a limit when its text is.
    let commas = stored.bytes().filter(|&b| b == b',').count();
    if commas < MAX_ITEMS && stored.len() <= MAX_ITEM_CHARS {
        return None;
    }
    let items = parse(stored);
    if items.len() > MAX_ITEMS {
        return Some(OverLimit::TooManyItems {
            key,
            count: items.len(),
        });
    }
    if stored.len() > MAX_LIST_CHARS {
        let chars = stored.chars().count();
        if chars > MAX_LIST_CHARS {
            return Some(OverLimit::ListTooLong { key, chars });
        }
    }
    items.iter().enumerate().find_map(|(i, item)| {
        let chars = item.chars().count();
        (chars > MAX_ITEM_CHARS).then_some(OverLimit::ItemTooLong {
            key,
            position: i + 1,
            chars,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `settings::parse_list`, spelled out.
    fn parse(stored: &str) -> Vec<String> {
        stored
            .split(',')
            .map(str::trim)
            .filter(|i| !i.is_empty())
            .map(str::to_lowercase)
            .collect()
    }

    fn over(key: &'static str, stored: &str) -> Option<OverLimit> {
        list_over_limit(key, stored, parse)
    }

    #[test]
    fn lists_at_the_limits_pass() {
        assert_eq!(over("w", "contact,about"), None);
        assert_eq!(over("w", &vec!["kw"; MAX_ITEMS].join(",")), None);
        assert_eq!(over("b", &"é".repeat(MAX_ITEM_CHARS)), None);
        // Empty items and spaces do not count.
        let spaced = format!(
            " {} ,,,{}",
            "a".repeat(MAX_ITEM_CHARS),
            ",".repeat(MAX_ITEMS)
        );
        assert_eq!(over("d", &spaced), None);
    }

    #[test]
    fn one_item_or_one_character_more_is_named() {
        let many = over("followKeywordsWhite", &vec!["kw"; MAX_ITEMS + 1].join(","));
        assert_eq!(
            many,
            Some(OverLimit::TooManyItems {
                key: "followKeywordsWhite",
                count: MAX_ITEMS + 1
            })
        );
        assert_eq!(
            many.map(|o| o.to_string()).as_deref(),
            Some("`followKeywordsWhite` has 10001 items; at most 10000 are supported")
        );
        let long = format!("blog,{}", "a".repeat(MAX_ITEM_CHARS + 1));
        let long = over("followKeywordsBlack", &long);
        assert_eq!(
            long,
            Some(OverLimit::ItemTooLong {
                key: "followKeywordsBlack",
                position: 2,
                chars: MAX_ITEM_CHARS + 1
            })
        );
        assert_eq!(
            long.as_ref().map(ToString::to_string).as_deref(),
            Some(
                "`followKeywordsBlack` item 2 is 1001 characters long; at most 1000 are supported"
            )
        );
        assert_eq!(long.map(|o| o.key()), Some("followKeywordsBlack"));
        let total = vec!["a".repeat(MAX_ITEM_CHARS); 100].join(",");
        assert_eq!(
            over("followKeywordsWhite", &total)
                .map(|o| o.to_string())
                .as_deref(),
            Some("`followKeywordsWhite` is 100099 characters long; at most 100000 are supported")
        );
    }
}
