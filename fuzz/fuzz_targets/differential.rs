//! libFuzzer's inputs to `codemode_errors_fuzz::targets::differential` (its checks are in its doc).
#![no_main]

libfuzzer_sys::fuzz_target!(init: codemode_errors_fuzz::targets::differential::init(), |data: &[u8]| {
    codemode_errors_fuzz::targets::differential::run(data)
});
