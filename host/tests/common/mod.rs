//! What the host's integration tests share: one compiled component per test binary,
//! compiled through a cache in the target directory so later test binaries and CLI
//! processes deserialize it instead of compiling it again.

#![allow(dead_code)] // each test binary uses its own part of this module

use std::path::PathBuf;
use std::sync::OnceLock;

use codemode_errors_host::{CompileCache, ComponentEngine, Limits, NativeEngine};

/// The cache directory every test and CLI process of this build shares.
pub fn cache_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("component-cache")
}

/// The component engine with the default policy and limits, built once.
pub fn component() -> &'static ComponentEngine {
    static ENGINE: OnceLock<ComponentEngine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let cache = CompileCache::Directory(cache_dir());
        ComponentEngine::with_component(codemode_errors_host::GUEST_COMPONENT, &cache, &Default::default(), Limits::default())
            .expect("the embedded component compiles and links")
    })
}

/// The native engine with the default policy and limits.
pub fn native() -> NativeEngine {
    NativeEngine::new(&Default::default(), Limits::default())
}

/// A scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("host-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// A typical failure report: a tool result with a rate-limit message and a secret.
pub const TYPICAL_REPORT: &str = r#"{"tool":"github::create_issue","annotations":{"readOnlyHint":false},"dispatched":true,"tool_result":{"isError":true,"content":[{"type":"text","text":"HTTP/1.1 429 Too Many Requests; Retry-After: 20 (token=ghp_abcdefghijklmnopqrstuvwxyz0123456789)"}]}}"#;
