//! The command line, parsed with `lexopt`.

use std::ffi::OsString;
use std::path::PathBuf;

use lexopt::prelude::*;

/// Which engine runs the core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineChoice {
    /// The WASI component under wasmtime (the default).
    Component,
    /// The core, in-process.
    Native,
}

/// What to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Normalize one failure report.
    Normalize { input: Input, pretty: bool },
    /// Redact text, or a JSON value with `--json`.
    Redact { input: Input, json: bool, pretty: bool },
    /// Classify how a whole code-mode run ended, from a run report.
    ClassifyRun { input: Input, pretty: bool },
    /// Answer one executor step (the run layer's rules for an executor).
    ExecStep { input: Input, pretty: bool },
    /// Print the JSON Schema.
    Schema,
    /// Print the version.
    Version,
    /// Print the usage.
    Help,
}

/// Where the input comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Standard input (`-` or no file).
    Stdin,
    /// A file.
    File(PathBuf),
}

/// A parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Args {
    /// What to do.
    pub command: Command,
    /// Which engine.
    pub engine: EngineChoice,
    /// `--policy FILE`.
    pub policy: Option<PathBuf>,
    /// `--max-input-bytes N`.
    pub max_input_bytes: Option<usize>,
    /// `--max-memory-bytes N`.
    pub max_memory_bytes: Option<usize>,
    /// `--deadline-ms N`.
    pub deadline_ms: Option<u64>,
}

/// The usage text.
pub const USAGE: &str = "\
usage: codemode-errors [OPTIONS] normalize [--pretty] [FILE|-]
       codemode-errors [OPTIONS] redact [--json] [--pretty] [FILE|-]
       codemode-errors [OPTIONS] classify-run [--pretty] [FILE|-]
       codemode-errors [OPTIONS] exec-step [--pretty] [FILE|-]
       codemode-errors [OPTIONS] schema
       codemode-errors --version

Normalize one code-mode failure report into the contract's error outcome, redact text or
JSON, classify how a whole run ended from a run report, answer one executor step (read an
exec request, refuse module access, place a syntax error, rewrite a stack, fit output to
its budget), or print the JSON Schema of the error object.

