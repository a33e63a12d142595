"""mypy --strict runs clean over src/ (the Python twin carries the annotations, for the core too)."""

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


def test_option_choices_are_literal_types(tmp_path):
    """``mode="bogus"`` is a type error, not only a ValueError at run time (the choices are Literal types)."""
    pytest.importorskip("mypy")
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from acp_transcript import TranscriptDecoder\n"
        "TranscriptDecoder(mode='strip', unicode='strict')\n"
        "TranscriptDecoder(mode='bogus')\n"
    )
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), str(sample)],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert 'sample.py:3: error: Argument "mode" to "TranscriptDecoder" has incompatible type' in result.stdout
    assert "sample.py:2" not in result.stdout
