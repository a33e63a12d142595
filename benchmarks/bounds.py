"""Bounds on hostile input, measured (SPEC 2.2/2.3; tests/test_limits.py pins the same inputs small):
time linear in the input (MB/s does not fall with size), peak memory independent of the input size
(strip mode) or bounded by the live-window limits (render mode), output within a constant factor.

    python benchmarks/bounds.py [--sizes 1,10,100] [--impl c|py] [--only NAME,...] [--store 10000,100000]
                                [--line-chunk-cells N] [--per-call] [--against OLD/src] [--call BYTES]

Each measurement runs in its own process, so its peak RSS is its own; input is generated block by block
and fed in 64 KiB chunks (``--call``: another size), so the input itself never sits in memory. ``--store`` measures the layers around
the decoder (store, bridge, replay) with N items instead. ``--per-call`` adds each row's 64 KiB calls timed
one by one: the first two, then the fastest, median and slowest of the rest (a row whose first calls touch
fresh memory reads slower at 1 MB than at 10). ``--against OLD/src`` runs every row on an older build too,
right after the current one, and marks the rows that got slower: round 36 found with it that round 34 had
made text dense in characters the Unicode policy acts on 3x slower, unnoticed, because only the rows a round
worked on were run again. Run the whole table against the last round's build before calling a round done
(the core at 1 MB: about 30 seconds).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

# A 65,536-cell line cut into as many chunks as it can have (see the fragmented rows below).
FRAGMENTED = "b'x' * 65536 + b''.join(b'\\x1b[%dG\\x1b[511X' % (k + 2) for k in range(0, 65536, 513))"

CASES = {
    "unterminated OSC": ("b'\\x1b]0;'", "b'x' * 65536"),
    "5000-digit CSIs": ("b''", "(b'\\x1b[' + b'9' * 5000 + b'm') * 13"),
    "5000-param CSIs": ("b''", "(b'\\x1b[' + b'1;' * 5000 + b'm') * 6"),
    "one endless line": ("b''", "b'y' * 65536"),
    "cursor-up loops": ("b'a\\nb\\nc\\n'", "b'\\x1b[A\\x1b[Bx\\r' * 5461"),
    "huge moves (CUF)": ("b''", "b'x\\x1b[65535C' * 6553"),
    "huge repeats (REP)": ("b''", "b'x\\x1b[65535b' * 6553"),
    "huge inserts (ICH)": ("b''", "b'x\\x1b[65535@' * 6553"),
    # the same cells (max_jump) for two bytes less: the most output a byte buys at default options
    "huge moves by a 4-digit parameter (CUF 1024)": ("b''", "b'x\\x1b[1024C' * 8192"),
    "huge repeats by a 4-digit parameter (REP 1024)": ("b''", "b'x\\x1b[1024b' * 8192"),
    # the same with a character past ASCII (round 27): Latin-1 is bytes since round 28, a wide one is cells
    "huge moves after a Latin-1 character (CUF 1024)": ("b''", "'\\u00e9\\x1b[1024C'.encode() * 7281"),
    "huge repeats of a Latin-1 character (REP 1024)": ("b''", "'\\u00e9\\x1b[1024b'.encode() * 7281"),
    # (round 43, found by benchmarks/sweep.py) a character the Unicode policy shows (SPEC 2.5: U+202E is
    # "<U+202E>", eight characters) repeated: one cell a copy (SPEC 2.3), eight characters each out, 820 a byte
    "huge repeats of a bidi control (REP 1024)": ("b''", "'\\u202e\\x1b[1024b'.encode() * 6553"),
    "huge repeats of a wide character (REP 1024)": ("b''", "'\\u4e2d\\x1b[1024b'.encode() * 6553"),
    # ...and huge moves after a character the Unicode policy shows or passes (its pass over the call's text
    # went a cell at a time before round 34: 6.2-6.6 MB/s; a str of two bytes a character, output-bound)
    "huge moves after a bidi override (CUF 1024)": ("b''", "'\\u202e\\x1b[1024C'.encode() * 7281"),
    "huge moves after a zero-width joiner (CUF 1024)": ("b''", "'\\u200d\\x1b[1024C'.encode() * 7281"),
    # ...each 64 KiB call of them after one of plain text: until round 29 the output was checked after each
    # step of the input only, and a step was 64 KiB after text that made a cell a byte (27 MB of cells staged)
    "plain text then huge repeats of a wide character (alternate 64 KiB calls)": (
        "b''", "(b'plain text line of a log, nothing special here\\n' * 1400)[:65536]"
               " + ('\\u4e2d\\x1b[1024b'.encode() * 6554)[:65536]"),
    "tabs": ("b''", "b'x\\t' * 32768"),
    # (round 45, the fallback's sweep) a line of a tab, and tab-indented lines: each line after a tab was a run
    # of its own in the fallback (0.43 and 3.4 MB/s), the tabbed run now goes on across line feeds
    "lines of a tab": ("b''", "b'\\t\\n' * 32768"),
    "tab-indented lines": ("b''", "b'\\tfoo = bar(baz)\\r\\n' * 3855"),
    # (round 46) LF CR line endings: each CR after an LF was a run and a CR of its own in the fallback (0.74-1.0
    # MB/s, 10-40x under CR LF), until its text runs took it (_parser_py._LINE_RUN)
    "lines ending LF CR": ("b''", "b'hello world\\n\\r' * 5041"),
    "sized 80x24: lines of x ending LF CR": ("b''", "b'x\\n\\r' * 21845"),
    # the hostile rows of the security audit (README: Security); each block is repeated to the size
    "dense U+202E": ("b''", "'a\\u202eb'.encode() * 13107"),
    "dense U+2028 + tags": ("b''", "('\\u2028x\\U000e0041'.encode()) * 8192"),
    "random binary": ("b''", "__import__('random').Random(1).randbytes(1 << 20)"),
    "text + invalid UTF-8": ("b''", "b'hello \\xff\\xfe world \\xc3( ' * 3277"),
    "REP full line + CR": ("b'x' * 65536", "b'x\\x1b[65535b\\r' * 6553"),
    "EL 1 near the end of a full line": ("b'x' * 65536 + b'\\x1b[65000G'", "b'\\x1b[1K' * 16384"),
    "ECH at column 0 of a full line": ("b'x' * 65536 + b'\\r'", "b'\\x1b[65535X' * 8192"),
    "ICH at column 0 of a full line": ("b'x' * 65536 + b'\\r'", "b'\\x1b[1@' * 16384"),
    "DCH at column 0 of a full line": ("b'x' * 65536 + b'\\r'", "b'\\x1b[1P' * 16384"),
    # (round 35) an erase leaves the cursor where it was: a line erased under it was padded up to the cursor
    # again at the next character or tab (the core: 2.7-3.5 MB/s, 27 for HT), and the fallback counted a
    # long range a character at a time when it held one written cell (0.7)
    "a character far out then EL 2 (the cursor stays)": ("b''", "b'\\x1b[1024Cx\\x1b[2K' * 8192"),
    "a wide character far out then EL 2": ("b''", "'\\x1b[1024C\\u4e2d\\x1b[2K'.encode() * 7281"),
    "HT then EL 1 (the cursor stays)": ("b''", "b'\\t\\x1b[1K' * 16384"),
    # (round 59, the core's sweep) a character then EL 1 as the column walks right: past a chunk's size, the cut
    # freed a literal chunk and the next character allocated one (malloc and free: 30% of the instructions)
    "x then EL 1 (the column walks right)": ("b''", "b'x\\x1b[1K' * 13107"),
    "a wide character then EL 1 (the column walks right)": ("b''", "'\\u4e2d\\x1b[1K'.encode() * 9362"),
    "x at column 0 then EL 1 near the end of a full line": (
        "b'x' * 65536 + b'\\r'", "b'x\\x1b[65000G\\x1b[1K\\r' * 5041"),
    # ...and lines of huge moves pushed out of the alternate window: counted, not output (a byte at a time
    # in the core before round 35: 42.7 MB/s)
    "huge moves on the alternate screen (CUF 1024)": ("b'\\x1b[?1049h'", "b'x\\x1b[1024C' * 8192"),
    "huge moves after a wide character on the alternate screen (CUF 1024)": (
        "b'\\x1b[?1049h'", "'\\u4e2d\\x1b[1024C'.encode() * 7281"),
    # long lines are chunks once edited (_chunks_c.pxi): the worst case for them is the most chunks a line can
    # hold (a fill of 511 blanks after every 513th cell) and edits far from where the walk to a column starts
    "REP of x then y over a full line + CR": ("b'x' * 65536", "b'x\\x1b[65535b\\ry\\x1b[65535b\\r' * 3277"),
    "ICH then x at column 0 of a line kept full": ("b'x' * 65536 + b'\\r'", "b'\\x1b[@x\\r' * 13107"),
    "ECH near the end of a fragmented line": (FRAGMENTED, "b'\\x1b[65400G\\x1b[X' * 8192"),
    "ICH in the middle of a fragmented line": (FRAGMENTED, "b'\\x1b[32768G\\x1b[@' * 8192"),
    "edits at the thirds of a fragmented line": (FRAGMENTED, "b'\\x1b[21845Gx\\x1b[700b\\x1b[43690G\\x1b[X' * 4096"),
    "text over the middle of a fragmented line": (FRAGMENTED, "b'\\x1b[32768Gab' * 8192"),
    "LF flood (live_lines=2**40)": ("b''", "b'\\n' * 65536"),
    # sized rendering (SPEC 2.8): a line insert, delete or region scroll rotates a range of the screen's row
    # order (4 bytes a row), from the nearer end of the screen (_screen_c.pxi, screen_rotate): O(1) at the top
    # or bottom of the screen, O(rows / 2) at its middle, the worst case
    "sized 80x1000: LF at the bottom": ("b'\\x1b[1000;1Hx'", "b'\\n' * 65536"),
    "sized 80x1000: IL at row 2 of full rows": ("b''.join(b'\\x1b[%d;1Hx' % y for y in range(1, 1001)) + b'\\x1b[2;1H'",
                                               "b'\\x1b[L' * 21845"),
    "sized 80x1000: IL at the middle row of full rows": (
        "b''.join(b'\\x1b[%d;1Hx' % y for y in range(1, 1001)) + b'\\x1b[500;1H'", "b'\\x1b[L' * 21845"),
    "sized 80x1000: DL at the middle row of full rows": (
        "b''.join(b'\\x1b[%d;1Hx' % y for y in range(1, 1001)) + b'\\x1b[500;1H'", "b'\\x1b[M' * 21845"),
    "sized 80x1000: SU in the middle half": ("b'\\x1b[250;750r'", "b'\\x1b[S' * 21845"),
    "sized 80x1000: RI at the top": ("b'\\x1b[1;1H'", "b'\\x1bM' * 32768"),
    # a region inside the screen scrolls without rotating it each time (_screen_c.pxi, scroll_up_lagged)
    "sized 80x1000: SD in the middle half": ("b'\\x1b[250;750r'", "b'\\x1b[T' * 21845"),
    "sized 80x1000: RI at the top of the middle half": ("b'\\x1b[250;750r\\x1b[250;1H'", "b'\\x1bM' * 32768"),
    "sized 80x1000: x and LF at the bottom of the middle half": ("b'\\x1b[250;750r\\x1b[750;1H'", "b'x\\n' * 32768"),
    # ...and then a sequence that left the lagged scroll for later only since round 37 (settles_lag)
    "sized 80x1000: x and LF and ESC 7 at the bottom of the middle half": (
        "b'\\x1b[250;750r\\x1b[750;1H'", "b'x\\n\\x1b7' * 16384"),
    # ...and an erase of the cursor's row, which settled until round 38 (settles_lag)
    "sized 80x1000: x and LF and EL at the bottom of the middle half": (
        "b'\\x1b[250;750r\\x1b[750;1H'", "b'x\\n\\x1b[K' * 13107"),
    "sized 80x1000: x and LF and ESC 7 at the bottom": ("b'\\x1b[1000;1H'", "b'x\\n\\x1b7' * 16384"),
    # every row of the region leaves per sequence (500 rows for 7 bytes): SU commits them (output-bound, as
    # huge moves), SD loses them
    "sized 80x1000: x and SU 999 in the middle half": ("b'\\x1b[250;750r'", "b'x\\x1b[999S' * 9362"),
    "sized 80x1000: x and SD 999 in the middle half": ("b'\\x1b[250;750r'", "b'x\\x1b[999T' * 9362"),
    # ...and of the whole screen, where the cursor reaches the last row (the busy range then spans the screen):
    # SU and SD n are n scrolls at once (scroll_up, scroll_down: the rows that leave in runs, one rotation)
    "sized 80x1000: x and SU 999 on the whole screen": ("b''", "b'x\\x1b[999S' * 9362"),
    "sized 80x1000: x and SD 999 on the whole screen": ("b''", "b'x\\x1b[999T' * 9362"),
    "sized 80x1000: x and SU 999 on the alternate screen": ("b'\\x1b[?1049h'", "b'x\\x1b[999S' * 9362"),
    # erases of the whole screen visit only the rows that may hold something (Screen.busy_top/busy_bottom)
    # the alternate screen entered and left again and again: a new screen and a look at each of its rows made
    # each switch O(rows) in both twins (round 33: the screen left is emptied where it holds something and kept)
    "sized 80x1000: CSI ? 1049 h then l": ("b''", "b'\\x1b[?1049h\\x1b[?1049l' * 65536"),
    "sized 80x1000: CSI ? 1049 h then x on the last row then CSI ? 1049 l": (
        "b''", "b'\\x1b[?1049h\\x1b[1000;1Hx\\x1b[?1049l' * 43690"),
    "sized 80x1000: ED 0 from the top": ("b''", "b'\\x1b[H\\x1b[J' * 10922"),
    "sized 80x1000: ED 2": ("b''", "b'\\x1b[2J' * 16384"),
    # ...which an attacker keeps wide with a character near each end: every row between is visited (ED 0), or
    # scrolled into the history as a line each (ED 2 on the main screen, as tmux does: output-bound)
    "sized 80x1000: x on rows 2 and 1000 then ED 0 from row 2": (
        "b''", "b'\\x1b[2;1Hx\\x1b[1000;1Hx\\x1b[2;1H\\x1b[J' * 2520"),
    "sized 80x1000: x on the last row then ED 2": ("b''", "b'\\x1b[1000;1Hx\\x1b[2J' * 4681"),
    # one column (the narrowest size an agent can declare): each character a row, wrapped, scrolled to the
    # history; a line longer than a chunk of input goes row by row in the fallback (put_lines takes whole
    # lines only). A miss of its target, kept measured (round 34)
    "sized 1x24: lines of 100000 characters": ("b''", "b'x' * 100000 + b'\\n'"),
    # (round 44) frames after a CR that the next covers, skipped on a sized screen too (fold_frames): a typed
    # character, and a progress bar of blocks and ASCII
    "sized 80x24: x then CR": ("b''", "b'x\\r' * 32768"),
    "sized 80x24: a bar of blocks redrawn after CR": ("b''", "'\\r\\u2588\\u2588\\u2588      | 30% 1.2MB/s'.encode() * 2340"),
    # rows of a character past 0xAC that is not wide, by REP (a rule of box drawing, a row of é): cell by cell
    # on their way out before round 35 (37.8 and 57 MB/s)
    "sized 80x24: a row of a Latin-1 letter by REP then LF": ("b''", "'\\u00e9\\x1b[79b\\n'.encode() * 8192"),
    "sized 80x24: a rule of box drawing by REP then LF": ("b''", "'\\u2500\\x1b[79b\\n'.encode() * 7281"),
    # ...and of an emoji, which went through the Unicode policy's note a cell at a time before round 35
    "sized 80x24: a row of an emoji by REP then LF": ("b''", "'\\U0001f600\\x1b[79b\\n'.encode() * 6553"),
    # (round 36) text dense in characters the policy acts on, through a sized row's text (round 34's block copy
    # retested a block for each of them: 37 MB/s)
    "sized 80x24: dense U+202E": ("b''", "'a\\u202eb'.encode() * 13107"),
    # ...and a small max_live_cells on a tall screen: every write past it (round 34, as above)
    "sized 80x1000 (max_live_cells=100): REP 1024 then LF": ("b''", "b'x\\x1b[1024b\\n' * 7281"),
    "sized 80x65535: IL at row 2 of full rows": ("b''.join(b'\\x1b[%d;1Hx' % y for y in range(1, 65536)) + b'\\x1b[2;1H'",
                                                "b'\\x1b[L' * 21845"),
    # ...DL there, and RI at the top: the fallback moves the rows above over spare entries (round 33)
    "sized 80x65535: DL at row 2 of full rows": ("b''.join(b'\\x1b[%d;1Hx' % y for y in range(1, 65536)) + b'\\x1b[2;1H'",
                                                "b'\\x1b[M' * 21845"),
    "sized 80x65535: RI at the top": ("b'\\x1b[1;1H'", "b'\\x1bM' * 32768"),
    # ...and in the middle, where neither twin's flat row order has a short side: a move shifts half the
    # screen (32,767 row slots in the core, entries of five sequences in the fallback). Misses of both targets,
    # kept measured: TerminalStore renders at most max_rows=1000 rows (benchmarks/README.md, round 33)
    "sized 80x65535: IL at the middle row of full rows": (
        "b''.join(b'\\x1b[%d;1Hx' % y for y in range(1, 65536)) + b'\\x1b[32768;1H'", "b'\\x1b[L' * 21845"),
    "sized 80x65535: DL at the middle row of full rows": (
        "b''.join(b'\\x1b[%d;1Hx' % y for y in range(1, 65536)) + b'\\x1b[32768;1H'", "b'\\x1b[M' * 21845"),
    # a line feed at the bottom of a region in the middle is a lagged scroll in the core (round 12), but the
    # next sequence that is not one settled it with a rotation of the region: ESC 7 and cursor moves did
    # until round 37, erases and edits of the cursor's row and mode flags until round 38 (settles_lag),
    # IL and DL on the region's last row until round 39. The fallback lags such line
    # feeds since round 39 (its rows held aside: _screen_py.scroll_up_lagged); text on another row of the
    # region settles it (the last row here, a miss), where the core writes it through its rotation
    "sized 80x65535: x and LF and ESC 7 at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "b'x\\n\\x1b7' * 16384"),
    "sized 80x65535: x and LF and CUF at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "b'x\\n\\x1b[C' * 13107"),
    "sized 80x65535: x and LF and EL at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "b'x\\n\\x1b[K' * 13107"),
    "sized 80x65535: x and LF and DCH at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "b'x\\n\\x1b[P' * 13107"),
    "sized 80x65535: x and LF and ICH at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "b'x\\n\\x1b[@' * 13107"),
    "sized 80x65535: x and LF and CSI ? 25 l at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "b'x\\n\\x1b[?25l' * 8738"),
    "sized 80x65535: x and LF and IL at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "b'x\\n\\x1b[L' * 13107"),
    "sized 80x65535: x and LF and a cursor move up and back at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "b'x\\n\\x1b[A\\x1b[B' * 8192"),
    "sized 80x65535: x and LF at the bottom of the middle half and y on the row above": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "b'x\\n\\x1b[Ay\\x1b[B' * 7282"),
    # (round 39) full lines there: past 13,108 of them the live cells stay at max_live_cells, and each write past
    # it commits the topmost row, which settled the core's lag (35-38 MB/s) until enforce_limits read the rows
    # through it
    "sized 80x65535: full lines at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "(b'x' * 79 + b'\\n') * 819"),
    # (round 40) lines longer than the row there: the core settled its lag at each line, then rotated the
    # region at the wrap (21-25 MB/s), until ASCII text wrapped through the lag (wrap_through_lag)
    "sized 80x65535: lines of 100 at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "(b'x' * 99 + b'\\n') * 656"),
    # (round 45) lines of characters that are not ASCII there: the core settled its lag at each line's print
    # (1.8 MB/s for e-acute LF; the fallback's lag never moves the cursor's row: 3.1), until text that stays on
    # the cursor's row went through it as ASCII does (cursor_row, wrap_text)
    "sized 80x65535: lines of e-acute at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "'\\u00e9\\n'.encode() * 21845"),
    "sized 80x65535: lines of CJK at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "'\\u4e2d\\u6587\\u5b57\\n'.encode() * 6553"),
    # (round 45, a sweep of what follows x and LF there) BS, REP of such a character and ED 0 settled the lag too
    # (1.8, 4.8 and 3.1 MB/s): BS at column 0 reads the row above where the lag left it, REP's copies stay on the
    # cursor's row, ED 0 on the region's last row clears that row and the rows below the region
    "sized 80x65535: x and LF and BS at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "b'x\\n\\x08' * 21845"),
    "sized 80x65535: x and LF and e-acute REP 3 at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "'x\\n\\u00e9\\x1b[3b'.encode() * 7281"),
    "sized 80x65535: x and LF and ED 0 at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "b'x\\n\\x1b[J' * 13107"),
    "sized 80x65535: x and LF and ED 1 at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "b'x\\n\\x1b[1J' * 10923"),
    # (round 45, sweep.py --shapes 80x65535 --states region) a wide character's wrap there rotated the region
    # (put_char wrapped as linefeed does: 5.9 MB/s), HTS (ESC H) settled the lag (2.5)
    "sized 80x65535: a wide character then CUF 1024 at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "'\\u4e2d\\x1b[1024C'.encode() * 6553"),
    "sized 80x65535: x and LF and HTS at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "b'x\\n\\x1bH' * 16384"),
    # (round 46, the same sweep of what follows x and LF there) these settled the lag (a rotation of half the
    # screen's row slots): DECSTBM of the same region, insert mode, a wide character's REP, a space's REP with
    # auto-wrap off, ED 0 and ED 1 on the row above the last, a screen switch; the core keeps it now
    "sized 80x65535: x and LF and DECSTBM of the same region at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "b'x\\n\\x1b[16384;49151r\\x1b[49151;1H' * 2621"),
    "sized 80x65535: x and LF in insert mode at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H\\x1b[4h'", "b'x\\n' * 32768"),
    "sized 80x65535: x and LF and a wide character REP 3 at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "'x\\n\\u4e2d\\x1b[3b'.encode() * 6553"),
    "sized 80x65535: x and LF and ED 0 on the row above at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "b'x\\n\\x1b[A\\x1b[J\\x1b[B' * 5957"),
    "sized 80x65535: x and LF and ED 1 on the row above at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "b'x\\n\\x1b[A\\x1b[1J\\x1b[B' * 5461"),
    "sized 80x65535: x and LF and a screen switch at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "b'x\\n\\x1b[?1049h\\x1b[?1049l' * 3640"),
    "sized 80x1000: x and LF and ED 2 at the bottom of the middle half": (
        "b'\\x1b[250;750r\\x1b[750;1H'", "b'x\\n\\x1b[2J' * 10923"),
    # (round 46) past max_live_cells there, each line commits the region's oldest row, and the scan read every
    # row committed before (8.2 MB/s), until the rows it passes became the hole; x then IND leaves a blank
    # wrapped row every 81 lines, which breaks that run (5.9; round 47: the runs of rows with no cells the
    # scan passed are kept, Screen.bare)
    "sized 80x65535: x and REP 79 at the bottom of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "b'x\\x1b[79b' * 10923"),
    "sized 80x65535: x and IND at the bottom of the middle half (the column walks right)": (
        "b'\\x1b[16384;49151r\\x1b[49151;1H'", "b'x\\x1bD' * 21845"),
    # (round 47) the same at the bottom of the whole screen: the scan starts at the busy range's top, and each
    # blank wrapped row stops it there (1.3 MB/s) until the runs of rows with no cells it passed were kept
    "sized 80x65535: x and IND at the bottom (the column walks right)": ("b'\\x1b[65535;1H'", "b'x\\x1bD' * 21845"),
    # (round 40) a log at the bottom of the whole screen, past max_live_cells (17,190 lines of 61 cells; the
    # REP lines reach it at 1 MB): each line commits the topmost row, and the core's scan for it read every
    # row emptied before (30 and 2.6-3.5 MB/s at 10 MB), until a commit from the busy range's top moved it
    "sized 80x65535: lines of 61 at the bottom": ("b'\\x1b[65535;1H'", "(b'x' * 61 + b'\\n') * 1040"),
    "sized 80x65535: x then REP 60 then LF at the bottom": ("b'\\x1b[65535;1H'", "b'x\\x1b[60b\\n' * 10923"),
    # (round 40, a miss in both builds) the same with a combining mark on every cell: 1 Mi marks live at the
    # limit, each line's row committed with its marks and the pool compacted over the whole screen (round 41:
    # in place, its entries 28 bytes)
    "sized 80x65535: lines of e and a combining mark at the bottom": (
        "b'\\x1b[65535;1H'", "(b'e\\xcc\\x81' * 30 + b'\\n') * 720"),
    # (round 39) RI at the region's top: the core lags it (scroll_down_lagged), the fallback does not (a miss,
    # as round 33's rows were); x then RI leaves one x a row at a column that walks right, which fills the
    # screen up to max_live_cells
    "sized 80x65535: RI at the top of the middle half": (
        "b'\\x1b[16384;49151r\\x1b[16384;1H'", "b'\\x1bM' * 32768"),
    "sized 80x65535: x then RI at the top of the middle half (the column walks right)": (
        "b'\\x1b[16384;49151r\\x1b[16384;1H'", "b'x\\x1bM' * 21845"),
    # every row written: past max_live_cells (1 Mi cells, 13,108 rows of 80) the topmost rows go to the
    # history, and each write past it read all the rows emptied before (round 34: 1.9 MB/s in the core, 0.08
    # in the fallback); now the rows that may hold something
    "sized 80x65535: every row written past max_live_cells": (
        "b''", "b''.join(b'\\x1b[%d;1H' % y + b'x' * 80 for y in range(1, 65536))"),
    "sized 80x65535: CSI ? 1049 h then l": ("b''", "b'\\x1b[?1049h\\x1b[?1049l' * 65536"),
    # the whole screen rotated by a few rows: SU 2, and ED 2 after a row near the top (its rows to the history,
    # the rest up: tmux's scroll-on-clear)
    "sized 80x65535: x and SU 2 on the whole screen": ("b''", "b'\\x1b[1;1Hx\\x1b[2S' * 37449"),
    "sized 80x65535: x on row 2 then ED 2": ("b''", "b'\\x1b[2;1Hx\\x1b[2J' * 32768"),
    "sized 80x65535: LF at the bottom": ("b'\\x1b[65535;1Hx'", "b'\\n' * 65536"),
    # the fallback takes runs of lines at the bottom many at a time (put_lines): one line a run is what
    # an attacker sends against that, a scroll of the whole tall screen per 3 bytes
    "sized 80x65535: LF and ESC 7 at the bottom": ("b'\\x1b[65535;1Hx'", "b'\\n\\x1b7' * 21845"),
    # a sized row is a flat array of cells until an edit would rewrite more than a chunk (512 cells) of it,
    # then chunks (round 19); the store renders agent sizes at most max_columns=1000 wide, 65,535 is the
    # widest the API allows (the 65535x24 rows below)
    # (round 35) REP of a zero-width character: every copy joins the cell before the cursor, 1,000 of them a
    # sequence at 1000 columns (2.6-3.3 MB/s in the core, 0.46-0.56 in the fallback before round 35)
    "sized 1000x24: REP of a combining mark then CR": ("b''", "'\\u0915\\u093f\\x1b[1024b\\r'.encode() * 5041"),
    # (round 46, the fallback's sweep) the copies after the first were a combine each in the fallback (0.59-0.67
    # MB/s), until they joined the cell at once (combine's copies); in the core, through print_cps and put_char
    # each, until round 56 (the core's sweep: 41-48 MB/s at every shape, 23-34 in insert mode at 1000 columns)
    "sized 80x24: e and a combining mark then REP 79": ("b''", "'e\\u0301\\x1b[79b'.encode() * 8192"),
    "sized 80x24: e and a combining mark then REP 79 + LF": ("b''", "'e\\u0301\\x1b[79b\\n'.encode() * 7281"),
    "sized 1000x24: insert mode: e and a combining mark then REP 79 + CR": (
        "b'\\x1b[4h'", "'e\\u0301\\x1b[79b\\r'.encode() * 7281"),
    # (round 58, the core's sweep) without the REP: each marked cell has a mark of its own, so the row is literal
    # chunks that each insert moves, and combine read the cell it joins three times, a walk of the chunks each
    "sized 1000x24: insert mode: e and a combining mark then CR": ("b'\\x1b[4h'", "'e\\u0301\\r'.encode() * 16384"),
    "sized 1000x24: REP of a bidi control then CR": ("b''", "'\\u202e\\x1b[1024b\\r'.encode() * 6553"),
    # (round 35, a miss) IL or RI do not move the cursor's column: x then IL writes each x one column further
    # on a new row, whose blanks before it are cells (padded, then counted when the row is lost)
    # (round 43, found by benchmarks/sweep.py) insert mode: each character an insert at the cursor that moved the
    # rest of the row (put_char), REP's copies too: 0.1 MB/s in the core, 0.002 in the fallback
    "sized 1000x24: insert mode: x then REP 1024 then CR": ("b'\\x1b[4h'", "b'x\\x1b[1024b\\r' * 7281"),
    "sized 1000x24: insert mode: a wide character then REP 1024 then CR": (
        "b'\\x1b[4h'", "'\\u4e2d\\x1b[1024b\\r'.encode() * 6553"),
    "sized 1000x24: insert mode: lines of 999 over a full row": ("b'x' * 1000 + b'\\r\\x1b[4h'",
                                                                 "(b'y' * 999 + b'\\r') * 65"),
    "sized 80x1000: insert mode: x then CR": ("b'\\x1b[4h'", "b'x\\r' * 32768"),
    # (round 45, the sweep) a character typed in insert mode: at the last column its insert's clear trimmed a
    # full row that its write padded out again; before it, the insert, the look for padding and the write each
    # found the row's chunk again (insert_char makes them one edit)
    "sized 1000x24: insert mode: x then CUF 1024 (the last column)": ("b'\\x1b[4h'", "b'x\\x1b[1024C' * 9362"),
    "sized 1000x24: insert mode: x then BS at column 0 of a full row": ("b'\\x1b[4h'", "b'x\\x08' * 32768"),
    "sized 1000x24: insert mode: letters in turn then BS at column 0 of a full row": (
        "b'\\x1b[4h'", "b''.join(bytes([97 + i % 26]) + b'\\x08' for i in range(32768))"),
    "sized 1000x24: insert mode: a wide character then REP 79 then CR": (
        "b'\\x1b[4h'", "'\\u4e2d\\x1b[79b\\r'.encode() * 8192"),
    # (round 57, the core's sweep) the character's insert opened blanks that its write then filled, and the
    # blanks joined the fills beside them into literal chunks that every insert after them moved (the row above:
    # 34-35 MB/s, 494 instructions a byte; x 45, 393); the insert opens the character's fill (insert_fill)
    "sized 1000x24: insert mode: x then REP 79 then CR": ("b'\\x1b[4h'", "b'x\\x1b[79b\\r' * 8192"),
    "sized 1000x24: insert mode: an emoji then REP 79 then CR": (
        "b'\\x1b[4h'", "'\\U0001f600\\x1b[79b\\r'.encode() * 8192"),
    # (round 43, the sweep) a wide character then BS: each write blanks the pair before it, the row trimmed to
    # nothing and the next write padded it back to the cursor, O(columns) each time (round 44: no trim when a
    # write follows; the fallback writes the blank and the pair at once)
    "sized 1000x24: a wide character then BS (the column walks right)": ("b''", "'\\u4e2d\\x08'.encode() * 16384"),
    # (round 44, the sweep) an erase of the row up to the cursor: the trim scanned every blank back to column 0,
    # and the next character pads the row back out to the cursor
    "sized 1000x24: x then EL 1 (the column walks right)": ("b''", "b'x\\x1b[1K' * 13107"),
    "sized 1000x24: x then ED 1 (the column walks right)": ("b''", "b'x\\x1b[1J' * 13107"),
    "sized 1000x24: x then IL (the column walks right)": ("b''", "b'x\\x1b[L' * 16384"),
    "sized 1000x24: x then RI at the top (the column walks right)": ("b''", "b'x\\x1bM' * 21845"),
    # (round 57, the core's sweep) ...and with auto-wrap off, where the column stops at the last one: each new
    # row padded 999 blanks before its x, a 4 KB memset (37-49 MB/s for RI, IL, DL and SD); a row emptied for
    # reuse keeps the blanks its lead held in its buffer, and the next write pads only past them (Row.zeroed)
    "sized 1000x24: auto-wrap off: x then RI at the top": ("b'\\x1b[?7l'", "b'x\\x1bM' * 21845"),
    "sized 1000x24: auto-wrap off: x then IL": ("b'\\x1b[?7l'", "b'x\\x1b[L' * 16384"),
    "sized 1000x24: auto-wrap off: x then DL": ("b'\\x1b[?7l'", "b'x\\x1b[M' * 16384"),
    "sized 1000x24: auto-wrap off: x then SD": ("b'\\x1b[?7l'", "b'x\\x1b[T' * 16384"),
    "sized 1000x24: REP full row + CR": ("b'x' * 1000 + b'\\r'", "b'x\\x1b[65535b\\r' * 6553"),
    "sized 1000x24: EL 1 near the end of a full row": ("b'x' * 1000 + b'\\x1b[990G'", "b'\\x1b[1K' * 16384"),
    # a row remembers the blanks it starts with (EL 1 again costs nothing): a character at column 0 first
    "sized 1000x24: x at column 0 then EL 1 near the end of a full row": (
        "b'x' * 1000 + b'\\r'", "b'x\\x1b[990G\\x1b[1K\\r' * 5041"),
    "sized 1000x24: ECH at column 0 of a full row": ("b'x' * 1000 + b'\\r'", "b'\\x1b[65535X' * 8192"),
    "sized 1000x24: ICH at column 0 of a full row": ("b'x' * 1000 + b'\\r'", "b'\\x1b[1@' * 16384"),
    "sized 1000x24: DCH at column 0 of a full row": ("b'x' * 1000 + b'\\r'", "b'\\x1b[1P' * 16384"),
    "sized 1000x24: ICH then x at column 0 of a row kept full": ("b'x' * 1000 + b'\\r'", "b'\\x1b[@x\\r' * 13107"),
    # REP of a character that is not ASCII: a one-cell one is a fill (fill_run), a wide one writes a row's
    # worth of pairs at a time (put_run, round 20) and wraps (output-bound: 42 output characters a byte here,
    # 2,473 at 65,535 columns, left out); both were O(columns^2) before round 19 (the run's end searched
    # again a character: 0.6 s a sequence)
    "sized 1000x24: REP of a wide character over a row of them + CR": (
        "'\\u4e2d'.encode() * 500 + b'\\r'", "'\\u4e2d\\x1b[65535b\\r'.encode() * 6553"),
    # (round 44, the fallback's sweep) an astral wide character: the fallback's search for stray padding in
    # the shorter row the wrapped REP left tried an astral class at each padding cell
    "sized 1000x24: REP of an emoji over a row of them + CR": (
        "'\\U0001f600'.encode() * 500 + b'\\r'", "'\\U0001f600\\x1b[65535b\\r'.encode() * 5041"),
    "sized 1000x24: REP of e-acute over a row of wide characters + CR": (
        "'\\u4e2d'.encode() * 500 + b'\\r'", "'\\u00e9\\x1b[65535b\\r'.encode() * 6553"),
    # (round 56, the core's sweep) the same on the alternate screen, where nothing is output: 29-33 MB/s, of which
    # a fifth wrote the thousand copies put_run reads, where pair_fill's fills of pairs wrote every row
    "sized 1000x24: REP of a wide character + CR on the alternate screen": (
        "b'\\x1b[?1049h'", "'\\u4e2d\\x1b[1024b\\r'.encode() * 6553"),
    # (round 58, the core's sweep) with a line feed, or x for the wide character: two rows a line become chunks
    # and two are emptied, and malloc and free were 31% of the instructions (42-51 MB/s; ChunkSpares)
    "sized 1000x24: REP of a wide character + LF on the alternate screen": (
        "b'\\x1b[?1049h'", "'\\u4e2d\\x1b[1024b\\n'.encode() * 5957"),
    "sized 1000x24: x then REP 1024 on the alternate screen": ("b'\\x1b[?1049h'", "b'x\\x1b[1024b' * 7281"),
    # auto-wrap off (DECAWM, CSI ? 7 l): text past the last column is written there one character over the
    # other, and REP (up to the margin) was a put_char a character in both twins (round 34: found by timing
    # the fuzz corpus unit by unit); now the last of a run, and fills. REP of a space stays put_char's (a space
    # on a blank cell writes nothing, so it is no fill): a miss of both targets, kept measured
    "sized 1000x24: auto-wrap off: REP full row + CR": ("b'\\x1b[?7l' + b'x' * 1000 + b'\\r'", "b'x\\x1b[65535b\\r' * 6553"),
    "sized 1000x24: auto-wrap off: lines of 4 KiB": ("b'\\x1b[?7l'", "(b'x' * 4095 + b'\\n') * 16"),
    "sized 1000x24: auto-wrap off: REP of a wide character + CR": (
        "b'\\x1b[?7l'", "'\\u4e2d\\x1b[65535b\\r'.encode() * 6553"),
    # (round 36, a miss) the same row with REP of x and REP of a wide character in turn: each writes the whole
    # row, the wide one as literal pairs in the row's chunks, which the next fill of x scans
    "sized 1000x24: auto-wrap off: REP of x then of a wide character + CR": (
        "b'\\x1b[?7l'", "'x\\x1b[65535b\\r\\u4e2d\\x1b[65535b\\r'.encode() * 2978"),
    "sized 1000x24: auto-wrap off: REP of a space over a row + CR": (
        "b'\\x1b[?7l' + b'x' * 1000 + b'\\r'", "b' \\x1b[65535b\\r' * 6553"),
    # (round 55, the core's sweep) REP of a row's worth over the row it filled, at 80 columns: clean_take's look
    # at each cell it writes over, 311 instructions a byte (62 MB/s), where auto-wrap on read 110
    "sized 80x24: auto-wrap off: x and REP 79 + CR": ("b'\\x1b[?7l'", "b'x\\x1b[79b\\r' * 9362"),
    "sized 80x24: e-acute and REP 79 + CR": ("b''", "'\\u00e9\\x1b[79b\\r'.encode() * 8192"),
    # a sized row is chunks once an edit would rewrite more than a chunk of it (round 19), as the window's
    # long lines: the issue's rows at the widest row the API allows
    "sized 65535x24: REP full row + CR": ("b'x' * 65535 + b'\\r'", "b'x\\x1b[65535b\\r' * 6553"),
    "sized 65535x24: REP of x then y over a full row + CR": (
        "b'x' * 65535 + b'\\r'", "b'x\\x1b[65535b\\ry\\x1b[65535b\\r' * 3277"),
    "sized 65535x24: x at column 0 then EL 1 near the end of a full row": (
        "b'x' * 65535 + b'\\r'", "b'x\\x1b[65000G\\x1b[1K\\r' * 4681"),
    "sized 65535x24: ECH at column 0 of a full row": ("b'x' * 65535 + b'\\r'", "b'\\x1b[65535X' * 8192"),
    "sized 65535x24: ICH at column 0 of a full row": ("b'x' * 65535 + b'\\r'", "b'\\x1b[1@' * 16384"),
    "sized 65535x24: DCH at column 0 of a full row": ("b'x' * 65535 + b'\\r'", "b'\\x1b[1P' * 16384"),
    "sized 65535x24: ICH then x at column 0 of a row kept full": ("b'x' * 65535 + b'\\r'", "b'\\x1b[@x\\r' * 13107"),
    # ICH of more than half the row: the two ranges do not overlap, the chunks are cut and rearranged
    "sized 65535x24: ICH 40000 at column 0 of a full row": ("b'x' * 65535 + b'\\r'", "b'x\\x1b[40000@\\r' * 8192"),
    "sized 65535x24: a character far past a row's end then EL 2": ("b''", "b'\\x1b[65000Gy\\x1b[2K' * 4681"),
    # (round 36) a write pads a gap of up to FLAT_PAD_CHUNKS chunks (2,048 cells) flat, a longer one makes the row
    # chunks: the most a write pads, again and again on one row
    "sized 65535x24: a character 2048 columns out then EL 2 (the most a write pads)": (
        "b''", "b'\\x1b[2049Gy\\x1b[2K' * 5461"),
    # the fallback keeps a row's marks in a str beside it, edited by the same slices (round 30): a mark on
    # the row each time, then the edits above
    "sized 65535x24: a marked character then REP over the rest of a full row + CR": (
        "b'x' * 65535 + b'\\r'", "'e\\u0301x\\x1b[65533b\\r'.encode() * 5041"),
    "sized 65535x24: a marked character then ICH 40000 of a full row": (
        "b'x' * 65535 + b'\\r'", "'e\\u0301\\x1b[40000@\\r'.encode() * 6553"),
}
# Options for a case (default: the decoder's defaults).
OPTIONS = {
    "LF flood (live_lines=2**40)": {"live_lines": 2**40},
    **{name: {"columns": 80, "rows": 1000} for name in CASES if name.startswith("sized 80x1000")},
    **{name: {"columns": 80, "rows": 65535} for name in CASES if name.startswith("sized 80x65535")},
    **{name: {"columns": 1000, "rows": 24} for name in CASES if name.startswith("sized 1000x24")},
    **{name: {"columns": 65535, "rows": 24} for name in CASES if name.startswith("sized 65535x24")},
    "sized 1x24: lines of 100000 characters": {"columns": 1, "rows": 24},
    **{name: {"columns": 80, "rows": 24} for name in CASES if name.startswith("sized 80x24")},
    # (after the sizes above, which it would otherwise take)
    "sized 80x1000 (max_live_cells=100): REP 1024 then LF": {"columns": 80, "rows": 1000, "max_live_cells": 100},
}

CHILD = r"""
import resource, sys, time
from acp_transcript import {module} as impl
start, block, size_mb, mode = {start}, {block}, {size_mb}, {mode!r}
if {chunk_cells}:
    impl._set_line_chunk_cells({chunk_cells})
