//! The Python package's native half: the `codemode_errors._core` extension module.
//!
//! It adapts Python values to the codemode-errors core and nothing else: every rule is the
//! core's. Reports, policies and values arrive as JSON text (`str`) or as Python data
//! (`dict`, `list`, `str`, numbers, `bool`, `None`), which the `walk` module reads into
//! the core's bounded tree under the same input limits as every surface. What comes back is the
//! core's JSON text; `codemode_errors/__init__.py` parses it where the API returns
//! Python data. The GIL is released while the core works, so a large report never stalls
//! the interpreter's other threads.

mod walk;

use codemode_errors::json::Json;
use codemode_errors::run::{classify_run, exec_step_json, fit_failed, run_error_from_json, ExecStep, RunReport};
use codemode_errors::{ErrorCode, Failure, FailureReport, Normalizer, Policy, ReportError as CoreError};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;

pyo3::create_exception!(
    codemode_errors,
    ReportError,
    PyValueError,
    "Input the core cannot work with: `code` names the kind of problem (`invalid_json`, `invalid_report`, ...), `path` where in the input it is (empty for the whole input)."
);

/// The core's typed error as the package's `ReportError`, with `code` and `path` set.
fn raise(py: Python<'_>, e: CoreError) -> PyErr {
    let err = PyErr::new::<ReportError, _>(e.to_string());
    let value = err.value(py);
    // Setting attributes on a fresh exception instance cannot fail short of memory
    // exhaustion; the error itself is still raised then, without them.
    let _ = value.setattr("code", e.code().as_str());
    let _ = value.setattr("path", e.path());
    err
}

/// A report, policy or value: JSON text as a `str`, or Python data read by the walk.
enum Input {
    Text(String),
    Value(Json),
}

/// Read `value` as [`Input`]: a `str` is JSON text, anything else Python data.
fn input(value: &Bound<'_, PyAny>) -> Result<Input, CoreError> {
    match value.cast::<PyString>() {
        Ok(text) => Ok(Input::Text(walk::lossy_text(text))),
        Err(_) => walk::read(value).map(Input::Value),
    }
}

fn read_policy(policy: Option<&Bound<'_, PyAny>>) -> Result<Policy, CoreError> {
    let Some(policy) = policy.filter(|p| !p.is_none()) else { return Ok(Policy::default()) };
    match input(policy) {
        Ok(Input::Text(text)) => Policy::from_json(&text),
        Ok(Input::Value(value)) => Policy::from_value(&value),
        Err(e) => Err(CoreError::new(ErrorCode::InvalidPolicy, e.path(), e.message())),
    }
}

/// A normalizer applying one policy: build it once and keep it.
#[pyclass(name = "Normalizer", module = "codemode_errors", frozen)]
struct PyNormalizer {
    inner: Normalizer,
}

#[pymethods]
impl PyNormalizer {
    #[new]
    #[pyo3(signature = (policy = None))]
    fn new(py: Python<'_>, policy: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        Ok(PyNormalizer { inner: Normalizer::new(read_policy(policy).map_err(|e| raise(py, e))?) })
    }

    /// The outcome of `report` (JSON text or Python data) as the core's JSON text.
    fn normalize_json(&self, py: Python<'_>, report: &Bound<'_, PyAny>) -> PyResult<String> {
        let report = input(report).map_err(|e| raise(py, e))?;
        let outcome = py.detach(|| match &report {
            Input::Text(text) => self.inner.normalize_json(text),
            Input::Value(value) => self.inner.normalize_value(value),
        });
        outcome.map(|o| o.to_json()).map_err(|e| raise(py, e))
    }

