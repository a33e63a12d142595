"""Sized rendering (SPEC 2.8) against tmux, the reference terminal.

Two kinds of proof:

- the stored captures (``tests/captures/sized``): real programs recorded on a PTY of a known size, with
  tmux's ``capture-pane -p -J -S -`` of each, made by ``record.py`` there. Both twins must render every
  capture as tmux did, in any chunking; these need no tmux;
- random streams of the supported operations (``strategies.sized_streams``) replayed in a live tmux and
  in both twins (marked ``tmux``; skipped, with the reason, where tmux is not installed).

Transcripts are compared modulo trailing blanks (``tmux_reference.normalize``): tmux pads rows with
spaces, this package keeps none.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import examples
from strategies import sized_streams
from tmux_reference import TmuxReference, normalize

CAPTURES = Path(__file__).parent / "captures" / "sized"
NAMES = sorted(path.stem for path in CAPTURES.glob("*.json"))


def load(name: str) -> tuple[bytes, int, int, str]:
    meta = json.loads((CAPTURES / f"{name}.json").read_text())
    data = (CAPTURES / f"{name}.bin").read_bytes()
    expected = normalize((CAPTURES / f"{name}.tmux.txt").read_text(encoding="utf-8"))
    return data, meta["columns"], meta["rows"], expected


def test_every_capture_is_stored():
    assert NAMES == sorted(
        ["apt_fancy_progress", "cjk_emoji", "docker_layers", "long_line", "ls_wide", "top_refresh",
         "vim_killed", "vim_scrolled", "watch_ticks"]
    )
    for name in NAMES:
        assert (CAPTURES / f"{name}.bin").stat().st_size > 0
        assert normalize((CAPTURES / f"{name}.tmux.txt").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", NAMES)
def test_capture_renders_as_tmux(impl, name):
    data, columns, rows, expected = load(name)
    assert normalize(impl.sanitize(data, columns=columns, rows=rows)) == expected


# The captures whose layout the unsized model (SPEC 2.3) cannot know: top redraws rows by absolute address
# (its third row is rewritten in place), vim writes its status line on the last row before the file, and
# scrolls its window with a scroll region and line deletes.
NEEDS_SIZE = {"top_refresh", "vim_killed", "vim_scrolled"}


@pytest.mark.parametrize("name", NAMES)
def test_capture_unsized(impl, name):
    """What passing the size changes on real programs: the captures in NEEDS_SIZE come out wrong without
    it; on the others (wrapping joined, CUU redraws within the live window, apt's scroll region) the
    unsized model already gives tmux's transcript."""
    data, columns, rows, expected = load(name)
    unsized = normalize(impl.sanitize(data))
    assert (unsized == expected) is (name not in NEEDS_SIZE)


@settings(max_examples=examples(30), deadline=None)
@given(data=st.data())
@pytest.mark.parametrize("name", NAMES)
def test_capture_any_chunking(impl, name, data):
    stream, columns, rows, expected = load(name)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=12)))
    bounds = [0, *cuts, len(stream)]
    decoder = impl.TranscriptDecoder(columns=columns, rows=rows)
    out = "".join(decoder.decode(stream[a:b]) for a, b in zip(bounds, bounds[1:]))
    assert normalize(out + decoder.decode(b"", final=True)) == expected


@pytest.fixture(scope="module")
def tmux():
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed: the live comparison needs it (apt-get install tmux)")
    reference = TmuxReference()
    yield reference
    reference.close()


@pytest.mark.tmux
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=sized_streams())
def test_random_streams_render_as_tmux(both, tmux, case):
    """REP comes only right after ASCII in these streams: tmux 3.3a repeats only ASCII and never after a
    REP, where SPEC 2.3 (rev 2) repeats any last printed character, as xterm does."""
    data, columns, rows = case
    expected = normalize(tmux.capture(data, columns, rows))
    for impl in both:
        assert normalize(impl.sanitize(data, columns=columns, rows=rows)) == expected, impl.__name__
