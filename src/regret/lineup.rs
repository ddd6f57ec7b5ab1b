//! The algorithms of one regret run, as `dpdtol regret --algorithm
//! ftl,wu-wang:gumbel` names them: each configured from the flags it shares
//! with the others and labelled for the tables, and the horizon's grammar.

use super::{check_horizon, Instance, Round, Setting};
use crate::algorithm::{AlgorithmId, Config};
use crate::error::{Error, Result};
use crate::mechanism::Noise;
use crate::num::{parse_power_count, Q};
use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};

/// A horizon in the grammar of [`parse_power_count`] (an integer, or `2^k`,
/// `2^k-c`, `2^k+c`), `1 ≤ T ≤ 2^100`.
pub fn parse_horizon(text: &str) -> Result<Round> {
    let text = text.trim();
    let bad = || {
        Error::Parse(format!(
            "--horizon expects a positive integer such as 1000, 2^40 or 2^10-1, got '{text}'"
        ))
    };
    let value: BigInt = parse_power_count(text).ok_or_else(bad)?;
    if !value.is_positive() {
        return Err(Error::InvalidInput(format!(
            "the horizon T must be at least 1, got {value}"
        )));
    }
    let t: Round = value
        .to_u128()
        .ok_or_else(|| Error::InvalidInput(format!("the horizon T = {value} is above 2^100")))?;
    check_horizon(t)?;
    Ok(t)
}

/// One algorithm of the run with its configuration and its label
/// (`wu-wang (gumbel, B=1)`).
pub struct Entry {
    /// The configuration.
    pub config: Config,
    /// The label in tables, curves and plots.
    pub label: String,
}

/// The flags an algorithm may share with the others of the run.
pub struct Shared {
    /// ε > 0.
    pub epsilon: Q,
    /// wu-wang's noise (`--noise`).
    pub noise: Option<Noise>,
    /// The noise scale overriding the paper's (every algorithm with noise).
    pub noise_scale: Option<Q>,
    /// wu-wang's Bernoulli resampling.
    pub resample: bool,
}

/// The algorithms `names` (comma-separated, `wu-wang:NOISE` naming wu-wang's
/// noise) on `k` actions, each configured: with several algorithms the
/// wu-wang-only flags go to wu-wang and the noise scale to every algorithm
/// with noise. An error for a noise named on another algorithm, and for
/// `--noise` when every wu-wang names its own.
pub fn entries(names: &str, k: usize, shared: &Shared) -> Result<Vec<Entry>> {
    if !shared.epsilon.is_positive() {
        return Err(Error::InvalidInput(format!(
            "epsilon must be positive, got {}",
            shared.epsilon
        )));
    }
    let list: Vec<&str> = names.split(',').map(str::trim).collect();
    let several = list.len() > 1;
    let mut out = Vec::new();
    let mut noise_used = false;
    for name in list {
        let (id_text, inline_noise) = match name.split_once(':') {
            Some((id, n)) => (id, Some(n.parse::<Noise>()?)),
            None => (name, None),
        };
        let id: AlgorithmId = id_text.parse()?;
        if inline_noise.is_some() && id != AlgorithmId::WuWang {
            return Err(Error::InvalidInput(format!(
                "'{name}': only wu-wang takes a noise (wu-wang:gumbel)"
            )));
        }
        let is_ww = id == AlgorithmId::WuWang;
        let config = Config {
            id,
            actions: k,
            epsilon: shared.epsilon.clone(),
            noise: inline_noise.or(if several && !is_ww {
                None
            } else {
                shared.noise
            }),
            noise_scale: if several && id == AlgorithmId::Ftl {
                None
            } else {
                shared.noise_scale.clone()
            },
            resample: shared.resample && (is_ww || !several),
        };
        config.validate()?;
        let mut label = id.name().to_string();
        if is_ww {
            let n = config.noise.unwrap_or(Noise::Laplace);
            label = format!(
                "{label} ({n}{})",
                if config.resample { ", B=1" } else { "" }
            );
        }
        out.push(Entry { config, label });
        noise_used |= is_ww && inline_noise.is_none();
    }
    if shared.noise.is_some() && !noise_used {
        return Err(Error::InvalidInput(format!(
            "--noise (wu-wang without :NOISE only) applies to none of the algorithms '{names}'"
        )));
    }
    Ok(out)
}

/// An error unless the instance has one best action wherever a bound of
/// `entries` needs it (every bound but wu-wang's deterministic ones, which
/// allow a tie).
pub fn require_unique_best(entries: &[Entry], instance: &Instance, setting: Setting) -> Result<()> {
    for e in entries {
        let exempt = e.config.id == AlgorithmId::WuWang && setting == Setting::Deterministic;
        if !exempt {
            instance.require_unique_best(&format!(
                "the regret bounds of {} (pass --no-bounds to compute the regret alone)",
                e.config.id
            ))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn horizons_parse() {
        assert_eq!(parse_horizon("1000").unwrap(), 1000);
        assert_eq!(parse_horizon("2^40").unwrap(), 1 << 40);
        assert_eq!(parse_horizon("2^10-1").unwrap(), 1023);
        assert!(parse_horizon("0").is_err());
        assert!(parse_horizon("1.5").is_err());
        assert!(parse_horizon("2^101").is_err());
        // A doubled sign or a malformed power is refused (2^10--5 is not 2^10 + 5).
        for bad in [
            "2^10--5", "2^10+-5", "2^10-", "2^-3", "2^1.5", "2^ 10", "2^10-1-1",
        ] {
            assert!(parse_horizon(bad).is_err(), "{bad}");
        }
    }
}
