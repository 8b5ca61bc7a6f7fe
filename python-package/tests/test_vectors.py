"""Every shared vector (tests/vectors/) through the Python package, byte for byte with the
native core, in every form the ``python`` surface declares in tests/vectors/gaps.json,
judged against the declared gaps (the same rules as js-package/test/vector-check.mjs)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

import pytest

import codemode_errors

SURFACE = "python"
ROOT = Path(os.environ.get("CODEMODE_ERRORS_VECTORS", Path(__file__).resolve().parents[2] / "tests" / "vectors"))
TOP_LEVEL = {"README.md", "gaps.json", "off-schema.json"}


def js_stringify(value: Any) -> str:
    """``JSON.stringify(value)`` for the values JSON text parses to: compact, non-ASCII
    kept, lone surrogates escaped, numbers as JavaScript writes them."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e21:
            return str(int(value))
        text = repr(value)
        mantissa, _, exponent = text.partition("e")
        return f"{mantissa}e{'-' if exponent.startswith('-') else '+'}{exponent.lstrip('+-').lstrip('0')}" if exponent else text
    if isinstance(value, str):
        out = json.dumps(value, ensure_ascii=False)
        return "".join(f"\\u{ord(c):04x}" if 0xD800 <= ord(c) <= 0xDFFF else c for c in out)
    if isinstance(value, list):
        return "[" + ",".join(js_stringify(v) for v in value) + "]"
    return "{" + ",".join(f"{js_stringify(k)}:{js_stringify(v)}" for k, v in value.items()) + "}"


def vector_files() -> List[str]:
    files = sorted(str(p.relative_to(ROOT)).replace(os.sep, "/") for p in ROOT.rglob("*") if p.is_file())
    stray = [f for f in files if f not in TOP_LEVEL and not (f.count("/") == 1 and f.endswith(".json"))]
    assert not stray, f"unexpected files among the vectors: {stray}"
    return [f for f in files if f not in TOP_LEVEL]


GAPS = json.loads((ROOT / "gaps.json").read_text(encoding="utf-8"))
FORMS = GAPS["surfaces"][SURFACE]["forms"]


def applies(vector: Dict[str, Any], form: str) -> bool:
    return {
        "text": "report" in vector or "report_text" in vector,
        "object": "report" in vector,
        "run-text": "run" in vector,
        "run-object": "run" in vector,
        "exec": "exec" in vector,
    }.get(form, False)


def cases() -> Iterator[Tuple[str, str]]:
    for file in vector_files():
        vector = json.loads((ROOT / file).read_text(encoding="utf-8"))
        for form in FORMS:
            if applies(vector, form):
                yield file, form


def text_of(value: Any) -> str:
    # ASCII-only JSON text: a lone surrogate travels as its escape, as JSON.stringify writes it.
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"))


def check(vector: Dict[str, Any], form: str) -> Optional[str]:
    try:
        if form == "exec":
            output = codemode_errors.exec_step_json(text_of(vector["exec"]))
        elif form in ("run-text", "run-object"):
            run = vector["run"]
            output = codemode_errors.classify_run_json(text_of(run) if form == "run-text" else run)
        else:
            if form == "object":
                report = vector["report"]
            else:
                report = vector["report_text"] if "report_text" in vector else text_of(vector["report"])
            output = codemode_errors.normalize_json(report, vector.get("policy"))
    except codemode_errors.ReportError as e:
        if "expected_error" not in vector:
            return f"raised {e.code} at {e.path!r}: {e}"
        want = vector["expected_error"]
        if (e.code, e.path) != (want["code"], want["path"]):
            return f"expected {want}, got {{'code': {e.code!r}, 'path': {e.path!r}}}: {e}"
        return None
    if "expected_error" in vector:
        return f"expected the error {vector['expected_error']}, got the outcome {output}"
    expected = js_stringify(vector["expected"])
    if output == expected:
        return None
    at = next((i for i, (a, b) in enumerate(zip(expected, output)) if a != b), min(len(expected), len(output)))
    return f"first difference at {at}:\n  expected: …{expected[max(0, at - 80):at + 160]}…\n  actual:   …{output[max(0, at - 80):at + 160]}…"


def test_the_vectors_folder_holds_vectors_and_declares_this_surface() -> None:
    assert len(vector_files()) > 100
    assert SURFACE in GAPS["surfaces"]
    assert FORMS


@pytest.mark.parametrize("file,form", list(cases()))
def test_vector(file: str, form: str) -> None:
    vector = json.loads((ROOT / file).read_text(encoding="utf-8"))
    gap = next((g for g in GAPS["gaps"] if g["surface"] == SURFACE and g["vector"] == file and g.get("form", form) == form), None)
    problem = check(vector, form)
    if gap is None:
        assert problem is None, f"{vector['description']}\n{problem}"
    else:
        assert problem is not None, f"a declared gap now passes: remove its entry ({SURFACE} {file} [{form}]) from tests/vectors/gaps.json"
