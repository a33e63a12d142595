"""The transcript decoder in pure Python: the executable specification of SPEC section 2.

The Cython core (``_decoder_c.pyx``) is a byte-for-byte twin of this package's ``*_py`` modules: the same
classes and method names (``tests/test_architecture.py`` checks), changed together in one commit, and the
test suite runs every test against both.

Pipeline (one module each, after alacritty/vte's ``Parser``/``Perform`` and pyte's ``Stream``/``Screen``)::

    bytes -> Parser (_parser_py: UTF-8, Williams' states)
          -> sink: RenderSink (_render_py) over LineWindows (_window_py) | StripSink (_strip_py)
          -> TranscriptDecoder (here): safety filter + Unicode policy (_unicode_policy) -> str

This module is the facade: options, stats, ``decode``/``decode_base64``/``live``/``reset``, and the batch
functions of SPEC 6.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

from ._base64 import decode_base64_strict
from ._defs import DEFAULTS, AltScreen, Mode, Options, Tabs, UnicodePolicy
from ._options import new_stats, parse_options, parse_size
from ._parser_py import Parser
from ._render_py import RenderSink
from ._screen_py import ScreenSink, screen_size
from ._strip_py import StripSink
from ._unicode_policy import HOLD, apply_policy

__all__ = ["TranscriptDecoder", "sanitize", "sanitize_arrow", "sanitize_batch"]


class TranscriptDecoder:
    """Turn terminal output bytes, fed in any chunks, into a safe plain-text transcript.

    Shaped like ``codecs.IncrementalDecoder``: ``decode()`` returns the text committed by this call,
    ``decode(..., final=True)`` flushes everything and readies the decoder for a new stream.

    >>> d = TranscriptDecoder()
    >>> d.decode(b"\\x1b[32mok\\x1b[0m 10%\\r") + d.decode(b"ok 100%\\n", final=True)
    'ok 100%\\n'
    """

    def __init__(
        self,
        *,
        mode: Mode = DEFAULTS.mode,
        tabs: Tabs = DEFAULTS.tabs,
        alt_screen: AltScreen = DEFAULTS.alt_screen,
        unicode: UnicodePolicy = DEFAULTS.unicode,
        live_lines: int = DEFAULTS.live_lines,
        max_line_cells: int = DEFAULTS.max_line_cells,
        max_live_cells: int = DEFAULTS.max_live_cells,
        max_jump: int = DEFAULTS.max_jump,
        max_string_bytes: int = DEFAULTS.max_string_bytes,
        columns: int | None = DEFAULTS.columns,
        rows: int | None = DEFAULTS.rows,
    ) -> None:
        options = parse_options(
            mode, tabs, alt_screen, unicode, live_lines, max_line_cells, max_live_cells, max_jump, max_string_bytes,
            columns, rows,
        )
        self._options = options
        self._unicode = options.unicode
        self._stats = new_stats()
        self._out: list[str] = []  # text committed by the current call (render mode: the policy not yet applied)
        self._held = ""  # strip output that may still become a flag sequence
        self._render: RenderSink | ScreenSink | None = None
        self._strip: StripSink | None = None
        if options.mode == "render":
            self._render = self._render_sink_for(options)
            sink: RenderSink | ScreenSink | StripSink = self._render
        else:
            self._strip = sink = StripSink(self._stats, options)
        self._sink = sink
        self._parser = Parser(sink, self._stats, options.max_string_bytes)

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
        if self._render is None:
            return ""
        return apply_policy(self._render.live(), self._unicode, None)

    def reset(self) -> None:
        """Forget the stream and the counters: the decoder is as new."""
        for key in self._stats:
            self._stats[key] = 0  # in place: the parser and the sink hold this dict
        self._parser.reset()
        self._sink.reset()
        self._out.clear()
        self._held = ""
        if self._strip is not None:
            self._strip.text.clear()

    def decode(self, data: bytes | bytearray | memoryview, final: bool = False) -> str:
        """Feed ``data``; return the text committed by this call (all remaining text when ``final``)."""
        if isinstance(data, memoryview):
            if data.ndim > 1 or data.itemsize != 1 or not data.c_contiguous:
                raise TypeError("a memoryview must be one-dimensional and contiguous with item size 1")
            data = data.tobytes()
        elif not isinstance(data, (bytes, bytearray)):
            raise TypeError(f"decode() needs bytes, bytearray or memoryview, not {type(data).__name__}")
        if data:
            self._parser.feed(data)
        if final:
            self._parser.finish()
            self._sink.finish()
        return self._take_output(final)

    def decode_base64(self, chunk: str | bytes | bytearray | memoryview, final: bool = False) -> str:
        """Decode one independently encoded RFC 4648 chunk (strict) and feed its bytes.

        Raises ``Base64Error`` (a ``ValueError``, with ``.offset``) before anything is fed.
        """
        return self.decode(decode_base64_strict(chunk), final)

    def resize(self, columns: int | None, rows: int | None) -> str:
        """Render at a new size from here on (SPEC 2.8); nothing already drawn is reflowed. Between sized
        and unsized rendering (a size given or ``None, None``), the current window or screen is first
        committed, as at the end of a stream; that text is returned (``""`` otherwise, and in strip mode,
        where the size has no effect). Bad sizes raise ``TypeError``/``ValueError`` and change nothing."""
        columns, rows = parse_size(columns, rows)
        options = self._options._replace(columns=columns, rows=rows)
        render = self._render
        if render is not None:
            sized = columns is not None or rows is not None
            if isinstance(render, ScreenSink) and sized:
                render.resize(*screen_size(options))
            elif isinstance(render, ScreenSink) or sized:
                render.finish()
                self._render = self._sink = self._render_sink_for(options)
                self._parser.attach(self._sink)
        self._options = options
        return self._take_output(False)

    def _render_sink_for(self, options: Options) -> RenderSink | ScreenSink:
        if options.columns is None and options.rows is None:
            return RenderSink(self._stats, self._out.append, options)
        return ScreenSink(self._stats, self._out.append, options)

    # ------------------------------------------------------------------ output (SPEC 2.5)

    def _take_output(self, final: bool) -> str:
        """The call's output, the Unicode policy applied on the way out: in render mode to all the text the
        sink committed during the call at once, as the core does (a commit is whole lines or rows, so no
        sequence the policy keeps whole, a flag and its tags, spans two; applied to each commit it was a
        regex call and a Python call a row: a tenth of colored CJK's time on a sized screen, round 31)."""
        if self._strip is not None:
            text = self._held + self._strip.take()
            self._held = ""
            if not final and self._unicode == "standard" and "\U0001f3f4" in text:
                hold = HOLD.search(text)
                if hold is not None:
                    self._held = text[hold.start() :]
                    text = text[: hold.start()]
            return apply_policy(text, self._unicode, self._stats)
        self._render.flush()  # type: ignore[union-attr]  # (what a window holds committed: LineWindow.flush)
        out = "".join(self._out)
        self._out.clear()
        return apply_policy(out, self._unicode, self._stats)


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
