"""SPEC 6: sanitize_batch, the cached one-shot path and decoding with the GIL released."""

from __future__ import annotations


import pytest
from hypothesis import given
from hypothesis import strategies as st

from strategies import FRAGMENTS

from helpers import run_in_threads

items_strategy = st.lists(st.lists(st.sampled_from(FRAGMENTS), max_size=12).map(b"".join), max_size=20)


@given(items_strategy)
def test_batch_equals_sanitize_item_by_item(impl, items):
    assert impl.sanitize_batch(items) == [impl.sanitize(item) for item in items]


@given(items_strategy)
def test_batch_twins_agree(both, items):
    compiled, python = both
    for options in ({}, {"mode": "strip"}, {"unicode": "strict", "live_lines": 1}):
        assert compiled.sanitize_batch(items, **options) == python.sanitize_batch(items, **options)


def test_batch_items_are_independent_streams(impl):
    # an unterminated OSC, an open alternate screen, a held flag prefix: none leaks into the next item
    items = [b"\x1b]0;never ends", b"a\x1b[?1049hb", "\U0001f3f4".encode(), b"next", bytearray(b"ba"),
             memoryview(b"mv")]
    assert impl.sanitize_batch(items) == ["", "a\nb", "\U0001f3f4", "next", "ba", "mv"]
    assert impl.sanitize_batch(items, mode="strip") == [impl.sanitize(i, mode="strip") for i in items]


def test_batch_accepts_any_iterable_and_many_slices(impl):
    items = (b"\x1b[1mx%d\x1b[0m" % i for i in range(2500))  # more than one slice of the compiled batch
    assert impl.sanitize_batch(items) == ["x%d" % i for i in range(2500)]


def test_batch_slices_by_bytes_keep_every_item_in_order(impl):
    # the compiled batch also ends a slice after 256 KiB of input: items of 100 KB (one past the limit each
    # third), one longer than a slice, and small ones between them, each distinct and in order
    items = []
    for i in range(9):
        items.append(b"%d:" % i + ("\u00e9" * 50_000).encode() + b"\x1b[31m|")
        items.append(b"small %d" % i)
    items.insert(5, b"x" * 300_000)
    expected = [impl.sanitize(item) for item in items]
    assert impl.sanitize_batch(items) == expected
    assert len(set(expected)) == len(expected)  # (a lost or repeated item cannot hide among equal ones)


def test_batch_rejects_bad_items_and_options(impl):
    with pytest.raises(TypeError, match="item 1"):
        impl.sanitize_batch([b"ok", "text"])
    with pytest.raises(ValueError):
        impl.sanitize_batch([b"ok"], mode="fancy")


def test_cached_sanitize_is_a_fresh_stream_every_time(impl):
    assert impl.sanitize(b"a\x1b[?1049hhidden") == "a\nhidden"
    assert impl.sanitize(b"b") == "b"  # nothing of the last call's alternate screen
    with pytest.raises(TypeError):
        impl.sanitize("not bytes")
    assert impl.sanitize(b"\x1b[31mc") == "c"
    assert impl.sanitize(b"x\ty", tabs="expand") == "x       y"


def test_threads_decode_in_parallel_with_identical_results(impl):
    data = b"".join(b"\x1b[32mline %d\x1b[0m 10%%\r100%%\n" % i for i in range(20000))  # > GIL_FREE_BYTES
    expected = impl.sanitize(data)
    results: list[str] = []

    def work() -> None:
        results.append(impl.TranscriptDecoder().decode(data, final=True))
        results.append("".join(impl.sanitize_batch([data[:5000], data[5000:]])))

    run_in_threads(work, 4)
    assert len(results) == 8 and all(r in (expected, impl.sanitize(data[:5000]) + impl.sanitize(data[5000:]))
                                      for r in results)


def test_one_decoder_from_two_threads_is_refused_not_corrupted(both):
    compiled, _ = both
    decoder = compiled.TranscriptDecoder()
    data = b"y" * (64 << 20)
    errors: list[BaseException] = []

    def work() -> None:
        try:
            decoder.decode(data)
        except RuntimeError as exc:
            errors.append(exc)

    run_in_threads(work, 2)
    # Usually one thread finds the other inside; either way nothing crashed and the state is consistent.
    assert all("another thread" in str(e) for e in errors)
    assert decoder.decode(b"", final=True).startswith("y")
