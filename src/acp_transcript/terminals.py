"""The Client side of ACP v2 display terminals (RFD "ACP v2 display-only terminal output").

An Agent runs commands in its own sandbox and reports them as *display terminals*: ``terminal_update``
upserts (command, cwd, an output snapshot, exit status), ``terminal_output_chunk`` appends, and tool-call
content ``{"type": "terminal", "terminalId": ...}`` anchors a terminal in a tool call. ``TerminalStore``
keeps that state for one session and turns the bytes into a safe transcript.

>>> from acp_transcript import TerminalStore, terminal_update, terminal_output_chunk
>>> store = TerminalStore()
>>> _ = store.apply(terminal_update("t1", command="cargo test", cwd="/work", output=b"running\\r\\n"))
>>> _ = store.apply(terminal_output_chunk("t1", b"\\x1b[32mok\\x1b[0m\\r\\n"))
>>> store["t1"].transcript
'running\\nok\\n'
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Union

from ._decoder import TranscriptDecoder
from ._defs import MAX_SIZE
from ._legacy import LEGACY_OUTPUT, LegacyChange, legacy_output_for_agent, parse_legacy_meta
from ._options import Options, parse_options
from ._validate import (
    is_int,
    OMITTED,
    ChunkPatch,
    ExitStatus,
    ProtocolWarning,
    TerminalCapabilities,
    TerminalPatch,
    TerminalSize,
    as_json,
    check_absolute_path,
    check_text,
    expect_object,
    parse_chunk,
    parse_terminal_update,
    terminal_references,
)
from .display import safe_line
from .errors import ProtocolError

__all__ = [
    "UNSET",
    "CommandPermissionSubject",
    "ExitStatus",
    "ProtocolWarning",
    "TerminalCapabilities",
    "TerminalSize",
    "cancel_terminal_request",
    "agent_name_of",
    "find_update",
    "Terminal",
    "TerminalStore",
    "check_batch",
    "session_notification",
    "terminal_output_chunk",
    "terminal_update",
]

#: "Leave this field out" for the agent-side builders (as opposed to ``None``, which sends JSON null).
UNSET: Any = OMITTED

TERMINAL_UPDATE = "terminal_update"
TERMINAL_OUTPUT_CHUNK = "terminal_output_chunk"
STATE_UPDATE = "state_update"
#: Terminals one store keeps at most unless told otherwise: a hostile session cannot make a Client keep an
#: unbounded number (each costs a few KiB plus its window). A session of an agent that runs one terminal per
#: command stays far below it; pass ``max_terminals=None`` to lift it.
DEFAULT_MAX_TERMINALS = 10_000
#: The tallest screen a terminal renders at (TerminalStore(max_rows=...)): an agent-given size may say 65,535
#: rows, but a line insert, delete or region scroll in the middle of the screen moves up to half its rows (at
#: its top or bottom, none; tmux moves them all and limits a screen to 10,000 rows), so the store renders
#: taller terminals as this many rows; real terminals are far shorter.
DEFAULT_MAX_ROWS = 1000
#: The widest screen a terminal renders at (TerminalStore(max_columns=...)): an edit of a row (ICH, DCH, REP,
#: EL) costs O(columns), so an agent's 65,535-column size would make each 3-10 byte sequence move 256 KiB
#: (0.05 MB/s, benchmarks/README.md, round 5). A wider terminal renders this wide: its lines wrap here, and the
#: transcript joins wrapped rows, so text output reads the same.
DEFAULT_MAX_COLUMNS = 1000
#: store.warnings keeps the most recent this many (a caller that never clears it does not grow it forever).
MAX_WARNINGS = 1000
# v1 and v2 tool-call updates whose content may reference a terminal (v2 streams content in chunks too).
TOOL_CALL_KINDS = ("tool_call", "tool_call_update", "tool_call_content_chunk")


_DISPLAYABLE = ("terminal_id", "command", "cwd", "signal")


class Terminal:
    """One Agent-owned display terminal, as a Client keeps it.

    ``output`` is the retained bytes (the last snapshot plus the chunks after it), bounded by the store's
    ``max_output_bytes`` (the oldest bytes are dropped and counted in ``output_dropped``; the transcript is
    unaffected, since it was decoded as the bytes came). ``transcript`` is the committed text plus the live
    window; reading it costs one copy of the text, never a re-join of every piece, and ``pop_committed()``
    gives only the committed text not returned before, for a UI that appends (SPEC 3.1 rev 2).
    """

    def __init__(
        self,
        terminal_id: str,
        decoder_options: dict[str, Any],
        max_output_bytes: int | None,
        max_transcript_chars: int | None = None,
    ) -> None:
        self.terminal_id = terminal_id
        self.command: str | None = None
        self.cwd: str | None = None
        self.exit_status: ExitStatus | None = None
        self.meta: dict[str, Any] | None = None
        self.output_meta: dict[str, Any] | None = None  # _meta of the last snapshot (scoped to it)
        self.size: TerminalSize | None = None
        self.capabilities: TerminalCapabilities | None = None
        self.background = False  # listed by the latest state_update's `background`
        self.tool_call_ids: list[str] = []
        self._tool_call_set: set[str] = set()
        self.legacy = False  # fed from pre-v2 `_meta` extensions (terminal_info, terminal_output, ...)
        self.output_dropped = 0
        self._output = bytearray()
        self._max_output_bytes = max_output_bytes
        self._decoder = TranscriptDecoder(**decoder_options)
        self._committed = ""  # committed text, joined
        self.committed_lines = 0  # newlines in the committed text
        self._pending: list[str] = []  # committed pieces not yet joined into _committed
        self._pending_chars = 0
        self._popped = 0  # how much of the committed text pop_committed() has returned
        self._max_transcript_chars = max_transcript_chars
        self.transcript_dropped = 0  # committed characters dropped from the head (max_transcript_chars)

    def __repr__(self) -> str:
        return f"<Terminal {self.terminal_id!r} command={self.command!r} exit_status={self.exit_status!r}>"

    @property
    def output(self) -> bytes:
        return bytes(self._output)

    @property
    def committed(self) -> str:
        """The text that can no longer change."""
        if self._pending:
            # Appended in place: with the attribute's reference dropped first, the string has one owner and
            # CPython grows it instead of copying it (a copy per read would make reading after every chunk
            # quadratic; SPEC 3.1 rev 2). A caller still holding an earlier result costs one copy.
            committed = self._committed
            self._committed = ""
            committed += "".join(self._pending)
            self._committed = committed
            del committed
            self._pending.clear()
            self._pending_chars = 0
            limit = self._max_transcript_chars
            if limit is not None and len(self._committed) > limit:
                # Drop whole lines from the head (SPEC 3 rev 2: the store's memory is bounded too).
                cut = len(self._committed) - limit
                newline = self._committed.find("\n", cut - 1)
                cut = newline + 1 if 0 <= newline < len(self._committed) - 1 else cut
                dropped = self._committed[:cut]
                self.committed_lines -= dropped.count("\n")
                self.transcript_dropped += cut
                self._popped = max(self._popped - cut, 0)
                self._committed = self._committed[cut:]
        return self._committed

    @property
    def live(self) -> str:
        """The live window: the part of the transcript that may still change (SPEC 2.3)."""
        return self._decoder.live

    @property
    def transcript(self) -> str:
        """The committed text and the live window; after a line saying so when the store's
        ``max_transcript_chars`` dropped earlier text."""
        committed = self.committed
        note = f"[{self.transcript_dropped} earlier characters not kept]\n" if self.transcript_dropped else ""
        return note + committed + self._decoder.live

    def pop_committed(self) -> str:
        """The committed text not returned by an earlier call (a snapshot starts it over)."""
        committed = self.committed
        text = committed[self._popped :]
        self._popped = len(committed)
        return text

    @property
    def stats(self) -> dict[str, int]:
        """The decoder's diagnostics for this terminal (what was removed or shown, SPEC 2.6)."""
        return self._decoder.stats

    @property
    def exited(self) -> bool:
        return self.exit_status is not None

    @property
    def failed(self) -> bool:
        """Exited with a non-zero code or by a signal."""
        return self.exit_status is not None and self.exit_status.failed

    @property
    def can_cancel(self) -> bool:
        """``capabilities.cancel`` is advertised (an object, even ``{}``): ``terminal/cancel`` is allowed."""
        return self.capabilities is not None and self.capabilities.cancel is not None

    def display(self, field: str) -> str | None:
        """A field an Agent controls, safe to show on one line (SPEC 3.1 rev 2): ``terminal_id``,
        ``command``, ``cwd`` or ``signal``; None when the field is unknown.

        >>> t = Terminal("t1", {}, None)
        >>> t.command = "ls\\x1b]52;c;ZXZpbA==\\x07\\nfake"
        >>> t.display("command")
        'ls<U+001B>]52;c;ZXZpbA==<U+0007><U+000A>fake'
        """
        if field not in _DISPLAYABLE:
            raise ValueError(f"field must be one of {', '.join(_DISPLAYABLE)}, not {field!r}")
        value = self.exit_status.signal if field == "signal" and self.exit_status else getattr(self, field, None)
        return None if value is None else safe_line(value)

    def _link(self, tool_call_id: str) -> None:
        if tool_call_id not in self._tool_call_set:
            self._tool_call_set.add(tool_call_id)
            self.tool_call_ids.append(tool_call_id)

    def _replace_output(self, data: bytes) -> None:
        """RFD: a snapshot replaces all previously stored bytes; nothing of the old one is merged in."""
        self._output = bytearray()
        self.output_dropped = 0
        self._decoder.reset()
        self._committed = ""
        self.committed_lines = 0
        self._pending = []
        self._popped = 0
        self.transcript_dropped = 0
        self._append_output(data)

    def _resize(self, decoder_options: dict[str, Any], max_columns: int, max_rows: int) -> None:
        """Render at ``size`` from here on, or at the store's ``columns``/``rows`` when the size is cleared
        (SPEC 2.8: no reflow; a switch between sized and unsized commits the current screen first)."""
        columns: int | None
        rows: int | None
        if self.size is not None:
            columns, rows = min(self.size.cols, max_columns), min(self.size.rows, max_rows)
        else:
            columns, rows = decoder_options.get("columns"), decoder_options.get("rows")
        self._add_committed(self._decoder.resize(columns, rows))

    def _append_output(self, data: bytes) -> None:
        if not data:
            return
        limit = self._max_output_bytes
        if limit is None or limit > 0:
            self._output += data
            if limit is not None and len(self._output) > limit:
                excess = len(self._output) - limit
                del self._output[:excess]
                self.output_dropped += excess
        else:
            self.output_dropped += len(data)  # max_output_bytes=0: keep transcripts only
        self._add_committed(self._decoder.decode(data))

    def _add_committed(self, text: str) -> None:
        if text:
            self._pending.append(text)
            self.committed_lines += text.count("\n")
            self._pending_chars += len(text)
            limit = self._max_transcript_chars
            if limit is not None and self._pending_chars > limit:
                self._pending_chars = 0
                _ = self.committed  # fold and bound now: nothing may grow unread


