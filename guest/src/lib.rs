//! The codemode-errors core as a WASI component behind the `codemode:errors@0.2.0` WIT
//! package (`../wit`). No logic lives here: every function converts WIT values to core
//! values, calls the core, and converts the answer back.
//!
//! Build it with `cargo build -p codemode-errors-guest --target wasm32-wasip2 --profile
//! component-release` (or `cargo xtask test`, which does that first).

#![warn(missing_docs)]

use codemode_errors as core;

/// The bindings generated from `../wit` (documented there).
#[allow(missing_docs)]
mod bindings {
    wit_bindgen::generate!({
        world: "codemode-errors",
        path: "../wit",
    });
}

// The conversions between core values and WIT values (`codemode-errors-wit-convert`),
// over this crate's generated types; the host expands the same ones over its own.
codemode_errors_wit_convert::conversions!(crate::bindings::exports::codemode::errors::api);

use bindings::exports::codemode::errors::api::{
    self, CallContext, CallError, ExecRequest, Failure, Guest, GuestNormalizer, InputError, JsEngine, Outcome, Policy, Projection,
    RunError, Wrapping,
};

/// The component's exports.
struct Component;

/// The `normalizer` resource: a core [`core::Normalizer`] built once from its policy.
pub struct NormalizerResource {
    inner: core::Normalizer,
}

impl Guest for Component {
    type Normalizer = NormalizerResource;

    fn default_policy() -> Policy {
        from_core::policy(&core::Policy::default())
    }

    fn policy_from_json(text: String) -> Result<Policy, InputError> {
        core::Policy::from_json(&text).map(|p| from_core::policy(&p)).map_err(from_core::input_error)
    }

    fn parse_call_error(message: String) -> Result<CallError, InputError> {
        core::parse_call_error(&message).map(|e| from_core::call_error(&e)).map_err(from_core::input_error)
    }

    fn classify_run(report: String) -> Result<RunError, InputError> {
        core::run::classify_run_json(&report).map(|e| from_core::run_error(&e)).map_err(from_core::input_error)
    }

    fn read_exec_request(request: String) -> Result<ExecRequest, RunError> {
        core::run::ExecRequest::from_json(&request).map(|r| from_core::exec_request(&r)).map_err(|f| ends(f, false, false))
    }

    fn module_access(code: String, restart_safe: bool) -> Option<RunError> {
        core::run::module_access(&code).map(|f| ends(f, false, restart_safe))
    }

    fn syntax_error(
        engine: JsEngine,
        message: String,
        stack: String,
        position: Option<(u32, u32)>,
        wrapping: Wrapping,
        source: String,
        restart_safe: bool,
    ) -> RunError {
        let wrapping = to_core::wrapping(&wrapping);
        ends(core::run::syntax_failure(to_core::js_engine(engine), &message, &stack, position, &wrapping, &source), false, restart_safe)
    }

    fn user_stack(engine: JsEngine, name: String, message: String, stack: String, wrapping: Wrapping, label: String) -> String {
        core::run::user_stack(to_core::js_engine(engine), &name, &message, &stack, &to_core::wrapping(&wrapping), &label).into_string()
    }

    fn project_completed(
        output: String,
        value: String,
        max_bytes: u32,
        dispatched: bool,
        restart_safe: bool,
    ) -> Result<Projection, RunError> {
        core::run::project_completed(&output, &value, max_bytes as usize)
            .map(|p| from_core::projection(&p))
            .map_err(|f| ends(f, dispatched, restart_safe))
    }

    fn fit_output(output: String, budget: u32) -> (String, bool) {
        let (text, cut) = core::run::fit_output(&output, budget as usize);
        (text.into_string(), cut)
    }

    fn default_max_output_bytes() -> u32 {
        core::run::DEFAULT_MAX_OUTPUT_BYTES as u32
    }

    fn exec_step(step: String) -> Result<String, InputError> {
        core::run::exec_step_json(&step).map_err(from_core::input_error)
    }

    fn schema() -> String {
        core::SCHEMA.to_owned()
    }

    fn version() -> String {
        core::VERSION.to_owned()
    }
}

impl GuestNormalizer for NormalizerResource {
    fn create(policy: Policy) -> Result<api::Normalizer, InputError> {
        let policy = to_core::policy(&policy).map_err(from_core::input_error)?;
        Ok(api::Normalizer::new(NormalizerResource { inner: core::Normalizer::new(policy) }))
    }

    fn policy(&self) -> Policy {
        from_core::policy(self.inner.policy())
    }

    fn normalize_json(&self, report: String) -> Result<Outcome, InputError> {
        self.inner.normalize_json(&report).map(|o| from_core::outcome(&o)).map_err(from_core::input_error)
    }

    fn normalize(&self, context: CallContext, failure: Failure) -> Result<Outcome, InputError> {
        let report = to_core::report(&context, &failure).map_err(from_core::input_error)?;
        Ok(from_core::outcome(&self.inner.normalize(&report)))
    }

    fn redact_text(&self, text: String) -> String {
        self.inner.redact_text(&text)
    }

    fn redact_json(&self, value: String) -> Result<String, InputError> {
        let value = core::parse_json(&value).map_err(from_core::input_error)?;
        Ok(self.inner.redact_json(&value).to_json())
    }

    fn parse_call_error(&self, message: String) -> Result<CallError, InputError> {
        self.inner.parse_call_error(&message).map(|e| from_core::call_error(&e)).map_err(from_core::input_error)
    }
}

/// The run error of a run that ends at an executor step (the core's `run::end_at_step`).
fn ends(failure: core::run::RunFailure, dispatched: bool, restart_safe: bool) -> RunError {
    from_core::run_error(&core::run::end_at_step(failure, dispatched, restart_safe))
}

bindings::export!(Component with_types_in bindings);
