"""SPEC 3: the Client side of ACP v2 display terminals. Each scenario quotes the RFD rule it pins."""

from __future__ import annotations

import pytest

from acp_transcript import (
    UNSET,
    CommandPermissionSubject,
    ExitStatus,
    ProtocolError,
    TerminalStore,
    check_batch,
    terminal_output_chunk,
    terminal_update,
)
from acp_fixtures import (
    INVALID_TEXT_UPDATES,
    INVALID_UPDATES,
    REQUIRED_POINTERS,
    RFD_CHUNK,
    RFD_CONTENT,
    RFD_SUBJECT,
    RFD_UPDATE,
    SESSION_TRANSCRIPT,
    VALID_UPDATES,
    as_notification,
    as_params,
    session_updates,
)


@pytest.fixture
def store(impl, monkeypatch):
    """A store whose terminals decode with the implementation under test."""
    from acp_transcript import terminals

    monkeypatch.setattr(terminals, "TranscriptDecoder", impl.TranscriptDecoder)
    return TerminalStore()


def snapshot(store: TerminalStore) -> list[tuple]:
    return [
        (t.terminal_id, t.command, t.cwd, t.exit_status, t.meta, t.output, t.transcript, tuple(t.tool_call_ids),
         t.size, t.capabilities)
        for t in (store[i] for i in store)
    ]


def test_rfd_examples_are_golden_vectors(store):
    store.apply(RFD_UPDATE)
    terminal = store["term_001"]
    assert (terminal.command, terminal.cwd) == ("cargo test", "/workspace/project")
    assert terminal.output == b"running 123 tests\r\n"
    assert terminal.exit_status == ExitStatus(exit_code=0)
    store.apply(RFD_CHUNK)
    assert terminal.output == b"running 123 tests\r\npassed\r\n"
    assert terminal.transcript == "running 123 tests\npassed\n"


def test_first_update_creates_with_every_field_unknown(store):
    """RFD: On a first-seen ID, omitted fields start unknown or empty."""
    (terminal,) = store.apply({"sessionUpdate": "terminal_update", "terminalId": "t"})
    assert (terminal.command, terminal.cwd, terminal.exit_status, terminal.meta, terminal.output) == (
        None, None, None, None, b"")
    assert not terminal.exited


def test_omitted_null_value(store):
    """RFD: An omitted field leaves its previous value unchanged. null clears its previous value. A concrete
    value replaces its previous value."""
    store.apply(terminal_update("t", command="ls", cwd="/a", meta={"k": 1}))
    store.apply(terminal_update("t", cwd="/b"))
    terminal = store["t"]
    assert (terminal.command, terminal.cwd, terminal.meta) == ("ls", "/b", {"k": 1})
    store.apply(terminal_update("t", command=None, meta=None))
    assert (terminal.command, terminal.cwd, terminal.meta) == (None, "/b", None)


def test_snapshot_replaces_all_bytes_and_chunks_append(store):
    """RFD: It replaces all previously stored bytes, and Clients MUST NOT merge or splice bytes from the
    previous snapshot into it. Later chunks append to the replacement."""
    store.apply(terminal_update("t", output=b"old line\r\nhalf \x1b[3"))
    store.apply(terminal_update("t", output=b"new"))
    store.apply(terminal_output_chunk("t", b" and more\r\n"))
    assert store["t"].output == b"new and more\r\n"
    assert store["t"].transcript == "new and more\n"


def test_null_output_is_empty_output(store):
    store.apply(terminal_update("t", output=b"something"))
    store.apply(terminal_update("t", output=None))
    assert store["t"].output == b"" and store["t"].transcript == ""


def test_chunks_are_decoded_separately(store):
    """RFD: Clients decode each chunk separately and append the decoded bytes in received order for that
    terminalId; they MUST NOT concatenate the encoded strings and decode them as one value."""
    for data in ("YQ==", "Yg==", "Yw=="):  # "YQ==Yg==Yw==" is not valid base64 as one value
        store.apply({"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": data})
    assert store["t"].output == b"abc"


def test_chunks_may_split_code_points_and_sequences(store):
    """RFD: A chunk may split a UTF-8 code point or ANSI escape sequence, so ... transcript decoders retain
    parser state between chunks."""
    data = "é \x1b[31mred\x1b[0m\n".encode()
    for i in range(len(data)):
        store.apply(terminal_output_chunk("t", data[i : i + 1]))
    assert store["t"].transcript == "é red\n"


