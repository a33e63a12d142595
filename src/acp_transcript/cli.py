"""The ``acp-transcript`` command line (SPEC 5).

    acp-transcript sanitize [FILE ...]      terminal output bytes -> transcript on stdout, streaming
    acp-transcript replay LOG               an ACP session recording -> one transcript per terminal

Exit codes: 0 success, 1 the input had errors (reported on stderr as ``LOG:LINE: message``), 2 usage
(including a file that cannot be opened). Output is UTF-8 whatever the locale.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from . import __version__
from ._decoder import IMPLEMENTATION, TranscriptDecoder
from ._options import ALT_SCREEN, MODES, TABS, UNICODE
from .errors import ProtocolError
from .terminals import Terminal, TerminalStore, find_update

BLOCK = 1 << 16
EXIT_OK, EXIT_INPUT_ERRORS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """Something the user asked for cannot be done (exit code 2)."""


class StopReplay(Exception):
    """--strict: the first bad line ends the replay."""


# ---------------------------------------------------------------------- arguments


def _decoder_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("transcript options (see the README for what each does)")
    group.add_argument("--mode", choices=MODES, default="render", help="render (a terminal's view) or strip")
    group.add_argument("--tabs", choices=TABS, default="keep")
    group.add_argument("--alt-screen", choices=ALT_SCREEN, default="drop")
    group.add_argument("--unicode", choices=UNICODE, default="standard")
    group.add_argument("--live-lines", type=int, metavar="N")
    group.add_argument("--max-line-cells", type=int, default=65536, metavar="N")
    group.add_argument("--max-live-cells", type=int, default=1 << 20, metavar="N")
    group.add_argument("--max-jump", type=int, default=1024, metavar="N")
    group.add_argument("--max-string-bytes", type=int, default=65536, metavar="N")


def decoder_options(args: argparse.Namespace, live_lines: int = 200) -> dict[str, Any]:
    return {
        "mode": args.mode,
        "tabs": args.tabs,
        "alt_screen": args.alt_screen,
        "unicode": args.unicode,
        "live_lines": args.live_lines if args.live_lines is not None else live_lines,
        "max_line_cells": args.max_line_cells,
        "max_live_cells": args.max_live_cells,
        "max_jump": args.max_jump,
        "max_string_bytes": args.max_string_bytes,
    }


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
        "streaming in constant memory. Reading a pipe or terminal, each line is written as soon as the next one "
        "begins (--live-lines 1) so that `tail -f LOG | acp-transcript sanitize` follows along; files keep a "
        "200-line live window, so cursor-up redraws (multi-line progress bars) collapse.",
    )
    sanitize.add_argument("files", nargs="*", metavar="FILE")
    _decoder_arguments(sanitize)

    replay = commands.add_parser(
        "replay",
        help="an ACP session recording to one transcript per terminal",
        description="Replay an ACP session recording (NDJSON of JSON-RPC messages and batches, or Zed's exported "
        "JSON array) and write one transcript per terminal, with its command, cwd, exit status and tool call.",
    )
    replay.add_argument("log", metavar="LOG", help="the recording ('-' for stdin)")
    replay.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    replay.add_argument("--terminal", metavar="ID", action="append", help="only this terminal (repeatable)")
    replay.add_argument("--session", metavar="ID", action="append", help="only this session (repeatable)")
    replay.add_argument("--output", metavar="DIR", help="write one file per terminal into DIR")
    replay.add_argument("--strict", action="store_true", help="stop at the first bad line")
    replay.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    replay.add_argument("--no-legacy-meta", action="store_true", help="ignore pre-v2 _meta terminal extensions")
    _decoder_arguments(replay)
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
        raise UsageError(f"{name}: {exc.strerror or exc}") from None


def run_sanitize(args: argparse.Namespace, stdout: IO[bytes]) -> int:
    names = args.files or ["-"]
    for name in names:
        source = _open_input(name)
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
        finally:
            if source is not sys.stdin.buffer:
                source.close()
    return EXIT_OK


# ---------------------------------------------------------------------- replay: reading logs


@dataclass
class LogEntry:
    line: int
    message: Any


@dataclass
class LogReader:
    """Messages of a recording with their line numbers; bad lines are collected as errors."""

    name: str
    errors: list[str] = field(default_factory=list)
    strict: bool = False

    def error(self, line: int, message: str) -> None:
        self.errors.append(f"{self.name}:{line}: {message}")
        if self.strict:
            raise StopReplay

    def read(self, source: IO[bytes], progress: Any) -> Iterator[LogEntry]:
        first = source.readline()
        progress(len(first))
        stripped = first.strip()
        if stripped.startswith(b"[") and not _is_complete_json(stripped):
            # Zed's export: one JSON array of {_direction, _type, id, method, params}, pretty-printed.
            rest = source.read()
            progress(len(rest))
            yield from self._zed_export(first + rest)
            return
        number = 1
        line = first
        while line:
            if line.strip():
                try:
                    message = json.loads(line)
                except json.JSONDecodeError as exc:
                    self.error(number, f"not JSON ({exc.msg} at column {exc.colno})")
                else:
                    if isinstance(message, list) and message and all(
                        isinstance(m, dict) and "_direction" in m for m in message
                    ):
                        for item in message:  # a one-line Zed export
                            yield LogEntry(number, _from_zed(item))
                    else:
                        yield LogEntry(number, message)
            line = source.readline()
            progress(len(line))
            number += 1

    def _zed_export(self, data: bytes) -> Iterator[LogEntry]:
        """Each element of the array with the line it starts on (raw_decode gives exact offsets)."""
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            self.error(data.count(b"\n", 0, exc.start) + 1, "not UTF-8")
            return
        decoder = json.JSONDecoder()
        at = text.index("[") + 1
        while True:
            at = _skip_space(text, at)
            if text.startswith("]", at):
                return
            try:
                item, end = decoder.raw_decode(text, at)
            except json.JSONDecodeError as exc:
                self.error(exc.lineno, f"not JSON ({exc.msg} at column {exc.colno})")
                return
            yield LogEntry(text.count("\n", 0, at) + 1, _from_zed(item))
            at = _skip_space(text, end)
            if text.startswith(",", at):
                at += 1
            elif not text.startswith("]", at):
                self.error(text.count("\n", 0, at) + 1, "expected ',' or ']' in the exported array")
                return


def _skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def _is_complete_json(line: bytes) -> bool:
    try:
        json.loads(line)
    except ValueError:
        return False
    return True


def _from_zed(item: Any) -> Any:
    """A Zed export entry as a JSON-RPC message (it keeps method and params; the rest is Zed's)."""
    if isinstance(item, dict) and "method" in item:
        return {"jsonrpc": "2.0", "method": item["method"], "params": item.get("params")}
    return item


# ---------------------------------------------------------------------- replay: state


@dataclass
class Session:
    session_id: str
    store: TerminalStore
    titles: dict[str, str] = field(default_factory=dict)


class Replay:
    def __init__(self, options: dict[str, Any], legacy_meta: bool) -> None:
        self.options = options
        self.legacy_meta = legacy_meta
        self.sessions: dict[str, Session] = {}

    def session(self, session_id: str) -> Session:
        if session_id not in self.sessions:
            store = TerminalStore(legacy_meta=self.legacy_meta, **self.options)
            self.sessions[session_id] = Session(session_id, store)
        return self.sessions[session_id]

    def apply(self, message: Any) -> list[ProtocolError]:
        """Apply one message or batch; return the protocol errors of its invalid parts."""
        if isinstance(message, list):
            errors = []
            for index, entry in enumerate(message):
                errors += [e.prefixed(f"/{index}") for e in self.apply(entry)]
            return errors
        try:
            update, _ = find_update(message, "")
        except ProtocolError as exc:
            return [exc]
        if update is None:
            return []
        params = message.get("params", message) if isinstance(message, dict) else {}
        session_id = params.get("sessionId") if isinstance(params, dict) else None
        session = self.session(session_id if isinstance(session_id, str) else "")
        if update.get("sessionUpdate") in ("tool_call", "tool_call_update") and isinstance(update.get("title"), str):
            tool_call_id = update.get("toolCallId")
            if isinstance(tool_call_id, str):
                session.titles[tool_call_id] = update["title"]
        try:
            session.store.apply(message)
        except ProtocolError as exc:
            return [exc]
        return []


# ---------------------------------------------------------------------- replay: output


def _exit_text(terminal: Terminal) -> str:
    status = terminal.exit_status
    if status is None:
        return "running (no exit status)"
    if status.signal is not None:
        return f"signal {status.signal}" + (f" (exit code {status.exit_code})" if status.exit_code is not None else "")
    return f"exit code {status.exit_code}" if status.exit_code is not None else "exited"


def _tool_calls(session: Session, terminal: Terminal) -> str:
    calls = [f"{i} ({session.titles[i]})" if i in session.titles else i for i in terminal.tool_call_ids]
    return ", ".join(calls) or "-"


def render_text(session: Session, terminal: Terminal) -> str:
    header = [
        f"=== terminal {terminal.terminal_id}" + (f" (session {session.session_id})" if session.session_id else ""),
        f"command:   {terminal.command if terminal.command is not None else '-'}",
        f"cwd:       {terminal.cwd if terminal.cwd is not None else '-'}",
        f"status:    {_exit_text(terminal)}",
        f"tool call: {_tool_calls(session, terminal)}",
    ]
    if terminal.legacy:
        header.append("source:    pre-v2 _meta extensions")
    transcript = terminal.transcript
    return "\n".join(header) + "\n---\n" + transcript + ("" if transcript.endswith("\n") or not transcript else "\n")


def render_markdown(session: Session, terminal: Terminal) -> str:
    transcript = terminal.transcript
    fence = "`" * max(3, max((len(run) for run in re.findall("`+", transcript)), default=0) + 1)
    title = terminal.command if terminal.command is not None else terminal.terminal_id
    title_fence = "`" * (max((len(run) for run in re.findall("`+", title)), default=0) + 1)
    lines = [
        f"## {title_fence}{title}{title_fence}",
        "",
        f"- terminal: `{terminal.terminal_id}`" + (f" (session `{session.session_id}`)" if session.session_id else ""),
        f"- cwd: `{terminal.cwd}`" if terminal.cwd is not None else "- cwd: unknown",
        f"- status: {_exit_text(terminal)}",
        f"- tool call: {_tool_calls(session, terminal)}",
        "",
        fence + "text",
        transcript + ("" if transcript.endswith("\n") or not transcript else "\n") + fence,
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
        "toolCalls": [{"toolCallId": i, "title": session.titles.get(i)} for i in terminal.tool_call_ids],
        "legacy": terminal.legacy,
        "transcript": terminal.transcript,
    }


def _selected(replay: Replay, args: argparse.Namespace) -> list[tuple[Session, Terminal]]:
    chosen = []
    for session in replay.sessions.values():
        if args.session and session.session_id not in args.session:
            continue
        for terminal in session.store.terminals():
            if args.terminal and terminal.terminal_id not in args.terminal:
                continue
            chosen.append((session, terminal))
    return chosen


def _file_name(session: Session, terminal: Terminal, suffix: str) -> str:
    safe = re.compile(r"[^A-Za-z0-9._-]+")
    stem = safe.sub("_", terminal.terminal_id)
    if session.session_id:
        stem = safe.sub("_", session.session_id) + "__" + stem
    return stem.strip(".") + suffix


def write_results(chosen: list[tuple[Session, Terminal]], args: argparse.Namespace, stdout: IO[bytes]) -> None:
    suffix = {"text": ".txt", "markdown": ".md", "json": ".json"}[args.format]
    if args.output:
        directory = Path(args.output)
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"{args.output}: {exc.strerror or exc}") from None
        for session, terminal in chosen:
            if args.format == "json":
                body = json.dumps(as_json_object(session, terminal), ensure_ascii=False, indent=2) + "\n"
            else:
                body = (render_text if args.format == "text" else render_markdown)(session, terminal)
            (directory / _file_name(session, terminal, suffix)).write_text(body, encoding="utf-8")
        return
    if args.format == "json":
        body = json.dumps([as_json_object(s, t) for s, t in chosen], ensure_ascii=False, indent=2) + "\n"
    else:
        render = render_text if args.format == "text" else render_markdown
        body = "\n".join(render(s, t) for s, t in chosen)
    stdout.write(body.encode("utf-8"))
    stdout.flush()


