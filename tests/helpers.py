"""Shared test helpers."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

from hypothesis import settings


def examples(count: int) -> int:
    """A property test's number of examples: ``count`` in the default profile ("ci", 100 by default), scaled
    with the profile chosen (``--hypothesis-profile=long``: a hundred times). Read when the test module is
    imported, after the profile is loaded (tests/conftest.py)."""
    return count * settings.default.max_examples // 100


def decode_chunks(decoder_class: type, chunks: Iterable[bytes], **options: object) -> str:
    decoder = decoder_class(**options)
    return "".join(decoder.decode(chunk) for chunk in chunks) + decoder.decode(b"", final=True)


def calls(module: object, chunks: Iterable[bytes], options: dict) -> tuple[list[str], dict[str, int]]:
    """Each call's output and the live window after it, then the final call's output, and the counters: what
    two decoders must agree on call by call."""
    decoder = module.TranscriptDecoder(**options)  # type: ignore[attr-defined]
    out = []
    for chunk in chunks:
        out.append(decoder.decode(chunk))
        out.append(decoder.live)
    out.append(decoder.decode(b"", final=True))
    return out, decoder.stats


def every_split(data: bytes) -> Iterable[list[bytes]]:
    """One-cut splits at every position, then one byte at a time: the libvterm way of testing a parser.
    Long inputs (hostile cases) are cut at the first and last 64 positions and a spread in between."""
    cuts = range(len(data) + 1)
    if len(data) > 256:
        cuts = sorted({*range(64), *range(len(data) - 63, len(data) + 1), *range(0, len(data), len(data) // 64)})
    for cut in cuts:
        yield [data[:cut], data[cut:]]
    if len(data) <= 4096:
        yield [data[i : i + 1] for i in range(len(data))]


def assert_transcript(impl: object, data: bytes, expected: str, **options: object) -> None:
    """``data`` gives ``expected`` in one shot and under every split (SPEC 2: chunk invariance)."""
    assert impl.sanitize(data, **options) == expected  # type: ignore[attr-defined]
    for chunks in every_split(data):
        assert decode_chunks(impl.TranscriptDecoder, chunks, **options) == expected, chunks  # type: ignore[attr-defined]


def run_in_threads(work: Callable[[], None], count: int) -> None:
    """Run ``work`` in ``count`` threads at once and wait for all of them."""
    threads = [threading.Thread(target=work) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