decoder = impl.TranscriptDecoder(mode=mode, **{options!r})
total_in = total_out = 0
target = size_mb * 1_000_000
calls = []
t0 = time.perf_counter()
total_out += len(decoder.decode(start)); total_in += len(start)
while total_in < target:
    for i in range(0, len(block), {call}):
        t = time.perf_counter()
        total_out += len(decoder.decode(block[i : i + {call}]))
        calls.append(time.perf_counter() - t)
    total_in += len(block)
total_out += len(decoder.decode(b"", final=True))
seconds = time.perf_counter() - t0
print({{"seconds": seconds, "in": total_in, "out": total_out, "calls": calls,
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}})
"""


def measure(module: str, start: str, block: str, size_mb: int, mode: str, options: dict | None = None,
            chunk_cells: int = 0, src: str | None = None, call: int = 65536) -> dict:
    """One row at one size in a process of its own (``src``: import the package from there, an older build)."""
    import os

    code = CHILD.format(module=module, start=start, block=block, size_mb=size_mb, mode=mode, options=options or {},
                        chunk_cells=chunk_cells, call=call)
    env = {**os.environ, "PYTHONPATH": src} if src else None
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    return json.loads(out.replace("'", '"'))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1,10,100")
    parser.add_argument("--impl", choices=("c", "py"), default="c")
    parser.add_argument("--only", help="comma-separated case names (default: all)")
    parser.add_argument("--modes", default="render,strip")
    parser.add_argument("--store", help="measure the store, bridge and replay rows with these item counts")
    parser.add_argument("--line-chunk-cells", type=int, default=0,
                        help="the core's chunk size for long lines (default: its own, 512); to compare sizes")
    parser.add_argument("--call", type=int, default=65536,
                        help="bytes a decode() call (default 64 KiB; an ACP Client gets a few KiB a chunk)")
    parser.add_argument("--per-call", action="store_true",
                        help="also time each row's calls (ms): the first two, then min/median/max of the rest")
    parser.add_argument("--against", metavar="DIR",
                        help="also run each row on the package importable from DIR (an older build, say a `git archive`"
                             " of the last round built in place), right after this one: its MB/s and the ratio"
                             " (rows at under 0.8 of it are marked SLOWER)")
    args = parser.parse_args()
    if args.store:
        store_rows([int(n) for n in args.store.split(",")], args.impl, set(args.only.split(",")) if args.only else None,
                   args.against)
        return
    module = "_decoder_c" if args.impl == "c" else "_decoder_py"
    sizes = [float(s) if "." in s else int(s) for s in args.sizes.split(",")]  # (0.1: the fallback's slow rows)
    print(f"{module}: MB/s | peak RSS MB | output chars per input byte, for inputs of {sizes} MB")
    print("| case | mode | " + " | ".join(f"{s} MB" for s in sizes) + " |")
    print("|---|---|" + "---|" * len(sizes))
    only = set(args.only.split(",")) if args.only else None
    for name, (start, block) in CASES.items():
        if only and name not in only:
            continue
        for mode in args.modes.split(","):
            cells = []
            for size in sizes:
                r = measure(module, start, block, size, mode, OPTIONS.get(name), args.line_chunk_cells, call=args.call)
                cells.append(f"{r['in'] / r['seconds'] / 1e6:.3g} MB/s, {r['rss_mb']:.0f} MB, {r['out'] / r['in']:.2f}")
                if args.against:
                    old = measure(module, start, block, size, mode, OPTIONS.get(name), args.line_chunk_cells,
                                  args.against, call=args.call)
                    ratio = old["seconds"] / old["in"] * r["in"] / r["seconds"]
                    cells[-1] += (f" (then {old['in'] / old['seconds'] / 1e6:.3g} MB/s: {ratio:.2f}x"
                                  + (", SLOWER)" if ratio < 0.8 else ")"))
                if args.per_call and len(r["calls"]) > 2:
                    rest = sorted(r["calls"][2:])
                    ms = [f"{t * 1e3:.2f}" for t in (*r["calls"][:2], rest[0], rest[len(rest) // 2], rest[-1])]
                    cells[-1] += f" (calls, ms: {ms[0]}, {ms[1]}, then {ms[2]}/{ms[3]}/{ms[4]})"
            print(f"| {name} | {mode} | " + " | ".join(cells) + " |", flush=True)


STORE_CHILD = r"""
import base64, json, resource, sys, time
sys.path.insert(0, {bench!r})
{impl_env}
from acp_transcript import TerminalStore, V2ToV1Bridge, check_batch, terminal_output_chunk, terminal_update
from acp_transcript.replay import Replay
n, case = {n}, {case!r}
t0 = time.perf_counter()
if case == "transcript read after every chunk":
    store = TerminalStore()
    for i in range(n):
        store.apply(terminal_output_chunk("t", b"line %d\n" % i))
        store["t"].transcript
