"""SPEC 4: stateless rejection of terminal surfaces, the v2 -> v1 bridge, and today's `_meta` recordings."""

from __future__ import annotations

import pytest

from acp_fixtures import RFD_CHUNK, RFD_CONTENT, RFD_SUBJECT, RFD_UPDATE, as_notification, as_params, session_updates
from acp_transcript import (
    ConversionError,
    ProtocolError,
    TerminalStore,
    V2ToV1Bridge,
    reject_terminal_surfaces,
    session_notification,
    terminal_output_chunk,
)
from legacy_fixtures import LEGACY_RECORDING, SESSION_TRANSCRIPT, V2_RECORDING

SURFACES = [
    pytest.param(RFD_UPDATE, "", id="terminal-update"),
    pytest.param(RFD_CHUNK, "", id="output-chunk"),
    pytest.param(as_notification(RFD_UPDATE), "/params/update", id="update-in-notification"),
    pytest.param(as_params(RFD_CHUNK), "/update", id="chunk-in-params"),
    pytest.param([{"type": "text", "text": "a"}, RFD_CONTENT], "/1", id="content-list"),
    pytest.param(as_notification({"sessionUpdate": "tool_call", "toolCallId": "c", "title": "t",
                                  "content": [{"type": "diff", "path": "/a", "newText": ""}, RFD_CONTENT]}),
                 "/params/update/content/1", id="content-in-tool-call"),
    pytest.param(RFD_SUBJECT, "", id="command-subject"),
    pytest.param({"jsonrpc": "2.0", "id": 3, "method": "session/request_permission",
                  "params": {"sessionId": "s", "title": "Run?", "subject": RFD_SUBJECT}},
                 "/params/subject", id="subject-in-request"),
    pytest.param({"a/b": {"x~": [RFD_CONTENT]}}, "/a~1b/x~0/0", id="pointer-escaping"),
]


