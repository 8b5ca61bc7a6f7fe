"""Capture real failures of the Python MCP reference servers through the official Python SDK
client (`mcp`), over stdio. Run by run.sh (see ../README.md), not by CI.

    python capture.py ROOT OUT.jsonl

ROOT is a scratch directory this script fills with fixtures under ROOT/git (merge.py
rewrites ROOT to /srv/mcp-root); OUT gets one raw capture a line: the case, the tool's input_schema and
annotations from tools/list, and the failure as the client saw it (the CallToolResult, or
the JSON-RPC error the client raised). The fetch server only ever reaches a local HTTP server
this script runs on 127.0.0.1 (its port, chosen by the system, is written as 48080) or a
closed local port.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.metadata import version
from pathlib import Path

from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client

ROOT = Path(sys.argv[1]).resolve()
OUT = Path(sys.argv[2])
BIN = Path(sys.executable).parent

# ---- fixtures --------------------------------------------------------------------------

GIT = ROOT / "git"
shutil.rmtree(GIT, ignore_errors=True)
REPO = GIT / "repo"
OTHER = GIT / "other"
GIT_ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "Ada Example",
    "GIT_AUTHOR_EMAIL": "ada@example.invalid",
    "GIT_COMMITTER_NAME": "Ada Example",
    "GIT_COMMITTER_EMAIL": "ada@example.invalid",
    "GIT_AUTHOR_DATE": "2026-01-02T03:04:05+00:00",
    "GIT_COMMITTER_DATE": "2026-01-02T03:04:05+00:00",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, env=GIT_ENV, check=True, capture_output=True)


for repo in (REPO, OTHER):
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    (repo / "README.md").write_text("# demo\n")
    git(repo, "add", "README.md")
    git(repo, "commit", "-q", "-m", "first commit")
git(REPO, "branch", "feature")
(REPO / "docs").mkdir()
(REPO / "docs" / "guide.md").write_text("draft\n")  # untracked
(GIT / "outside.txt").write_text("not in the repository\n")


# ---- a local HTTP server for the fetch server ------------------------------------------


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):  # quiet
        pass

    def send(self, status: int, body: str, headers: dict[str, str] | None = None) -> None:
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):  # noqa: N802
        host = self.headers.get("Host", "")
        if self.path == "/robots.txt":
            if host.startswith("localhost"):
                return self.send(200, "User-agent: *\nDisallow: /\n")
            return self.send(403, "forbidden\n")
        if self.path.startswith("/status/"):
            status = int(self.path.rsplit("/", 1)[1])
            headers = {"Retry-After": "30"} if status == 429 else {}
            if status == 401:
                headers["WWW-Authenticate"] = 'Bearer realm="demo"'
            return self.send(status, f"status {status}\n", headers)
        if self.path == "/slow":
            time.sleep(3)
            return self.send(200, "late\n")
        return self.send(200, "ok\n")


HTTP = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
PORT = HTTP.server_address[1]
threading.Thread(target=HTTP.serve_forever, daemon=True).start()
LOCAL = f"http://127.0.0.1:{PORT}"
FIXED_PORT = 48080

# ---- servers and cases -----------------------------------------------------------------

SERVERS = {
    "git": {"package": "mcp-server-git", "command": "mcp-server-git", "args": ["--repository", str(REPO)]},
    "time": {"package": "mcp-server-time", "command": "mcp-server-time", "args": ["--local-timezone", "UTC"]},
    "fetch": {"package": "mcp-server-fetch", "command": "mcp-server-fetch", "args": []},
    "fetch-private": {
        "package": "mcp-server-fetch",
        "command": "mcp-server-fetch",
        "args": ["--allow-private-ips", "--ignore-robots-txt"],
    },
    "fetch-robots": {"package": "mcp-server-fetch", "command": "mcp-server-fetch", "args": ["--allow-private-ips"]},
}

R = str(REPO)
convert = {"source_timezone": "Europe/Paris", "time": "14:30", "target_timezone": "Asia/Tokyo"}
CASES = [
    # git
    ("git.git_status.outside_allowed_repository", "git", "git_status", {"repo_path": str(OTHER)}),
    ("git.git_status.missing_repo_path", "git", "git_status", {}),
    ("git.git_status.not_a_repository", "git", "git_status", {"repo_path": str(REPO / "docs")}),
    ("git.git_status.missing_directory", "git", "git_status", {"repo_path": str(REPO / "vendor")}),
    ("git.git_log.max_count_wrong_type", "git", "git_log", {"repo_path": R, "max_count": "ten"}),
    ("git.git_log.timestamp_flag", "git", "git_log", {"repo_path": R, "start_timestamp": "--all"}),
    ("git.git_diff.bad_target", "git", "git_diff", {"repo_path": R, "target": "release-2024"}),
    ("git.git_diff.flag_target", "git", "git_diff", {"repo_path": R, "target": "--output=/tmp/x"}),
    ("git.git_diff.missing_target", "git", "git_diff", {"repo_path": R}),
    ("git.git_checkout.bad_branch", "git", "git_checkout", {"repo_path": R, "branch_name": "hotfix"}),
    ("git.git_show.unknown_sha", "git", "git_show", {"repo_path": R, "revision": "deadbeefdeadbeef"}),
    ("git.git_show.missing_path_in_tree", "git", "git_show", {"repo_path": R, "revision": "HEAD:src/main.rs"}),
    ("git.git_create_branch.exists", "git", "git_create_branch", {"repo_path": R, "branch_name": "feature"}),
    ("git.git_create_branch.bad_base", "git", "git_create_branch", {"repo_path": R, "branch_name": "topic", "base_branch": "develop"}),
    ("git.git_add.no_match", "git", "git_add", {"repo_path": R, "files": ["src/missing.py"]}),
    ("git.git_add.outside_repository", "git", "git_add", {"repo_path": R, "files": ["../outside.txt"]}),
    ("git.git_add.empty_list", "git", "git_add", {"repo_path": R, "files": []}),
    ("git.git_add.files_wrong_type", "git", "git_add", {"repo_path": R, "files": "README.md"}),
    ("git.git_commit.nothing_staged", "git", "git_commit", {"repo_path": R, "message": "update docs"}),
    ("git.git_commit.missing_message", "git", "git_commit", {"repo_path": R}),
    ("git.git_branch.bad_branch_type", "git", "git_branch", {"repo_path": R, "branch_type": "tags"}),
    ("git.git_branch.bad_contains", "git", "git_branch", {"repo_path": R, "branch_type": "local", "contains": "cafebabe"}),
    ("git.unknown_tool", "git", "git_push", {"repo_path": R}),
    # time
    ("time.get_current_time.invalid_timezone", "time", "get_current_time", {"timezone": "Mars/Olympus_Mons"}),
    ("time.get_current_time.abbreviation", "time", "get_current_time", {"timezone": "PST8PDT/Pacific"}),
    ("time.get_current_time.missing_timezone", "time", "get_current_time", {}),
    ("time.get_current_time.timezone_wrong_type", "time", "get_current_time", {"timezone": 5}),
    ("time.convert_time.bad_time_format", "time", "convert_time", {**convert, "time": "2:30pm"}),
    ("time.convert_time.hour_out_of_range", "time", "convert_time", {**convert, "time": "25:10"}),
    ("time.convert_time.invalid_source_timezone", "time", "convert_time", {**convert, "source_timezone": "Europe/Atlantis"}),
    ("time.convert_time.invalid_target_timezone", "time", "convert_time", {**convert, "target_timezone": "Tokyo"}),
    ("time.convert_time.missing_target_timezone", "time", "convert_time", {k: v for k, v in convert.items() if k != "target_timezone"}),
    ("time.unknown_tool", "time", "get_time", {"timezone": "UTC"}),
    # fetch, default settings: private addresses are refused
    ("fetch.fetch.private_address_refused", "fetch", "fetch", {"url": f"{LOCAL}/status/200"}),
    ("fetch.fetch.not_a_url", "fetch", "fetch", {"url": "docs page"}),
    ("fetch.fetch.missing_url", "fetch", "fetch", {}),
    ("fetch.fetch.max_length_zero", "fetch", "fetch", {"url": "https://example.invalid/", "max_length": 0}),
    ("fetch.fetch.negative_start_index", "fetch", "fetch", {"url": "https://example.invalid/", "start_index": -5}),
    ("fetch.fetch.raw_wrong_type", "fetch", "fetch", {"url": "https://example.invalid/", "raw": "sometimes"}),
    ("fetch.unknown_tool", "fetch", "fetch_url", {"url": "https://example.invalid/"}),
    # fetch with private addresses allowed and robots.txt ignored, against the local server
    ("fetch-private.fetch.http_404", "fetch-private", "fetch", {"url": f"{LOCAL}/status/404"}),
    ("fetch-private.fetch.http_401", "fetch-private", "fetch", {"url": f"{LOCAL}/status/401"}),
    ("fetch-private.fetch.http_403", "fetch-private", "fetch", {"url": f"{LOCAL}/status/403"}),
    ("fetch-private.fetch.http_409", "fetch-private", "fetch", {"url": f"{LOCAL}/status/409"}),
    ("fetch-private.fetch.http_410", "fetch-private", "fetch", {"url": f"{LOCAL}/status/410"}),
    ("fetch-private.fetch.http_429", "fetch-private", "fetch", {"url": f"{LOCAL}/status/429"}),
    ("fetch-private.fetch.http_500", "fetch-private", "fetch", {"url": f"{LOCAL}/status/500"}),
    ("fetch-private.fetch.http_503", "fetch-private", "fetch", {"url": f"{LOCAL}/status/503"}),
    ("fetch-private.fetch.connection_refused", "fetch-private", "fetch", {"url": "http://127.0.0.1:1/"}),
    ("fetch-private.fetch.client_timeout", "fetch-private", "fetch", {"url": f"{LOCAL}/slow"}, 1.0),
    # fetch honouring robots.txt
    ("fetch-robots.fetch.robots_status_403", "fetch-robots", "fetch", {"url": f"{LOCAL}/status/200"}),
    ("fetch-robots.fetch.robots_disallow", "fetch-robots", "fetch", {"url": f"http://localhost:{PORT}/docs"}),
]


def dump(model) -> dict:
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def capture(name: str) -> list[dict]:
    s = SERVERS[name]
    params = StdioServerParameters(
        command=str(BIN / s["command"]), args=s["args"], env={"HOME": str(ROOT), "TZ": "UTC"}, cwd=str(ROOT)
    )
    out = []
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                tools = {t.name: t for t in (await session.list_tools()).tools}
                for case in [c for c in CASES if c[1] == name]:
                    cid, _, tool, arguments, *rest = case
                    timeout = rest[0] if rest else None
                    try:
                        result = await session.call_tool(tool, arguments, read_timeout_seconds=timeout)
                        if not result.is_error:
                            print(f"warning: {cid} did not fail: {dump(result)}", file=sys.stderr)
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
                            "server": name.split("-")[0],
                            "package": s["package"],
                            "package_version": version(s["package"]),
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
        lines += await capture(name)
    text = "".join(json.dumps(l) + "\n" for l in lines)
    # The local server's port is the system's choice: write it as a fixed one.
    for host in ("127.0.0.1", "localhost"):
        text = text.replace(f"{host}:{PORT}", f"{host}:{FIXED_PORT}")
    OUT.write_text(text)
    print(f"captured {len(lines)} failures from {len(SERVERS)} server configurations into {OUT}", file=sys.stderr)


asyncio.run(main())
