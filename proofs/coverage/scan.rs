//! Reading a text copy's numbered results: the headings of theorems,
//! lemmas, corollaries, propositions, facts, remarks, definitions and
//! algorithms, and the tags `(n)` of numbered equations.
//!
//! A heading stands on a line of its own: the kind, the number, an optional
//! parenthesised title, and either a closing period (`Lemma 2.`, `Theorem 1
//! (Explicit gap-dependent private regret).` in Wu & Wang, Cesari &
//! Colomboni and Hu et al.'s earlier version) or a blank line after it
//! (`Theorem 2`, `Fact 16 (Concentration bound for Lap(b), …)` in the
//! journal version). A table cell that names a result (`Theorem 4 (This
//! work)` followed by `(for deterministic setting)`, `Theorem 1 [15] no
//! Laplace distribution`, Wu & Wang L46–L51) has neither, and a proof
//! heading begins with `Proof of`, so neither is taken. An algorithm caption
//! is `Algorithm 1` and its title, short and with no closing period (Wu &
//! Wang L53, the journal version's L140); a sentence about an algorithm
//! (`Algorithm 1 is -differentially private.`) ends with one.
//!
//! An equation tag closes a display line: the rendered formula, its LaTeX
//! alt-text (which carries a backslash), then ` (n)` at the very end. A
//! tag in prose (`Combining (5.4) and (6)`, Cesari & Colomboni L605) is
//! not at the end of a line with LaTeX, so it is not taken.

/// The kinds of numbered results a heading can announce.
const KINDS: &[&str] = &[
    "Theorem",
    "Lemma",
    "Corollary",
    "Proposition",
    "Fact",
    "Remark",
    "Definition",
];

/// The longest algorithm caption taken (a caption is a title, not prose).
const CAPTION: usize = 160;

/// The numbered results announced in `text`, as `(label, line)` with the
/// line 1-based: `("Lemma 2", 283)`, `("Algorithm 1", 53)`, `("eq. (4)", 228)`.
pub(super) fn numbered(text: &str) -> Vec<(String, u32)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let blank_after = lines.get(i + 1).is_none_or(|l| l.trim().is_empty());
        if let Some(label) = heading(line.trim(), blank_after) {
            found.push((label, n));
        } else if let Some(tag) = equation_tag(line) {
            found.push((format!("eq. ({tag})"), n));
        }
    }
    found
}

/// `"Kind N"` when `line` is a heading of a numbered result (`blank_after`:
/// the next line is blank or there is none).
fn heading(line: &str, blank_after: bool) -> Option<String> {
    if let Some(rest) = line.strip_prefix("Algorithm ") {
        let (number, title) = leading_number(rest)?;
        let caption = title.starts_with(' ') && !line.ends_with('.') && line.len() <= CAPTION;
        return caption.then(|| format!("Algorithm {number}"));
    }
    for kind in KINDS {
        let Some(rest) = line.strip_prefix(kind).and_then(|r| r.strip_prefix(' ')) else {
            continue;
        };
        let (number, tail) = leading_number(rest)?;
        let body = tail.strip_suffix('.').unwrap_or(tail);
        let shape = body.is_empty() || (body.starts_with(" (") && body.ends_with(')'));
        let closed = tail.ends_with('.') || blank_after;
        return (shape && closed).then(|| format!("{kind} {number}"));
    }
    None
}

/// The decimal number at the start of `s` and what follows it.
fn leading_number(s: &str) -> Option<(&str, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    (end > 0).then(|| s.split_at(end))
}

/// The tag `n` of a display line ending in ` (n)` whose text carries LaTeX.
fn equation_tag(line: &str) -> Option<&str> {
    let line = line.trim_end();
    let inner = line.strip_suffix(')')?;
    let open = inner.rfind('(')?;
    let tag = &inner[open + 1..];
    let before = &inner[..open];
    let is_tag = !tag.is_empty() && tag.len() <= 3 && tag.bytes().all(|b| b.is_ascii_digit());
    (is_tag && before.ends_with(' ') && before.contains('\\')).then_some(tag)
}

#[cfg(test)]
mod tests {
    use super::numbered;