@dataclass(frozen=True)
class _Link:
    terminal_id: str
    tool_call_id: str


@dataclass(frozen=True)
class _Background:
    terminal_ids: frozenset[str]


@dataclass(frozen=True)
class _AgentInfo:
    name: str


_Change = Union[TerminalPatch, ChunkPatch, _Link, LegacyChange, _Background, _AgentInfo]


class TerminalStore:
    """The display terminals of one ACP session.

    ``apply(obj)`` takes a bare update, ``session/update`` params, a JSON-RPC notification, a JSON-RPC batch
    (list), or an official SDK model, and returns the terminals it created or changed (``[]`` when the
    object is not about terminals). A malformed required field raises ``ProtocolError`` and changes nothing.
    A malformed optional field is left out and the rest applies, as the schema's default-on-error rule
    says; each such fallback is recorded in ``warnings`` (the caller reads and clears it).
    ``strict=True`` rejects the whole update instead (revision 1).
    """

    def __init__(
        self,
        *,
        strict: bool = False,
        legacy_meta: bool = True,
        legacy_output: str = "append",
        max_output_bytes: int | None = None,
        max_transcript_chars: int | None = None,
        max_terminals: int | None = DEFAULT_MAX_TERMINALS,
        use_size: bool = True,
        max_rows: int = DEFAULT_MAX_ROWS,
        max_columns: int = DEFAULT_MAX_COLUMNS,
        **decoder_options: Any,
    ) -> None:
        unknown = sorted(set(decoder_options) - set(Options._fields))
        if unknown:
            raise TypeError(f"TerminalStore() got an unexpected keyword argument {unknown[0]!r}")
        parse_options(**decoder_options)  # fail now, not at the first terminal
        for name, value in (
            ("max_output_bytes", max_output_bytes),
            ("max_transcript_chars", max_transcript_chars),
            ("max_terminals", max_terminals),
        ):
            if value is not None and (not is_int(value) or value < 0):
                raise ValueError(f"{name} must be a non-negative int or None")
        for name, value in (("max_rows", max_rows), ("max_columns", max_columns)):
            if not is_int(value) or not 1 <= value <= MAX_SIZE:
                raise ValueError(f"{name} must be an int from 1 to {MAX_SIZE}")
        if not isinstance(use_size, bool):
            raise TypeError(f"use_size must be a bool, not {type(use_size).__name__}")
        if legacy_output not in LEGACY_OUTPUT:
            raise ValueError(f"legacy_output must be one of {', '.join(map(repr, LEGACY_OUTPUT))}, not {legacy_output!r}")
        self.strict = strict
        self.legacy_meta = legacy_meta
        self.legacy_output = legacy_output
        self.max_output_bytes = max_output_bytes
        self.max_transcript_chars = max_transcript_chars
        self.max_terminals = max_terminals
        # SPEC 3.1 rev 2: a terminal with a known `size` renders at it (SPEC 2.8); `columns`/`rows` among the
        # decoder options are the size of a terminal whose size is unknown or cleared (default: unsized).
        self.use_size = use_size
        # An agent-given height above this renders as this many rows: a line insert, delete or region
        # scroll costs O(rows) as in tmux, so an agent's 65,535-row size would make every one of them
        # cost ~100 us (benchmarks/README.md, round 4).
        self.max_rows = max_rows
        self.max_columns = max_columns  # the same for a width: an edit of a row costs O(columns)
        self.decoder_options = decoder_options
        self.agent_name: str | None = None  # from the session's `initialize` response, once seen
        self.warnings: list[ProtocolWarning] = []
        self._terminals: dict[str, Terminal] = {}
        self._shows: dict[str, str] = {}  # tool call ID -> the last terminal it shows

    def __getitem__(self, terminal_id: str) -> Terminal:
        return self._terminals[terminal_id]

    def __contains__(self, terminal_id: object) -> bool:
        return terminal_id in self._terminals

    def __iter__(self) -> Iterator[str]:
        """Terminal IDs in first-seen order."""
        return iter(list(self._terminals))

    def __len__(self) -> int:
        return len(self._terminals)

    def terminals(self) -> list[Terminal]:
        return list(self._terminals.values())

    def get(self, terminal_id: str) -> Terminal | None:
        return self._terminals.get(terminal_id)

    # ------------------------------------------------------------------ applying

    def apply(self, obj: Any) -> list[Terminal]:
        obj = as_json(obj)
        if isinstance(obj, (list, tuple)):
            return self._apply_batch(obj)
        changes = self._plan(obj, "")
        self._check_capacity(changes, "")
        return self._commit(changes)

    def _apply_batch(self, batch: list[Any] | tuple[Any, ...]) -> list[Terminal]:
        """RFD: batch entries may be applied in any order. Valid entries are applied; the invalid ones are
        reported together afterwards in one ProtocolError whose ``errors`` point into the batch."""
        changed: list[Terminal] = []
        seen: set[int] = set()
        errors: list[ProtocolError] = []
        for index, entry in enumerate(batch):
            try:
                changes = self._plan(as_json(entry), f"/{index}")
                self._check_capacity(changes, f"/{index}")
            except ProtocolError as exc:
                errors.append(exc)
                continue
            for terminal in self._commit(changes):
                if id(terminal) not in seen:
                    seen.add(id(terminal))
                    changed.append(terminal)
        if errors:
            error = ProtocolError(
                f"{len(errors)} invalid batch entr{'y' if len(errors) == 1 else 'ies'}: "
                + "; ".join(str(e) for e in errors[:10])
                + ("; ..." if len(errors) > 10 else ""),
                errors[0].pointer,
                errors,
            )
            error.changed = changed
            raise error
        return changed

    def _plan(self, obj: Any, pointer: str) -> list[_Change]:
        """Validate ``obj`` completely and return the changes to make; nothing is applied here."""
        name = agent_name_of(obj)
        if name is not None:
            return [_AgentInfo(name)]
        update, pointer = find_update(obj, pointer)
        if update is None:
            return []
        kind = update["sessionUpdate"]
        if kind == TERMINAL_UPDATE:
            return [parse_terminal_update(update, pointer, strict=self.strict)]
        if kind == TERMINAL_OUTPUT_CHUNK:
            return [parse_chunk(update, pointer, strict=self.strict)]
        if kind == STATE_UPDATE:
            return _background(update, pointer)
        if kind in TOOL_CALL_KINDS:
            tool_call_id = update.get("toolCallId")
            if not isinstance(tool_call_id, str):
                raise ProtocolError("required string field is missing or not a string", f"{pointer}/toolCallId")
            check_text(tool_call_id, f"{pointer}/toolCallId")
            changes: list[_Change] = [
                _Link(terminal_id, tool_call_id) for terminal_id in terminal_references(update, pointer)
            ]
            if self.legacy_meta:
                mode = legacy_output_for_agent(self.agent_name, self.legacy_output)
                changes += parse_legacy_meta(update, tool_call_id, pointer, mode)
            return changes
        return []  # other session updates, including "_"-prefixed extensions, are not about terminals

    def _check_capacity(self, changes: list[_Change], pointer: str) -> None:
        """``max_terminals`` bounds what one session can make the store keep (SPEC 3, rev 2)."""
        if self.max_terminals is None:
            return
        new = {
            change.terminal_id
            for change in changes
            if isinstance(change, (TerminalPatch, ChunkPatch, _Link)) and change.terminal_id not in self._terminals
        }
        if len(self._terminals) + len(new) > self.max_terminals:
            raise ProtocolError(f"more than max_terminals ({self.max_terminals}) terminals in one store", pointer)

    def _terminal(self, terminal_id: str) -> Terminal:
        terminal = self._terminals.get(terminal_id)
        if terminal is None:  # RFD: the first update for an unseen ID creates it, every field unknown
            terminal = Terminal(terminal_id, self.decoder_options, self.max_output_bytes, self.max_transcript_chars)
            self._terminals[terminal_id] = terminal
        return terminal

    def _commit(self, changes: list[_Change]) -> list[Terminal]:
        changed: list[Terminal] = []
        for change in changes:
            if isinstance(change, _AgentInfo):
                self.agent_name = change.name
                continue
            if isinstance(change, _Background):
                changed += self._apply_background(change.terminal_ids)
                continue
            if isinstance(change, (TerminalPatch, ChunkPatch)) and change.warnings:
                self.warnings.extend(change.warnings)
                if len(self.warnings) > MAX_WARNINGS:  # the most recent ones, if nobody reads them
                    del self.warnings[: len(self.warnings) - MAX_WARNINGS]
            if isinstance(change, TerminalPatch):
                terminal = self._apply_update(change)
            elif isinstance(change, ChunkPatch):
                terminal = self._terminal(change.terminal_id)
                terminal._append_output(change.data)
            elif isinstance(change, _Link):
                terminal = self._terminal(change.terminal_id)
                terminal._link(change.tool_call_id)
                self._shows[change.tool_call_id] = change.terminal_id
            else:
                terminal = self._apply_legacy(change)
            if terminal not in changed:
                changed.append(terminal)
        return changed

    def _apply_update(self, patch: TerminalPatch) -> Terminal:
        terminal = self._terminal(patch.terminal_id)
        # RFD: omitted = unchanged, null = cleared, value = replaced.
        if patch.command is not OMITTED:
            terminal.command = patch.command
        if patch.cwd is not OMITTED:
            terminal.cwd = patch.cwd
        if patch.size is not OMITTED:
            # Before the output: a snapshot in the same update was written at this size.
            terminal.size = patch.size
            if self.use_size:
                terminal._resize(self.decoder_options, self.max_columns, self.max_rows)
        if patch.output is not OMITTED:
            terminal._replace_output(patch.output or b"")  # null: empty output
            terminal.output_meta = patch.output_meta
        if patch.exit_status is not OMITTED:
            terminal.exit_status = patch.exit_status
        if patch.capabilities is not OMITTED:
            terminal.capabilities = patch.capabilities  # an object replaces the whole previous value
        if patch.meta is not OMITTED:
            terminal.meta = _patch_meta(terminal.meta, patch.meta)
        return terminal

    def _apply_legacy(self, change: LegacyChange) -> Terminal:
        terminal = self._terminal(change.terminal_id or self._shows.get(change.tool_call_id) or change.tool_call_id)
        terminal.legacy = True
        terminal._link(change.tool_call_id)
        self._shows[change.tool_call_id] = terminal.terminal_id
        if change.command is not None:
            terminal.command = change.command
        if change.cwd is not None:
            terminal.cwd = change.cwd
        if change.data is not None:
            if change.replace:
                terminal._replace_output(change.data)
            else:
                terminal._append_output(change.data)
        if change.exit_status is not None:
            terminal.exit_status = change.exit_status
        return terminal

    def _apply_background(self, terminal_ids: frozenset[str]) -> list[Terminal]:
        """``state_update.background`` lists the terminals running in the background now."""
        changed = []
        for terminal in self._terminals.values():
            listed = terminal.terminal_id in terminal_ids
            if terminal.background != listed:
                terminal.background = listed
                changed.append(terminal)
        for terminal_id in terminal_ids - self._terminals.keys():
            terminal = self._terminal(terminal_id)
            terminal.background = True
            changed.append(terminal)
        return changed

    def cancel_request(self, session_id: str, terminal_id: str, request_id: int | str, *, meta: Any = None) -> dict[str, Any]:
        """The Client's ``terminal/cancel`` request for ``terminal_id`` (schema 2.4.0). Clients MUST NOT send
        it unless the terminal advertises ``capabilities.cancel``, and it is pointless once the terminal has
        exited: both raise ``ValueError``, as does an unknown terminal."""
        terminal = self._terminals.get(terminal_id)
        if terminal is None:
            raise KeyError(terminal_id)
        if terminal.exited:
            raise ValueError(f"terminal {safe_line(terminal_id)} has exited: there is nothing to cancel")
        if not terminal.can_cancel:
            raise ValueError(f"terminal {safe_line(terminal_id)} does not advertise capabilities.cancel")
        return cancel_terminal_request(session_id, terminal_id, request_id, meta=meta)