def test_exit_status_rules(store):
    """RFD: a concrete object marks the terminal as exited ... exitStatus: null clears a previously reported
    exit status. The terminal's exit status is independent of its tool call's status."""
    store.apply(terminal_update("t", exit_status={}))
    assert store["t"].exited and not store["t"].failed
    store.apply(terminal_update("t", exit_status={"signal": "SIGTERM"}))
    assert store["t"].failed and store["t"].exit_status.signal == "SIGTERM"
    store.apply(terminal_update("t", exit_status={"exitCode": 2}))
    assert store["t"].failed
    store.apply(terminal_update("t", exit_status=None))
    assert not store["t"].exited
    store.apply({"sessionUpdate": "tool_call_update", "toolCallId": "c", "status": "failed"})
    assert not store["t"].exited


def test_nested_meta_is_scoped(store):
    """RFD: output._meta is scoped to that snapshot; exitStatus._meta is scoped to that exit information;
    chunk _meta is chunk-scoped. None of them is the terminal's _meta."""
    store.apply({"sessionUpdate": "terminal_update", "terminalId": "t", "output": {"data": "", "_meta": {"o": 1}},
                 "exitStatus": {"_meta": {"e": 1}}})
    store.apply(terminal_output_chunk("t", b"x", meta={"c": 1}))
    terminal = store["t"]
    assert terminal.meta is None
    assert terminal.output_meta == {"o": 1}
    assert terminal.exit_status.meta == {"e": 1}


def test_reference_and_updates_in_either_order(store):
    """RFD: The terminal reference and terminal session updates may arrive in either order. Clients should
    retain state for a first-seen terminalId."""
    store.apply(terminal_output_chunk("t", b"early\n"))
    store.apply({"sessionUpdate": "tool_call", "toolCallId": "c1", "title": "x",
                 "content": [{"type": "terminal", "terminalId": "t"}]})
    assert store["t"].transcript == "early\n" and store["t"].tool_call_ids == ["c1"]
    store.apply({"sessionUpdate": "tool_call", "toolCallId": "c2", "title": "y", "content": [RFD_CONTENT]})
    assert "term_001" in store and store["term_001"].output == b""


def test_terminal_and_tool_call_ids_are_separate_domains(store):
    """RFD: terminalId and toolCallId are separate domains."""
    store.apply({"sessionUpdate": "tool_call", "toolCallId": "same", "title": "x", "content": [
        {"type": "terminal", "terminalId": "other"}]})
    assert list(store) == ["other"]


def test_other_updates_are_ignored(store):
    for update in [
        {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "hi"}},
        {"sessionUpdate": "_vendor_thing", "terminalId": 5},
        {"sessionUpdate": "plan", "entries": []},
        {"jsonrpc": "2.0", "id": 1, "method": "session/prompt", "params": {}},
        {"jsonrpc": "2.0", "id": 1, "result": {"stopReason": "end_turn"}},
        {"sessionUpdate": "tool_call", "toolCallId": "c", "title": "no terminal"},
    ]:
        assert store.apply(update) == []
    assert len(store) == 0


@pytest.mark.parametrize("update", VALID_UPDATES)
def test_valid_updates_apply(store, update):
    assert len(store.apply(update)) == 1


@pytest.mark.parametrize(("update", "pointer"), INVALID_UPDATES + INVALID_TEXT_UPDATES)
def test_invalid_update_is_rejected_and_changes_nothing(impl, monkeypatch, update, pointer):
    """strict=True (revision 1, what agents' test suites want): any malformed field rejects the whole update."""
    from acp_transcript import terminals

    monkeypatch.setattr(terminals, "TranscriptDecoder", impl.TranscriptDecoder)
    store = TerminalStore(strict=True)
    store.apply(terminal_update("t", command="keep", output=b"kept\n"))
    before = snapshot(store)
    with pytest.raises(ProtocolError) as info:
        store.apply(update)
    assert info.value.pointer == pointer
    assert snapshot(store) == before
    with pytest.raises(ProtocolError) as info:
        store.apply(as_notification(update))
    assert info.value.pointer == "/params/update" + pointer
    assert snapshot(store) == before


