"""pytest-benchmark: decoder throughput per corpus and mode, base64 chunks, and the terminal store.

    pytest benchmarks/ --benchmark-enable [--benchmark-compare]

The group is the corpus, so both implementations and the regex baseline sit side by side."""

from __future__ import annotations

import base64
import re

import pytest

from corpora import CORPORA

SIZE = 1 << 20
CHUNK = 4096
ANSI = re.compile(rb"\x1B(?:[@-Z\\-_]|\[[0-?]*[ -/]*[@-~])")
DATA = {name: make(SIZE) for name, make in CORPORA.items()}


def stream(impl, data: bytes, **options) -> str:
    decoder = impl.TranscriptDecoder(**options)
    parts = [decoder.decode(data[i : i + CHUNK]) for i in range(0, len(data), CHUNK)]
    return "".join(parts) + decoder.decode(b"", final=True)


@pytest.mark.parametrize("corpus", list(CORPORA))
@pytest.mark.parametrize("mode", ["render", "strip"])
def test_decode(benchmark, impl, corpus, mode):
    benchmark.group = f"{corpus} {mode}"
    benchmark.extra_info["MB"] = SIZE / 1e6
    out = benchmark(stream, impl, DATA[corpus], mode=mode)
    assert "\x1b" not in out


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_regex_strip_baseline(benchmark, corpus):
    benchmark.group = f"{corpus} render"
    out = benchmark(lambda data: ANSI.sub(b"", data).decode("utf-8", "replace"), DATA[corpus])
    assert out


def test_decode_base64_chunks(benchmark, impl):
    data = DATA["real captures"]
    chunks = [base64.b64encode(data[i : i + CHUNK]).decode() for i in range(0, len(data), CHUNK)]
    benchmark.group = "base64 chunks"

    def run() -> str:
        decoder = impl.TranscriptDecoder()
        return "".join(decoder.decode_base64(c) for c in chunks) + decoder.decode(b"", final=True)

    assert benchmark(run)


def test_store_replay(benchmark, impl, monkeypatch):
    from acp_transcript import TerminalStore, terminal_output_chunk, terminals

    monkeypatch.setattr(terminals, "TranscriptDecoder", impl.TranscriptDecoder)
    data = DATA["real captures"]
    updates = [terminal_output_chunk("t", data[i : i + CHUNK]) for i in range(0, len(data), CHUNK)]
    benchmark.group = "terminal store"

    def run() -> str:
        store = TerminalStore()
        for update in updates:
            store.apply(update)
        return store["t"].transcript

    assert benchmark(run)
