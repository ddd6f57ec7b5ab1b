//! Machine-checked claims of the papers: the shape of a registry entry, the
//! runner, and the report (`dpdtol verify`, `proofs/REPORT.md`).
//!
//! The registry itself lives in `proofs/` (module [`crate::proofs`]): one
//! [`Claim`] per lemma, theorem, corollary, numbered equation or explicit
//! constant, each with its source, its statement in words and in mathematics,
//! the domain or instance grid it is checked on, and a check that returns an
//! [`Outcome`] with evidence. A claim ends in one of four [`Status`]es:
//!
//! * **certified** — proved over the whole stated domain, by interval
//!   branch-and-bound ([`bnb`]) with outward-rounded arithmetic, plus a
//!   checked argument for an unbounded part of the domain;
//! * **holds-on-instances** — true on every instance of the grid written in
//!   the entry, each decided exactly or by separated enclosures;
//! * **refuted** — false, with a witness (a point, an instance, a pair of
//!   neighbouring loss sequences) whose evaluation separates from the claim;
//! * **undecided** — neither, and the detail says why (an enclosure that
//!   straddles the bound at the precision limit, a check that failed, a
//!   statistical audit with no power: "no evidence").
//!
//! The refuted claims are grouped by root cause into the papers' errata
//! ([`errata`], `proofs/ERRATA.md`).

pub mod bnb;
pub mod coverage;
pub mod errata;
mod markdown;
#[cfg(feature = "cli")]
pub mod progress;
pub mod search;

pub use self::markdown::{
    errors_table, splice_block, splice_errata, statuses_in_markdown, to_markdown, ERRORS_BEGIN,
    ERRORS_END,
};

use crate::error::{Error, Result};
use crate::report::verify::{
    ClaimKeys, ClaimList, Coverage, ListedClaim, ShardKeys, Summary, VerifyReport,
};
use crate::report::SchemaVersion;
use serde_json::Value;
use std::cmp::Ordering;
use std::fmt::Write;
use std::time::Instant;

/// The papers whose claims are checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Paper {
    /// Cesari & Colomboni, *Optimal Gap-Dependent Regret for Private
    /// Stochastic Decision-Theoretic Online Learning* (2026), `003`.
    CesariColomboni,
    /// Hu, Huang, Mehta & Hegde, *Near-Optimal Algorithms for Differentially
    /// Private Online Learning in a Stochastic Environment* (journal), `004`.
    Hu,
    /// Hu, Huang & Mehta, the earlier version of the same work, `002`.
    HuEarlier,
    /// Wu & Wang, *New Rates in Stochastic Decision-Theoretic Online Learning
    /// under Differential Privacy* (ALT 2026), `000`.
    WuWang,
}

impl Paper {
    /// The short citation printed in reports.
    pub fn cite(self) -> &'static str {
        match self {
            Paper::CesariColomboni => "Cesari & Colomboni (2026)",
            Paper::Hu => "Hu, Huang, Mehta & Hegde (journal version)",
            Paper::HuEarlier => "Hu, Huang & Mehta (earlier version)",
            Paper::WuWang => "Wu & Wang (ALT 2026)",
        }
    }

    /// The claim-id prefix of the paper (`cc`, `ww`, `hu`; see [`Claim::id`]).
    pub fn prefix(self) -> &'static str {
        match self {
            Paper::CesariColomboni => "cc",
            Paper::Hu | Paper::HuEarlier => "hu",
            Paper::WuWang => "ww",
        }
    }
}

/// Where a claim is stated.
#[derive(Clone, Copy, Debug)]
pub struct Source {
    /// The paper.
    pub paper: Paper,
    /// The numbered item: `"Lemma 2 (iv)"`, `"Theorem 1, eq. (1)"`.
    pub number: &'static str,
    /// Where in the text and what for: `"L240, in the proof of Lemma 5"`.
    pub context: &'static str,
}

impl Source {
    /// `"Cesari & Colomboni (2026), Lemma 2 (iv) — L240, …"`.
    pub fn text(&self) -> String {
        format!("{}, {} — {}", self.paper.cite(), self.number, self.context)
    }
}

/// How a claim is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Interval branch-and-bound over a continuum ([`bnb`]), certified.
    BranchAndBound,
    /// Exact or certified evaluation on every instance of a written grid.
    InstanceGrid,
    /// The exhaustive privacy checker ([`crate::privacy::check`]) on every
    /// pair of neighbouring loss sequences of each problem of a grid.
    PrivacyChecker,
    /// An identity of polynomials or linear forms decided in exact rational
    /// arithmetic (coefficients compared, or agreement on enough points to
    /// determine a polynomial of the stated degree), so certified over the
    /// whole domain.
    ExactAlgebra,
    /// A statistical test on simulated runs (f64 Monte Carlo); the detail
    /// names the test and its confidence level. Never a proof.
    Statistical,
}

