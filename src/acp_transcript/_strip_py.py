"""The strip sink (SPEC 2.4): no line model, everything the program printed appears once, in order.

Printable text and HT pass through; LF/VT/FF -> ``\\n``; a CR starts a pending line break that the next text
or line feed resolves (so every progress frame is visible); BS and every other control or sequence is
removed. With alt_screen="drop", what is printed on the alternate screen is held (at most ``max_live_cells``
characters, the most recent) and discarded when it is left; a stream that ends there emits it. The Cython
twin is ``_strip_c.pxi``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._defs import ALT_SCREEN_MODES, BS, CR, HT, RIS, Options


class StripSink:
    def __init__(self, stats: dict[str, int], options: Options) -> None:
        self.stats = stats
        self.drop_alt = options.alt_screen == "drop"
        self.max_live_cells = options.max_live_cells
        self.text: list[str] = []  # output of the current call, before the Unicode policy
        self.reset()

    def reset(self) -> None:
        self.alt = False
        self.pending_cr = False
        self.alt_text: list[str] = []  # output held while the alternate screen is active
        self.alt_chars = 0  # characters in alt_text[:alt_pieces]
        self.alt_pieces = 0

    def take(self) -> str:
        """The output of this call so far."""
        text = "".join(self.text)
        self.text.clear()
        return text

    # ------------------------------------------------------------------ the Sink interface (_parser_py)

    csi_finals: frozenset[int] = frozenset()  # no CSI function changes what strip mode emits

    def print(self, text: str) -> None:
        """Text passes through; a pending CR becomes a line break before it."""
        out = self.output()
        if self.pending_cr:
            self.pending_cr = False
            if text[0] != "\n":
                out.append("\n")
        out.append(text)

    def execute(self, byte: int) -> None:
        if byte == CR:
            self.pending_cr = True
        elif byte == HT:
            self.print("\t")
        elif byte == BS:
            self.stats["controls_removed"] += 1
        else:  # LF, VT, FF
            self.output().append("\n")
            self.pending_cr = False

    def esc_dispatch(self, final: int) -> None:
        if final == RIS:
            self.set_alt(False)

    def csi_dispatch(self, params: Sequence[int], final: int) -> None:  # pragma: no cover - csi_finals is empty
        pass

    def repeat(self, char: str, count: int) -> None:  # pragma: no cover - REP is not in csi_finals
        pass

    def private_mode(self, mode: int, enable: bool) -> None:
        if mode in ALT_SCREEN_MODES:
            self.set_alt(enable)

    def set_alt(self, enter: bool) -> None:
        if not self.drop_alt or enter == self.alt:
            return
        self.alt = enter
        if not enter:
            self.trim_alt_text(0)

    def finish(self) -> None:
        if self.pending_cr:
            self.output().append("\n")
        if self.alt:  # SPEC 2.4 rev 2: a stream that ends on the alternate screen shows what it held
            self.trim_alt_text(self.max_live_cells)
            self.text.extend(self.alt_text)
        self.reset()

    # ------------------------------------------------------------------ the alternate screen's held text

    def output(self) -> list[str]:
        """Where output goes: this call's, or, on the alternate screen, the held text, which is bounded to its
        last max_live_cells characters."""
        if not self.alt:
            return self.text
        held = self.alt_text
        self.alt_chars += sum(map(len, held[self.alt_pieces :]))
        self.alt_pieces = len(held)
        if self.alt_chars > 2 * self.max_live_cells:
            self.trim_alt_text(self.max_live_cells)
        return self.alt_text

    def trim_alt_text(self, keep: int) -> None:
        """Keep the last ``keep`` characters of the held alternate-screen text; count the rest as dropped."""
        text = "".join(self.alt_text)
        cut = max(len(text) - keep, 0)
        if cut:
            self.stats["alt_screen_dropped"] += cut - text.count("\n", 0, cut)
        kept = text[cut:]
        self.alt_text = [kept] if kept else []
        self.alt_chars = len(kept)
        self.alt_pieces = len(self.alt_text)
