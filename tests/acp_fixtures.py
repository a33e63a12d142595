"""ACP v2 terminal fixtures: valid and invalid wire objects, and a realistic session."""

from __future__ import annotations

from acp_transcript import ExitStatus, session_notification, terminal_output_chunk, terminal_update

SESSION = "sess_1"

# The RFD's own examples, verbatim.
RFD_UPDATE = {
    "sessionUpdate": "terminal_update",
    "terminalId": "term_001",
    "command": "cargo test",
    "cwd": "/workspace/project",
    "output": {"data": "cnVubmluZyAxMjMgdGVzdHMNCg=="},
    "exitStatus": {"exitCode": 0, "signal": None},
}
RFD_CHUNK = {"sessionUpdate": "terminal_output_chunk", "terminalId": "term_001", "data": "cGFzc2VkDQo="}
RFD_CONTENT = {"type": "terminal", "terminalId": "term_001"}
RFD_SUBJECT = {
    "type": "command",
    "command": "cargo test",
    "cwd": "/workspace/project",
    "toolCallId": "call_001",
    "terminalId": "term_001",
}

VALID_UPDATES = [
    RFD_UPDATE,
    RFD_CHUNK,
    {"sessionUpdate": "terminal_update", "terminalId": "t"},
    {"sessionUpdate": "terminal_update", "terminalId": "t", "command": None, "cwd": None, "output": None,
     "exitStatus": None, "_meta": None},
    {"sessionUpdate": "terminal_update", "terminalId": "t", "exitStatus": {}},
    {"sessionUpdate": "terminal_update", "terminalId": "t", "exitStatus": {"signal": "SIGTERM"}},
    {"sessionUpdate": "terminal_update", "terminalId": "t", "exitStatus": {"exitCode": 4294967295, "_meta": {"k": 1}}},
    {"sessionUpdate": "terminal_update", "terminalId": "t", "cwd": "C:\\Users\\dev"},
    {"sessionUpdate": "terminal_update", "terminalId": "t", "cwd": "D:/work"},
    {"sessionUpdate": "terminal_update", "terminalId": "t", "cwd": "\\\\server\\share\\dir"},
    {"sessionUpdate": "terminal_update", "terminalId": "t", "output": {"data": "", "_meta": None}},
    {"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": "", "_meta": {"seq": 1}},
    # schema 2.4.0
    {"sessionUpdate": "terminal_update", "terminalId": "t", "exitStatus": {"exitCode": -1}},
    {"sessionUpdate": "terminal_update", "terminalId": "t", "exitStatus": {"exitCode": -(2**63)}},
    {"sessionUpdate": "terminal_update", "terminalId": "t", "exitStatus": {"exitCode": 2**63 - 1}},
    {"sessionUpdate": "terminal_update", "terminalId": "t", "size": {"cols": 80, "rows": 24}},
    {"sessionUpdate": "terminal_update", "terminalId": "t", "size": {"cols": 65535, "rows": 1, "_meta": None}},
    {"sessionUpdate": "terminal_update", "terminalId": "t", "size": None, "capabilities": None},
    {"sessionUpdate": "terminal_update", "terminalId": "t", "capabilities": {"cancel": {}}},
    {"sessionUpdate": "terminal_update", "terminalId": "t", "capabilities": {"cancel": None, "_meta": {"k": 1}}},
]