def _patch_meta(stored: dict[str, Any] | None, patch: dict[str, Any] | None) -> dict[str, Any] | None:
    """Schema 2.4.0 metadata patch: null clears; an object patches by top-level key (a key set to null is
    removed, any other value replaces that key's value, no nested merge)."""
    if patch is None:
        return None
    merged = dict(stored or {})
    for key, value in patch.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    return merged


def agent_name_of(obj: Any) -> str | None:
    """The agent's name in an ``initialize`` response (``result.agentInfo.name``), else None."""
    if not isinstance(obj, Mapping) or "result" not in obj or "method" in obj:
        return None
    result = obj["result"]
    if not isinstance(result, Mapping) or not isinstance(result.get("agentInfo"), Mapping):
        return None
    name = result["agentInfo"].get("name")
    return name if isinstance(name, str) else None


def _background(update: Mapping[str, Any], pointer: str) -> list[_Change]:
    """``state_update.background``: items ``{"type": "terminal", "terminalId"}`` name terminals. The field is
    optional (default on error): anything malformed in it lists nothing."""
    items = update.get("background")
    if not isinstance(items, (list, tuple)):
        return [_Background(frozenset())] if "background" in update else []
    ids = set()
    for index, item in enumerate(items):
        item = as_json(item)
        if isinstance(item, Mapping) and item.get("type") == "terminal":
            terminal_id = item.get("terminalId")
            if isinstance(terminal_id, str) and terminal_id:
                ids.add(check_text(terminal_id, f"{pointer}/background/{index}/terminalId"))
    return [_Background(frozenset(ids))]