@pytest.mark.parametrize(("update", "pointer"), INVALID_UPDATES + INVALID_TEXT_UPDATES)
def test_malformed_optional_field_defaults_to_omitted_with_a_warning(store, update, pointer):
    """Schema 2.4.0 x-deserialize-default-on-error: a malformed optional field is left out, reported as a
    ProtocolWarning with its pointer, and the rest of the update applies. Required fields still raise."""
    store.apply(terminal_update("t", command="keep", output=b"kept\n"))
    before = snapshot(store)
    if pointer in REQUIRED_POINTERS:
        with pytest.raises(ProtocolError) as info:
            store.apply(update)
        assert info.value.pointer == pointer
        assert snapshot(store) == before and store.warnings == []
        return
    extra = {"_meta": {"applied": True}} if pointer != "/_meta" else {"command": "applied"}
    assert store.apply({**update, **extra}) == [store["t"]]
    assert [w.pointer for w in store.warnings] == [pointer]
    assert "(ignored)" in str(store.warnings[0])
    terminal = store["t"]
    if pointer == "/_meta":
        assert terminal.command == "applied"
    else:
        assert terminal.meta == {"applied": True}
        kept = "ok" if pointer == "/output/_meta" else "kept\n"  # only the snapshot's own _meta was bad
        assert terminal.command == "keep" and terminal.transcript == kept


def test_errors_never_echo_payload(store):
    secret = "c2VjcmV0LXRva2Vu!!"  # base64 of a secret, made invalid
    with pytest.raises(ProtocolError) as info:
        store.apply({"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": secret})
    assert secret not in str(info.value) and "c2VjcmV0" not in str(info.value)
    assert "offset 16" in str(info.value)


def test_every_input_form_gives_the_same_state(impl, monkeypatch):
    from acp_transcript import terminals

    monkeypatch.setattr(terminals, "TranscriptDecoder", impl.TranscriptDecoder)
    forms = {
        "bare": session_updates(),
        "params": [as_params(u) for u in session_updates()],
        "notifications": [as_notification(u) for u in session_updates()],
    }
    states = []
    for updates in forms.values():
        store = TerminalStore()
        for update in updates:
            store.apply(update)
        states.append(snapshot(store))
    batch_store = TerminalStore()
    batch_store.apply([as_notification(u) for u in session_updates()])
    states.append(snapshot(batch_store))
    assert all(state == states[0] for state in states)
    terminal = batch_store["term_1"]
    assert terminal.transcript == SESSION_TRANSCRIPT
    assert (terminal.command, terminal.cwd, terminal.exited, terminal.failed) == (
        "cargo test", "/workspace/demo", True, False)
    assert terminal.tool_call_ids == ["call_1"]


def test_batch_applies_valid_entries_and_reports_invalid_ones(impl, monkeypatch):
    from acp_transcript import terminals

    monkeypatch.setattr(terminals, "TranscriptDecoder", impl.TranscriptDecoder)
    store = TerminalStore(strict=True)
    batch = [
        as_notification(terminal_update("a", command="one")),
        as_notification({"sessionUpdate": "terminal_update", "terminalId": "b", "cwd": "rel"}),
        as_notification(terminal_update("c", command="three")),
        as_notification({"sessionUpdate": "terminal_output_chunk", "terminalId": "d", "data": "!"}),
    ]
    with pytest.raises(ProtocolError) as info:
        store.apply(batch)
    assert [e.pointer for e in info.value.errors] == ["/1/params/update/cwd", "/3/params/update/data"]
    assert list(store) == ["a", "c"]
    assert [t.terminal_id for t in info.value.changed] == ["a", "c"]
    tolerant = TerminalStore()  # the bad cwd is left out with a warning; the bad chunk data is required
    with pytest.raises(ProtocolError) as info:
        tolerant.apply(batch)
    assert [e.pointer for e in info.value.errors] == ["/3/params/update/data"]
    assert list(tolerant) == ["a", "b", "c"] and tolerant["b"].cwd is None
    assert [w.pointer for w in tolerant.warnings] == ["/1/params/update/cwd"]


def test_check_batch():
    """RFD: Agents MUST NOT put more than one terminal_update or terminal_output_chunk for the same terminalId
    in one batch when their application order affects the result."""
    batch = [
        terminal_output_chunk("t", b"a"),
        terminal_update("t", command="x"),  # commutes with chunks
        terminal_output_chunk("t", b"b"),  # order matters with entry 0
        terminal_update("u", cwd="/a"),
        as_notification(terminal_update("u", cwd="/b")),  # same field, another value
        terminal_update("u", command="c"),  # disjoint fields
        terminal_update("t", output=b"snap"),  # a snapshot against the chunks
    ]
    assert check_batch(batch) == [("t", (0, 2, 6)), ("u", (3, 4))]
    assert check_batch([terminal_update("t", cwd="/a"), terminal_update("t", cwd="/a")]) == []


