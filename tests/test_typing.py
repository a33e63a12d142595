"""mypy --strict runs clean over src/ (the Python twin carries the annotations; _decoder_c.pyi the core's)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_strict_over_src(tmp_path):
    pytest.importorskip("mypy")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(tmp_path),
         str(ROOT / "src" / "acp_transcript")],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_py_typed_is_shipped():
    import acp_transcript

    assert (Path(acp_transcript.__file__).parent / "py.typed").exists()
