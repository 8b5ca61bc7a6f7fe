//! The core's typed input errors as JavaScript errors.

use codemode_errors::ReportError;
use js_sys::{Reflect, TypeError};
use wasm_bindgen::JsValue;

/// A `TypeError` whose message is the core's description and which carries the core's
/// `code` (`ErrorCode::as_str`, e.g. `invalid_report`) and `path` (e.g. `tool_result.isError`,
/// empty for the whole input) as properties.
pub fn to_js(error: &ReportError) -> JsValue {
    let js = TypeError::new(&error.to_string());
    // Setting a property on a fresh, extensible error object cannot fail.
    let _ = Reflect::set(&js, &JsValue::from_str("code"), &JsValue::from_str(error.code().as_str()));
    let _ = Reflect::set(&js, &JsValue::from_str("path"), &JsValue::from_str(error.path()));
    js.into()
}
