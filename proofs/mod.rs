//! The registry of the papers' claims: one [`Claim`] per lemma,
//! theorem, corollary, numbered equation or explicit constant, grouped by how
//! it is checked.
//!
//! This directory is compiled into the library as the module `dpdtol::proofs`
//! (so that `dpdtol verify` runs it) and is also the cargo test target
//! `proofs` (`proofs/check.rs`): `cargo test` runs the fast claims and
//! compares each status with `proofs/REPORT.md`; `cargo test -- --ignored`
//! runs every claim and requires `proofs/REPORT.md` to be exactly what
//! `dpdtol verify --markdown` writes now.
//!
//! | file | method |
//! |---|---|
//! | `privacy.rs` | "is ε-DP" statements, through the exhaustive checker |
//! | `instances.rs` | regret bounds with explicit constants and inequalities on the law of a choice, exactly (certified) on a written instance grid |
//! | `inequalities.rs` | elementary inequalities and explicit constants, by interval branch-and-bound |
//! | `bandit.rs` | the conclusions of the bandit experiments (004 §6), by simulation and exact sign tests (statistical) |
//! | `bandit_privacy.rs` | "Anytime-Lazy-UCB is ε-DP" and DP-SE's privacy (with planted variants), through the exact bandit privacy check |
//! | `explicit.rs` | the methods of the three files below: exact identities on a determining grid, polynomial rays by the Taylor shift, exact refutations at a point, the ceiling bracket |
//! | `ww_appendix.rs` | Wu & Wang's appendices: epochs, tails, the lower-bound chain, the critical gap |
//! | `cc_proofs.rs` | Cesari & Colomboni's proofs: Lemma 1 as a probability bound, eq. (4), Lemma 2's, 4's and 5's steps |
//! | `errata.rs` | the printed errors by root cause, and the refutations withdrawn |
//! | `hu_proofs.rs` | Hu et al.'s proofs: the facts of Appendix A, the bandit epochs and constants, Theorem 9's D.2 chain, Theorem 12 (D.3), the corollaries |
//!
//! Claims are implemented as printed. When a printed claim fails and an
//! evident intended statement exists (a typo, a factor), that statement is a
//! separate entry whose id adds a part naming the change, and its statement
//! says what was changed and why.

mod bandit;
pub(crate) mod bandit_privacy;
mod cc_proofs;
pub mod coverage;
mod errata;
mod explicit;
mod hu_proofs;
mod inequalities;
mod instances;
mod privacy;
mod ww_appendix;

pub use errata::{errata, withdrawn};

use crate::error::Result;
use crate::report::merge;
use crate::report::verify::VerifyReport;
use crate::verify::search::Adversary;
use crate::verify::{errata as erratum, id_order, Checked, Claim, ShardClaims};
use std::path::PathBuf;

/// Every claim, in id order.
pub fn registry() -> Vec<Claim> {
    let mut all = privacy::claims();
    all.extend(instances::claims());
    all.extend(inequalities::claims());
    all.extend(bandit::claims());
    all.extend(bandit_privacy::claims());
    all.extend(ww_appendix::claims());
    all.extend(hu_proofs::claims());
    all.extend(cc_proofs::claims());
    all.sort_by(|a, b| id_order(a.id, b.id));
    all
}

/// The adversarial searches of the claims that hold on their instances
/// (`proofs/README.md`, "Declaring a domain"), keyed by claim id.
pub fn adversaries() -> Vec<Adversary> {
    let mut all = instances::adversaries();
    all.extend(ww_appendix::adversaries());
    all.extend(hu_proofs::adversaries());
    all.extend(cc_proofs::adversaries());
    all
}

/// The planted variants: claims that are not the papers', wrong on purpose
/// (a noise scale halved) so that the report shows the checker catching
/// them; the report lists them apart from the printed errors.
pub fn planted() -> Vec<&'static str> {
    bandit_privacy::planted()
}

/// The claims the errata need (what `dpdtol verify --errata` runs when no
/// claim is named): those they name, those that back their consequences,
/// and the withdrawn refutations, in the order of `registry`.
pub fn errata_claims(registry: &[Claim]) -> Vec<&Claim> {
    crate::verify::errata::errata_claims(registry, &errata(), &withdrawn())
}

/// The report of the claims `checked` as `dpdtol verify --json` writes it:
/// each claim's outcome, the tally, the papers' coverage and, when
/// `with_errata`, the errata collated from these outcomes (their counts in
/// the summary). Errors when the outcomes contradict the errata (a refuted
/// claim in no erratum, an erratum's claim not refuted: [`erratum::collate`]).
pub fn report(checked: &[Checked<'_>], with_errata: bool) -> Result<VerifyReport> {
    let mut report = crate::verify::to_json(checked);
    report.summary.coverage = Some(crate::verify::coverage::counts_json(
        &coverage::coverage(),
        checked,
    ));
    if with_errata {
        let (all, withdrawals) = (errata(), withdrawn());
        let entries = erratum::collate(&all, &withdrawals, &planted(), checked)?;
        report = report.with_errata(erratum::to_json(&entries, &withdrawals));
    }
    Ok(report)
}

/// The outcomes of the shards whose `dpdtol verify --shard I/N --json`
/// outputs are `paths`, each read and validated as every merge input is
/// ([`merge::accept`]) and set against this registry
/// ([`crate::verify::merge_shards`]), and what was re-verified by checking a
/// sample of each shard's claims again ([`merge::spot_check`]).
pub fn merged<'a>(
    claims: &[&'a Claim],
    paths: &[PathBuf],
    policy: merge::SpotPolicy,
) -> Result<(Vec<Checked<'a>>, merge::SpotCheck)> {
    let parts = paths
        .iter()
        .map(|path| {
            let name = path.display().to_string();
            let part = merge::accept::<VerifyReport>(&name, &merge::read_json(path)?)?;
            Ok((name, part))
        })
        .collect::<Result<Vec<(String, VerifyReport)>>>()?;
    let reports: Vec<VerifyReport> = parts.iter().map(|(_, r)| r.clone()).collect();
    let papers = coverage::coverage();
    let checked = crate::verify::merge_shards(
        claims,
        &|checked| crate::verify::coverage::counts_json(&papers, checked),
        &reports,
    )?;
    let adversaries = adversaries();
    let units = parts
        .iter()
        .map(|(name, r)| Ok((name.clone(), ShardClaims::new(claims, &adversaries, r)?)))
        .collect::<Result<Vec<_>>>()?;
    Ok((checked, merge::spot_check(&units, policy)?))
}