def find_update(obj: Any, pointer: str = "") -> tuple[Mapping[str, Any] | None, str]:
    """The session update inside a notification, ``session/update`` params or a bare update, with its
    pointer; ``(None, pointer)`` when ``obj`` is some other message. A ``session/update`` without an update,
    or an update whose ``sessionUpdate`` is not a string, is a ``ProtocolError``."""
    obj = expect_object(obj, pointer)
    if "sessionUpdate" in obj:
        if not isinstance(obj["sessionUpdate"], str):
            raise ProtocolError("expected a string", f"{pointer}/sessionUpdate")
        return obj, pointer
    if "method" in obj or "jsonrpc" in obj:  # a JSON-RPC message
        if obj.get("method") != "session/update":
            return None, pointer
        params = expect_object(as_json(obj.get("params")), f"{pointer}/params")
        return _params_update(params, f"{pointer}/params")
    if "update" in obj and "sessionId" in obj:  # session/update params
        return _params_update(obj, pointer)
    return None, pointer


def _params_update(params: Mapping[str, Any], pointer: str) -> tuple[Mapping[str, Any], str]:
    if "update" not in params:
        raise ProtocolError("required field is missing", f"{pointer}/update")
    update = expect_object(as_json(params["update"]), f"{pointer}/update")
    if "sessionUpdate" not in update:
        raise ProtocolError("required field is missing", f"{pointer}/update/sessionUpdate")
    if not isinstance(update["sessionUpdate"], str):
        raise ProtocolError("expected a string", f"{pointer}/update/sessionUpdate")
    return update, f"{pointer}/update"


