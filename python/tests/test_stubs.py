"""The .pyi stubs match the native module (mypy's stubtest) and type-check the docs' style of use."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CONFIG = Path(__file__).resolve().parents[1] / "pyproject.toml"


def test_stubtest_passes() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "baghchal_engine", "--mypy-config-file", str(CONFIG)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
