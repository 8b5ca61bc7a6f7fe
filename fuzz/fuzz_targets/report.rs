//! libFuzzer's inputs to `codemode_errors_fuzz::targets::report` (its checks are in its doc).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| codemode_errors_fuzz::targets::report::run(data));
