//! The golden corpus: every subcommand's human and `--json` output, merges of
//! committed shards and refusals, recorded in `tests/golden/*.trycmd` (one
//! command a `$` line, its exit status on a `? N` line, then stdout and
//! stderr). A change of output is either a bug or intended; an intended one
//! is recorded with `TRYCMD=overwrite cargo test --test golden` and reviewed
//! in the diff.

#[test]
fn golden_corpus() {
    trycmd::TestCases::new()
        .env("DPDTOL_PROGRESS", "0")
        .register_bin("dpdtol", std::path::Path::new(env!("CARGO_BIN_EXE_dpdtol")))
        .case("tests/golden/*.trycmd");
}
