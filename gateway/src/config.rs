//! The config file: which MCP servers the gateway fronts.
//!
//! The ecosystem's usual shape (Claude Desktop, Cursor, Cline, ...):
//!
//! ```json
//! {"mcpServers": {
//!    "fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/data"],
//!           "env": {"LOG_LEVEL": "warn"}, "cwd": "/srv", "timeoutMs": 30000, "startupTimeoutMs": 20000}
//! }}
//! ```
//!
//! Each member of `mcpServers` is one stdio server; its name becomes the namespace of its
//! tools (`fs::read_file`). The rules, checked by [`Config::from_json`]:
//!
//! - **Namespaces**: 1 to [`MAX_NAMESPACE`] characters; no `:` at all (so `ns::tool` always
//!   splits at the namespace's end), no whitespace, no control characters, nothing the
//!   core's tool-name check refuses (invisible and bidi characters). The same name twice
//!   in `mcpServers` is an error (JSON would silently keep the last).
//! - **Members of a server**: `command` (required, a non-empty string), `args` (array of
//!   strings), `env` (object of strings; added to the gateway's own environment, which
//!   the child inherits), `cwd` (string; relative to the config file's directory when
//!   loaded with [`Config::load`]), `timeoutMs` (the default call deadline) and
//!   `startupTimeoutMs` (start + initialize + tool listing; default
//!   [`DEFAULT_STARTUP_TIMEOUT`]), both integers from 1 to 86,400,000.
//!   `"type": "stdio"` is accepted; any other `type`, or a `url`/`serverUrl` member
//!   (HTTP/SSE servers), is an error saying remote servers are not supported.
//!   `"disabled": true` (Cline, Roo) leaves the server out; `autoApprove`/`alwaysAllow`
//!   (other clients' approval lists) are ignored. **Any other member is an error**: a
//!   typo such as `"arg"` must not silently drop the arguments.
//! - **Top level**: `mcpServers` is required (an object, possibly empty); other top-level
//!   members are ignored, so a whole client config file can be pointed at.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Longest namespace accepted, in characters.
pub const MAX_NAMESPACE: usize = 64;

/// Start deadline when a server gives no `startupTimeoutMs`.
pub const DEFAULT_STARTUP_TIMEOUT: Duration = Duration::from_secs(30);

/// Largest `timeoutMs`/`startupTimeoutMs`: one day.
const MAX_TIMEOUT_MS: u64 = 86_400_000;

/// Members of a server entry other clients use, ignored here.
const IGNORED_MEMBERS: &[&str] = &["autoApprove", "alwaysAllow"];

/// Members of a server entry this gateway reads.
const KNOWN_MEMBERS: &[&str] = &["command", "args", "env", "cwd", "timeoutMs", "startupTimeoutMs", "type", "disabled"];

/// The gateway's configuration: the stdio MCP servers it fronts, in file order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Config {
    /// The servers, in the order the file lists them (disabled ones left out).
    pub servers: Vec<ServerConfig>,
}

/// One stdio MCP server.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerConfig {
    /// Its name in `mcpServers`: the namespace of its tools.
    pub namespace: String,
    /// The program to run.
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Environment variables added to the inherited environment, in file order.
    pub env: Vec<(String, String)>,
    /// Its working directory (`None`: the gateway's).
    pub cwd: Option<PathBuf>,
    /// The default deadline of one call (`timeoutMs`; `None`: the caller decides).
    pub call_timeout: Option<Duration>,
    /// The deadline for spawn + initialize + listing its tools (`startupTimeoutMs`).
    pub startup_timeout: Duration,
}

impl ServerConfig {
    /// A server running `command` with `args`, every other member at its default.
    ///
    /// ```
    /// let s = codemode_gateway::config::ServerConfig::new("fs", "node", ["server.js"]);
    /// assert_eq!((s.namespace.as_str(), s.args.len()), ("fs", 1));
    /// ```
    pub fn new(namespace: &str, command: &str, args: impl IntoIterator<Item = impl Into<String>>) -> Self {
        ServerConfig {
            namespace: namespace.to_owned(),
            command: command.to_owned(),
            args: args.into_iter().map(Into::into).collect(),
            env: Vec::new(),
            cwd: None,
            call_timeout: None,
            startup_timeout: DEFAULT_STARTUP_TIMEOUT,
        }
    }
}

