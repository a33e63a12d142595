"""The transcript decoder in pure Python: the executable specification of SPEC section 2.

The Cython core (``_decoder_c.pyx``) is a byte-for-byte twin of this module; the two change together, in one
commit, and the test suite runs every test against both.

Pipeline::

    bytes -> UTF-8 (ground state only) -> control-function parser -> sink (render | strip)
          -> safety filter + Unicode policy -> str

The parser is Paul Williams' DEC/VT500 state machine (https://vt100.net/emu/dec_ansi_parser) as a UTF-8
terminal runs it: no 8-bit C1 introducers, bytes >= 0x80 are text in the ground state and payload inside
strings. Speed comes from never stepping through ordinary text one character at a time: ``re`` finds runs of
text (and whole well-formed CSI sequences, and the ends of control strings), and ``str``/``list`` methods copy
them; only control functions are handled one by one.

Render model (SPEC 2.3): committed lines (emitted, never changed again) above a live window of at most
``live_lines`` lines. A window line is either a ``str`` (text that arrived in bulk and was never edited) or a
``list`` of one-character cells. Cell values below U+0020 are never text, so three of them mark cell kinds:
``BLANK`` (never written, or erased), ``TAB`` (where a kept tab starts) and ``FILL`` (the rest of its span).
Lines never end in ``BLANK`` (they are trimmed), so ``len(line)`` is the line's end.
"""

from __future__ import annotations

import codecs
import re
import threading
from collections.abc import Iterable
from typing import Any

from ._base64 import decode_base64_strict
from ._options import DEFAULTS, new_stats, parse_options
from ._unicode_policy import HOLD, apply_policy

__all__ = ["TranscriptDecoder", "sanitize", "sanitize_arrow", "sanitize_batch"]

# Parser states (Williams). The DCS header states (dcs_entry, dcs_param, dcs_intermediate) and the string
# states dcs_passthrough, dcs_ignore and sos_pm_apc_string behave alike here: no DCS is ever dispatched, C0 is
# ignored in all of them and only ESC, CAN and SUB leave them, so one state, ST_STRING, stands for all six.
GROUND = 0
ESCAPE = 1
ESCAPE_INTERMEDIATE = 2
CSI_ENTRY = 3
CSI_PARAM = 4
CSI_INTERMEDIATE = 5
CSI_IGNORE = 6
OSC_STRING = 7
ST_STRING = 8

BLANK = "\x00"
TAB = "\x01"
FILL = "\x02"

MAX_PARAMS = 32  # SPEC 2.2; sub-parameters separated by ':' count as parameters
MAX_PARAM = 65535  # each value saturates here
MAX_INTERMEDIATES = 2

# Ground-state text: printable ASCII, bytes >= 0x80 (UTF-8, valid or not) and LF, the one control that
# plain text is full of. DEL is excluded: it is ignored (Williams), so it ends a run like a C0 does.
# Two more things are taken into a run because they cannot change what the text around them does:
# - SGR sequences: no effect on text in any mode. The pieces between them are decoded one by one (an ESC
#   still interrupts a partial code point) and printed together.
# - CR LF: the same as LF in both modes (LF already returns to column 0; strip mode turns CR LF into one
#   line break). It is read as LF; a CR also interrupts a partial code point, as the LF does.
_TEXT_RUN = re.compile(rb"(?:[\x20-\x7e\x80-\xff\n]+|\x1b\[[0-9:;]*m|\r\n)+")
# Binary noise: where a control without effect (C0 but BS, HT, LF, VT, FF, CR, ESC; or DEL) stands where a
# text run would start, a "noisy" run takes text and such controls together; the controls are counted and
# removed after decoding (a control still interrupts a partial code point, as the codec's "replace" does).
# Plain text never takes this path, so it pays nothing for it (scanning every run for controls cost plain
# text half its speed; benchmarks/README.md).
# A noisy run takes every control but ESC: VT and FF are read as LF, and BS, HT, CR are executed between
# the pieces of text around them, in order.
_NOISY_RUN = re.compile(rb"(?:[\x00-\x1a\x1c-\xff]+|\x1b\[[0-9:;]*m)+")
_MOVES = re.compile("([\b\t\r])")
_IGNORED_CONTROLS = re.compile("[\x00-\x07\x0e-\x1a\x1c-\x1f\x7f]")
_IGNORED_BYTES = frozenset([*range(0x00, 0x08), *range(0x0E, 0x1B), *range(0x1C, 0x20), 0x7F])
_SGR = re.compile(rb"\x1b\[[0-9:;]*m")
# A well-formed CSI with no C0 or high byte inside (the common case) is dispatched in one step. Anything
# else falls back to the byte-by-byte state machine from its ESC, which gives the same result.
_CSI = re.compile(rb"\x1b\[([\x3c-\x3f]?)([\x30-\x3b]*)([\x20-\x2f]{0,2})([\x40-\x7e])")
_PARAM_SEPARATOR = re.compile(rb"[:;]")
# Where a control string may stop: BEL (OSC only), LF (the max_string_bytes check), CAN, SUB, ESC.
_OSC_STOP = re.compile(rb"[\x07\n\x18\x1a\x1b]")
_ST_STOP = re.compile(rb"[\n\x18\x1a\x1b]")
_C1 = re.compile("[\x80-\x9f]")
_CELL_KINDS = re.compile("\x01\x02*|\x02+")
# Parameter strings of up to three digits come from this table, so that digits from the input are never
# turned into a number by int() (SPEC 2.2: no unbounded work on hostile parameters).
_SMALL_PARAMS = {str(v).encode(): v for v in range(1000)}
_SMALL_PARAMS.update({f"{v:02d}".encode(): v for v in range(100)})
_SMALL_PARAMS.update({f"{v:03d}".encode(): v for v in range(1000)})
_SMALL_PARAMS[b""] = 0

#: A window: its lines, cursor row and column, cell count, lines gone from its top, and saved cursor.
_Window = tuple[list["str | list[str]"], int, int, int, int, "tuple[int, int] | None"]

