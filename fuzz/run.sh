#!/usr/bin/env bash
# Fuzz the compiled core under AddressSanitizer + UndefinedBehaviorSanitizer, and run the test suite under
# the same build. One command:
#
#   fuzz/run.sh [SECONDS]        default 600; prints executions and any finding (crash-* files in fuzz/out)
#   fuzz/run.sh --tests-only     only the test suite under the sanitizers
#
# Needs clang (Debian: apt-get install clang libclang-rt-14-dev) and atheris (pip install atheris). The
# instrumented build goes to build/sanitized/ (ignored by git) and never replaces the normal one.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
seconds=${1:-600}
python=${PYTHON:-python3}
build="$root/build/sanitized"

command -v clang >/dev/null || { echo "clang is required (apt-get install clang libclang-rt-14-dev)"; exit 2; }
"$python" -c "import atheris" 2>/dev/null || { echo "atheris is required (pip install atheris)"; exit 2; }
atheris_dir=$("$python" -c "import atheris, os; print(atheris.path())")

echo "== building the core with ASan + UBSan + libFuzzer coverage into $build"
rm -rf "$build" && mkdir -p "$build"
cp -r "$root/src/acp_transcript" "$build/acp_transcript"
rm -f "$build"/acp_transcript/*.so "$build"/acp_transcript/*.c
flags="-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1"
(cd "$build" && CC=clang LDSHARED="clang -shared" CFLAGS="$flags" LDFLAGS="$flags" \
    "$python" -c "
from setuptools import setup, Extension
from Cython.Build import cythonize
setup(script_args=['build_ext', '--inplace'], ext_modules=cythonize(
    [Extension('acp_transcript._decoder_c', ['acp_transcript/_decoder_c.pyx'])],
    compiler_directives={'language_level': 3, 'boundscheck': False, 'wraparound': False, 'cdivision': True}))
" >/dev/null)

export PYTHONPATH="$build"
export LD_PRELOAD="$atheris_dir/asan_with_fuzzer.so"
# CPython's own allocations are not instrumented; leaks of the interpreter are not ours to report.
export ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

echo "== the test suite under the sanitizers"
# The CLI tests run subprocesses (not instrumented) and mypy has nothing to do with the core; the engine
# tests start worker processes and a JVM. The log is kept whole: a sanitizer report is long.
# Under pytest the reports go to files: it captures a test's stderr and loses it when the process aborts.
ASAN_OPTIONS="$ASAN_OPTIONS:log_path=$build/sanitizer" UBSAN_OPTIONS="$UBSAN_OPTIONS:log_path=$build/sanitizer" \
"$python" -m pytest -q -x -p no:cacheprovider "$root/tests" --ignore="$root/tests/test_cli.py" \
    --ignore="$root/tests/test_typing.py" --ignore="$root/tests/test_engines.py" -o addopts="" \
    > "$build/tests.log" 2>&1 || { tail -60 "$build/tests.log"; cat "$build"/sanitizer.* 2>/dev/null;
                                   echo "the test suite failed under the sanitizers"; exit 1; }
tail -1 "$build/tests.log"
[ "${1:-}" = "--tests-only" ] && exit 0

echo "== fuzzing for $seconds s (seed corpus: fuzz/seeds, from the test fixtures)"
mkdir -p "$root/fuzz/out" "$root/build/fuzz-corpus"
"$python" -c "
import sys; sys.path.insert(0, '$root/fuzz')
import harness, hashlib, pathlib
out = pathlib.Path('$root/build/fuzz-corpus')
for seed in harness.seeds():
    (out / hashlib.sha1(seed).hexdigest()).write_bytes(seed)
"
# Long inputs (past max_line_cells, so full lines are edited), the dictionary of costly sequences, and slow or
# large units as findings: a unit over 60 s, or one allocation over 1 GiB, is a bound that failed. (The whole
# process may use 4 GiB: an ASan build of CPython with atheris starts at about 1 GiB and grows with the corpus.) The Python oracle decodes every
# unit too and is the slower twin (benchmarks/README.md: bounds), so the time limit is the fallback's.
"$python" "$root/fuzz/fuzz_decoder.py" -max_total_time="$seconds" -max_len=140000 -len_control=100 \
    -dict="$root/fuzz/decoder.dict" -timeout=60 -rss_limit_mb=4096 -malloc_limit_mb=1024 -print_final_stats=1 \
    -artifact_prefix="$root/fuzz/out/" "$root/build/fuzz-corpus" > "$build/fuzz.log" 2>&1 || true
grep -E "^(#[0-9]+[[:space:]]+(INITED|DONE|pulse)|stat::|==|.*ERROR|.*runtime error|.*[Tt]imeout|.*out-of-memory)" \
    "$build/fuzz.log" || true
# A run that never started (a dictionary line libFuzzer cannot parse, a bad flag) has no INITED line: without
# this it read as "no findings" after 0 executions.
grep -qE "^#[0-9]+[[:space:]]+INITED" "$build/fuzz.log" || {
    tail -20 "$build/fuzz.log"; echo "the fuzzer did not start (log: $build/fuzz.log)"; exit 1; }
findings=$(find "$root/fuzz/out" -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*')
if [ -n "$findings" ]; then
    echo "findings:"; echo "$findings"
    # The filter above keeps libFuzzer's lines, not the harness's assertion or traceback: replay each finding
    # (same build, same environment) and show how it ends.
    for finding in $findings; do
        echo "== $finding"
        "$python" -c "
import sys; sys.path.insert(0, '$root/fuzz')
import harness
harness.check(open(sys.argv[1], 'rb').read())
print('no difference when replayed alone')
" "$finding" 2>&1 | tail -4 || true
    done
    exit 1
fi
echo "no findings"
