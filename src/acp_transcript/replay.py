"""Replaying ACP session recordings: the library behind ``acp-transcript replay`` (SPEC 5).

A recording is NDJSON of JSON-RPC messages and batches, or Zed's exported JSON array of
``{_direction, _type, method, params}``. ``Replay`` reads one into sessions, each a ``TerminalStore``; bad
lines are collected as ``LogError`` (line number and message, never the payload) and skipped.

>>> import io, json
>>> from acp_transcript import session_notification, terminal_output_chunk
>>> line = json.dumps(session_notification("s1", terminal_output_chunk("t1", b"\\x1b[1mok\\x1b[0m\\n")))
>>> replay = Replay()
>>> errors = replay.read(io.BytesIO(line.encode() + b"\\n{oops\\n"), name="log")
>>> [(session.session_id, terminal.terminal_id, terminal.transcript) for session, terminal in replay.terminals()]
[('s1', 't1', 'ok\\n')]
>>> [str(error) for error in errors]
['log:2: not JSON (Expecting property name enclosed in double quotes at column 2)']
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from .errors import ProtocolError
from .terminals import TOOL_CALL_KINDS, Terminal, TerminalStore, agent_name_of, find_update, session_id_of

__all__ = ["LogError", "Replay", "Session"]


@dataclass(frozen=True)
class LogError:
    """A line of a recording that could not be used; ``str()`` is ``NAME:LINE: message``."""

    name: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.name}:{self.line}: {self.message}"


MAX_WARNINGS = 1000


class StopReplay(Exception):
    """strict: the first bad line ends the replay."""


@dataclass
class Session:
    """One session of a recording: its terminals and the titles of its tool calls (agent-controlled: show
    them through ``acp_transcript.safe_line``)."""

    session_id: str
    store: TerminalStore
    titles: dict[str, str] = field(default_factory=dict)


class Replay:
    """The sessions of a recording. ``store_options`` go to every ``TerminalStore`` (decoder options,
    ``legacy_meta``, ``strict``, ...); by default no raw output bytes are kept (``max_output_bytes=0``), only
    transcripts, so memory is bounded by the transcripts (SPEC 5 rev 2)."""

    def __init__(self, **store_options: Any) -> None:
        store_options.setdefault("max_output_bytes", 0)
        TerminalStore(**store_options)  # fail on bad options now
        self.store_options = store_options
        self.sessions: dict[str, Session] = {}
        self._initialize: Any = None
        #: Malformed optional fields that were left out (schema 2.4.0 default-on-error), as LogErrors of
        #: read(); the first MAX_WARNINGS are kept, ``warning_count`` counts them all.
        self.warnings: list[LogError] = []
        self.warning_count = 0
    def session(self, session_id: str) -> Session:
        if session_id not in self.sessions:
            store = TerminalStore(**self.store_options)
            if self._initialize is not None:
                store.apply(self._initialize)
            self.sessions[session_id] = Session(session_id, store)
        return self.sessions[session_id]

    def terminals(self) -> Iterator[tuple[Session, Terminal]]:
        """Every terminal with its session, sessions and terminals in first-seen order."""
        for session in self.sessions.values():
            for terminal in session.store.terminals():
                yield session, terminal

    def read(
        self, source: IO[bytes], name: str = "<recording>", *, strict: bool = False,
        progress: Callable[[int], None] | None = None,
    ) -> list[LogError]:
        """Apply every message of ``source``; return the bad lines (``strict``: stop at the first)."""
        errors: list[LogError] = []

        def error(line: int, message: str) -> None:
            errors.append(LogError(name, line, message))
            if strict:
                raise StopReplay

        try:
            for line, message in _messages(source, error, progress or (lambda count: None)):
                for problem in self.apply(message):
                    error(line, str(problem))
                for session in self.sessions.values():
                    if session.store.warnings:  # drained after every message: a store never piles them up
                        for warning in session.store.warnings:
                            self.warning_count += 1
                            if len(self.warnings) < MAX_WARNINGS:
                                self.warnings.append(LogError(name, line, str(warning)))
                        session.store.warnings.clear()
        except StopReplay:
            pass
        return errors

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
            # The initialize response names the agent, which says what its pre-v2 _meta means: every
            # session's store hears it, the ones made later too.
            if agent_name_of(message) is not None:
                self._initialize = message
                for session in self.sessions.values():
                    session.store.apply(message)
            return []
        session = self.session(session_id_of(message) or "")
        kind = update.get("sessionUpdate")
        if kind in TOOL_CALL_KINDS and isinstance(update.get("title"), str) and isinstance(update.get("toolCallId"), str):
            session.titles[update["toolCallId"]] = update["title"]
        try:
            session.store.apply(message)
        except ProtocolError as exc:
            return [exc]
        return []


def _messages(
    source: IO[bytes], error: Callable[[int, str], None], progress: Callable[[int], None]
) -> Iterator[tuple[int, Any]]:
    """(line number, message) for each message of an NDJSON recording or of Zed's exported array."""
    first = source.readline()
    progress(len(first))
    stripped = first.strip()
    if stripped.startswith(b"[") and not _is_complete_json(stripped):
        rest = source.read()
        progress(len(rest))
        yield from _zed_export(first + rest, error)
        return
    number = 1
    line, first, stripped = first, b"", b""  # one reference to the line: a huge one is freed once parsed
    while line:
        if not line.isspace():  # (isspace, unlike strip, copies nothing)
            text = _line_text(line, number, error)
            line = b""  # one copy of a (maybe huge) line at a time: bytes, then text, then the message
            message = _BAD if text is None else _parse_json(text, number, error)
            text = None
            if isinstance(message, list) and message and all(isinstance(m, dict) and "_direction" in m for m in message):
                for item in message:  # a one-line Zed export
                    yield number, _from_zed(item)
            elif message is not _BAD:
                yield number, message
        line = source.readline()
        progress(len(line))
        number += 1


