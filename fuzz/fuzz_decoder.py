"""Coverage-guided fuzzing of the compiled decoder with atheris (libFuzzer), checked against the fallback.

Run it through fuzz/run.sh, which builds the core with clang's AddressSanitizer, UndefinedBehaviorSanitizer
and libFuzzer coverage and preloads the matching runtime. Directly (coverage of Python code only):

    python fuzz/fuzz_decoder.py [libFuzzer flags] [CORPUS_DIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).parent))

# Coverage comes from the compiled core (built with -fsanitize=fuzzer-no-link) and the harness; the Python
# twin is the oracle, and instrumenting it would only slow every execution down.
with atheris.instrument_imports(include=["harness"]):
    import harness


def main() -> None:
    atheris.Setup(sys.argv, harness.check)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
