"""Today's recordings: the pre-v2 ``_meta`` terminal extensions on v1 ``tool_call``/``tool_call_update``.

Before ACP v2, agents that run commands themselves (codex-acp, claude-agent-acp) report them with
implementation-specific ``_meta`` keys, which Zed reads:

    {"terminal_info": {"terminal_id": "t1", "cwd": "/work", "command": "ls"}}
    {"terminal_output": {"terminal_id": "t1", "data": "text\\r\\n"}}
    {"terminal_output_delta": {"terminal_id": "t1", "data": "more"}}      (appended)
    {"terminal_exit": {"terminal_id": "t1", "exit_code": 0, "signal": null}}

``data`` is a UTF-8 string, used as its bytes. What ``terminal_output`` means depends on the agent, as each
agent's own v2 bridge shows (SPEC 3.1 rev 2):

- codex-acp 2.6.0 (``toV2TerminalUpdates``): output is appended as a chunk, except that output sent together
  with ``terminal_exit`` becomes the replacement snapshot of the final ``terminal_update``;
- claude-agent-acp 0.101.0 (``dist/v2/terminal.js``): ``terminal_output`` is a replacement snapshot,
  ``terminal_output_delta`` appends.

camelCase spellings (``terminalId``, ``exitCode``) are accepted too. Without a terminal ID (some agents leave
it out of deltas) the change goes to the terminal the tool call already shows, else to a terminal named by
the tool call's ID. Such terminals are flagged ``legacy``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ._validate import INT64_MAX, INT64_MIN, ExitStatus, check_absolute_path, check_text, is_int
from .errors import ProtocolError

__all__ = ["LEGACY_KEYS", "LEGACY_OUTPUT", "LegacyChange", "legacy_output_for_agent", "parse_legacy_meta"]

LEGACY_KEYS = ("terminal_info", "terminal_output", "terminal_output_delta", "terminal_exit")
#: What ``terminal_output`` means when the agent is not known: "append" (Zed's reading) or "replace".
LEGACY_OUTPUT = ("append", "replace")


def legacy_output_for_agent(agent_name: str | None, default: str) -> str:
    """The meaning of ``terminal_output`` for the agent named in the session's ``initialize`` response."""
    name = (agent_name or "").lower()
    if "claude" in name:
        return "replace"
    if "codex" in name:
        return "codex"
    return default


@dataclass(frozen=True)
class LegacyChange:
    """One pre-v2 ``_meta`` key, validated. ``replace`` is ``terminal_output`` as a snapshot (see above)."""

    terminal_id: str | None  # None: the terminal the tool call shows
    tool_call_id: str
    command: str | None = None
    cwd: str | None = None
    data: bytes | None = None
    replace: bool = False
    exit_status: ExitStatus | None = None


def _field(obj: Mapping[str, Any], snake: str, camel: str) -> Any:
    return obj[snake] if snake in obj else obj.get(camel)


def _optional_string(obj: Mapping[str, Any], snake: str, camel: str, pointer: str) -> str | None:
    value = _field(obj, snake, camel)
    at = f"{pointer}/{snake if snake in obj else camel}"
    if value is not None and not isinstance(value, str):
        raise ProtocolError("expected a string or null", at)
    return None if value is None else check_text(value, at)


def parse_legacy_meta(update: Mapping[str, Any], tool_call_id: str, pointer: str, output_mode: str) -> list[LegacyChange]:
    """The changes the ``_meta`` of one tool-call update carries, in key order; ``output_mode`` is what
    ``terminal_output`` means (``legacy_output_for_agent``)."""
    meta = update.get("_meta")
    if not isinstance(meta, Mapping):
        return []
    changes = []
    with_exit = isinstance(meta.get("terminal_exit"), Mapping)
    for key in LEGACY_KEYS:
        if key not in meta:
            continue
        at = f"{pointer}/_meta/{key}"
        value = meta[key]
        if not isinstance(value, Mapping):
            if key == "terminal_output_delta" and isinstance(value, bool):
                continue  # the capability flag `terminal_output_delta: true`, not output
            raise ProtocolError("expected an object", at)
        terminal_id = _optional_string(value, "terminal_id", "terminalId", at)
        if key == "terminal_info":
            cwd = _optional_string(value, "cwd", "cwd", at)
            if cwd is not None:
                check_absolute_path(cwd, f"{at}/cwd")
            command = _optional_string(value, "command", "command", at)
            changes.append(LegacyChange(terminal_id, tool_call_id, command, cwd))
        elif key in ("terminal_output", "terminal_output_delta"):
            data = value.get("data")
            if not isinstance(data, str):
                raise ProtocolError("expected a string", f"{at}/data")
            replace = (key == "terminal_output" and output_mode == "replace") or (output_mode == "codex" and with_exit)
            changes.append(LegacyChange(terminal_id, tool_call_id, data=data.encode("utf-8", "replace"), replace=replace))
        else:
            code = _field(value, "exit_code", "exitCode")
            if code is not None and (
                not is_int(code) or not INT64_MIN <= code <= INT64_MAX
            ):
                raise ProtocolError("expected an integer or null", f"{at}/{'exit_code' if 'exit_code' in value else 'exitCode'}")
            signal = _optional_string(value, "signal", "signal", at)
            changes.append(LegacyChange(terminal_id, tool_call_id, exit_status=ExitStatus(code, signal)))
    return changes