def test_check_batch_answer_is_linear_in_the_batch():
    batch = [terminal_output_chunk("t", b"x")] * 6000  # 18 million conflicting pairs
    assert check_batch(batch) == [("t", tuple(range(6000)))]


def test_max_output_bytes_drops_from_the_head(impl, monkeypatch):
    from acp_transcript import terminals

    monkeypatch.setattr(terminals, "TranscriptDecoder", impl.TranscriptDecoder)
    store = TerminalStore(max_output_bytes=8)
    for line in [b"one\n", b"two\n", b"three\n"]:
        store.apply(terminal_output_chunk("t", line))
    terminal = store["t"]
    assert terminal.output == b"o\nthree\n"
    assert terminal.output_dropped == 6
    assert terminal.transcript == "one\ntwo\nthree\n"


def test_store_options():
    with pytest.raises(ValueError):
        TerminalStore(mode="bogus")
    with pytest.raises(ValueError):
        TerminalStore(max_output_bytes=-1)
    store = TerminalStore(mode="strip")
    store.apply(terminal_output_chunk("t", b"10%\r100%\r\n"))
    store.apply(terminal_update("t", exit_status={}))
    assert store["t"].transcript == "10%\n100%\n"  # strip mode: every frame


def test_command_permission_subject():
    subject = CommandPermissionSubject.from_json(RFD_SUBJECT)
    assert (subject.command, subject.cwd, subject.tool_call_id, subject.terminal_id, subject.meta) == (
        "cargo test", "/workspace/project", "call_001", "term_001", None)
    assert subject.to_json() == RFD_SUBJECT
    minimal = CommandPermissionSubject.from_json({"type": "command", "command": "ls", "cwd": "/", "toolCallId": None})
    assert minimal.tool_call_id is None and minimal.terminal_id is None


@pytest.mark.parametrize(
    ("subject", "pointer"),
    [
        ({"type": "terminal", "command": "ls", "cwd": "/"}, "/type"),
        ({"type": "command", "cwd": "/"}, "/command"),
        ({"type": "command", "command": "ls"}, "/cwd"),
        ({"type": "command", "command": "ls", "cwd": "work"}, "/cwd"),
        ({"type": "command", "command": "ls", "cwd": "/", "terminalId": 3}, "/terminalId"),
        ({"type": "command", "command": "ls", "cwd": "/", "_meta": "x"}, "/_meta"),
    ],
)
def test_command_permission_subject_invalid(subject, pointer):
    with pytest.raises(ProtocolError) as info:
        CommandPermissionSubject.from_json(subject)
    assert info.value.pointer == pointer


def test_builders_distinguish_unset_and_null():
    assert terminal_update("t") == {"sessionUpdate": "terminal_update", "terminalId": "t"}
    assert terminal_update("t", command=None, output=None, exit_status=None, meta=None, cwd=UNSET) == {
        "sessionUpdate": "terminal_update", "terminalId": "t", "command": None, "output": None,
        "exitStatus": None, "_meta": None}
    assert terminal_output_chunk("t", b"\xff\x00") == {
        "sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": "/wA="}
    with pytest.raises(ProtocolError):
        terminal_update("t", cwd="relative")
    with pytest.raises(TypeError):
        terminal_output_chunk("t", "text")


def test_sdk_models_are_accepted(store):
    schema = pytest.importorskip("acp.schema")
    model = schema.ToolCallStart(sessionUpdate="tool_call", toolCallId="c1", title="t",
                                 content=[schema.TerminalToolCallContent(type="terminal", terminalId="term_9")])
    assert [t.terminal_id for t in store.apply(model)] == ["term_9"]


def test_apply_rejects_non_objects(store):
    with pytest.raises(ProtocolError) as info:
        store.apply("terminal_update")
    assert info.value.pointer == ""


def test_invalid_batch_entry_types(store):
    with pytest.raises(ProtocolError) as info:
        store.apply([terminal_update("a"), 5])
    assert info.value.errors[0].pointer == "/1"
    assert list(store) == ["a"]


def test_store_keeps_its_own_copy_of_meta(store):
    update = terminal_update("t", meta={"k": 1})
    store.apply(update)
    store["t"].meta["k"] = 2
    assert update["_meta"] == {"k": 1}


def test_sdk_models_nested_in_plain_dicts(store):
    schema = pytest.importorskip("acp.schema")
    content = schema.TerminalToolCallContent(type="terminal", terminalId="nested")
    store.apply({"sessionUpdate": "tool_call", "toolCallId": "c", "title": "t", "content": [content]})
    assert store["nested"].tool_call_ids == ["c"]
