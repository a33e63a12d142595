"""pytest-benchmark over both implementations: ``pytest benchmarks/ --benchmark-enable``.

The compiled core must be present unless the fallback is forced (ACP_TRANSCRIPT_NO_EXTENSIONS=1)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from acp_transcript import _decoder_py  # noqa: E402


@pytest.fixture(params=["c", "py"], scope="session")
def impl(request):
    if request.param == "py":
        return _decoder_py
    if os.environ.get("ACP_TRANSCRIPT_NO_EXTENSIONS"):
        pytest.skip("the compiled core is switched off on purpose")
    try:
        from acp_transcript import _decoder_c
    except ImportError as exc:
        pytest.fail(f"the compiled core is missing: {exc}")
    return _decoder_c
