//! A statistical audit of Lazy-DP-TS or Hybrid-UCB as it is run, reported
//! and merged ([`super::statistical`]): the algorithm with its exact
//! parameters ([`Audit`]), the counts of a part of its runs and, for the
//! whole run, their analysis ([`AuditRun`]). The parts of one audit have
//! equal audits; their counts are summed and analysed once ([`merge`]), so
//! the merge gives what the whole run gives.

use super::statistical::{
    analyse, check_part_size, runs_in, runs_of, sample_part, sample_table, selection, tables_of,
    units, AuditOutcome, AuditSetup, Counts, DpTsParams, HybridParams, Selection, TsParams,
};
use crate::bandit::law::params::{Overrides, Scales};
use crate::bandit::policy::dp_ts::BonusRound;
use crate::bandit::policy::BanditId;
use crate::error::{Error, Result};
use crate::num::{Certified, Precision, Real, Q};
use crate::privacy::Shard;
use crate::progress::{with_progress, Task};
use num_traits::ToPrimitive;

/// The default number of runs per table.
pub const DEFAULT_RUNS: u64 = 200_000;

/// Whether `id`'s privacy is audited by simulation rather than checked
/// exactly: for Lazy-DP-TS and DP-TS unless `method` is `bounds` (their
/// certified bounds, [`crate::privacy::bandit::sandwich`]); for
/// Hybrid-UCB, with `method` `statistical`, or with one of the audit's own
/// settings (`sampling`: runs, seed, confidence) and no method; never for
/// the others. An error for another method, or the exact check with those
/// settings.
pub fn is_statistical(id: BanditId, method: Option<&str>, sampling: bool) -> Result<bool> {
    match id {
        BanditId::LazyDpTs | BanditId::DpTs => match method.map(str::trim) {
            None | Some("statistical") => Ok(true),
            Some("bounds") if sampling => Err(Error::InvalidInput(format!(
                "--runs, --seed and --confidence apply to --method statistical, not to {id}'s certified bounds"
            ))),
            Some("bounds") => Ok(false),
            Some(other) => Err(Error::InvalidInput(format!(
                "--method for {id} is statistical (the default) or bounds, got '{other}'"
            ))),
        },
        BanditId::HybridUcb => match method.map(str::trim) {
            None => Ok(sampling),
            Some("statistical") => Ok(true),
            Some("exact") if sampling => Err(Error::InvalidInput(
                "--runs, --seed and --confidence apply to --method statistical, not to hybrid-ucb's exact check".into(),
            )),
            Some("exact") => Ok(false),
            Some(other) => Err(Error::InvalidInput(format!(
                "--method for hybrid-ucb is exact (the default) or statistical, got '{other}'"
            ))),
        },
        _ => Ok(false),
    }
}

fn to_f64(q: &Q) -> f64 {
    ToPrimitive::to_f64(q).unwrap_or(f64::NAN)
}

/// `$body` with `$p` bound to the audited algorithm's parameters.
macro_rules! on_params {
    ($audit:expr, $p:ident => $body:expr) => {
        match $audit.params() {
            Params::Ts($p) => $body,
            Params::Hybrid($p) => $body,
            Params::DpTs($p) => $body,
        }
    };
}

/// The parameters of the algorithm audited.
enum Params {
    Ts(TsParams),
    Hybrid(HybridParams),
    DpTs(DpTsParams),
}

/// The exact parameters of an audit.
#[derive(Clone, Debug)]
pub struct Given {
    /// ε.
    pub epsilon: Q,
    /// The reward values.
    pub alphabet: Vec<Q>,
    /// The scales and the bonus.
    pub scales: Scales,
    /// DP-TS: the round whose `ln t` its bonus reads (the default for the
    /// others).
    pub bonus_round: BonusRound,
}

/// What an audit is of: the algorithm, its exact parameters (defaults
/// filled in) and the setup. Two parts of one audit have equal ones.
#[derive(Clone, Debug, PartialEq)]
pub struct Audit {
    /// Lazy-DP-TS or Hybrid-UCB.
    pub id: BanditId,
    /// ε.
    pub epsilon: Q,
    /// The Laplace scale (Hybrid-UCB: the array blocks').
    pub scale: Q,
    /// Hybrid-UCB's tree scale per level (else the scale).
    pub tree_scale: Q,
    /// The bonus constant.
    pub bonus: Q,
    /// DP-TS: the round whose `ln t` its bonus reads.
    pub bonus_round: BonusRound,
    /// The reward values, exactly.
    pub alphabet: Vec<Q>,
    /// Horizon, runs, seed, confidence (the alphabet in f64).
    pub setup: AuditSetup,
}

