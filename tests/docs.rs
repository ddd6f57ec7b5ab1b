//! The documentation cannot drift: every ```console block of README.md and
//! docs/*.md is run here and its output compared (trycmd; `[..]` and `...`
//! elide what varies, such as timings). Commands run from the repository
//! root, so they read the repository's own files (`examples/losses.csv`, …),
//! except on a page with a folder `docs/<page>.in/`, which is then their
//! working directory (a copy of it when `docs/<page>.out/` exists, so that
//! commands may write files). An intended change of output is recorded with
//! `TRYCMD=overwrite cargo test --test docs` and reviewed in the diff.

#[test]
fn documented_commands() {
    trycmd::TestCases::new()
        .env("DPDTOL_PROGRESS", "0")
        .register_bin("dpdtol", std::path::Path::new(env!("CARGO_BIN_EXE_dpdtol")))
        .case("README.md")
        .case("docs/*.md");
}
