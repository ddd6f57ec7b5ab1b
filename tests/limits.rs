//! Long work is estimated and refused before
//! it starts (with the flag that forces it), every certified digit printed is
//! certain, and valid inputs at extreme scales are computed, not refused.
//! Each test runs an exact command (or its file variant).

mod common;

use common::{answered, json, refused, words};
use dpdtol::num::{parse_rational, Q};
use num_traits::{One, Zero};
use serde_json::Value;
use std::time::{Duration, Instant};

/// `e^{−1}` enclosed by the alternating Taylor series Σ_{n≤40} (−1)^n/n!,
/// remainder below 1/41! < 1e-49 (independent of the crate's exp).
fn exp_minus_one() -> (Q, Q) {
    common::exp_taylor(-1, 40, "1e-49")
}

fn losses_0_to(k: usize, denominator: usize) -> String {
    (0..k)
        .map(|i| format!("{i}/{denominator}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// A decimal of the output as an exact rational, whatever its exponent,
/// read independently of the crate's parser (which the round-trip test
/// checks against it).
fn decimal(text: &str) -> Q {
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i64>().unwrap()),
        None => (text, 0),
    };
    let ten = num_bigint::BigInt::from(10);
    let power = ten.pow(exponent.unsigned_abs() as u32);
    let (negative, mantissa) = match mantissa.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, mantissa),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: num_bigint::BigInt = format!("0{whole}{fraction}").parse().unwrap();
    let m = Q::new(digits, ten.pow(fraction.len() as u32));
    let m = if negative { -m } else { m };
    if exponent >= 0 {
        m * Q::from_integer(power)
    } else {
        m / Q::from_integer(power)
    }
}

/// The decimal exponent `e` of a printed decimal (`10^e ≤ |x| < 10^{e+1}`)
/// and its number of significant digits.
fn exponent_and_digits(text: &str) -> (i64, i64) {
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i64>().unwrap()),
        None => (text, 0),
    };
    let mantissa = mantissa.trim_start_matches('-');
    let all: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let leading = all.len() - all.trim_start_matches('0').len();
    let significant = (all.len() - leading).max(1) as i64;
    let before_point = mantissa.split('.').next().unwrap().len() as i64;
    (exponent + before_point - 1 - leading as i64, significant)
}

/// Every digit printed is certain: the printed interval (outward-rounded at
/// 40 digits, so up to one unit of the 40th digit wider than the enclosure)
/// lies in the rounding cell `[x − ½u, x + ½u]` of the printed decimal `x`,
/// `u` one unit of its last digit. Printing 40 digits of a midpoint when
/// fewer are certain fails this by many orders of magnitude.
fn assert_digits_certain(value: &Value, interval: &Value) {
    let text = value.as_str().expect("a decimal string");
    let x = decimal(text);
    let (e, d) = exponent_and_digits(text);
    let unit = |k: i64| {
        let ten = num_bigint::BigInt::from(10);
        if k >= 0 {
            Q::from_integer(ten.pow(k as u32))
        } else {
            Q::new(1.into(), ten.pow((-k) as u32))
        }
    };
    let half_cell = unit(e - d + 1) / Q::from_integer(2.into());
    let slack = unit(e - 39);
    let lo = decimal(interval[0].as_str().unwrap());
    let hi = decimal(interval[1].as_str().unwrap());
    assert!(
        lo >= &x - &half_cell - &slack && hi <= &x + &half_cell + &slack,
        "{text} is not certain within {interval}"
    );
}

// ---- Class 6: valid input refused ----

#[test]
fn gumbel_at_scale_1e309_is_the_ordinary_law_of_gap_over_scale_one() {
    // gap/scale = 1 exactly: P = (1, e^{−1}) / (1 + e^{−1}).
    let (lo, hi) = exp_minus_one();
    for (scale, gap) in [("1e309", "1e309"), ("1e-330", "1e-330")] {
        let losses = format!("0,{gap}");
        let v = json(&[
            "mechanism",
            "--noise",
            "gumbel",
            "--scale",
            scale,
            "--losses",
            &losses,
            "--json",
        ]);
        let p1 = parse_rational(v["law"][1].as_str().unwrap()).unwrap();
        let (low, high) = (&lo / (Q::one() + &lo), &hi / (Q::one() + &hi));
        let tolerance = parse_rational("1e-39").unwrap();
        assert!(
            p1 >= &low - &tolerance && p1 <= &high + &tolerance,
            "scale {scale}: {p1} not e^-1/(1+e^-1)"
        );
        assert_digits_certain(&v["law"][1], &v["law_interval"][1]);
    }
}

#[test]
fn a_weight_of_e_to_minus_300000_prints_in_scientific_notation() {
    // gap/scale = 300000 > 131072 = 2^17. P(2) = e^{−300000}/(1 + …)
    // = 10^{−300000·log10 e}: exponent and leading digits from f64 logarithms
    // (300000·log10 e is known to ~1e-11 absolute, so 9 digits of mantissa).
    let v = gumbel_pair_at_gap("300000");
    let text = v["law"][1].as_str().unwrap();
    let (mantissa, exponent) = text.split_once('e').expect("scientific notation");
    let log10 = -300000.0 * std::f64::consts::LOG10_E;
    let expected_exponent = log10.floor();
    assert_eq!(
        exponent.parse::<f64>().unwrap(),
        expected_exponent,
        "{text}"
    );
    let expected_mantissa = 10f64.powf(log10 - expected_exponent);
    let mantissa: f64 = mantissa.parse().unwrap();
    assert!(
        (mantissa - expected_mantissa).abs() < 1e-8,
        "{text}: mantissa {mantissa} vs {expected_mantissa}"
    );
    assert_digits_certain(&v["law"][1], &v["law_interval"][1]);

    // The round trip: the printed tiny value (about 10^−130289) is read back
    // by the command line, exactly, as a loss and as the scale: gap/scale =
    // 1, so P(2) = e^{−1}/(1 + e^{−1}), enclosed by the Taylor series.
    let parsed = parse_rational(text).expect("a printed value parses");
    assert_eq!(parsed, decimal(text), "{text}");
    let losses = format!("0,{text}");
    let back = json(&[
        "mechanism",
        "--noise",
        "gumbel",
        "--scale",
        text,
        "--losses",
        &losses,
        "--json",
    ]);
    let (lo, hi) = interval(&back["law_interval"][1]);
    let (e_lo, e_hi) = exp_minus_one();
    let one = Q::one();
    let (p_lo, p_hi) = (&e_lo / (&one + &e_lo), &e_hi / (&one + &e_hi));
    assert!(lo <= p_hi && p_lo <= hi, "[{lo}, {hi}]");
    assert!(&hi - &lo < Q::new(1.into(), 10u32.pow(9).into()));
}

/// `mechanism --noise gumbel --scale 1 --losses 0,<gap> --json`: the law
/// `(1, e^{−gap})/(1 + e^{−gap})` of two actions.
fn gumbel_pair_at_gap(gap: &str) -> Value {
    let losses = format!("0,{gap}");
    json(&[
        "mechanism",
        "--noise",
        "gumbel",
        "--scale",
        "1",
        "--losses",
        &losses,
        "--json",
    ])
}