def session_id_of(obj: Any) -> str | None:
    """The ``sessionId`` of a ``session/update`` notification or params object, if it has one."""
    if not isinstance(obj, Mapping):
        return None
    params = obj.get("params") if "method" in obj else obj
    session_id = params.get("sessionId") if isinstance(params, Mapping) else None
    return session_id if isinstance(session_id, str) else None


# ---------------------------------------------------------------------- batches


def _update_of(entry: Any) -> Mapping[str, Any] | None:
    try:
        update, _ = find_update(as_json(entry), "")
    except ProtocolError:
        return None
    return update


_PATCH_FIELDS = ("command", "cwd", "output", "exitStatus", "size", "capabilities", "_meta")


def check_batch(batch: list[Any]) -> list[tuple[str, tuple[int, ...]]]:
    """Order conflicts in one JSON-RPC batch: for each terminal with any, its ID and the indexes of the
    entries whose application order changes the result; ``[]`` when the batch is fine.

    RFD: batch entries may be processed in any order, so Agents MUST NOT put more than one
    ``terminal_update`` or ``terminal_output_chunk`` for the same ``terminalId`` in one batch when their
    application order affects the result. Two chunks never commute (they append in order), a chunk and a
    snapshot do not (the chunk is kept or wiped), and two updates do not when they set one field to two
    different values. The answer is linear in the size of the batch (SPEC 3, rev 2): an entry is listed
    once, however many others it conflicts with.
    """
    chunks: dict[str, list[int]] = {}
    values: dict[str, dict[str, dict[str, list[int]]]] = {}  # terminal -> field -> value -> indexes
    for index, entry in enumerate(as_json(batch)):
        update = _update_of(entry)
        if update is None:
            continue
        terminal_id = update.get("terminalId")
        if not isinstance(terminal_id, str):
            continue
        kind = update.get("sessionUpdate")
        if kind == TERMINAL_OUTPUT_CHUNK:
            chunks.setdefault(terminal_id, []).append(index)
        elif kind == TERMINAL_UPDATE:
            fields = values.setdefault(terminal_id, {})
            for field in _PATCH_FIELDS:
                if field in update:
                    key = json.dumps(as_json(update[field]), sort_keys=True, default=repr)
                    fields.setdefault(field, {}).setdefault(key, []).append(index)
    conflicts = []
    for terminal_id in dict.fromkeys([*chunks, *values]):
        involved: set[int] = set()
        terminal_chunks = chunks.get(terminal_id, [])
        fields = values.get(terminal_id, {})
        snapshots = [i for indexes in fields.get("output", {}).values() for i in indexes]
        if len(terminal_chunks) > 1 or (terminal_chunks and snapshots):
            involved.update(terminal_chunks)
        if terminal_chunks:
            involved.update(snapshots)
        for by_value in fields.values():
            if len(by_value) > 1:
                involved.update(i for indexes in by_value.values() for i in indexes)
        if involved:
            conflicts.append((terminal_id, tuple(sorted(involved))))
    return conflicts