impl Method {
    /// `"branch-and-bound"`, `"instance-grid"`, `"privacy-checker"`,
    /// `"exact-algebra"` or `"statistical"`.
    pub fn name(self) -> &'static str {
        match self {
            Method::BranchAndBound => "branch-and-bound",
            Method::InstanceGrid => "instance-grid",
            Method::PrivacyChecker => "privacy-checker",
            Method::ExactAlgebra => "exact-algebra",
            Method::Statistical => "statistical",
        }
    }
}

/// Whether `cargo test` runs the claim (fast) or only the `--ignored` sweep
/// and `dpdtol verify` (slow: more than a few seconds in a debug build).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cost {
    /// Seconds at most, in a debug build (dependencies optimised, as
    /// `Cargo.toml` sets for dev and test builds).
    Fast,
    /// Longer: run by `cargo test -- --ignored` and `dpdtol verify`.
    Slow,
}

/// The verdict on a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// Proved over the whole stated domain.
    Certified,
    /// True on every instance of the entry's grid.
    HoldsOnInstances,
    /// False, with a witness.
    Refuted,
    /// Not decided; the detail says why (for a statistical audit that
    /// told no neighbouring inputs apart, "no evidence").
    Undecided,
}

impl Status {
    /// The JSON name: `"certified"`, `"holds-on-instances"`, `"refuted"`,
    /// `"undecided"`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Certified => "certified",
            Status::HoldsOnInstances => "holds-on-instances",
            Status::Refuted => "refuted",
            Status::Undecided => "undecided",
        }
    }

    /// Every status, in report order.
    pub const ALL: [Status; 4] = [
        Status::Certified,
        Status::HoldsOnInstances,
        Status::Refuted,
        Status::Undecided,
    ];
}

/// What a check found: the status, the evidence in words, and a witness when
/// refuted (or the tightest piece or instance otherwise, when informative).
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The verdict.
    pub status: Status,
    /// The evidence: pieces proved, instances checked, margins, enclosures.
    pub detail: String,
    /// A JSON witness: the failing point, instance or neighbour pair.
    pub witness: Option<Value>,
}

impl Outcome {
    /// Proved over the whole domain.
    pub fn certified(detail: impl Into<String>) -> Outcome {
        Outcome {
            status: Status::Certified,
            detail: detail.into(),
            witness: None,
        }
    }

    /// True on every instance checked.
    pub fn holds(detail: impl Into<String>) -> Outcome {
        Outcome {
            status: Status::HoldsOnInstances,
            detail: detail.into(),
            witness: None,
        }
    }

    /// False, with the witness that shows it.
    pub fn refuted(detail: impl Into<String>, witness: Value) -> Outcome {
        Outcome {
            status: Status::Refuted,
            detail: detail.into(),
            witness: Some(witness),
        }
    }

    /// Not decided, with the reason (and the tightest case, if any).
    pub fn undecided(detail: impl Into<String>, witness: Option<Value>) -> Outcome {
        Outcome {
            status: Status::Undecided,
            detail: detail.into(),
            witness,
        }
    }
}

/// One entry of the registry.
#[derive(Clone, Debug)]
pub struct Claim {
    /// `<paper>-<kind><number>[-<part>]`, e.g. `cc-lem2-iv`: paper `cc`
    /// (Cesari & Colomboni), `ww` (Wu & Wang) or `hu` (Hu et al.), kind `thm`,
    /// `lem`, `cor`, `prop`, `alg` or `eq`.
    pub id: &'static str,
    /// Paper, number and place in the text.
    pub source: Source,
    /// The claim in words, as printed (or, for an entry that checks an
    /// evident intended statement, what was intended and why).
    pub statement: &'static str,
    /// The claim in mathematics (plain text with Unicode).
    pub math: &'static str,
    /// How it is checked.
    pub method: Method,
    /// The domain (for branch-and-bound) or the instance grid.
    pub domain: &'static str,
    /// Whether `cargo test` runs it.
    pub cost: Cost,
    /// The check.
    pub check: fn() -> Result<Outcome>,
}

/// A claim with the outcome of its check and the time it took.
#[derive(Clone, Debug)]
pub struct Checked<'a> {
    /// The claim.
    pub claim: &'a Claim,
    /// The outcome; a check that failed with an error is reported undecided
    /// with the error as its reason.
    pub outcome: Outcome,
    /// Wall-clock seconds (reported in JSON, not in the markdown report,
    /// which must not change from run to run).
    pub seconds: f64,
}

