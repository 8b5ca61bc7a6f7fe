"""A stdio MCP server for gateway/tests/upstream.rs, on the official Python SDK (`mcp` 2.x).

Tools:
- echo(text)        -> the text back (structured: {"result": text}); annotated readOnlyHint.
- pid()             -> this process's id, so a test can tell a restarted server from the first.
- fail(message)     -> raises ToolError: the SDK answers a CallToolResult with isError: true.
- rpc_error(message)-> raises MCPError: the SDK answers a JSON-RPC error -32602 with data.
- crash()           -> os._exit(1) in the middle of the call: no answer, stdout closes.
- slow(seconds)     -> sleeps, then answers "slept".

Environment: CRASH_ON_START=1 makes the process exit (status 3) before answering initialize
(a server that cannot start); CRASH_ON_START_IF_EXISTS=<path> does the same once <path>
exists (a server whose restart fails); START_MARKER=<path> appends its pid to <path> per start.
`slow(seconds, marker)` appends "cancelled" to the file `marker` when the call is cancelled.
"""

import asyncio
import os
import sys

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp.types import ToolAnnotations

if os.environ.get("START_MARKER"):
    with open(os.environ["START_MARKER"], "a") as f:
        f.write(f"{os.getpid()}\n")

if os.environ.get("CRASH_ON_START") == "1" or (
    os.environ.get("CRASH_ON_START_IF_EXISTS") and os.path.exists(os.environ["CRASH_ON_START_IF_EXISTS"])
):
    print("py_server: CRASH_ON_START is set, exiting before initialize", file=sys.stderr, flush=True)
    sys.exit(3)

server = MCPServer("codemode-test-py")


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


@server.tool()
def pid() -> int:
    """This server process's id."""
    return os.getpid()


@server.tool()
def fail(message: str) -> str:
    """Always fails with the given message."""
    raise ToolError(message)


@server.tool()
def rpc_error(message: str) -> str:
    """Answers with a JSON-RPC error (-32602, data {"field": "message"}) instead of a result."""
    raise MCPError(code=-32602, message=message, data={"field": "message"})


@server.tool()
def crash() -> str:
    """Exit the process in the middle of the call."""
    print("py_server: crashing on purpose", file=sys.stderr, flush=True)
    os._exit(1)


@server.tool()
async def slow(seconds: float, marker: str | None = None) -> str:
    """Sleep for `seconds`, then answer. If the call is cancelled (notifications/cancelled)
    and `marker` names a file, append "cancelled" to it."""
    try:
        await asyncio.sleep(seconds)
    except asyncio.CancelledError:
        if marker:
            with open(marker, "a") as f:
                f.write("cancelled\n")
        raise
    return "slept"


if __name__ == "__main__":
    server.run("stdio")