# ---------------------------------------------------------------------- permission subjects


@dataclass(frozen=True)
class CommandPermissionSubject:
    """RFD: the ``type: "command"`` permission subject. A self-contained description of the proposed
    execution, not a terminal update: no patch semantics, omitted and null mean the same."""

    command: str
    cwd: str
    tool_call_id: str | None = None
    terminal_id: str | None = None
    meta: dict[str, Any] | None = None

    @classmethod
    def from_json(cls, obj: Any) -> CommandPermissionSubject:
        obj = expect_object(as_json(obj), "")
        if obj.get("type") != "command":
            raise ProtocolError('expected "command"', "/type")
        values = {}
        for key in ("command", "cwd"):
            value = obj.get(key)
            if not isinstance(value, str):
                raise ProtocolError("required string field is missing or not a string", f"/{key}")
            values[key] = value
        check_absolute_path(values["cwd"], "/cwd")
        optional: dict[str, Any] = {}
        for key in ("toolCallId", "terminalId"):
            value = obj.get(key)
            if value is not None and not isinstance(value, str):
                raise ProtocolError("expected a string or null", f"/{key}")
            optional[key] = value
        meta = obj.get("_meta")
        if meta is not None and not isinstance(meta, Mapping):
            raise ProtocolError("expected an object or null", "/_meta")
        return cls(values["command"], values["cwd"], optional["toolCallId"], optional["terminalId"],
                   dict(meta) if meta is not None else None)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "command", "command": self.command, "cwd": self.cwd}
        if self.tool_call_id is not None:
            out["toolCallId"] = self.tool_call_id
        if self.terminal_id is not None:
            out["terminalId"] = self.terminal_id
        if self.meta is not None:
            out["_meta"] = self.meta
        return out


