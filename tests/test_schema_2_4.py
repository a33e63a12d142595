"""SPEC 3.1 (rev 2): the v2 schema of @agentclientprotocol/sdk 2.4.0 on the Client side."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from acp_fixtures import as_notification
from acp_transcript import (
    ExitStatus,
    ProtocolError,
    TerminalCapabilities,
    TerminalSize,
    TerminalStore,
    terminal_output_chunk,
    terminal_update,
)
from acp_transcript.replay import Replay

AGENTS = Path(__file__).parent / "data" / "agents"


@pytest.fixture
def store(impl, monkeypatch):
    from acp_transcript import terminals

    monkeypatch.setattr(terminals, "TranscriptDecoder", impl.TranscriptDecoder)
    return TerminalStore()


def test_size_is_a_patch_field(store):
    store.apply(terminal_update("t", size=TerminalSize(120, 40)))
    assert store["t"].size == TerminalSize(120, 40)
    store.apply(terminal_update("t", command="x"))  # omitted: unchanged
    assert store["t"].size == TerminalSize(120, 40)
    store.apply(terminal_update("t", size={"cols": 80, "rows": 24, "_meta": {"k": 1}}))
    assert store["t"].size == TerminalSize(80, 24, {"k": 1})
    store.apply(terminal_update("t", size=None))  # null: cleared
    assert store["t"].size is None


# top redraws its third row in place by absolute address: only a sized model shows the last frame alone
TOP_LIKE = b"top 1\r\nTasks: 1\r\ncpu 10%\x1b[3;1Hcpu 20%\x1b[3;1H\x1b[Kcpu 30%"


def test_a_terminal_renders_at_its_size(store, impl):
    """SPEC 3.1 rev 2: a terminal with a known size renders as a terminal of that size (SPEC 2.8)."""
    store.apply(terminal_update("t", size=TerminalSize(10, 3), output=TOP_LIKE))
    assert store["t"].transcript == impl.sanitize(TOP_LIKE, columns=10, rows=3) == "top 1\nTasks: 1\ncpu 30%"
    store.apply(terminal_output_chunk("t", b"\r\nabcdefghijKL"))  # auto-wrap at 10 columns, joined
    assert store["t"].transcript.endswith("cpu 30%\nabcdefghijKL")
    assert store["t"].live.count("\n") <= 2  # the live window is the 3-row screen


def test_use_size_false_renders_unsized(impl, monkeypatch):
    from acp_transcript import terminals

    monkeypatch.setattr(terminals, "TranscriptDecoder", impl.TranscriptDecoder)
    store = TerminalStore(use_size=False)
    store.apply(terminal_update("t", size=TerminalSize(10, 3), output=TOP_LIKE))
    assert store["t"].transcript == impl.sanitize(TOP_LIKE) != impl.sanitize(TOP_LIKE, columns=10, rows=3)
    with pytest.raises(TypeError, match="use_size"):
        TerminalStore(use_size="yes")


def test_a_later_size_resizes_without_reflow(store, impl):
    store.apply(terminal_update("t", size=TerminalSize(4, 5), output=b"abcdef"))
    store.apply(terminal_update("t", size=TerminalSize(8, 5)))  # no reflow: the wrapped row stays wrapped
    store.apply(terminal_output_chunk("t", b"\r\n12345678X"))
    decoder = impl.TranscriptDecoder(columns=4, rows=5)
    expected = decoder.decode(b"abcdef") + decoder.resize(8, 5) + decoder.decode(b"\r\n12345678X", final=True)
    assert store["t"].transcript == expected == "abcdef\n12345678X"


def test_clearing_the_size_goes_back_to_the_store_default(impl, monkeypatch):
    from acp_transcript import terminals

    monkeypatch.setattr(terminals, "TranscriptDecoder", impl.TranscriptDecoder)
    store = TerminalStore()
    store.apply(terminal_update("t", size=TerminalSize(10, 3), output=b"\x1b[3;1Hbottom"))
    assert store["t"].committed == ""
    store.apply(terminal_update("t", size=None))  # back to unsized: the screen is committed first (SPEC 2.8)
    assert store["t"].committed == "\n\nbottom"
    store.apply(terminal_output_chunk("t", b"12345678901234"))  # the cursor stayed after "bottom"
    assert store["t"].live == "12345678901234"  # no wrap any more
    assert store["t"].transcript == "\n\nbottom12345678901234"

    store = TerminalStore(columns=6)  # the size of a terminal whose size is unknown
    store.apply(terminal_output_chunk("u", b"12345678"))
    assert store["u"].transcript == impl.sanitize(b"12345678", columns=6) == "12345678"
    assert store["u"].live == "12345678"  # one line: two rows soft-wrapped, joined


def test_tall_sizes_render_at_most_max_rows(impl, monkeypatch):
    """An agent-given 65,535-row size would make every line insert, delete or region scroll cost O(rows):
    the store renders it as max_rows rows (default 1000); the size itself is kept as given."""
    from acp_transcript import terminals

    monkeypatch.setattr(terminals, "TranscriptDecoder", impl.TranscriptDecoder)
    data = b"top\x1b[65535;1Hbottom"
    store = TerminalStore()
    store.apply(terminal_update("t", size=TerminalSize(20, 65535), output=data))
    assert store["t"].size == TerminalSize(20, 65535)
    assert store["t"].transcript == impl.sanitize(data, columns=20, rows=1000) == "top" + "\n" * 999 + "bottom"
    store = TerminalStore(max_rows=3)
    store.apply(terminal_update("t", size=TerminalSize(20, 50), output=data))
    assert store["t"].transcript == impl.sanitize(data, columns=20, rows=3) == "top\n\nbottom"
    for bad in (0, 65536, "5", None):
        with pytest.raises(ValueError, match="max_rows"):
            TerminalStore(max_rows=bad)


def test_wide_sizes_render_at_most_max_columns(impl, monkeypatch):
    """An edit of a row (ICH, DCH, REP, EL) costs O(columns): an agent-given 65,535-column size renders
    max_columns wide (default 1000). Wrapped rows are joined in the transcript, so text reads the same."""
    from acp_transcript import terminals

    monkeypatch.setattr(terminals, "TranscriptDecoder", impl.TranscriptDecoder)
    data = b"x" * 2500 + b"\r\x1b[5@ab"  # ICH on the last row of a wrapped line
    store = TerminalStore()
    store.apply(terminal_update("t", size=TerminalSize(65535, 5), output=data))
    assert store["t"].size == TerminalSize(65535, 5)
    assert store["t"].transcript == impl.sanitize(data, columns=1000, rows=5)
    assert store["t"].transcript.startswith("x" * 2000 + "ab   x")
    store = TerminalStore(max_columns=10)
    store.apply(terminal_update("t", size=TerminalSize(80, 3), output=b"0123456789abc\r\x1b[P"))
    assert store["t"].transcript == impl.sanitize(b"0123456789abc\r\x1b[P", columns=10, rows=3) == "0123456789bc"
    for bad in (0, 65536, "5", None):
        with pytest.raises(ValueError, match="max_columns"):
            TerminalStore(max_columns=bad)


def test_a_snapshot_after_a_size_renders_at_that_size(store, impl):
    store.apply(terminal_update("t", size=TerminalSize(10, 3)))
    store.apply(terminal_update("t", output=TOP_LIKE))  # a snapshot resets the decoder, not its size
    assert store["t"].transcript == "top 1\nTasks: 1\ncpu 30%"
    store.apply(terminal_update("t", output=b"\x1b[2;1Hsecond"))
    assert store["t"].transcript == "\nsecond"


def test_replay_no_size(tmp_path):
    from acp_transcript.cli import main

    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps(as_notification(terminal_update("t", size=TerminalSize(10, 3), output=TOP_LIKE))))
    sized, unsized = tmp_path / "sized", tmp_path / "unsized"
    assert main(["replay", str(log), "--output", str(sized)]) == 0
    assert main(["replay", str(log), "--no-size", "--output", str(unsized)]) == 0
    (sized_file,) = sized.iterdir()
    (unsized_file,) = unsized.iterdir()
    assert "cpu 30%" in sized_file.read_text() and "cpu 10%" not in sized_file.read_text()
    assert "cpu 10%" in unsized_file.read_text() or "cpu 20%" in unsized_file.read_text()


def test_capabilities_replace_the_whole_value_and_say_whether_cancel_is_allowed(store):
    assert store.apply(terminal_update("t")) and not store["t"].can_cancel  # a new terminal has none
    store.apply(terminal_update("t", capabilities={"cancel": {}, "_meta": {"a": 1}}))
    assert store["t"].can_cancel and store["t"].capabilities == TerminalCapabilities({}, {"a": 1})
    store.apply(terminal_update("t", capabilities={"_meta": {"b": 2}}))  # replaces: cancel is gone
    assert not store["t"].can_cancel and store["t"].capabilities == TerminalCapabilities(None, {"b": 2})
    store.apply(terminal_update("t", capabilities={"cancel": {"_meta": {"why": 1}}}))
    assert store["t"].can_cancel
    store.apply(terminal_update("t", capabilities=None))
    assert not store["t"].can_cancel and store["t"].capabilities is None


def test_malformed_capabilities_fall_back_to_no_controls(store):
    store.apply(terminal_update("t", capabilities={"cancel": {}}))
    store.apply({"sessionUpdate": "terminal_update", "terminalId": "t", "capabilities": {"cancel": "yes"}})
    # the schema: "A malformed value falls back to no controls"; here the inner field is left out, so the
    # object that replaces the old value advertises nothing
    assert not store["t"].can_cancel
    assert [w.pointer for w in store.warnings] == ["/capabilities/cancel"]


def test_meta_patches_by_top_level_key(store):
    store.apply(terminal_update("t", meta={"a": 1, "b": {"x": 1}, "c": 3}))
    store.apply(terminal_update("t", meta={"a": None, "b": {"y": 2}, "d": 4}))
    assert store["t"].meta == {"b": {"y": 2}, "c": 3, "d": 4}  # removed, replaced without nested merge
    store.apply(terminal_update("t", command="x"))
    assert store["t"].meta == {"b": {"y": 2}, "c": 3, "d": 4}
    store.apply(terminal_output_chunk("t", b"x", meta={"c": "chunk"}))  # a chunk's _meta never patches
    assert store["t"].meta["c"] == 3
    store.apply(terminal_update("t", meta=None))
    assert store["t"].meta is None


@pytest.mark.parametrize("code", [-1, -1073741819, -(2**63), 2**63 - 1, 4294967296])
def test_exit_code_is_int64(store, code):
    store.apply(terminal_update("t", exit_status=ExitStatus(exit_code=code)))
    assert store["t"].exit_status.exit_code == code and store["t"].failed


def test_cancel_request_only_for_a_running_terminal_that_advertises_it(store):
    store.apply(terminal_update("t", command="sleep 100"))
    with pytest.raises(ValueError, match="does not advertise"):
        store.cancel_request("s1", "t", 1)
    store.apply(terminal_update("t", capabilities=TerminalCapabilities(cancel={})))
    assert store.cancel_request("s1", "t", 1) == {
        "jsonrpc": "2.0", "id": 1, "method": "terminal/cancel", "params": {"sessionId": "s1", "terminalId": "t"}}
    store.apply(terminal_update("t", exit_status=ExitStatus(signal="SIGTERM")))
    with pytest.raises(ValueError, match="has exited"):
        store.cancel_request("s1", "t", 2)
    with pytest.raises(KeyError):
        store.cancel_request("s1", "unknown", 3)


def test_state_update_background_lists_terminals(store):
    store.apply(terminal_update("a"))
    state = {"sessionUpdate": "state_update", "state": "idle", "stopReason": "end_turn",
             "background": [{"type": "terminal", "terminalId": "a"}, {"type": "terminal", "terminalId": "b"},
                            {"type": "tool_call", "toolCallId": "a"}]}
    assert {t.terminal_id for t in store.apply(as_notification(state))} == {"a", "b"}
    assert store["a"].background and store["b"].background
    assert store.apply({"sessionUpdate": "state_update", "state": "running"}) == []  # no list: unchanged
    assert {t.terminal_id for t in store.apply({"sessionUpdate": "state_update", "state": "running",
                                                 "background": []})} == {"a", "b"}
    assert not store["a"].background and not store["b"].background


def test_other_new_update_kinds_are_ignored(store):
    for kind in ("notice", "compaction_update", "compaction_summary_chunk", "_vendor_thing"):
        assert store.apply({"sessionUpdate": kind}) == []


def test_tool_call_content_chunk_links_a_terminal(store):
    store.apply({"sessionUpdate": "tool_call_content_chunk", "toolCallId": "c",
                 "content": {"type": "terminal", "terminalId": "t"}})
    assert store["t"].tool_call_ids == ["c"]


def test_incremental_reads(store):
    store = TerminalStore(live_lines=1)
    store.apply(terminal_output_chunk("t", b"one\ntwo\nthr"))
    terminal = store["t"]
    assert (terminal.pop_committed(), terminal.live) == ("one\ntwo\n", "thr")
    assert terminal.pop_committed() == ""
    store.apply(terminal_output_chunk("t", b"ee\nfour"))
    assert terminal.pop_committed() == "three\n"
    assert terminal.transcript == "one\ntwo\nthree\nfour"
    store.apply(terminal_update("t", output=b"snap\nshot"))  # a snapshot starts over
    assert terminal.pop_committed() == "snap\n" and terminal.transcript == "snap\nshot"


def test_display_gives_a_safe_line_of_every_agent_controlled_field(store):
    store.apply(terminal_update("t\x1b[2J", command="ls\x1b]52;c;ZXZpbA==\x07\ncat", cwd="/w\u202e",
                                exit_status=ExitStatus(signal="SIG\x9bKILL")))
    terminal = store["t\x1b[2J"]
    assert terminal.display("terminal_id") == "t<U+001B>[2J"
    assert terminal.display("command") == "ls<U+001B>]52;c;ZXZpbA==<U+0007><U+000A>cat"
    assert terminal.display("cwd") == "/w<U+202E>"
    assert terminal.display("signal") == "SIG<U+009B>KILL"
    with pytest.raises(ValueError):
        terminal.display("output")


def test_session_update_shapes_are_one_consistent_rule(store):
    with pytest.raises(ProtocolError) as info:
        store.apply({"sessionUpdate": 7, "terminalId": "t"})
    assert info.value.pointer == "/sessionUpdate"
    with pytest.raises(ProtocolError) as info:
        store.apply({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s"}})
    assert info.value.pointer == "/params/update"
    with pytest.raises(ProtocolError) as info:
        store.apply({"sessionId": "s", "update": {"sessionUpdate": None}})
    assert info.value.pointer == "/update/sessionUpdate"
    with pytest.raises(ProtocolError) as info:
        store.apply(5)
    assert info.value.pointer == "" and str(info.value).startswith("(root): ")


def test_max_terminals_bounds_a_store(store):
    store = TerminalStore(max_terminals=2)
    store.apply(terminal_update("a"))
    store.apply(terminal_update("b"))
    with pytest.raises(ProtocolError, match="max_terminals"):
        store.apply(terminal_update("c"))
    assert list(store) == ["a", "b"]
    store.apply(terminal_output_chunk("a", b"x"))  # known terminals still update


# ---------------------------------------------------------------- today's recordings, per agent


def agent_fixture(name: str) -> dict:
    return json.loads((AGENTS / f"{name}.json").read_text(encoding="utf-8"))


def replay(messages: list, **options) -> Replay:
    result = Replay(**options)
    for message in messages:
        assert result.apply(message) == []
    return result


EXPECTED = {
    "claude-agent-acp": ("toolu_01", "> demo@1.0.0 test\n✔ adds\nprogress 100%\n1 passing\n"),
    "codex-acp": ("call_9", "   Compiling demo v0.1.0\nrunning 2 tests\ntest a ... ok\ntest b ... FAILED\n"),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_legacy_meta_follows_the_agent_named_in_initialize(impl, monkeypatch, name):
    """Fixtures rendered by each agent's own v2 bridge (tests/data/agents/render_fixtures.mjs): the
    pre-v2 recording, read as that agent means it, gives the transcript of the agent's own v2 rendering."""
    from acp_transcript import terminals

    monkeypatch.setattr(terminals, "TranscriptDecoder", impl.TranscriptDecoder)
    fixture = agent_fixture(name)
    terminal_id, expected = EXPECTED[name]
    initialize = {"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": 1, "agentInfo": {"name": fixture["agent"]}}}
    legacy = replay([initialize, *[as_notification(u) for u in fixture["v1"]]])
    v2 = replay([as_notification(u) for u in fixture["v2"]], legacy_meta=False)
    (_, old), = legacy.terminals()
    (_, new), = v2.terminals()
    assert old.transcript == new.transcript == expected
    assert (old.exit_status, old.terminal_id) == (new.exit_status, terminal_id)
    assert old.legacy and not new.legacy