# (update, JSON pointer of the error)
INVALID_UPDATES = [
    ({"sessionUpdate": "terminal_update"}, "/terminalId"),
    ({"sessionUpdate": "terminal_update", "terminalId": 7}, "/terminalId"),
    ({"sessionUpdate": "terminal_update", "terminalId": ""}, "/terminalId"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "command": 1}, "/command"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "cwd": "relative/dir"}, "/cwd"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "cwd": "C:relative"}, "/cwd"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "output": {}}, "/output/data"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "output": "cGFzc2Vk"}, "/output"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "output": {"data": "cGFzc2VkDQo"}}, "/output/data"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "output": {"data": "c2Vj*ZXQ="}}, "/output/data"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "output": {"data": "b2s=", "_meta": 3}}, "/output/_meta"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "exitStatus": {"exitCode": 2**63}}, "/exitStatus/exitCode"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "exitStatus": {"exitCode": -(2**63) - 1}}, "/exitStatus/exitCode"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "exitStatus": {"exitCode": True}}, "/exitStatus/exitCode"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "exitStatus": {"exitCode": 1.5}}, "/exitStatus/exitCode"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "exitStatus": {"signal": 9}}, "/exitStatus/signal"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "exitStatus": 0}, "/exitStatus"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "_meta": []}, "/_meta"),
    ({"sessionUpdate": "terminal_output_chunk", "terminalId": "t"}, "/data"),
    ({"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": 5}, "/data"),
    ({"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": "b2s"}, "/data"),
    ({"sessionUpdate": "terminal_output_chunk", "data": "b2s="}, "/terminalId"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "size": {"cols": 80}}, "/size/rows"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "size": {"cols": 0, "rows": 24}}, "/size/cols"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "size": {"cols": 80, "rows": 65536}}, "/size/rows"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "size": {"cols": True, "rows": 24}}, "/size/cols"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "size": "80x24"}, "/size"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "capabilities": []}, "/capabilities"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "capabilities": {"cancel": True}}, "/capabilities/cancel"),
]

# Strings the store keeps must be valid Unicode without NUL (SPEC 3.1 rev 2); JSON Schema cannot say so.
INVALID_TEXT_UPDATES = [
    ({"sessionUpdate": "terminal_update", "terminalId": "t\x00"}, "/terminalId"),
    ({"sessionUpdate": "terminal_update", "terminalId": "\ud800"}, "/terminalId"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "command": "ls\x00"}, "/command"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "cwd": "/a\udc00"}, "/cwd"),
    ({"sessionUpdate": "terminal_update", "terminalId": "t", "exitStatus": {"signal": "SIG\ud800"}},
     "/exitStatus/signal"),
]

#: Pointers of required fields: malformed, they reject the update even in the tolerant (default) mode.
REQUIRED_POINTERS = ("/terminalId", "/data")

# A realistic session: a tool call shows a terminal; the command prints colored output in chunks that
# split a UTF-8 code point and an escape sequence, runs a progress bar, and exits.
SESSION_OUTPUT = [
    b"\x1b[1mCompiling\x1b[0m demo v0.1.0\r\n",
    b"caf\xc3",  # splits the code point of "é"
    b"\xa9 \x1b[3",  # splits an SGR sequence
    b"2mready\x1b[0m\r\n",
    b"progress  10%\rprogress  50%\rprogress 100%\r\n",
    b"test result: \x1b[32mok\x1b[0m. 3 passed\r\n",
]
SESSION_TRANSCRIPT = "Compiling demo v0.1.0\ncafé ready\nprogress 100%\ntest result: ok. 3 passed\n"


def session_updates() -> list[dict]:
    updates = [
        {"sessionUpdate": "tool_call", "toolCallId": "call_1", "title": "Run the tests", "kind": "execute",
         "status": "in_progress", "content": [{"type": "terminal", "terminalId": "term_1"}]},
        terminal_update("term_1", command="cargo test", cwd="/workspace/demo", output=b""),
    ]
    updates += [terminal_output_chunk("term_1", chunk) for chunk in SESSION_OUTPUT]
    updates.append(terminal_update("term_1", exit_status=ExitStatus(exit_code=0)))
    updates.append({"sessionUpdate": "tool_call_update", "toolCallId": "call_1", "status": "completed"})
    return updates


def as_params(update: dict) -> dict:
    return {"sessionId": SESSION, "update": update}


def as_notification(update: dict) -> dict:
    return session_notification(SESSION, update)