# ---------------------------------------------------------------------- agent-side builders


def _b64(data: bytes | bytearray | memoryview) -> str:
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"data must be bytes-like, not {type(data).__name__}")
    return base64.b64encode(data).decode("ascii")


def terminal_update(
    terminal_id: str,
    *,
    command: Any = UNSET,
    cwd: Any = UNSET,
    output: Any = UNSET,
    exit_status: Any = UNSET,
    size: Any = UNSET,
    capabilities: Any = UNSET,
    meta: Any = UNSET,
) -> dict[str, Any]:
    """A ``terminal_update`` wire object. ``UNSET`` leaves a field out (unchanged), ``None`` sends null
    (cleared). ``output`` is bytes (a snapshot) or None; ``exit_status``, ``size`` and ``capabilities`` a
    model (``ExitStatus``, ``TerminalSize``, ``TerminalCapabilities``), a wire dict or None. The result is
    validated strictly, so it is always a correct update.

    >>> terminal_update("t1", output=b"ok", exit_status=ExitStatus(exit_code=0))
    {'sessionUpdate': 'terminal_update', 'terminalId': 't1', 'output': {'data': 'b2s='}, 'exitStatus': {'exitCode': 0}}
    """
    update: dict[str, Any] = {"sessionUpdate": TERMINAL_UPDATE, "terminalId": terminal_id}
    if command is not UNSET:
        update["command"] = command
    if cwd is not UNSET:
        update["cwd"] = cwd
    if output is not UNSET:
        update["output"] = None if output is None else {"data": _b64(output)}
    if exit_status is not UNSET:
        update["exitStatus"] = exit_status.to_json() if isinstance(exit_status, ExitStatus) else exit_status
    if size is not UNSET:
        update["size"] = size.to_json() if isinstance(size, TerminalSize) else size
    if capabilities is not UNSET:
        update["capabilities"] = (
            capabilities.to_json() if isinstance(capabilities, TerminalCapabilities) else capabilities
        )
    if meta is not UNSET:
        update["_meta"] = meta
    parse_terminal_update(update, strict=True)
    return update


