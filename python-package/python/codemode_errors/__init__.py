"""codemode-errors for Python: every failure inside an agent's code mode as one versioned,
redacted, size-capped error object.

The rules are the Rust core's (``codemode_errors._core``, the same core as the CLI, the
WASI component and the npm package): this module only adapts Python values and parses the
core's JSON. Reports, policies and values are JSON text (``str``) or Python data
(``dict``, ``list``, ``tuple``, ``str``, ``int``, ``float``, ``bool``, ``None``); anything
JSON cannot hold is refused with :class:`ReportError`, never converted.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Mapping, Optional, Union

from . import _core
from ._core import CONTRACT_VERSION, SCHEMA, VERSION, ReportError

__all__ = [
    "CONTRACT_VERSION",
    "SCHEMA",
    "VERSION",
    "Normalizer",
    "ReportError",
    "classify_run",
    "classify_run_json",
    "exec_step_json",
    "normalize",
    "normalize_json",
    "parse_call_error",
    "redact_json",
    "redact_text",
]

#: A failure report, a policy, a run report: JSON text or the same data as Python values.
JsonInput = Union[str, Mapping[str, Any]]


class Normalizer:
    """Normalizes failure reports under one policy; build it once and keep it.

    ``policy`` is the core's policy (caps, allowlists, custom secret formats) as JSON text
    or a mapping; ``None`` is the default policy. A bad policy raises :class:`ReportError`
    with ``code == "invalid_policy"``.

    >>> n = Normalizer({"max_error_bytes": 4096})
    >>> n.normalize({"tool": "fs::read_file", "transport": {"kind": "timeout"}})["error"]["kind"]
    'timeout'
    """

    __slots__ = ("_core",)

    def __init__(self, policy: Optional[JsonInput] = None) -> None:
        self._core = _core.Normalizer(policy)

    def normalize(self, report: JsonInput) -> Dict[str, Any]:
        """The outcome of ``report``: ``{"error": <contract object or None>, "breaker": ...}``."""
        result: Dict[str, Any] = json.loads(self._core.normalize_json(report))
        return result

    def normalize_json(self, report: JsonInput) -> str:
        """The outcome of ``report`` as the core's exact JSON text (the CLI's and npm's bytes)."""
        return self._core.normalize_json(report)

    def redact_text(self, text: str) -> str:
        """``text`` sanitized and redacted under this policy (no cap)."""
        return self._core.redact_text(text)

    def redact_json(self, value: Any) -> Any:
        """A redacted copy of a JSON value (keys sorted); secret-named members are masked."""
        return json.loads(self._core.redact_json_text(value))

    def parse_call_error(self, error: Union[str, BaseException, Mapping[str, Any]]) -> Dict[str, Any]:
        """Read back a contract error: its JSON text, the exception carrying it, or the object."""
        result: Dict[str, Any] = json.loads(self._core.parse_call_error_json(_message(error)))
        return result

    @property
    def policy(self) -> Dict[str, Any]:
        """The policy in force, every cap and list included."""
        result: Dict[str, Any] = json.loads(self._core.policy_json())
        return result


def _message(error: Union[str, BaseException, Mapping[str, Any]]) -> Union[str, Mapping[str, Any]]:
    """The text an exception carries (its one ``str`` argument, else ``str(error)``)."""
    if isinstance(error, BaseException):
        if len(error.args) == 1 and isinstance(error.args[0], str):
            return error.args[0]
        return str(error)
    return error


_default = Normalizer()


def normalize(report: JsonInput, policy: Optional[JsonInput] = None) -> Dict[str, Any]:
    """The outcome of one failure report: ``{"error": ..., "breaker": ...}``.

    >>> normalize({"tool": "fs::read_file", "transport": {"kind": "timeout"}})["breaker"]
    'failure'
    """
    return (_default if policy is None else Normalizer(policy)).normalize(report)


def normalize_json(report: JsonInput, policy: Optional[JsonInput] = None) -> str:
    """The outcome of one failure report as the core's exact JSON text."""
    return (_default if policy is None else Normalizer(policy)).normalize_json(report)


def redact_text(text: str) -> str:
    """Sanitize and redact free text: secrets become ``[REDACTED:<family>]``.

    >>> redact_text("auth=Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789")
    'auth=Bearer [REDACTED:github_token]'
    """
    return _default.redact_text(text)


def redact_json(value: Any) -> Any:
    """A redacted copy of a JSON value (keys sorted).

    >>> redact_json({"user": "ann", "password": "hunter2"})
    {'password': '[REDACTED:secret_field]', 'user': 'ann'}
    """
    return _default.redact_json(value)


def parse_call_error(error: Union[str, BaseException, Mapping[str, Any]]) -> Dict[str, Any]:
    """Read back the contract object a failed call carried (text, exception or object)."""
    return _default.parse_call_error(error)


def classify_run(report: JsonInput) -> Dict[str, Any]:
    """The terminal error of a failed code-mode run: ``code``, ``failurePhase``, ...

    >>> classify_run({"bridge_dispatch_started": False, "timeout": {"deadline_ms": 1000}})["code"]
    'timeout'
    """
    result: Dict[str, Any] = json.loads(_core.classify_run_json(report))
    return result


def classify_run_json(report: JsonInput) -> str:
    """:func:`classify_run` as the core's exact JSON text."""
    return _core.classify_run_json(report)


def exec_step_json(step: JsonInput) -> str:
    """One executor step answered by the core's run rules (see the contract's run layer)."""
    return _core.exec_step(step)
