"""Every decoder test runs against both implementations: ``[c]`` (the Cython core) and ``[py]`` (the
fallback). A missing compiled core is a failure, never a silent skip, unless the fallback is forced on
purpose with ACP_TRANSCRIPT_NO_EXTENSIONS=1 or ``--no-c-extensions``.
"""

from __future__ import annotations

import os
import types

import pytest

from acp_transcript import _decoder_py

try:
    from acp_transcript import _decoder_c
except ImportError as exc:  # reported by the [c] tests, not here
    _decoder_c = None
    _C_IMPORT_ERROR: ImportError | None = exc
else:
    _C_IMPORT_ERROR = None

FALLBACK_FORCED = bool(os.environ.get("ACP_TRANSCRIPT_NO_EXTENSIONS"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--no-c-extensions",
        action="store_true",
        help="test only the pure-Python fallback (on purpose: the compiled core is not built)",
    )


def implementation(request: pytest.FixtureRequest, name: str) -> types.ModuleType:
    if name == "py":
        return _decoder_py
    if FALLBACK_FORCED or request.config.getoption("--no-c-extensions"):
        pytest.skip("the compiled core is switched off on purpose")
    if _decoder_c is None:
        pytest.fail(f"the compiled core acp_transcript._decoder_c is missing: {_C_IMPORT_ERROR}")
    return _decoder_c


@pytest.fixture(params=["c", "py"], scope="session")
def impl(request: pytest.FixtureRequest) -> types.ModuleType:
    """The decoder module under test: ``impl.TranscriptDecoder`` and ``impl.sanitize``."""
    return implementation(request, request.param)


@pytest.fixture(scope="session")
def both(request: pytest.FixtureRequest) -> tuple[types.ModuleType, types.ModuleType]:
    """The two implementations together, for differential tests."""
    return implementation(request, "c"), implementation(request, "py")


# Profiles: "ci" (the default) keeps the suite fast; "long" is for hunting differences between the twins, a
# hundred times the examples of every property test (a test that sets its own count asks for it through
# helpers.examples, which scales it with the profile: an explicit count no longer caps a long hunt):
#   pytest tests/test_properties.py tests/test_screen.py --hypothesis-profile=long
from hypothesis import settings  # noqa: E402

settings.register_profile("ci", max_examples=100, deadline=None)
settings.register_profile("long", max_examples=10_000, deadline=None)
settings.load_profile("ci")