    /// Lines written after the text copies' own (Wu & Wang L46–L53, L94,
    /// L168, L188; Cesari & Colomboni L161, L605; the earlier Hu et al. L58;
    /// the journal version L315, L459): what is a heading and what only
    /// names one.
    #[test]
    fn headings_and_tags_are_told_from_mentions() {
        let text = "\
Theorem 1 [15] no Laplace distribution
Theorem 2 and Corollary 1
Theorem 4 (This work)
(for deterministic setting)
Algorithm 1 Variants of RNM-FTNL(BB, x\\mathcal{Q})
Corollary 1.
Proof of Lemma 1..
Theorem 1 (Explicit gap-dependent private regret).
Lemma 10 (Two digits).
Combining (5.4) and (6) proves the lemma. ∎
x=1(1) x=1 \\quad (1)
see the proof (2)
Lemma 2.
Lemma.
Lemmas 3 and 4.
Algorithm 2 is -differentially private.
Theorem 12

Fact 16 (Bound for Lap(b)Lap\\text{Lap}(b), Fact 3.7 (2014))
";
        let found = numbered(text);
        let expected: Vec<(String, u32)> = [
            ("Algorithm 1", 5),
            ("Corollary 1", 6),
            ("Theorem 1", 8),
            ("Lemma 10", 9),
            ("eq. (1)", 11),
            ("Lemma 2", 13),
            ("Theorem 12", 17),
            ("Fact 16", 19),
        ]
        .iter()
        .map(|(l, n)| ((*l).to_string(), *n))
        .collect();
        assert_eq!(found, expected);
    }

    /// The headings of the two papers' text copies, as `grep -nE
    /// '^(Theorem|Lemma|Corollary|Proposition|Fact|Remark|Definition|Algorithm) [0-9]+'`
    /// lists them less the table cells (Wu & Wang L46, L47, L50), and the
    /// tags `grep -nE ' \([0-9]+\)$'` finds on display lines. Skipped when
    /// the papers are neither beside the clone nor in `$DPDTOL_PAPERS`
    /// (required under CI).
    #[test]
    fn the_two_papers_headings_are_found() {
        let dir = std::env::var("DPDTOL_PAPERS").unwrap_or_else(|_| {
            concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/papers").to_string()
        });
        let expected: [(&str, &[(&str, u32)]); 2] = [
            (
                "000_662f56866ae4d344.txt",
                &[
                    ("Algorithm 1", 53),
                    ("eq. (1)", 94),
                    ("Definition 1", 100),
                    ("Theorem 1", 124),
                    ("eq. (2)", 128),
                    ("Theorem 2", 158),
                    ("eq. (3)", 162),
                    ("Corollary 1", 168),
                    ("Corollary 2", 176),
                    ("Lemma 1", 184),
                    ("eq. (4)", 228),
                    ("Theorem 3", 253),
                    ("Corollary 3", 263),
                    ("Theorem 4", 273),
                    ("Lemma 2", 283),
                    ("Lemma 3", 298),
                    ("eq. (5)", 310),
                    ("eq. (6)", 314),
                    ("Lemma 4", 400),
                    ("eq. (7)", 425),
                    ("eq. (8)", 433),
                    ("eq. (9)", 569),
                ],
            ),
            (
                "003_e72dfed5bfd856b1.txt",
                &[
                    ("Definition 1", 121),
                    ("Theorem 1", 161),
                    ("eq. (1)", 165),
                    ("eq. (2)", 169),
                    ("Corollary 1", 173),
                    ("Remark 1", 178),
                    ("Lemma 1", 190),
                    ("Lemma 2", 207),
                    ("Definition 2", 243),
                    ("Lemma 3", 248),
                    ("Proposition 1", 294),
                    ("Lemma 4", 362),
                    ("Lemma 5", 395),
                    ("eq. (3)", 408),
                    ("eq. (4)", 436),
                    ("eq. (5)", 484),
                    ("eq. (6)", 528),
                ],
            ),
        ];
        for (file, want) in expected {
            let Ok(text) = std::fs::read_to_string(format!("{dir}/{file}")) else {
                assert!(
                    std::env::var("CI").is_err(),
                    "{file}: the papers must be beside the clone under CI"
                );
                return;
            };
            let want: Vec<(String, u32)> =
                want.iter().map(|(l, n)| ((*l).to_string(), *n)).collect();
            assert_eq!(numbered(&text), want, "{file}");
        }
    }
}