exec-step input: one JSON object, {\"step\": NAME, ...members} (booleans default to false;
position and source_lines may be left out):
  request            request (the exec tool's arguments as sent)
  module_access      code, restart_safe
  syntax_error       engine, message, stack, position ([line, column]), wrapping, source,
                     restart_safe
  user_stack         engine, name, message, stack, wrapping, label
  project_completed  output, value (JSON text), max_bytes, dispatched, restart_safe
  fit_output         output, budget
  source_check       source, syntax_error ({\"message\", \"offset\"} or null),
                     uses ([{\"kind\", \"offset\"}]), restart_safe
  failed_run         error (a run error), stack, output, max_bytes
  a wrapping is {\"file\", \"lines_before\", \"columns_before\", \"source_lines\"?}; offsets
  are UTF-16 units into the submitted source. Example:
  {\"step\": \"module_access\", \"code\": \"require('fs')\", \"restart_safe\": false}

options:
  --engine component|native  run the core as the WASI component (default) or natively
  --policy FILE              the policy: caps and redaction lists (secret_keys, token_formats,
                             allow, allow_keys), a JSON object read by the core
  --max-input-bytes N        input bound (default 8 MiB)
  --max-memory-bytes N       component memory bound (default 128 MiB)
  --deadline-ms N            component execution bound in milliseconds (default 1000)
  --pretty                   indent the JSON output, keeping its key order
  -h, --help                 this text
  -V, --version              the version

exit status: 0 done, 2 bad input, 3 a limit tripped, 1 anything else. When normalize
cannot normalize a report (a bound tripped, a trap), stdout still gets the contract error
to reject with; when classify-run cannot classify one, the run error to end the run with.
environment: CODEMODE_ERRORS_CACHE_DIR  where compiled components are kept (empty: none)";

/// Parse the command line; the error is one line saying what was wrong.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Args, String> {
    parse_inner(args).map_err(|e| e.to_string())
}

fn parse_inner(args: impl IntoIterator<Item = OsString>) -> Result<Args, lexopt::Error> {
    let mut parser = lexopt::Parser::from_args(args);
    let mut verb: Option<String> = None;
    let mut file: Option<Input> = None;
    let (mut pretty, mut json, mut help, mut version) = (false, false, false, false);
    let mut out = Args {
        command: Command::Help,
        engine: EngineChoice::Component,
        policy: None,
        max_input_bytes: None,
        max_memory_bytes: None,
        deadline_ms: None,
    };
    while let Some(arg) = parser.next()? {
        match arg {
            Long("engine") => {
                out.engine = match parser.value()?.string()?.as_str() {
                    "component" => EngineChoice::Component,
                    "native" => EngineChoice::Native,
                    other => return Err(format!("--engine must be `component` or `native`, not `{other}`").into()),
                }
            }
            Long("policy") => out.policy = Some(parser.value()?.into()),
            Long("max-input-bytes") => out.max_input_bytes = Some(number(&mut parser, "--max-input-bytes", "bytes")?),
            Long("max-memory-bytes") => out.max_memory_bytes = Some(number(&mut parser, "--max-memory-bytes", "bytes")?),
            Long("deadline-ms") => out.deadline_ms = Some(number(&mut parser, "--deadline-ms", "milliseconds")?),
            Long("pretty") => pretty = true,
            Long("json") => json = true,
            Short('h') | Long("help") => help = true,
            Short('V') | Long("version") => version = true,
            Value(v) if verb.is_none() => verb = Some(v.string()?),
            Value(v) if file.is_none() => file = Some(if v == "-" { Input::Stdin } else { Input::File(v.into()) }),
            // `-` alone is standard input.
            Value(v) => return Err(format!("unexpected argument `{}`", v.to_string_lossy()).into()),
            other => return Err(other.unexpected()),
        }
    }
    let input = file.clone().unwrap_or(Input::Stdin);
    out.command = match (help, version, verb.as_deref()) {
        (true, _, _) => Command::Help,
        (_, true, None) => Command::Version,
        (_, _, Some("normalize")) if !json => Command::Normalize { input, pretty },
        (_, _, Some("normalize")) => return Err("--json applies to `redact` only".into()),
        (_, _, Some("redact")) => Command::Redact { input, json, pretty },
        (_, _, Some("classify-run")) if !json => Command::ClassifyRun { input, pretty },
        (_, _, Some("classify-run")) => return Err("--json applies to `redact` only".into()),
        (_, _, Some("exec-step")) if !json => Command::ExecStep { input, pretty },
        (_, _, Some("exec-step")) => return Err("--json applies to `redact` only".into()),
        (_, _, Some("schema")) if file.is_none() => Command::Schema,
        (_, _, Some("schema")) => return Err("`schema` takes no file".into()),
        (_, _, Some(other)) => {
            return Err(format!("unknown command `{other}`; expected normalize, redact, classify-run, exec-step or schema").into())
        }
        (_, _, None) => return Err("missing command: normalize, redact, classify-run, exec-step or schema".into()),
    };
    Ok(out)
}

/// The value of `flag`, a whole number of `unit`: an error names the flag and the form.
fn number<T: std::str::FromStr>(parser: &mut lexopt::Parser, flag: &str, unit: &str) -> Result<T, lexopt::Error> {
    let value = parser.value()?;
    let text = value.to_string_lossy();
    text.parse().map_err(|_| format!("{flag} takes a whole number of {unit}, not `{text}`").into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Result<Args, String> {
        parse(line.split_whitespace().map(OsString::from))
    }

    /// `--help` lists every step the core reads, each with the members it requires, and its
    /// example is a step the core answers.
    #[test]
    fn help_shows_the_exec_step_input() {
        use codemode_errors::run::ExecStep;
        let unknown = ExecStep::from_json(r#"{"step":"?"}"#).unwrap_err().to_string();
        let names = unknown.rsplit_once(": ").expect("the core lists the steps").1.replace(" or ", ", ");
        // A step's entry: its line and the more indented lines continuing it.
        let help = |name: &str| {
            let mut lines = USAGE.lines().skip_while(|l| !l.trim_start().starts_with(&format!("{name} ")));
            let first = lines.next()?;
            Some(lines.take_while(|l| l.starts_with(&" ".repeat(5))).fold(first.to_owned(), |all, l| all + l))
        };
        for name in names.split(", ") {
            let line = help(name).unwrap_or_else(|| panic!("--help does not list the exec-step `{name}`"));
            // Every member the core asks for, one at a time (given a value of a type it takes),
            // is named on the step's line.
            let mut members = vec![format!(r#""step":"{name}""#)];
            while let Err(e) = ExecStep::from_json(&format!("{{{}}}", members.join(","))) {
                let e = e.to_string();
                let Some(path) = e.split("at ").nth(1).and_then(|m| m.split(':').next()).filter(|p| !p.contains(['.', '['])) else {
                    break; // inside a member: the member itself is named already
                };
                assert!(line.contains(path), "--help's `{name}` line does not name `{path}`: {line}");
                let takes = |v: &String| {
                    let tried = format!("{{{},\"{path}\":{v}}}", members.join(","));
                    ExecStep::from_json(&tried).map_or_else(|e| !e.to_string().contains(&format!("at {path}:")), |_| true)
                };
                let mut values: Vec<String> = ["\"\"", "0", "false", "{}", "[]"].map(String::from).into();
                // An enumeration's first value, from what the core says of an empty string.
                let as_text = ExecStep::from_json(&format!("{{{},\"{path}\":\"\"}}", members.join(","))).err().map(|e| e.to_string());
                if let Some(first) =
                    as_text.as_deref().and_then(|e| e.split_once("must be ")).and_then(|(_, one_of)| one_of.split([',', ' ']).next())
                {
                    values.push(format!("\"{first}\""));
                }
                let value = values.into_iter().find(takes).unwrap_or_else(|| panic!("no value of `{path}` the core takes: {e}"));
                members.push(format!("\"{path}\":{value}"));
            }
        }
        let example = USAGE.lines().skip_while(|l| !l.contains("Example:")).nth(1).expect("an example step").trim();
        assert!(ExecStep::from_json(example).is_ok(), "{example}");
    }

    #[test]
    fn commands_parse() {
        let a = args("--engine native normalize --pretty r.json").unwrap();
        assert_eq!(a.engine, EngineChoice::Native);
        assert_eq!(a.command, Command::Normalize { input: Input::File("r.json".into()), pretty: true });
        assert_eq!(args("redact --json -").unwrap().command, Command::Redact { input: Input::Stdin, json: true, pretty: false });
        assert_eq!(args("schema").unwrap().command, Command::Schema);
        assert_eq!(
            args("classify-run run.json").unwrap().command,
            Command::ClassifyRun { input: Input::File("run.json".into()), pretty: false }
        );
        assert_eq!(args("exec-step --pretty -").unwrap().command, Command::ExecStep { input: Input::Stdin, pretty: true });
        assert_eq!(args("--version").unwrap().command, Command::Version);
        assert_eq!(args("--policy p.json --deadline-ms 10 normalize").unwrap().deadline_ms, Some(10));
    }

    #[test]
    fn mistakes_say_what_is_wrong() {
        assert!(args("frobnicate").unwrap_err().contains("unknown command `frobnicate`"));
        assert!(args("").unwrap_err().contains("missing command"));
        assert!(!args("").unwrap_err().contains("--help"), "main adds the pointer to --help once");
        assert_eq!(args("--deadline-ms abc normalize").unwrap_err(), "--deadline-ms takes a whole number of milliseconds, not `abc`");
        assert_eq!(args("--max-input-bytes -5 normalize").unwrap_err(), "--max-input-bytes takes a whole number of bytes, not `-5`");
        assert!(args("--engine jvm normalize").unwrap_err().contains("--engine must be"));
        assert!(args("normalize a b").unwrap_err().contains("unexpected argument `b`"));
        assert!(args("--deadline-ms lots normalize").unwrap_err().contains("lots"));
        assert!(args("--colour normalize").unwrap_err().contains("--colour"));
        assert!(args("schema x").unwrap_err().contains("no file"));
    }
}
