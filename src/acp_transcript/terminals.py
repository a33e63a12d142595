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
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ._decoder import TranscriptDecoder
from ._options import parse_options
from ._validate import (
    OMITTED,
    ExitStatus,
    TerminalPatch,
    as_json,
    check_absolute_path,
    expect_object,
    parse_chunk,
    parse_terminal_update,
    terminal_references,
)
from .errors import ProtocolError

__all__ = [
    "UNSET",
    "CommandPermissionSubject",
    "ExitStatus",
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
TOOL_CALL_KINDS = ("tool_call", "tool_call_update")


class Terminal:
    """One Agent-owned display terminal, as a Client keeps it.

    ``output`` is the retained bytes (the last snapshot plus the chunks after it), bounded by the store's
    ``max_output_bytes`` (the oldest bytes are dropped and counted in ``output_dropped``; the transcript is
    unaffected, since it was decoded as the bytes came). ``transcript`` is the committed text plus the live
    window.
    """

    def __init__(self, terminal_id: str, decoder_options: dict[str, Any], max_output_bytes: int | None) -> None:
        self.terminal_id = terminal_id
        self.command: str | None = None
        self.cwd: str | None = None
        self.exit_status: ExitStatus | None = None
        self.meta: dict[str, Any] | None = None
        self.output_meta: dict[str, Any] | None = None  # _meta of the last snapshot (scoped to it)
        self.tool_call_ids: list[str] = []
        self.legacy = False  # fed from pre-v2 `_meta` extensions (terminal_info, terminal_output, ...)
        self.output_dropped = 0
        self._output = bytearray()
        self._max_output_bytes = max_output_bytes
        self._decoder = TranscriptDecoder(**decoder_options)
        self._committed: list[str] = []

    def __repr__(self) -> str:
        return f"<Terminal {self.terminal_id!r} command={self.command!r} exit_status={self.exit_status!r}>"

    @property
    def output(self) -> bytes:
        return bytes(self._output)

    @property
    def transcript(self) -> str:
        return "".join(self._committed) + self._decoder.live

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

    def _replace_output(self, data: bytes) -> None:
        """RFD: a snapshot replaces all previously stored bytes; nothing of the old one is merged in."""
        self._output = bytearray()
        self.output_dropped = 0
        self._decoder.reset()
        self._committed = []
        self._append_output(data)

    def _append_output(self, data: bytes) -> None:
        if not data:
            return
        self._output += data
        limit = self._max_output_bytes
        if limit is not None and len(self._output) > limit:
            excess = len(self._output) - limit
            del self._output[:excess]
            self.output_dropped += excess
        text = self._decoder.decode(data)
        if text:
            self._committed.append(text)


class TerminalStore:
    """The display terminals of one ACP session.

    ``apply(obj)`` takes a bare update, ``session/update`` params, a JSON-RPC notification, a JSON-RPC batch
    (list), or an official SDK model, and returns the terminals it created or changed (``[]`` when the
    object is not about terminals). Invalid input raises ``ProtocolError`` and changes nothing.
    """

    def __init__(self, *, legacy_meta: bool = True, max_output_bytes: int | None = None, **decoder_options: Any) -> None:
        parse_options(**decoder_options)  # fail now, not at the first terminal
        if max_output_bytes is not None and (
            not isinstance(max_output_bytes, int) or isinstance(max_output_bytes, bool) or max_output_bytes < 0
        ):
            raise ValueError("max_output_bytes must be a non-negative int or None")
        self.legacy_meta = legacy_meta
        self.max_output_bytes = max_output_bytes
        self.decoder_options = decoder_options
        self._terminals: dict[str, Terminal] = {}

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
        return self._commit(changes)

    def _apply_batch(self, batch: list[Any] | tuple[Any, ...]) -> list[Terminal]:
        """RFD: batch entries may be applied in any order. Valid entries are applied; the invalid ones are
        reported together afterwards in one ProtocolError whose ``errors`` point into the batch."""
        changed: list[Terminal] = []
        errors: list[ProtocolError] = []
        for index, entry in enumerate(batch):
            try:
                changes = self._plan(as_json(entry), f"/{index}")
            except ProtocolError as exc:
                errors.append(exc)
                continue
            for terminal in self._commit(changes):
                if terminal not in changed:
                    changed.append(terminal)
        if errors:
            error = ProtocolError(
                f"{len(errors)} invalid batch entr{'y' if len(errors) == 1 else 'ies'}: "
                + "; ".join(str(e) for e in errors),
                errors[0].pointer,
                errors,
            )
            error.changed = changed  # type: ignore[attr-defined]
            raise error
        return changed

    def _plan(self, obj: Any, pointer: str) -> list[tuple[str, Any]]:
        """Validate ``obj`` completely and return the changes to make; nothing is applied here."""
        update, pointer = _find_update(obj, pointer)
        if update is None:
            return []
        kind = update.get("sessionUpdate")
        if kind == TERMINAL_UPDATE:
            return [("update", parse_terminal_update(update, pointer))]
        if kind == TERMINAL_OUTPUT_CHUNK:
            return [("chunk", parse_chunk(update, pointer))]
        if kind in TOOL_CALL_KINDS:
            tool_call_id = update.get("toolCallId")
            if not isinstance(tool_call_id, str):
                raise ProtocolError("required string field is missing or not a string", f"{pointer}/toolCallId")
            changes: list[tuple[str, Any]] = [
                ("link", (terminal_id, tool_call_id)) for terminal_id in terminal_references(update, pointer)
            ]
            if self.legacy_meta:
                from ._legacy import parse_legacy_meta

                changes += parse_legacy_meta(update, tool_call_id, pointer)
            return changes
        return []  # other session updates, including "_"-prefixed extensions, are not about terminals

    def _terminal(self, terminal_id: str) -> Terminal:
        terminal = self._terminals.get(terminal_id)
        if terminal is None:  # RFD: the first update for an unseen ID creates it, every field unknown
            terminal = Terminal(terminal_id, self.decoder_options, self.max_output_bytes)
            self._terminals[terminal_id] = terminal
        return terminal

    def _commit(self, changes: list[tuple[str, Any]]) -> list[Terminal]:
        changed: list[Terminal] = []
        for action, value in changes:
            if action == "update":
                terminal = self._apply_update(value)
            elif action == "chunk":
                terminal = self._terminal(value.terminal_id)
                terminal._append_output(value.data)
            elif action == "link":
                terminal_id, tool_call_id = value
                terminal = self._terminal(terminal_id)
                if tool_call_id not in terminal.tool_call_ids:
                    terminal.tool_call_ids.append(tool_call_id)
            else:  # "legacy": a pre-v2 _meta change, see _legacy.py
                terminal = value.apply(self._terminal, self._shown_by)
            if terminal not in changed:
                changed.append(terminal)
        return changed

    def _shown_by(self, tool_call_id: str) -> str | None:
        """The last terminal that ``tool_call_id`` shows, if any."""
        for terminal in reversed(self._terminals.values()):
            if tool_call_id in terminal.tool_call_ids:
                return terminal.terminal_id
        return None

    def _apply_update(self, patch: TerminalPatch) -> Terminal:
        terminal = self._terminal(patch.terminal_id)
        # RFD: omitted = unchanged, null = cleared, value = replaced.
        if patch.command is not OMITTED:
            terminal.command = patch.command
        if patch.cwd is not OMITTED:
            terminal.cwd = patch.cwd
        if patch.output is not OMITTED:
            terminal._replace_output(patch.output or b"")  # null: empty output
            terminal.output_meta = patch.output_meta
        if patch.exit_status is not OMITTED:
            terminal.exit_status = patch.exit_status
        if patch.meta is not OMITTED:
            terminal.meta = patch.meta
        return terminal


def _find_update(obj: Any, pointer: str) -> tuple[Mapping[str, Any] | None, str]:
    """The session update inside a notification, params object or bare update (``None`` if there is none)."""
    obj = expect_object(obj, pointer or "")
    if "sessionUpdate" in obj:
        return obj, pointer
    if "method" in obj or "jsonrpc" in obj:  # a JSON-RPC message
        if obj.get("method") != "session/update":
            return None, pointer
        params = expect_object(as_json(obj.get("params")), f"{pointer}/params")
        return _find_update(params, f"{pointer}/params")
    if "update" in obj and "sessionId" in obj:  # session/update params
        update = expect_object(as_json(obj["update"]), f"{pointer}/update")
        if "sessionUpdate" not in update:
            raise ProtocolError("required field is missing", f"{pointer}/update/sessionUpdate")
        return update, f"{pointer}/update"
    return None, pointer


# ---------------------------------------------------------------------- batches


def _update_of(entry: Any) -> Mapping[str, Any] | None:
    try:
        update, _ = _find_update(as_json(entry), "")
    except ProtocolError:
        return None
    return update


def check_batch(batch: list[Any]) -> list[tuple[int, int]]:
    """Pairs ``(i, j)`` of entries in one JSON-RPC batch whose order changes the result.

    RFD: batch entries may be processed in any order, so Agents MUST NOT put more than one
    ``terminal_update`` or ``terminal_output_chunk`` for the same ``terminalId`` in one batch when their
    application order affects the result. Two entries for one terminal commute only when both are updates
    that set disjoint fields (or the same fields to the same values).
    """
    entries: list[tuple[int, str, Mapping[str, Any]]] = []
    for index, entry in enumerate(as_json(batch)):
        update = _update_of(entry)
        if update is not None and update.get("sessionUpdate") in (TERMINAL_UPDATE, TERMINAL_OUTPUT_CHUNK):
            terminal_id = update.get("terminalId")
            if isinstance(terminal_id, str):
                entries.append((index, terminal_id, update))
    pairs = []
    for a, (i, first_id, first) in enumerate(entries):
        for j, second_id, second in entries[a + 1 :]:
            if first_id == second_id and not _commute(first, second):
                pairs.append((i, j))
    return pairs


_PATCH_FIELDS = ("command", "cwd", "output", "exitStatus", "_meta")


def _commute(first: Mapping[str, Any], second: Mapping[str, Any]) -> bool:
    if first.get("sessionUpdate") == TERMINAL_OUTPUT_CHUNK or second.get("sessionUpdate") == TERMINAL_OUTPUT_CHUNK:
        # Two chunks append in order; a chunk and a snapshot: the chunk is kept or wiped.
        chunk, other = (first, second) if first.get("sessionUpdate") == TERMINAL_OUTPUT_CHUNK else (second, first)
        return other.get("sessionUpdate") == TERMINAL_UPDATE and "output" not in other
    shared = [field for field in _PATCH_FIELDS if field in first and field in second]
    return all(first[field] == second[field] for field in shared)


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
    meta: Any = UNSET,
) -> dict[str, Any]:
    """A ``terminal_update`` wire object. ``UNSET`` leaves a field out (unchanged), ``None`` sends null
    (cleared). ``output`` is bytes (a snapshot) or None; ``exit_status`` an ``ExitStatus``, a wire dict or
    None. The result is validated like incoming updates, so it is always a correct update.

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
    if meta is not UNSET:
        update["_meta"] = meta
    parse_terminal_update(update)
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