elif case == "pop_committed + live after every chunk":
    store = TerminalStore()
    for i in range(n):
        store.apply(terminal_output_chunk("t", b"line %d\n" % i))
        store["t"].pop_committed(), store["t"].live
elif case == "live of a 1000-row terminal with only its bottom row written after every chunk":
    # (round 42) the screen's text read every row, blank or not: 327 us a read in the fallback, 8.7 in the core
    store = TerminalStore()
    store.apply(terminal_update("t", size={{"cols": 80, "rows": 1000}}))
    for i in range(n):
        store.apply(terminal_output_chunk("t", b"\x1b[1000;1Hline %d" % i))
        store["t"].live
elif case == "size patches of a 1000-row terminal (79 and 78 columns in turn)":
    # (round 42) each narrower resize read every row of the screen: 40 us in the fallback
    store = TerminalStore()
    store.apply(terminal_update("t", size={{"cols": 80, "rows": 1000}}))
    store.apply(terminal_output_chunk("t", b"\x1b[1000;1Hbottom"))
    for i in range(n):
        store.apply(terminal_update("t", size={{"cols": 79 - i % 2, "rows": 1000}}))
elif case == "tool calls linked to one terminal":
    store = TerminalStore()
    for i in range(n):
        store.apply({{"sessionUpdate": "tool_call_update", "toolCallId": "c%d" % i,
                     "content": [{{"type": "terminal", "terminalId": "t"}}]}})
