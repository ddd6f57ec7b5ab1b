//! The numbered results announced by the text copies of Hu et al.'s two
//! versions (`004_…txt`, `002_…txt`), read from the text itself.
//!
//! A result is announced by a line that starts with its kind and number
//! (`Theorem 2`, `Lemma 7 (Restatement …)`, `Fact 1. (Fact 3.7 …)`,
//! `Algorithm 4 RNM-FTNL`): after the number comes nothing, a full stop, a
//! parenthesis or a capitalised title. A line that merely starts a sentence
//! about the result (`Algorithm 1 is ϵ-differentially private.`, `Theorem 3
//! is optimal …`, `Algorithm 3 presents …`) goes on with a lower-case word
//! and is not a heading.
//!
//! A numbered equation carries its tag once: at the end of the line in the
//! journal version (after the rendered, LaTeX and annotated copies of the
//! formula, so that the formula printed three times is counted once), at the
//! start of the line as `(n) |` in the earlier version, whose formulas the
//! copy lost.

/// The kinds of numbered results.
const KINDS: [&str; 7] = [
    "Theorem",
    "Lemma",
    "Corollary",
    "Proposition",
    "Fact",
    "Algorithm",
    "Definition",
];

/// `(label, line)` for every numbered result and equation tag of `text`,
/// lines 1-based, labels `"Theorem 2"` and `"eq. (29)"`.
pub(super) fn announced(text: &str) -> Vec<(String, u32)> {
    let mut found = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let trimmed = raw.trim();
        if let Some(label) = result_heading(trimmed) {
            found.push((label, line));
        } else if let Some(tag) = equation_tag(trimmed) {
            found.push((format!("eq. ({tag})"), line));
        }
    }
    found
}

/// `"Kind n"` when `line` is the heading of a numbered result.
fn result_heading(line: &str) -> Option<String> {
    let kind = KINDS
        .iter()
        .find(|k| line.strip_prefix(**k).is_some_and(|r| r.starts_with(' ')))?;
    let rest = &line[kind.len() + 1..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    if digits.is_empty() {
        return None;
    }
    let after = rest[digits.len()..].trim_start_matches('.').trim_start();
    let heading = after.is_empty()
        || after.starts_with('(')
        || after.chars().next().is_some_and(char::is_uppercase);
    heading.then(|| format!("{kind} {digits}"))
}

/// The number `n` of an equation tag: ` (n)` ending the line, or `(n) |`
/// starting it.
fn equation_tag(line: &str) -> Option<u32> {
    let number = |s: &str| -> Option<u32> {
        (!s.is_empty() && s.len() <= 3 && s.chars().all(|c| c.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    if let Some(body) = line.strip_suffix(')') {
        if let Some(open) = body.rfind(" (") {
            if let Some(n) = number(&body[open + 2..]) {
                return Some(n);
            }
        }
    }
    let inner = line.strip_prefix('(')?;
    let close = inner.find(") |")?;
    number(&inner[..close])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines in the shapes of the two copies (the heading forms read off
    /// `004_…txt` L140, L160, L246 and `002_…txt` L57, L109, L176), with the
    /// sentences about a result that must not count.
    #[test]
    fn headings_and_tags_are_read_and_sentences_are_not() {
        let text = "Theorem 2\n\
                    Algorithm 1 is ϵ-differentially private.\n\
                    Algorithm 1 Anytime-Lazy-UCB\n\
                    Lemma 7 (Restatement of Lemma 2.9 (Agrawal and Goyal, 2017))\n\
                    Theorem 3 is optimal in the sense that (2) holds\n\
                    Algorithm 3 presents the pseudo-code of Lazy-DP-TS.\n\
                    Corollary 9 (Problem-independent bound).\n\
                    Fact 1. (Fact 3.7 in (Dwork et al., 2014)). If , we have\n\
                    x ≤ y,x\\leq y,italic_x ≤ italic_y , (12)\n\
                    (6) |\n\
                    see inequality (7).\n\
                    Theorem\n\
                    Lemmas 3 and 4";
        let found = announced(text);
        let expected: Vec<(String, u32)> = [
            ("Theorem 2", 1),
            ("Algorithm 1", 3),
            ("Lemma 7", 4),
            ("Corollary 9", 7),
            ("Fact 1", 8),
            ("eq. (12)", 9),
            ("eq. (6)", 10),
        ]
        .iter()
        .map(|(l, n)| ((*l).to_string(), *n))
        .collect();
        assert_eq!(found, expected);
    }
}

/// Hu et al.'s two maps list their items in reading order (the order of
/// [`super::Item::line`]), so that a reader can walk a map beside the text.
#[cfg(test)]
mod order {
    #[test]
    fn the_two_maps_are_in_reading_order() {
        for items in [super::super::hu004::ITEMS, super::super::hu002::ITEMS] {
            for pair in items.windows(2) {
                assert!(
                    pair[0].line <= pair[1].line,
                    "{} (L{}) before {} (L{})",
                    pair[0].label,
                    pair[0].line,
                    pair[1].label,
                    pair[1].line
                );
            }
        }
    }
}
