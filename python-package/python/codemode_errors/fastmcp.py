"""The codemode-errors contract inside FastMCP's code mode.

``ContractSandbox`` is a FastMCP ``SandboxProvider``: pass it to ``CodeMode`` and every
failure inside ``execute`` becomes a contract object built by the core::

    from fastmcp.experimental.transforms.code_mode import CodeMode
    from codemode_errors.fastmcp import ContractSandbox

    mcp.add_transform(CodeMode(sandbox_provider=ContractSandbox()))

Inside the sandbox, a failed ``call_tool`` raises a ``RuntimeError`` whose ``str()`` is
the contract JSON (``json.loads(str(e))`` gives the object): an unknown tool (with the
nearest names), arguments that failed validation (named), a tool that raised, an
``isError`` result (its content blocks as evidence), the call limit, a call timeout.
Everything is redacted and capped by the core. A run that fails ends ``execute`` with
``isError`` and the run error's JSON as its text and structured content (``code``,
``message``, ``failurePhase``, ``bridgeDispatchStarted``, ``replaySafe``, ``toolError``
for a bridge failure, ``line`` and ``column`` for a syntax error); a returned error result
is not masked by ``mask_error_details``. Printed output is captured, never written to the
server's stdout, and returned with the value within one budget.

The code runs in pydantic-monty, as with FastMCP's own ``MontySandboxProvider``.
"""

from __future__ import annotations

import ast
import asyncio
import json
from typing import Any, Callable, Dict, List, Mapping, Optional, Set, Tuple

import anyio
from fastmcp.exceptions import NotFoundError, ValidationError
from fastmcp.experimental.transforms.code_mode import CodeMode, MontySandboxProvider
from fastmcp.server.dependencies import get_context
from fastmcp.tools.base import Tool, ToolResult
from mcp_types import TextContent

from . import Normalizer, ReportError, _core, exec_step_json

__all__ = ["ContractSandbox"]

#: The exception type a failed ``call_tool`` raises in the sandbox (a builtin: Monty maps
#: host exceptions to their nearest builtin type).
BRIDGE_ERROR = RuntimeError

_UNSET: Any = object()


