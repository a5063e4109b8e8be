"""Every Python example in docs/python.md runs, in order, in one namespace."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "python.md"


def test_docs_examples_run(engine_bin: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert len(blocks) >= 8
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", str(Path(engine_bin).parent) + os.pathsep + os.environ["PATH"])
    namespace: dict = {}
    for number, block in enumerate(blocks):
        exec(compile(block, f"docs/python.md block {number + 1}", "exec"), namespace)