    /// Free text sanitized and redacted, with no cap.
    fn redact_text(&self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<String> {
        let text = match text.cast::<PyString>() {
            Ok(text) => walk::lossy_text(text),
            Err(_) => {
                let message = format!("redact_text takes a str, not {}", walk::type_name(text));
                return Err(raise(py, CoreError::new(ErrorCode::InvalidArgument, "", message)));
            }
        };
        Ok(py.detach(|| self.inner.redact_text(&text)))
    }

    /// A redacted copy of a JSON value given as Python data (a `str` is a string value),
    /// as compact JSON text with sorted keys.
    fn redact_json_text(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<String> {
        let value = walk::read(value).map_err(|e| raise(py, e))?;
        Ok(py.detach(|| self.inner.redact_json(&value).to_string()))
    }

    /// Read back a contract error (its JSON text, or the object) under this policy, as
    /// the contract object's JSON text.
    fn parse_call_error_json(&self, py: Python<'_>, error: &Bound<'_, PyAny>) -> PyResult<String> {
        let error = input(error).map_err(|e| raise(py, e))?;
        let read = py.detach(|| match &error {
            Input::Text(text) => self.inner.parse_call_error(text),
            Input::Value(value) => self.inner.call_error_from_value(value),
        });
        read.map(|e| e.to_json()).map_err(|e| raise(py, e))
    }

    /// The outcome (JSON text) of a call to a tool the catalog does not hold: `unknown_tool`,
    /// naming what was called and the nearest tools of `catalog` (`namespace::name` each).
    #[pyo3(signature = (requested, catalog))]
    fn unknown_tool_json(&self, requested: Option<&Bound<'_, PyAny>>, catalog: Vec<String>) -> String {
        let requested = requested.and_then(|r| r.cast::<PyString>().ok()).map(walk::lossy_text);
        let names: Vec<&str> = catalog.iter().map(String::as_str).collect();
        let report = FailureReport::new(Failure::unknown_tool_in(requested.as_deref(), &names)).with_dispatched(Some(false));
        self.inner.normalize(&report).to_json()
    }

    /// The policy in force, every cap and list included, as JSON text.
    fn policy_json(&self) -> String {
        self.inner.policy().to_json()
    }
}

/// The terminal error of a failed run report (JSON text or Python data) as JSON text.
#[pyfunction]
fn classify_run_json(py: Python<'_>, report: &Bound<'_, PyAny>) -> PyResult<String> {
    let report = match input(report).map_err(|e| raise(py, e))? {
        Input::Text(text) => py.detach(|| RunReport::from_json(&text)),
        Input::Value(value) => RunReport::from_value(&value),
    };
    let report = report.map_err(|e| raise(py, e))?;
    Ok(py.detach(|| classify_run(&report).to_json()))
}

/// One executor step (JSON text) answered by the core's run rules, as JSON text.
#[pyfunction]
fn exec_step(py: Python<'_>, step: &Bound<'_, PyAny>) -> PyResult<String> {
    match input(step).map_err(|e| raise(py, e))? {
        Input::Text(text) => py.detach(|| exec_step_json(&text)).map_err(|e| raise(py, e)),
        // Read as the value it is: written back as text, a string past the head would
        // lose its real length.
        Input::Value(value) => {
            let step = ExecStep::from_value(&value).map_err(|e| raise(py, e))?;
            Ok(py.detach(|| step.answer().to_json()))
        }
    }
}

/// A completed run's printed output and value (JSON text) fitted to one budget: the answer
/// of the core's `project_completed` step as JSON text (`{"output", "value", "truncated"}`,
/// or `{"failed": <run error>}`). Strings of any length: no step text is read.
#[pyfunction]
fn project_completed(
    py: Python<'_>,
    output: &Bound<'_, PyString>,
    value_json: &Bound<'_, PyString>,
    max_bytes: usize,
    dispatched: bool,
    restart_safe: bool,
) -> String {
    let (output, value) = (walk::lossy_text(output), walk::lossy_text(value_json));
    py.detach(|| ExecStep::ProjectCompleted { output, value, max_bytes, dispatched, restart_safe }.answer().to_json())
}

/// A failed run fitted to its output budget (the core's `fit_failed`): `error_json` is a
/// run error's JSON text, `stack` the guest's frames (empty when none), `output` what the
/// code printed. Answers `{"status": "failed", ...}` as JSON text.
#[pyfunction]
fn failed_run(
    py: Python<'_>,
    error_json: &str,
    stack: &Bound<'_, PyString>,
    output: &Bound<'_, PyString>,
    max_bytes: usize,
) -> PyResult<String> {
    let error = run_error_from_json(error_json).map_err(|e| raise(py, e))?;
    let (stack, output) = (walk::lossy_text(stack), walk::lossy_text(output));
    Ok(py.detach(|| fit_failed(error, &stack, &output, max_bytes).to_json()))
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ReportError", py.get_type::<ReportError>())?;
    m.add("CONTRACT_VERSION", codemode_errors::CONTRACT_VERSION)?;
    m.add("VERSION", codemode_errors::VERSION)?;
    m.add("SCHEMA", codemode_errors::SCHEMA)?;
    m.add_class::<PyNormalizer>()?;
    m.add_function(wrap_pyfunction!(classify_run_json, m)?)?;
    m.add_function(wrap_pyfunction!(exec_step, m)?)?;
    m.add_function(wrap_pyfunction!(project_completed, m)?)?;
    m.add_function(wrap_pyfunction!(failed_run, m)?)?;
    Ok(())
}
