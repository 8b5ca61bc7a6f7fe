//! The `codemode-errors` command: read, call the chosen engine, print.

pub mod args;

use std::io::{Read, Write};
use std::path::Path;

use codemode_errors_host::{pretty, ComponentEngine, Engine, HostError, Limits, NativeEngine};

use args::{Command, EngineChoice, Input};

/// Exit status for input the tool cannot work with.
pub const EXIT_BAD_INPUT: i32 = 2;
/// Exit status for a tripped limit.
pub const EXIT_LIMIT: i32 = 3;
/// Exit status for anything else (the engine could not start, the component trapped).
pub const EXIT_OTHER: i32 = 1;

/// Why the command failed: the exit status and one line for standard error.
#[derive(Debug)]
pub struct Failure {
    /// The exit status.
    pub status: i32,
    /// What was wrong.
    pub message: String,
    /// What still goes to standard output: for a failure report the engine could not
    /// normalize (over the input bound, a tripped limit, a trap), the contract error the
    /// sandbox rejects with instead; for a run report it could not classify, the run error
    /// the executor ends the run with.
    pub stdout: Option<String>,
}

impl Failure {
    fn bad_input(message: impl Into<String>) -> Self {
        Failure { status: EXIT_BAD_INPUT, message: message.into(), stdout: None }
    }

    /// A failed call, described with where its input came from.
    fn call(e: HostError, source: &str) -> Self {
        let status = match &e {
            _ if e.is_limit() => EXIT_LIMIT,
            HostError::InputTooLarge { .. } => EXIT_LIMIT,
            HostError::Input(_) => EXIT_BAD_INPUT,
            HostError::Aborted(_) => EXIT_OTHER,
        };
        Failure { status, message: format!("{source}: {e}"), stdout: None }
    }

    /// A failed normalization: when the engine refused or stopped (not when the report
    /// itself was bad), the sandbox still gets a contract error on standard output.
    fn normalization(e: HostError, source: &str, pretty: bool) -> Self {
        let outcome =
            matches!(e, HostError::InputTooLarge { .. } | HostError::Aborted(_)).then(|| json_line(&e.to_outcome(None).json, pretty));
        Failure { stdout: outcome, ..Failure::call(e, source) }
    }

    /// A failed classification: when the engine refused or stopped (not when the run
    /// report itself was bad), the executor still gets the run error to end the run with
    /// on standard output.
    fn classification(e: HostError, source: &str, pretty: bool) -> Self {
        let end = matches!(e, HostError::InputTooLarge { .. } | HostError::Aborted(_)).then(|| json_line(&e.to_run_error().json, pretty));
        Failure { stdout: end, ..Failure::call(e, source) }
    }
}

/// Run the parsed command, returning what to print on standard output.
pub fn run(args: args::Args) -> Result<String, Failure> {
    let source = |input: &Input| match input {
        Input::Stdin => "standard input".to_owned(),
        Input::File(p) => p.display().to_string(),
    };
    match &args.command {
        Command::Help => Ok(format!("{}\n", args::USAGE)),
        Command::Version => Ok(format!("codemode-errors {}\n", engine(&args)?.version().map_err(|e| Failure::call(e, "version"))?)),
        Command::Schema => Ok(line(engine(&args)?.schema().map_err(|e| Failure::call(e, "schema"))?)),
        Command::Normalize { input, pretty } => {
            let text = read(input)?;
            let engine = engine(&args)?;
            let outcome = engine.normalize_json(&text).map_err(|e| Failure::normalization(e, &source(input), *pretty))?;
            Ok(json_line(&outcome.json, *pretty))
        }
        Command::ClassifyRun { input, pretty } => {
            let text = read(input)?;
            let end = engine(&args)?.classify_run(&text).map_err(|e| Failure::classification(e, &source(input), *pretty))?;
            Ok(json_line(&end.json, *pretty))
        }
        Command::ExecStep { input, pretty } => {
            let text = read(input)?;
            let answer = engine(&args)?.exec_step(&text).map_err(|e| Failure::call(e, &source(input)))?;
            Ok(json_line(&answer, *pretty))
        }
        Command::Redact { input, json: false, .. } => {
            let text = read(input)?;
            engine(&args)?.redact_text(&text).map_err(|e| Failure::call(e, &source(input)))
        }
        Command::Redact { input, json: true, pretty } => {
            let text = read(input)?;
            let redacted = engine(&args)?.redact_json(&text).map_err(|e| Failure::call(e, &source(input)))?;
            Ok(json_line(&redacted, *pretty))
        }
    }
}

fn line(mut text: String) -> String {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

fn json_line(json: &str, indent: bool) -> String {
    line(if indent { pretty::indent(json) } else { json.to_owned() })
}

fn read(input: &Input) -> Result<String, Failure> {
    let bytes = match input {
        Input::Stdin => {
            let mut bytes = Vec::new();
            std::io::stdin().read_to_end(&mut bytes).map_err(|e| Failure::bad_input(format!("cannot read standard input: {e}")))?;
            bytes
        }
        Input::File(path) => {
            std::fs::read(path).map_err(|e| Failure::bad_input(format!("cannot read {}: {}", path.display(), io_reason(&e))))?
        }
    };
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let name = match input {
            Input::Stdin => "standard input".to_owned(),
            Input::File(p) => p.display().to_string(),
        };
        Failure::bad_input(format!("{name} is not UTF-8 text (invalid byte at offset {at})"))
    })
}

/// The OS reason without Rust's "(os error N)" suffix.
fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        std::io::ErrorKind::IsADirectory => "it is a directory".to_owned(),
        _ => e.to_string(),
    }
}

fn engine(args: &args::Args) -> Result<Engine, Failure> {
    let policy = match &args.policy {
        Some(path) => load_policy(path)?,
        None => codemode_errors::Policy::default(),
    };
    let mut limits = Limits::default();
    if let Some(n) = args.max_input_bytes {
        limits = limits.with_max_input_bytes(n);
    }
    if let Some(n) = args.max_memory_bytes {
        limits = limits.with_max_memory_bytes(n);
    }
    if let Some(ms) = args.deadline_ms {
        limits = limits.with_deadline(std::time::Duration::from_millis(ms));
    }
    Ok(match args.engine {
        EngineChoice::Native => Engine::Native(NativeEngine::new(&policy, limits)),
        EngineChoice::Component => Engine::Component(ComponentEngine::new(&policy, limits).map_err(|e| Failure {
            status: EXIT_OTHER,
            message: e.to_string(),
            stdout: None,
        })?),
    })
}

/// The policy file is the operator's configuration, read by the core's own parser.
fn load_policy(path: &Path) -> Result<codemode_errors::Policy, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::bad_input(format!("cannot read policy {}: {}", path.display(), io_reason(&e))))?;
    codemode_errors::Policy::from_json(&text).map_err(|e| Failure::bad_input(format!("policy {}: {e}", path.display())))
}

/// Print `text` on standard output; a closed pipe is not an error worth a message.
pub fn print(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure { status: EXIT_OTHER, message: format!("cannot write standard output: {e}"), stdout: None }),
    }
}
