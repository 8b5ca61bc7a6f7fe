//! `codemode-errors`: normalize a failure report, redact text or JSON, print the schema.
//! Run `codemode-errors --help` for the interface and exit statuses.

mod cli;

fn main() {
    let result = cli::args::parse(std::env::args_os().skip(1))
        .map_err(|message| cli::Failure { status: cli::EXIT_BAD_INPUT, message: format!("{message} (see --help)"), stdout: None })
        .and_then(cli::run)
        .and_then(|out| cli::print(&out));
    if let Err(failure) = result {
        if let Some(out) = &failure.stdout {
            // Printing can fail only on a closed pipe; the exit status still says what happened.
            let _ = cli::print(out);
        }
        eprintln!("codemode-errors: {}", failure.message);
        std::process::exit(failure.status);
    }
}
