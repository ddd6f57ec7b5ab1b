//! Shared test helpers: chi-square goodness of fit, running the binary
//! (under a memory cap and a time limit for hostile input), scratch files.
#![allow(dead_code)]

use statrs::distribution::{ChiSquared, ContinuousCDF};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Run the `dpdtol` binary with `args`.
pub fn dpdtol(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dpdtol"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Whether a run gave a result: exit status 0, or 1 for a result that is a
/// rejection or a violation, with something on stdout.
pub fn gives_a_result(out: &Output) -> bool {
    matches!(out.status.code(), Some(0 | 1)) && !out.stdout.is_empty()
}

/// Run `dpdtol` with `args`, which must give a result (exit status 0, or 1
/// for a result that is a rejection or a violation), and parse its stdout as
/// one JSON object.
pub fn json(args: &[&str]) -> serde_json::Value {
    let out = dpdtol(args);
    assert!(
        gives_a_result(&out),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON object")
}

/// Pearson's chi-square test of `observed` counts against `expected`
/// probabilities. Cells are merged, in order of increasing expected count,
/// until every merged cell expects at least 5. Returns the p-value.
pub fn chi_square_p_value(observed: &[u64], expected: &[f64]) -> f64 {
    assert_eq!(observed.len(), expected.len());
    let n: u64 = observed.iter().sum();
    let mut cells: Vec<(f64, f64)> = observed
        .iter()
        .zip(expected)
        .map(|(&o, &p)| (o as f64, p * n as f64))
        .collect();
    cells.sort_by(|a, b| a.1.total_cmp(&b.1));
    let mut merged: Vec<(f64, f64)> = Vec::new();
    let mut pending = (0.0, 0.0);
    for (o, e) in cells {
        pending = (pending.0 + o, pending.1 + e);
        if pending.1 >= 5.0 {
            merged.push(pending);
            pending = (0.0, 0.0);
        }
    }
    if pending.1 > 0.0 || pending.0 > 0.0 {
        match merged.last_mut() {
            Some(last) => *last = (last.0 + pending.0, last.1 + pending.1),
            None => merged.push(pending),
        }
    }
    if merged.len() < 2 {
        return 1.0;
    }
    let statistic: f64 = merged.iter().map(|(o, e)| (o - e) * (o - e) / e).sum();
    let dof = (merged.len() - 1) as f64;
    1.0 - ChiSquared::new(dof)
        .expect("positive degrees of freedom")
        .cdf(statistic)
}

/// `e^x` for an integer `x < 0` enclosed by its alternating Taylor series
/// `Σ_{n ≤ terms} x^n/n!` ± `slack` (the caller bounds the remainder,
/// `|x|^{terms+1}/(terms+1)!`, by `slack`): independent of the crate's exp.
pub fn exp_taylor(x: i64, terms: i64, slack: &str) -> (dpdtol::num::Q, dpdtol::num::Q) {
    use dpdtol::num::{parse_rational, Q};
    use num_traits::{One, Zero};
    let mut partial = Q::zero();
    let mut term = Q::one();
    for n in 0..=terms {
        partial += &term;
        term *= Q::new(x.into(), (n + 1).into());
    }
    let slack = parse_rational(slack).unwrap();
    (partial.clone() - &slack, partial + slack)
}

/// What a run of the binary under [`capped`] gave.
#[derive(Debug)]
pub struct Capped {
    /// The exit status (`None`: killed by a signal or by the time limit).
    pub code: Option<i32>,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// Wall-clock time.
    pub seconds: f64,
    /// Whether the run was killed at the time limit.
    pub timed_out: bool,
}

/// The address-space cap the hostile-input tests run the binary under: a
/// run that tries to allocate beyond it aborts (status 134), which the tests
/// count as a failure.
pub const MEMORY_CAP_KB: u64 = 2_000_000;

/// Run the binary with `args` under `ulimit -v` [`MEMORY_CAP_KB`], killed
/// after `seconds`; stdin is empty.
pub fn capped(args: &[&str], seconds: f64) -> Capped {
    use std::io::Read;
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let started = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {MEMORY_CAP_KB} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_dpdtol"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // Drain both pipes in threads so that a large output cannot block the child.
    let mut out = child.stdout.take().expect("piped stdout");
    let mut err = child.stderr.take().expect("piped stderr");
    let out_thread = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let err_thread = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let deadline = started + Duration::from_secs_f64(seconds);
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait on the child") {
            break status;
        }
        if Instant::now() > deadline {
            timed_out = true;
            let _ = child.kill();
            break child.wait().expect("wait on the killed child");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let text = |v: Vec<u8>| String::from_utf8_lossy(&v).into_owned();
    Capped {
        code: status.code(),
        stdout: text(out_thread.join().unwrap_or_default()),
        stderr: text(err_thread.join().unwrap_or_default()),
        seconds: started.elapsed().as_secs_f64(),
        timed_out,
    }
}

/// Assert the contract for bad input: status 2, nothing on stdout, exactly
/// one line on stderr starting `dpdtol: `, within the time limit.
pub fn assert_refused(run: &Capped, what: &str) {
    assert!(
        !run.timed_out,
        "{what}: still running after {:.1} s",
        run.seconds
    );
    assert_eq!(
        run.code,
        Some(2),
        "{what}: status {:?}, stderr {}",
        run.code,
        run.stderr
    );
    assert!(
        run.stdout.is_empty(),
        "{what}: printed on stdout: {}",
        run.stdout
    );
    assert_eq!(
        run.stderr.trim_end().lines().count(),
        1,
        "{what}: stderr is not one line: {}",
        run.stderr
    );
    assert!(run.stderr.starts_with("dpdtol: "), "{what}: {}", run.stderr);
}

/// Run `args`, which must be refused ([`assert_refused`], within 5 s: the
/// refusal comes before the work) with `needle` in the line on stderr.
pub fn refused(args: &[&str], needle: &str) {
    let run = capped(args, 5.0);
    assert_refused(&run, &format!("{args:?}"));
    assert!(run.stderr.contains(needle), "{args:?}: {}", run.stderr);
}

/// Run `command` (words separated by spaces) under the memory cap: it
/// must finish within `seconds` with a result (status 0).
pub fn answered(command: &str, seconds: f64) -> Capped {
    let run = capped(&words(command), seconds);
    assert_eq!(run.code, Some(0), "{command}: {}", run.stderr);
    run
}

/// The words of `command`, separated by spaces.
pub fn words(command: &str) -> Vec<&str> {
    command.split(' ').collect()
}

/// A scratch directory of this test process, `dpdtol-{name}-{pid}` in the
/// system's temporary directory (created).
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dpdtol-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `bytes` written to the file `name` of the scratch directory `dir`
/// ([`scratch`]); its path as text, for a command line.
pub fn scratch_file(dir: &str, name: &str, bytes: &[u8]) -> String {
    let path = scratch(dir).join(name);
    std::fs::write(&path, bytes).unwrap();
    path.display().to_string()
}

/// Two merge inputs, `first` and `second`, written to `dir` as
/// `{name}-1.json` and `{name}-2.json`: the value of `--merge`.
pub fn merge_list(
    dir: &Path,
    name: &str,
    first: &serde_json::Value,
    second: &serde_json::Value,
) -> String {
    let path = |i: u8, value: &serde_json::Value| {
        let path = dir.join(format!("{name}-{i}.json"));
        std::fs::write(&path, value.to_string()).unwrap();
        path.display().to_string()
    };
    format!("{},{}", path(1, first), path(2, second))
}

/// `privacy --algorithm A --actions K --horizon t --alphabet V --epsilon E`.
pub fn privacy_command<'a>(
    algorithm: &'a str,
    actions: &'a str,
    horizon: &'a str,
    alphabet: &'a str,
    epsilon: &'a str,
) -> Vec<&'a str> {
    vec![
        "privacy",
        "--algorithm",
        algorithm,
        "--actions",
        actions,
        "--horizon",
        horizon,
        "--alphabet",
        alphabet,
        "--epsilon",
        epsilon,
    ]
}