/// `[lo, hi]` of a JSON interval of decimal strings.
fn interval(v: &Value) -> (Q, Q) {
    let end = |i: usize| decimal(v[i].as_str().expect("a decimal string"));
    (end(0), end(1))
}

/// The smallest weight `mechanism` prints without `--force`, `e^{−460000}`
/// (gap 460000 at scale 1), reads back through the parser, and equals the
/// independent reading of the decimal; `e^{−460000} = 10^{−199775.46…}`
/// (460000/ln 10 = 199775.4617), so its exponent is −199776.
#[test]
fn the_smallest_weight_printed_without_force_reads_back() {
    let v = gumbel_pair_at_gap("460000");
    let text = v["law"][1].as_str().expect("a decimal string");
    assert!(text.ends_with("e-199776"), "{text}");
    let parsed = parse_rational(text).expect("it reads back");
    assert_eq!(parsed, decimal(text), "{text}");
}

#[test]
fn decimal_exponents_past_the_limit_are_refused_at_once() {
    // 10^−10^9 would be a 3.3-gigabit integer: refused on the exponent's
    // digits, before any power of ten is formed.
    for losses in [
        "0,1e-1000000000",
        "0,1e99999999999999999999999",
        "0,1.5e-200000",
        "1e-999999,0",
    ] {
        refused(
            &[
                "mechanism",
                "--noise",
                "gumbel",
                "--scale",
                "1",
                "--losses",
                losses,
            ],
            "decimal exponents up to",
        );
    }
    // The limit itself reads, quickly.
    let started = Instant::now();
    assert!(parse_rational("1e-200000").is_ok());
    assert!(parse_rational("1.5e-199999").is_ok());
    assert!(started.elapsed() < Duration::from_secs(20));
    // A Laplace piece too short for the precision cap is refused at once
    // (it doubled the precision through every pass up to the cap).
    refused(
        &[
            "mechanism",
            "--noise",
            "laplace",
            "--scale",
            "1",
            "--losses",
            "1e-30000,0",
        ],
        "precision cap",
    );
}

#[test]
fn a_weight_below_e_to_minus_460000_is_refused_with_force_named() {
    refused(
        &[
            "mechanism",
            "--noise",
            "gumbel",
            "--scale",
            "1",
            "--losses",
            "0,460001",
        ],
        "--force",
    );
    // The same through a unit weight (compared through a certified ln).
    refused(
        &[
            "mechanism",
            "--noise",
            "gumbel",
            "--base",
            "1/2",
            "--losses",
            "0,2000000",
        ],
        "--force",
    );
    // Past e^(-2^24) even --force refuses (the decimal alone would need
    // integers of tens of millions of bits).
    refused(
        &[
            "mechanism",
            "--noise",
            "gumbel",
            "--scale",
            "1",
            "--losses",
            "0,40000000",
            "--force",
        ],
        "even with --force",
    );
}

// ---- Class 3: unbounded work without a word ----

#[test]
fn laplace_past_k_1190_is_refused_before_the_work() {
    // Guards against K = 1000 running for minutes without a word (the K³/3
    // closed form).
    // The O(K²) recurrence computes K = 1000 in 27 s (release); the limit
    // of 10^7 multiply-adds (≈ 7K²) refuses K = 2000 at once, naming --force.
    use dpdtol::mechanism::{laplace, MAX_LAPLACE_WORK};
    let parsed = |text: &str| -> Vec<Q> {
        text.split(',')
            .map(|l| parse_rational(l).unwrap())
            .collect()
    };
    assert!(laplace::cost(&parsed(&losses_0_to(1000, 100))) <= MAX_LAPLACE_WORK);
    let losses = losses_0_to(2000, 100);
    assert!(laplace::cost(&parsed(&losses)) > MAX_LAPLACE_WORK);
    refused(
        &[
            "mechanism",
            "--noise",
            "laplace",
            "--scale",
            "1",
            "--losses",
            &losses,
        ],
        "--force",
    );
}

#[test]
fn permute_and_flip_past_k_10000_is_refused_before_the_work() {
    let losses = losses_0_to(10_001, 1000);
    refused(
        &[
            "mechanism",
            "--noise",
            "exponential",
            "--scale",
            "1",
            "--losses",
            &losses,
        ],
        "K = 10001",
    );
}

#[test]
fn an_exact_permute_and_flip_law_too_costly_gives_way_to_the_certified_one() {
    // Base 1/2 on losses 0..299: the exact rationals reach 45 000 bits.
    let losses = losses_0_to(300, 1);
    let v = json(&[
        "mechanism",
        "--noise",
        "exponential",
        "--base",
        "1/2",
        "--losses",
        &losses,
        "--json",
    ]);
    assert_eq!(v["kind"], "certified");
    assert!(v["why_not_exact"].as_str().unwrap().contains("--force"));
    // P(1) ≥ 1/K (the best action is the most likely) and the law sums to 1
    // within its enclosures.
    let ends = |i: usize| -> (Q, Q) {
        let pair = &v["law_interval"][i];
        (
            parse_rational(pair[0].as_str().unwrap()).unwrap(),
            parse_rational(pair[1].as_str().unwrap()).unwrap(),
        )
    };
    let (lo, hi) = (0..300)
        .map(ends)
        .fold((Q::zero(), Q::zero()), |acc, (a, b)| (acc.0 + a, acc.1 + b));
    assert!(lo <= Q::one() && hi >= Q::one(), "sum in [{lo}, {hi}]");
    // Small instance stays exact: 2^-g weights, K = 3.
    let v = json(&[
        "mechanism",
        "--noise",
        "exponential",
        "--base",
        "1/2",
        "--losses",
        "0,1,2",
        "--json",
    ]);
    assert_eq!(v["kind"], "exact");
}

#[test]
fn privacy_threads_100000_is_refused() {
    refused(
        &[
            "privacy",
            "--algorithm",
            "ftl",
            "--actions",
            "2",
            "--horizon",
            "1",
            "--alphabet",
            "0,1",
            "--epsilon",
            "1",
            "--threads",
            "100000",
        ],
        "--threads 100000",
    );
}

#[test]
fn privacy_at_epsilon_one_million_finishes_and_prints_e_to_the_epsilon() {
    // It hung in printing e^(10^6) (rational gcds on 1.4-million-bit numbers).
    let started = Instant::now();
    let v = json(&[
        "privacy",
        "--algorithm",
        "wu-wang",
        "--actions",
        "2",
        "--horizon",
        "3",
        "--alphabet",
        "0,1",
        "--epsilon",
        "1000000",
        "--json",
    ]);
    assert!(started.elapsed() < Duration::from_secs(60));
    assert_eq!(v["verdict"], "private");
    // e^{10^6} = 10^{434294.48190…}: exponent and leading digits from f64.
    let text = v["bound"].as_str().unwrap();
    let (mantissa, exponent) = text.split_once('e').expect("scientific notation");
    let log10 = 1e6 * std::f64::consts::LOG10_E;
    assert_eq!(exponent.parse::<f64>().unwrap(), log10.floor(), "{text}");
    let expected = 10f64.powf(log10 - log10.floor());
    assert!(
        (mantissa.parse::<f64>().unwrap() - expected).abs() < 1e-8,
        "{text}"
    );
}

