"""Recorded-style fixtures in the shapes today's agents emit (pre-v2 `_meta` terminal extensions, as
codex-acp and claude-agent-acp send them and Zed reads them), and the same command as a v2 recording."""

from __future__ import annotations

from acp_fixtures import SESSION_OUTPUT, SESSION_TRANSCRIPT, as_notification
from acp_transcript import ExitStatus, terminal_output_chunk, terminal_update

__all__ = ["LEGACY_RECORDING", "V2_RECORDING", "SESSION_TRANSCRIPT"]

LEGACY_RECORDING = [
    as_notification({
        "sessionUpdate": "tool_call", "toolCallId": "call_1", "title": "cargo test", "kind": "execute",
        "status": "in_progress",
        "content": [{"type": "terminal", "terminalId": "term_1"}],
        "_meta": {"terminal_info": {"terminal_id": "term_1", "cwd": "/workspace/demo", "command": "cargo test"}},
    }),
    as_notification({"sessionUpdate": "tool_call_update", "toolCallId": "call_1",
                     "_meta": {"terminal_output": {"terminal_id": "term_1", "data": SESSION_OUTPUT[0].decode()}}}),
    # Deltas as codex-acp sends them once the client announced `terminal_output_delta`; the first one splits
    # nothing (strings carry whole characters), the escape sequence is still split across two.
    as_notification({"sessionUpdate": "tool_call_update", "toolCallId": "call_1",
                     "_meta": {"terminal_output_delta": {"terminal_id": "term_1", "data": "café \x1b[3"}}}),
    as_notification({"sessionUpdate": "tool_call_update", "toolCallId": "call_1",
                     "_meta": {"terminal_output_delta": {"data": "2mready\x1b[0m\r\n"}}}),  # no terminal_id
    *[
        as_notification({"sessionUpdate": "tool_call_update", "toolCallId": "call_1",
                         "_meta": {"terminal_output_delta": {
                             "terminalId": "term_1", "data": chunk.decode()}}})
        for chunk in SESSION_OUTPUT[4:]
    ],
    as_notification({"sessionUpdate": "tool_call_update", "toolCallId": "call_1", "status": "completed",
                     "_meta": {"terminal_exit": {"terminal_id": "term_1", "exit_code": 0, "signal": None}}}),
]

V2_RECORDING = [
    as_notification({"sessionUpdate": "tool_call", "toolCallId": "call_1", "title": "cargo test", "kind": "execute",
                     "status": "in_progress", "content": [{"type": "terminal", "terminalId": "term_1"}]}),
    as_notification(terminal_update("term_1", command="cargo test", cwd="/workspace/demo")),
    *[as_notification(terminal_output_chunk("term_1", chunk)) for chunk in SESSION_OUTPUT],
    as_notification(terminal_update("term_1", exit_status=ExitStatus(exit_code=0))),
    as_notification({"sessionUpdate": "tool_call_update", "toolCallId": "call_1", "status": "completed"}),
]
