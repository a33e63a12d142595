"""The character-width table of sized rendering (SPEC 2.8): one committed, generated table for both twins."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from acp_transcript import _widths
from acp_transcript._screen_py import NARROW_BELOW, char_width

ROOT = Path(__file__).resolve().parent.parent
GENERATOR = ROOT / "scripts" / "generate_widths.py"


@pytest.mark.parametrize("table", ["ZERO", "WIDE"])
def test_tables_are_sorted_disjoint_ranges(table):
    values = getattr(_widths, table)
    assert len(values) % 2 == 0
    pairs = list(zip(values[::2], values[1::2]))
    assert all(start <= end for start, end in pairs)
    assert all(end + 1 < next_start for (_, end), (next_start, _) in zip(pairs, pairs[1:]))  # merged
    assert pairs[-1][1] <= 0x10FFFF


def test_nothing_below_the_fast_path_bound_is_zero_or_wide():
    """Both twins take every code point below U+0300 as one cell without a lookup (NUL never prints)."""
    for table in (_widths.ZERO, _widths.WIDE):
        for start, end in zip(table[::2], table[1::2]):
            assert end == 0 or start >= NARROW_BELOW, (hex(start), hex(end))


@pytest.mark.parametrize(
    ("char", "width"),
    [("a", 1), ("\u00e9", 1), ("\u0301", 0), ("\u200d", 0), ("\u4e2d", 2), ("\uff21", 2), ("\U0001f600", 2),
     ("\u3000", 2), ("\U00020000", 2), ("\u2500", 1), ("\ufe0f", 0), ("\U000e0001", 0)],
)
def test_known_widths(char, width):
    assert char_width(char) == width


def boundaries() -> list[int]:
    points = set()
    for table in (_widths.ZERO, _widths.WIDE):
        for start, end in zip(table[::2], table[1::2]):
            points.update((start - 1, start, end, end + 1))
    return sorted(cp for cp in points if 0x20 < cp <= 0x10FFFF and not 0xD800 <= cp <= 0xDFFF
                  and not 0x7F <= cp <= 0x9F)


def test_twins_use_the_same_widths(both):
    """Each code point at the edge of a range, on a 3-column screen without auto-wrap: where it lands
    (joined, in the last column, or not fitting) shows in the row, so a different width in the core's
    lookup table would change the output."""
    c, py = both
    text = "".join(f"a{chr(cp)}bc\r\n" for cp in boundaries())
    data = b"\x1b[?7l" + text.encode("utf-8", "surrogatepass")
    assert c.sanitize(data, columns=3, rows=3) == py.sanitize(data, columns=3, rows=3)
    # and the three widths do give three different rows
    rows = py.sanitize(b"\x1b[?7la\xcc\x81bc\r\nazbc\r\na\xe4\xb8\xadbc", columns=3, rows=3).split("\n")
    assert len(set(rows)) == 3


def test_the_committed_table_is_what_the_generator_makes():
    """Re-run ``scripts/generate_widths.py --check`` where the wcwidth it was made from is installed (a
    development-time dependency only)."""
    if importlib.util.find_spec("wcwidth") is None:
        pytest.skip("wcwidth is not installed (pip install wcwidth to check the generated table)")
    import wcwidth

    if f"wcwidth {wcwidth.__version__}." not in _widths.__doc__:
        pytest.skip(f"the table was made from another wcwidth than the installed {wcwidth.__version__}")
    result = subprocess.run([sys.executable, str(GENERATOR), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, "src/acp_transcript/_widths.py is not what scripts/generate_widths.py makes"