/// Whether `id` has the shape `<paper>-<kind><number>[-<part>]`.
pub fn is_well_formed_id(id: &str) -> bool {
    let mut parts = id.splitn(3, '-');
    let (Some(paper), Some(item)) = (parts.next(), parts.next()) else {
        return false;
    };
    let part_ok = parts
        .next()
        .is_none_or(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'));
    let kind_len = item.chars().take_while(char::is_ascii_lowercase).count();
    let (kind, number) = item.split_at(kind_len);
    ["hu", "ww", "cc"].contains(&paper)
        && ["thm", "lem", "cor", "prop", "alg", "eq"].contains(&kind)
        && !number.is_empty()
        && number.chars().all(|c| c.is_ascii_alphanumeric())
        && number.starts_with(|c: char| c.is_ascii_digit() || c.is_ascii_uppercase())
        && part_ok
}

/// Ids in reading order: paper, then kind, then number compared as a number
/// (`cc-lem2` before `cc-lem10`), then part.
pub fn id_order(a: &str, b: &str) -> Ordering {
    fn key(id: &str) -> Vec<(String, u64)> {
        // Split into runs of non-digits, each followed by its number.
        let mut out = Vec::new();
        let mut text = String::new();
        let mut digits = String::new();
        for c in id.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
            } else {
                if !digits.is_empty() {
                    out.push((
                        std::mem::take(&mut text),
                        digits.parse().unwrap_or(u64::MAX),
                    ));
                    digits.clear();
                }
                text.push(c);
            }
        }
        out.push((text, digits.parse().unwrap_or(0)));
        out
    }
    key(a).cmp(&key(b))
}

/// The claims `selector` names: the one with that id, or every claim whose id
/// starts with `selector-` (`cc-lem2` selects `cc-lem2-i` … `cc-lem2-v`);
/// all of them when `selector` is `None`. An error naming the known ids of
/// the paper when nothing matches.
pub fn select<'a>(registry: &'a [Claim], selector: Option<&str>) -> Result<Vec<&'a Claim>> {
    let Some(selector) = selector else {
        return Ok(registry.iter().collect());
    };
    let chosen: Vec<&Claim> = registry
        .iter()
        .filter(|c| c.id == selector || c.id.starts_with(&format!("{selector}-")))
        .collect();
    if chosen.is_empty() {
        let paper = selector.split('-').next().unwrap_or_default();
        let known: Vec<&str> = registry
            .iter()
            .map(|c| c.id)
            .filter(|id| id.starts_with(&format!("{paper}-")))
            .collect();
        return Err(Error::InvalidInput(if known.is_empty() {
            format!("no claim '{selector}'; ids start with cc-, hu- or ww- (run `dpdtol verify` to list them)")
        } else {
            format!(
                "no claim '{selector}'; this paper's ids are {}",
                known.join(", ")
            )
        }));
    }
    Ok(chosen)
}

/// Run the checks of `claims` in order; `before(i, claim)` is called before
/// each (for progress).
pub fn run<'a>(claims: &[&'a Claim], mut before: impl FnMut(usize, &Claim)) -> Vec<Checked<'a>> {
    claims
        .iter()
        .enumerate()
        .map(|(i, claim)| {
            before(i, claim);
            let started = Instant::now();
            let outcome = (claim.check)()
                .unwrap_or_else(|e| Outcome::undecided(format!("the check failed: {e}"), None));
            Checked {
                claim,
                outcome,
                seconds: started.elapsed().as_secs_f64(),
            }
        })
        .collect()
}

/// Run the checks of `claims` as [`run`] does, then give each claim that
/// holds on its grid its adversarial search ([`search::Adversary`], by id):
/// `holds-on-instances` is kept only when the search over the stated domain
/// finds no counterexample (its budget and smallest margin are added to the
/// evidence); a certain violation found (and re-evaluated at
/// [`search::CONFIRM_BITS`]) refutes the claim with that point as witness; a
/// best point that stays undecided leaves the claim undecided; and an
/// instance claim with no search declared is undecided (a grid alone is a
/// smoke test, not a verdict).
pub fn run_searched<'a>(
    claims: &[&'a Claim],
    adversaries: &[search::Adversary],
    mut before: impl FnMut(usize, &Claim),
) -> Vec<Checked<'a>> {
    let mut checked = run(claims, &mut before);
    for c in &mut checked {
        let adversary = adversaries.iter().find(|a| a.id == c.claim.id);
        if c.outcome.status != Status::HoldsOnInstances {
            continue;
        }
        let started = Instant::now();
        c.outcome = judged(c.claim, &c.outcome, adversary);
        c.seconds += started.elapsed().as_secs_f64();
    }
    checked
}