impl Audit {
    /// The audit of `id` with K = `actions` arms (2: the audit is
    /// implemented for two) at `epsilon` on the reward values `alphabet`, the
    /// printed scales and bonus `overrides` where given ([`Scales::resolve`];
    /// the epoch lengths are not the audit's), run as `setup` says. The one
    /// constructor of the command line and the Python package.
    pub fn of(
        id: BanditId,
        actions: usize,
        epsilon: Q,
        alphabet: Vec<Q>,
        overrides: Overrides,
        setup: AuditSetup,
    ) -> Result<Audit> {
        if actions != 2 {
            return Err(Error::InvalidInput(format!(
                "the {id} audit is implemented for K = 2 arms, got --actions {actions}"
            )));
        }
        Scales::default_scale(id, &epsilon)?;
        let scales = Scales::resolve(
            id,
            &epsilon,
            overrides.scale,
            overrides.tree_scale,
            overrides.bonus,
            overrides.scale_factor,
        )?;
        let given = Given {
            epsilon,
            alphabet,
            scales,
            bonus_round: overrides.bonus_round,
        };
        Audit::new(id, given, setup)
    }

    /// The audit of `id` with the parameters `given` and `setup` (whose
    /// alphabet is `given`'s, in f64), every parameter checked.
    pub fn new(id: BanditId, given: Given, setup: AuditSetup) -> Result<Audit> {
        if !matches!(
            id,
            BanditId::LazyDpTs | BanditId::DpTs | BanditId::HybridUcb
        ) {
            return Err(Error::InvalidInput(format!(
                "the statistical audit covers lazy-dp-ts, dp-ts and hybrid-ucb, not {id}"
            )));
        }
        if given.bonus_round != BonusRound::default() && id != BanditId::DpTs {
            return Err(Error::InvalidInput(format!(
                "--bonus-round does not apply to {id}"
            )));
        }
        let Scales {
            scale,
            tree_scale,
            bonus,
        } = given.scales;
        let audit = Audit {
            id,
            tree_scale,
            scale,
            bonus,
            bonus_round: given.bonus_round,
            setup: AuditSetup {
                alphabet: given.alphabet.iter().map(to_f64).collect(),
                ..setup
            },
            alphabet: given.alphabet,
            epsilon: given.epsilon,
        };
        Scales::default_scale(id, &audit.epsilon)?;
        on_params!(audit, p => audit.setup.check(&p))?;
        Ok(audit)
    }

    fn params(&self) -> Params {
        let epsilon = to_f64(&self.epsilon);
        let hybrid = HybridParams {
            epsilon,
            array_scale: to_f64(&self.scale),
            tree_scale: to_f64(&self.tree_scale),
            bonus: to_f64(&self.bonus),
        };
        if self.id == BanditId::HybridUcb {
            Params::Hybrid(hybrid)
        } else if self.id == BanditId::DpTs {
            Params::DpTs(DpTsParams {
                hybrid,
                bonus_round: self.bonus_round,
            })
        } else {
            Params::Ts(TsParams {
                noise_scale: to_f64(&self.scale),
                bonus: to_f64(&self.bonus),
                ..TsParams::printed(epsilon)
            })
        }
    }

    /// The units (chunks of a table's runs) of `shard`.
    pub fn part(&self, shard: Shard) -> Result<std::ops::Range<u64>> {
        let all = units(&self.setup).ok_or_else(|| {
            Error::TooLarge(format!(
                "the audit at horizon {} on {} reward values with {} runs per table simulates more than 2^64 runs",
                self.setup.horizon,
                self.alphabet.len(),
                self.setup.runs
            ))
        })?;
        shard.range_of(all, "chunks of runs")
    }

    /// The tables and pairs audited.
    pub fn selection(&self) -> Result<Selection> {
        selection(self.setup.horizon, self.alphabet.len())
    }

    /// e^ε, enclosed.
    pub fn bound(&self) -> Result<Certified> {
        Certified::from_rational(&self.epsilon, &Precision(256)).exp()
    }

    /// The counts of the units `part`, simulated on `pool` with a progress bar.
    fn sampled(
        &self,
        selection: &Selection,
        part: &std::ops::Range<u64>,
        pool: &rayon::ThreadPool,
    ) -> Result<Vec<Counts>> {
        let total = runs_in(&self.setup, part);
        let task = Task {
            name: "privacy audit",
            unit: "runs",
        };
        with_progress(true, task, total, |progress| {
            pool.install(|| {
                on_params!(self, p => sample_part(&p, &self.setup, selection, part, &|n| progress.add(n)))
            })
        })
    }

    /// Run the part `shard` of the audit on `pool`: its counts, analysed
    /// when it is the whole run.
    pub fn run(self, shard: Shard, pool: &rayon::ThreadPool) -> Result<AuditRun> {
        let part = self.part(shard)?;
        check_part_size(&self.setup, &part)?;
        let selection = self.selection()?;
        let counts = self.sampled(&selection, &part, pool)?;
        let first_table = tables_of(&self.setup, &part).start;
        let outcome = if shard == Shard::WHOLE {
            Some(pool.install(
                || on_params!(self, p => analyse(&p, &self.setup, selection.clone(), &counts)),
            )?)
        } else {
            None
        };
        AuditRun::new(self, shard, first_table, counts, outcome, &selection)
    }