def terminal_output_chunk(
    terminal_id: str, data: bytes | bytearray | memoryview, *, meta: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A ``terminal_output_chunk`` wire object: ``data`` encoded on its own (RFC 4648 base64)."""
    update: dict[str, Any] = {"sessionUpdate": TERMINAL_OUTPUT_CHUNK, "terminalId": terminal_id, "data": _b64(data)}
    if meta is not None:
        update["_meta"] = meta
    parse_chunk(update)
    return update


def session_notification(session_id: str, update: Mapping[str, Any]) -> dict[str, Any]:
    """A whole JSON-RPC ``session/update`` notification around ``update``."""
    return {"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": session_id, "update": dict(update)}}



def cancel_terminal_request(
    session_id: str, terminal_id: str, request_id: int | str, *, meta: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The Client's JSON-RPC ``terminal/cancel`` request (schema 2.4.0 ``CancelTerminalRequest``). Prefer
    ``TerminalStore.cancel_request``, which refuses terminals that do not advertise cancel or have exited.

    >>> cancel_terminal_request("s1", "t1", 7)
    {'jsonrpc': '2.0', 'id': 7, 'method': 'terminal/cancel', 'params': {'sessionId': 's1', 'terminalId': 't1'}}
    """
    for name, value in (("session_id", session_id), ("terminal_id", terminal_id)):
        if not isinstance(value, str) or not value:
            raise TypeError(f"{name} must be a non-empty str")
    if isinstance(request_id, bool) or not isinstance(request_id, (int, str)):
        raise TypeError("request_id must be an int or a str")
    params: dict[str, Any] = {"sessionId": session_id, "terminalId": terminal_id}
    if meta is not None:
        params["_meta"] = meta
    return {"jsonrpc": "2.0", "id": request_id, "method": "terminal/cancel", "params": params}