/// The verdict on a claim that holds on its grid, with its search (see
/// [`run_searched`]).
fn judged(claim: &Claim, grid: &Outcome, adversary: Option<&search::Adversary>) -> Outcome {
    let Some(adversary) = adversary else {
        if claim.method == Method::InstanceGrid {
            return Outcome::undecided(
                format!(
                    "{}. No adversarial search over the stated domain is declared, so the grid is a smoke test and not a verdict (proofs/README.md, \"Declaring a domain\")",
                    grid.detail
                ),
                grid.witness.clone(),
            );
        }
        return grid.clone();
    };
    let found = match adversary.search() {
        Ok(found) => found,
        Err(e) => {
            return Outcome::undecided(
                format!("{}. The adversarial search failed: {e}", grid.detail),
                None,
            )
        }
    };
    let budget = adversary.budget_text(&found);
    let what = format!(
        "adversarial search over {} ({}): {budget}",
        adversary.domain_text(),
        adversary.note
    );
    match found.probe.holds() {
        Some(false) => Outcome::refuted(
            format!(
                "At {}, {} (re-evaluated at {} bits). A counterexample found by the {what}, where the grid holds ({})",
                found.point_text(),
                found.probe.text(),
                search::CONFIRM_BITS.0,
                first_sentence(&grid.detail)
            ),
            found.witness(),
        ),
        None => Outcome::undecided(
            format!(
                "{}. The {what} reached a point it cannot decide at {} bits: at {}, {}",
                grid.detail,
                search::CONFIRM_BITS.0,
                found.point_text(),
                found.probe.text()
            ),
            Some(found.witness()),
        ),
        Some(true) => {
            let near = if found.margin < search::NEAR_ZERO {
                " — the margin approaches zero there"
            } else {
                ""
            };
            Outcome::holds(format!(
                "{}. The {what}; no counterexample; the smallest margin found, ln(rhs/lhs) ≈ {} (approximate, from the enclosures' midpoints; the smallest the search reached, not shown to be the infimum over the domain){near}, at {}: {}",
                grid.detail,
                format_margin(found.margin),
                found.point_text(),
                found.probe.text()
            ))
        }
    }
}

/// A margin with three significant digits.
fn format_margin(m: f64) -> String {
    if m.is_infinite() {
        "∞".into()
    } else {
        format!("{m:.3e}")
    }
}

/// How many outcomes have each status, in [`Status::ALL`] order.
pub fn tally(checked: &[Checked<'_>]) -> [(Status, usize); 4] {
    Status::ALL.map(|s| (s, checked.iter().filter(|c| c.outcome.status == s).count()))
}

/// The claims `chosen` without their checks (`dpdtol verify --list`).
pub fn list(chosen: &[&Claim]) -> ClaimList {
    ClaimList {
        claims: chosen
            .iter()
            .map(|c| ListedClaim {
                id: c.id.to_string(),
                method: c.method.name().to_string(),
                source: c.source.text(),
            })
            .collect(),
    }
}

/// The report of a run ([`crate::report::verify::VerifyReport`]: `claims`,
/// each with `id`, `source`, `statement`, `math`, `method`, `domain`,
/// `status`, `detail`, `witness`, `seconds`; the tally in `summary`), without
/// coverage, errata or shard.
pub fn to_json(checked: &[Checked<'_>]) -> VerifyReport {
    let claims = checked
        .iter()
        .map(|c| ClaimKeys {
            detail: c.outcome.detail.clone(),
            domain: c.claim.domain.to_string(),
            id: c.claim.id.to_string(),
            math: c.claim.math.to_string(),
            method: c.claim.method.name().to_string(),
            seconds: c.seconds,
            source: c.claim.source.text(),
            statement: c.claim.statement.to_string(),
            status: c.outcome.status.name().to_string(),
            witness: c.outcome.witness.clone(),
        })
        .collect();
    let count = |status: Status| {
        checked
            .iter()
            .filter(|c| c.outcome.status == status)
            .count() as u64
    };
    VerifyReport {
        claims,
        errata: None,
        schema_version: SchemaVersion,
        seconds: checked.iter().map(|c| c.seconds).sum::<f64>(),
        shard: None,
        spot_check: None,
        summary: Summary {
            certified: count(Status::Certified),
            coverage: None,
            errata: None,
            holds_on_instances: count(Status::HoldsOnInstances),
            refuted: count(Status::Refuted),
            undecided: count(Status::Undecided),
        },
        withdrawn: None,
    }
}

/// A human summary: one line per claim and the tally.
pub fn to_text(checked: &[Checked<'_>]) -> String {
    let width = checked.iter().map(|c| c.claim.id.len()).max().unwrap_or(0);
    let mut out = String::new();
    for c in checked {
        let _ = writeln!(
            out,
            "{:width$}  {:18}  {:16}  {:7.2} s  {}",
            c.claim.id,
            c.outcome.status.name(),
            c.claim.method.name(),
            c.seconds,
            first_sentence(&c.outcome.detail)
        );
    }
    let counts: Vec<String> = tally(checked)
        .iter()
        .map(|(s, n)| format!("{n} {}", s.name()))
        .collect();
    let _ = write!(out, "{} claims: {}", checked.len(), counts.join(", "));
    out
}

fn first_sentence(text: &str) -> &str {
    text.split_once(". ").map_or(text, |(first, _)| first)
}

/// A witness in one line: `lhs relation rhs` at its case or point when it
/// has those, else its compact JSON.
fn witness_text(w: &Value) -> String {
    match (w.get("lhs"), w.get("relation"), w.get("rhs")) {
        (Some(l), Some(r), Some(h)) => {
            let at = w
                .get("point")
                .or_else(|| w.get("case"))
                .map_or_else(String::new, |p| {
                    format!(
                        " at {}",
                        p.as_str().map_or_else(|| p.to_string(), str::to_string)
                    )
                });
            format!(
                "{} {} {}{at}",
                l.as_str().unwrap_or_default(),
                r.as_str().unwrap_or_default(),
                h.as_str().unwrap_or_default()
            )
        }
        _ => format!("`{w}`"),
    }
}

/// Text safe in a markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// The claims of shard `index` of `count` (`1 ≤ index ≤ count`, as
/// `dpdtol verify --shard I/N`): the slow claims ([`Cost::Slow`], which take
/// most of the time) dealt round-robin first, then the fast ones, each in
/// the order given; so a claim's shard depends only on the registry.
pub fn shard_of<'a>(claims: &[&'a Claim], index: u64, count: u64) -> Vec<&'a Claim> {
    let (slow, fast): (Vec<&Claim>, Vec<&Claim>) =
        claims.iter().partition(|c| c.cost == Cost::Slow);
    let dealt: Vec<(usize, &Claim)> = slow.into_iter().chain(fast).enumerate().collect();
    let mine: Vec<&Claim> = dealt
        .into_iter()
        .filter(|(i, _)| (*i as u64) % count == index - 1)
        .map(|(_, c)| c)
        .collect();
    // Back in the order given.
    claims
        .iter()
        .filter(|c| mine.iter().any(|m| m.id == c.id))
        .copied()
        .collect()
}

