"""Build examples/session.jsonl: an ACP v2 session recording made with the agent-side builders from real
program output captured on a PTY (tests/captures). Run from the repository root:

    python examples/make_session.py

The recording has three tool calls: a pytest run that fails (its output streamed in 512-byte chunks, so
chunks split escape sequences and UTF-8), a tqdm progress bar (one snapshot, then the exit), and a
`git log` sent as a JSON-RPC batch; plus one legacy terminal in the pre-v2 `_meta` shape.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from acp_transcript import ExitStatus, session_notification, terminal_output_chunk, terminal_update  # noqa: E402

SESSION = "sess_example"
CAPTURES = ROOT / "tests" / "captures"


def tool_call(call_id: str, title: str, terminal_id: str) -> dict:
    return {"sessionUpdate": "tool_call", "toolCallId": call_id, "title": title, "kind": "execute",
            "status": "in_progress", "content": [{"type": "terminal", "terminalId": terminal_id}]}


def status(call_id: str, value: str) -> dict:
    return {"sessionUpdate": "tool_call_update", "toolCallId": call_id, "status": value}


def main() -> None:
    pytest_out = (CAPTURES / "pytest_failures.bin").read_bytes()
    bar = (CAPTURES / "tqdm_bar.bin").read_bytes()
    git_log = (CAPTURES / "git_log.bin").read_bytes()
    lines: list[object] = []

    def send(update: dict) -> None:
        lines.append(session_notification(SESSION, update))

    send({"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "Running the tests."}})
    send(tool_call("call_1", "Run the test suite", "term_1"))
    send(terminal_update("term_1", command="pytest --color=yes", cwd="/tmp/demo"))
    for i in range(0, len(pytest_out), 512):
        send(terminal_output_chunk("term_1", pytest_out[i : i + 512]))
    send(terminal_update("term_1", exit_status=ExitStatus(exit_code=1)))
    send(status("call_1", "failed"))

    send(tool_call("call_2", "Show a progress bar", "term_2"))
    send(terminal_update("term_2", command="python bar.py", cwd="/tmp/demo", output=bar))
    send(terminal_update("term_2", exit_status=ExitStatus(exit_code=0)))
    send(status("call_2", "completed"))

    batch = [
        session_notification(SESSION, tool_call("call_3", "Recent history", "term_3")),
        session_notification(SESSION, terminal_update("term_3", command="git log --graph", cwd="/tmp/demo",
                                                      output=git_log, exit_status=ExitStatus(exit_code=0))),
    ]
    lines.append(batch)

    legacy = {"sessionUpdate": "tool_call", "toolCallId": "call_4", "title": "ls", "kind": "execute",
              "status": "in_progress", "_meta": {"terminal_info": {"terminal_id": "legacy_1", "cwd": "/tmp/demo",
                                                                   "command": "ls -F"}}}
    send(legacy)
    send({"sessionUpdate": "tool_call_update", "toolCallId": "call_4", "status": "completed", "_meta": {
        "terminal_output": {"terminal_id": "legacy_1",
                            "data": (CAPTURES / "ls_color.bin").read_bytes().decode("utf-8")},
        "terminal_exit": {"terminal_id": "legacy_1", "exit_code": 0, "signal": None}}})

    out = ROOT / "examples" / "session.jsonl"
    out.write_text("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines), encoding="utf-8")
    print(f"wrote {out.relative_to(ROOT)}: {len(lines)} lines")


if __name__ == "__main__":
    main()
