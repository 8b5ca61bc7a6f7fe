"""Capture real failures of more Python MCP servers (third-party ones, on the official SDK's
low-level Server and FastMCP, and on standalone fastmcp 2.x and 4.x) through the official Python
SDK client (`mcp`), over stdio. Run by run.sh (see ../README.md), not by CI.

    python capture-more.py ROOT SERVERS_DIR OUT.jsonl

ROOT is the scratch directory (fixtures go to ROOT/more-py); SERVERS_DIR holds one virtualenv a
server (py-servers.txt). OUT gets one raw capture a line, as capture.py writes them. No server
reaches beyond this machine: their backends (Neo4j, Redis, ClickHouse, Obsidian's REST API) are
closed loopback ports, and markitdown only reads local files or a closed loopback port.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client

ROOT = Path(sys.argv[1]).resolve()
SERVERS_DIR = Path(sys.argv[2]).resolve()
OUT = Path(sys.argv[3])
ONLY = os.environ.get("ONLY", "").split(",") if os.environ.get("ONLY") else None

# ---- fixtures --------------------------------------------------------------------------

MORE = ROOT / "more-py"
shutil.rmtree(MORE, ignore_errors=True)
PROJ = MORE / "project"
(PROJ / "src").mkdir(parents=True)
(PROJ / "src" / "app.py").write_text("def total(items):\n    return sum(items)\n")
DOCS = MORE / "docs"
(DOCS / "archive").mkdir(parents=True)
(DOCS / "notes.txt").write_text("ship the release on friday\n")

# ---- servers and cases -----------------------------------------------------------------

# name: the virtualenv under SERVERS_DIR; server: the corpus's server name.
SERVERS = {
    "calculator": {"venv": "calculator", "package": "mcp-server-calculator", "command": "mcp-server-calculator", "args": []},
    "neo4j-cypher": {
        "venv": "neo4j-cypher",
        "package": "mcp-neo4j-cypher",
        "command": "mcp-neo4j-cypher",
        "args": [],
        "env": {"NEO4J_URI": "bolt://127.0.0.1:1", "NEO4J_USERNAME": "neo4j", "NEO4J_PASSWORD": "dummy-password"},
    },
    "redis": {
        "venv": "redis",
        "package": "redis-mcp-server",
        "command": "redis-mcp-server",
        "args": [],
        "env": {"REDIS_HOST": "127.0.0.1", "REDIS_PORT": "1"},
    },
    "markitdown": {"venv": "markitdown", "package": "markitdown-mcp", "command": "markitdown-mcp", "args": []},
    "tree-sitter": {"venv": "tree-sitter", "package": "mcp-server-tree-sitter", "command": "mcp-server-tree-sitter", "args": []},
    # held out (see merge.py)
    "obsidian": {
        "venv": "obsidian",
        "package": "mcp-obsidian",
        "command": "mcp-obsidian",
        "args": [],
        "env": {"OBSIDIAN_API_KEY": "dummy-key", "OBSIDIAN_HOST": "127.0.0.1", "OBSIDIAN_PORT": "1"},
    },
    "clickhouse": {
        "venv": "clickhouse",
        "package": "mcp-clickhouse",
        "command": "mcp-clickhouse",
        "args": [],
        "env": {
            "CLICKHOUSE_HOST": "127.0.0.1",
            "CLICKHOUSE_PORT": "1",
            "CLICKHOUSE_USER": "default",
            "CLICKHOUSE_PASSWORD": "dummy-password",
            "CLICKHOUSE_SECURE": "false",
            "CLICKHOUSE_CONNECT_TIMEOUT": "2",
        },
    },
}

PROJECT = {"project": "shop"}
SETUP = {
    "tree-sitter": [("register_project_tool", {"path": str(PROJ), "name": "shop"})],
}
CASES = [
    # calculator (official SDK FastMCP)
    ("calculator.calculate.division_by_zero", "calculator", "calculate", {"expression": "1/0"}),
    ("calculator.calculate.syntax_error", "calculator", "calculate", {"expression": "2 +* 3"}),
    ("calculator.calculate.unknown_identifier", "calculator", "calculate", {"expression": "price * 2"}),
    ("calculator.calculate.function_refused", "calculator", "calculate", {"expression": "__import__('os')"}),
    ("calculator.calculate.missing_expression", "calculator", "calculate", {}),
    ("calculator.calculate.expression_wrong_type", "calculator", "calculate", {"expression": 5}),
    ("calculator.unknown_tool", "calculator", "calc", {"expression": "1+1"}),
    # neo4j-cypher (standalone fastmcp 2.x)
    ("neo4j-cypher.get_neo4j_schema.connection_refused", "neo4j-cypher", "get_neo4j_schema", {}),
    ("neo4j-cypher.read_neo4j_cypher.connection_refused", "neo4j-cypher", "read_neo4j_cypher", {"query": "MATCH (n:Person) RETURN n LIMIT 5"}),
    ("neo4j-cypher.read_neo4j_cypher.missing_query", "neo4j-cypher", "read_neo4j_cypher", {}),
    ("neo4j-cypher.read_neo4j_cypher.params_wrong_type", "neo4j-cypher", "read_neo4j_cypher", {"query": "MATCH (n) RETURN n", "params": "none"}),
    ("neo4j-cypher.get_neo4j_schema.sample_size_wrong_type", "neo4j-cypher", "get_neo4j_schema", {"sample_size": "many"}),
    ("neo4j-cypher.unknown_tool", "neo4j-cypher", "run_cypher", {"query": "RETURN 1"}),
    # redis (official SDK FastMCP; its connection failures come back as plain results, not failures)
    ("redis.set.expiration_wrong_type", "redis", "set", {"key": "session:1", "value": "on", "expiration": "soon"}),
    ("redis.hgetall.missing_name", "redis", "hgetall", {}),
    ("redis.lrange.start_wrong_type", "redis", "lrange", {"name": "queue", "start": "first", "stop": 10}),
    ("redis.zadd.score_wrong_type", "redis", "zadd", {"key": "ranks", "score": "high", "member": "ada"}),
    ("redis.expire.missing_seconds", "redis", "expire", {"name": "session:1"}),
    ("redis.unknown_tool", "redis", "getx", {"key": "session:1"}),
    # markitdown (official SDK FastMCP)
    ("markitdown.convert_to_markdown.missing_file", "markitdown", "convert_to_markdown", {"uri": f"file://{DOCS}/report.docx"}),
    ("markitdown.convert_to_markdown.directory", "markitdown", "convert_to_markdown", {"uri": f"file://{DOCS}/archive"}),
    ("markitdown.convert_to_markdown.connection_refused", "markitdown", "convert_to_markdown", {"uri": "http://127.0.0.1:1/report.html"}),
    ("markitdown.convert_to_markdown.bad_scheme", "markitdown", "convert_to_markdown", {"uri": "ftp://127.0.0.1/report.pdf"}),
    ("markitdown.convert_to_markdown.missing_uri", "markitdown", "convert_to_markdown", {}),
    ("markitdown.unknown_tool", "markitdown", "convert", {"uri": f"file://{DOCS}/notes.txt"}),
    # tree-sitter (official SDK FastMCP)
    ("tree-sitter.get_file.unknown_project", "tree-sitter", "get_file", {"project": "billing", "path": "src/app.py"}),
    ("tree-sitter.get_file.missing_file", "tree-sitter", "get_file", {**PROJECT, "path": "src/models.py"}),
    ("tree-sitter.get_file.outside_project", "tree-sitter", "get_file", {**PROJECT, "path": "../../../etc/passwd"}),
    ("tree-sitter.register_project_tool.exists", "tree-sitter", "register_project_tool", {"path": str(PROJ), "name": "shop"}),
    ("tree-sitter.register_project_tool.missing_path", "tree-sitter", "register_project_tool", {"path": str(MORE / "checkout")}),
    ("tree-sitter.remove_project_tool.unknown_project", "tree-sitter", "remove_project_tool", {"name": "billing"}),
    ("tree-sitter.run_query.unknown_language", "tree-sitter", "run_query", {**PROJECT, "query": "(identifier) @id", "language": "klingon"}),
    ("tree-sitter.get_ast.max_depth_wrong_type", "tree-sitter", "get_ast", {**PROJECT, "path": "src/app.py", "max_depth": "deep"}),
    ("tree-sitter.list_files.missing_project", "tree-sitter", "list_files", {}),
    ("tree-sitter.unknown_tool", "tree-sitter", "analyze", {**PROJECT}),
    # obsidian (official SDK low-level Server; the REST API is a closed loopback port)
    ("obsidian.obsidian_list_files_in_vault.connection_refused", "obsidian", "obsidian_list_files_in_vault", {}),
    ("obsidian.obsidian_get_file_contents.connection_refused", "obsidian", "obsidian_get_file_contents", {"filepath": "notes/plan.md"}),
    ("obsidian.obsidian_get_file_contents.missing_filepath", "obsidian", "obsidian_get_file_contents", {}),
    ("obsidian.obsidian_simple_search.context_length_wrong_type", "obsidian", "obsidian_simple_search", {"query": "release", "context_length": "long"}),
    ("obsidian.obsidian_delete_file.missing_confirm", "obsidian", "obsidian_delete_file", {"filepath": "notes/old.md"}),
    ("obsidian.obsidian_get_periodic_note.bad_period", "obsidian", "obsidian_get_periodic_note", {"period": "hourly"}),
    ("obsidian.unknown_tool", "obsidian", "obsidian_read", {"filepath": "notes/plan.md"}),
    # clickhouse (standalone fastmcp 4.x; the server is a closed loopback port)
    ("clickhouse.list_databases.connection_refused", "clickhouse", "list_databases", {}),
    ("clickhouse.list_tables.connection_refused", "clickhouse", "list_tables", {"database": "default"}),
    ("clickhouse.run_query.connection_refused", "clickhouse", "run_query", {"query": "SELECT count() FROM events"}),
    ("clickhouse.list_tables.missing_database", "clickhouse", "list_tables", {}),
    ("clickhouse.list_tables.page_size_wrong_type", "clickhouse", "list_tables", {"database": "default", "page_size": "ten"}),
    ("clickhouse.run_query.query_wrong_type", "clickhouse", "run_query", {"query": ["SELECT 1"]}),
    ("clickhouse.unknown_tool", "clickhouse", "run_select_query", {"query": "SELECT 1"}),
]


def dump(model) -> dict:
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


def server_version(venv: Path, package: str) -> str:
    code = f"import importlib.metadata as m; print(m.version({package!r}))"
    return subprocess.run([str(venv / "bin" / "python"), "-c", code], check=True, capture_output=True, text=True).stdout.strip()


async def capture(name: str) -> list[dict]:
    s = SERVERS[name]
    venv = SERVERS_DIR / s["venv"]
    env = {"HOME": str(ROOT), "TZ": "UTC", "PATH": os.environ.get("PATH", "/usr/bin:/bin"), **s.get("env", {})}
    params = StdioServerParameters(command=str(venv / "bin" / s["command"]), args=s["args"], env=env, cwd=str(MORE))
    package_version = server_version(venv, s["package"])
    out = []
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                tools = {t.name: t for t in (await session.list_tools()).tools}
                for tool, arguments in SETUP.get(name, []):
                    result = await session.call_tool(tool, arguments)
                    if result.is_error:
                        sys.exit(f"setup {name}::{tool} failed: {dump(result)}")
                for cid, _, tool, arguments in [c for c in CASES if c[1] == name]:
                    try:
                        result = await session.call_tool(tool, arguments)
                        if not result.is_error:
                            print(f"warning: {cid} did not fail: {dump(result)}"[:400], file=sys.stderr)
                            continue
                        failure = {"tool_result": dump(result)}
                    except MCPError as e:
                        failure = {
                            "jsonrpc_error": dump(e.error),
                            "raised": {"class": type(e).__name__, "message": str(e)},
                        }
                    listed = tools.get(tool)
                    out.append(
                        {
                            "id": cid,
                            "server": s.get("server", name),
                            "package": s["package"],
                            "package_version": package_version,
                            "server_info": {"name": init.server_info.name, "version": init.server_info.version},
                            "server_args": s["args"],
                            "sdk": "python",
                            "sdk_package": "mcp",
                            "sdk_version": version("mcp"),
                            "tool": tool,
                            "tool_listed": listed is not None,
                            "input_schema": listed.input_schema if listed else None,
                            "annotations": dump(listed.annotations) if listed and listed.annotations else None,
                            "arguments": arguments,
                            **failure,
                        }
                    )
    return out


async def main() -> None:
    lines = []
    for name in SERVERS:
        if ONLY and name not in ONLY:
            continue
        lines += await capture(name)
    OUT.write_text("".join(json.dumps(l) + "\n" for l in lines))
    print(f"captured {len(lines)} failures into {OUT}", file=sys.stderr)


asyncio.run(main())
