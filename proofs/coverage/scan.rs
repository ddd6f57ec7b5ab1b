//! Reading a text copy's numbered results: the headings of theorems,
//! lemmas, corollaries, propositions, facts, remarks, definitions and
//! algorithms, and the tags `(n)` of numbered equations. One reader serves
//! the four copies (Wu & Wang `000`, Hu et al.'s earlier version `002`,
//! Cesari & Colomboni `003`, Hu et al.'s journal version `004`).
//!
//! A heading starts its line with the kind and the number, then an optional
//! parenthesised title (parentheses may nest: `Lemma 7 (Restatement of
//! Lemma 2.9 (Agrawal and Goyal, 2017))`), in one of three shapes:
//! - closed by a period: `Lemma 2.`, `Theorem 1 (Explicit gap-dependent
//!   private regret).` (Wu & Wang, Cesari & Colomboni, the earlier Hu et al.);
//! - alone above a blank line: `Theorem 2`, `Fact 16 (Concentration bound
//!   for Lap(b), …)` (the journal version);
//! - run in, the statement following on the same line after the period:
//!   `Fact 1. (Fact 3.7 in (Dwork et al., 2014)). If , for any , we have`
//!   (the earlier Hu et al., L176, L178).
//!
//! A table cell that names a result (`Theorem 4 (This work)` followed by
//! `(for deterministic setting)`, `Theorem 1 [15] no Laplace distribution`,
//! Wu & Wang L46–L51) has none of these shapes, nor has a sentence about a
//! result (`Theorem 3 is optimal …`), and a proof heading begins with `Proof
//! of`, so none is taken. An algorithm caption is `Algorithm 1` and its
//! capitalised title, short and with no closing period (Wu & Wang L53, the
//! journal version's L140); a sentence about an algorithm (`Algorithm 1 is
//! ϵ-differentially private.`, `Algorithm 3 presents …`) is not.
//!
//! A numbered equation carries its tag once, in one of two places:
//! - closing a display line: the rendered formula, its LaTeX alt-text (which
//!   carries a backslash), then ` (n)` at the very end — so that a formula
//!   printed three times (rendered, LaTeX, annotated, as in the journal
//!   version) is counted once, and a tag in prose (`Combining (5.4) and (6)`,
//!   Cesari & Colomboni L605) is not taken;
//! - opening a line as `(n) |`, where the copy lost the formula (the earlier
//!   Hu et al., L33, L177).

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

/// The longest equation tag taken, in digits.
const TAG: usize = 3;

/// The numbered results announced in `text`, as `(label, line)` with the
/// line 1-based: `("Lemma 2", 283)`, `("Algorithm 1", 53)`, `("eq. (4)", 228)`.
pub fn numbered(text: &str) -> Vec<(String, u32)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let blank_after = lines.get(i + 1).is_none_or(|l| l.trim().is_empty());
        let line = line.trim();
        if let Some(label) = heading(line, blank_after) {
            found.push((label, n));
        } else if let Some(tag) = equation_tag(line) {
            found.push((format!("eq. ({tag})"), n));
        }
    }
    found
}

/// `"Kind N"` when `line` (trimmed) is a heading of a numbered result
/// (`blank_after`: the next line is blank or there is none).
fn heading(line: &str, blank_after: bool) -> Option<String> {
    if let Some(rest) = line.strip_prefix("Algorithm ") {
        let (number, title) = leading_number(rest)?;
        let capitalised = title
            .strip_prefix(' ')
            .and_then(|t| t.chars().next())
            .is_some_and(char::is_uppercase);
        let caption = capitalised && !line.ends_with('.') && line.len() <= CAPTION;
        return caption.then(|| format!("Algorithm {number}"));
    }
    for kind in KINDS {
        let Some(rest) = line.strip_prefix(kind).and_then(|r| r.strip_prefix(' ')) else {
            continue;
        };
        let (number, tail) = leading_number(rest)?;
        return heading_tail(tail, blank_after).then(|| format!("{kind} {number}"));
    }
    None
}

