"""The Python API: values in and out, typed errors, the same caps as every surface."""

from __future__ import annotations

import json
from typing import Any, Dict, Iterator, List, Mapping

import pytest

import codemode_errors
from codemode_errors import Normalizer, ReportError

TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"


def failed_call(text: str) -> Dict[str, Any]:
    return {
        "tool": "github::create_issue",
        "dispatched": True,
        "tool_result": {"resultType": "complete", "isError": True, "content": [{"type": "text", "text": text}]},
    }


def test_text_and_data_give_the_same_bytes_and_no_secret() -> None:
    report = failed_call(f"upstream rejected request: token {TOKEN} is invalid")
    as_data = codemode_errors.normalize_json(report)
    assert as_data == codemode_errors.normalize_json(json.dumps(report))
    assert TOKEN not in as_data
    outcome = codemode_errors.normalize(report)
    assert outcome["error"]["contract_version"] == codemode_errors.CONTRACT_VERSION == 1
    assert "[REDACTED:github_token]" in outcome["error"]["cause"]


def test_a_success_is_no_error() -> None:
    report = {"tool": "fs::read_file", "tool_result": {"resultType": "complete", "content": []}}
    assert codemode_errors.normalize(report) == {"error": None, "breaker": "success"}


@pytest.mark.parametrize(
    "report,code,path",
    [
        ("{", "invalid_json", ""),
        ({"tool": "fs::read_file"}, "invalid_report", ""),
        ({"transport": {"kind": "timeout", "extra": 1}}, "invalid_report", "transport.extra"),
        ({"transport": {"kind": "ti\ud800"}}, "invalid_json", "transport.kind"),
        ({"transport": {"kind": b"timeout"}}, "invalid_json", "transport.kind"),
        ({"transport": {"kind": {"a", "b"}}}, "invalid_json", "transport.kind"),
        ({"transport": {"kind": "timeout", "message": float("nan")}}, "invalid_json", "transport.message"),
        ({"transport": {"kind": "timeout", "message": 10**400}}, "invalid_json", "transport.message"),
        ({"transport": {(1, 2): "x"}}, "invalid_json", "transport"),
    ],
)
def test_bad_input_raises_a_typed_value_error(report: Any, code: str, path: str) -> None:
    with pytest.raises(ReportError) as caught:
        codemode_errors.normalize(report)
    assert isinstance(caught.value, ValueError)
    assert (caught.value.code, caught.value.path) == (code, path), str(caught.value)
    assert str(caught.value).startswith(code)


def test_keys_read_as_json_dumps_writes_them() -> None:
    assert codemode_errors.redact_json({1: "a", 2.5: "b", None: "d"}) == {"1": "a", "2.5": "b", "null": "d"}
    assert codemode_errors.redact_json({False: "c"}) == {"false": "c"}
    assert codemode_errors.redact_json(("a", ["b"])) == ["a", ["b"]]


def test_a_cycle_or_deep_nesting_is_refused_not_a_crash() -> None:
    cycle: List[Any] = []
    cycle.append(cycle)
    deep: List[Any] = []
    for _ in range(100_000):
        deep = [deep]
    for value in (cycle, deep):
        with pytest.raises(ReportError) as caught:
            codemode_errors.normalize({"tool": "a::b", "tool_result": {"content": value, "isError": True}})
        assert caught.value.code == "too_deep"
        assert "×" in caught.value.path


def test_a_large_text_block_is_capped_in_the_error() -> None:
    report = failed_call("x" * 5_000_000 + TOKEN)
    text = codemode_errors.normalize_json(report)
    assert len(text.encode()) <= 16 * 1024
    assert TOKEN not in text


def test_policies_and_their_errors() -> None:
    strict = Normalizer({"max_error_bytes": 4096})
    assert strict.policy["max_error_bytes"] == 4096
    assert len(strict.normalize_json(failed_call("boom " * 20000)).encode()) <= 4096
    assert Normalizer(json.dumps({"max_error_bytes": 8192})).policy["max_error_bytes"] == 8192
    with pytest.raises(ReportError) as caught:
        Normalizer({"max_error_bytez": 1})
    assert caught.value.code == "invalid_policy"


