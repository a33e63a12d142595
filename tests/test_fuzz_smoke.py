"""A short differential fuzz run in the normal suite, so that regressions show up in CI: the fuzz target of
fuzz/ (both implementations side by side, the safety invariant, decode_base64 errors) over its seed corpus
and a fixed number of deterministic mutations. The long coverage-guided run is fuzz/run.sh."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))

from strategies import FRAGMENTS  # noqa: E402

MUTATIONS = 120_000  # about 40 s on the CI machine (round 42; 70 s before Screen.text skipped blank rows)


def mutate(rng: random.Random, data: bytes) -> bytes:
    data = bytearray(data[: rng.randint(3, 600)])
    for _ in range(rng.randint(1, 8)):
        choice = rng.random()
        at = rng.randint(0, len(data))
        if choice < 0.4:
            data[at:at] = rng.choice(FRAGMENTS)
        elif choice < 0.6 and data:
            data[min(at, len(data) - 1)] = rng.randrange(256)
        elif choice < 0.8:
            del data[at : at + rng.randint(1, 16)]
        else:
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    return bytes(data)


def test_seed_corpus(both):
    import harness

    for seed in harness.seeds():
        harness.check(seed)


@pytest.mark.parametrize("part", range(4))
def test_mutations(both, part):
    import harness

    rng = random.Random(part)
    seeds = harness.seeds()
    for _ in range(MUTATIONS // 4):
        harness.check(mutate(rng, rng.choice(seeds)))
