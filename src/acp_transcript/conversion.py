"""ACP v1/v2 conversion for terminals (RFD: Compatibility).

The v1 and v2 terminal content shapes look the same but mean different things: a v1 terminal ID names a
Client-created process the Agent controls through ``terminal/*`` methods; a v2 one names an Agent-owned
display stream. So:

- a *stateless* converter must refuse terminal surfaces: ``reject_terminal_surfaces(obj)`` is the check it
  calls, and raises ``ConversionError`` naming the JSON pointer of the first one;
- the *stateful* ``V2ToV1Bridge`` keeps terminal state and shows each terminal to a v1 Client as ordinary
  text content holding the sanitized transcript. It never synthesizes a v1 terminal it does not own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ._validate import as_json, is_int
from .errors import ConversionError
from .terminals import TOOL_CALL_KINDS, Terminal, TerminalStore, find_update, session_id_of

__all__ = ["V2ToV1Bridge", "reject_terminal_surfaces"]

_TERMINAL_UPDATES = ("terminal_update", "terminal_output_chunk")


def reject_terminal_surfaces(obj: Any) -> None:
    """Raise ``ConversionError`` if ``obj`` holds a v2 terminal surface anywhere: tool-call terminal content,
    a ``terminal_update`` or ``terminal_output_chunk``, or a ``type: "command"`` permission subject.
    Anything else (notifications, updates, content lists, subjects without terminals) passes.

    >>> reject_terminal_surfaces({"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "hi"}})
    >>> reject_terminal_surfaces({"content": [{"type": "terminal", "terminalId": "t1"}]})
    Traceback (most recent call last):
    ...
    acp_transcript.errors.ConversionError: /content/0: terminal content: a v2 terminal is an Agent-owned display stream, not a v1 Client terminal
    """
    _walk(as_json(obj), "")


def _walk(value: Any, pointer: str) -> None:
    value = as_json(value)
    if isinstance(value, Mapping):
        kind = value.get("sessionUpdate")
        if kind in _TERMINAL_UPDATES:
            raise ConversionError(f"{kind}: v2 terminal state has no stateless v1 equivalent", pointer)
        if value.get("type") == "terminal" and "terminalId" in value:
            raise ConversionError(
                "terminal content: a v2 terminal is an Agent-owned display stream, not a v1 Client terminal", pointer
            )
        if value.get("type") == "command" and "command" in value and "cwd" in value:
            raise ConversionError("command permission subject: v2 only", pointer)
        for key, item in value.items():
            _walk(item, f"{pointer}/{_escape(str(key))}")
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            _walk(item, f"{pointer}/{index}")


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")  # RFC 6901


@dataclass
class _BridgedSession:
    """What the bridge keeps for one session: terminal and tool-call IDs are only unique within a session."""

    store: TerminalStore
    content: dict[str, list[Any]] = field(default_factory=dict)  # tool call ID -> its last content list
    status: dict[str, str] = field(default_factory=dict)
    sent: dict[str, dict[str, Any]] = field(default_factory=dict)  # tool call ID -> the update last emitted


class V2ToV1Bridge:
    """Stateful v2 -> v1: terminals become text content in v1 ``tool_call_update`` notifications.

    ``apply(obj)`` takes what ``TerminalStore.apply`` takes and returns v1 ``session/update`` params objects:
    one ``tool_call_update`` for every tool call whose shown text changed, its content the tool call's last
    content with each terminal reference replaced by
    ``{"type": "content", "content": {"type": "text", "text": <transcript>}}``, plus the tool call's status
    when known. Input that is not about terminals gives ``[]``.

    State is kept per session (SPEC 4 rev 2): the same terminal or tool-call ID in two sessions never mixes.
    Each text is bounded by ``max_text_chars`` (None: unbounded): a longer transcript is sent as its tail,
    after a first line saying how many earlier lines are not shown, so a long-running command does not cost
    its Client quadratic bytes.
    """

    def __init__(
        self,
        *,
        session_id: str = "",
        max_output_bytes: int | None = 0,
        max_text_chars: int | None = 16384,
        **decoder_options: Any,
    ) -> None:
        if max_text_chars is not None and (
            not is_int(max_text_chars) or max_text_chars < 1
        ):
            raise ValueError("max_text_chars must be a positive int or None")
        # Fail on bad options now; v2 input carries no pre-v2 _meta extensions to interpret.
        TerminalStore(legacy_meta=False, max_output_bytes=max_output_bytes, **decoder_options)
        self._store_options: dict[str, Any] = {"legacy_meta": False, "max_output_bytes": max_output_bytes,
                                               **decoder_options}
        self.session_id = session_id
        self.max_text_chars = max_text_chars
        self._sessions: dict[str, _BridgedSession] = {}

    def store(self, session_id: str | None = None) -> TerminalStore:
        """The terminals of one session (the default session when ``session_id`` is None)."""
        return self._session(self.session_id if session_id is None else session_id).store

    def _session(self, session_id: str) -> _BridgedSession:
        session = self._sessions.get(session_id)
        if session is None:
            session = self._sessions[session_id] = _BridgedSession(TerminalStore(**self._store_options))
        return session

    def apply(self, obj: Any) -> list[dict[str, Any]]:
        obj = as_json(obj)
        entries = obj if isinstance(obj, (list, tuple)) else [obj]
        out: list[dict[str, Any]] = []
        for entry in entries:
            out.extend(self._apply_one(as_json(entry)))
        return out

    def _apply_one(self, obj: Any) -> list[dict[str, Any]]:
        update, _ = find_update(obj, "")
        if update is None:
            return []
        session_id = session_id_of(obj)
        if session_id is None:
            session_id = self.session_id
        session = self._session(session_id)
        changed = session.store.apply(update)  # validates completely before anything changes
        if update.get("sessionUpdate") in TOOL_CALL_KINDS:
            tool_call_id = update["toolCallId"]
            if isinstance(update.get("status"), str):
                session.status[tool_call_id] = update["status"]
            if isinstance(update.get("content"), list):
                session.content[tool_call_id] = list(update["content"])
        # Only tool calls that show a terminal that changed; a status-only update passes through the
        # caller's stateless conversion as it is.
        tool_calls: dict[str, None] = {}
        for terminal in changed:
            tool_calls.update(dict.fromkeys(terminal.tool_call_ids))
        out = []
        for tool_call_id in tool_calls:
            params = self._tool_call_update(session_id, session, tool_call_id)
            if session.sent.get(tool_call_id) != params:  # only when what the Client shows changed
                session.sent[tool_call_id] = params  # bounded: each text is at most max_text_chars
                out.append(params)
        return out

    def _text(self, terminal: Terminal) -> str:
        limit = self.max_text_chars
        committed, live = terminal.committed, terminal.live
        if limit is None or len(committed) + len(live) <= limit:
            return committed + live
        # The last limit + 1 characters: the first of them tells whether the tail starts a line.
        need = limit + 1
        piece = live[-need:] if len(live) >= need else committed[len(committed) - (need - len(live)) :] + live
        newline = piece.find("\n")
        if piece[0] == "\n" or newline < 0 or newline == len(piece) - 1:
            tail = piece[1:]  # at a line boundary, or one line longer than the bound: its end
        else:
            tail = piece[newline + 1 :]  # from the first whole line
        hidden_lines = terminal.committed_lines + live.count("\n") - tail.count("\n")
        return f"[{hidden_lines} earlier lines not shown]\n" + tail

    def _tool_call_update(self, session_id: str, session: _BridgedSession, tool_call_id: str) -> dict[str, Any]:
        content = []
        for item in session.content.get(tool_call_id, []):
            if isinstance(item, Mapping) and item.get("type") == "terminal":
                terminal_id = item.get("terminalId")
                terminal = session.store.get(terminal_id) if isinstance(terminal_id, str) else None
                text = self._text(terminal) if terminal is not None else ""
                content.append({"type": "content", "content": {"type": "text", "text": text}})
            else:
                content.append(item)
        update: dict[str, Any] = {"sessionUpdate": "tool_call_update", "toolCallId": tool_call_id, "content": content}
        if tool_call_id in session.status:
            update["status"] = session.status[tool_call_id]
        return {"sessionId": session_id, "update": update}