_LF, _VT, _FF, _CR, _BS, _HT, _CAN, _SUB, _ESC, _DEL = 0x0A, 0x0B, 0x0C, 0x0D, 0x08, 0x09, 0x18, 0x1A, 0x1B, 0x7F
_ALT_SCREEN_MODES = (1049, 1047, 47)


def _param_value(digits: bytes) -> int:
    value = _SMALL_PARAMS.get(digits)
    if value is None:
        value = 0
        for byte in digits:
            value = value * 10 + byte - 0x30
            if value > MAX_PARAM:
                return MAX_PARAM
    return value


def _parse_params(raw: bytes) -> list[int]:
    """``b"1;;2:3"`` -> ``[1, 0, 2, 3]``; ``b""`` -> ``[]``; at most 32 values, each saturated."""
    if not raw:
        return []
    if raw in _SMALL_PARAMS:
        return [_SMALL_PARAMS[raw]]
    return [_param_value(piece) for piece in _PARAM_SEPARATOR.split(raw, MAX_PARAMS)[:MAX_PARAMS]]


def _param(params: list[int], index: int, default: int) -> int:
    value = params[index] if index < len(params) else 0
    return value or default


def _expand_cell_kinds(match: re.Match[str]) -> str:
    """A tab cell at column c followed by fillers through the column before the next multiple of 8 is one
    ``\\t``; every other tab or filler cell is blank (SPEC 2.3, HT)."""
    run = match.group()
    if run[0] == TAB:
        need = 7 - match.start() % 8
        fillers = len(run) - 1
        if fillers >= need:
            return "\t" + BLANK * (fillers - need)
    return BLANK * len(run)


def line_text(line: str | list[str]) -> str:
    """The text of a window line: tab spans to ``\\t``, trailing blanks dropped, other blanks to spaces."""
    if isinstance(line, str):
        return line
    text = "".join(line)
    if TAB in text or FILL in text:
        text = _CELL_KINDS.sub(_expand_cell_kinds, text)
    if BLANK in text:
        text = text.rstrip(BLANK).replace(BLANK, " ")
    return text


def _trim(line: list[str]) -> None:
    """Drop trailing blank cells. Each blank is trimmed at most once after it was made, so this is
    amortised linear in the input."""
    end = len(line)
    while end and line[end - 1] == BLANK:
        end -= 1
    del line[end:]


def _join_lines(lines: list[str | list[str]]) -> str:
    try:  # lines that arrived in bulk are str already: one C-level join (TypeError if any is a list)
        return "\n".join(lines)  # type: ignore[arg-type]
    except TypeError:
        return "\n".join([line_text(line) for line in lines])


def _written(cells: list[str] | str) -> int:
    return len(cells) - cells.count(BLANK)


