"""The control-function parser (SPEC 2.1-2.2): bytes in, calls on a sink out. It knows nothing about lines.

Paul Williams' DEC/VT500 state machine (https://vt100.net/emu/dec_ansi_parser) as a UTF-8 terminal runs it:
no 8-bit C1 introducers, bytes >= 0x80 are text in the ground state and payload inside strings. The shape is
alacritty/vte's: a ``Parser`` that calls a ``Perform`` (here ``Sink``) with ``print`` / ``execute`` /
``esc_dispatch`` / ``csi_dispatch``. The Cython twin is ``_parser_c.pxi``.

Speed comes from never stepping through ordinary text one character at a time: ``re`` finds runs of text
(and whole well-formed CSI sequences, and the ends of control strings), which are decoded and handed to the
sink in one ``print``; only control functions are handled one by one.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Protocol

from ._defs import (
    DEFAULTS,
    STAT_KEYS,
    BEL,
    BS,
    CAN,
    CR,
    CSI_ENTRY,
    CSI_IGNORE,
    CSI_INTERMEDIATE,
    CSI_PARAM,
    DECRST,
    DECSET,
    DECSTBM,
    DEL,
    ESC,
    ESCAPE,
    ESCAPE_INTERMEDIATE,
    FF,
    GROUND,
    HT,
    LF,
    MAX_INTERMEDIATES,
    MAX_PARAM,
    MAX_PARAMS,
    OSC_STRING,
    PRIVATE_DEC,
    REP,
    SGR,
    ST_STRING,
    SUB,
    VT,
)


class Sink(Protocol):
    """What the parser calls (vte's ``Perform``). ``print`` gets decoded text (LF included: the one control
    plain text is full of); ``execute`` only the format effectors BS, HT, LF, VT, FF, CR (the parser counts
    every other control as removed); ``csi_dispatch`` only non-private sequences whose final is in
    ``csi_finals`` (the sink's functions with an effect on text), without intermediates; ``private_mode``
    each mode of a DEC private mode set or reset (``CSI ? Pm h`` / ``l``)."""

    csi_finals: frozenset[int]

    def reset(self) -> None: ...
    def print(self, text: str) -> None: ...
    def execute(self, byte: int) -> None: ...
    def esc_dispatch(self, final: int) -> None: ...
    def csi_dispatch(self, params: Sequence[int], final: int) -> None: ...
    def repeat(self, char: str, count: int) -> None: ...
    def private_mode(self, mode: int, enable: bool) -> None: ...
    def finish(self) -> None: ...
    # Optional, so not declared here: ``frame_limit()``, the most cells a frame after a CR may have for the
    # parser to skip it when the next frame covers it (Parser.fold_frames; 0: none now). A sink without it
    # (strip mode) never has frames skipped; one with ``cell_frames`` (_CellFrames: a sized screen, where a
    # code point may be two cells or none) counts a frame's cells by their characters' widths, up to its first
    # character of no cell. And
    # ``print_tabbed(text)``: printable text, tabs and LFs from a tab on, at once; a sink without it gets
    # each tab as ``execute(HT)``.


# Ground-state text: printable ASCII, bytes >= 0x80 (UTF-8, valid or not) and LF. DEL is excluded: it is
# ignored (Williams), so it ends a run like a C0 does. Two more things are taken into a run because they
# cannot change what the text around them does:
# - SGR sequences: no effect on text in any mode. The pieces between them are decoded one by one (an ESC
#   still interrupts a partial code point) and printed together.
# - CR LF: the same as LF in both modes (LF already returns to column 0; strip mode turns CR LF into one
#   line break). It is read as LF; a CR also interrupts a partial code point, as the LF does.
_TEXT_RUN = re.compile(rb"(?:[\x20-\x7e\x80-\xff\n]+|\x1b\[[0-9:;]*m|\r\n)+")
# A rendering sink's run (one with a line model: frame_limit) also takes a CR right after an LF (LF CR line
# endings, as some programs and serial consoles write them): LF has returned to column 0 already, so that CR
# does nothing there, and is dropped (strip mode shows a line break for it: its runs do not take it). Each
# was a run and a CR of their own: lines ending LF CR read 0.74 MB/s at 80x24, 10x under CR LF (round 46).
# The byte before it is an LF the parser executed: one that a control string takes leaves the parser in
# that string, not in the ground state where a run starts.
_LINE_RUN = re.compile(rb"(?:[\x20-\x7e\x80-\xff\n]+|\x1b\[[0-9:;]*m|\r(?:\n|(?<=\n\r)))+")  # (\r first: cheap)
# Binary noise: where a control without effect (C0 but BS, HT, LF, VT, FF, CR, ESC; or DEL) stands where a
# text run would start, a "noisy" run takes text and such controls together; the controls are counted and
# removed after decoding (a control still interrupts a partial code point, as the codec's "replace" does).
# Plain text never takes this path, so it pays nothing for it (scanning every run for controls cost plain
# text half its speed; benchmarks/README.md).
# A noisy run takes every control but ESC: VT and FF are read as LF, and BS, HT, CR are executed between
# the pieces of text around them, in order.
_TEXT_BYTES = bytes(range(0x20, 0x7F)) + bytes(range(0x80, 0x100)) + b"\n"  # _TEXT_RUN's first branch
_NOISY_RUN = re.compile(rb"(?:[\x00-\x1a\x1c-\xff]+|\x1b\[[0-9:;]*m)+")
_MOVES = re.compile("([\b\t\r])")
_IGNORED_CONTROLS = re.compile("[\x00-\x07\x0e-\x1a\x1c-\x1f\x7f]")
_IGNORED_BYTES = frozenset([*range(0x00, 0x08), *range(0x0E, 0x1B), *range(0x1C, 0x20), DEL])
_FORMAT_EFFECTORS = frozenset([BS, HT, LF, VT, FF, CR])
_MOVES_ALONE = frozenset([BS, HT, VT, FF, CR])  # (format effectors that start no run but with an LF: Parser.feed)
_SGR = re.compile(rb"\x1b\[[0-9:;]*m")
# Printable ASCII, bytes >= 0x80 (UTF-8, decoded as a text run's), tabs and line feeds (CR LF read as LF, as in
# _TEXT_RUN), from a tab on (tab-indented code, tab-separated columns): one print_tabbed call on a sink that
# has it (the render sink), where each tab and each piece after it was a turn of the loop, and each line after
# a tabbed one a text run (round 45). Text past ASCII since round 54: a column of accented names stopped the
# run at each, about 47,000 instructions a line of an e-acute and a tab.
_TABBED_RUN = re.compile(rb"(?:[\t\n\x20-\x7e\x80-\xff]+|\r\n)+")
# A well-formed CSI with no C0 or high byte inside (the common case) is dispatched in one step. Anything
# else falls back to the byte-by-byte state machine from its ESC, which gives the same result.
_CSI = re.compile(rb"\x1b\[([\x3c-\x3f]?)([\x30-\x3b]*)([\x20-\x2f]{0,2})([\x40-\x7e])")
_PARAM_SEPARATOR = re.compile(rb"[:;]")
# After ESC: P (DCS), X (SOS), ^ (PM), _ (APC) open a string that ST ends; [ opens a CSI, ] an OSC. Every
# other byte from 0x30 to 0x7E is a final that ends the sequence right there (step's ESCAPE state).
_ST_INTRODUCERS = frozenset((0x50, 0x58, 0x5E, 0x5F))
_ESC_FINALS = frozenset(range(0x30, 0x7F)) - _ST_INTRODUCERS - {0x5B, 0x5D}
# Where a control string may stop: BEL (OSC only), LF (the max_string_bytes check), CAN, SUB, ESC.
_OSC_STOP = re.compile(rb"[\x07\n\x18\x1a\x1b]")
_ST_STOP = re.compile(rb"[\n\x18\x1a\x1b]")
_C1 = re.compile("[\x80-\x9f]")
# A frame after CR that Parser.fold_frames may skip: printable ASCII and whole, valid two- and three-byte
# UTF-8 but C1 (as the core's scan: four-byte sequences end it).
_FRAME = re.compile(rb"(?:[\x20-\x7e]+|\xc2[\xa0-\xbf]|[\xc3-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]"
                    rb"|[\xe1-\xec\xee\xef][\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf])*")
# Parameter strings of up to three digits come from this table, so that digits from the input are never
# turned into a number by int() (SPEC 2.2: no unbounded work on hostile parameters).
_SMALL_PARAMS = {str(v).encode(): v for v in range(1000)}
_SMALL_PARAMS.update({f"{v:02d}".encode(): v for v in range(100)})
_SMALL_PARAMS.update({f"{v:03d}".encode(): v for v in range(1000)})
_SMALL_PARAMS[b""] = 0
_ASCII_CHARS = [chr(byte) for byte in range(0x80)]  # (Parser.feed: a run of one ASCII character)
_SHORT_RUN = 16  # (Parser.feed: the longest run decoded in place, without text())


# A sized screen's patterns for a frame's cells (Sink's cell_frames; match from a position): text of one-cell
# characters, of one- and two-cell characters, and a two-cell character; and the first two-cell character.
_CellFrames = tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], str]


def _frame_end(data: bytes | bytearray, pos: int) -> int:
    found = _FRAME.match(data, pos)
    return found.end() if found else pos


def _frame_cells(text: str, cell_frames: _CellFrames | None) -> tuple[int, int]:
    """A frame's cells as Parser.fold_frames counts them: each character one (an unsized window's), or with
    ``cell_frames`` (a sized screen's) the cells of its characters from its start up to one of no cell; and
    when they are the whole frame its characters (what the next frame's write counts as overwritten: a wide
    character once), else -1. Text of one-cell characters is one match, as before wide characters were
    counted (round 52: a findall on every frame past ASCII cost a progress bar of blocks 15%), and so is a
    frame whose first other character comes before the first wide one (a mark: e and a combining acute then
    CR paid two more calls, 9%)."""
    if cell_frames is None:
        return len(text), len(text)
    count = cell_frames[0].match(text).end()  # type: ignore[union-attr]  # (matches "")
    if count == len(text):
        return count, count
    if text[count] < cell_frames[3]:  # (below the first wide character: a mark or a control ends it)
        return count, -1
    chars = cell_frames[1].match(text, count).end()  # type: ignore[union-attr]
    return chars + len(cell_frames[2].findall(text, count, chars)), chars if chars == len(text) else -1


def _param_value(digits: bytes) -> int:
    value = _SMALL_PARAMS.get(digits)
    if value is None:
        value = 0
        for byte in digits:
            value = value * 10 + byte - 0x30
            if value > MAX_PARAM:
                return MAX_PARAM
    return value


def parse_params(raw: bytes) -> Sequence[int]:
    """``b"1;;2:3"`` -> ``(1, 0, 2, 3)``; ``b""`` -> ``()``; at most 32 values, each saturated. A tuple, which
    may be the cache's own: sinks only read their parameters (no copy per sequence: 1.4% of the real
    captures)."""
    if not raw:
        return ()
    if raw in _SMALL_PARAMS:
        return (_SMALL_PARAMS[raw],)
    if len(raw) <= _CACHED_PARAMS_BYTES:
        return _short_params(raw)
    return _split_params(raw)


def _split_params(raw: bytes) -> list[int]:
    return [_param_value(piece) for piece in _PARAM_SEPARATOR.split(raw, MAX_PARAMS)[:MAX_PARAMS]]


# Programs send the same few parameter strings over and over (a cursor position, a mode list): the short
# ones are parsed once, in a cache shared by every decoder of the process and bounded in entries and in key
# length (at most 1,024 keys of 16 bytes: a stream of distinct ones costs a parse each, never memory).
# Real captures: 5% fewer instructions (benchmarks/README.md, round 18).
_CACHED_PARAMS_BYTES = 16


@lru_cache(maxsize=1024)
def _short_params(raw: bytes) -> tuple[int, ...]:
    return tuple(_split_params(raw))


class Parser:
    """Bytes, fed in any chunks, to calls on ``sink``. Counts what it removes in ``stats`` (SPEC 2.6)."""

    def __init__(self, sink: Sink, stats: dict[str, int], max_string_bytes: int) -> None:
        self.stats = stats
        self.max_string_bytes = max_string_bytes
        self.attach(sink)
        self.reset()

    def attach(self, sink: Sink) -> None:
        """Calls go to ``sink`` from here on (a decoder's resize between sized and unsized rendering swaps its
        sink), with what the parser reads of it kept beside it: its frame rule and its kind of text run. Kept
        from the sink before, they skipped a sized screen's frames by an unsized window's rule (characters,
        not cells: another row than the core's), and the other way called a frame_clean the window does not
        have (AttributeError; round 48). The core reads them from its sink at each use."""
        self.sink = sink
        self.frame_limit: Callable[[], int] | None = getattr(sink, "frame_limit", None)
        self.text_run = _TEXT_RUN if self.frame_limit is None else _LINE_RUN
        self.cell_frames: _CellFrames | None = getattr(sink, "cell_frames", None)

    def reset(self) -> None:
        self.state = GROUND
        self.carry = b""  # an incomplete UTF-8 sequence at the end of the last chunk (at most 3 bytes)
        self.params: list[int] = []
        self.param = -1  # the parameter being read; -1: none started
        self.second_given = False  # the second parameter had a digit (csi_dispatch: DECSTBM)
        self.intermediates = 0
        self.private = 0
        self.string_bytes = 0
        # SPEC 2.3 rev 2, as tmux: REP repeats only right after a printed character (or a REP). ``last`` is
        # that character, cleared by any other item; ``rep_char`` is ``last`` as it was when the current
        # escape sequence began, given back only to a REP that the sequence turns out to be.
        self.last = ""
        self.rep_char = ""

    def finish(self) -> None:
        """The end of the stream: a partial code point is one U+FFFD; an open sequence is counted."""
        if self.carry:
            self.flush_partial()
        if self.state != GROUND:
            self.stats["unterminated_at_final"] += 1
        self.reset()

    def feed(self, data: bytes | bytearray) -> None:
        end_of_data = len(data)
        pos = 0
        stats = self.stats
        if (self.state == GROUND and end_of_data and 0x1B not in data and 0x0D not in data
                and not data.translate(None, _TEXT_BYTES)):
            # Every byte is one _TEXT_RUN takes by its first branch (plain text and LF, as in most logs): the
            # chunk is one run. bytes.translate checks it at ~2 GB/s; the regex walks it at ~300 MB/s. (Two
            # memchr first: output with escapes or CRs, where the check would fail, pays almost nothing.)
            self.text(data, 0, end_of_data, True)
            return
        # Escape sequences are counted here and added to the stats once (a dict item incremented per sequence
        # was 4% of a cursor move's instructions; round 51).
        removed = 0
        try:
            while pos < end_of_data:
                state = self.state
                if state == GROUND:
                    byte = data[pos]
                    if byte == ESC and (csi := _CSI.match(data, pos)) is not None:
                        private, params, intermediates, final = csi.groups()
                        if final != b"m" or private or intermediates:
                            # Any CSI but an SGR, which starts a text run instead. Matched before the text run,
                            # which would fail here: the real captures have a CSI of their own every 100 bytes.
                            if self.carry:  # a control interrupts a partial code point: one U+FFFD (SPEC 2.1)
                                self.flush_partial()
                            removed += 1
                            self.rep_char, self.last = self.last, ""
                            if not intermediates:
                                self.csi_dispatch(private[0] if private else 0, params, final[0])
                            pos = csi.end()
                            continue
                    elif byte == ESC and pos + 1 < end_of_data and data[pos + 1] in _ESC_FINALS:
                        # ESC 7, ESC M, ESC =: at once, without the text run's match, which cannot start there,
                        # nor its tests (x then RI at the top of a 1000-column screen: 0.96 -> 1.0 MB/s; round 38)
                        if self.carry:  # a control interrupts a partial code point: one U+FFFD (SPEC 2.1)
                            self.flush_partial()
                        removed += 1
                        self.rep_char, self.last = self.last, ""
                        self.sink.esc_dispatch(data[pos + 1])
                        pos += 2
                        continue
                    if byte in _MOVES_ALONE and (byte != CR or not (pos + 1 < end_of_data and data[pos + 1] == LF)
                                                 and not (pos and data[pos - 1] == LF)):
                        # BS, HT, VT, FF, and a CR that no LF is next to: no run starts with them (a CR LF or
                        # LF CR is one), so the match below would fail (round 48: a tenth of x then BS)
                        run = None
                    else:
                        run = self.text_run.match(data, pos)
                    noisy = run is None and byte in _IGNORED_BYTES
                    if noisy:
                        run = _NOISY_RUN.match(data, pos)
                    if run is not None:
                        end = run.end()
                        # A short run between controls (a key typed, a column of a table drawn by cursor moves,
                        # a line feed after a tab, an accent and its combining mark) is printed without text()'s
                        # tests for what a run may hold (round 48; round 49 for runs past one character):
                        # printable ASCII or LF from a table; a few bytes of a text run when they decode strictly
                        # and hold no ESC (an SGR), CR (a CR LF) or C2 (C2 leads C1 controls, which text()
                        # drops). A partial code point at the end, an invalid byte, an overlong or a surrogate
                        # fails the strict decode: text() takes them, and a partial code point carried goes
                        # first.
                        char = None
                        last = ""
                        if self.carry:
                            pass
                        elif end == pos + 1:
                            if 0x20 <= byte < 0x7F:
                                char = last = _ASCII_CHARS[byte]
                            elif byte == LF:
                                char = "\n"
                        elif end - pos <= _SHORT_RUN and not noisy:  # (a noisy run's controls: text())
                            raw = data[pos:end]
                            if 0x1B not in raw and 0x0D not in raw and 0xC2 not in raw:
                                try:
                                    char = raw.decode()
                                except UnicodeDecodeError:
                                    pass
                                else:
                                    last = "" if raw[-1] == LF else char[-1]
                        if char is not None:
                            self.sink.print(char)
                            self.last = last
                            pos = end
                            continue
                        self.text(data, pos, end, end == end_of_data, noisy)
                        pos = end
                        continue
                    if self.carry:  # a control interrupts a partial code point: one U+FFFD (SPEC 2.1)
                        self.flush_partial()
                    if byte == ESC:  # (not a whole CSI nor an ESC with its final: those were taken above)
                        removed += 1
                        self.rep_char, self.last = self.last, ""
                        self.state = ESCAPE
                        self.intermediates = 0
                    elif byte == DEL:
                        stats["controls_removed"] += 1
                    elif byte == HT and hasattr(self.sink, "print_tabbed"):
                        pos = self.tabbed_run(data, pos)
                        continue
                    else:  # BS, HT, VT, FF or CR (the rest start a run): execute's two lines, without its call
                        self.last = self.rep_char = ""
                        self.sink.execute(byte)
                        if byte == CR and self.frame_limit is not None:
                            pos += 1
                            # (no frame before an escape sequence, as in the erase idiom CR CSI K, nor at the end of
                            # the data: fold_frames would return at once)
                            if pos < end_of_data and data[pos] != ESC:
                                pos = self.fold_frames(data, pos, self.frame_limit())
                            continue
                    pos += 1
                elif state >= OSC_STRING:
                    pos = self.string(data, pos)
                else:
                    self.step(data[pos])
                    pos += 1
        finally:
            stats["sequences_removed"] += removed

    def tabbed_run(self, data: bytes | bytearray, pos: int) -> int:
        """A tab and the text, tabs and line feeds after it (tab-indented code, tab-separated columns) in one
        print_tabbed call, where each tab and each piece after it was a turn of feed's loop (round 10), and
        each line after a tabbed one its own run (round 45: a line of a tab read 0.44 MB/s). Bytes past ASCII
        are decoded as text() decodes a run's (an incomplete code point at the end of the data is carried;
        invalid bytes and C1 controls are counted): UTF-8 decodes the same whichever ASCII bytes it is cut at.
        Returns where the run ends."""
        end = _TABBED_RUN.match(data, pos).end()  # type: ignore[union-attr]
        if end == pos + 1:  # a tab alone (a control next): print_tabbed("\t") is execute(HT), in fewer calls
            self.execute(HT)
            return end
        raw = data[pos:end]
        if 0x0D in raw:
            raw = raw.replace(b"\r\n", b"\n")
        text = raw.decode("ascii") if raw.isascii() else self.decode_utf8(raw, end == len(data))
        self.sink.print_tabbed(text)  # type: ignore[attr-defined]
        # nothing to repeat after a tab or an LF, as after any control (rep_char is taken from last when an
        # escape sequence begins, so ground state never needs it cleared)
        self.last = "" if text[-1] == "\t" or text[-1] == "\n" else text[-1]
        return end

    def enter_escape(self) -> None:
        self.state = ESCAPE
        self.intermediates = 0
        self.rep_char, self.last = self.last, ""

    def step(self, byte: int) -> None:
        """One byte in the escape and CSI states (Williams), where sequences are short."""
        state = self.state
        if byte == ESC:  # Williams: ESC anywhere restarts
            self.stats["sequences_removed"] += 1
            self.enter_escape()
        elif byte == CAN or byte == SUB:  # Williams: CAN and SUB abort, executed, to ground
            self.stats["controls_removed"] += 1
            self.state = GROUND
        elif byte < 0x20:  # C0 inside a sequence is executed and the sequence goes on
            self.execute(byte)
        elif byte >= DEL:  # DEL and high bytes are ignored; the sequence goes on (SPEC 2.2)
            pass
        elif state == ESCAPE:
            if byte < 0x30:
                self.intermediates = 1
                self.state = ESCAPE_INTERMEDIATE
            elif byte == 0x5B:  # [
                self.state = CSI_ENTRY
                self.params = []
                self.param = -1
                self.second_given = False
                self.private = 0
                self.intermediates = 0
            elif byte == 0x5D:  # ]
                self.state = OSC_STRING
                self.string_bytes = 0
            elif byte in _ST_INTRODUCERS:
                self.state = ST_STRING
                self.string_bytes = 0
            else:
                self.state = GROUND
                self.sink.esc_dispatch(byte)
        elif state == ESCAPE_INTERMEDIATE:
            if byte >= 0x30:  # final: dispatched with intermediates, none of which affects text
                self.state = GROUND
        elif state == CSI_IGNORE:
            if byte >= 0x40:
                self.state = GROUND
        elif byte >= 0x40:  # CSI final
            self.state = GROUND
            if self.intermediates == 0:
                if self.param >= 0:
                    self.push_param()
                self.csi_dispatch(self.private, None, byte)
        elif byte < 0x30:  # intermediate
            self.intermediates += 1
            self.state = CSI_IGNORE if self.intermediates > MAX_INTERMEDIATES else CSI_INTERMEDIATE
        elif state == CSI_INTERMEDIATE:  # a parameter byte after an intermediate: malformed
            self.state = CSI_IGNORE
        elif byte <= 0x39:  # digit
            if len(self.params) == 1:
                self.second_given = True
            value = max(self.param, 0) * 10 + byte - 0x30
            self.param = value if value < MAX_PARAM else MAX_PARAM
            self.state = CSI_PARAM
        elif byte <= 0x3B:  # ':' or ';'
            self.push_param()
            self.param = 0
            self.state = CSI_PARAM
        elif state == CSI_ENTRY:  # private marker < = > ?
            self.private = byte
            self.state = CSI_PARAM
        else:  # a private marker after parameters: malformed
            self.state = CSI_IGNORE

    def push_param(self) -> None:
        if len(self.params) < MAX_PARAMS:
            self.params.append(max(self.param, 0))

    def string(self, data: bytes | bytearray, pos: int) -> int:
        """Skip control-string payload up to the next byte that may end it; return the new position."""
        stop = _OSC_STOP if self.state == OSC_STRING else _ST_STOP
        while True:
            found = stop.search(data, pos)
            if found is None:
                self.string_bytes += len(data) - pos
                return len(data)
            at = found.start()
            self.string_bytes += at - pos
            byte = data[at]
            if byte == LF:
                if self.string_bytes > self.max_string_bytes:
                    # SPEC 2.2: an overlong unterminated string is abandoned at the next LF, which is executed.
                    self.stats["strings_abandoned"] += 1
                    self.state = GROUND
                    self.execute(LF)
                    return at + 1
                self.string_bytes += 1
                pos = at + 1
            elif byte == ESC:  # ST (ESC \) or the start of a new sequence
                self.stats["sequences_removed"] += 1
                self.enter_escape()
                return at + 1
            elif byte == BEL:  # BEL ends an OSC (xterm)
                self.state = GROUND
                return at + 1
            else:  # CAN, SUB
                self.stats["controls_removed"] += 1
                self.state = GROUND
                return at + 1

    # ------------------------------------------------------------------ text (UTF-8, SPEC 2.1)

    def text(self, data: bytes | bytearray, start: int, end: int, at_end: bool, noisy: bool = False) -> None:
        """A run of text (with SGRs, CR LFs and, when ``noisy``, controls without effect) printed at once."""
        raw = data[start:end]
        if 0x0D in raw:
            raw = raw.replace(b"\r\n", b"\n")
            if 0x0D in raw and not noisy:  # (a CR after an LF, in a rendering sink's run: _LINE_RUN; a noisy
                raw = raw.replace(b"\r", b"")  # run's CRs are executed between its pieces)
        if noisy and (0x0B in raw or 0x0C in raw):
            raw = raw.replace(b"\x0b", b"\n").replace(b"\x0c", b"\n")
        if 0x1B in raw:
            pieces = _SGR.split(raw)
            self.stats["sequences_removed"] += len(pieces) - 1
            last = pieces[-1]
            if not self.carry and raw.isascii():  # colored ASCII: nothing to carry or clean, one decode
                text = b"".join(pieces).decode("ascii")
            else:
                # An ESC interrupts a partial code point, so the pieces are decoded as if each ended there: with
                # one ESC between them, which the codec's "replace" reads as such an end (a maximal subpart
                # before it is one U+FFFD), and which is then removed (no piece has one). One decode a run,
                # and no search for an SGR inside a code point (2 ns a byte of pytest's output). A run that
                # ends with an SGR ends with that ESC: nothing to carry.
                text = self.decode_utf8(b"\x1b".join(pieces), at_end).replace("\x1b", "")
        else:
            last = None
            # (ASCII with nothing carried: nothing to hold back or clean, so decode_utf8's tests are skipped)
            text = raw.decode("ascii") if raw.isascii() and not self.carry else self.decode_utf8(raw, at_end)
        if noisy:
            text, last = self.drop_controls(text, last)
            if "\r" in text or "\b" in text or "\t" in text:
                for index, piece in enumerate(_MOVES.split(text)):
                    if index % 2:
                        self.execute(ord(piece))
                    elif piece:
                        self.print(piece)
                if last == b"":
                    self.last = self.rep_char = ""
                return
        if text:  # (print's two lines: a call less a run, each escape sequence's text in the real captures)
            self.sink.print(text)
            self.last = "" if text[-1] == "\n" else text[-1]
        if last == b"":  # the run ended with an SGR: a REP after it has nothing to repeat
            self.last = self.rep_char = ""

    def print(self, text: str) -> None:
        self.sink.print(text)
        self.last = "" if text[-1] == "\n" else text[-1]

    def drop_controls(self, text: str, last: bytes | None) -> tuple[str, bytes | None]:
        """A noisy run's controls without effect: counted, removed; a run that ends with one leaves REP
        nothing to repeat (DEL is ignored outright, as tmux does: REP reaches past it)."""
        if _IGNORED_CONTROLS.search(text) is None:
            return text, last
        before_del = text.rstrip("\x7f")
        if before_del and _IGNORED_CONTROLS.match(before_del, len(before_del) - 1) is not None:
            last = b""
        kept = _IGNORED_CONTROLS.sub("", text)
        self.stats["controls_removed"] += len(text) - len(kept)
        return kept, last

    def decode_utf8(self, raw: bytes | bytearray, at_end: bool) -> str:
        """UTF-8 of one piece of text; an incomplete code point at the end of the data is carried."""
        if self.carry:
            raw = self.carry + raw
            self.carry = b""
        if at_end and raw and raw[-1] >= 0x80:
            # Keep an incomplete final code point for the next chunk; the codec's own incremental rule
            # is exactly SPEC 2.1's (at most 3 bytes, maximal subparts).
            text, used = codecs.utf_8_decode(raw, "replace", False)
            if used < len(raw):
                if raw[used] == 0xED and used + 1 < len(raw) and raw[used + 1] > 0x9F:
                    # CPython also holds back ED A0-BF (a surrogate, so no prefix of any code point); SPEC 2.1
                    # carries only real prefixes, so that the replacement is emitted now, as the C core does.
                    text = raw.decode("utf-8", "replace")
                else:
                    self.carry = bytes(raw[used:])
                    raw = raw[:used]
        else:
            text = raw.decode("utf-8", "replace")
        if not text.isascii():
            text = self.clean_decoded(text, raw)
        return text

    def clean_decoded(self, text: str, raw: bytes | bytearray) -> str:
        stats = self.stats
        if "\ufffd" in text:
            replaced = text.count("\ufffd") - raw.count(b"\xef\xbf\xbd")
            if replaced:
                # Valid bytes re-encode to themselves and each U+FFFD to 3 bytes, so what is left over is
                # the number of invalid bytes.
                stats["invalid_bytes"] += len(raw) - len(text.encode("utf-8")) + 3 * replaced
        # Decoded U+0080-U+009F: no effect, never emitted. Only C2 80-9F decodes to one (invalid bytes become
        # U+FFFD), so text without a C2 byte is not searched (a memchr instead of a scan of every character).
        if 0xC2 in raw and _C1.search(text) is not None:
            without = _C1.sub("", text)
            stats["c1_dropped"] += len(text) - len(without)
            text = without
        return text

    def flush_partial(self) -> None:
        self.stats["invalid_bytes"] += len(self.carry)
        self.carry = b""
        self.print("\ufffd")

    # ------------------------------------------------------------------ dispatch

    def execute(self, byte: int) -> None:
        self.last = self.rep_char = ""  # a control between a character and REP: nothing to repeat
        if byte in _FORMAT_EFFECTORS:
            self.sink.execute(byte)
        else:
            self.stats["controls_removed"] += 1

    def fold_frames(self, data: bytes | bytearray, pos: int, limit: int) -> int:
        """After a CR at ``pos - 1``, skip the frames of at most ``limit`` cells that the next frame covers;
        returns where decoding goes on (the start of the first frame not skipped). The rule, and why it
        changes nothing, is in the core's twin (_parser_c.pxi); here it saves a decode and a slice of the line
        per frame."""
        if not limit:  # (the sink takes no frames now: a sized screen in insert mode, say)
            return pos
        sized = self.cell_frames
        end = _frame_end(data, pos)
        if end >= len(data) or data[end] != CR:  # (no CR after it: nothing to skip, nothing to decode here)
            return pos
        cells, chars = _frame_cells(data[pos:end].decode(), sized)
        skipped = 0
        clean = -1  # (sized: the cells frame_clean said yes to; the row does not change here)
        while chars >= 0 and end < len(data) and data[end] == CR and cells <= limit:
            start = end + 1
            end = _frame_end(data, start)
            next_cells, next_chars = _frame_cells(data[start:end].decode(), sized)
            if next_cells < cells or (sized is not None and cells == limit < next_cells):
                # (a sized screen: a frame as wide as the row, and a next one that wraps, whose wide character
                # at the last column wraps before it is written and leaves that cell as the frame wrote it)
                break
            # (a sized screen: only over cells that hold no padding but a wide character's own, and none in the
            # one after the next frame's; asked again only for a longer frame)
            if sized is not None and next_cells > clean:
                if not self.sink.frame_clean(next_cells):  # type: ignore[attr-defined]
                    break
                clean = next_cells
            skipped += chars
            pos = start
            cells = next_cells
            chars = next_chars
        self.stats["cells_overwritten"] += skipped
        return pos

    def csi_dispatch(self, private: int, raw_params: bytes | None, final: int) -> None:
        """A CSI sequence without intermediates. ``raw_params`` is the parameter bytes (fast path) or
        ``None`` when the state machine has collected ``self.params``. Parameters are parsed only for a
        function the sink has."""
        if private:
            if private == PRIVATE_DEC and (final == DECSET or final == DECRST):
                params = self.params if raw_params is None else parse_params(raw_params)
                for mode in params:
                    self.sink.private_mode(mode, final == DECSET)
            return
        if final == SGR or final not in self.sink.csi_finals:
            return
        params = self.params if raw_params is None else parse_params(raw_params)
        if final == DECSTBM and len(params) > 1 and not params[1]:
            # tmux's input_get (input.c): a parameter given as 0 takes its minimum, an empty one its default;
            # for DECSTBM's bottom margin those differ (row 1 against the last row), and a sink is only ever
            # handed 0 for both (SPEC 2.8: where terminals differ, tmux)
            if (self.second_given if raw_params is None
                    else _PARAM_SEPARATOR.split(raw_params, 2)[1] != b""):
                params = (params[0], 1, *params[2:])
        if final == REP:  # SPEC 2.3 rev 2: only right after a printed character (or a REP)
            self.last = self.rep_char
            if self.last:
                self.sink.repeat(self.last, params[0] if params and params[0] else 1)
            return
        self.sink.csi_dispatch(params, final)


class RecordingSink:
    """A sink that writes down every call (vte's test ``Dispatcher``); see ``parser_events``."""

    csi_finals = frozenset(range(0x40, 0x7F))

    def __init__(self) -> None:
        self.events: list[tuple[object, ...]] = []

    def reset(self) -> None:
        pass

    def print(self, text: str) -> None:
        self.events.append(("print", text))

    def execute(self, byte: int) -> None:
        self.events.append(("execute", byte))

    def esc_dispatch(self, final: int) -> None:
        self.events.append(("esc", final))

    def csi_dispatch(self, params: Sequence[int], final: int) -> None:
        self.events.append(("csi", tuple(params), final))

    def repeat(self, char: str, count: int) -> None:
        self.events.append(("repeat", char, count))

    def private_mode(self, mode: int, enable: bool) -> None:
        self.events.append(("private_mode", mode, enable))

    def finish(self) -> None:
        pass


def parser_events(
    chunks: Iterable[bytes | bytearray], max_string_bytes: int = DEFAULTS.max_string_bytes
) -> tuple[list[tuple[object, ...]], dict[str, int]]:
    """The calls the parser makes on its sink for ``chunks``, and its stats: ``(events, stats)``. For tests
    (parser-only, as vte's and pyte's stream tests are) and for debugging what a stream does."""
    sink = RecordingSink()
    stats = dict.fromkeys(STAT_KEYS, 0)
    parser = Parser(sink, stats, max_string_bytes)
    for chunk in chunks:
        if chunk:
            parser.feed(chunk)
    parser.finish()
    return sink.events, stats


def comparable_events(events: Iterable[tuple[object, ...]]) -> list[tuple[object, ...]]:
    """``parser_events`` of either twin in one form. The twins' parsers differ in one way by design: the
    fallback's text runs carry LF (and read CR LF, VT and FF as LF), where the core executes them. Here text
    is merged, LF/VT/FF executed become ``"\\n"`` in it, and CRs right before such a line feed are dropped
    (SPEC 2.3/2.4: CR LF is LF in both modes, and CR CR is CR)."""
    out: list[tuple[object, ...]] = []
    for event in events:
        if event[0] == "execute" and event[1] in (LF, VT, FF):
            event = ("print", "\n")
        if event[0] == "print":
            text = str(event[1])
            while text.startswith("\n") and out and out[-1] == ("execute", CR):
                out.pop()
            if out and out[-1][0] == "print":
                out[-1] = ("print", str(out[-1][1]) + text)
                continue
            event = ("print", text)
        out.append(event)
    return [("print", str(e[1]).replace("\r\n", "\n")) if e[0] == "print" else e for e in out]