class Progress:
    """A progress bar on stderr for long logs, only when stderr is a terminal. tqdm when it is installed
    (the `progress` extra: well-kept, rate and ETA for free); otherwise a one-line percentage from the
    standard library, so the core keeps no dependency."""

    MIN_SIZE = 4 << 20

    def __init__(self, total: int | None, enabled: bool) -> None:
        self.total = total
        self.done = 0
        self.bar: Any = None
        self.plain = False
        if not enabled or not total or total < self.MIN_SIZE or not sys.stderr.isatty():
            return
        try:
            from tqdm import tqdm
        except ImportError:
            self.plain = True
        else:
            self.bar = tqdm(total=total, unit="B", unit_scale=True, desc="replay", leave=False)

    def __call__(self, count: int) -> None:
        self.done += count
        if self.bar is not None:
            self.bar.update(count)
        elif self.plain and self.total:
            sys.stderr.write(f"\rreplay {100 * self.done // self.total:3d}%")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.plain:
            sys.stderr.write("\r" + " " * 12 + "\r")


def run_replay(args: argparse.Namespace, stdout: IO[bytes]) -> int:
    source = _open_input(args.log)
    name = "<stdin>" if args.log == "-" else args.log
    total = None if source is sys.stdin.buffer or _is_stream(source.fileno()) else os.fstat(source.fileno()).st_size
    reader = LogReader(name, strict=args.strict)
    replay = Replay(decoder_options(args), legacy_meta=not args.no_legacy_meta)
    progress = Progress(total, enabled=not args.no_progress)
    try:
        for entry in reader.read(source, progress):
            for error in replay.apply(entry.message):
                reader.error(entry.line, str(error))
    except StopReplay:
        pass
    finally:
        progress.close()
        if source is not sys.stdin.buffer:
            source.close()
    for message in reader.errors:
        sys.stderr.write(message + "\n")
    if args.strict and reader.errors:
        return EXIT_INPUT_ERRORS
    chosen = _selected(replay, args)
    if (args.terminal or args.session) and not chosen:
        sys.stderr.write(f"{name}: no terminal matches --terminal/--session\n")
        return EXIT_INPUT_ERRORS
    write_results(chosen, args, stdout)
    return EXIT_INPUT_ERRORS if reader.errors else EXIT_OK


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