@pytest.mark.parametrize(("obj", "pointer"), SURFACES)
def test_stateless_conversion_rejects_terminal_surfaces(obj, pointer):
    with pytest.raises(ConversionError) as info:
        reject_terminal_surfaces(obj)
    assert info.value.pointer == pointer
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    "obj",
    [
        as_notification({"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "terminal"}}),
        {"sessionUpdate": "tool_call", "toolCallId": "c", "title": "terminal", "content": [
            {"type": "content", "content": {"type": "text", "text": "x"}}]},
        {"type": "terminal"},  # no terminalId: not terminal content
        [1, "two", None],
    ],
)
def test_non_terminal_objects_pass(obj):
    assert reject_terminal_surfaces(obj) is None


def test_sdk_models_are_checked():
    schema = pytest.importorskip("acp.schema")
    model = schema.ToolCallStart(sessionUpdate="tool_call", toolCallId="c", title="t",
                                 content=[schema.TerminalToolCallContent(type="terminal", terminalId="t")])
    with pytest.raises(ConversionError):
        reject_terminal_surfaces(model)


def text_of(params: dict) -> list[str]:
    return [item["content"]["text"] for item in params["update"]["content"] if item["type"] == "content"]


def test_bridge_emits_v1_tool_call_updates_that_validate_against_the_sdk():
    schema = pytest.importorskip("acp.schema")
    bridge = V2ToV1Bridge()
    emitted = []
    for update in session_updates():
        emitted += bridge.apply(as_notification(update))
    assert emitted, "the bridge emitted nothing"
    for params in emitted:
        notification = schema.SessionNotification.model_validate(params)
        assert isinstance(notification.update, schema.ToolCallProgress)
        assert params["update"]["toolCallId"] == "call_1"
        reject_terminal_surfaces(params)  # never a v1 terminal
    assert text_of(emitted[-1]) == [SESSION_TRANSCRIPT]
    assert emitted[-1]["sessionId"] == "sess_1" and emitted[-1]["update"]["status"] == "in_progress"


def test_bridge_keeps_other_content_and_reports_status():
    bridge = V2ToV1Bridge(session_id="s")
    out = bridge.apply({"sessionUpdate": "tool_call", "toolCallId": "c", "title": "t", "status": "pending",
                        "content": [{"type": "content", "content": {"type": "text", "text": "before"}},
                                    {"type": "terminal", "terminalId": "t"}]})
    assert out[0]["update"]["status"] == "pending"
    assert text_of(out[0]) == ["before", ""]
    assert bridge.apply({"sessionUpdate": "tool_call_update", "toolCallId": "c", "status": "completed"}) == []
    out = bridge.apply(terminal_output_chunk("t", b"done\n"))
    assert text_of(out[0]) == ["before", "done\n"] and out[0]["update"]["status"] == "completed"
    assert out[0]["sessionId"] == "s"


def test_bridge_ignores_non_terminal_input_and_validates():
    bridge = V2ToV1Bridge()
    assert bridge.apply({"sessionUpdate": "agent_thought_chunk", "content": {"type": "text", "text": "x"}}) == []
    assert bridge.apply(terminal_output_chunk("unlinked", b"x")) == []  # kept until a tool call shows it
    with pytest.raises(ProtocolError):
        bridge.apply({"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": "%%"})


def test_bridge_shows_state_gathered_before_the_reference():
    bridge = V2ToV1Bridge()
    bridge.apply(terminal_output_chunk("t", b"early\n"))
    out = bridge.apply({"sessionUpdate": "tool_call", "toolCallId": "c", "title": "t", "content": [RFD_CONTENT | {
        "terminalId": "t"}]})
    assert text_of(out[0]) == ["early\n"]


def test_legacy_recording_gives_the_v2_transcript(impl, monkeypatch):
    from acp_transcript import terminals

    monkeypatch.setattr(terminals, "TranscriptDecoder", impl.TranscriptDecoder)
    legacy, v2 = TerminalStore(), TerminalStore()
    for message in LEGACY_RECORDING:
        legacy.apply(message)
    for message in V2_RECORDING:
        v2.apply(message)
    old, new = legacy["term_1"], v2["term_1"]
    assert old.transcript == new.transcript == SESSION_TRANSCRIPT
    assert (old.command, old.cwd, old.exit_status, old.tool_call_ids) == (
        new.command, new.cwd, new.exit_status, new.tool_call_ids)
    assert old.legacy and not new.legacy


def test_legacy_meta_can_be_switched_off():
    store = TerminalStore(legacy_meta=False)
    for message in LEGACY_RECORDING:
        store.apply(message)
    assert store["term_1"].output == b"" and not store["term_1"].legacy


@pytest.mark.parametrize(
    ("meta", "pointer"),
    [
        ({"terminal_output": "text"}, "/_meta/terminal_output"),
        ({"terminal_output": {"terminal_id": "t", "data": 5}}, "/_meta/terminal_output/data"),
        ({"terminal_exit": {"terminal_id": "t", "exit_code": "0"}}, "/_meta/terminal_exit/exit_code"),
        ({"terminal_info": {"terminal_id": "t", "cwd": "rel"}}, "/_meta/terminal_info/cwd"),
        ({"terminal_info": {"terminal_id": 4}}, "/_meta/terminal_info/terminal_id"),
    ],
)
def test_bad_legacy_meta_is_a_protocol_error(meta, pointer):
    store = TerminalStore()
    with pytest.raises(ProtocolError) as info:
        store.apply({"sessionUpdate": "tool_call_update", "toolCallId": "c", "_meta": meta})
    assert info.value.pointer == pointer
    assert len(store) == 0


def test_legacy_capability_flag_is_not_output():
    store = TerminalStore()
    assert store.apply({"sessionUpdate": "tool_call_update", "toolCallId": "c",
                        "_meta": {"terminal_output_delta": True}}) == []


def test_bridge_keeps_sessions_apart():
    """SPEC 4 rev 2: two sessions that both use term_1 / call_1 never see each other's output."""
    bridge = V2ToV1Bridge()
    for session, text in (("A", b"secret of A\n"), ("B", b"output of B\n")):
        bridge.apply(session_notification(session, {
            "sessionUpdate": "tool_call", "toolCallId": "call_1", "title": "run",
            "content": [{"type": "terminal", "terminalId": "term_1"}]}))
        out = bridge.apply(session_notification(session, terminal_output_chunk("term_1", text)))
        assert [p["sessionId"] for p in out] == [session]
        assert text_of(out[0]) == [text.decode()]
    assert bridge.store("A")["term_1"].transcript == "secret of A\n"


def test_bridge_emits_only_when_the_text_changes():
    bridge = V2ToV1Bridge()
    bridge.apply({"sessionUpdate": "tool_call", "toolCallId": "c", "title": "t",
                  "content": [{"type": "terminal", "terminalId": "t"}]})
    assert len(bridge.apply(terminal_output_chunk("t", b"line\n"))) == 1
    assert bridge.apply(terminal_output_chunk("t", b"")) == []  # nothing new to show
    assert bridge.apply(terminal_output_chunk("t", b"\x1b[31m")) == []  # an SGR changes no text


def test_bridge_bounds_each_update_to_a_tail():
    bridge = V2ToV1Bridge(max_text_chars=20)
    bridge.apply({"sessionUpdate": "tool_call", "toolCallId": "c", "title": "t",
                  "content": [{"type": "terminal", "terminalId": "t"}]})
    total = 0
    for n in range(2000):
        for params in bridge.apply(terminal_output_chunk("t", b"line %04d\n" % n)):
            text = text_of(params)[0]
            total += len(text)
    assert text == "[1998 earlier lines not shown]\nline 1998\nline 1999\n"
    assert total < 2000 * 60  # linear in the output, not quadratic


def test_bridge_rejects_a_bad_bound():
    with pytest.raises(ValueError):
        V2ToV1Bridge(max_text_chars=0)


def test_conversion_errors_never_echo_raw_escapes_from_keys():
    with pytest.raises(ConversionError) as info:
        reject_terminal_surfaces({"\x1b]52;c;ZXZpbA==\x07": [{"type": "terminal", "terminalId": "t"}]})
    assert "\x1b" not in str(info.value) and "\x07" not in str(info.value)
    assert info.value.pointer == "/\x1b]52;c;ZXZpbA==\x07/0"  # the pointer itself stays exact
