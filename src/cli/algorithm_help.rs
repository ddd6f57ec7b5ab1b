//! The `--algorithm` help of every command, generated from the algorithm
//! enums ([`AlgorithmId::ALL`], [`BanditId::ALL`]) and the predicates the
//! commands decide with, so that a help text lists exactly the algorithms
//! its command accepts (a new algorithm appears in both at once).

use crate::algorithm::AlgorithmId;
use crate::bandit::policy::BanditId;
use crate::oracle::bandit::{has_law, has_two_sample_test};
use crate::privacy::bandit::audit_run::is_statistical;
use crate::privacy::bandit::setup::exact_check_of;

/// `a, b or c`.
fn listed<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.into_iter().collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// The online algorithms, every one.
fn online() -> String {
    listed(AlgorithmId::ALL.map(AlgorithmId::name))
}

/// The names of the online algorithms `regret` covers.
pub(super) fn online_regret_names() -> Vec<&'static str> {
    AlgorithmId::ALL
        .into_iter()
        .filter(|&id| crate::regret::covers(id))
        .map(AlgorithmId::name)
        .collect()
}

/// The online algorithms `regret` covers.
fn online_regret() -> String {
    listed(online_regret_names())
}

/// Whether `command` (`law`, `sample`, `audit` or `gof`) takes the bandit
/// algorithm `id` on a reward table: one with a law, and for `gof` also
/// one tested by the two-sample test.
pub(super) fn takes_bandit(command: &str, id: BanditId) -> bool {
    has_law(id) || (command == "gof" && has_two_sample_test(id))
}

/// The bandit algorithms `keep` accepts, in [`BanditId::ALL`]'s order.
fn bandits(keep: impl Fn(BanditId) -> bool) -> String {
    listed(
        BanditId::ALL
            .into_iter()
            .filter(|&id| keep(id))
            .map(BanditId::name),
    )
}

/// The bandit algorithms `privacy` checks exactly.
pub(super) fn privacy_exact(id: BanditId) -> bool {
    exact_check_of(id).is_ok()
}

/// The bandit algorithms `privacy` audits statistically (`--method
/// statistical` where the exact check is the default).
pub(super) fn privacy_statistical(id: BanditId) -> bool {
    is_statistical(id, Some("statistical"), false).unwrap_or(false)
}

/// The help of `--algorithm` for the subcommand `command`, `None` for a
/// command without the flag.
pub(super) fn help(command: &str) -> Option<String> {
    let oracle = format!(
        "The online algorithm: {}; or a bandit algorithm on --rewards-file: {}",
        online(),
        bandits(has_law)
    );
    Some(match command {
        "privacy" => format!(
            "[required unless --merge or --mechanism] The algorithm: {}; or a bandit algorithm, the alphabet holding rewards: {} (an exact check, certified; anytime-lazy-ucb at 2 ≤ K ≤ T, dp-ucb-int at 2 ≤ K ≤ T, the others at K = 2), or {} (a statistical audit, K = 2; hybrid-ucb with --method statistical).",
            online(),
            bandits(privacy_exact),
            bandits(privacy_statistical)
        ),
        "law" | "sample" | "audit" => format!("{oracle}."),
        "gof" => format!(
            "{oracle}; or {} (a two-sample test against dpdtol's own simulation).",
            bandits(has_two_sample_test)
        ),
        "regret" => format!(
            "[required] The algorithm(s), comma-separated: {}; wu-wang:NOISE picks wu-wang's noise (gumbel, exponential, laplace).",
            online_regret()
        ),
        "bandit" => format!(
            "The algorithm(s), comma-separated: {}.",
            bandits(|_| true)
        ),
        _ => return None,
    })
}

/// The help of `privacy --delta`, naming the exact bandit checks it
/// applies to by the predicate `privacy` decides with.
pub(super) fn delta_help() -> String {
    format!(
        "Also decide (ε, δ)-DP for this δ (exactly: 0, 1/100): δ(ε) = max over neighbour pairs of Σ_a (P(a|x) − e^ε P(a|x′))₊ from the whole laws (small instances; the exit status then follows this verdict). Online algorithms at one --epsilon, the exact bandit checks ({}), --mechanism.",
        bandits(privacy_exact)
    )
}

/// Whether `command` accepts the algorithm named `name`, by the same
/// predicates (for the test that compares each help with it).
#[cfg(test)]
pub(super) fn accepts(command: &str, name: &str) -> bool {
    let online = name.parse::<AlgorithmId>().is_ok();
    let bandit = |keep: &dyn Fn(BanditId) -> bool| name.parse::<BanditId>().is_ok_and(keep);
    match command {
        "privacy" => online || bandit(&|id| privacy_exact(id) || privacy_statistical(id)),
        "law" | "sample" | "audit" | "gof" => online || bandit(&|id| takes_bandit(command, id)),
        "regret" => name.parse::<AlgorithmId>().is_ok_and(crate::regret::covers),
        "bandit" => bandit(&|_| true),
        _ => false,
    }
}