/// A shard's output that is not what this registry assigns it.
fn malformed(shard: usize, what: &str) -> Error {
    Error::InvalidInput(format!(
        "merge input {shard}: {what} (not the --json output of dpdtol verify --shard I/N of this registry)"
    ))
}

/// The outcomes of a sharded run put back together (`dpdtol verify
/// --merge`), in the order of `claims` (the whole registry), from the
/// reports of its shards, each accepted through the merge contract
/// ([`crate::report::merge::accept`]: its shard given, its statuses known,
/// its seconds finite and nonnegative). Refused: counts that differ or do
/// not match the number of inputs, an index missing or given twice, a
/// shard whose claims are not exactly those [`shard_of`] assigns it (a
/// shard of another registry or another binary), a claim whose statement,
/// source, method, domain or mathematics differs from the registry's, a
/// shard whose summary (the tally and, when given, the coverage that
/// `coverage_of` gives its claims) or total seconds are not what its own
/// claims give.
pub fn merge_shards<'a>(
    claims: &[&'a Claim],
    coverage_of: &dyn Fn(&[Checked<'_>]) -> Coverage,
    shards: &[VerifyReport],
) -> Result<Vec<Checked<'a>>> {
    let count = shards.len() as u64;
    if count == 0 {
        return Err(Error::InvalidInput("nothing to merge".into()));
    }
    let mut outcomes: Vec<Option<(Outcome, f64)>> = vec![None; claims.len()];
    let mut seen = vec![false; shards.len()];
    for (n, shard) in shards.iter().enumerate() {
        let n = n + 1;
        let ShardKeys { index, count: of } = shard.shard.ok_or_else(|| malformed(n, "no shard"))?;
        if of != count {
            return Err(malformed(
                n,
                &format!("shard {index}/{of}, but {count} inputs were given"),
            ));
        }
        if index == 0 || index > count {
            return Err(malformed(n, &format!("shard index {index} of {count}")));
        }
        if std::mem::replace(&mut seen[(index - 1) as usize], true) {
            return Err(malformed(
                n,
                &format!("shard {index}/{count} is given twice"),
            ));
        }
        let expected: Vec<&str> = shard_of(claims, index, count)
            .iter()
            .map(|c| c.id)
            .collect();
        let ids: Vec<&str> = shard.claims.iter().map(|c| c.id.as_str()).collect();
        if ids != expected {
            return Err(malformed(
                n,
                &format!(
                    "shard {index}/{count} holds {} claims, not the {} this registry assigns it (a shard of another version?)",
                    ids.len(),
                    expected.len()
                ),
            ));
        }
        for c in &shard.claims {
            let claim = claims
                .iter()
                .find(|k| k.id == c.id)
                .ok_or_else(|| malformed(n, &format!("unknown claim {}", c.id)))?;
            for (key, given, want) in [
                ("statement", &c.statement, claim.statement.to_string()),
                ("source", &c.source, claim.source.text()),
                ("method", &c.method, claim.method.name().to_string()),
            ] {
                if *given != want {
                    return Err(malformed(
                        n,
                        &format!("{}: its {key} is not this registry's", c.id),
                    ));
                }
            }
        }
        let mine = shard_checked(claims, shard).map_err(|e| malformed(n, &e))?;
        // Everything else the shard says is what its claims give: the
        // registry's domain and mathematics, the tally, the coverage (when
        // given), the seconds summed.
        let mut derived = to_json(&mine);
        derived.shard = shard.shard;
        derived.summary.coverage = shard.summary.coverage.as_ref().map(|_| coverage_of(&mine));
        let as_value = |r: &VerifyReport| {
            serde_json::to_value(r).map_err(|e| Error::InvalidInput(e.to_string()))
        };
        crate::report::merge::same_keys(
            &as_value(&derived)?,
            &as_value(shard)?,
            "dpdtol verify --shard I/N",
        )
        .map_err(|e| e.within(&format!("merge input {n}")))?;
        for c in mine {
            let at = claims
                .iter()
                .position(|k| k.id == c.claim.id)
                .ok_or_else(|| malformed(n, &format!("unknown claim {}", c.claim.id)))?;
            outcomes[at] = Some((c.outcome, c.seconds));
        }
    }
    claims
        .iter()
        .zip(outcomes)
        .map(|(claim, o)| {
            let (outcome, seconds) =
                o.ok_or_else(|| Error::InvalidInput(format!("no shard checked {}", claim.id)))?;
            Ok(Checked {
                claim,
                outcome,
                seconds,
            })
        })
        .collect()
}

/// The claims of a shard's report as checked, against the registry
/// `claims` (every claim known, its status one of [`Status::ALL`]); what is
/// wrong, in words.
fn shard_checked<'a>(
    claims: &[&'a Claim],
    shard: &VerifyReport,
) -> std::result::Result<Vec<Checked<'a>>, String> {
    shard
        .claims
        .iter()
        .map(|c| {
            let claim = claims
                .iter()
                .find(|k| k.id == c.id)
                .ok_or_else(|| format!("unknown claim {}", c.id))?;
            let status = Status::ALL
                .into_iter()
                .find(|s| s.name() == c.status)
                .ok_or_else(|| format!("{}: unknown status {:?}", c.id, c.status))?;
            Ok(Checked {
                claim,
                outcome: Outcome {
                    status,
                    detail: c.detail.clone(),
                    witness: c.witness.clone(),
                },
                seconds: c.seconds,
            })
        })
        .collect()
}

