//! libFuzzer's inputs to `codemode_errors_fuzz::targets::host_value` (its checks are in its doc).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| codemode_errors_fuzz::targets::host_value::run(data));
