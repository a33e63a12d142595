"""The render sink (SPEC 2.3): control functions applied to line windows, the way a terminal shows them.

The parser (``_parser_py``) calls this sink; it keeps the current ``LineWindow`` (``_window_py``) and swaps
windows for the alternate screen and the status-line overlay (SPEC 2.3 rev 2), so the window itself never
asks which screen it is on. The Cython twin is ``_render_c.pxi``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ._defs import (
    ALT_SCREEN_MODES,
    BS,
    CR,
    DECRC,
    DECSC,
    HT,
    IND,
    NEL,
    REP,
    RI,
    RIS,
    Options,
)
from ._window_py import HUGE, LineWindow, line_text


def _param(params: Sequence[int], index: int, default: int) -> int:
    value = params[index] if index < len(params) else 0
    return value or default


class RenderSink:
    """The main window, the alternate screen's window while it is active, and the window under a
    status-line overlay while one is drawn."""

    def __init__(self, stats: dict[str, int], emit: Callable[[str], None], options: Options) -> None:
        self.stats = stats
        self.drop_alt = options.alt_screen == "drop"
        self.window = LineWindow(stats, emit, options)
        self.reset()

    def reset(self) -> None:
        self.window = self.window.like(discard=False)  # (the current one may be an alternate or overlay window)
        self.alt = False
        self.main_window: LineWindow | None = None  # the main screen's, while the alternate one is active
        self.overlay_origin: LineWindow | None = None  # the window under a status-line overlay

    def live(self) -> str:
        if self.overlay_origin is None:
            return self.window.text()
        # the window under the overlay, then the overlay line (a status line, as a terminal shows it)
        text = self.overlay_origin.text()
        overlay = line_text(self.window.lines[0])
        return text + "\n" + overlay if overlay else text

    # ------------------------------------------------------------------ the Sink interface (_parser_py)

    csi_finals = frozenset(b"KX@PbG`CaDAFBEHfdJsu")

    def frame_limit(self) -> int:
        # A frame that fits the line only sets cells, on a status-line overlay too (that line ends where a
        # character is due past max_line_cells, which such a frame never reaches).
        return self.window.max_line_cells

    def print(self, text: str) -> None:
        window = self.window
        if self.overlay_origin is not None:
            # The overlay line ends at an LF, or where a character is due at max_line_cells (which moves to
            # a new line as LF does): the rest goes on below the overlay's origin.
            head = text.split("\n", 1)[0]
            room = window.max_line_cells - window.col
            if len(head) < len(text) or len(head) > room:
                cut = max(0, min(len(head), room))
                if cut:
                    window.write(text[:cut])
                rest = text[cut:]
                self.end_overlay()
                self.window.newline()
                rest = rest[1:] if rest[:1] == "\n" else rest
                if rest:
                    self.window.print(rest)
                return
        window.print(text)

    def print_tabbed(self, text: str) -> None:
        """Printable text, tabs and LFs (the parser's tabbed runs): as print and execute(HT) piece by piece,
        written at once where the window can (LineWindow.print_tabbed)."""
        if self.overlay_origin is not None:  # (where the overlay line ends is print's to find)
            for index, piece in enumerate(text.split("\t")):
                if index:
                    self.execute(HT)
                if piece:
                    self.print(piece)
            return
        self.window.print_tabbed(text)

    def execute(self, byte: int) -> None:
        window = self.window
        if byte == CR:
            window.col = 0
        elif byte == HT:
            window.tab()
        elif byte == BS:
            if window.col:
                window.col -= 1
        else:  # LF, VT, FF
            self.end_overlay()
            self.window.newline()

    def esc_dispatch(self, final: int) -> None:
        if final == RIS:
            self.end_overlay()
            self.set_alt(False)
            self.window.commit_window(final=False)
        elif final == DECSC:
            self.end_overlay()
            self.window.save_cursor()
        elif final == DECRC:
            self.end_overlay()
            self.window.restore_cursor()
        elif final == IND or final == NEL:  # as LF, which already returns to column 0
            self.end_overlay()
            self.window.newline()
        elif final == RI:  # as CUU 1; never scrolls
            self.end_overlay()
            self.window.move_up(1)

    def csi_dispatch(self, params: Sequence[int], final: int) -> None:
        """``final`` is one of ``csi_finals``. Section numbers are ECMA-48 (5th ed.)."""
        window = self.window
        # (most take one count, read here: _param's call, and end_overlay's where no overlay is drawn, were a
        # tenth of CUU's instructions; round 51)
        n = params[0] if params and params[0] else 1
        if final == 0x48 or final == 0x66:  # H: 8.3.21 CUP, f: 8.3.63 HVP (first: the most frequent)
            if window.saved is not None or self.overlay_origin is not None:
                self.start_overlay(_param(params, 1, 1) - 1)
            else:
                window.fresh_line()  # (its line is empty: forward_target's bound is max_jump from column 0)
                window.col = min(_param(params, 1, 1) - 1, window.max_jump)
        elif final == 0x4B:  # K: 8.3.41 EL; the cursor does not move
            how = params[0] if params else 0
            if how == 0:
                window.erase(window.col, HUGE)
            elif how == 1:
                window.erase(0, window.col + 1)
            elif how == 2:
                window.erase(0, HUGE)
        elif final == 0x58:  # X: 8.3.38 ECH
            window.erase(window.col, window.col + n)
        elif final == 0x40:  # @: 8.3.64 ICH
            window.insert_blanks(n)
        elif final == 0x50:  # P: 8.3.26 DCH
            window.delete_cells(n)
        elif final == 0x47 or final == 0x60:  # G: 8.3.9 CHA, `: 8.3.57 HPA
            window.move_to_column(n - 1)
        elif final == 0x43 or final == 0x61:  # C: 8.3.20 CUF, a: 8.3.59 HPR
            window.col = window.forward_target(window.col + n)
        elif final == 0x44:  # D: 8.3.18 CUB
            window.col = window.col - n if n < window.col else 0
        elif final == 0x41 or final == 0x46:  # A: 8.3.22 CUU, F: 8.3.13 CPL
            if self.overlay_origin is not None:
                self.end_overlay()
            self.window.move_up(n)
            if final == 0x46:
                self.window.col = 0
        elif final == 0x42 or final == 0x45:  # B: 8.3.19 CUD, E: 8.3.12 CNL
            if self.overlay_origin is not None:
                self.end_overlay()
            self.window.move_down(n)
            if final == 0x45:
                self.window.col = 0
        elif final == 0x64:  # d: 8.3.158 VPA (keeps the column)
            if window.saved is not None or self.overlay_origin is not None:
                self.start_overlay(window.col)
            else:
                window.fresh_line()
        elif final == 0x4A:  # J: 8.3.39 ED; history is never deleted
            how = params[0] if params else 0
            if how == 0:
                window.erase_below()
            elif how <= 3:
                self.end_overlay()
                self.window.commit_window(final=False)
        elif final == 0x73:  # s: SCOSC; with parameters it is DECSLRM
            if not params:
                self.end_overlay()
                self.window.save_cursor()
        elif final == 0x75:  # u: SCORC
            if not params:
                self.end_overlay()
                self.window.restore_cursor()

    def repeat(self, char: str, count: int) -> None:
        self.window.repeat(char, count)

    def private_mode(self, mode: int, enable: bool) -> None:
        if mode in ALT_SCREEN_MODES:
            self.set_alt(enable)

    def set_alt(self, enter: bool) -> None:
        """CSI ? 1049/1047/47 h/l (SPEC 2.3 rev 2). With alt_screen="drop" the program draws on a separate,
        initially empty window; leaving it discards that window and the main one is back as it was (so 1049's
        cursor save and restore come with it). alt_screen="keep" treats the alternate screen as the main one."""
        if not self.drop_alt or enter == self.alt:
            return
        self.alt = enter
        self.end_overlay()
        if enter:
            self.main_window = self.window
            self.window = self.window.like(discard=True)
        else:
            self.stats["alt_screen_dropped"] += self.window.written()
            assert self.main_window is not None
            self.window = self.main_window
            self.main_window = None

    def flush(self) -> None:
        """Emit what the windows hold committed (LineWindow.flush): the decoder's call ends here. Only the
        main window commits lines (the alternate one drops them, an overlay is one line), wherever it is
        kept while another is drawn on."""
        for window in (self.window, self.main_window, self.overlay_origin):
            if window is not None and window.held:
                window.flush()

    def finish(self) -> None:
        """final=True (SPEC 2.3 rev 2): the window is committed; a stream that ends on the alternate screen
        commits the main window as ED does and then the alternate one (a program killed there leaves its
        last screen and the shell's messages where a terminal shows them); an overlay line still being drawn
        is committed as a line of its own after the window."""
        self.flush()
        overlay = ""
        if self.overlay_origin is not None:
            overlay = line_text(self.window.lines[0])
            self.window = self.overlay_origin
            self.overlay_origin = None
        if self.main_window is not None:
            self.main_window.commit_window(final=False)
            self.main_window = None
        text = self.window.window_text(final=True)
        if overlay:
            text += ("\n" if text and not text.endswith("\n") else "") + overlay
        if text:
            self.window.emit(text)
        self.reset()

    # ------------------------------------------------------------------ the status-line overlay

    def start_overlay(self, col: int) -> None:
        """SPEC 2.3 rev 2, the status-line overlay: while a cursor is saved, CUP/HVP/VPA draw on a detached
        line (apt saves the cursor, jumps to the bottom row, draws its bar and restores). A further one
        starts a new, empty overlay line."""
        if self.overlay_origin is None:
            self.overlay_origin = self.window
        else:
            self.stats["overlay_dropped"] += self.window.written()
        self.window = self.overlay_origin.like(discard=self.overlay_origin.discard)
        self.window.col = self.window.forward_target(col)

    def end_overlay(self) -> None:
        """Restore, save, a vertical move, ED 1-3, RIS or a screen switch ends the overlay: its line is
        discarded and the cursor is back where the overlay began; the ending function then applies there."""
        if self.overlay_origin is not None:
            self.stats["overlay_dropped"] += self.window.written()
            self.window = self.overlay_origin
            self.overlay_origin = None


assert REP in RenderSink.csi_finals
