"""ContractSandbox inside FastMCP's code mode, driven by the real fastmcp Client: each row of
the issue's table (a tool that raises, an isError result, a caught failure, forged and
copied failures, a syntax error, printed output, an oversized value, an endless loop) and
the bridge's own failures (unknown tool, invalid arguments, the call limit, a call
timeout), with masking on and off, and a server proxying a real stdio MCP server."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest
from fastmcp import Client, FastMCP
from fastmcp.experimental.transforms.code_mode import CodeMode
from fastmcp.server import create_proxy
from fastmcp.tools.base import ToolResult
from mcp_types import TextContent

from codemode_errors.fastmcp import ContractSandbox

TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"

# One event loop for every test: pydantic-monty 1.4.0 can abort the interpreter at exit
# after sandboxes ran on several loops (a new loop per `asyncio.run`).
LOOP = asyncio.new_event_loop()
LIMITS = {"max_feed_duration_secs": 2.0, "max_memory": 100_000_000}


def demo_server(*, mask: bool = False, max_tool_calls: Optional[int] = 50, **options: Any) -> FastMCP:
    mcp = FastMCP("demo", mask_error_details=mask)

    @mcp.tool
    def boom() -> str:
        """Always fails, naming a credential."""
        raise ValueError(f"upstream rejected request: token {TOKEN} is invalid")

    @mcp.tool
    def add(a: int, b: int) -> int:
        """Adds two numbers."""
        return a + b

    @mcp.tool
    def failing() -> ToolResult:
        """Answers with an error result."""
        return ToolResult(content=[TextContent(type="text", text=f"bad credentials: {TOKEN}")], is_error=True)

    @mcp.tool
    async def slow() -> str:
        """Takes its time."""
        await asyncio.sleep(5)
        return "late"

    sandbox = ContractSandbox(limits=LIMITS, **options)
    mcp.add_transform(CodeMode(sandbox_provider=sandbox, max_tool_calls=max_tool_calls))
    return mcp


def execute_all(mcp: FastMCP, codes: List[str], mode: str = "auto") -> List[Dict[str, Any]]:
    """``execute`` through the real client, once a code, in one session: each answer's
    text parsed, with ``isError``."""

    async def call() -> List[Dict[str, Any]]:
        answers = []
        async with Client(mcp, mode=mode) as client:
            for code in codes:
                result = await client.call_tool("execute", {"code": code}, raise_on_error=False)
                text = result.content[0].text
                assert TOKEN not in text, text
                answer: Dict[str, Any] = json.loads(text)
                answer["isError"] = result.is_error
                if result.structured_content is not None:
                    assert {k: v for k, v in answer.items() if k != "isError"} == result.structured_content
                answers.append(answer)
        return answers

    return LOOP.run_until_complete(call())


def execute(mcp: FastMCP, code: str) -> Dict[str, Any]:
    return execute_all(mcp, [code])[0]


@pytest.mark.parametrize("mask", [False, True])
def test_a_tool_that_raises_ends_the_run_in_the_bridge_with_no_secret(mask: bool) -> None:
    end = execute(demo_server(mask=mask), "await call_tool('boom', {})")
    assert end["isError"] and end["status"] == "failed"
    assert (end["failurePhase"], end["bridgeDispatchStarted"]) == ("bridge", True)
    assert end["toolError"]["kind"] == "tool_error"
    assert end["toolError"]["tool"] == "tools::boom"


def test_an_is_error_result_keeps_its_blocks_as_evidence() -> None:
    end = execute(demo_server(), "await call_tool('failing', {})")
    assert end["failurePhase"] == "bridge"
    blocks = end["toolError"]["evidence"]["content"]
    assert blocks[0]["type"] == "text" and "[REDACTED:github_token]" in blocks[0]["text"]


def test_a_caught_failure_parses_as_the_contract_object() -> None:
    code = "import json\ntry:\n    await call_tool('boom', {})\nexcept RuntimeError as e:\n    r = json.loads(str(e))\nr"
    end = execute(demo_server(), code)
    assert end["status"] == "completed" and not end["isError"]
    assert end["value"]["contract_version"] == 1
    assert end["value"]["kind"] == "tool_error"


@pytest.mark.parametrize(
    "code",
    [
        "raise Exception(\"call_tool('boom') failed: upstream rejected request\")",
        "try:\n    await call_tool('boom', {})\nexcept Exception as e:\n    raise RuntimeError(str(e))",
        "try:\n    await call_tool('boom', {})\nexcept Exception as e:\n    raise e",
        "try:\n    await call_tool('boom', {})\nexcept Exception as e:\n    t = str(e)\nawait call_tool('add', {'a': 1, 'b': 2}) if t == '' else (1 / 0)",
    ],
)
def test_what_the_code_raises_is_the_guests_even_with_a_copied_text(code: str) -> None:
    end = execute(demo_server(), code)
    assert end["failurePhase"] == "guest"
    assert "toolError" not in end


def test_a_syntax_error_has_its_line_and_column() -> None:
    end = execute(demo_server(), "x = 1\nx +")
    assert (end["code"], end["line"], end["column"]) == ("invalid_input", 2, 4)


def test_printed_output_reaches_the_model_and_not_stdout(capfd: pytest.CaptureFixture[str]) -> None:
    end = execute(demo_server(), f"print('hello')\nprint('password={TOKEN}')\n1 + 1")
    assert end["value"] == 2
    assert end["output"].startswith("hello\npassword=[REDACTED")
    assert "hello" not in capfd.readouterr().out


def test_one_output_budget_holds_for_value_and_output() -> None:
    end = execute(demo_server(max_output_bytes=2000), "for i in range(1000):\n    print('line', i)\n'x' * 5_000_000")
    assert end["status"] == "completed" and end["truncated"] is True
    # The budget counts the output's bytes and the value's JSON text.
    assert len(end["output"].encode()) + len(json.dumps(end["value"], ensure_ascii=False).encode()) <= 2000


def test_an_endless_loop_times_out() -> None:
    end = execute(demo_server(), "while True:\n    pass")
    assert (end["code"], end["bridgeDispatchStarted"]) == ("timeout", False)


def test_an_unknown_tool_names_the_nearest_ones() -> None:
    end = execute(demo_server(), "await call_tool('ad', {'a': 1, 'b': 2})")
    error = end["toolError"]
    assert error["kind"] == "unknown_tool" and error["side_effects"] == "none_expected"
    assert "tools::add" in error["cause"]


def test_invalid_arguments_are_named() -> None:
    end = execute(demo_server(), "await call_tool('add', {'a': 'x'})")
    error = end["toolError"]
    assert error["origin"] == "validation"
    assert {a["path"] for a in error["invalid_arguments"]} >= {"a", "b"}


def test_the_call_limit_and_a_call_timeout_are_contract_failures() -> None:
    end = execute(demo_server(max_tool_calls=2), "for i in range(3):\n    await call_tool('add', {'a': i, 'b': 1})")
    assert (end["toolError"]["kind"], end["toolError"]["origin"]) == ("budget_exceeded", "budget")
    end = execute(demo_server(call_timeout=0.2), "await call_tool('slow', {})")
    assert (end["toolError"]["kind"], end["toolError"]["origin"]) == ("timeout", "upstream_transport")


def test_a_successful_run_returns_the_tools_answer() -> None:
    end = execute(demo_server(), "r = await call_tool('add', {'a': 1, 'b': 2})\nr")
    assert end == {"status": "completed", "value": {"result": 3}, "output": "", "bridgeDispatchStarted": True, "replaySafe": False, "isError": False}


def reference_filesystem_server() -> Optional[Path]:
    """The npm reference filesystem server the repository's examples install."""
    root = Path(__file__).resolve().parents[2]
    entry = root / "examples/node-sandbox/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
    return entry if entry.exists() and shutil.which("node") else None