_BAD = object()


def _line_text(line: bytes, number: int, error: Callable[[int, str], None]) -> str | None:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as exc:  # a log cut mid-character, a binary file: a bad line, not a crash
        error(number, f"not UTF-8 (byte {exc.start})")
        return None


def _parse_json(text: str, number: int, error: Callable[[int, str], None]) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        error(number, f"not JSON ({exc.msg} at column {exc.colno})")
    except RecursionError:
        error(number, "not JSON (nested too deeply)")
    return _BAD


def _zed_export(data: bytes, error: Callable[[int, str], None]) -> Iterator[tuple[int, Any]]:
    """Each element of Zed's array with the line it starts on. Line numbers are counted incrementally, so
    the whole export is read in linear time (raw_decode gives exact offsets)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        error(data.count(b"\n", 0, exc.start) + 1, f"not UTF-8 (byte {exc.start})")
        return
    decoder = json.JSONDecoder()
    at = text.index("[") + 1
    counted, line = 0, 1  # `line` is the line number of offset `counted`

    def line_of(offset: int) -> int:
        nonlocal counted, line
        line += text.count("\n", counted, offset)
        counted = offset
        return line

    while True:
        at = _skip_space(text, at)
        if text.startswith("]", at):
            return
        try:
            item, end = decoder.raw_decode(text, at)
        except json.JSONDecodeError as exc:
            error(exc.lineno, f"not JSON ({exc.msg} at column {exc.colno})")
            return
        except RecursionError:
            error(line_of(at), "not JSON (nested too deeply)")
            return
        yield line_of(at), _from_zed(item)
        at = _skip_space(text, end)
        if text.startswith(",", at):
            at += 1
        elif not text.startswith("]", at):
            error(line_of(at), "expected ',' or ']' in the exported array")
            return


def _skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def _is_complete_json(line: bytes) -> bool:
    try:
        json.loads(line)
    except (ValueError, RecursionError):
        return False
    return True


def _from_zed(item: Any) -> Any:
    """A Zed export entry as a JSON-RPC message (it keeps method and params, or a response's result)."""
    if isinstance(item, dict) and "method" in item:
        return {"jsonrpc": "2.0", "method": item["method"], "params": item.get("params")}
    if isinstance(item, dict) and "result" in item:
        return {"jsonrpc": "2.0", "id": item.get("id"), "result": item["result"]}
    return item