#[test]
fn wu_wang_laplace_regret_at_k_1000_is_refused_before_the_work() {
    // K = 300 costs 6·10^6 multiply-adds
    // over its 10 epochs and runs; K = 1000 is over the limit.
    let means: Vec<String> = (0..1000).map(|i| format!("{i}/1000")).collect();
    refused(
        &[
            "regret",
            "--algorithm",
            "wu-wang:laplace",
            "--means",
            &means.join(","),
            "--setting",
            "deterministic",
            "--horizon",
            "1000",
            "--epsilon",
            "1",
            "--no-bounds",
        ],
        "--force",
    );
}

#[test]
fn ftl_bernoulli_exact_path_follows_its_cost_model() {
    use dpdtol::regret::bernoulli::{exact_ftl_cost, MAX_EXACT_FTL_WORK};
    use dpdtol::regret::Instance;
    let inst = Instance::new(vec![
        parse_rational("0.5").unwrap(),
        parse_rational("0.4").unwrap(),
    ])
    .unwrap();
    // T = 512 took 97 s exactly: the model sends it to the certified engine;
    // T = 64 stays exact; the model is monotone in T.
    assert!(exact_ftl_cost(&inst, 512) > MAX_EXACT_FTL_WORK);
    assert!(exact_ftl_cost(&inst, 64) <= MAX_EXACT_FTL_WORK);
    assert!(exact_ftl_cost(&inst, 200) < exact_ftl_cost(&inst, 201));
    let v = json(&[
        "regret",
        "--algorithm",
        "ftl",
        "--means",
        "0.5,0.4",
        "--setting",
        "bernoulli",
        "--horizon",
        "64",
        "--epsilon",
        "1",
        "--no-bounds",
        "--json",
    ]);
    assert_eq!(v["kind"], "exact");
}

/// `K` means spread over `[0.1, 0.9]`, distinct (`0.1 + 0.8·i/(K−1)` to four
/// decimals).
fn spread_means(k: usize) -> String {
    (0..k)
        .map(|i| format!("{:.4}", 0.1 + 0.8 * i as f64 / (k - 1) as f64))
        .collect::<Vec<_>>()
        .join(",")
}

#[test]
fn ftl_bernoulli_certified_at_k_200_is_costed_and_refused_past_its_limit() {
    use dpdtol::algorithm::Config;
    use dpdtol::regret::bernoulli::{cost, Engine, DEFAULT_LIMIT};
    use dpdtol::regret::{Instance, Plan};
    // `--actions`/`--means` K = 200, T = 100: the leader's product is kept
    // across actions, K t per round (rebuilt per action it would be K² t and
    // run over a minute with no estimate):
    // 1.6·10^7 multiply-adds, 6 s in release, under the limit; T = 2000 is
    // 400 times that and refused at once, naming its size and --force.
    let means = spread_means(200);
    let inst = Instance::new(
        means
            .split(',')
            .map(|m| parse_rational(m).unwrap())
            .collect(),
    )
    .unwrap();
    let plan = Plan::of(&Config::new(
        dpdtol::algorithm::AlgorithmId::Ftl,
        200,
        Q::one(),
    ))
    .unwrap();
    let at = |t: u128| {
        cost::<dpdtol::num::Certified>(&plan, &inst, t, &dpdtol::num::Precision(192), Engine::Auto)
    };
    assert!(at(100) <= DEFAULT_LIMIT, "{}", at(100));
    assert!(at(2000) > DEFAULT_LIMIT, "{}", at(2000));
    // Quadratic in T, linear in K.
    assert_eq!(at(200) / at(100), 4);
    let mut args = common::regret_command("ftl", &means, "bernoulli", "2000", "1");
    args.push("--no-bounds");
    refused(&args, "--force");
    // A smaller run of the same engine finishes (debug build) and stays
    // certified.
    let means = spread_means(40);
    let mut args = common::regret_command("ftl", &means, "bernoulli", "40", "1");
    args.extend(["--no-bounds", "--json"]);
    let started = Instant::now();
    let v = json(&args);
    assert_eq!(v["kind"], "certified");
    assert!(started.elapsed() < Duration::from_secs(60));
}

// ---- Losses and means from a file ----

/// `text` in the scratch file `name` of this test run.
fn write(name: &str, text: &str) -> String {
    scratch_file(name, text.as_bytes())
}