/// Whether `tail`, what follows a heading's number, has one of the three
/// shapes of the module's documentation: `[.][ (title)][.]` and then
/// nothing (closed by one of its periods or by the blank line after), or a
/// space and the run-in statement after a period that ends the heading.
fn heading_tail(tail: &str, blank_after: bool) -> bool {
    let (number_period, t) = strip_period(tail);
    let (titled, t) = match t.strip_prefix(' ').and_then(title_end) {
        Some(after) => (true, after),
        None => (false, t),
    };
    let (title_period, statement) = strip_period(t);
    if statement.is_empty() {
        return number_period || title_period || blank_after;
    }
    let closed = if titled { title_period } else { number_period };
    closed && statement.starts_with(' ')
}

/// `s` less a leading period, and whether there was one.
fn strip_period(s: &str) -> (bool, &str) {
    s.strip_prefix('.').map_or((false, s), |r| (true, r))
}

/// What follows the balanced parenthesised group that opens `s`, if `s`
/// opens with one.
fn title_end(s: &str) -> Option<&str> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            _ if depth == 0 => return None,
            _ => {}
        }
        if depth == 0 {
            return Some(&s[i + 1..]);
        }
    }
    None
}

/// The decimal number at the start of `s` and what follows it.
fn leading_number(s: &str) -> Option<(&str, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    (end > 0).then(|| s.split_at(end))
}

/// Whether `s` is an equation tag's number: one to [`TAG`] digits.
fn is_tag(s: &str) -> bool {
    (1..=TAG).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
}

/// The tag `n` of a (trimmed) display line ending in ` (n)` whose text
/// carries LaTeX, or of a line opening with `(n) |`.
fn equation_tag(line: &str) -> Option<&str> {
    if let Some(inner) = line.strip_suffix(')') {
        if let Some(open) = inner.rfind('(') {
            let (before, tag) = (&inner[..open], &inner[open + 1..]);
            if is_tag(tag) && before.ends_with(' ') && before.contains('\\') {
                return Some(tag);
            }
        }
    }
    let (tag, _) = line.strip_prefix('(')?.split_once(") |")?;
    is_tag(tag).then_some(tag)
}

#[cfg(test)]
mod tests {
    use super::numbered;