elif case == "legacy deltas without a terminal ID":
    store = TerminalStore()
    store.apply({{"sessionUpdate": "tool_call", "toolCallId": "c", "_meta": {{"terminal_info": {{"terminal_id": "t"}}}}}})
    for i in range(n):
        store.apply({{"sessionUpdate": "tool_call_update", "toolCallId": "c",
                     "_meta": {{"terminal_output_delta": {{"data": "x\n"}}}}}})
elif case == "check_batch of chunks for one terminal":
    check_batch([terminal_output_chunk("t", b"x")] * n)
elif case == "bridge: chunks into one tool call":
    bridge = V2ToV1Bridge()
    bridge.apply({{"sessionUpdate": "tool_call", "toolCallId": "c", "title": "t",
                  "content": [{{"type": "terminal", "terminalId": "t"}}]}})
    sent = 0
    for i in range(n):
        for params in bridge.apply(terminal_output_chunk("t", b"line %d\n" % i)):
            sent += len(json.dumps(params))
elif case == "replay: Zed export array":
    import io
    items = [{{"_direction": "incoming", "_type": "notification", "method": "session/update",
              "params": {{"sessionId": "s", "update": terminal_output_chunk("t", b"x\n")}}}} for _ in range(n)]
    Replay().read(io.BytesIO(json.dumps(items, indent=1).encode()))
