//! `codemode-errors`: normalize a failure report, redact text or JSON, print the schema.
//! Run `codemode-errors --help` for the interface and exit statuses.

mod cli;

fn main() {
    let result = cli::args::parse(std::env::args_os().skip(1))
        .map_err(|message| cli::Failure { status: cli::EXIT_BAD_INPUT, message: format!("{message} (see --help)") })
        .and_then(cli::run)
        .and_then(|out| cli::print(&out));
    if let Err(failure) = result {
        eprintln!("codemode-errors: {}", failure.message);
        std::process::exit(failure.status);
    }
}