#[test]
fn losses_file_csv_and_json_give_the_command_line_law() {
    let inline = json(&[
        "mechanism",
        "--noise",
        "gumbel",
        "--base",
        "1/3",
        "--losses",
        "0,1/2,1,2",
        "--json",
    ]);
    for (name, text) in [
        ("l.csv", "0, 1/2\n1\n2\n"),
        ("l.json", r#"["0", "1/2", 1, "2"]"#),
    ] {
        let path = write(name, text);
        let v = json(&[
            "mechanism",
            "--noise",
            "gumbel",
            "--base",
            "1/3",
            "--losses-file",
            &path,
            "--json",
        ]);
        assert_eq!(v["law_exact"], inline["law_exact"], "{name}");
        let _ = std::fs::remove_file(&path);
    }
}

#[test]
fn bad_list_files_are_one_line() {
    let path = write("bad.csv", "0,1,zero\n");
    refused(
        &[
            "mechanism",
            "--noise",
            "gumbel",
            "--scale",
            "1",
            "--losses-file",
            &path,
        ],
        "entry 3",
    );
    let _ = std::fs::remove_file(&path);
    refused(
        &[
            "mechanism",
            "--noise",
            "gumbel",
            "--scale",
            "1",
            "--losses-file",
            "/dev/zero",
        ],
        "16 MiB",
    );
    refused(
        &[
            "regret",
            "--algorithm",
            "ftl",
            "--means-file",
            "/nonexistent/m.csv",
            "--setting",
            "deterministic",
            "--horizon",
            "8",
            "--epsilon",
            "1",
        ],
        "cannot open",
    );
}

#[test]
fn means_file_gives_the_command_line_regret() {
    let path = write("m.json", r#"["0.5", "0.25", "3/4"]"#);
    let args = |means: &[&str]| {
        let mut a = vec![
            "regret",
            "--algorithm",
            "wu-wang",
            "--setting",
            "deterministic",
            "--horizon",
            "100",
            "--epsilon",
            "1",
            "--json",
        ];
        a.extend_from_slice(means);
        json(&a)
    };
    let inline = args(&["--means", "0.5,0.25,3/4"]);
    let from_file = args(&["--means-file", &path]);
    assert_eq!(inline["regret_interval"], from_file["regret_interval"]);
    let _ = std::fs::remove_file(&path);
}

// ---- Class 5: digits that are not certain ----

#[test]
fn certified_mechanism_decimals_carry_only_certain_digits() {
    let v = json(&[
        "mechanism",
        "--noise",
        "laplace",
        "--scale",
        "1/3",
        "--losses",
        "0,1/7,1/7,2,5",
        "--json",
    ]);
    for i in 0..5 {
        assert_digits_certain(&v["law"][i], &v["law_interval"][i]);
    }
}

/// Guards against printing 40 digits of which about 6 are right:
/// the digits printed are certain, and the output says why no more are.
/// Long in a debug build (a minute): run by CI in release.
#[test]
#[ignore]
fn prefix_softmax_at_2_pow_100_prints_certain_digits_and_the_reason() {
    let v = json(&[
        "regret",
        "--algorithm",
        "prefix-softmax",
        "--means",
        "0.5,0.4999",
        "--horizon",
        "2^100",
        "--setting",
        "deterministic",
        "--epsilon",
        "1",
        "--no-bounds",
        "--json",
    ]);
    assert_digits_certain(&v["regret"], &v["regret_interval"]);
    assert_eq!(v["digits_certain"], false);
    assert!(v["digits_reason"]
        .as_str()
        .unwrap()
        .contains("integral bound"));
}

// ------------------------------------ every size guarded, no silent hang

/// A scratch file of this test run.
fn scratch_file(name: &str, bytes: &[u8]) -> String {
    common::scratch_file("limits", name, bytes)
}

#[test]
fn an_npy_shape_whose_product_overflows_is_refused() {
    // (2^32, 2^32 + 1) values of 4 bytes: the product overflows 64 bits.
    let header = "{'descr': '<i4', 'fortran_order': False, 'shape': (4294967296, 4294967297), }";
    let mut header = header.to_string();
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend((header.len() as u16).to_le_bytes());
    bytes.extend(header.as_bytes());
    bytes.extend([0u8; 16]);
    let file = scratch_file("overflow.npy", &bytes);
    let args = [
        "gof",
        "--mechanism",
        "gumbel",
        "--scale",
        "1",
        "--losses",
        "0,1",
        "--samples",
        &file,
    ];
    refused(&args, "shape (4294967296, 4294967297)");
}

#[test]
fn bandit_memory_is_guarded_in_runs_and_rounds() {
    // 10^8 runs at T = 2 keep 8.8 GB of results: refused even with --force.
    for force in ["", " --force"] {
        let command =
            format!("bandit --algorithm ucb1 --means 0.5,0.4 --horizon 2 --runs 100000000{force}");
        let args = words(&command);
        refused(&args, "memory cap");
    }
    // T = 10^19 with --force: the proof bound's table no longer grows with
    // T (it aborted on a capacity overflow), and the lazy schedule
    // simulates it in a moment.
    let run = answered(
        "bandit --algorithm anytime-lazy-ucb --epsilon 1 --means 0.5,0.4 --horizon 1e19 --runs 2 --force",
        60.0,
    );
    assert!(
        run.stdout.contains("T = 10000000000000000000"),
        "{}",
        run.stdout
    );
}

#[test]
fn audit_memory_does_not_grow_with_an_action_value() {
    // One action of 2·10^9 made the audit build 2·10^9 candidate events.
    let first = scratch_file("large-action.csv", b"1,2\n2000000000,1\n1,1\n2,2\n");
    let second = scratch_file("small-actions.csv", b"1,1\n2,1\n");
    let run = answered(&format!("audit --first {first} --second {second}"), 20.0);
    assert!(run.stdout.contains("ε ≥"), "{}", run.stdout);
}

#[test]
fn statistical_audit_sizes_are_guarded_near_2_pow_64_and_in_the_alphabet() {
    let base = "privacy --algorithm lazy-dp-ts --actions 2 --epsilon 1";
    // A run count near 2^64 is refused (it wrapped past the guard).
    let command = format!("{base} --horizon 2 --alphabet 0,1 --runs 18446744073709551615");
    let args = words(&command);
    refused(&args, "over the limit of 268435456");
    // 300 reward values at horizon 8: the neighbour selection's tables are
    // refused by the memory cap even with --force (it was never estimated).
    let alphabet = losses_0_to(300, 300);
    let command = format!("{base} --horizon 8 --alphabet {alphabet} --runs 2 --force");
    let args = words(&command);
    refused(&args, "memory cap");
}

#[test]
fn sample_memory_is_guarded_even_with_force() {
    let out = scratch_file("never.csv", b"");
    let command = format!(
        "sample --mechanism gumbel --scale 1 --losses 0,1 --n 1000000000 --seed 1 --out {out} --force"
    );
    let args = words(&command);
    refused(&args, "memory cap");
    // The refusal names the way out: the most sequences a run holds (one
    // round of two actions, 8 bytes a value: 2^31/8), and other seeds.
    refused(&args, "1000000000 sequences of 1 rounds");
    refused(
        &args,
        "--n 268435456 fits, and more sequences come from further runs with other --seed values",
    );
}

#[test]
fn an_online_algorithms_epsilon_past_2_pow_24_is_refused_naming_the_flag() {
    // ε = 10^18 aborted on a 180 PB allocation; ε = 10^10 ran for minutes.
    let base = "privacy --algorithm wu-wang --actions 2 --horizon 2 --alphabet 0,1";
    for (flags, needle) in [
        (
            "--epsilon 1e18",
            "--epsilon 1000000000000000000 is over the limit of 16777216",
        ),
        (
            "--epsilon 16777217",
            "--epsilon 16777217 is over the limit of 16777216",
        ),
        ("--epsilon 1e18 --force", "--epsilon 1000000000000000000"),
        (
            "--epsilon 1 --noise-scale 1e-8",
            "--noise-scale 1/100000000 is under the limit of 1/16777216",
        ),
    ] {
        let command = format!("{base} {flags}");
        refused(&words(&command), needle);
    }
    let losses = scratch_file("two-rounds.csv", b"0,1\n1,0\n");
    let command = format!(
        "law --algorithm wu-wang --noise laplace --resample 0 --epsilon 1e10 --losses-file {losses}"
    );
    refused(&words(&command), "--epsilon 10000000000 is over the limit");
}

#[test]
fn regrets_epsilon_past_2_pow_60_is_refused_and_tiny_weights_are_enclosed() {
    let command = |epsilon: &str, horizon: &str| {
        format!("regret --algorithm wu-wang,prefix-softmax,hu-rnm-ftnl,naive-ftnl --means 0.5,0.2,0.1 --setting bernoulli --horizon {horizon} --epsilon {epsilon}")
    };
    refused(
        &words(&command("1152921504606846977", "4")),
        "--epsilon 1152921504606846977 is over the limit of 2^60",
    );
    // At 2^60 the products of the laws' weights fall below 2^(-2^63):
    // rounded outward (they panicked at T = 8), the regret is computed.
    let run = answered(&command("1152921504606846976", "64"), 120.0);
    assert!(
        run.stdout.contains("wu-wang (laplace): Reg_T = 2.49266"),
        "{}",
        run.stdout
    );
}

#[test]
fn dp_se_laws_count_their_integrations_at_every_horizon() {
    // Epochs of R = 1 round a block: at T = 600, 299 epoch ends before the
    // horizon, the sequences branching at the i-th end with i factors each
    // (2·(1 + … + 299)) and the last one with 299: 89 999 integrations.
    let rewards = |t: usize| {
        let text = "1/4,3/4\n".repeat(t);
        scratch_file(&format!("dp-se-{t}.csv"), text.as_bytes())
    };
    let file = rewards(600);
    let command =
        format!("law --algorithm dp-se --epsilon 1 --epoch-length 1 --rewards-file {file}");
    refused(
        &words(&command),
        "dp-se's law on T = 600 rounds: its closed-form integrations: 89999, over the limit of 65536; pass --force",
    );
    // Past T = 64 (where the count was not computed) a law of the printed
    // epoch lengths is answered.
    let file = rewards(100);
    let run = answered(
        &format!("law --algorithm dp-se --epsilon 1 --rewards-file {file}"),
        60.0,
    );
    assert!(run.stdout.contains("dp-se"), "{}", run.stdout);
}

#[test]
fn a_noise_scale_of_1e99999_is_refused_by_the_exact_bandit_checks_and_their_merge() {
    for algorithm in ["anytime-lazy-ucb", "dp-se", "hybrid-ucb"] {
        let command = format!(
            "privacy --algorithm {algorithm} --actions 2 --horizon 3 --alphabet 0,1 --epsilon 1 --noise-scale 1e99999"
        );
        let args = words(&command);
        refused(&args, "4096 bits");
    }
    // The same scale in a bandit shard file.
    let shard = |i: &str| {
        let command = format!(
            "privacy --algorithm anytime-lazy-ucb --actions 2 --horizon 3 --alphabet 0,1 --epsilon 1 --shard {i}/2 --json"
        );
        let args = words(&command);
        let mut value = json(&args);
        value["noise_scale"] = Value::String("1e99999".into());
        scratch_file(
            &format!("bandit-shard-{i}.json"),
            value.to_string().as_bytes(),
        )
    };
    let files = format!("{},{}", shard("1"), shard("2"));
    refused(&["privacy", "--merge", &files], "4096 bits");
}

#[test]
fn threads_past_1024_are_refused_on_every_command() {
    for command in [
        "bandit --algorithm ucb1 --means 0.5,0.4 --horizon 100 --runs 2 --threads 100000",
        "privacy --algorithm anytime-lazy-ucb --actions 2 --horizon 3 --alphabet 0,1 --epsilon 1 --threads 100000",
        "privacy --algorithm lazy-dp-ts --actions 2 --horizon 3 --alphabet 0,1 --epsilon 1 --runs 100 --threads 100000",
        "privacy --mechanism gumbel --actions 2 --alphabet 0,1 --epsilon 1 --threads 100000",
    ] {
        let args = words(command);
        // The mechanism has no threads: refused as a flag that does not apply.
        let needle = if command.contains("--mechanism") { "does not apply" } else { "1024" };
        refused(&args, needle);
    }
}

#[test]
fn pipes_and_devices_are_refused_on_every_input_path() {
    let dir = std::env::temp_dir().join(format!("dpdtol-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    for file in [fifo.display().to_string(), "/dev/null".to_string()] {
        for command in [
            format!("law --algorithm ftl --epsilon 1 --losses-file {file}"),
            format!("gof --mechanism gumbel --scale 1 --losses 0,1 --samples {file}"),
            format!("audit --first {file} --second {file}"),
            format!("mechanism --noise gumbel --scale 1 --losses-file {file}"),
            format!("regret --algorithm ftl --means-file {file} --setting deterministic --horizon 4 --epsilon 1"),
            format!("privacy --merge {file}"),
            format!("verify --merge {file}"),
        ] {
            let args = words(&command);
            refused(&args, "not a regular file");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_value_a_double_cannot_hold_is_named_as_given() {
    let samples = scratch_file("four.csv", b"1\n2\n1\n2\n");
    for (command, given) in [
        (
            "bandit --algorithm anytime-lazy-ucb --means 0.5,0.4 --horizon 10 --runs 2 --epsilon 1e-400".to_string(),
            "--epsilon 1e-400",
        ),
        (
            "bandit --algorithm dp-se --means 0.5,0.4 --horizon 10 --runs 2 --epsilon 1 --beta 1e-400".to_string(),
            "--beta 1e-400",
        ),
        (
            "bandit --algorithm ucb1 --means 0.5,0.4 --horizon 10 --runs 2 --confidence 1e400".to_string(),
            "--confidence 1e400",
        ),
        (
            format!("gof --mechanism gumbel --scale 1 --losses 0,1 --samples {samples} --alpha 1e-400"),
            "--alpha 1e-400",
        ),
        (
            format!("audit --first {samples} --second {samples} --confidence 1e-400"),
            "--confidence 1e-400",
        ),
    ] {
        let args = words(&command);
        refused(&args, given);
        let run = common::capped(&args, 5.0);
        assert!(!run.stderr.contains("got 0"), "{command}: {}", run.stderr);
    }
}

#[test]
fn usage_errors_are_in_the_users_terms() {
    for (args, words) in [
        (
            vec![
                "bandit",
                "--algorithm",
                "ucb1",
                "--means",
                "0.5,0.4",
                "--runs",
                "x",
            ],
            "--runs': expects a non-negative integer",
        ),
        (
            vec!["regret", "--algorithm", "ftl"],
            "not provided: --setting --horizon",
        ),
    ] {
        let run = common::capped(&args, 5.0);
        common::assert_refused(&run, &args.join(" "));
        assert!(run.stderr.contains(words), "{args:?}: {}", run.stderr);
        for internal in [
            "<RUNS>",
            "<SETTING>",
            "For more information",
            "invalid digit",
        ] {
            assert!(!run.stderr.contains(internal), "{args:?}: {}", run.stderr);
        }
    }
}

#[test]
fn a_loss_gap_of_1e_minus_199999_is_computed_not_hung() {
    // e^{-gap} at 10^-199999 took dashu's exp minutes per call.
    let run = answered(
        "mechanism --noise gumbel --scale 1 --losses 0,1e-199999 --json",
        60.0,
    );
    let value: Value = serde_json::from_str(&run.stdout).unwrap();
    // The law is (1/(1 + e^{-gap}), e^{-gap}/(1 + e^{-gap})): just above and
    // just below 1/2, each enclosure holding its side of 1/2.
    let half = Q::new(1.into(), 2.into());
    let (lo0, hi0) = interval(&value["law_interval"][0]);
    let (lo1, hi1) = interval(&value["law_interval"][1]);
    assert!(lo0 <= half && half < hi0, "{lo0} {hi0}");
    assert!(lo1 < half && half <= hi1, "{lo1} {hi1}");
}

#[test]
fn bandit_work_counts_the_arms() {
    // 30 000 arms for 10^6 rounds: each round of UCB1 looks at every arm.
    let means = vec!["0.5"; 30_000].join(",");
    let args = [
        "bandit",
        "--algorithm",
        "ucb1",
        "--means",
        &means,
        "--horizon",
        "1000000",
        "--runs",
        "2",
    ];
    refused(&args, "K = 30000");
}

#[test]
fn all_epsilon_on_an_alphabet_of_denominator_1000_is_estimated_and_refused() {
    let args = [
        "privacy",
        "--algorithm",
        "wu-wang",
        "--noise",
        "gumbel",
        "--actions",
        "2",
        "--horizon",
        "2",
        "--alphabet",
        "0,1/1000,1",
        "--all-epsilon",
    ];
    refused(&args, "root isolation");
}

#[test]
fn audit_of_a_million_rows_is_linear_in_them() {
    // 10^6 rows of 1000 distinct sequences: every candidate event was
    // counted by its own pass over the rows; now each half is counted once.
    let rows = |shift: u64| -> Vec<u8> {
        (0..1_000_000u64)
            .map(|i| {
                let x = i.wrapping_mul(2_654_435_761).wrapping_add(shift) % 1000;
                format!("{},{},{}\n", x / 100 + 1, x / 10 % 10 + 1, x % 10 + 1)
            })
            .collect::<String>()
            .into_bytes()
    };
    let first = scratch_file("million-first.csv", &rows(0));
    let second = scratch_file("million-second.csv", &rows(7));
    let run = answered(&format!("audit --first {first} --second {second}"), 120.0);
    assert!(run.stdout.contains("ε ≥"), "{}", run.stdout);
}

/// A reward table of `rows` rounds of `arms` rewards in {0, 1} (a fixed
/// pattern), written to the scratch directory `dir`; its path.
fn reward_table(dir: &str, rows: usize, arms: usize) -> String {
    let text: String = (0..rows)
        .map(|t| {
            let row: Vec<&str> = (0..arms)
                .map(|j| if (t * 7 + j * 3) % 5 < 2 { "1" } else { "0" })
                .collect();
            row.join(",") + "\n"
        })
        .collect();
    common::scratch_file(dir, &format!("rewards-{rows}x{arms}.csv"), text.as_bytes())
}

#[test]
fn bandit_laws_are_refused_on_their_work_not_their_sequence_count() {
    // Guards against Anytime-Lazy-UCB at K = 3 on 11 rows (6561 sequences,
    // under the 2^16 sequences of the count, about 80 s release; 13 rows
    // about 17 min) and Hybrid-UCB on 9 rows (128 sequences, about 10
    // minutes) passing the guard. The estimates (docs/limits.md): K = 3,
    // T = 11: d = 3 + ⌊3·log₂(11/3)⌋ = 8 noises, ⌈64/16⌉ = 4 units a
    // sequence, 3^8 · 4 = 26244; Hybrid-UCB T = 9: 2^7 sequences of
    // 4^7/16 = 1024 units, 131072.
    let alu = reward_table("work-limits", 11, 3);
    let hybrid = reward_table("work-limits", 9, 2);
    for (command, figure) in [
        (format!("law --algorithm anytime-lazy-ucb --epsilon 1 --rewards-file {alu}"), "26244"),
        (format!("sample --algorithm anytime-lazy-ucb --epsilon 1 --rewards-file {alu} --n 10 --seed 1 --out /tmp/dpdtol-never-written.csv"), "26244"),
        (format!("law --algorithm hybrid-ucb --epsilon 1 --rewards-file {hybrid}"), "131072"),
    ] {
        let args = words(&command);
        refused(&args, figure);
        refused(&args, "--force");
    }
    // Below the limit the law is computed: K = 3 on 5 rows.
    let small = reward_table("work-limits", 5, 3);
    answered(
        &format!("law --algorithm anytime-lazy-ucb --epsilon 1 --rewards-file {small}"),
        20.0,
    );
}

#[test]
fn ucb1s_law_has_a_work_limit_and_says_how_far_it_is() {
    // Guards against UCB1 on a long table running for minutes with no
    // limit: (T − K)(K − 1) comparisons of certified indices, 20 000 rows
    // of K = 2 are 19 998 of them, over 16 384.
    let long = reward_table("ucb1-limit", 20_000, 2);
    refused(
        &words(&format!("law --algorithm ucb1 --rewards-file {long}")),
        "19998",
    );
    // A forced run off a terminal prints a progress line every
    // DPDTOL_PROGRESS seconds (here 1) on stderr, the result on stdout.
    let rows = reward_table("ucb1-limit", 1000, 2);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dpdtol"))
        .args(words(&format!(
            "law --algorithm ucb1 --rewards-file {rows}"
        )))
        .env("DPDTOL_PROGRESS", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr
            .lines()
            .any(|l| l.starts_with("dpdtol: ucb1: ") && l.contains(" of 1000 rounds")),
        "{stderr}"
    );
}

#[test]
fn a_reward_table_too_large_to_hold_is_refused_before_it_is_parsed() {
    // Guards against an 80 MB reward CSV (under the 256 MiB file limit)
    // aborting with "memory allocation failed" (status 134) under a 4 GB
    // cap: 2·10^7 values `1/3`, about 160 bytes each held, are refused on
    // their count (3.2 GB, over the 2 GiB cap) before any is parsed.
    let path = common::scratch("big-rewards").join("rewards.csv");
    std::fs::write(&path, "1/3,2/3\n".repeat(10_000_000)).unwrap();
    let command = format!(
        "ulimit -v 4000000 && exec \"$0\" law --algorithm ucb1 --rewards-file {}",
        path.display()
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &command, env!("CARGO_BIN_EXE_dpdtol")])
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("20000001 values"), "{stderr}");
    assert!(stderr.contains("memory cap"), "{stderr}");
}

/// A law asked for more relative digits than the precision cap carries
/// (19728) is refused at once, by the one-shot law and the sequence law
/// alike: `u32::MAX` digits used to abort the process building
/// `10^digits`. The cap itself is accepted.
#[test]
fn digits_past_the_precision_cap_are_refused_before_any_work() {
    use dpdtol::algorithm::{AlgorithmId, BestOptions, Config, SequenceLaw};
    use dpdtol::mechanism::{best_law, Budget, Noise, Scale};
    let q = |n: i64| Q::from_integer(n.into());
    let losses = [q(0), q(1)];
    let scale = Scale::beta(q(1)).unwrap();
    let wu_wang = Config::new(AlgorithmId::WuWang, 2, q(1)).build().unwrap();
    let rows = vec![losses.to_vec(); 3];
    for digits in [dpdtol::num::MAX_DIGITS + 1, u32::MAX] {
        let one = best_law(Noise::Laplace, &losses, &scale, digits, Budget::default()).unwrap_err();
        let options = BestOptions {
            digits,
            ..BestOptions::default()
        };
        let sequence = SequenceLaw::best(&wu_wang, &rows, options).unwrap_err();
        for e in [one, sequence] {
            assert!(
                e.to_string().contains("at most 19728 relative digits"),
                "{e}"
            );
        }
    }
    assert!(best_law(
        Noise::Gumbel,
        &losses,
        &scale,
        dpdtol::num::MAX_DIGITS,
        Budget::default()
    )
    .is_ok());
}

/// A bandit law's parameter its algorithm does not read is refused, named
/// by its flag, not ignored: `--bonus` of DP-SE, `--epoch-length` of
/// Anytime-Lazy-UCB, `--tree-scale` of Lazy-DP-TS.
#[test]
fn a_bandit_parameter_that_does_not_apply_is_refused() {
    use dpdtol::bandit::law::params::{LawParams, Overrides};
    use dpdtol::bandit::policy::BanditId;
    let one = Q::one();
    let cases = [
        (
            BanditId::DpSe,
            Overrides {
                bonus: Some(one.clone()),
                ..Overrides::default()
            },
            "--bonus does not apply to dp-se",
        ),
        (
            BanditId::AnytimeLazyUcb,
            Overrides {
                lengths: Some(vec![1]),
                ..Overrides::default()
            },
            "--epoch-length does not apply to anytime-lazy-ucb",
        ),
        (
            BanditId::HybridUcb,
            Overrides {
                lengths: Some(vec![1]),
                ..Overrides::default()
            },
            "--epoch-length does not apply to hybrid-ucb",
        ),
        (
            BanditId::LazyDpTs,
            Overrides {
                tree_scale: Some(one.clone()),
                ..Overrides::default()
            },
            "--tree-scale does not apply to lazy-dp-ts",
        ),
    ];
    for (id, overrides, message) in cases {
        let e = overrides.refuse_unread(id).unwrap_err();
        assert!(e.to_string().contains(message), "{e}");
        if id != BanditId::LazyDpTs {
            assert!(LawParams::new(id, one.clone(), 4, 2, &overrides).is_err());
        }
    }
    let read = Overrides {
        bonus: Some(one.clone()),
        ..Overrides::default()
    };
    assert!(read.refuse_unread(BanditId::HybridUcb).is_ok());
    assert!(LawParams::new(BanditId::AnytimeLazyUcb, one, 4, 2, &read).is_ok());
}

/// A one-shot check's ε past `2^24` is refused at once, as the online
/// algorithms' is: its bound e^ε alone would take integers of tens of millions
/// of bits (ε = 2^32 ran for ever, and ε = 10^7 took 24 s). `2^24` itself is
/// the limit, not refused by this rule.
#[test]
fn a_one_shot_checks_epsilon_past_2_to_24_is_refused_at_once() {
    for epsilon in ["4294967296", "16777217"] {
        refused(
            &[
                "privacy",
                "--mechanism",
                "gumbel",
                "--actions",
                "2",
                "--alphabet",
                "0,1",
                "--epsilon",
                epsilon,
            ],
            "is above 16777216",
        );
    }
}

#[test]
fn exact_bandit_checks_are_refused_on_their_work_not_their_law_count() {
    // Guards against the exact privacy checks counting their laws only:
    // each of these passed the law count (2^22, or 2^15 for the staircase
    // laws) and ran for minutes to hours. The estimates (docs/limits.md),
    // in units of 1000 steps (an event built or a quotient compared) plus
    // each distinct law's integration work:
    // - Anytime-Lazy-UCB, T = 2 on 2048 values: 1 pull sequence · 2048² =
    //   4 194 304 laws, · 2 rounds · 2047 replacements = 17 171 480 576
    //   quotients; ⌈(4 194 304 + 17 171 480 576)/1000⌉ = 17 175 675.
    // - DP-SE, T = 2 on 256 values: 65 536 laws, 33 423 360 quotients:
    //   ⌈33 488 896/1000⌉ = 33 489 (47 s in a debug build).
    // - Anytime-Lazy-UCB, T = 12 on {0, 1}: 2^10 sequences · 2^12 = 2^22
    //   laws, 12 · 2^22 quotients: ⌈13 · 2^22/1000⌉ = 54 526 (over 200 s).
    // - Hybrid-UCB, T = 8 on {0, 1}: 2^6 · 2^8 = 16 384 laws (131 072
    //   quotients, 148 units) and 8128 distinct events of 4^6/16 = 256
    //   units: 2 080 768 + 148 = 2 080 916 (about an hour).
    // - DP-UCB, T = 7 on {0, 1}: 2016 distinct events of 4^5/16 = 64 units
    //   and ⌈(4096 + 7 · 4096)/1000⌉ = 33: 129 057 (82 s in a debug build).
    let values = |n: usize| {
        (0..n)
            .map(|i| format!("{i}/{}", n - 1))
            .collect::<Vec<_>>()
            .join(",")
    };
    let (v2048, v256) = (values(2048), values(256));
    for (command, figure) in [
        (format!("privacy --algorithm anytime-lazy-ucb --actions 2 --horizon 2 --alphabet {v2048} --epsilon 1"), "17175675"),
        (format!("privacy --algorithm dp-se --actions 2 --horizon 2 --alphabet {v256} --epsilon 1"), "33489"),
        ("privacy --algorithm anytime-lazy-ucb --actions 2 --horizon 12 --alphabet 0,1 --epsilon 1".to_string(), "54526"),
        ("privacy --algorithm hybrid-ucb --actions 2 --horizon 8 --alphabet 0,1 --epsilon 1".to_string(), "2080916"),
        ("privacy --algorithm dp-ucb --actions 2 --horizon 7 --alphabet 0,1 --epsilon 1".to_string(), "129057"),
        ("privacy --algorithm dp-ucb-bound --actions 2 --horizon 8 --alphabet 0,1 --epsilon 1".to_string(), "2080916"),
    ] {
        let args = words(&command);
        refused(&args, figure);
        refused(&args, "--force");
    }
    // Below the limit the check runs.
    answered(
        "privacy --algorithm anytime-lazy-ucb --actions 2 --horizon 4 --alphabet 0,1 --epsilon 1",
        20.0,
    );
}

#[test]
fn dp_ucb_and_dp_ucb_bound_laws_are_costed_as_polyhedra() {
    // Guards against DP-UCB's and DP-UCB-Bound's laws counting one work
    // unit a sequence (DP-UCB on 10 rows: 256 units, over 3 minutes): their
    // events are Hybrid-UCB's staircases, 4^{T−2}/16 units a sequence,
    // T = 10: 2^8 · 4^8/16 = 1 048 576.
    let rows = reward_table("staircase-work", 10, 2);
    for algorithm in ["dp-ucb", "dp-ucb-bound"] {
        let command = format!("law --algorithm {algorithm} --epsilon 1 --rewards-file {rows}");
        refused(&words(&command), "1048576");
    }
}

/// Hybrid-UCB's law (its events and probabilities) with its work set to
/// `units` [`dpdtol::bandit::law::WORK_UNIT`]s a pull sequence: the (ε, δ)
/// check's work estimate at a chosen cost per distinct law.
struct CostedHybrid {
    law: dpdtol::bandit::law::hybrid_ucb::HybridLawParams,
    units: u128,
}

impl dpdtol::bandit::law::PullLaw for CostedHybrid {
    type Event = dpdtol::bandit::law::hybrid_ucb::Event;
    fn validate(&self) -> dpdtol::Result<()> {
        self.law.validate()
    }
    fn sequence_count(&self, horizon: usize) -> Option<u64> {
        self.law.sequence_count(horizon)
    }
    fn work(&self, horizon: usize) -> Option<u128> {
        dpdtol::bandit::law::sequences_work(self.sequence_count(horizon), self.units)
    }
    fn sequences(&self, horizon: usize) -> Vec<Vec<usize>> {
        self.law.sequences(horizon)
    }
    fn event(&self, pulls: &[usize], seen: &[Q]) -> dpdtol::Result<Option<Self::Event>> {
        self.law.event(pulls, seen)
    }
    fn probability<R: dpdtol::num::Real>(
        &self,
        event: &Self::Event,
        ctx: &R::Context,
    ) -> dpdtol::Result<R> {
        self.law.probability(event, ctx)
    }
    fn name(&self) -> &'static str {
        self.law.name()
    }
}

#[test]
fn the_delta_checks_work_is_its_distinct_laws_integrations() {
    // The (ε, δ) check of a bandit algorithm is refused first on its terms
    // (ordered neighbour pairs × pull sequences, 10^7): DP-UCB at T = 7 on
    // {0, 1} has 4^7 tables · 7 rounds · 3 replacements = 344 064 pairs
    // of 2^5 = 32 pull sequences, 11 010 048 terms (its ratio check would
    // be refused on 129 057 work units).
    refused(
        &words("privacy --algorithm dp-ucb --actions 2 --horizon 7 --alphabet 0,1 --epsilon 1 --delta 1/1000"),
        "11010048 terms",
    );
    // Within the terms limit the work estimate decides: the work of one law
    // times the distinct laws over all reward tables (no events built or
    // quotients compared, unlike the ratio check's). No shipped law at
    // once passes the terms limit and exceeds 2^14 units (Hybrid-UCB at
    // T = 7: 11 010 048 terms; at T = 6, 1 179 648 terms and 16 · 496 = 7936
    // units), so the estimate is tested on Hybrid-UCB's law at a chosen
    // cost `u` a pull sequence (law work ⌈2^{T−2}·u/2^{T−2}⌉ = u).
    //
    // Its distinct laws at T = 4 on {0, 1}, by hand: the event of a pull
    // sequence (2^{T−2} = 4 of them: arms 1, 2, then any) is, for each round
    // t = 3..T, the counts and the offset ȳ₂ − ȳ₁ of the means of the
    // rewards seen before t. Adding a constant to every reward seen leaves
    // every offset unchanged; conversely the offsets fix y₁..y_{T−1} up to
    // such a constant (round 3's offset is y₂ − y₁, and each later one adds
    // one reward with a coefficient 1/n ≠ 0 to one arm's mean), and y_T is
    // never read. The 2^{T−1} = 8 vectors y₁..y₃ in {0, 1}^3 give 7 events
    // (all zeros and all ones coincide) a sequence: 4 · 7 = 28 distinct
    // laws, the same over the 4^4 reward tables, whose seen rewards are all
    // of {0, 1}^4 (the ratio check's 2016 and 8128 at T = 7, 8 are this
    // 2^{T−2}·(2^{T−1} − 1)). Its terms: 4^4 · 4 · 3 = 3072 pairs · 4
    // sequences = 12 288.
    //
    // u = 586: 28 · 586 = 16 408 > 2^14 = 16 384, refused; u = 585:
    // 28 · 585 = 16 380, run. Counting the ratio check's steps too
    // (⌈(64 laws + 256 quotients)/1000⌉ = 1 unit) would give 16 409; the
    // laws of every table (1024) rather than the distinct ones, 600 064.
    use dpdtol::bandit::law::hybrid_ucb::HybridLawParams;
    use dpdtol::privacy::{delta, Problem};
    let one = Q::one();
    let problem = Problem::new(4, vec![Q::zero(), one.clone()], one.clone()).unwrap();
    let costed = |units| CostedHybrid {
        law: HybridLawParams::inferred(one.clone()),
        units,
    };
    let target = parse_rational("1/1000").unwrap();
    let error = delta::bandit(&costed(586), &problem, &target, false)
        .expect_err("16 408 units, over 2^14")
        .to_string();
    for needle in [
        "its 28 distinct laws",
        ": 16408, over the limit of 16384",
        "--force",
    ] {
        assert!(error.contains(needle), "{needle}: {error}");
    }
    delta::bandit(&costed(585), &problem, &target, false).expect("16 380 units, within 2^14");
    delta::bandit(&costed(586), &problem, &target, true).expect("forced");
}

#[test]
#[ignore = "slow: about 20 s of one core in a debug build (the decimals themselves are checked in src/num/decimal.rs)"]
fn privacy_at_the_largest_epsilon_accepted_answers_within_a_minute() {
    // ε = 2^24, the cap of an online algorithm's ε: the ratio e^{2^24} of
    // hu-rnm-ftnl has 7 286 253 decimal digits before the point, and its
    // decimals took over a minute (each digit count formed 10^7286252
    // again); the exponent is ⌊2^24·log10(e)⌋ = 7 286 252.
    let run = answered(
        "privacy --algorithm hu-rnm-ftnl --actions 2 --horizon 2 --alphabet 0,1 --epsilon 16777216",
        60.0,
    );
    let exponent = (16_777_216f64 * std::f64::consts::LOG10_E).floor();
    assert_eq!(exponent, 7_286_252.0);
    assert!(run.stdout.contains("e7286252"), "{}", run.stdout);
}

#[test]
fn a_huge_bonus_is_refused_by_the_exact_laws() {
    // Guards against --bonus 1e20 running the exact laws out of memory
    // (Hybrid-UCB's law on 4 rows grew past 3 GB: the enclosure of e^{−√c}
    // as a rational has about 1.44·√c bits); 10^17 took 20 s. The laws
    // accept c ≤ 2^20 = 1048576.
    let rows = reward_table("huge-bonus", 4, 2);
    for command in [
        format!("law --algorithm hybrid-ucb --epsilon 1 --rewards-file {rows} --bonus 1e20"),
        format!("law --algorithm dp-ucb-bound --epsilon 1 --rewards-file {rows} --bonus 1e20"),
        format!("law --algorithm anytime-lazy-ucb --epsilon 1 --rewards-file {rows} --bonus 1e20"),
        "privacy --algorithm hybrid-ucb --actions 2 --horizon 4 --alphabet 0,1 --epsilon 1 --bonus 1e20".to_string(),
    ] {
        refused(&words(&command), "1048576");
    }
    answered(
        &format!("law --algorithm hybrid-ucb --epsilon 1 --rewards-file {rows} --bonus 1048576"),
        20.0,
    );
}

#[test]
fn a_dp_se_beta_below_the_floating_point_range_is_refused() {
    // Guards against --beta 1e-330 overflowing DP-SE's epoch length (β is 0
    // in f64, ln(1/β) infinite: a panic in a debug build, a wrapped length
    // in a release one). β ≥ 2^-1022 is accepted (1e-300 runs).
    let rows = reward_table("tiny-beta", 4, 2);
    for beta in ["1e-330", "1e-199999"] {
        for command in [
            format!("law --algorithm dp-se --epsilon 1 --rewards-file {rows} --beta {beta}"),
            format!("privacy --algorithm dp-se --actions 2 --horizon 4 --alphabet 0,1 --epsilon 1 --beta {beta}"),
        ] {
            refused(&words(&command), "2^-1022");
        }
    }
    answered(
        &format!("law --algorithm dp-se --epsilon 1 --rewards-file {rows} --beta 1e-300"),
        20.0,
    );
}
