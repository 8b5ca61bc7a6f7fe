//! `differential`: the native core against the WASI component, byte for byte.
//!
//! The first input byte chooses the entry point, the rest (UTF-8) is its input; each
//! input goes to a `NativeEngine` and to a `ComponentEngine` (`codemode-errors-host`,
//! default policy, default limits; one component engine per process, built before the
//! first input, so the component is compiled (or read from the compile cache) once and
//! every call gets a fresh store, as a gateway's one-shot calls do).
//!
//! | first byte % 9 | entry point | its input |
//! | --- | --- | --- |
//! | 0 | `normalize_json` | a failure report |
//! | 1 | `redact_text` | text |
//! | 2 | `redact_json` | a JSON value |
//! | 3 | `parse_call_error` | an `Error.message` |
//! | 4 | `classify_run` | a run report |
//! | 5 | `exec_step` | an executor step as JSON |
//! | 6 | `read_exec_request` | the exec tool's arguments |
//! | 7 | `module_access` | a source; `restart_safe` is bit 0 of first byte / 9 |
//! | 8 | `fit_output` | console output; the budget is (first byte / 9) × 64 bytes |
//!
//! Asserts, for every input:
//! - both engines answer, and the answers are equal: an `Ok` value in full (the exact
//!   JSON text the core emits and every typed field beside it), an `Err` as the same typed
//!   error (`code`, `path` and `message` of the input error, or the same input bound);
//! - the component accepts every input the native core accepts within the input bound:
//!   an abort of the component call (a trap, or its memory bound) where the native
//!   engine answered is a failure. The inputs are at most 64 KiB, and the memory bound
//!   (128 MiB) is sized for the largest input the input bound admits (8 MiB), so no input
//!   here may trip it. The one exception is the execution bound, which is wall-clock time:
//!   on a loaded machine, and niced, a call can be descheduled past its 1 s. A call that
//!   ran past its deadline is run again on the same compiled component with a 60 s
//!   deadline, and that answer must equal the native one (libFuzzer's `-timeout=10` fires
//!   first on a real hang); a second trip is a failure like any other abort;
//! - once per process, both engines report the same schema and version.

use std::fmt::Debug;
use std::sync::OnceLock;
use std::time::Duration;

use codemode_errors::Policy;
use codemode_errors_host::{AbortCause, ComponentEngine, Engine, HostError, Limits, NativeEngine};

/// The native engine, the component engine, and the component engine with a patient
/// deadline for a call that ran past its own (sharing the compiled component).
struct Engines {
    native: Engine,
    component: Engine,
    patient: Engine,
}

fn engines() -> &'static Engines {
    static ENGINES: OnceLock<Engines> = OnceLock::new();
    ENGINES.get_or_init(|| {
        let policy = Policy::default();
        let component = ComponentEngine::new(&policy, Limits::default()).unwrap_or_else(|e| panic!("{e}"));
        let patient = component.with_limits(Limits::default().with_deadline(Duration::from_secs(60)));
        let engines = Engines {
            native: Engine::Native(NativeEngine::new(&policy, Limits::default())),
            component: Engine::Component(component),
            patient: Engine::Component(patient),
        };
        assert_eq!(engines.native.schema(), engines.component.schema(), "the engines' schemas differ");
        assert_eq!(engines.native.version(), engines.component.version(), "the engines' versions differ");
        engines
    })
}

/// How many entry points the first byte chooses from.
const ENTRY_POINTS: u8 = 9;

/// Build both engines before the first input: on a machine whose cache does not hold the
/// compiled component yet, compiling it takes longer than libFuzzer's per-input timeout.
pub fn init() {
    engines();
}

/// One input: the first byte picks the entry point, the rest is its text.
pub fn run(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let param = first / ENTRY_POINTS;
    match first % ENTRY_POINTS {
        0 => same("normalize_json", text, |e| e.normalize_json(text)),
        1 => same("redact_text", text, |e| e.redact_text(text)),
        2 => same("redact_json", text, |e| e.redact_json(text)),
        3 => same("parse_call_error", text, |e| e.parse_call_error(text)),
        4 => same("classify_run", text, |e| e.classify_run(text)),
        5 => same("exec_step", text, |e| e.exec_step(text)),
        6 => same("read_exec_request", text, |e| e.read_exec_request(text)),
        7 => same("module_access", text, |e| e.module_access(text, param & 1 == 1)),
        _ => same("fit_output", text, |e| e.fit_output(text, u32::from(param) * 64)),
    }
}

/// Call `entry` on both engines and panic unless the answers are equal.
fn same<T: PartialEq + Debug>(entry: &str, input: &str, call: impl Fn(&Engine) -> Result<T, HostError>) {
    let engines = engines();
    let native = call(&engines.native);
    let mut component = call(&engines.component);
    if matches!(&component, Err(HostError::Aborted(a)) if a.cause() == AbortCause::Execution) {
        eprintln!("differential: {entry} ran past the component's deadline on {} bytes; running it again with 60 s", input.len());
        component = call(&engines.patient);
    }
    if let Err(HostError::Aborted(a)) = &component {
        panic!("{entry}: the component call was stopped on a {}-byte input the native core answered: {a}\nnative: {native:?}", input.len());
    }
    if native != component {
        let (n, c) = (format!("{native:?}"), format!("{component:?}"));
        let at = n.bytes().zip(c.bytes()).position(|(a, b)| a != b).unwrap_or(n.len().min(c.len()));
        let from = n.floor_char_boundary(at.saturating_sub(80));
        let cfrom = c.floor_char_boundary(at.saturating_sub(80));
        panic!(
            "{entry}: the engines differ on a {}-byte input (first difference at byte {at} of the answers' Debug form)\nnative:    …{}\ncomponent: …{}\nnative in full: {n}\ncomponent in full: {c}",
            input.len(),
            &n[from..n.ceil_char_boundary(at + 80)],
            &c[cfrom..c.ceil_char_boundary(at + 80)],
        );
    }
}