    /// The counts of part `shard` read from outside, `first_table` the
    /// table of `counts[0]`: one entry per table of the part, each two
    /// arrays of `2^(T−2)` counts summing to the part's runs of that table
    /// in the selection and in the test half.
    pub fn read_part(
        self,
        shard: Shard,
        first_table: u64,
        counts: Vec<Counts>,
    ) -> Result<AuditRun> {
        let part = self.part(shard)?;
        let tables = tables_of(&self.setup, &part);
        if first_table != tables.start as u64 || counts.len() != tables.len() {
            return Err(Error::InvalidInput(format!(
                "the counts are not those of shard {shard}'s tables {} to {} (from 0)",
                tables.start,
                tables.end.saturating_sub(1)
            )));
        }
        let codes = 1usize << self.setup.horizon.saturating_sub(2);
        for (c, k) in counts.iter().zip(tables.clone()) {
            if c.selection.len() != codes || c.test.len() != codes {
                return Err(Error::InvalidInput(format!(
                    "the counts of table {k} are not {codes} counts of pull sequences in each half"
                )));
            }
            let sum = |x: &[u64]| x.iter().try_fold(0u64, |s, &n| s.checked_add(n));
            let runs = runs_of(&self.setup, &part, k);
            if (sum(&c.selection), sum(&c.test)) != (Some(runs.0), Some(runs.1)) {
                return Err(Error::InvalidInput(format!(
                    "the counts of table {k} do not sum to the shard's {} and {} runs of its two halves",
                    runs.0, runs.1
                )));
            }
        }
        let selection = self.selection()?;
        AuditRun::new(self, shard, tables.start, counts, None, &selection)
    }
}

/// A part of an audit's runs (or the whole run) with its counts, and the
/// analysis of the whole run.
#[derive(Clone, Debug)]
pub struct AuditRun {
    /// What is audited.
    pub audit: Audit,
    /// The part.
    pub shard: Shard,
    /// The table of `counts[0]`.
    pub first_table: usize,
    /// Per table of the part, the counts of each pull code in both halves.
    pub counts: Vec<Counts>,
    /// The analysis (the whole run only).
    pub outcome: Option<AuditOutcome>,
    /// The numbers of tables and of ordered pairs audited.
    pub sizes: (usize, usize),
    /// e^ε, enclosed.
    pub bound: Certified,
}

impl AuditRun {
    fn new(
        audit: Audit,
        shard: Shard,
        first_table: usize,
        counts: Vec<Counts>,
        outcome: Option<AuditOutcome>,
        selection: &Selection,
    ) -> Result<AuditRun> {
        Ok(AuditRun {
            bound: audit.bound()?,
            audit,
            shard,
            first_table,
            counts,
            outcome,
            sizes: (selection.tables.len(), selection.pairs.len()),
        })
    }

    /// The counts of the part's table `table` (of the whole audit's
    /// numbering) simulated again: what the part's `counts` hold there when
    /// they are the simulation's.
    pub fn recount(&self, table: usize) -> Result<Counts> {
        let part = self.audit.part(self.shard)?;
        let selection = self.audit.selection()?;
        if !tables_of(&self.audit.setup, &part).contains(&table) {
            return Err(Error::InvalidInput(format!(
                "table {table} is not one of shard {}'s",
                self.shard
            )));
        }
        Ok(
            on_params!(self.audit, p => sample_table(&p, &self.audit.setup, &selection, &part, table)),
        )
    }

    /// Whether a violation is shown: a lower confidence bound on ε above ε.
    pub fn violated(&self) -> bool {
        self.outcome.as_ref().is_some_and(|o| o.violated)
    }
}

/// The whole audit from the checked parts of one audit (`(name, part)`):
/// the audits must be equal (algorithm, ε, scales, bonus, alphabet,
/// horizon, runs, seed, confidence), the parts `1/N..N/N` each once; the
/// counts are summed and analysed once.
pub fn merge(parts: Vec<(String, AuditRun)>) -> Result<AuditRun> {
    let (first_name, first) = parts
        .first()
        .ok_or_else(|| Error::InvalidInput("nothing to merge".into()))?;
    for (name, p) in &parts[1..] {
        if p.audit != first.audit {
            return Err(Error::InvalidInput(format!(
                "{name} audits another algorithm or problem, or with other parameters, than {first_name} (algorithm, horizon, alphabet, ε, noise scales, bonus, runs, seed, confidence)"
            )));
        }
    }
    Shard::check_coverage(parts.iter().map(|(_, p)| p.shard))?;
    let audit = first.audit.clone();
    // Every table's counts are in some part (coverage and each part's
    // tables checked): the selection built now is no larger than the parts.
    let selection = audit.selection()?;
    let codes = 1usize << audit.setup.horizon.saturating_sub(2);
    let mut total = vec![Counts::zero(codes); selection.tables.len()];
    for (_, p) in &parts {
        for (k, c) in p.counts.iter().enumerate() {
            total[p.first_table + k].add(c);
        }
    }
    let outcome = on_params!(audit, p => analyse(&p, &audit.setup, selection.clone(), &total))?;
    AuditRun::new(audit, Shard::WHOLE, 0, total, Some(outcome), &selection)
}