/// `regret --algorithm A --means M --setting S --horizon T --epsilon E`.
pub fn regret_command<'a>(
    algorithm: &'a str,
    means: &'a str,
    setting: &'a str,
    horizon: &'a str,
    epsilon: &'a str,
) -> Vec<&'a str> {
    vec![
        "regret",
        "--algorithm",
        algorithm,
        "--means",
        means,
        "--setting",
        setting,
        "--horizon",
        horizon,
        "--epsilon",
        epsilon,
    ]
}

/// A bandit law ([`dpdtol::bandit::law::law`]): each probability's
/// upper end is nonnegative and the total's enclosure contains 1 with width
/// below `2^{−40}`; `what` names the case in the failure message.
pub fn assert_sums_to_one(laws: &[(Vec<usize>, dpdtol::num::Certified)], what: &str) {
    use dpdtol::num::{Certified, Precision, Real, Q};
    let zero = Certified::from_int(0, &Precision(128));
    let total = laws.iter().fold(zero, |acc, (_, p)| acc + p);
    let (lo, hi) = total.enclosure().unwrap();
    let one = Q::from_integer(1.into());
    assert!(lo <= one && one <= hi, "{what}: [{lo}, {hi}]");
    assert!(
        &hi - &lo < Q::new(1.into(), (1u64 << 40).into()),
        "{what}: width {}",
        hi - lo
    );
    for (pulls, p) in laws {
        assert!(
            p.enclosure().unwrap().1 >= Q::from_integer(0.into()),
            "{what}: {pulls:?}"
        );
    }
}

