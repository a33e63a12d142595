"""Hypothesis properties of the terminal store."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from acp_transcript import ProtocolError, TerminalStore, terminal_output_chunk, terminal_update
from strategies import terminal_bytes

CONTENT = {"sessionUpdate": "tool_call", "toolCallId": "c1", "title": "run",
           "content": [{"type": "terminal", "terminalId": "t"}]}


def state(store: TerminalStore) -> list[tuple]:
    return [(t.terminal_id, t.command, t.cwd, t.exit_status, t.meta, t.output, t.transcript, tuple(t.tool_call_ids))
            for t in (store[i] for i in store)]


@given(st.lists(terminal_bytes, min_size=1, max_size=5), st.integers(0, 10))
def test_reference_may_come_anywhere(chunks, position):
    """Any interleaving of the tool-call reference and the terminal's updates gives the same final state."""
    updates = [terminal_update("t", command="make", cwd="/src")] + [terminal_output_chunk("t", c) for c in chunks]
    position = min(position, len(updates))
    reordered = updates[:position] + [CONTENT] + updates[position:]
    first, second = TerminalStore(), TerminalStore()
    for update in [CONTENT, *updates]:
        first.apply(update)
    for update in reordered:
        second.apply(update)
    assert state(first) == state(second)


@given(st.lists(terminal_bytes, min_size=1, max_size=6), st.sampled_from(["render", "strip"]))
def test_snapshot_equals_its_chunks(chunks, mode):
    """A snapshot equal to the concatenated chunks gives the same transcript as the chunks."""
    by_chunks, by_snapshot = TerminalStore(mode=mode), TerminalStore(mode=mode)
    for chunk in chunks:
        by_chunks.apply(terminal_output_chunk("t", chunk))
    by_snapshot.apply(terminal_update("t", output=b"".join(chunks)))
    assert by_chunks["t"].transcript == by_snapshot["t"].transcript
    assert by_chunks["t"].output == by_snapshot["t"].output


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 2**33) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
FIELDS = st.sampled_from(["terminalId", "command", "cwd", "output", "exitStatus", "_meta", "data"])


@given(st.sampled_from(["terminal_update", "terminal_output_chunk"]), st.dictionaries(FIELDS, JSON, max_size=4))
def test_invalid_updates_never_change_the_store(kind, fields):
    store = TerminalStore()
    store.apply(terminal_update("t", command="keep", output=b"kept\r\n", meta={"a": 1}))
    before = state(store)
    update = {"sessionUpdate": kind, **fields}
    try:
        store.apply(update)
    except ProtocolError as exc:
        assert state(store) == before
        assert exc.pointer.startswith("/")