/// A shard of `dpdtol verify` as a merge spot-checks it: its units are its
/// claims, each recomputed by running the claim again (its adversarial
/// search included) and compared with the outcome the shard reports.
pub struct ShardClaims<'a> {
    shard: crate::privacy::Shard,
    checked: Vec<Checked<'a>>,
    adversaries: &'a [search::Adversary],
}

impl<'a> ShardClaims<'a> {
    /// The claims of `shard` (accepted by [`merge_shards`]) with the
    /// registry's `claims` and `adversaries`.
    pub fn new(
        claims: &[&'a Claim],
        adversaries: &'a [search::Adversary],
        shard: &VerifyReport,
    ) -> Result<ShardClaims<'a>> {
        let keys = shard
            .shard
            .ok_or_else(|| Error::InvalidInput("field 'shard' is missing".into()))?;
        Ok(ShardClaims {
            shard: crate::privacy::Shard::new(keys.index, keys.count)?,
            checked: shard_checked(claims, shard).map_err(Error::InvalidInput)?,
            adversaries,
        })
    }
}

impl crate::report::merge::Units for ShardClaims<'_> {
    fn shard(&self) -> crate::privacy::Shard {
        self.shard
    }

    fn unit_count(&self) -> u64 {
        self.checked.len() as u64
    }

    fn recompute(&self, unit: u64) -> Result<()> {
        let given = self
            .checked
            .get(usize::try_from(unit).unwrap_or(usize::MAX))
            .ok_or_else(|| Error::InvalidInput(format!("no unit {unit}")))?;
        let again = run_searched(&[given.claim], self.adversaries, |_, _| {});
        let outcome = &again
            .first()
            .ok_or_else(|| Error::InvalidInput(format!("{} did not run", given.claim.id)))?
            .outcome;
        let differs = [
            ("status", outcome.status != given.outcome.status),
            ("detail", outcome.detail != given.outcome.detail),
            ("witness", outcome.witness != given.outcome.witness),
        ]
        .into_iter()
        .find(|(_, differs)| *differs);
        match differs {
            Some((field, _)) => Err(Error::InvalidInput(format!(
                "unit {unit} (claim {}): field 'claims[{unit}].{field}' is not what checking the claim again gives (altered, or not this registry's)",
                given.claim.id
            ))),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::{Certified, Precision, Real, Q};
    use serde_json::json;

    #[test]
    fn ids_follow_the_guide() {
        for good in [
            "cc-lem2-iv",
            "ww-thm4",
            "hu-thm8",
            "ww-cor1-laplace",
            "cc-eq3",
            "ww-lemD1",
        ] {
            assert!(is_well_formed_id(good), "{good}");
        }
        for bad in [
            "cc-lemma2",
            "xx-thm1",
            "cc-thm",
            "cc-lem2-",
            "ww_thm4",
            "cc",
            "hu-thm8-a b",
        ] {
            assert!(!is_well_formed_id(bad), "{bad}");
        }
    }

    #[test]
    fn ids_sort_by_number() {
        let mut ids = vec![
            "cc-lem10",
            "cc-lem2-v",
            "cc-lem2-iv",
            "cc-lem2",
            "cc-eq3",
            "ww-thm1",
        ];
        ids.sort_by(|a, b| id_order(a, b));
        assert_eq!(
            ids,
            [
                "cc-eq3",
                "cc-lem2",
                "cc-lem2-iv",
                "cc-lem2-v",
                "cc-lem10",
                "ww-thm1"
            ]
        );
    }

    pub(super) fn grid_claim(id: &'static str) -> Claim {
        Claim {
            id,
            source: Source {
                paper: Paper::CesariColomboni,
                number: "a test",
                context: "L1",
            },
            statement: "a planted claim",
            math: "n/(2·10⁵ ε) ≤ 1",
            method: Method::InstanceGrid,
            domain: "n ≤ 64",
            cost: Cost::Fast,
            check: || Ok(Outcome::holds("holds on the grid")),
        }
    }

    /// The planted claim of `search::tests`, false only where n > 2000 and
    /// ε < n/(2·10⁵): its grid holds, the runner's search refutes it with
    /// the corner as witness; the same claim with no search declared is
    /// undecided, not holds-on-instances.
    #[test]
    fn the_runner_refutes_by_search_and_refuses_a_bare_grid() {
        fn probes(point: &[Q], ctx: Precision) -> Result<Vec<search::Probe>> {
            let v = &point[1] / (&point[0] * Q::from_integer(200_000.into()));
            Ok(vec![search::Probe::upper(
                "planted".into(),
                Certified::from_rational(&v, &ctx),
                Certified::from_int(1, &ctx),
            )])
        }
        let searched = grid_claim("cc-thm98-a");
        let bare = grid_claim("cc-thm98-b");
        let adversary = search::Adversary {
            id: "cc-thm98-a",
            seed: "cc-thm98-a",
            params: vec![
                search::Param::real("ε", "1/100", "4"),
                search::Param::int("n", 1, 2048),
            ],
            note: "the planted domain",
            starts: 4,
            budget: 400,
            probes: std::sync::Arc::new(probes),
        };
        let checked = run_searched(&[&searched, &bare], &[adversary], |_, _| {});
        assert_eq!(
            checked[0].outcome.status,
            Status::Refuted,
            "{}",
            checked[0].outcome.detail
        );
        let witness = checked[0].outcome.witness.as_ref().expect("a witness");
        let n: Q = crate::num::parse_rational(witness["point"]["n"].as_str().unwrap()).unwrap();
        assert!(n > Q::from_integer(2000.into()), "{witness}");
        assert_eq!(
            checked[1].outcome.status,
            Status::Undecided,
            "{}",
            checked[1].outcome.detail
        );
        // The errors table lists the refuted claim, and the README copy
        // points its link into the report.
        let report = to_markdown(&checked, &[], &[], &[]);
        let readme = format!("intro\n{ERRORS_BEGIN}\nold\n{ERRORS_END}\nrest\n");
        let spliced = splice_block(
            &readme,
            &report,
            (ERRORS_BEGIN, ERRORS_END),
            ("#", "proofs/REPORT.md#"),
        )
        .unwrap();
        assert!(
            spliced.contains("[`cc-thm98-a`](proofs/REPORT.md#cc-thm98-a)"),
            "{spliced}"
        );
        assert!(
            !spliced.contains("cc-thm98-b") && !spliced.contains("old"),
            "{spliced}"
        );
        assert!(spliced.starts_with("intro\n") && spliced.ends_with("\nrest\n"));
    }

    /// A planted claim refuted on purpose is kept out of the table of
    /// printed errors and listed in its own section.
    #[test]
    fn planted_claims_are_not_printed_errors() {
        let mut claim = grid_claim("cc-thm97-planted");
        claim.check = || Ok(Outcome::refuted("wrong on purpose. more", json!({"x": 1})));
        let checked = run(&[&claim], |_, _| {});
        let errors = errors_table(&checked, &[claim.id]);
        assert!(!errors.contains("cc-thm97-planted"), "{errors}");
        assert!(errors_table(&checked, &[]).contains("cc-thm97-planted"));
        let report = to_markdown(&checked, &[claim.id], &[], &[]);
        let planted = report
            .split("## Planted checks")
            .nth(1)
            .expect("the section");
        assert!(
            planted.contains(
                "| [`cc-thm97-planted`](#cc-thm97-planted) | refuted | wrong on purpose |"
            ),
            "{report}"
        );
    }

    /// Shards cover the registry once; their `--json` objects merge back
    /// into the whole run, and malformed merges are refused.
    #[test]
    fn shards_merge_back_and_malformed_merges_are_refused() {
        let mut slow = grid_claim("cc-thm96-slow");
        slow.cost = Cost::Slow;
        let claims = [
            grid_claim("cc-thm96-a"),
            slow,
            grid_claim("cc-thm96-b"),
            grid_claim("cc-thm96-c"),
        ];
        let all: Vec<&Claim> = claims.iter().collect();
        let parts: Vec<Vec<&Claim>> = (1..=3).map(|i| shard_of(&all, i, 3)).collect();
        // The slow claim is dealt first; every claim is in exactly one shard.
        assert_eq!(parts[0][0].id, "cc-thm96-slow");
        let mut ids: Vec<&str> = parts.iter().flatten().map(|c| c.id).collect();
        ids.sort_unstable();
        assert_eq!(
            ids,
            ["cc-thm96-a", "cc-thm96-b", "cc-thm96-c", "cc-thm96-slow"]
        );
        let whole = run(&all, |_, _| {});
        let outputs: Vec<Value> = parts
            .iter()
            .enumerate()
            .map(|(i, part)| {
                let mut v = serde_json::to_value(to_json(&run(part, |_, _| {}))).unwrap();
                v["shard"] = json!({"index": i + 1, "count": 3});
                v
            })
            .collect();
        // Each output read as a merge input is: through the contract.
        fn through_contract<'a>(
            claims: &[&'a Claim],
            outputs: &[Value],
        ) -> Result<Vec<Checked<'a>>> {
            let parts = outputs
                .iter()
                .map(|v| crate::report::merge::accept::<VerifyReport>("shard", v))
                .collect::<Result<Vec<_>>>()?;
            merge_shards(
                claims,
                &|_| unreachable!("no coverage in these shards"),
                &parts,
            )
        }
        let merged = through_contract(&all, &outputs).unwrap();
        assert_eq!(
            to_markdown(&merged, &[], &[], &[]),
            to_markdown(&whole, &[], &[], &[])
        );
        // Reversed order merges too.
        let reversed: Vec<Value> = outputs.iter().rev().cloned().collect();
        assert!(through_contract(&all, &reversed).is_ok());
        let refused = |inputs: Vec<Value>, why: &str| {
            let e = through_contract(&all, &inputs).expect_err(why).to_string();
            assert!(!e.contains('\n'), "{e}");
        };
        refused(outputs[..2].to_vec(), "a shard missing");
        refused(
            vec![outputs[0].clone(), outputs[0].clone(), outputs[2].clone()],
            "a shard twice",
        );
        let mut wrong_status = outputs.clone();
        wrong_status[1]["claims"][0]["status"] = json!("proved");
        refused(wrong_status, "an unknown status");
        let mut other_statement = outputs.clone();
        other_statement[1]["claims"][0]["statement"] = json!("something else");
        refused(other_statement, "another registry's statement");
        let mut dropped = outputs.clone();
        dropped[2]["claims"].as_array_mut().unwrap().pop();
        refused(dropped, "a claim dropped");
        let mut no_shard = outputs.clone();
        no_shard[0].as_object_mut().unwrap().remove("shard");
        refused(no_shard, "no shard field");
        let mut bad_seconds = outputs.clone();
        bad_seconds[0]["claims"][0]["seconds"] = json!(-1.0);
        refused(bad_seconds, "negative seconds");
        // The summary is what the shard's claims give, not what it says.
        let mut tally = outputs;
        tally[2]["summary"]["refuted"] = json!(1);
        let e = through_contract(&all, &tally).unwrap_err().to_string();
        assert!(
            e.ends_with("merge input 3: field 'summary' is not what the report's own data give (not the --json output of dpdtol verify --shard I/N, or altered)"),
            "{e}"
        );
    }

    /// A merge checks a shard's claims again ([`ShardClaims`]): a detail
    /// edited in a shard of 2 claims is caught whenever both are
    /// recomputed, whatever the seed, with the file, the unit and the
    /// field; honest shards pass; with nothing recomputed the edit passes
    /// (what the spot check is for).
    #[test]
    fn a_merge_checks_the_shards_claims_again() {
        let claims = [
            grid_claim("cc-thm95-a"),
            grid_claim("cc-thm95-b"),
            grid_claim("cc-thm95-c"),
            grid_claim("cc-thm95-d"),
        ];
        let all: Vec<&Claim> = claims.iter().collect();
        let shards: Vec<VerifyReport> = (1..=2)
            .map(|i| VerifyReport {
                shard: Some(ShardKeys { index: i, count: 2 }),
                ..to_json(&run_searched(&shard_of(&all, i, 2), &[], |_, _| {}))
            })
            .collect();
        let spot = |shards: &[VerifyReport], per_part, seed| {
            merge_shards(
                &all,
                &|_| unreachable!("no coverage in these shards"),
                shards,
            )?;
            let units = shards
                .iter()
                .enumerate()
                .map(|(i, r)| Ok((format!("s{}.json", i + 1), ShardClaims::new(&all, &[], r)?)))
                .collect::<Result<Vec<_>>>()?;
            crate::report::merge::spot_check(
                &units,
                crate::report::merge::SpotPolicy { per_part, seed },
            )
        };
        let honest = spot(&shards, 2, 5).unwrap();
        assert_eq!((honest.units, honest.units_recomputed), (4, 4));
        assert_eq!(honest.caught, "1");
        let mut edited = shards.clone();
        edited[1].claims[1].detail = "holds everywhere".into();
        for seed in 0..10 {
            let e = spot(&edited, 2, seed).unwrap_err().to_string();
            assert!(
                e.ends_with("s2.json: unit 1 (claim cc-thm95-d): field 'claims[1].detail' is not what checking the claim again gives (altered, or not this registry's)"),
                "{e}"
            );
        }
        assert_eq!(spot(&edited, 0, 1).unwrap().units_recomputed, 0);
    }
}
