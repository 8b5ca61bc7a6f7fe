//! The precompiled-component cache: compiling the component takes a while, so the
//! compiled artifact is serialized once and a later process start only deserializes it.
//!
//! Entries are keyed by the SHA-256 of the component and by the engine's compatibility
//! hash (wasmtime version and compiler settings), so a new component or a new wasmtime
//! never reads a stale entry. Entries are written to a temporary file and renamed, so a
//! concurrent start never reads half a file.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use wasmtime::component::Component;
use wasmtime::Engine;

/// The environment variable naming the cache directory; empty disables the cache.
///
/// ```
/// use codemode_errors_host::{cache::CACHE_DIR_ENV, CompileCache};
/// // Run with CODEMODE_ERRORS_CACHE_DIR= (empty) to compile in every process.
/// assert_eq!(CACHE_DIR_ENV, "CODEMODE_ERRORS_CACHE_DIR");
/// if std::env::var_os(CACHE_DIR_ENV).is_some_and(|d| d.is_empty()) {
///     assert_eq!(CompileCache::from_env(), CompileCache::Disabled);
/// }
/// ```
pub const CACHE_DIR_ENV: &str = "CODEMODE_ERRORS_CACHE_DIR";

/// Where compiled components are kept.
///
/// ```
/// use codemode_errors_host::{CompileCache, ComponentEngine, Limits, GUEST_COMPONENT};
/// let dir = std::env::temp_dir().join(format!("codemode-errors-doc-{}", std::process::id()));
/// let cache = CompileCache::Directory(dir.clone());
/// let engine = ComponentEngine::with_component(GUEST_COMPONENT, &cache, &Default::default(), Limits::default())?;
/// assert_eq!(engine.version()?, codemode_errors::VERSION);
/// assert!(std::fs::read_dir(&dir)?.count() == 1); // the compiled component, kept for the next start
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompileCache {
    /// Compile in every process.
    Disabled,
    /// Keep compiled components in this directory (created when missing).
    Directory(PathBuf),
}

/// How the component was obtained, for logs and benchmarks.
///
/// ```
/// use codemode_errors_host::{CacheEvent, CompileCache};
/// let empty_component = b"\0asm\x0d\x00\x01\x00";
/// let engine = wasmtime::Engine::default();
/// let dir = std::env::temp_dir().join(format!("codemode-errors-event-{}", std::process::id()));
/// let cache = CompileCache::Directory(dir.clone());
/// assert_eq!(cache.load_or_compile(&engine, empty_component)?.1, CacheEvent::Stored);
/// assert_eq!(cache.load_or_compile(&engine, empty_component)?.1, CacheEvent::Hit);
/// assert_eq!(CompileCache::Disabled.load_or_compile(&engine, empty_component)?.1, CacheEvent::Compiled);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheEvent {
    /// Deserialized from the cache: no compilation.
    Hit,
    /// Compiled, then stored in the cache.
    Stored,
    /// Compiled; the cache is disabled or could not be written.
    Compiled,
}

impl CompileCache {
    /// The default: `$CODEMODE_ERRORS_CACHE_DIR` when set (empty disables), else
    /// `$XDG_CACHE_HOME/codemode-errors`, else `$HOME/.cache/codemode-errors`, else none.
    ///
    /// ```
    /// use codemode_errors_host::CompileCache;
    /// match CompileCache::from_env() {
    ///     CompileCache::Directory(dir) => assert!(dir.is_absolute() || std::env::var_os("CODEMODE_ERRORS_CACHE_DIR").is_some()),
    ///     CompileCache::Disabled => {} // CODEMODE_ERRORS_CACHE_DIR is empty, or there is no home
    /// }
    /// ```
    pub fn from_env() -> Self {
        if let Some(dir) = std::env::var_os(CACHE_DIR_ENV) {
            return if dir.is_empty() { CompileCache::Disabled } else { CompileCache::Directory(dir.into()) };
        }
        let base = std::env::var_os("XDG_CACHE_HOME")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").filter(|d| !d.is_empty()).map(|h| Path::new(&h).join(".cache")));
        base.map_or(CompileCache::Disabled, |b| CompileCache::Directory(b.join("codemode-errors")))
    }

    /// The compiled `component`, from the cache when a matching entry is there.
    ///
    /// ```
    /// use codemode_errors_host::{CacheEvent, CompileCache};
    /// let empty_component = b"\0asm\x0d\x00\x01\x00";
    /// let engine = wasmtime::Engine::default();
    /// let dir = std::env::temp_dir().join(format!("codemode-errors-load-{}", std::process::id()));
    /// let cache = CompileCache::Directory(dir.clone());
    /// let (_component, first) = cache.load_or_compile(&engine, empty_component)?;
    /// let (_component, second) = cache.load_or_compile(&engine, empty_component)?;
    /// assert_eq!((first, second), (CacheEvent::Stored, CacheEvent::Hit));
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn load_or_compile(&self, engine: &Engine, component: &[u8]) -> wasmtime::Result<(Component, CacheEvent)> {
        let CompileCache::Directory(dir) = self else {
            return Ok((Component::new(engine, component)?, CacheEvent::Compiled));
        };
        let path = dir.join(entry_name(engine, component));
        // Read into memory rather than mapping the file: a mapped file that another process
        // truncates would crash us, a copy cannot.
        if let Ok(bytes) = std::fs::read(&path) {
            // SAFETY: the bytes are an entry this cache wrote with `Component::serialize` for
            // an engine of the same compatibility hash (its name says so), in a directory that
            // belongs to the user running us. Wasmtime also checks the artifact's header and
            // refuses one from another version or configuration; then we recompile below.
            if let Ok(c) = unsafe { Component::deserialize(engine, &bytes) } {
                return Ok((c, CacheEvent::Hit));
            }
        }
        let compiled = Component::new(engine, component)?;
        let event = match store(dir, &path, &compiled) {
            Ok(()) => CacheEvent::Stored,
            Err(_) => CacheEvent::Compiled,
        };
        Ok((compiled, event))
    }
}

fn entry_name(engine: &Engine, component: &[u8]) -> String {
    let digest = Sha256::digest(component);
    let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
    let mut compat = std::collections::hash_map::DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut compat);
    format!("component-{hex}-{:016x}.cwasm", compat.finish())
}

fn store(dir: &Path, path: &Path, compiled: &Component) -> wasmtime::Result<()> {
    std::fs::create_dir_all(dir)?;
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, compiled.serialize()?)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })?;
    Ok(())
}
