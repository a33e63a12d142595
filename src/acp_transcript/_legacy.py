"""Today's recordings: the pre-v2 ``_meta`` terminal extensions on v1 ``tool_call``/``tool_call_update``.

Before ACP v2, agents that run commands themselves (codex-acp, claude-agent-acp) report them with
implementation-specific ``_meta`` keys, which Zed reads:

    {"terminal_info": {"terminal_id": "t1", "cwd": "/work", "command": "ls"}}
    {"terminal_output": {"terminal_id": "t1", "data": "text\\r\\n"}}        (appended)
    {"terminal_output_delta": {"terminal_id": "t1", "data": "more"}}      (appended)
    {"terminal_exit": {"terminal_id": "t1", "exit_code": 0, "signal": null}}

``data`` is a UTF-8 string, appended as its bytes. camelCase spellings (``terminalId``, ``exitCode``) are
accepted too. Without a terminal ID (some agents leave it out of deltas) the change goes to the terminal the
tool call already shows, else to a terminal named by the tool call's ID. Such terminals are flagged
``legacy``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ._validate import UINT32_MAX, ExitStatus, check_absolute_path
from .errors import ProtocolError

__all__ = ["LEGACY_KEYS", "LegacyChange", "parse_legacy_meta"]

LEGACY_KEYS = ("terminal_info", "terminal_output", "terminal_output_delta", "terminal_exit")


@dataclass(frozen=True)
class LegacyChange:
    terminal_id: str | None  # None: the terminal the tool call shows
    tool_call_id: str
    command: str | None = None
    cwd: str | None = None
    data: bytes = b""
    exit_status: ExitStatus | None = None

    def apply(self, terminal_for: Callable[[str], Any], shown_by: Callable[[str], str | None]) -> Any:
        terminal = terminal_for(self.terminal_id or shown_by(self.tool_call_id) or self.tool_call_id)
        terminal.legacy = True
        if self.tool_call_id not in terminal.tool_call_ids:
            terminal.tool_call_ids.append(self.tool_call_id)
        if self.command is not None:
            terminal.command = self.command
        if self.cwd is not None:
            terminal.cwd = self.cwd
        if self.data:
            terminal._append_output(self.data)
        if self.exit_status is not None:
            terminal.exit_status = self.exit_status
        return terminal


def _field(obj: Mapping[str, Any], snake: str, camel: str) -> Any:
    return obj[snake] if snake in obj else obj.get(camel)


def _optional_string(obj: Mapping[str, Any], snake: str, camel: str, pointer: str) -> str | None:
    value = _field(obj, snake, camel)
    if value is not None and not isinstance(value, str):
        raise ProtocolError("expected a string or null", f"{pointer}/{snake if snake in obj else camel}")
    return value


def parse_legacy_meta(update: Mapping[str, Any], tool_call_id: str, pointer: str) -> list[tuple[str, LegacyChange]]:
    meta = update.get("_meta")
    if not isinstance(meta, Mapping):
        return []
    changes = []
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
        change = LegacyChange(terminal_id, tool_call_id)
        if key == "terminal_info":
            cwd = _optional_string(value, "cwd", "cwd", at)
            if cwd is not None:
                check_absolute_path(cwd, f"{at}/cwd")
            change = LegacyChange(terminal_id, tool_call_id, _optional_string(value, "command", "command", at), cwd)
        elif key in ("terminal_output", "terminal_output_delta"):
            data = value.get("data")
            if not isinstance(data, str):
                raise ProtocolError("expected a string", f"{at}/data")
            change = LegacyChange(terminal_id, tool_call_id, data=data.encode("utf-8", "surrogatepass"))
        else:
            code = _field(value, "exit_code", "exitCode")
            if code is not None and (not isinstance(code, int) or isinstance(code, bool) or not 0 <= code <= UINT32_MAX):
                # Some agents report -1 for "killed"; a negative code is kept out rather than guessed at.
                if not (isinstance(code, int) and not isinstance(code, bool) and code < 0):
                    raise ProtocolError("expected an integer or null", f"{at}/exit_code")
                code = None
            signal = _optional_string(value, "signal", "signal", at)
            change = LegacyChange(terminal_id, tool_call_id, exit_status=ExitStatus(code, signal))
        changes.append(("legacy", change))
    return changes
