//! `codemode-gateway --config FILE`: the code-mode MCP gateway over stdio.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use codemode_gateway::config::Config;
use codemode_gateway::execute::{Gateway, Options};
use codemode_gateway::server::GatewayServer;
use rmcp::ServiceExt;

const HELP: &str = "codemode-gateway: a code-mode MCP server over stdio

usage: codemode-gateway --config FILE [options]

The config names the MCP servers to front, in the usual shape:
  {\"mcpServers\": {\"fs\": {\"command\": \"npx\", \"args\": [\"...\"], \"env\": {}}}}
Each server's name is the namespace its tools are called under:
codemode.<namespace>.<tool>(args).

options:
  --config FILE            the config file (required)
  --deadline-ms N          wall-clock time a run may take (default 30000)
  --call-timeout-ms N      time one tool call may take (default 60000)
  --max-output-bytes N     one budget for a run's output and value (default 32768)
  --memory-mb N            the runner's memory limit (default 256)
  -h, --help               this text
";

struct Args {
    config: PathBuf,
    options: Options,
}

fn parse() -> Result<Option<Args>, String> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_env();
    let mut config = None;
    let mut options = Options::default();
    let number = |parser: &mut lexopt::Parser, name: &str| -> Result<u64, String> {
        let value = parser.value().map_err(|e| e.to_string())?;
        value.to_str().and_then(|v| v.parse::<u64>().ok()).filter(|&n| n > 0).ok_or_else(|| format!("{name} takes a positive whole number"))
    };
    while let Some(arg) = parser.next().map_err(|e| e.to_string())? {
        match arg {
            Long("config") => config = Some(PathBuf::from(parser.value().map_err(|e| e.to_string())?)),
            Long("deadline-ms") => options.deadline = Duration::from_millis(number(&mut parser, "--deadline-ms")?),
            Long("call-timeout-ms") => options.call_timeout = Duration::from_millis(number(&mut parser, "--call-timeout-ms")?),
            Long("max-output-bytes") => options.max_output_bytes = number(&mut parser, "--max-output-bytes")? as usize,
            Long("memory-mb") => options.memory_bytes = (number(&mut parser, "--memory-mb")? as usize).saturating_mul(1 << 20),
            Short('h') | Long("help") => return Ok(None),
            other => return Err(other.unexpected().to_string()),
        }
    }
    let config = config.ok_or("--config FILE is required")?;
    Ok(Some(Args { config, options }))
}

fn main() -> ExitCode {
    let args = match parse() {
        Ok(Some(args)) => args,
        Ok(None) => {
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("codemode-gateway: {e}\n\n{HELP}");
            return ExitCode::from(2);
        }
    };
    let config = match Config::load(&args.config) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("codemode-gateway: {e}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("codemode-gateway: could not start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        let gateway = match Gateway::start(&config, args.options).await {
            Ok(gateway) => gateway,
            Err(e) => {
                eprintln!("codemode-gateway: {e}");
                return ExitCode::FAILURE;
            }
        };
        for (namespace, why) in gateway.unavailable() {
            eprintln!("codemode-gateway: {namespace} is unavailable: {why}");
        }
        let served = match GatewayServer::new(gateway.clone()).serve(rmcp::transport::stdio()).await {
            Ok(service) => service.waiting().await.map(|_| ()).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        gateway.shutdown().await;
        match served {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("codemode-gateway: {e}");
                ExitCode::FAILURE
            }
        }
    })
}