class _Printed:
    """``print()`` output of one run, kept up to ``cap`` characters (the core cuts it to
    the budget with its marker; past the cap it is only counted)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.parts: List[str] = []
        self.kept = 0
        self.dropped = 0

    def __call__(self, stream: str, text: str) -> None:
        room = self.cap - self.kept
        if room > 0:
            self.parts.append(text[:room])
            self.kept += min(len(text), room)
        self.dropped += max(0, len(text) - max(room, 0))

    def text(self) -> str:
        return "".join(self.parts)


class _Run:
    """What the bridge records in one run: dispatches, calls in flight, the failures it
    raised."""

    def __init__(self) -> None:
        self.dispatched = False
        self.calls = 0
        self.ended = False
        self.raised: List[str] = []
        self.in_flight: Set["asyncio.Task[Any]"] = set()

    def dispatch_started(self) -> bool:
        """Whether a call may have reached a tool: one did, or one was still on its way."""
        return self.dispatched or bool(self.in_flight)


def _qualified(namespace: str, name: str) -> str:
    return name if "::" in name else f"{namespace}::{name}"


def _annotations(tool: Tool) -> Optional[Dict[str, Any]]:
    annotations = getattr(tool, "annotations", None)
    if annotations is None:
        return None
    dumped: Dict[str, Any] = annotations.model_dump(by_alias=True, exclude_none=True, mode="json")
    return dumped


def _raised(exc: BaseException) -> Dict[str, Any]:
    """An exception a tool call raised, as the isError result a client would have seen."""
    return {"isError": True, "content": [{"type": "text", "text": str(exc) or type(exc).__name__}]}


def _blocks(result: ToolResult) -> List[Dict[str, Any]]:
    return [block.model_dump(by_alias=True, exclude_none=True, mode="json") for block in result.content]


def _unwrap(result: ToolResult) -> Any:
    """A successful result as FastMCP's code mode hands it to the code: the structured
    content when there is one, else the text blocks joined."""
    if result.structured_content is not None:
        return result.structured_content
    return "\n".join(block.text if isinstance(block, TextContent) else str(block) for block in result.content)


def _frames_text(frames: List[Any]) -> str:
    lines = []
    for frame in frames:
        where = f'  File "<code>", line {frame.line}, column {frame.column}'
        if frame.function_name:
            where += f", in {frame.function_name}"
        lines.append(where)
        if frame.source_line:
            lines.append(f"    {frame.source_line.strip()}")
    return "\n".join(lines)


def _span(code: str, frame: Any) -> str:
    """The source text a frame points at (lines and columns 1-based, columns in characters)."""
    lines = code.split("\n")
    first, last = int(frame.line) - 1, int(frame.end_line) - 1
    start, end = int(frame.column) - 1, int(frame.end_column) - 1
    if not 0 <= first <= last < len(lines):
        return ""
    if first == last:
        return lines[first][start:end]
    return "\n".join([lines[first][start:], *lines[first + 1 : last], lines[last][:end]])


def _is_bridge_frame(code: str, frame: Any) -> bool:
    """Whether a traceback's innermost frame is an expression that calls ``call_tool(...)``
    (an ``await call_tool(...)``, a ``gather`` of calls: where a rejection the bridge raised
    surfaces), not a ``raise`` statement of the code."""
    try:
        tree = ast.parse(_span(code, frame).strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "call_tool" for n in ast.walk(tree))


class ContractSandbox:
    """A FastMCP ``SandboxProvider`` whose failures are codemode-errors contract objects.

    Args:
        limits: pydantic-monty resource limits in ``MontySandboxProvider``'s form
            (``{"max_feed_duration_secs": 30, "max_memory": 100_000_000}`` when omitted;
            ``None`` disables them).
        max_output_bytes: one budget for printed output and the value (default 65 536).
        restart_safe: whether the caller declares a rerun of the same code safe
            (reported as ``replaySafe``).
        policy: the core's policy (caps, allowlists, custom secret formats), JSON text or
            a mapping.
        call_timeout: seconds a single ``call_tool`` may take (``None``: no limit of its own).
        namespace: the namespace tool names get in contract objects (``tools::create_issue``).
    """

    def __init__(
        self,
        *,
        limits: Any = _UNSET,
        max_output_bytes: int = 65_536,
        restart_safe: bool = False,
        policy: Optional[Any] = None,
        call_timeout: Optional[float] = None,
        namespace: str = "tools",
    ) -> None:
        if isinstance(max_output_bytes, bool) or not isinstance(max_output_bytes, int) or not 0 < max_output_bytes <= 2**32:
            raise ValueError(f"max_output_bytes must be a positive int of at most 2**32, not {max_output_bytes!r}")
        if call_timeout is not None and not (isinstance(call_timeout, (int, float)) and call_timeout > 0):
            raise ValueError(f"call_timeout must be a positive number of seconds or None, not {call_timeout!r}")
        # The same defaults and checks as FastMCP's own provider.
        self._monty = MontySandboxProvider() if limits is _UNSET else MontySandboxProvider(limits=limits)
        self.limits = self._monty.limits
        self.max_output_bytes = max_output_bytes
        self.restart_safe = bool(restart_safe)
        self.normalizer = Normalizer(policy)
        self.call_timeout = call_timeout
        self.namespace = namespace
        try:
            self.normalizer.normalize({"tool": f"{namespace}::tool", "transport": {"kind": "other"}})
        except ReportError as e:
            raise ValueError(f"namespace {namespace!r} does not make tool names: {e}") from None

    # -- the bridge --------------------------------------------------------------------

    def _fail(self, run: _Run, outcome_json: str) -> BaseException:
        error = json.loads(outcome_json)["error"]
        text = json.dumps(error, ensure_ascii=False, separators=(",", ":"))
        run.raised.append(text)
        return BRIDGE_ERROR(text)

    def _report(self, run: _Run, report: Mapping[str, Any]) -> BaseException:
        """The failure for ``report``; when the core refuses it (arguments JSON cannot hold,
        a tool name that is no tool name), the same without those parts, and at last the
        code mode's own ``internal_error``."""
        attempts = [
            dict(report),
            {k: v for k, v in report.items() if k not in ("arguments", "input_schema")},
            {k: v for k, v in report.items() if k not in ("arguments", "input_schema", "tool", "annotations")},
        ]
        for attempt in attempts:
            try:
                return self._fail(run, self.normalizer.normalize_json(attempt))
            except ReportError:
                continue
        last = {"code_mode": {"kind": "internal_error", "message": "the bridge could not describe this tool call's failure"}}
        return self._fail(run, self.normalizer.normalize_json(last))

    def _find_code_mode(self, ctx: Any) -> Optional[CodeMode]:
        for transform in getattr(ctx.fastmcp, "transforms", ()):
            if isinstance(transform, CodeMode) and transform.sandbox_provider is self:
                return transform
        return None

    def _bridge(self, run: _Run, fallback: Optional[Callable[..., Any]]) -> Callable[..., Any]:
        async def call_tool(tool_name: Any = None, params: Any = None) -> Any:
            if run.ended:
                raise self._report(run, {"code_mode": {"kind": "cancelled", "message": "the run has ended; no further tool calls are dispatched"}})
            run.calls += 1
            try:
                ctx = get_context()
            except RuntimeError:
                return await self._through(run, fallback, tool_name, params)
            code_mode = self._find_code_mode(ctx)
            if code_mode is None:
                return await self._through(run, fallback, tool_name, params)
            limit = code_mode.max_tool_calls
            if limit is not None and run.calls > limit:
                message = f"tool call limit reached: at most {limit} call_tool() invocations per execute()"
                raise self._report(run, {"budget": {"kind": "budget_exceeded", "message": message}})
            catalog = await code_mode.get_tool_catalog(ctx)

            def unknown(requested: Optional[str]) -> BaseException:
                names = [_qualified(self.namespace, t.name) for t in catalog]
                return self._fail(run, self.normalizer._core.unknown_tool_json(requested, names))

            tool = next((t for t in catalog if isinstance(tool_name, str) and t.name == tool_name), None)
            if tool is None:
                raise unknown(_qualified(self.namespace, tool_name) if isinstance(tool_name, str) else None)
            header: Dict[str, Any] = {"tool": _qualified(self.namespace, tool.name)}
            annotations = _annotations(tool)
            if annotations:
                header["annotations"] = annotations
            schema = tool.parameters if isinstance(tool.parameters, dict) else None
            arguments = {} if params is None else params
            call = {"input_schema": schema, "arguments": arguments} if schema is not None else {}
            task = asyncio.current_task()
            if task is not None:
                run.in_flight.add(task)
            try:
                if self.call_timeout is None:
                    result = await ctx.fastmcp.call_tool(tool.name, arguments)
                else:
                    with anyio.fail_after(self.call_timeout):
                        result = await ctx.fastmcp.call_tool(tool.name, arguments)
            except ValidationError as exc:
                # Refused before the tool ran: this call dispatched nothing.
                raise self._report(run, {**header, "dispatched": False, "validation": _validation(exc, schema, arguments)}) from None
            except NotFoundError:
                raise unknown(header["tool"]) from None
            except TimeoutError:
                run.dispatched = True
                message = f"no answer from the tool within {self.call_timeout} s" if self.call_timeout else "the tool's call timed out"
                raise self._report(run, {**header, "dispatched": True, "transport": {"kind": "timeout", "message": message}}) from None
            except Exception as exc:
                run.dispatched = True
                raise self._report(run, {**header, **call, "dispatched": True, "tool_result": _raised(exc)}) from None
            finally:
                if task is not None:
                    run.in_flight.discard(task)
            run.dispatched = True
            if result.is_error:
                failed = {"isError": True, "content": _blocks(result)}
                if result.structured_content is not None:
                    failed["structuredContent"] = result.structured_content
                raise self._report(run, {**header, **call, "dispatched": True, "tool_result": failed})
            return _unwrap(result)

        return call_tool

    async def _through(self, run: _Run, call: Optional[Callable[..., Any]], tool_name: Any, params: Any) -> Any:
        """Outside a CodeMode this provider belongs to: the given ``call_tool``, its
        failures read as the tool's text."""
        if call is None:
            raise self._fail(run, self.normalizer._core.unknown_tool_json(tool_name if isinstance(tool_name, str) else None, []))
        run.dispatched = True
        try:
            result = call(tool_name, params)
            if asyncio.iscoroutine(result):
                result = await result
            return result
        except Exception as exc:
            name = _qualified(self.namespace, tool_name) if isinstance(tool_name, str) and tool_name else None
            report: Dict[str, Any] = {"tool_result": _raised(exc)}
            if name is not None and len(name) <= 256:
                report["tool"] = name
            raise self._report(run, report) from None

    # -- the run -----------------------------------------------------------------------

    async def run(
        self,
        code: str,
        *,
        inputs: Optional[Dict[str, Any]] = None,
        external_functions: Optional[Dict[str, Callable[..., Any]]] = None,
    ) -> ToolResult:
        """Run ``code`` and report how the run ended (a completed run's value and output,
        or the run error as an ``isError`` result). Never raises for what the code does."""
        run = _Run()
        try:
            return await self._run(run, code, inputs, external_functions)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            # A safety net: whatever went wrong on the host side ends the run as the core's
            # `internal` failure (its message redacted), never as text FastMCP would pass on.
            return self._ended(run.dispatch_started(), {"internal": {"message": f"{type(exc).__name__}: {exc}"}})

    async def _run(
        self,
        run: _Run,
        code: str,
        inputs: Optional[Dict[str, Any]],
        external_functions: Optional[Dict[str, Callable[..., Any]]],
    ) -> ToolResult:
        try:
            checked = json.loads(exec_step_json({"step": "request", "request": {"code": code, "restartSafe": self.restart_safe}}))
        except ReportError as exc:
            # A code JSON text cannot hold (a lone surrogate): the request itself is wrong.
            return self._ended(False, {"invalid_request": {"message": str(exc)}})
        if "failed" in checked:
            return self._failed(checked["failed"])
        import pydantic_monty

        printed = _Printed(max(4 * self.max_output_bytes, 65_536))
        functions = dict(external_functions or {})
        fallback = functions.get("call_tool")
        functions["call_tool"] = self._bridge(run, fallback)
        failure: Optional[Dict[str, Any]] = None
        stack = ""
        value: Any = None
        # The whole run, awaited tool calls included, within the feed limit: Monty's own
        # limit counts only the sandbox's time, so a tool that never answers would hold the
        # run forever.
        seconds = (self.limits or {}).get("max_feed_duration_secs")
        try:
            with anyio.fail_after(float(seconds) if seconds is not None else None):
                async with pydantic_monty.AsyncMonty() as pool, pool.checkout(limits=self.limits) as session:
                    value = await session.feed_run(code, inputs=inputs or None, external_lookup=functions, print_callback=printed)
        except pydantic_monty.MontySyntaxError as exc:
            frame = next(iter(exc.traceback()), None)
            failure = {"syntax_error": {"message": str(exc), "line": frame.line if frame else 1, "column": frame.column if frame else 1}}
        except pydantic_monty.MontyRuntimeError as exc:
            failure, stack = self._runtime_failure(run, code, exc)
        except pydantic_monty.MontyError as exc:
            failure = {"runtime_unavailable": {"message": f"the sandbox ended: {exc}"}}
        except TimeoutError:
            failure = self._timeout()
        finally:
            run.ended = True
            dispatched = run.dispatch_started()
            # Calls still on their way when the run ended are cancelled, not left running.
            pending = [t for t in run.in_flight if not t.done()]
            for task in pending:
                task.cancel()
            if pending:
                with anyio.CancelScope(shield=True):
                    await asyncio.gather(*pending, return_exceptions=True)
        output = printed.text()
        if failure is not None:
            return self._ended(dispatched, failure, stack, output)
        try:
            value_json = json.dumps(value, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError, RecursionError) as exc:
            what = "nests too deeply" if isinstance(exc, RecursionError) else str(exc)
            return self._ended(dispatched, {"output_unserializable": {"message": what}}, output=output)
        projected = json.loads(_core.project_completed(output, value_json, self.max_output_bytes, dispatched, self.restart_safe))
        if "failed" in projected:
            return self._failed(projected["failed"], output=output)
        completed: Dict[str, Any] = {
            "status": "completed",
            "value": projected["value"],
            "output": projected["output"],
            "bridgeDispatchStarted": dispatched,
            "replaySafe": self.restart_safe,
        }
        if projected.get("truncated") or printed.dropped:
            completed["truncated"] = True
        text = json.dumps(completed, ensure_ascii=False, separators=(",", ":"))
        return ToolResult(content=[TextContent(type="text", text=text)], structured_content=completed)

    def _runtime_failure(self, run: _Run, code: str, exc: Any) -> Tuple[Dict[str, Any], str]:
        inner = exc.exception()
        frames = list(exc.traceback())
        message = str(inner)
        if not frames and isinstance(inner, TimeoutError):
            return self._timeout(), ""
        if type(inner) is BRIDGE_ERROR and frames and message in run.raised and _is_bridge_frame(code, frames[-1]):
            run.raised.remove(message)
            return {"uncaught_tool_error": message}, _frames_text(frames)
        return {"guest_exception": {"name": type(inner).__name__, "message": message}}, _frames_text(frames)

    def _ended(self, dispatched: bool, failure: Dict[str, Any], stack: str = "", output: str = "") -> ToolResult:
        """The failed run whose run report holds ``failure`` (one failure member)."""
        report = {"bridge_dispatch_started": dispatched, "restart_safe": self.restart_safe, **failure}
        return self._failed(json.loads(_core.classify_run_json(report)), stack, output)

    def _timeout(self) -> Dict[str, Any]:
        """The run report's ``timeout`` member, with the deadline when there is one."""
        seconds = (self.limits or {}).get("max_feed_duration_secs")
        return {"timeout": {} if seconds is None else {"deadline_ms": int(float(seconds) * 1000)}}

    def _failed(self, error: Dict[str, Any], stack: str = "", output: str = "") -> ToolResult:
        error_json = json.dumps(error, ensure_ascii=False, separators=(",", ":"))
        failed = json.loads(_core.failed_run(error_json, stack, output, self.max_output_bytes))
        text = json.dumps(failed, ensure_ascii=False, separators=(",", ":"))
        return ToolResult(content=[TextContent(type="text", text=text)], structured_content=failed, is_error=True)


def _validation(exc: BaseException, schema: Optional[Dict[str, Any]], arguments: Any) -> Dict[str, Any]:
    """A FastMCP validation failure as the report's ``validation`` member: pydantic's own
    errors as problems (``loc`` as the path), with the schema and the arguments."""
    out: Dict[str, Any] = {}
    cause = exc.__cause__
    errors = getattr(cause, "errors", None)
    problems = []
    if callable(errors):
        try:
            for item in errors(include_url=False)[:64]:
                path = ".".join(str(part) for part in item.get("loc", ()))
                if path.strip():
                    problems.append({"path": path, "problem": str(item.get("msg", "invalid"))})
        except Exception:
            problems = []
    if problems:
        out["problems"] = problems
    else:
        out["message"] = str(exc) or "the arguments failed validation"
    if schema is not None:
        out["input_schema"] = schema
        out["arguments"] = arguments
    return out
