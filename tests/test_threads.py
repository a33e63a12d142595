"""Separate decoder and store instances are independent: they may run in parallel threads (the compiled
module declares free-threading support). One instance is not to be shared without a lock."""

from __future__ import annotations

import threading
from pathlib import Path

from helpers import run_in_threads

CAPTURES = sorted((Path(__file__).parent / "captures").glob("*.bin"))


def test_separate_decoders_in_parallel_threads(impl):
    data = b"".join(path.read_bytes() for path in CAPTURES) * 20
    expected = impl.sanitize(data)
    results: list[str] = []
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def work() -> None:
        try:
            start.wait()
            decoder = impl.TranscriptDecoder()
            parts = [decoder.decode(data[i : i + 333]) for i in range(0, len(data), 333)]
            results.append("".join(parts) + decoder.decode(b"", final=True))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    run_in_threads(work, 4)
    assert not errors
    assert results == [expected] * 4
