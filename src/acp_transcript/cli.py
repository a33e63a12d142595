"""The ``acp-transcript`` command line (SPEC 5).

    acp-transcript sanitize [FILE ...]      terminal output bytes -> transcript on stdout, streaming
    acp-transcript replay LOG               an ACP session recording -> one transcript per terminal

Exit codes: 0 success, 1 the input had errors (reported on stderr as ``LOG:LINE: message``), 2 usage
(including a file that cannot be opened). Output is UTF-8 whatever the locale.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import stat
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from . import __version__
from ._decoder import IMPLEMENTATION, TranscriptDecoder
from ._defs import ALT_SCREEN, DEFAULTS, MODES, TABS, UNICODE
from ._legacy import LEGACY_OUTPUT
from .display import safe_line
from .replay import Replay, Session
from .terminals import Terminal

BLOCK = 1 << 16
EXIT_OK, EXIT_INPUT_ERRORS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """Something the user asked for cannot be done (exit code 2)."""


# ---------------------------------------------------------------------- arguments

_HELP = {
    "mode": "render (a terminal's view: progress bars collapse) or strip (every frame, nothing hidden)",
    "tabs": "keep a tab over blank cells as \\t, or expand it to spaces",
    "alt_screen": "drop full-screen programs' alternate screen (shown if the stream ends on it), or keep it",
    "unicode": "how characters that hide or reorder text are shown (see the README)",
    "live_lines": "lines that may still change before they are committed",
    "max_line_cells": "longest line; longer text continues on a new line",
    "max_live_cells": "cells the live window may hold",
    "max_jump": "furthest a cursor move may go past a line's end",
    "max_string_bytes": "an unterminated OSC/DCS string longer than this is given up at the next LF",
    "columns": "render as a terminal this many columns wide: auto-wrap, wide characters (default: unsized)",
    "rows": "render as a terminal this many rows high: the screen is addressed as the program sees it "
            "(default: unsized)",
}


def _decoder_arguments(parser: argparse.ArgumentParser, live_lines_help: str) -> None:
    group = parser.add_argument_group("transcript options (see the README for what each does)")
    choices = {"mode": MODES, "tabs": TABS, "alt_screen": ALT_SCREEN, "unicode": UNICODE}
    for name, default in DEFAULTS._asdict().items():
        flag = "--" + name.replace("_", "-")
        if name in choices:
            group.add_argument(flag, choices=choices[name], default=default,
                               help=f"{_HELP[name]} (default: {default})")
        elif name == "live_lines":
            group.add_argument(flag, type=int, metavar="N", help=f"{_HELP[name]} ({live_lines_help})")
        elif default is None:  # columns, rows
            group.add_argument(flag, type=int, default=None, metavar="N", help=_HELP[name])
        else:
            group.add_argument(flag, type=int, default=default, metavar="N",
                               help=f"{_HELP[name]} (default: {default})")


def decoder_options(args: argparse.Namespace, live_lines: int = DEFAULTS.live_lines) -> dict[str, Any]:
    options = {name: getattr(args, name) for name in DEFAULTS._fields}
    if options["live_lines"] is None:
        options["live_lines"] = live_lines
    return options


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="acp-transcript",
        description="Safe plain-text transcripts of terminal output and ACP v2 session recordings.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__} ({IMPLEMENTATION} core)")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    sanitize = commands.add_parser(
        "sanitize",
        help="terminal output bytes to a transcript",
        description="Read terminal output bytes (stdin when no FILE, or '-') and write the transcript to stdout, "
        "streaming in constant memory. Each FILE is a stream of its own; one that cannot be read is reported and "
        "the rest are still processed (exit 1). Reading a pipe or terminal, each line is written as soon as the "
        "next one begins (--live-lines 1) so that `tail -f LOG | acp-transcript sanitize` follows along; files "
        "keep a 200-line live window, so cursor-up redraws (multi-line progress bars) collapse.",
    )
    sanitize.add_argument("files", nargs="*", metavar="FILE", help="files to read (default: stdin)")
    _decoder_arguments(sanitize, "default: 200 for files, 1 for pipes and terminals")

    replay = commands.add_parser(
        "replay",
        help="an ACP session recording to one transcript per terminal",
        description="Replay an ACP session recording (NDJSON of JSON-RPC messages and batches, or Zed's exported "
        "JSON array) and write one transcript per terminal, with its command, cwd, exit status and tool call. "
        "Agent-controlled fields are shown safely on one line (escapes and newlines as <U+XXXX>).",
    )
    replay.add_argument("log", metavar="LOG", help="the recording ('-' for stdin)")
    replay.add_argument("--format", choices=tuple(FORMATS), default="text",
                        help="output format (default: text)")
    replay.add_argument("--terminal", metavar="ID", action="append", help="only this terminal (repeatable)")
    replay.add_argument("--session", metavar="ID", action="append", help="only this session (repeatable)")
    replay.add_argument("--output", metavar="DIR", help="write one file per terminal into DIR (default: stdout)")
    replay.add_argument("--strict", action="store_true", help="stop at the first bad line (default: skip it)")
    replay.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    replay.add_argument("--no-legacy-meta", action="store_true", help="ignore pre-v2 _meta terminal extensions")
    replay.add_argument("--no-size", action="store_true",
                        help="ignore the size a terminal_update gives and render every terminal unsized (or at "
                        "--columns/--rows); by default a terminal with a known size renders as a terminal of "
                        "that size")
    replay.add_argument("--legacy-output", choices=LEGACY_OUTPUT, default="append",
                        help="what a pre-v2 terminal_output means when the recording does not name its agent "
                        "(default: append)")
    _decoder_arguments(replay, f"default: {DEFAULTS.live_lines}")
    return parser


# ---------------------------------------------------------------------- sanitize


def _is_stream(fd: int) -> bool:
    return not stat.S_ISREG(os.fstat(fd).st_mode)


def _open_input(name: str) -> IO[bytes]:
    if name == "-":
        return sys.stdin.buffer
    try:
        return open(name, "rb")  # noqa: SIM115 (closed by the caller)
    except OSError as exc:
        raise UsageError(f"{safe_line(name)}: {exc.strerror or exc}") from None


def run_sanitize(args: argparse.Namespace, stdout: IO[bytes]) -> int:
    """Each file is its own stream (its unfinished last line ends with it); like cat, a file that cannot be
    read is reported and the others are still written (exit 1)."""
    status = EXIT_OK
    for name in args.files or ["-"]:
        try:
            source = _open_input(name)
        except UsageError as exc:
            stdout.flush()
            sys.stderr.write(f"acp-transcript: {exc}\n")
            status = EXIT_INPUT_ERRORS
            continue
        try:
            streaming = _is_stream(source.fileno())
            decoder = TranscriptDecoder(**decoder_options(args, live_lines=1 if streaming else 200))
            read = getattr(source, "read1", source.read)  # read1: whatever is there, so pipes flow
            while True:
                block = read(BLOCK)
                if not block:
                    break
                text = decoder.decode(block)
                if text:
                    stdout.write(text.encode("utf-8"))
                    if streaming:
                        stdout.flush()
            stdout.write(decoder.decode(b"", final=True).encode("utf-8"))
            stdout.flush()
        except OSError as exc:  # a read error (EIO, a directory given as FILE): said, then the next file
            sys.stderr.write(f"acp-transcript: {safe_line(name)}: {exc.strerror or exc}\n")
            status = EXIT_INPUT_ERRORS
        finally:
            if source is not sys.stdin.buffer:
                source.close()
    return status


# ---------------------------------------------------------------------- replay: output
#
# Everything an agent controls (IDs, command, cwd, titles, signal) goes through safe_line: printed raw, an
# escape in `command` would reach the reader's terminal and a newline would forge a header (SPEC 5 rev 2).


def _exit_text(terminal: Terminal) -> str:
    status = terminal.exit_status
    if status is None:
        return "running (no exit status)"
    if status.signal is not None:
        signal = safe_line(status.signal)
        return f"signal {signal}" + (f" (exit code {status.exit_code})" if status.exit_code is not None else "")
    return f"exit code {status.exit_code}" if status.exit_code is not None else "exited"


def _tool_calls(session: Session, terminal: Terminal, code: Callable[[str], str] = safe_line) -> str:
    calls = [
        f"{code(i)} ({safe_line(session.titles[i])})" if i in session.titles else code(i) for i in terminal.tool_call_ids
    ]
    return ", ".join(calls) or "-"


def _ended(transcript: str) -> str:
    return transcript + ("" if transcript.endswith("\n") or not transcript else "\n")


def render_text(session: Session, terminal: Terminal) -> str:
    header = [
        f"=== terminal {safe_line(terminal.terminal_id)}"
        + (f" (session {safe_line(session.session_id)})" if session.session_id else ""),
        f"command:   {terminal.display('command') or '-'}",
        f"cwd:       {terminal.display('cwd') or '-'}",
        f"status:    {_exit_text(terminal)}",
        f"tool call: {_tool_calls(session, terminal)}",
    ]
    if terminal.size is not None:
        header.append(f"size:      {terminal.size.cols}x{terminal.size.rows}")
    if terminal.legacy:
        header.append("source:    pre-v2 _meta extensions")
    return "\n".join(header) + "\n---\n" + _ended(terminal.transcript)


def _fence(text: str, least: int) -> str:
    """A run of backticks longer than any in ``text`` (CommonMark: a fence ends only at a run as long)."""
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    return "`" * max(least, longest + 1)


def _code(text: str) -> str:
    """``text`` as inline code that its own backticks cannot end, on one safe line."""
    text = safe_line(text)
    fence = _fence(text, 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def render_markdown(session: Session, terminal: Terminal) -> str:
    transcript = terminal.transcript
    fence = _fence(transcript, 3)
    title = terminal.command if terminal.command is not None else terminal.terminal_id
    lines = [
        f"## {_code(title)}",
        "",
        f"- terminal: {_code(terminal.terminal_id)}" + (f" (session {_code(session.session_id)})" if session.session_id else ""),
        f"- cwd: {_code(terminal.cwd)}" if terminal.cwd is not None else "- cwd: unknown",
        f"- status: {_exit_text(terminal)}",
        f"- tool call: {_tool_calls(session, terminal, _code)}",
        "",
        fence + "text",
        _ended(transcript) + fence,
        "",
    ]
    return "\n".join(lines)


def as_json_object(session: Session, terminal: Terminal) -> dict[str, Any]:
    status = terminal.exit_status
    return {
        "sessionId": session.session_id,
        "terminalId": terminal.terminal_id,
        "command": terminal.command,
        "cwd": terminal.cwd,
        "exitStatus": None if status is None else {"exitCode": status.exit_code, "signal": status.signal},
        "size": None if terminal.size is None else terminal.size.to_json(),
        "capabilities": None if terminal.capabilities is None else terminal.capabilities.to_json(),
        "background": terminal.background,
        "toolCalls": [{"toolCallId": i, "title": session.titles.get(i)} for i in terminal.tool_call_ids],
        "legacy": terminal.legacy,
        "stats": terminal.stats,
        "transcript": terminal.transcript,
    }


# Characters that a JSON string may hold raw but that do harm where the JSON is shown or re-encoded: C1,
# lone surrogates (not encodable as UTF-8), line and paragraph separators (JavaScript before ES2019), and the
# characters the Unicode policy hides or shows. Written as \uXXXX escapes, they decode to the same string.
_JSON_ESCAPE = re.compile("[\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ud800-\udfff]")


def dumps_json(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, indent=2)
    return _JSON_ESCAPE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n"


def _selected(replay: Replay, args: argparse.Namespace) -> list[tuple[Session, Terminal]]:
    return [
        (session, terminal)
        for session, terminal in replay.terminals()
        if (not args.session or session.session_id in args.session)
        and (not args.terminal or terminal.terminal_id in args.terminal)
    ]


_NAME_CHARS = re.compile(r"[^A-Za-z0-9._-]+")
_STEM_MAX = 80  # with the hash and suffix, well under every file system's 255-byte limit


def file_name(session: Session, terminal: Terminal, suffix: str) -> str:
    """A file name that is unique per (session, terminal), short enough for every file system, and never
    leaves its directory: the IDs with unsafe characters replaced, cut to a length, and a short hash of the
    exact IDs whenever that changed anything (``a/b`` and ``a_b`` get different names)."""
    raw = (session.session_id + "__" if session.session_id else "") + terminal.terminal_id
    stem = _NAME_CHARS.sub("_", raw).strip("._") or "terminal"
    if stem != raw or len(stem) > _STEM_MAX:
        digest = hashlib.sha256(json.dumps([session.session_id, terminal.terminal_id]).encode("utf-8", "surrogatepass"))
        stem = f"{stem[:_STEM_MAX]}-{digest.hexdigest()[:12]}"
    return stem + suffix


@dataclass(frozen=True)
class _Format:
    suffix: str  # of each file with --output
    one: Callable[[Session, Terminal], str]  # one terminal: a file with --output
    many: Callable[[list[tuple[Session, Terminal]]], str]  # every chosen terminal, on stdout


FORMATS = {
    "text": _Format(".txt", render_text, lambda chosen: "\n".join(render_text(s, t) for s, t in chosen)),
    "markdown": _Format(".md", render_markdown, lambda chosen: "\n".join(render_markdown(s, t) for s, t in chosen)),
    "json": _Format(
        ".json",
        lambda s, t: dumps_json(as_json_object(s, t)),
        lambda chosen: dumps_json([as_json_object(s, t) for s, t in chosen]),
    ),
}


def write_results(chosen: list[tuple[Session, Terminal]], args: argparse.Namespace, stdout: IO[bytes]) -> int:
    fmt = FORMATS[args.format]
    if not args.output:
        stdout.write(fmt.many(chosen).encode("utf-8", "surrogateescape"))
        stdout.flush()
        return EXIT_OK
    directory = Path(args.output)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{safe_line(args.output)}: {exc.strerror or exc}") from None
    status = EXIT_OK
    for session, terminal in chosen:
        path = directory / file_name(session, terminal, fmt.suffix)
        try:  # a whole file or none: written aside, then renamed over
            partial = path.with_name(path.name + ".partial")
            partial.write_text(fmt.one(session, terminal), encoding="utf-8")
            os.replace(partial, path)
        except OSError as exc:  # read-only directory, full disk: said once per file, the others still written
            sys.stderr.write(f"acp-transcript: {safe_line(str(path))}: {exc.strerror or exc}\n")
            status = EXIT_INPUT_ERRORS
    return status


class Progress:
    """A progress bar on stderr for long logs, only when stderr is a terminal. tqdm when it is installed
    (the `progress` extra: well-kept, rate and ETA for free); otherwise a one-line percentage from the
    standard library, so the core keeps no dependency."""

    MIN_SIZE = 4 << 20
    INTERVAL = 0.1  # seconds between redraws: at most about 10 a second (SPEC 5 rev 2)

    def __init__(self, total: int | None, enabled: bool) -> None:
        self.total = total
        self.done = 0
        self.bar: Any = None
        self.plain = False
        self.drawn = 0.0
        if not enabled or not total or total < self.MIN_SIZE or not sys.stderr.isatty():
            return
        try:
            from tqdm import tqdm
        except ImportError:
            self.plain = True
        else:
            self.bar = tqdm(total=total, unit="B", unit_scale=True, desc="replay", leave=False,
                            mininterval=self.INTERVAL)

    def __call__(self, count: int) -> None:
        self.done += count
        if self.bar is None and not self.plain:
            return
        now = time.monotonic()
        if now - self.drawn < self.INTERVAL:
            return
        self.drawn = now
        if self.bar is not None:
            self.bar.update(self.done - self.bar.n)
        elif self.total:
            sys.stderr.write(f"\rreplay {100 * self.done // self.total:3d}%")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.plain:
            sys.stderr.write("\r" + " " * 12 + "\r")


def run_replay(args: argparse.Namespace, stdout: IO[bytes]) -> int:
    source = _open_input(args.log)
    name = "<stdin>" if args.log == "-" else safe_line(args.log)
    total = None if source is sys.stdin.buffer or _is_stream(source.fileno()) else os.fstat(source.fileno()).st_size
    replay = Replay(legacy_meta=not args.no_legacy_meta, legacy_output=args.legacy_output,
                    use_size=not args.no_size, **decoder_options(args))
    progress = Progress(total, enabled=not args.no_progress)
    try:
        errors = replay.read(source, name, strict=args.strict, progress=progress)
    finally:
        progress.close()
        if source is not sys.stdin.buffer:
            source.close()
    for error in errors:
        sys.stderr.write(f"{error}\n")
    for warning in replay.warnings:  # malformed optional fields, left out: said, but not errors
        sys.stderr.write(f"{warning}\n")
    if replay.warning_count > len(replay.warnings):
        sys.stderr.write(f"{name}: {replay.warning_count - len(replay.warnings)} more fields left out\n")
    if args.strict and errors:
        return EXIT_INPUT_ERRORS
    chosen = _selected(replay, args)
    if (args.terminal or args.session) and not chosen:
        sys.stderr.write(f"{name}: no terminal matches --terminal/--session\n")
        return EXIT_INPUT_ERRORS
    status = write_results(chosen, args, stdout)
    return EXIT_INPUT_ERRORS if errors else status


# ---------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    stdout = sys.stdout.buffer
    try:
        decoder_options(args)  # bad numbers are usage errors, said in one line
        TranscriptDecoder(**decoder_options(args))
    except (TypeError, ValueError) as exc:
        parser.error(str(exc))
    try:
        if args.command == "sanitize":
            return run_sanitize(args, stdout)
        return run_replay(args, stdout)
    except UsageError as exc:
        sys.stderr.write(f"acp-transcript: {exc}\n")
        return EXIT_USAGE
    except BrokenPipeError:  # `acp-transcript ... | head`: the reader left; not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