def test_unknown_agent_uses_the_legacy_output_option(store):
    fixture = agent_fixture("claude-agent-acp")
    appended = replay([as_notification(u) for u in fixture["v1"]])  # default "append": the snapshots repeat
    replaced = replay([as_notification(u) for u in fixture["v1"]], legacy_output="replace")
    (_, a), = appended.terminals()
    (_, r), = replaced.terminals()
    assert a.transcript.count("> demo@1.0.0 test") == 2
    assert r.transcript == EXPECTED["claude-agent-acp"][1]
    with pytest.raises(ValueError):
        TerminalStore(legacy_output="merge")


def test_max_transcript_chars_drops_whole_lines_from_the_head_and_says_so(store):
    store = TerminalStore(max_transcript_chars=25, live_lines=1)
    for n in range(10):
        store.apply(terminal_output_chunk("t", b"line %d\n" % n))
    terminal = store["t"]
    assert terminal.committed == "line 7\nline 8\nline 9\n"
    assert terminal.transcript == "[49 earlier characters not kept]\nline 7\nline 8\nline 9\n"
    assert terminal.transcript_dropped == 7 * 7 and terminal.committed_lines == 3


def test_default_bound_on_terminals():
    from acp_transcript.terminals import DEFAULT_MAX_TERMINALS

    assert TerminalStore().max_terminals == DEFAULT_MAX_TERMINALS
    assert TerminalStore(max_terminals=None).max_terminals is None