/// `P(pulls|x)/P(pulls|x')` of the witness `w` of a bandit check's JSON
/// (`losses`, `neighbour`: rows of K rewards; `actions`: 1-based pulls),
/// from the laws of its two reward tables computed again at `bits`.
pub fn bandit_witness_ratio(
    w: &serde_json::Value,
    law_of: &impl dpdtol::bandit::law::PullLaw,
    bits: dpdtol::num::Precision,
) -> dpdtol::num::Certified {
    use dpdtol::num::{parse_rational, Certified, Real, Q};
    let rows = |key: &str| -> Vec<Vec<Q>> {
        w[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| {
                row.as_array()
                    .unwrap()
                    .iter()
                    .map(|x| parse_rational(x.as_str().unwrap()).unwrap())
                    .collect()
            })
            .collect()
    };
    let pulls: Vec<usize> = w["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_u64().unwrap() as usize - 1)
        .collect();
    let find = |rows: &[Vec<Q>]| {
        dpdtol::bandit::law::law::<Certified>(law_of, rows, &bits)
            .unwrap()
            .into_iter()
            .find(|(a, _)| *a == pulls)
            .unwrap()
            .1
    };
    let (p, p2) = (find(&rows("losses")), find(&rows("neighbour")));
    // The witness's two probabilities, printed beside the ratio, are the
    // laws of its two tables.
    for (key, law) in [("probability", &p), ("neighbour_probability", &p2)] {
        let printed: f64 = w[key].as_str().unwrap().parse().unwrap();
        assert!(
            (printed - law.to_f64()).abs() <= 1e-12 * printed.abs(),
            "{key}: {w}"
        );
    }
    p / &p2
}

/// A reward table of `arms` arms on {0, 1} from the bits of `code` (round
/// t, arm j: bit `arms·t + j`).
pub fn bit_table(arms: usize, code: u64, horizon: usize) -> Vec<Vec<dpdtol::num::Q>> {
    (0..horizon)
        .map(|t| {
            (0..arms)
                .map(|j| dpdtol::num::Q::from_integer(((code >> (arms * t + j)) & 1).into()))
                .collect()
        })
        .collect()
}

/// [`bit_table`] of two arms, each row a pair.
pub fn two_arm_table(code: u32, horizon: usize) -> Vec<[dpdtol::num::Q; 2]> {
    bit_table(2, code.into(), horizon)
        .into_iter()
        .map(|row| <[dpdtol::num::Q; 2]>::try_from(row).unwrap())
        .collect()
}

/// Hybrid-UCB's law as inferred at `epsilon`
/// ([`dpdtol::bandit::law::hybrid_ucb::HybridLawParams::inferred`]), both
/// scales times `factor`.
pub fn hybrid_law(
    epsilon: dpdtol::num::Q,
    factor: dpdtol::num::Q,
) -> dpdtol::bandit::law::hybrid_ucb::HybridLawParams {
    let p = dpdtol::bandit::law::hybrid_ucb::HybridLawParams::inferred(epsilon);
    dpdtol::bandit::law::hybrid_ucb::HybridLawParams {
        array_scale: &p.array_scale * &factor,
        tree_scale: &p.tree_scale * &factor,
        ..p
    }
}

/// The Anytime-Lazy-UCB parameters the tests sweep: printed at ε = 1 and
/// 1/2, the planted half scale, and noise `Lap(1/(εO))` on an epoch's sum
/// (`scale_o_power = −1`, a reading the privacy check refutes).
pub fn lazy_ucb_variants() -> Vec<dpdtol::bandit::law::anytime_lazy_ucb::LazyUcbParams> {
    use dpdtol::bandit::law::anytime_lazy_ucb::LazyUcbParams;
    let q = |n: i64, d: i64| dpdtol::num::Q::new(n.into(), d.into());
    vec![
        LazyUcbParams::printed(q(1, 1)),
        LazyUcbParams::printed(q(1, 2)),
        LazyUcbParams {
            scale: q(1, 2),
            ..LazyUcbParams::printed(q(1, 1))
        },
        LazyUcbParams {
            scale_o_power: -1,
            ..LazyUcbParams::printed(q(1, 1))
        },
    ]
}

/// Play the library's Anytime-Lazy-UCB (`arms` arms, the parameters of
/// `params` in f64) round by round on the reward table `rewards`, `runs`
/// times from `seed`: [`simulate_policy`].
pub fn simulate_lazy_ucb(
    params: &dpdtol::bandit::law::anytime_lazy_ucb::LazyUcbParams,
    arms: usize,
    rewards: &[impl AsRef<[dpdtol::num::Q]>],
    runs: u64,
    seed: u64,
) -> Vec<u64> {
    use dpdtol::bandit::policy::anytime_lazy_ucb::AnytimeLazyUcb;
    let new_policy = || {
        let mut policy = AnytimeLazyUcb::new(arms, to_f64(&params.epsilon));
        policy.means.noise_scale = to_f64(&params.scale);
        policy.means.bonus = to_f64(&params.bonus);
        policy
    };
    simulate_policy(new_policy, arms, rewards, runs, seed)
}

/// A rational as the nearest f64 (through decimal strings).
pub fn to_f64(x: &dpdtol::num::Q) -> f64 {
    x.numer().to_string().parse::<f64>().unwrap() / x.denom().to_string().parse::<f64>().unwrap()
}

/// Play a fresh `new_policy()` (`arms` arms) round by round on the reward
/// table `rewards`, `runs` times from one generator seeded by `seed`; the
/// counts of the pull sequences, each at its [`simulated_index`] (the
/// order of [`dpdtol::bandit::law::law`] when the law's candidates are
/// every sequence that pulls each arm once first; else [`in_law_order`]).
pub fn simulate_policy<P: dpdtol::bandit::policy::Policy>(
    new_policy: impl Fn() -> P,
    arms: usize,
    rewards: &[impl AsRef<[dpdtol::num::Q]>],
    runs: u64,
    seed: u64,
) -> Vec<u64> {
    use dpdtol::bandit::policy::NoiseRng;
    use rand::SeedableRng;
    let horizon = rewards.len();
    let mut counts = vec![0u64; arms.pow(horizon.saturating_sub(arms) as u32)];
    let mut rng = NoiseRng::seed_from_u64(seed);
    let mut pulls = Vec::with_capacity(horizon);
    for _ in 0..runs {
        let mut policy = new_policy();
        for (t, row) in rewards.iter().enumerate() {
            let pull = policy.choose(t as u64 + 1, 1, &mut rng);
            pulls.push(pull.arm);
            policy.observe(pull.arm, 1, to_f64(&row.as_ref()[pull.arm]), &mut rng);
        }
        counts[simulated_index(&pulls, arms)] += 1;
        pulls.clear();
    }
    counts
}

/// The index of a pull sequence among [`simulate_policy`]'s counts: rounds
/// K+1.. as base-K digits, the first most significant.
pub fn simulated_index(pulls: &[usize], arms: usize) -> usize {
    pulls
        .iter()
        .skip(arms)
        .fold(0, |index, &arm| arms * index + arm)
}

/// [`simulate_policy`]'s counts in the order of the candidate pull
/// sequences of `law_of` on `horizon` rounds (the order of
/// [`dpdtol::bandit::law::law`]), which must hold every simulated sequence.
pub fn in_law_order(
    law_of: &impl dpdtol::bandit::law::PullLaw,
    horizon: usize,
    observed: &[u64],
) -> Vec<u64> {
    let arms = law_of.arms();
    let counts: Vec<u64> = law_of
        .sequences(horizon)
        .iter()
        .map(|pulls| observed[simulated_index(pulls, arms)])
        .collect();
    assert_eq!(
        counts.iter().sum::<u64>(),
        observed.iter().sum::<u64>(),
        "simulated pull sequences outside the law's candidates"
    );
    counts
}

/// The law of `law_of` on `rewards` in f64 agrees with the certified
/// backend (dashu, 128 bits) to a relative `1e-9` plus `abs`.
pub fn assert_f64_agrees(
    law_of: &impl dpdtol::bandit::law::PullLaw,
    rewards: &[impl AsRef<[dpdtol::num::Q]>],
    abs: f64,
) {
    use dpdtol::bandit::law::law;
    use dpdtol::num::{Certified, Precision, Real};
    let exact = law::<Certified>(law_of, rewards, &Precision(128)).unwrap();
    let float = law::<f64>(law_of, rewards, &()).unwrap();
    for ((pulls, c), (_, f)) in exact.iter().zip(&float) {
        let c = c.to_f64();
        assert!(
            (c - f).abs() <= 1e-9 * c.max(1e-300) + abs,
            "{pulls:?}: {c} vs {f}"
        );
    }
}

/// The law of `law_of` on `rewards` in MPFR intervals meets dashu's, pull
/// sequence by pull sequence (128 bits each).
#[cfg(feature = "mpfr")]
pub fn assert_mpfr_agrees(
    law_of: &impl dpdtol::bandit::law::PullLaw,
    rewards: &[impl AsRef<[dpdtol::num::Q]>],
) {
    use dpdtol::bandit::law::law;
    use dpdtol::num::{Certified, Interval, MpfrFloat, Precision, Real};
    let a = law::<Certified>(law_of, rewards, &Precision(128)).unwrap();
    let b = law::<Interval<MpfrFloat>>(law_of, rewards, &Precision(128)).unwrap();
    for ((pulls, x), (_, y)) in a.iter().zip(&b) {
        let (xl, xh) = x.enclosure().unwrap();
        let (yl, yh) = y.enclosure().unwrap();
        assert!(
            xl <= yh && yl <= xh,
            "{pulls:?}: [{xl}, {xh}] vs [{yl}, {yh}]"
        );
    }
}

/// Pearson's chi-square of the simulated pull-sequence counts `observed`
/// (in the order of [`dpdtol::bandit::law::law`]) against the
/// certified law of `law_of` on `rewards`: the p-value must exceed `1e-4`;
/// `what` (the case, its seed and runs) goes in the failure message.
pub fn assert_law_fits(
    law_of: &impl dpdtol::bandit::law::PullLaw,
    rewards: &[impl AsRef<[dpdtol::num::Q]>],
    observed: &[u64],
    what: &str,
) {
    use dpdtol::num::{Certified, Precision};
    let law = dpdtol::bandit::law::law::<Certified>(law_of, rewards, &Precision(128)).unwrap();
    assert_fits(&law, observed, what);
}

/// [`assert_law_fits`] against a law already computed.
pub fn assert_fits(law: &[(Vec<usize>, dpdtol::num::Certified)], observed: &[u64], what: &str) {
    use dpdtol::num::Real;
    let expected: Vec<f64> = law.iter().map(|(_, p)| p.to_f64()).collect();
    let p = chi_square_p_value(observed, &expected);
    assert!(p > 1e-4, "{what}: chi-square p = {p}");
}

/// A merged report's output without what the merge re-verified by
/// recomputation (the JSON key `spot_check`, the paragraph's last line
/// `  re-verified: …`), which the whole run does not have: the rest is the
/// whole run's byte for byte. Panics unless it is there exactly once.
pub fn without_spot_check(merged: &str) -> String {
    let key = "\"spot_check\":{";
    let marker = "\n  re-verified: ";
    let (start, end) = match (merged.find(key), merged.find(marker)) {
        (Some(start), None) => {
            let close = start + merged[start..].find('}').expect("a closed spot_check");
            (start, close + 2)
        }
        (None, Some(start)) => {
            let line_end = merged[start + 1..]
                .find('\n')
                .map_or(merged.len(), |e| start + 1 + e);
            (start, line_end)
        }
        _ => panic!("not a merged report with what it re-verified: {merged}"),
    };
    let out = format!("{}{}", &merged[..start], &merged[end..]);
    assert!(!out.contains(key) && !out.contains(marker), "{merged}");
    out
}