def test_redaction_entry_points() -> None:
    assert codemode_errors.redact_text(f"auth=Bearer {TOKEN}") == "auth=Bearer [REDACTED:github_token]"
    assert codemode_errors.redact_json({"user": "ann", "password": "hunter2"}) == {"password": "[REDACTED:secret_field]", "user": "ann"}
    with pytest.raises(ReportError) as caught:
        Normalizer().redact_text(5)  # type: ignore[arg-type]
    assert caught.value.code == "invalid_argument"


def test_a_contract_error_reads_back_from_its_text_its_exception_or_its_object() -> None:
    error = codemode_errors.normalize(failed_call("boom"))["error"]
    text = json.dumps(error)
    assert codemode_errors.parse_call_error(text) == error
    assert codemode_errors.parse_call_error(RuntimeError(text)) == error
    assert codemode_errors.parse_call_error(error) == error
    with pytest.raises(ReportError) as caught:
        codemode_errors.parse_call_error(ValueError("plain prose"))
    assert caught.value.code in ("invalid_call_error", "invalid_json")


def test_runs_end_with_the_core_run_error() -> None:
    end = codemode_errors.classify_run({"bridge_dispatch_started": False, "syntax_error": {"message": "Unexpected token", "line": 3, "column": 7}})
    assert (end["code"], end["failurePhase"], end["line"], end["column"]) == ("invalid_input", "input", 3, 7)
    assert codemode_errors.classify_run_json(json.dumps({"bridge_dispatch_started": True, "timeout": {}})) == json.dumps(
        codemode_errors.classify_run({"bridge_dispatch_started": True, "timeout": {}}), separators=(",", ":"), ensure_ascii=False
    )


class _ThrowingMapping(Mapping[str, Any]):
    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("a getter that throws")

    def __iter__(self) -> Iterator[str]:
        return iter(["kind"])

    def __len__(self) -> int:
        return 1


def test_hostile_containers_are_refused_or_read_within_the_caps() -> None:
    with pytest.raises(ReportError) as caught:
        codemode_errors.normalize({"transport": _ThrowingMapping()})
    assert (caught.value.code, caught.value.path) == ("invalid_json", "transport")
    # A million members or items: the caps keep the first ones and count the rest.
    many = {"tool": "a::b", "tool_result": {"isError": True, "content": [{"type": "text", "text": "x"}] * 1_000_000}}
    error = codemode_errors.normalize(many)["error"]
    assert error["evidence"]["omitted_content_blocks"] > 900_000
    wide = {"tool": "a::b", "tool_result": {"isError": True, "content": [], "structuredContent": {str(i): i for i in range(200_000)}}}
    assert codemode_errors.normalize(wide)["error"]["kind"] == "tool_error"


def test_keys_and_steps_read_as_json_would_have_them() -> None:
    # Distinct keys JSON names alike: one member, no member left untold.
    assert "TRUNCATED" not in json.dumps(codemode_errors.redact_json({1: "a", "1": "b"}))

    class Shown(float):
        def __repr__(self) -> str:
            return "LIE"

    assert codemode_errors.redact_json({Shown(1.5): 1}) == {"1.5": 1}
    with pytest.raises(ReportError):
        codemode_errors.redact_json({float("nan"): 1})
    # A step as Python values keeps its strings whole: a code over the limit is refused.
    long_code = "x = 1\n" * 40_000
    as_value = json.loads(codemode_errors.exec_step_json({"step": "request", "request": {"code": long_code}}))
    as_text = json.loads(codemode_errors.exec_step_json(json.dumps({"step": "request", "request": {"code": long_code}})))
    assert as_value == as_text and "failed" in as_value
