"""The walk (Python values read by the native module) against the text reader: for JSON
data, a report handed over as Python values and the same report as JSON text give the same
bytes, on randomly generated values around the input limits (string heads at 128 Ki UTF-16
units, 256 items and members, 120 levels)."""

from __future__ import annotations

import json
import random
from typing import Any, List

import pytest

import codemode_errors

ALPHABET = ["a", "Z", "0", " ", "\n", '"', "\\", "é", "€", "😀", "\u2028", "\x00", "\u202e", "<", "[", "ghp_"]


def text(rng: random.Random) -> str:
    n = rng.choice([0, 1, 5, 40, 300])
    out = "".join(rng.choice(ALPHABET) for _ in range(n))
    if rng.random() < 0.01:
        # Past the string head, with an astral character across the cut now and then.
        out += "x" * (128 * 1024 - 1 - len(out)) + rng.choice(["😀", "xy", "é"]) * 3
    return out


def value(rng: random.Random, depth: int) -> Any:
    kind = rng.random()
    if depth > 6 or kind < 0.35:
        return rng.choice([None, True, False, 0, -1, 3.5, 1e21, 2**53 + 1, -0.0, 1e-7, text(rng)])
    if kind < 0.65:
        return [value(rng, depth + 1) for _ in range(rng.choice([0, 1, 3, 300]) if depth == 0 else rng.randint(0, 3))]
    size = rng.choice([0, 1, 4, 260]) if depth == 0 else rng.randint(0, 4)
    return {text(rng) or "k": value(rng, depth + 1) for _ in range(size)}


def deep(levels: int) -> Any:
    out: Any = "bottom"
    for _ in range(levels):
        out = [out]
    return out


def reports(seed: int) -> List[Any]:
    rng = random.Random(seed)
    out = []
    for _ in range(12):
        blocks = [{"type": "text", "text": text(rng)} for _ in range(rng.randint(0, 3))]
        out.append({"tool": "a::b", "tool_result": {"isError": True, "content": blocks, "structuredContent": {"v": value(rng, 0)}}})
        out.append({"tool": "a::b", "validation": {"arguments": value(rng, 0), "input_schema": {"type": "object", "properties": {"v": value(rng, 1)}}}})
    for levels in (110, 117, 118, 119, 200):
        out.append({"tool": "a::b", "tool_result": {"isError": True, "content": [], "structuredContent": {"d": deep(levels)}}})
    return out


def outcome(report: Any) -> str:
    try:
        return codemode_errors.normalize_json(report)
    except codemode_errors.ReportError as e:
        # The text reader names no path for nesting past the limit (it stops its parser);
        # the walk does. The code is the same.
        return f"ReportError {e.code}"


@pytest.mark.parametrize("seed", range(12))
def test_python_values_and_their_json_text_give_the_same_bytes(seed: int) -> None:
    for report in reports(seed):
        as_text = json.dumps(report, ensure_ascii=True)
        assert outcome(report) == outcome(as_text), as_text[:300]