/// Why a config was refused.
#[derive(Debug)]
#[non_exhaustive]
pub enum ConfigError {
    /// The file could not be read.
    Read {
        /// The file.
        file: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The text is not JSON.
    Syntax {
        /// The file, when read from one.
        file: Option<PathBuf>,
        /// serde_json's description (with line and column).
        message: String,
    },
    /// The JSON does not describe a valid config.
    Invalid {
        /// The file, when read from one.
        file: Option<PathBuf>,
        /// Where, as a dotted path: `mcpServers.fs.command`.
        path: String,
        /// What is wrong, completing the path: `must be a string`.
        message: String,
    },
}

impl ConfigError {
    /// The dotted JSON path of an [`ConfigError::Invalid`] error (`mcpServers.fs.command`).
    pub fn path(&self) -> Option<&str> {
        match self {
            ConfigError::Invalid { path, .. } => Some(path),
            _ => None,
        }
    }

    fn invalid(path: impl Into<String>, message: impl Into<String>) -> Self {
        ConfigError::Invalid { file: None, path: path.into(), message: message.into() }
    }

    fn in_file(mut self, f: &Path) -> Self {
        match &mut self {
            ConfigError::Syntax { file, .. } | ConfigError::Invalid { file, .. } => *file = Some(f.to_owned()),
            ConfigError::Read { .. } => {}
        }
        self
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Read { file, source } => write!(f, "cannot read the config file {}: {source}", file.display()),
            ConfigError::Syntax { file, message } => {
                if let Some(file) = file {
                    write!(f, "{}: ", file.display())?;
                }
                write!(f, "the config is not valid JSON: {message}")
            }
            ConfigError::Invalid { file, path, message } => {
                if let Some(file) = file {
                    write!(f, "{}: ", file.display())?;
                }
                write!(f, "{path} {message}")
            }
        }
    }
}