elif case == "base64 chunk with an invalid last character (n x 8 KiB)":
    from acp_transcript import TranscriptDecoder
    from acp_transcript.errors import Base64Error
    chunk = base64.b64encode(b"x" * (n * 8192)).decode()[:-1] + "*"
    try:
        TranscriptDecoder().decode_base64(chunk)
    except Base64Error:
        pass
elif case == "terminals in one store":
    store = TerminalStore(max_terminals=None)
    for i in range(n):
        store.apply(terminal_update("t%d" % i, command="ls"))
seconds = time.perf_counter() - t0
print(json.dumps({{"seconds": seconds, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""

STORE_CASES = (
    "transcript read after every chunk",
    "pop_committed + live after every chunk",
    "live of a 1000-row terminal with only its bottom row written after every chunk",
    "size patches of a 1000-row terminal (79 and 78 columns in turn)",
    "tool calls linked to one terminal",
    "legacy deltas without a terminal ID",
    "check_batch of chunks for one terminal",
    "bridge: chunks into one tool call",
    "replay: Zed export array",
    "terminals in one store",
    "base64 chunk with an invalid last character (n x 8 KiB)",
)


def store_rows(counts: list[int], impl: str, only: set[str] | None = None, against: str | None = None) -> None:
    """The store, bridge and replay rows (``only``: these cases; ``against``: each also on the package
    importable from that directory, an older build, with the ratio of their times)."""
    import os

    env = "import os; os.environ['ACP_TRANSCRIPT_NO_EXTENSIONS'] = '1'" if impl == "py" else ""
    print(f"store/bridge/replay ({impl} core): seconds | peak RSS MB, for {counts} items")
    print("| case | " + " | ".join(f"{n} items" for n in counts) + " |")
    print("|---|" + "---|" * len(counts))

    def run(code: str, src: str | None) -> dict:
        child_env = {**os.environ, "PYTHONPATH": src} if src else None
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env=child_env).stdout
        return json.loads(out)

    for case in STORE_CASES:
        if only and case not in only:
            continue
        cells = []
        for n in counts:
            code = STORE_CHILD.format(bench=os.path.dirname(__file__), impl_env=env, n=n, case=case)
            r = run(code, None)
            cells.append(f"{r['seconds']:.2f} s, {r['rss_mb']:.0f} MB")
            if against:
                old = run(code, against)
                cells[-1] += f" (then {old['seconds']:.2f} s: {old['seconds'] / r['seconds']:.2f}x)"
        print(f"| {case} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
