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
from typing import Any

from ._validate import as_json
from .errors import ConversionError
from .terminals import TOOL_CALL_KINDS, TerminalStore, find_update

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


class V2ToV1Bridge:
    """Stateful v2 -> v1: terminals become text content in v1 ``tool_call_update`` notifications.

    ``apply(obj)`` takes what ``TerminalStore.apply`` takes and returns v1 ``session/update`` params objects:
    one ``tool_call_update`` for every tool call that shows a terminal that changed, its content the tool
    call's last content with each terminal reference replaced by
    ``{"type": "content", "content": {"type": "text", "text": <transcript>}}``, plus the tool call's status
    when known. Input that is not about terminals gives ``[]``.
    """

    def __init__(self, *, session_id: str = "", max_output_bytes: int | None = None, **decoder_options: Any) -> None:
        # v2 input carries no pre-v2 _meta extensions to interpret.
        self.store = TerminalStore(legacy_meta=False, max_output_bytes=max_output_bytes, **decoder_options)
        self.session_id = session_id
        self._content: dict[str, list[Any]] = {}  # tool call ID -> its last content list
        self._status: dict[str, str] = {}
        self._session_of: dict[str, str] = {}

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
        session_id = self._session_id(obj)
        changed = self.store.apply(update)  # validates completely before anything changes
        if update.get("sessionUpdate") in TOOL_CALL_KINDS:
            tool_call_id = update["toolCallId"]
            self._session_of[tool_call_id] = session_id
            if isinstance(update.get("status"), str):
                self._status[tool_call_id] = update["status"]
            if isinstance(update.get("content"), list):
                self._content[tool_call_id] = list(update["content"])
        out = []
        for terminal in changed:
            for tool_call_id in terminal.tool_call_ids:
                out.append(self._tool_call_update(tool_call_id))
        return out

    def _session_id(self, obj: Mapping[str, Any]) -> str:
        params = obj.get("params") if "method" in obj else obj
        session_id = params.get("sessionId") if isinstance(params, Mapping) else None
        return session_id if isinstance(session_id, str) else self.session_id

    def _tool_call_update(self, tool_call_id: str) -> dict[str, Any]:
        content = []
        for item in self._content.get(tool_call_id, []):
            if isinstance(item, Mapping) and item.get("type") == "terminal":
                terminal_id = item.get("terminalId")
                terminal = self.store.get(terminal_id) if isinstance(terminal_id, str) else None
                text = terminal.transcript if terminal is not None else ""
                content.append({"type": "content", "content": {"type": "text", "text": text}})
            else:
                content.append(item)
        update: dict[str, Any] = {"sessionUpdate": "tool_call_update", "toolCallId": tool_call_id, "content": content}
        if tool_call_id in self._status:
            update["status"] = self._status[tool_call_id]
        return {"sessionId": self._session_of.get(tool_call_id, self.session_id), "update": update}
