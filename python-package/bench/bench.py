"""Figures for docs/PERFORMANCE.md (Python): import time, ``normalize`` per call on the
typical report, and ContractSandbox's cost per ``execute`` and per tool call against
FastMCP's own MontySandboxProvider in the same run.

    target/py/test/bin/python python-package/bench/bench.py

(``cargo xtask test-py`` makes that environment.) Medians; timings are printed, never
asserted.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import time
from typing import Any, Callable, Dict, List

GITHUB_BODY = (
    "GitHub API error: HTTP/1.1 422 Unprocessable Entity\nValidation Failed: title is too long. "
    "See https://docs.github.com/rest/issues#create-an-issue for the field limits. "
) * 4
TYPICAL: Dict[str, Any] = {
    "tool": "github::create_issue",
    "annotations": {"readOnlyHint": False, "idempotentHint": False},
    "dispatched": True,
    "tool_result": {
        "isError": True,
        "content": [
            {"type": "text", "text": GITHUB_BODY},
            {"type": "text", "text": "request id C0DE:1234 auth=Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789"},
        ],
    },
}


def median_ms(samples: List[float]) -> float:
    return statistics.median(samples) * 1000


def import_time(runs: int = 15) -> None:
    def once(stmt: str) -> float:
        code = f"import time; t = time.perf_counter(); {stmt}; print(time.perf_counter() - t)"
        return float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)

    bare = [once("import json") for _ in range(runs)]
    full = [once("import codemode_errors; codemode_errors.normalize(" + repr(TYPICAL) + ")") for _ in range(runs)]
    print(f"import + first normalize: {median_ms(full):.2f} ms (import json alone: {median_ms(bare):.2f} ms)")


def per_call(fn: Callable[[], Any], seconds: float = 1.0) -> float:
    """Median µs per call over batches filling about `seconds`."""
    fn()
    batch, samples, deadline = 200, [], time.perf_counter() + seconds
    while time.perf_counter() < deadline or len(samples) < 5:
        t = time.perf_counter()
        for _ in range(batch):
            fn()
        samples.append((time.perf_counter() - t) / batch)
    return statistics.median(samples) * 1e6


def normalize_cost() -> None:
    import codemode_errors

    text = json.dumps(TYPICAL)
    normalizer = codemode_errors.Normalizer()
    print(f"normalize_json(text): {per_call(lambda: normalizer.normalize_json(text)):.1f} µs a call")
    print(f"normalize_json(dict): {per_call(lambda: normalizer.normalize_json(TYPICAL)):.1f} µs a call")
    print(f"normalize(dict) -> dict: {per_call(lambda: normalizer.normalize(TYPICAL)):.1f} µs a call")


def sandbox_cost(rounds: int = 30) -> None:
    from fastmcp import Client, FastMCP
    from fastmcp.experimental.transforms.code_mode import CodeMode, MontySandboxProvider

    from codemode_errors.fastmcp import ContractSandbox

    def server(provider: Any) -> FastMCP:
        mcp = FastMCP("bench")

        @mcp.tool
        def add(a: int, b: int) -> int:
            return a + b

        mcp.add_transform(CodeMode(sandbox_provider=provider))
        return mcp

    servers = {"MontySandboxProvider": server(MontySandboxProvider()), "ContractSandbox": server(ContractSandbox())}
    programs = {"return 1": "1", "10 tool calls": "s = 0\nfor i in range(10):\n    s += (await call_tool('add', {'a': i, 'b': 1}))['result']\ns"}

    async def measure() -> Dict[str, Dict[str, float]]:
        out: Dict[str, Dict[str, List[float]]] = {name: {p: [] for p in programs} for name in servers}
        clients = {name: Client(mcp) for name, mcp in servers.items()}
        for client in clients.values():
            await client.__aenter__()
        try:
            for _ in range(rounds):
                for name, client in clients.items():
                    for program, code in programs.items():
                        t = time.perf_counter()
                        await client.call_tool("execute", {"code": code})
                        out[name][program].append(time.perf_counter() - t)
        finally:
            for client in clients.values():
                await client.__aexit__(None, None, None)
        return {name: {p: median_ms(s) for p, s in by.items()} for name, by in out.items()}

    figures = asyncio.run(measure())
    for name, by in figures.items():
        print(f"{name}: " + ", ".join(f"{p} {ms:.2f} ms" for p, ms in by.items()))
    base, ours = figures["MontySandboxProvider"], figures["ContractSandbox"]
    per_tool = ((ours["10 tool calls"] - ours["return 1"]) - (base["10 tool calls"] - base["return 1"])) / 10
    print(f"ContractSandbox over MontySandboxProvider: {ours['return 1'] - base['return 1']:+.2f} ms an execute, {per_tool:+.3f} ms a tool call")


if __name__ == "__main__":
    import_time()
    normalize_cost()
    sandbox_cost()