    /// The `(label, line)` pairs of a list `L<n> label; L<n> label; …`, as
    /// [`numbered`] returns them.
    fn listed(list: &str) -> Vec<(String, u32)> {
        list.split(';')
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .map(|e| {
                let (line, label) = e.split_once(' ').expect("`L<n> label`");
                let line = line.strip_prefix('L').and_then(|n| n.parse().ok());
                (label.to_string(), line.expect("`L<n>`"))
            })
            .collect()
    }

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
        let expected = listed(
            "L5 Algorithm 1; L6 Corollary 1; L8 Theorem 1; L9 Lemma 10; L11 eq. (1); \
             L13 Lemma 2; L17 Theorem 12; L19 Fact 16",
        );
        assert_eq!(numbered(text), expected);
    }

    /// Lines in the shapes of Hu et al.'s two copies (the journal version's
    /// L140, L160, L246, each standalone heading above a blank line as
    /// there; the earlier version's L57, L109, L176, L177), with the
    /// sentences about a result that must not count.
    #[test]
    fn hu_et_al_headings_and_tags_are_read_and_sentences_are_not() {
        let text = "\
Theorem 2

Algorithm 1 is ϵ-differentially private.
Algorithm 1 Anytime-Lazy-UCB
Lemma 7 (Restatement of Lemma 2.9 (Agrawal and Goyal, 2017))

Theorem 3 is optimal in the sense that (2) holds
Algorithm 3 presents the pseudo-code of Lazy-DP-TS.
Corollary 9 (Problem-independent bound).
Fact 1. (Fact 3.7 in (Dwork et al., 2014)). If , we have
x ≤ y,x\\leq y,italic_x ≤ italic_y , (12)
(6) |
see inequality (7).
Theorem
Lemmas 3 and 4";
        let expected = listed(
            "L1 Theorem 2; L4 Algorithm 1; L5 Lemma 7; L9 Corollary 9; L10 Fact 1; \
             L11 eq. (12); L12 eq. (6)",
        );
        assert_eq!(numbered(text), expected);
    }

    /// The three heading shapes and what falls just outside each: a run-in
    /// statement needs the period that ends the heading (after the title
    /// when there is one), a title its closing parenthesis, and a heading
    /// with neither period nor statement the blank line after it.
    #[test]
    fn a_heading_has_one_of_three_shapes() {
        let text = "\
Lemma 3. Let x be a point.
Lemma 4 (A title). Let x be a point.
Lemma 5 (A title) let x be a point.
Lemma 6. (A title) Let x be a point.
Lemma 7 (An open (title).
Lemma 8 (A title) and (another).
Lemma 9.5 is used below.
Lemma 10 (A title)
Lemma 11.

(13) | x
(1234) |
";
        let expected = listed("L1 Lemma 3; L2 Lemma 4; L9 Lemma 11; L11 eq. (13)");
        assert_eq!(numbered(text), expected);
    }

    /// The numbered results of the four text copies, as `grep -nE
    /// '^(Theorem|Lemma|Corollary|Proposition|Fact|Remark|Definition|Algorithm) [0-9]+'`
    /// lists the headings less the table cells (Wu & Wang L46, L47, L50,
    /// whose space after the kind is a no-break space) and less the
    /// sentences (`grep -vE '^[A-Za-z]+ [0-9]+ [a-z]'`: the number followed by
    /// a lower-case word), and `grep -nE ' \([0-9]+\)$'` on lines with a
    /// backslash and `grep -nE '^\([0-9]+\) \|'` list the equation tags.
    /// Skipped when the papers are neither beside the clone nor in
    /// `$DPDTOL_PAPERS` (required under CI).
    #[test]
    fn the_four_papers_numbered_results_are_found() {
        let expected: [(&str, &str); 4] = [
            (
                "000_662f56866ae4d344.txt",
                "\
                L53 Algorithm 1; L94 eq. (1); L100 Definition 1; L124 Theorem 1; L128 eq. (2); \
                L158 Theorem 2; L162 eq. (3); L168 Corollary 1; L176 Corollary 2; L184 Lemma 1; \
                L228 eq. (4); L253 Theorem 3; L263 Corollary 3; L273 Theorem 4; L283 Lemma 2; \
                L298 Lemma 3; L310 eq. (5); L314 eq. (6); L400 Lemma 4; L425 eq. (7); \
                L433 eq. (8); L569 eq. (9);",
            ),
            (
                "002_f205959389028abf.txt",
                "\
                L33 eq. (1); L35 eq. (2); L38 Definition 1; L51 eq. (3); L53 eq. (4); \
                L57 Theorem 2; L62 Theorem 3; L64 Theorem 4; L69 eq. (5); L75 Theorem 5; \
                L86 Theorem 6; L94 Theorem 7; L97 Corollary 8; L109 Corollary 9; \
                L119 Theorem 10; L176 Fact 1; L177 eq. (6); L178 Fact 2; L179 eq. (7); \
                L186 eq. (8); L189 eq. (9); L191 eq. (10); L193 eq. (11); L197 eq. (12); \
                L200 eq. (13); L203 eq. (14); L205 eq. (15); L209 eq. (16); L211 eq. (17); \
                L216 eq. (18); L218 eq. (19); L220 Lemma 11; L224 eq. (21); L226 eq. (22); \
                L227 eq. (23); L228 eq. (24); L230 eq. (25); L232 eq. (26); L234 eq. (27); \
                L237 eq. (28); L242 eq. (29); L252 eq. (32); L254 eq. (33); L257 eq. (34); \
                L259 eq. (35); L268 eq. (36); L270 eq. (37); L272 Lemma 12; L277 eq. (39); \
                L279 eq. (40); L280 eq. (41); L281 eq. (42); L285 eq. (44); L287 eq. (45); \
                L289 eq. (46); L291 eq. (47); L296 eq. (49); L299 eq. (50); L301 eq. (51); \
                L305 eq. (52); L307 eq. (53); L309 eq. (54); L313 Lemma 13; L319 eq. (55); \
                L336 eq. (57); L354 eq. (58);",
            ),
            (
                "003_e72dfed5bfd856b1.txt",
                "\
                L121 Definition 1; L161 Theorem 1; L165 eq. (1); L169 eq. (2); L173 Corollary 1; \
                L178 Remark 1; L190 Lemma 1; L207 Lemma 2; L243 Definition 2; L248 Lemma 3; \
                L294 Proposition 1; L362 Lemma 4; L395 Lemma 5; L408 eq. (3); L436 eq. (4); \
                L484 eq. (5); L528 eq. (6);",
            ),
            (
                "004_e2b45d6dc248149d.txt",
                "\
                L26 eq. (1); L32 eq. (2); L50 eq. (3); L54 eq. (4); L62 eq. (5); L66 eq. (6); \
                L80 eq. (7); L88 Definition 1; L140 Algorithm 1; L160 Theorem 2; L166 Theorem 3; \
                L180 Algorithm 2; L190 Algorithm 3; L204 Theorem 4; L210 Theorem 5; \
                L218 eq. (8); L232 Lemma 6; L246 Lemma 7; L267 Algorithm 4; L271 Theorem 8; \
                L279 eq. (9); L283 Theorem 9; L291 Corollary 10; L299 Corollary 11; \
                L315 Theorem 12; L444 Fact 13; L448 eq. (10); L449 Fact 14; L453 eq. (11); \
                L454 Fact 15; L458 eq. (12); L459 Fact 16; L463 eq. (13); L464 Fact 17; \
                L468 eq. (14); L472 eq. (15); L476 Fact 18; L480 eq. (16); L494 eq. (17); \
                L498 eq. (18); L504 eq. (19); L508 eq. (20); L512 eq. (21); L516 eq. (22); \
                L528 eq. (23); L534 eq. (24); L540 eq. (25); L544 Lemma 19; L550 eq. (26); \
                L554 eq. (27); L558 eq. (28); L564 eq. (29); L570 eq. (30); L578 eq. (31); \
                L592 eq. (32); L597 Lemma 20; L601 eq. (33); L605 eq. (34); L609 eq. (35); \
                L615 eq. (36); L625 Lemma 21; L629 eq. (37); L633 eq. (38); L639 eq. (39); \
                L645 eq. (40); L649 eq. (41); L659 eq. (42); L663 eq. (43); L667 eq. (44); \
                L671 Lemma 22; L677 eq. (45); L681 Lemma 23; L687 eq. (46); L701 eq. (47); \
                L705 eq. (48); L709 eq. (49); L713 eq. (50); L723 Lemma 24; L727 eq. (51); \
                L731 eq. (52); L752 eq. (53); L765 eq. (54); L798 eq. (55); L846 eq. (56);",
            ),
        ];
        for (file, want) in expected {
            let Some(text) = paper(file) else { return };
            assert_eq!(numbered(&text), listed(want), "{file}");
        }
    }

    /// The text copy `file` ([`super::super::paper_text`]); `None` when
    /// `DPDTOL_PAPERS` is unset (the check is skipped, and says so).
    fn paper(file: &str) -> Option<String> {
        super::super::paper_text(file).unwrap_or_else(|e| panic!("{e}"))
    }
}