class TranscriptDecoder:
    """Turn terminal output bytes, fed in any chunks, into a safe plain-text transcript.

    Shaped like ``codecs.IncrementalDecoder``: ``decode()`` returns the text committed by this call,
    ``decode(..., final=True)`` flushes everything and readies the decoder for a new stream.

    >>> d = TranscriptDecoder()
    >>> d.decode(b"\\x1b[32mok\\x1b[0m 10%\\r") + d.decode(b"ok 100%\\n", final=True)
    'ok 100%\\n'
    """

    # The current window (render mode; see "windows" below).
    _lines: list[str | list[str]]
    _row: int
    _col: int
    _cells: int  # sum of the window's line lengths
    _committed: int  # lines gone from the window's top (saved cursors keep absolute line numbers)
    _saved: tuple[int, int] | None

    def __init__(
        self,
        *,
        mode: str = DEFAULTS.mode,
        tabs: str = DEFAULTS.tabs,
        alt_screen: str = DEFAULTS.alt_screen,
        unicode: str = DEFAULTS.unicode,
        live_lines: int = DEFAULTS.live_lines,
        max_line_cells: int = DEFAULTS.max_line_cells,
        max_live_cells: int = DEFAULTS.max_live_cells,
        max_jump: int = DEFAULTS.max_jump,
        max_string_bytes: int = DEFAULTS.max_string_bytes,
    ) -> None:
        options = parse_options(
            mode, tabs, alt_screen, unicode, live_lines, max_line_cells, max_live_cells, max_jump, max_string_bytes
        )
        self._options = options
        self._render = options.mode == "render"
        self._keep_tabs = options.tabs == "keep"
        self._drop_alt = options.alt_screen == "drop"
        self._unicode = options.unicode
        # A window never holds more lines than cells: live_lines=2**40 and a stream of LFs must not keep
        # a million empty lines per megabyte.
        self._live_lines = min(options.live_lines, options.max_live_cells)
        self._max_line_cells = options.max_line_cells
        self._max_live_cells = options.max_live_cells
        self._max_jump = options.max_jump
        self._max_string_bytes = options.max_string_bytes
        self._stats = new_stats()
        self._reset_stream()

    # ------------------------------------------------------------------ public API

    @property
    def options(self) -> dict[str, object]:
        """The options this decoder was made with."""
        return self._options._asdict()

    @property
    def stats(self) -> dict[str, int]:
        """A copy of the diagnostics counters (SPEC 2.6); they add up over streams until ``reset()``."""
        return dict(self._stats)

    @property
    def live(self) -> str:
        """The live window as text (render mode): what a UI shows as still in progress. ``""`` in strip mode."""
        if not self._render:
            return ""
        if self._overlay_origin is None:
            text = "\n".join(map(line_text, self._lines))
        else:  # the window under the overlay, then the overlay line (a status line, as a terminal shows it)
            text = "\n".join(map(line_text, self._overlay_origin[0]))
            overlay = line_text(self._lines[0])
            if overlay:
                text += "\n" + overlay
        return apply_policy(text, self._unicode, None)

    def reset(self) -> None:
        """Forget the stream and the counters: the decoder is as new."""
        self._stats = new_stats()
        self._reset_stream()

    def decode(self, data: bytes | bytearray | memoryview, final: bool = False) -> str:
        """Feed ``data``; return the text committed by this call (all remaining text when ``final``)."""
        if isinstance(data, memoryview):
            if data.ndim > 1 or data.itemsize != 1 or not data.c_contiguous:
                raise TypeError("a memoryview must be one-dimensional and contiguous with item size 1")
            data = data.tobytes()
        elif not isinstance(data, (bytes, bytearray)):
            raise TypeError(f"decode() needs bytes, bytearray or memoryview, not {type(data).__name__}")
        if data:
            self._feed(data)
        if final:
            self._finish()
        return self._take_output(final)

    def decode_base64(self, chunk: str | bytes | bytearray | memoryview, final: bool = False) -> str:
        """Decode one independently encoded RFC 4648 chunk (strict) and feed its bytes.

        Raises ``Base64Error`` (a ``ValueError``, with ``.offset``) before anything is fed.
        """
        return self.decode(decode_base64_strict(chunk), final)

    # ------------------------------------------------------------------ stream state

    def _reset_stream(self) -> None:
        self._state = GROUND
        self._carry = b""  # an incomplete UTF-8 sequence at the end of the last chunk (at most 3 bytes)
        self._params: list[int] = []
        self._param = -1  # the parameter being read; -1: none started
        self._intermediates = 0
        self._private = 0
        self._string_bytes = 0
        self._alt = False  # on the alternate screen (alt_screen="drop")
        self._out: list[str] = []  # text committed by the current call, policy already applied
        # render mode: the current window (see _pack_window); the main screen's while the alternate one is
        # active, and the overlay's origin while a status-line overlay is drawn
        self._new_window()
        self._main_window: _Window | None = None
        self._overlay_origin: _Window | None = None
        self._last = ""  # the character REP repeats: set by printing, cleared by any other item
        self._rep_char = ""  # _last as it was when the current escape sequence began
        # strip mode
        self._pending_cr = False
        self._strip_text: list[str] = []  # strip output of this call, before the policy
        self._alt_text: list[str] = []  # strip output held while the alternate screen is active
        self._alt_chars = 0  # characters in _alt_text[:_alt_pieces]
        self._alt_pieces = 0
        self._held = ""  # strip output that may still become a flag sequence

    def _take_output(self, final: bool) -> str:
        if not self._render:
            text = self._held + "".join(self._strip_text)
            self._strip_text.clear()
            self._held = ""
            if not final and self._unicode == "standard" and "\U0001f3f4" in text:
                hold = HOLD.search(text)
                if hold is not None:
                    self._held = text[hold.start() :]
                    text = text[: hold.start()]
            self._out.append(apply_policy(text, self._unicode, self._stats))
        out = "".join(self._out)
        self._out.clear()
        return out

    def _finish(self) -> None:
        if self._carry:
            self._flush_carry()
        if self._state != GROUND:
            self._stats["unterminated_at_final"] += 1
        if self._render:
            self._commit_at_end()
        else:
            if self._pending_cr:
                self._strip_sink().append("\n")
            if self._alt:  # SPEC 2.4 rev 2: a stream that ends on the alternate screen shows what it held
                self._trim_alt_text(self._max_live_cells)
                self._strip_text.extend(self._alt_text)
        held = self._held
        out = self._out
        strip_text = self._strip_text
        self._reset_stream()
        self._held, self._out, self._strip_text = held, out, strip_text

    # ------------------------------------------------------------------ parser

    def _feed(self, data: bytes | bytearray) -> None:
        end_of_data = len(data)
        pos = 0
        stats = self._stats
        while pos < end_of_data:
            state = self._state
            if state == GROUND:
                run = _TEXT_RUN.match(data, pos)
                noisy = run is None and data[pos] in _IGNORED_BYTES
                if noisy:
                    run = _NOISY_RUN.match(data, pos)
                if run is not None:
                    end = run.end()
                    self._text(data, pos, end, end == end_of_data, noisy)
                    pos = end
                    continue
                if self._carry:  # a control interrupts a partial code point: one U+FFFD (SPEC 2.1)
                    self._flush_carry()
                byte = data[pos]
                if byte == _ESC:
                    stats["sequences_removed"] += 1
                    self._rep_char, self._last = self._last, ""
                    csi = _CSI.match(data, pos)
                    if csi is not None:
                        private, params, intermediates, final = csi.groups()
                        if not intermediates:
                            self._csi_dispatch(private[0] if private else 0, params, final[0])
                        pos = csi.end()
                        continue
                    self._state = ESCAPE
                    self._intermediates = 0
                elif byte == _DEL:
                    stats["controls_removed"] += 1
                else:
                    self._execute(byte)
                pos += 1
            elif state >= OSC_STRING:
                pos = self._string(data, pos)
            else:
                self._step(data[pos])
                pos += 1

    def _enter_escape(self) -> None:
        self._state = ESCAPE
        self._intermediates = 0
        # SPEC 2.3 rev 2, as tmux: REP repeats only right after a printed character (or a REP). The
        # character is put aside here and given back only to a REP that this escape sequence turns out to be.
        self._rep_char, self._last = self._last, ""

    def _step(self, byte: int) -> None:
        """One byte in the escape and CSI states (Williams), where sequences are short."""
        state = self._state
        if byte == _ESC:  # Williams: ESC anywhere restarts
            self._stats["sequences_removed"] += 1
            self._enter_escape()
        elif byte == _CAN or byte == _SUB:  # Williams: CAN and SUB abort, executed, to ground
            self._stats["controls_removed"] += 1
            self._state = GROUND
        elif byte < 0x20:  # C0 inside a sequence is executed and the sequence goes on
            self._execute(byte)
        elif byte >= 0x7F:  # DEL and high bytes are ignored; the sequence goes on (SPEC 2.2)
            pass
        elif state == ESCAPE:
            if byte < 0x30:
                self._intermediates = 1
                self._state = ESCAPE_INTERMEDIATE
            elif byte == 0x5B:  # [
                self._state = CSI_ENTRY
                self._params = []
                self._param = -1
                self._private = 0
                self._intermediates = 0
            elif byte == 0x5D:  # ]
                self._state = OSC_STRING
                self._string_bytes = 0
            elif byte in (0x50, 0x58, 0x5E, 0x5F):  # P (DCS), X (SOS), ^ (PM), _ (APC)
                self._state = ST_STRING
                self._string_bytes = 0
            else:
                self._state = GROUND
                self._esc_dispatch(byte)
        elif state == ESCAPE_INTERMEDIATE:
            if byte >= 0x30:  # final: dispatched with intermediates, none of which affects text
                self._state = GROUND
        elif state == CSI_IGNORE:
            if byte >= 0x40:
                self._state = GROUND
        elif byte >= 0x40:  # CSI final
            self._state = GROUND
            if self._intermediates == 0:
                if self._param >= 0:
                    self._push_param()
                self._csi_dispatch(self._private, None, byte)
        elif byte < 0x30:  # intermediate
            self._intermediates += 1
            self._state = CSI_IGNORE if self._intermediates > MAX_INTERMEDIATES else CSI_INTERMEDIATE
        elif state == CSI_INTERMEDIATE:  # a parameter byte after an intermediate: malformed
            self._state = CSI_IGNORE
        elif byte <= 0x39:  # digit
            value = max(self._param, 0) * 10 + byte - 0x30
            self._param = value if value < MAX_PARAM else MAX_PARAM
            self._state = CSI_PARAM
        elif byte <= 0x3B:  # ':' or ';'
            self._push_param()
            self._param = 0
            self._state = CSI_PARAM
        elif state == CSI_ENTRY:  # private marker < = > ?
            self._private = byte
            self._state = CSI_PARAM
        else:  # a private marker after parameters: malformed
            self._state = CSI_IGNORE

    def _push_param(self) -> None:
        if len(self._params) < MAX_PARAMS:
            self._params.append(max(self._param, 0))

    def _string(self, data: bytes | bytearray, pos: int) -> int:
        """Skip control-string payload up to the next byte that may end it; return the new position."""
        stop = _OSC_STOP if self._state == OSC_STRING else _ST_STOP
        while True:
            found = stop.search(data, pos)
            if found is None:
                self._string_bytes += len(data) - pos
                return len(data)
            at = found.start()
            self._string_bytes += at - pos
            byte = data[at]
            if byte == _LF:
                if self._string_bytes > self._max_string_bytes:
                    # SPEC 2.2: an overlong unterminated string is abandoned at the next LF, which is executed.
                    self._stats["strings_abandoned"] += 1
                    self._state = GROUND
                    self._execute(_LF)
                    return at + 1
                self._string_bytes += 1
                pos = at + 1
            elif byte == _ESC:  # ST (ESC \) or the start of a new sequence
                self._stats["sequences_removed"] += 1
                self._enter_escape()
                return at + 1
            elif byte == 0x07:  # BEL ends an OSC (xterm)
                self._state = GROUND
                return at + 1
            else:  # CAN, SUB
                self._stats["controls_removed"] += 1
                self._state = GROUND
                return at + 1

    # ------------------------------------------------------------------ UTF-8

    def _text(self, data: bytes | bytearray, start: int, end: int, at_end: bool, noisy: bool = False) -> None:
        raw = data[start:end]
        if 0x0D in raw:
            raw = raw.replace(b"\r\n", b"\n")
        if noisy and (0x0B in raw or 0x0C in raw):
            raw = raw.replace(b"\x0b", b"\n").replace(b"\x0c", b"\n")
        if 0x1B in raw:
            pieces = _SGR.split(raw)
            self._stats["sequences_removed"] += len(pieces) - 1
            last = pieces.pop()
            text = "".join([self._decode(piece, False) for piece in pieces]) + self._decode(last, at_end)
        else:
            last = None
            text = self._decode(raw, at_end)
        if noisy:
            text, last = self._drop_controls(text, last)
            if "\r" in text or "\b" in text or "\t" in text:
                for index, piece in enumerate(_MOVES.split(text)):
                    if index % 2:
                        self._execute(ord(piece))
                    elif piece and self._render:
                        self._print(piece)
                    elif piece:
                        self._strip_print(piece)
                if last == b"":
                    self._last = self._rep_char = ""
                return
        if text:
            if self._render:
                self._print(text)
            else:
                self._strip_print(text)
        if last == b"":  # the run ended with an SGR: a REP after it has nothing to repeat
            self._last = self._rep_char = ""

    def _drop_controls(self, text: str, last: bytes | None) -> tuple[str, bytes | None]:
        """A noisy run's controls without effect: counted, removed; a run that ends with one leaves REP
        nothing to repeat (DEL is ignored outright, as tmux does: REP reaches past it)."""
        if _IGNORED_CONTROLS.search(text) is None:
            return text, last
        before_del = text.rstrip("\x7f")
        if before_del and _IGNORED_CONTROLS.match(before_del, len(before_del) - 1) is not None:
            last = b""
        kept = _IGNORED_CONTROLS.sub("", text)
        self._stats["controls_removed"] += len(text) - len(kept)
        return kept, last

    def _decode(self, raw: bytes | bytearray, at_end: bool) -> str:
        """UTF-8 of one piece of text; an incomplete code point at the end of the data is carried."""
        if self._carry:
            raw = self._carry + raw
            self._carry = b""
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
                    self._carry = bytes(raw[used:])
                    raw = raw[:used]
        else:
            text = raw.decode("utf-8", "replace")
        if not text.isascii():
            text = self._clean_decoded(text, raw)
        return text

    def _clean_decoded(self, text: str, raw: bytes | bytearray) -> str:
        stats = self._stats
        if "\ufffd" in text:
            replaced = text.count("\ufffd") - raw.count(b"\xef\xbf\xbd")
            if replaced:
                # Valid bytes re-encode to themselves and each U+FFFD to 3 bytes, so what is left over is
                # the number of invalid bytes.
                stats["invalid_bytes"] += len(raw) - len(text.encode("utf-8")) + 3 * replaced
        if _C1.search(text) is not None:  # decoded U+0080-U+009F: no effect, never emitted
            without = _C1.sub("", text)
            stats["c1_dropped"] += len(text) - len(without)
            text = without
        return text

    def _flush_carry(self) -> None:
        self._stats["invalid_bytes"] += len(self._carry)
        self._carry = b""
        if self._render:
            self._print("\ufffd")
        else:
            self._strip_print("\ufffd")

    # ------------------------------------------------------------------ C0, ESC and CSI functions

    def _execute(self, byte: int) -> None:
        self._last = self._rep_char = ""  # a control between a character and REP: nothing to repeat
        if byte == _LF or byte == _VT or byte == _FF:
            if self._render:
                self._newline()
            else:
                self._strip_sink().append("\n")
                self._pending_cr = False
        elif byte == _CR:
            if self._render:
                self._col = 0
            else:
                self._pending_cr = True
        elif byte == _HT:
            if self._render:
                self._tab()
            else:
                self._strip_print("\t")
        elif byte == _BS and self._render:
            if self._col:
                self._col -= 1
        else:
            self._stats["controls_removed"] += 1

    def _esc_dispatch(self, final: int) -> None:
        if final == 0x63:  # c: RIS
            self._end_overlay()
            self._set_alt(False)
            if self._render:
                self._commit_window(final=False)
        elif not self._render:
            return
        elif final == 0x37:  # 7: DECSC
            self._end_overlay()
            self._save_cursor()
        elif final == 0x38:  # 8: DECRC
            self._end_overlay()
            self._restore_cursor(self._saved)
        elif final == 0x44 or final == 0x45:  # D: IND, E: NEL (as LF, which already returns to column 0)
            self._newline()
        elif final == 0x4D:  # M: RI (as CUU 1; never scrolls)
            self._end_overlay()
            self._row = max(self._row - 1, 0)

    def _csi_dispatch(self, private: int, raw_params: bytes | None, final: int) -> None:
        """A CSI sequence without intermediates. ``raw_params`` is the parameter bytes (fast path) or
        ``None`` when the state machine has collected ``self._params``."""
        if private:
            if private == 0x3F and (final == 0x68 or final == 0x6C):  # DECSET / DECRST
                params = self._params if raw_params is None else _parse_params(raw_params)
                for mode in params:
                    if mode in _ALT_SCREEN_MODES:
                        self._set_alt(final == 0x68)
            return
        if not self._render or final == 0x6D:  # SGR (m) is the common case: no effect
            return
        handler = _CSI_FUNCTIONS.get(final)
        if handler is not None:
            handler(self, self._params if raw_params is None else _parse_params(raw_params))

    def _set_alt(self, enter: bool) -> None:
        """CSI ? 1049/1047/47 h/l (SPEC 2.3 rev 2). With alt_screen="drop" the program draws on a separate,
        initially empty window; leaving it discards that window and the main one is back as it was (so 1049's
        cursor save and restore come with it). alt_screen="keep" treats the alternate screen as the main one."""
        if not self._drop_alt or enter == self._alt:
            return
        self._alt = enter
        if not self._render:  # strip mode: hold what is printed there (_strip_sink), drop it on leaving
            if not enter:
                self._trim_alt_text(0)
            return
        self._end_overlay()
        if enter:
            self._main_window = self._pack_window()
            self._new_window()
        else:
            self._stats["alt_screen_dropped"] += sum(map(_written, self._lines))
            assert self._main_window is not None
            self._unpack_window(self._main_window)
            self._main_window = None

    # ------------------------------------------------------------------ render: windows
    #
    # A window is the live lines, the cursor in them, their cell count, how many lines have left its top
    # (saved cursors keep absolute line numbers) and its saved cursor. The decoder works on one window at a
    # time, in its own attributes; the main screen's window is put aside while the alternate screen is
    # active, and the window under a status-line overlay while the overlay is drawn.

    def _new_window(self) -> None:
        self._lines = [""]
        self._row = 0
        self._col = 0
        self._cells = 0
        self._committed = 0
        self._saved = None

    def _pack_window(self) -> _Window:
        return (self._lines, self._row, self._col, self._cells, self._committed, self._saved)

    def _unpack_window(self, window: _Window) -> None:
        self._lines, self._row, self._col, self._cells, self._committed, self._saved = window

    def _start_overlay(self, col: int) -> None:
        """SPEC 2.3 rev 2, the status-line overlay: while a cursor is saved, CUP/HVP/VPA draw on a detached
        line (apt saves the cursor, jumps to the bottom row, draws its bar and restores). A further one
        starts a new, empty overlay line."""
        if self._overlay_origin is None:
            self._overlay_origin = self._pack_window()
        else:
            self._stats["overlay_dropped"] += sum(map(_written, self._lines))
        self._new_window()
        self._col = self._forward_target(col)

    def _end_overlay(self) -> None:
        """Restore, save, a vertical move, ED 1-3, RIS or a screen switch ends the overlay: its line is
        discarded and the cursor is back where the overlay began; the ending function then applies there."""
        if self._overlay_origin is not None:
            self._stats["overlay_dropped"] += sum(map(_written, self._lines))
            self._unpack_window(self._overlay_origin)
            self._overlay_origin = None

    def _cursor_line(self) -> list[str]:
        line = self._lines[self._row]
        if isinstance(line, str):
            line = list(line)
            self._lines[self._row] = line
        return line

    def _newline(self) -> None:
        """LF (with onlcr): column 0 of the next line; a new line when on the last one."""
        self._end_overlay()
        self._last = ""
        self._col = 0
        if self._row == len(self._lines) - 1:
            self._lines.append("")
            self._row += 1
            self._enforce_limits()
        else:
            self._row += 1

    def _enforce_limits(self) -> None:
        """Commit top lines while the window holds more than live_lines lines or max_live_cells cells, never
        the cursor's line. Called after every operation that adds lines or cells; committing is greedy from
        the top, so any chunking commits the same lines."""
        lines = self._lines
        count = len(lines) - self._live_lines
        if count <= 0 and self._cells <= self._max_live_cells:
            return
        count = max(count, 0)
        removed = sum(map(len, lines[:count]))
        while count < self._row and self._cells - removed > self._max_live_cells:
            removed += len(lines[count])
            count += 1
        if count:
            self._commit_top(count, removed)

    def _commit_top(self, count: int, cells: int) -> None:
        if self._alt:  # lines pushed out of the alternate window's top are discarded, not committed
            self._stats["alt_screen_dropped"] += sum(map(_written, self._lines[:count]))
        else:
            text = _join_lines(self._lines[:count]) + "\n"
            self._out.append(apply_policy(text, self._unicode, self._stats))
        del self._lines[:count]
        self._row -= count
        self._cells -= cells
        self._committed += count

    def _window_text(self, final: bool) -> str:
        """The window's lines as committed text. ED drops a last line with no text and ends every line with
        a newline; at the end of the stream the last line simply has no newline after it, so plain text comes
        back unchanged."""
        texts = [line_text(line) for line in self._lines]
        if final:
            return "\n".join(texts)
        if not texts[-1]:
            texts.pop()
        return "".join(t + "\n" for t in texts)

    def _commit_window(self, final: bool) -> None:
        """ED 2 / RIS (``final=False``) or the end of the stream: commit every line of the window (on the
        alternate screen, before its end, discard them) and leave the cursor on a new empty line."""
        if self._alt and not final:
            self._stats["alt_screen_dropped"] += sum(map(_written, self._lines))
            text = ""
        else:
            text = self._window_text(final)
        self._committed += len(self._lines)
        self._lines = [""]
        self._row = self._col = self._cells = 0
        if text:
            self._out.append(apply_policy(text, self._unicode, self._stats))

    def _commit_at_end(self) -> None:
        """final=True (SPEC 2.3 rev 2): the window is committed; a stream that ends on the alternate screen
        commits the main window as ED does and then the alternate one (a program killed there leaves its
        last screen and the shell's messages where a terminal shows them); an overlay line still being drawn
        is committed as a line of its own after the window."""
        overlay = ""
        if self._overlay_origin is not None:
            overlay = line_text(self._lines[0])
            self._unpack_window(self._overlay_origin)
            self._overlay_origin = None
        if self._main_window is not None:
            alternate = self._pack_window()
            self._unpack_window(self._main_window)
            self._main_window = None
            self._alt = False
            self._commit_window(final=False)
            self._unpack_window(alternate)
        text = self._window_text(final=True)
        if overlay:
            text += ("\n" if text and not text.endswith("\n") else "") + overlay
        if text:
            self._out.append(apply_policy(text, self._unicode, self._stats))

    # ------------------------------------------------------------------ render: printing

    def _print(self, text: str) -> None:
        """Printable text, possibly with LFs, at the cursor."""
        if "\n" not in text:
            self._write(text)
            return
        pieces = text.split("\n")
        lines = self._lines
        row = self._row
        if (
            self._overlay_origin is None
            and row == len(lines) - 1
            and self._col == len(lines[row])
            and self._col + len(pieces[0]) <= self._max_line_cells
            and max(map(len, pieces)) <= self._max_line_cells
        ):
            # Appending at the end of the last line, as plain text does: whole lines at once.
            first = pieces[0]
            if first:
                line = lines[row]
                if isinstance(line, str):
                    lines[row] = line + first
                else:
                    line.extend(first)
            lines.extend(pieces[1:])
            self._cells += len(text) - len(pieces) + 1
            self._row = len(lines) - 1
            self._col = len(pieces[-1])
            self._last = "" if text[-1] == "\n" else text[-1]
            self._enforce_limits()
            return
        for index, piece in enumerate(pieces):
            if index:
                self._newline()
            if piece:
                self._write(piece)

    def _write(self, text: str) -> None:
        """Write text without LF at the cursor, overwriting; a character due at max_line_cells or beyond
        first moves to a new line (SPEC 2.3 bounds)."""
        line = self._cursor_line()
        col = self._col
        limit = self._max_line_cells
        stats = self._stats
        while text:
            if col >= limit:
                self._newline()
                line = self._cursor_line()
                col = 0
            room = limit - col
            if len(text) > room:
                part, text = text[:room], text[room:]
            else:
                part, text = text, ""
            size = len(line)
            if col > size:  # skipped never-written cells: blanks (spaces unless trailing)
                line.extend(BLANK * (col - size))
            elif col < size:
                stats["cells_overwritten"] += _written(line[col : col + len(part)])
            line[col : col + len(part)] = part
            self._cells += len(line) - size
            col += len(part)
            self._col = col
            self._last = part[-1]
            self._enforce_limits()

    def _forward_target(self, target: int) -> int:
        """SPEC 2.3 bounds: a forward move goes to min(target, max(column, end + max_jump))."""
        return min(target, max(self._col, len(self._lines[self._row]) + self._max_jump))

    def _tab(self) -> None:
        # SPEC 2.3 rev 2: bounded by max_line_cells only (it moves at most 8 cells), never by max_jump, so
        # that plain text with tabs comes back unchanged whatever the options.
        col = self._col
        target = min((col // 8 + 1) * 8, max(col, self._max_line_cells))
        if self._keep_tabs and target > col:
            line = self._cursor_line()
            if col >= len(line) or line[col:target].count(BLANK) == len(line[col:target]):
                size = len(line)
                if col > size:
                    line.extend(BLANK * (col - size))
                line[col:target] = TAB + FILL * (target - col - 1)
                self._cells += len(line) - size
                self._col = target
                self._enforce_limits()
                return
        self._col = target

    def _erase(self, start: int, stop: int) -> None:
        """Blank the cells [start, stop) of the cursor line."""
        line = self._cursor_line()
        stop = min(stop, len(line))
        if start >= stop:
            return
        self._stats["cells_overwritten"] += _written(line[start:stop])
        size = len(line)
        if stop == size:
            del line[start:]
        else:
            line[start:stop] = BLANK * (stop - start)
        _trim(line)
        self._cells += len(line) - size

    def _save_cursor(self) -> None:
        self._saved = (self._committed + self._row, self._col)

    def _restore_cursor(self, saved: tuple[int, int] | None) -> None:
        if saved is None:  # restore without a save: column 0 of the current line
            self._col = 0
            return
        row, self._col = saved
        self._row = min(max(row - self._committed, 0), len(self._lines) - 1)

    # CSI functions; ``params`` has at most 32 saturated values. Numbers are ECMA-48 (5th ed.) sections.

    def _el(self, params: list[int]) -> None:  # 8.3.41 EL; the cursor does not move
        how = _param(params, 0, 0)
        if how == 0:
            self._erase(self._col, 1 << 62)
        elif how == 1:
            self._erase(0, self._col + 1)
        elif how == 2:
            self._erase(0, 1 << 62)

    def _ech(self, params: list[int]) -> None:  # 8.3.38 ECH
        self._erase(self._col, self._col + _param(params, 0, 1))

    def _ich(self, params: list[int]) -> None:  # 8.3.64 ICH: at most max_jump blanks, cut at max_line_cells
        line = self._cursor_line()
        col = self._col
        count = min(_param(params, 0, 1), self._max_jump)
        if col >= len(line) or not count:
            return
        size = len(line)
        line[col:col] = BLANK * count
        if len(line) > self._max_line_cells:
            self._stats["cells_overwritten"] += _written(line[self._max_line_cells :])
            del line[self._max_line_cells :]
        _trim(line)
        self._cells += len(line) - size
        self._enforce_limits()

    def _dch(self, params: list[int]) -> None:  # 8.3.26 DCH
        line = self._cursor_line()
        col = self._col
        if col >= len(line):
            return
        stop = col + _param(params, 0, 1)
        size = len(line)
        self._stats["cells_overwritten"] += _written(line[col:stop])
        del line[col:stop]
        _trim(line)
        self._cells += len(line) - size

    def _rep(self, params: list[int]) -> None:  # 8.3.103 REP: at most max(0, end + max_jump - column)
        self._last = self._rep_char  # only a character printed right before this sequence (SPEC 2.3 rev 2)
        if self._last:
            room = len(self._lines[self._row]) + self._max_jump - self._col
            count = min(_param(params, 0, 1), room)
            if count > 0:
                self._write(self._last * count)

    def _cha(self, params: list[int]) -> None:  # 8.3.9 CHA, 8.3.57 HPA
        target = _param(params, 0, 1) - 1
        self._col = self._forward_target(target) if target > self._col else target

    def _cuf(self, params: list[int]) -> None:  # 8.3.20 CUF, 8.3.59 HPR
        self._col = self._forward_target(self._col + _param(params, 0, 1))

    def _cub(self, params: list[int]) -> None:  # 8.3.18 CUB
        self._col = max(self._col - _param(params, 0, 1), 0)

    def _cuu(self, params: list[int]) -> None:  # 8.3.22 CUU: clamped to the window, never scrolls
        self._end_overlay()
        self._row = max(self._row - _param(params, 0, 1), 0)

    def _cpl(self, params: list[int]) -> None:  # 8.3.13 CPL
        self._cuu(params)
        self._col = 0

    def _cud(self, params: list[int]) -> None:  # 8.3.19 CUD: never creates lines
        self._end_overlay()
        self._row = min(self._row + _param(params, 0, 1), len(self._lines) - 1)

    def _cnl(self, params: list[int]) -> None:  # 8.3.12 CNL
        self._cud(params)
        self._col = 0

    def _fresh_line(self) -> None:
        """CUP, HVP and VPA name a screen row, but the window height is unknown: start a fresh line (the
        current one when it is empty, else the last one when empty, else a new one)."""
        lines = self._lines
        if lines[self._row]:
            if lines[-1]:
                lines.append("")
                self._enforce_limits()
            self._row = len(self._lines) - 1

    def _cup(self, params: list[int]) -> None:  # 8.3.21 CUP, 8.3.63 HVP
        if self._saved is not None or self._overlay_origin is not None:
            self._start_overlay(_param(params, 1, 1) - 1)
            return
        self._fresh_line()
        self._col = 0
        self._col = self._forward_target(_param(params, 1, 1) - 1)

    def _vpa(self, params: list[int]) -> None:  # 8.3.158 VPA: keeps the column
        if self._saved is not None or self._overlay_origin is not None:
            self._start_overlay(self._col)
            return
        self._fresh_line()

    def _ed(self, params: list[int]) -> None:  # 8.3.39 ED; history is never deleted
        if _param(params, 0, 0) == 0:
            self._erase(self._col, 1 << 62)
            below = self._lines[self._row + 1 :]
            if below:
                self._stats["cells_overwritten"] += sum(map(_written, below))
                self._cells -= sum(map(len, below))
                del self._lines[self._row + 1 :]
        elif _param(params, 0, 0) <= 3:
            self._end_overlay()
            self._commit_window(final=False)

    def _scosc(self, params: list[int]) -> None:  # CSI s (SCOSC); with parameters it is DECSLRM
        if not params:
            self._end_overlay()
            self._save_cursor()

    def _scorc(self, params: list[int]) -> None:  # CSI u (SCORC)
        if not params:
            self._end_overlay()
            self._restore_cursor(self._saved)

    # ------------------------------------------------------------------ strip mode

    def _strip_print(self, text: str) -> None:
        """Strip mode: text passes through; a pending CR becomes a line break before it (SPEC 2.4)."""
        sink = self._strip_sink()
        if self._pending_cr:
            self._pending_cr = False
            if text[0] != "\n":
                sink.append("\n")
        sink.append(text)

    def _strip_sink(self) -> list[str]:
        """Where strip output goes: this call's output, or, on the alternate screen, the held text, which is
        bounded to its last max_live_cells characters (SPEC 2.4)."""
        if not self._alt:
            return self._strip_text
        held = self._alt_text
        self._alt_chars += sum(map(len, held[self._alt_pieces :]))
        self._alt_pieces = len(held)
        if self._alt_chars > 2 * self._max_live_cells:
            self._trim_alt_text(self._max_live_cells)
        return self._alt_text

    def _trim_alt_text(self, keep: int) -> None:
        """Keep the last ``keep`` characters of the held alternate-screen text; count the rest as dropped."""
        text = "".join(self._alt_text)
        cut = max(len(text) - keep, 0)
        if cut:
            self._stats["alt_screen_dropped"] += cut - text.count("\n", 0, cut)
        kept = text[cut:]
        self._alt_text = [kept] if kept else []
        self._alt_chars = len(kept)
        self._alt_pieces = len(self._alt_text)


_CSI_FUNCTIONS = {
    0x4B: TranscriptDecoder._el,  # K
    0x58: TranscriptDecoder._ech,  # X
    0x40: TranscriptDecoder._ich,  # @
    0x50: TranscriptDecoder._dch,  # P
    0x62: TranscriptDecoder._rep,  # b
    0x47: TranscriptDecoder._cha,  # G
    0x60: TranscriptDecoder._cha,  # ` (HPA)
    0x43: TranscriptDecoder._cuf,  # C
    0x61: TranscriptDecoder._cuf,  # a (HPR)
    0x44: TranscriptDecoder._cub,  # D
    0x41: TranscriptDecoder._cuu,  # A
    0x46: TranscriptDecoder._cpl,  # F
    0x42: TranscriptDecoder._cud,  # B
    0x45: TranscriptDecoder._cnl,  # E
    0x48: TranscriptDecoder._cup,  # H
    0x66: TranscriptDecoder._cup,  # f (HVP)
    0x64: TranscriptDecoder._vpa,  # d
    0x4A: TranscriptDecoder._ed,  # J
    0x73: TranscriptDecoder._scosc,  # s
    0x75: TranscriptDecoder._scorc,  # u
}


_local = threading.local()


def _cached_decoder(options: dict[str, object]) -> TranscriptDecoder:
    """This thread's decoder for these options: ``sanitize`` then costs its decoding, not building a decoder
    and parsing its options (SPEC 6). Each decode with ``final=True`` leaves it as new but for ``stats``."""
    cache: dict[tuple[tuple[str, object], ...], TranscriptDecoder] = _local.__dict__.setdefault("decoders", {})
    key = tuple(sorted(options.items()))
    decoder = cache.get(key)
    if decoder is None:
        if len(cache) >= 16:  # a program that uses many option sets does not keep a decoder for each
            cache.clear()
        decoder = cache[key] = TranscriptDecoder(**options)  # type: ignore[arg-type]
    return decoder


def sanitize(data: bytes | bytearray | memoryview, **options: object) -> str:
    """One shot: ``TranscriptDecoder(**options).decode(data, final=True)``.

    >>> sanitize(b"\\x1b[1mbold\\x1b[0m\\n 50%\\r100%\\n")
    'bold\\n100%\\n'
    """
    decoder = _cached_decoder(options)
    try:
        return decoder.decode(data, final=True)
    except BaseException:
        _local.decoders.clear()  # an error may have left it mid-stream: never reuse it
        raise


def sanitize_arrow(array: Any, **options: object) -> Any:
    """Every value of an Arrow array sanitized, nulls kept (SPEC 6); the fallback does it through pyarrow
    (the ``arrow`` extra): the values of any object exporting the Arrow C data interface, decoded with one
    decoder, into a pyarrow ``large_string`` array (which exports the same interface)."""
    try:
        import pyarrow as pa
    except ImportError:  # pragma: no cover - the compiled core needs no Arrow library
        raise ImportError("sanitize_arrow without the compiled core needs pyarrow: pip install acp-transcript[arrow]") from None
    if hasattr(array, "__arrow_c_stream__") and not hasattr(array, "__arrow_c_array__"):
        array = pa.chunked_array(array)
    elif not isinstance(array, (pa.Array, pa.ChunkedArray)):
        if not hasattr(array, "__arrow_c_array__"):
            raise TypeError(
                "sanitize_arrow needs an object exporting the Arrow C data interface "
                f"(__arrow_c_array__ or __arrow_c_stream__), not {type(array).__name__}"
            )
        array = pa.array(array)
    kind = array.type
    if not (pa.types.is_binary(kind) or pa.types.is_large_binary(kind) or pa.types.is_string(kind)
            or pa.types.is_large_string(kind) or pa.types.is_binary_view(kind) or pa.types.is_string_view(kind)):
        raise TypeError(f"sanitize_arrow needs binary or string values, not Arrow type {kind}")
    decoder = TranscriptDecoder(**options)  # type: ignore[arg-type]
    values: list[str | None] = []
    for value in array.to_pylist():
        if value is None:
            values.append(None)
        else:
            values.append(decoder.decode(value.encode("utf-8") if isinstance(value, str) else value, final=True))
    return pa.array(values, type=pa.large_string())


def sanitize_batch(items: Iterable[bytes | bytearray | memoryview], **options: object) -> list[str]:
    """``[sanitize(item, **options) for item in items]`` with one decoder (SPEC 6).

    >>> sanitize_batch([b"\\x1b[31mred\\x1b[0m", b"10%\\r100%"])
    ['red', '100%']
    """
    decoder = TranscriptDecoder(**options)  # type: ignore[arg-type]
    results = []
    for index, item in enumerate(items):
        if not isinstance(item, (bytes, bytearray, memoryview)):
            raise TypeError(
                f"item {index}: sanitize_batch() needs bytes, bytearray or memoryview, not {type(item).__name__}"
            )
        results.append(decoder.decode(item, final=True))
    return results
