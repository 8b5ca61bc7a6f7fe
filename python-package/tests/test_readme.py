"""The Python code blocks of python-package/README.md run against the installed wheel and
their assertions hold (a block fenced ``python no-run`` is shown, not run)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, List

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def blocks() -> List[str]:
    found = re.findall(r"^```([^\n]*)\n(.*?)^```", README.read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL)
    return [body for info, body in found if info.split() == ["python"]]


def test_the_readme_has_runnable_python() -> None:
    assert blocks(), "no ```python block to run in python-package/README.md"


@pytest.mark.parametrize("body", blocks())
def test_readme_block(body: str) -> None:
    scope: Dict[str, object] = {"__name__": "readme"}
    exec(compile(body, str(README), "exec"), scope)