def test_through_a_proxy_of_a_real_stdio_server() -> None:
    entry = reference_filesystem_server()
    if entry is None and os.environ.get("CODEMODE_ERRORS_REQUIRE_PEERS"):
        pytest.fail("the reference filesystem server is not installed (cargo xtask test installs it)")
    if entry is None:
        pytest.skip("the reference filesystem server is not installed")
    with tempfile.TemporaryDirectory() as allowed:
        config = {"mcpServers": {"fs": {"command": "node", "args": [str(entry), allowed]}}}
        # The reference server speaks the handshake era; pin the backend to negotiate it.
        proxy = create_proxy(config, name="fs-proxy", mode="legacy")
        proxy.add_transform(CodeMode(sandbox_provider=ContractSandbox(limits=LIMITS)))
        missing = os.path.join(allowed, "missing.txt")
        codes = [f"await call_tool('read_text_file', {{'path': {missing!r}}})", "await call_tool('read_text_file', {'path': '/etc/passwd'})"]
        not_found, outside = execute_all(proxy, codes, mode="legacy")
        assert not_found["failurePhase"] == "bridge"
        assert not_found["toolError"]["kind"] == "not_found", not_found
        assert outside["toolError"]["kind"] == "path_traversal", outside


def test_calls_written_over_lines_or_gathered_are_the_bridges() -> None:
    multi_line = "r = await call_tool(\n    'boom',\n    {},\n)"
    gathered = "import asyncio\nawait asyncio.gather(call_tool('add', {'a': 1, 'b': 2}), call_tool('boom', {}))"
    for end in execute_all(demo_server(), [multi_line, gathered]):
        assert end["failurePhase"] == "bridge", end
        assert end["toolError"]["tool"] == "tools::boom"


def test_what_the_core_cannot_read_still_ends_as_a_contract_answer() -> None:
    nested = "x = []\nfor i in range(200000):\n    x = [x]\nx"
    lone = "x = 1\n'\\ud800'"
    odd_args = "await call_tool('boom', {'x': float('nan')})"
    deep, surrogate, nan = execute_all(demo_server(), [nested, lone, odd_args])
    assert (deep["code"], deep["failurePhase"]) == ("output_limit_exceeded", "host")
    assert surrogate["status"] in ("failed", "completed")
    assert nan["failurePhase"] == "bridge" and nan["toolError"]["contract_version"] == 1


def test_a_tool_that_outlasts_the_run_is_cut_off_and_cancelled() -> None:
    reached: List[str] = []
    mcp = FastMCP("slow")

    @mcp.tool
    async def late_write() -> str:
        """Writes after a while."""
        await asyncio.sleep(3)
        reached.append("written")
        return "done"

    mcp.add_transform(CodeMode(sandbox_provider=ContractSandbox(limits={"max_feed_duration_secs": 1.0, "max_memory": 100_000_000})))

    async def call() -> Dict[str, Any]:
        async with Client(mcp) as client:
            result = await client.call_tool("execute", {"code": "await call_tool('late_write', {})"}, raise_on_error=False)
            await asyncio.sleep(3.5)
        answer: Dict[str, Any] = json.loads(result.content[0].text)
        return answer

    end = LOOP.run_until_complete(call())
    assert (end["code"], end["bridgeDispatchStarted"]) == ("timeout", True)
    assert reached == []


def test_options_that_cannot_work_are_refused_when_the_sandbox_is_built() -> None:
    for options in ({"namespace": ""}, {"namespace": "bad name\n"}, {"max_output_bytes": 2**64}, {"max_output_bytes": 0}, {"call_timeout": -1}):
        with pytest.raises(ValueError):
            ContractSandbox(**options)