impl std::error::Error for ConfigError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ConfigError::Read { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// The JSON type of a value, for messages.
fn type_name(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// An object's members in order with duplicates kept (a `serde_json::Map` keeps only the
/// last), or the whole value when it is not an object.
enum Members {
    Object(Vec<(String, serde_json::Value)>),
    Other(serde_json::Value),
}

impl<'de> serde::Deserialize<'de> for Members {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Members;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Members, A::Error> {
                let mut out = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    out.push((key, map.next_value::<serde_json::Value>()?));
                }
                Ok(Members::Object(out))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Members, A::Error> {
                let mut out = Vec::new();
                while let Some(v) = seq.next_element::<serde_json::Value>()? {
                    out.push(v);
                }
                Ok(Members::Other(serde_json::Value::Array(out)))
            }
            fn visit_bool<E>(self, v: bool) -> Result<Members, E> {
                Ok(Members::Other(v.into()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Members, E> {
                Ok(Members::Other(v.into()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Members, E> {
                Ok(Members::Other(v.into()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Members, E> {
                Ok(Members::Other(v.into()))
            }
            fn visit_str<E>(self, v: &str) -> Result<Members, E> {
                Ok(Members::Other(v.into()))
            }
            fn visit_unit<E>(self) -> Result<Members, E> {
                Ok(Members::Other(serde_json::Value::Null))
            }
        }
        d.deserialize_any(V)
    }
}

/// The top level: only `mcpServers` is read, with its members' duplicates kept.
struct Top {
    /// The top level's type when it is not an object.
    not_object: Option<&'static str>,
    /// `mcpServers` (the last, if given twice).
    servers: Option<Members>,
}

impl<'de> serde::Deserialize<'de> for Top {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Top;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Top, A::Error> {
                let mut servers = None;
                while let Some(key) = map.next_key::<String>()? {
                    if key == "mcpServers" {
                        servers = Some(map.next_value::<Members>()?);
                    } else {
                        map.next_value::<serde::de::IgnoredAny>()?;
                    }
                }
                Ok(Top { not_object: None, servers })
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Top, A::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(Top { not_object: Some("an array"), servers: None })
            }
            fn visit_bool<E>(self, _: bool) -> Result<Top, E> {
                Ok(Top { not_object: Some("a boolean"), servers: None })
            }
            fn visit_i64<E>(self, _: i64) -> Result<Top, E> {
                Ok(Top { not_object: Some("a number"), servers: None })
            }
            fn visit_u64<E>(self, _: u64) -> Result<Top, E> {
                Ok(Top { not_object: Some("a number"), servers: None })
            }
            fn visit_f64<E>(self, _: f64) -> Result<Top, E> {
                Ok(Top { not_object: Some("a number"), servers: None })
            }
            fn visit_str<E>(self, _: &str) -> Result<Top, E> {
                Ok(Top { not_object: Some("a string"), servers: None })
            }
            fn visit_unit<E>(self) -> Result<Top, E> {
                Ok(Top { not_object: Some("null"), servers: None })
            }
        }
        d.deserialize_any(V)
    }
}

impl Config {
    /// Read and check the config file at `path`. A relative `cwd` in it is taken relative
    /// to the file's directory. Errors name the file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read { file: path.to_owned(), source })?;
        let mut config = Config::from_json(&text).map_err(|e| e.in_file(path))?;
        let base = path.parent().unwrap_or(Path::new(""));
        for server in &mut config.servers {
            if let Some(cwd) = &server.cwd {
                if cwd.is_relative() {
                    server.cwd = Some(base.join(cwd));
                }
            }
        }
        Ok(config)
    }

    /// Parse and check a config from its JSON text (see the module docs for the rules).
    ///
    /// ```
    /// use codemode_gateway::config::Config;
    /// let config = Config::from_json(r#"{"mcpServers":{"fs":{"command":"node","args":["fs.js","/data"]}}}"#).unwrap();
    /// assert_eq!(config.servers[0].namespace, "fs");
    /// let error = Config::from_json(r#"{"mcpServers":{"fs":{"command":["node"]}}}"#).unwrap_err();
    /// assert_eq!(error.to_string(), "mcpServers.fs.command must be a string, got an array");
    /// ```
    pub fn from_json(text: &str) -> Result<Config, ConfigError> {
        let top: Top = serde_json::from_str(text).map_err(|e| ConfigError::Syntax { file: None, message: e.to_string() })?;
        if let Some(kind) = top.not_object {
            return Err(ConfigError::invalid("(the top level)", format!("must be an object with an \"mcpServers\" member, got {kind}")));
        }
        let entries = match top.servers {
            None => {
                return Err(ConfigError::invalid("mcpServers", "is missing: the config must name its servers in an \"mcpServers\" object"))
            }
            Some(Members::Other(v)) => {
                return Err(ConfigError::invalid("mcpServers", format!("must be an object of servers by name, got {}", type_name(&v))))
            }
            Some(Members::Object(entries)) => entries,
        };
        let mut servers: Vec<ServerConfig> = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        for (name, value) in &entries {
            let path = format!("mcpServers.{}", display_name(name));
            check_namespace(name).map_err(|m| ConfigError::invalid(path.clone(), m))?;
            if seen.contains(&name.as_str()) {
                return Err(ConfigError::invalid(path, "is given twice: each server name (its tools' namespace) must be unique"));
            }
            seen.push(name);
            if let Some(server) = server_config(name, value, &path)? {
                servers.push(server);
            }
        }
        Ok(Config { servers })
    }
}

/// `name` as it appears in an error path: quoted when it is not plain.
fn display_name(name: &str) -> String {
    if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        name.to_owned()
    } else {
        serde_json::to_string(name).unwrap_or_default()
    }
}

/// Whether `name` is usable as a namespace; the reason when not.
///
/// ```
/// use codemode_gateway::config::check_namespace;
/// assert!(check_namespace("github-enterprise").is_ok());
/// assert!(check_namespace("a::b").is_err() && check_namespace("my server").is_err() && check_namespace("").is_err());
/// ```
pub fn check_namespace(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("is not a usable namespace: a server name must not be empty".into());
    }
    let len = name.chars().count();
    if len > MAX_NAMESPACE {
        return Err(format!("is not a usable namespace: a server name is at most {MAX_NAMESPACE} characters, this one has {len}"));
    }
    if name.contains(':') {
        return Err("is not a usable namespace: a server name must not contain ':' (tools are named \"namespace::tool\")".into());
    }
    if name.chars().any(char::is_whitespace) {
        return Err("is not a usable namespace: a server name must not contain whitespace".into());
    }
    if name.chars().any(char::is_control) {
        return Err("is not a usable namespace: a server name must not contain control characters".into());
    }
    // What the core refuses in a tool name (invisible, bidi), checked by the core itself.
    if codemode_errors::ToolName::new(&format!("{name}::tool")).is_err() {
        return Err("is not a usable namespace: it contains characters a tool name must not hold (invisible or bidi controls)".into());
    }
    Ok(())
}

/// One server entry; `None` when it is disabled.
fn server_config(name: &str, value: &serde_json::Value, path: &str) -> Result<Option<ServerConfig>, ConfigError> {
    let Some(obj) = value.as_object() else {
        return Err(ConfigError::invalid(path, format!("must be an object describing the server, got {}", type_name(value))));
    };
    let at = |member: &str| format!("{path}.{member}");
    if let Some(disabled) = obj.get("disabled") {
        match disabled.as_bool() {
            Some(true) => return Ok(None),
            Some(false) => {}
            None => return Err(ConfigError::invalid(at("disabled"), format!("must be a boolean, got {}", type_name(disabled)))),
        }
    }
    for remote in ["url", "serverUrl"] {
        if obj.contains_key(remote) {
            return Err(ConfigError::invalid(
                at(remote),
                "names a remote (HTTP/SSE) server, which this gateway does not support: only stdio servers with a \"command\"",
            ));
        }
    }
    if let Some(kind) = obj.get("type") {
        match kind.as_str() {
            Some("stdio") => {}
            Some(other) => {
                return Err(ConfigError::invalid(
                    at("type"),
                    format!("is {other:?}: this gateway supports only \"stdio\" servers (started from a \"command\")"),
                ))
            }
            None => return Err(ConfigError::invalid(at("type"), format!("must be a string, got {}", type_name(kind)))),
        }
    }
    for key in obj.keys() {
        if !KNOWN_MEMBERS.contains(&key.as_str()) && !IGNORED_MEMBERS.contains(&key.as_str()) {
            return Err(ConfigError::invalid(
                format!("{path}.{}", display_name(key)),
                format!("is not a known member of a server; expected {}", KNOWN_MEMBERS.join(", ")),
            ));
        }
    }
    let command = match obj.get("command") {
        None => return Err(ConfigError::invalid(at("command"), "is missing: a stdio server needs the program to run")),
        Some(serde_json::Value::String(c)) if c.trim().is_empty() => return Err(ConfigError::invalid(at("command"), "must not be empty")),
        Some(serde_json::Value::String(c)) => c.clone(),
        Some(other) => return Err(ConfigError::invalid(at("command"), format!("must be a string, got {}", type_name(other)))),
    };
    let mut server = ServerConfig::new(name, &command, Vec::<String>::new());
    if let Some(args) = obj.get("args") {
        let Some(items) = args.as_array() else {
            return Err(ConfigError::invalid(at("args"), format!("must be an array of strings, got {}", type_name(args))));
        };
        for (i, item) in items.iter().enumerate() {
            match item.as_str() {
                Some(s) => server.args.push(s.to_owned()),
                None => {
                    return Err(ConfigError::invalid(format!("{path}.args[{i}]"), format!("must be a string, got {}", type_name(item))))
                }
            }
        }
    }
    if let Some(env) = obj.get("env") {
        let Some(vars) = env.as_object() else {
            return Err(ConfigError::invalid(at("env"), format!("must be an object of strings, got {}", type_name(env))));
        };
        for (k, v) in vars {
            let var_path = format!("{path}.env.{}", display_name(k));
            if k.is_empty() || k.contains('=') || k.contains('\0') {
                return Err(ConfigError::invalid(var_path, "is not a valid environment variable name"));
            }
            match v.as_str() {
                Some(s) if s.contains('\0') => return Err(ConfigError::invalid(var_path, "must not contain a NUL character")),
                Some(s) => server.env.push((k.clone(), s.to_owned())),
                None => return Err(ConfigError::invalid(var_path, format!("must be a string, got {}", type_name(v)))),
            }
        }
    }
    if let Some(cwd) = obj.get("cwd") {
        match cwd.as_str() {
            Some("") => return Err(ConfigError::invalid(at("cwd"), "must not be empty")),
            Some(s) => server.cwd = Some(PathBuf::from(s)),
            None => return Err(ConfigError::invalid(at("cwd"), format!("must be a string, got {}", type_name(cwd)))),
        }
    }
    server.call_timeout = millis(obj, "timeoutMs", path)?;
    if let Some(t) = millis(obj, "startupTimeoutMs", path)? {
        server.startup_timeout = t;
    }
    Ok(Some(server))
}

/// An optional duration member in milliseconds: an integer from 1 to one day.
fn millis(obj: &serde_json::Map<String, serde_json::Value>, key: &str, path: &str) -> Result<Option<Duration>, ConfigError> {
    let Some(v) = obj.get(key) else { return Ok(None) };
    match v.as_u64() {
        Some(ms) if (1..=MAX_TIMEOUT_MS).contains(&ms) => Ok(Some(Duration::from_millis(ms))),
        _ if v.is_number() => Err(ConfigError::invalid(
            format!("{path}.{key}"),
            format!("must be a whole number of milliseconds from 1 to {MAX_TIMEOUT_MS}, got {v}"),
        )),
        _ => Err(ConfigError::invalid(format!("{path}.{key}"), format!("must be a number of milliseconds, got {}", type_name(v)))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        Config::from_json(text).unwrap_err().to_string()
    }

    #[test]
    fn reads_the_usual_shape() {
        let config = Config::from_json(
            r#"{"globalShortcut":"x","mcpServers":{
                "fs":{"command":"npx","args":["-y","pkg","/d"],"env":{"B":"2","A":"1"},"cwd":"/srv","timeoutMs":1500,"type":"stdio","autoApprove":["x"]},
                "gh":{"command":"gh-mcp","startupTimeoutMs":100},
                "off":{"command":"x","disabled":true}}}"#,
        )
        .unwrap();
        assert_eq!(config.servers.len(), 2);
        let fs = &config.servers[0];
        assert_eq!((fs.namespace.as_str(), fs.command.as_str()), ("fs", "npx"));
        assert_eq!(fs.args, ["-y", "pkg", "/d"]);
        assert_eq!(fs.env, [("B".to_owned(), "2".to_owned()), ("A".to_owned(), "1".to_owned())]);
        assert_eq!(fs.cwd.as_deref(), Some(Path::new("/srv")));
        assert_eq!(fs.call_timeout, Some(Duration::from_millis(1500)));
        assert_eq!(fs.startup_timeout, DEFAULT_STARTUP_TIMEOUT);
        let gh = &config.servers[1];
        assert_eq!((gh.call_timeout, gh.startup_timeout), (None, Duration::from_millis(100)));
        assert!(gh.args.is_empty() && gh.env.is_empty() && gh.cwd.is_none());
        assert_eq!(Config::from_json(r#"{"mcpServers":{}}"#).unwrap().servers, []);
    }

    #[test]
    fn errors_name_the_path() {
        assert_eq!(err(r#"{"mcpServers":{"fs":{"command":5}}}"#), "mcpServers.fs.command must be a string, got a number");
        assert_eq!(err(r#"{"mcpServers":{"fs":{}}}"#), "mcpServers.fs.command is missing: a stdio server needs the program to run");
        assert_eq!(err(r#"{"mcpServers":{"fs":{"command":" "}}}"#), "mcpServers.fs.command must not be empty");
        assert_eq!(err(r#"{"mcpServers":{"fs":{"command":"x","args":["a",1]}}}"#), "mcpServers.fs.args[1] must be a string, got a number");
        assert_eq!(
            err(r#"{"mcpServers":{"fs":{"command":"x","args":"a b"}}}"#),
            "mcpServers.fs.args must be an array of strings, got a string"
        );
        assert_eq!(err(r#"{"mcpServers":{"fs":{"command":"x","env":{"K":true}}}}"#), "mcpServers.fs.env.K must be a string, got a boolean");
        assert_eq!(
            err(r#"{"mcpServers":{"fs":{"command":"x","env":[]}}}"#),
            "mcpServers.fs.env must be an object of strings, got an array"
        );
        assert_eq!(err(r#"{"mcpServers":{"fs":{"command":"x","cwd":1}}}"#), "mcpServers.fs.cwd must be a string, got a number");
        assert_eq!(
            err(r#"{"mcpServers":{"fs":{"command":"x","timeoutMs":0}}}"#),
            "mcpServers.fs.timeoutMs must be a whole number of milliseconds from 1 to 86400000, got 0"
        );
        assert_eq!(
            err(r#"{"mcpServers":{"fs":{"command":"x","startupTimeoutMs":1.5}}}"#),
            "mcpServers.fs.startupTimeoutMs must be a whole number of milliseconds from 1 to 86400000, got 1.5"
        );
        assert_eq!(
            err(r#"{"mcpServers":{"fs":{"command":"x","timeoutMs":"5s"}}}"#),
            "mcpServers.fs.timeoutMs must be a number of milliseconds, got a string"
        );
        assert_eq!(err(r#"{"mcpServers":{"fs":"npx"}}"#), "mcpServers.fs must be an object describing the server, got a string");
        assert_eq!(err(r#"{"mcpServers":[]}"#), "mcpServers must be an object of servers by name, got an array");
        assert_eq!(err(r#"{"servers":{}}"#), "mcpServers is missing: the config must name its servers in an \"mcpServers\" object");
        assert_eq!(err(r#"[1]"#), "(the top level) must be an object with an \"mcpServers\" member, got an array");
        assert!(err("{").starts_with("the config is not valid JSON: "));
        let e = Config::from_json(r#"{"mcpServers":{"fs":{"command":5}}}"#).unwrap_err();
        assert_eq!(e.path(), Some("mcpServers.fs.command"));
    }

    #[test]
    fn unknown_and_remote_members_are_refused() {
        assert_eq!(
            err(r#"{"mcpServers":{"fs":{"command":"x","arg":["a"]}}}"#),
            "mcpServers.fs.arg is not a known member of a server; expected command, args, env, cwd, timeoutMs, startupTimeoutMs, type, disabled"
        );
        assert!(err(r#"{"mcpServers":{"web":{"url":"https://x/mcp"}}}"#).starts_with("mcpServers.web.url names a remote (HTTP/SSE) server"));
        assert!(err(r#"{"mcpServers":{"web":{"type":"http","command":"x"}}}"#)
            .starts_with("mcpServers.web.type is \"http\": this gateway supports only \"stdio\""));
        assert_eq!(
            err(r#"{"mcpServers":{"w":{"command":"x","disabled":"yes"}}}"#),
            "mcpServers.w.disabled must be a boolean, got a string"
        );
    }

    #[test]
    fn namespaces_are_checked() {
        for (name, why) in [
            ("", "must not be empty"),
            ("a::b", "must not contain ':'"),
            ("a:b", "must not contain ':'"),
            ("my server", "must not contain whitespace"),
            ("a\u{7}", "must not contain control characters"),
            ("a\u{202E}b", "invisible or bidi"),
        ] {
            let text = format!(r#"{{"mcpServers":{{{}:{{"command":"x"}}}}}}"#, serde_json::to_string(name).unwrap());
            let e = err(&text);
            assert!(e.contains(why), "{name:?}: {e}");
            assert!(e.starts_with("mcpServers."), "{e}");
        }
        let long = "n".repeat(MAX_NAMESPACE + 1);
        assert!(err(&format!(r#"{{"mcpServers":{{"{long}":{{"command":"x"}}}}}}"#)).contains("at most 64 characters"));
        assert!(Config::from_json(&format!(r#"{{"mcpServers":{{"{}":{{"command":"x"}}}}}}"#, "n".repeat(MAX_NAMESPACE))).is_ok());
        assert_eq!(
            err(r#"{"mcpServers":{"fs":{"command":"x"},"fs":{"command":"y"}}}"#),
            "mcpServers.fs is given twice: each server name (its tools' namespace) must be unique"
        );
    }

    #[test]
    fn load_names_the_file_and_resolves_cwd() {
        let dir = std::env::temp_dir().join(format!("codemode-gateway-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("gateway.json");
        std::fs::write(&file, r#"{"mcpServers":{"a":{"command":"x","cwd":"sub"},"b":{"command":"x","cwd":"/abs"}}}"#).unwrap();
        let config = Config::load(&file).unwrap();
        assert_eq!(config.servers[0].cwd.as_deref(), Some(dir.join("sub").as_path()));
        assert_eq!(config.servers[1].cwd.as_deref(), Some(Path::new("/abs")));
        std::fs::write(&file, r#"{"mcpServers":{"a":{"command":1}}}"#).unwrap();
        assert_eq!(
            Config::load(&file).unwrap_err().to_string(),
            format!("{}: mcpServers.a.command must be a string, got a number", file.display())
        );
        let missing = dir.join("missing.json");
        assert!(matches!(Config::load(&missing), Err(ConfigError::Read { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
