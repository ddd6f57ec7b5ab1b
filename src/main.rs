//! The `dpdtol` command line: a thin shell over [`dpdtol::cli`].

fn main() {
    std::process::exit(dpdtol::cli::run(std::env::args_os()));
}
