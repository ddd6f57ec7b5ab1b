//! Nothing is lost silently: a closed standard output is refused before the
//! work, an output file that cannot be written is refused before the work,
//! and file errors are worded without the system's error numbers.

mod common;

use std::process::Command;
use std::time::Instant;

/// Run `dpdtol args` from a shell with standard output redirected by
/// `redirect` (`>&-` closes it).
fn with_stdout(redirect: &str, args: &[&str]) -> std::process::Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!(r#"exec "$0" "$@" {redirect}"#))
        .arg(env!("CARGO_BIN_EXE_dpdtol"))
        .args(args)
        .output()
        .expect("sh runs")
}

#[test]
fn a_closed_stdout_is_refused_before_the_work() {
    let args = [
        "mechanism",
        "--noise",
        "gumbel",
        "--scale",
        "1",
        "--losses",
        "0,1",
    ];
    let out = with_stdout(">&-", &args);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("standard output is closed"), "{stderr}");
    // Redirected to /dev/null, the result is discarded on purpose: accepted.
    let out = with_stdout("> /dev/null", &args);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn sample_refuses_an_unwritable_out_before_sampling() {
    let dir = std::env::temp_dir();
    let missing = dir.join(format!(
        "dpdtol-no-such-folder-{}/s.csv",
        std::process::id()
    ));
    for out in [dir.display().to_string(), missing.display().to_string()] {
        let start = Instant::now();
        // 10^8 one-round samples take many seconds: a refusal within one
        // second comes before the work.
        let run = common::dpdtol(&[
            "sample",
            "--mechanism",
            "gumbel",
            "--scale",
            "1",
            "--losses",
            "0,1",
            "--n",
            "100000000",
            "--seed",
            "1",
            "--out",
            &out,
        ]);
        let seconds = start.elapsed().as_secs_f64();
        let stderr = String::from_utf8(run.stderr).unwrap();
        assert_eq!(run.status.code(), Some(2), "{out}: {stderr}");
        assert!(seconds < 1.0, "{out}: refused after {seconds:.1} s");
        assert!(stderr.contains("--out"), "{stderr}");
        assert!(!stderr.contains("os error"), "{stderr}");
    }
}
