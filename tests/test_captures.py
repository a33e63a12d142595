"""Real program output (tests/captures): the transcript a terminal shows, in any chunking, in both modes."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import decode_chunks

CAPTURES = sorted((Path(__file__).parent / "captures").glob("*.bin"))


@pytest.mark.parametrize("capture", CAPTURES, ids=lambda path: path.stem)
@pytest.mark.parametrize(("mode", "suffix"), [("render", ".txt"), ("strip", ".strip.txt")])
@pytest.mark.parametrize("chunk_size", [1, 7, 4096])
def test_capture(impl, capture, mode, suffix, chunk_size):
    data = capture.read_bytes()
    expected = capture.with_suffix(suffix).read_text(encoding="utf-8")
    chunks = [data[i : i + chunk_size] for i in range(0, len(data), chunk_size)]
    assert decode_chunks(impl.TranscriptDecoder, chunks, mode=mode) == expected


def test_captures_are_present():
    assert {path.stem for path in CAPTURES} >= {"ls_color", "git_log", "pytest_failures", "tqdm_bar", "vim_fullscreen"}


def test_progress_bar_collapses_to_its_final_frame(impl):
    data = (Path(__file__).parent / "captures" / "tqdm_bar.bin").read_bytes()
    out = impl.sanitize(data)
    assert out.count("work:") == 1
    assert "100%" in out
    assert impl.sanitize(data, mode="strip").count("work:") == 5
