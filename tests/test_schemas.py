"""The shipped JSON Schemas agree with the store: every valid fixture validates, every invalid one is
rejected by both."""

from __future__ import annotations

import pytest

from acp_fixtures import INVALID_UPDATES, RFD_CONTENT, RFD_SUBJECT, VALID_UPDATES
import json
from functools import cache
from pathlib import Path

from acp_transcript import (
    CommandPermissionSubject,
    ExitStatus,
    ProtocolError,
    TerminalCapabilities,
    TerminalSize,
    TerminalStore,
    cancel_terminal_request,
    terminal_output_chunk,
    terminal_update,
)
from acp_transcript.schemas import DEFINITIONS, definition, terminal_schema

jsonschema = pytest.importorskip("jsonschema")


def validator(name: str):
    schema = definition(name)
    jsonschema.Draft202012Validator.check_schema(terminal_schema())
    return jsonschema.Draft202012Validator(schema)


def schema_for(update: dict) -> str:
    return "TerminalUpdate" if update.get("sessionUpdate") == "terminal_update" else "TerminalOutputChunk"


def test_every_definition_is_shipped():
    assert set(DEFINITIONS) <= set(terminal_schema()["$defs"])


@pytest.mark.parametrize("update", VALID_UPDATES)
def test_valid_fixtures_validate(update):
    validator(schema_for(update)).validate(update)
    TerminalStore().apply(update)


@pytest.mark.parametrize(("update", "pointer"), INVALID_UPDATES)
def test_invalid_fixtures_are_rejected_by_schema_and_store(update, pointer):
    assert not validator(schema_for(update)).is_valid(update)
    with pytest.raises(ProtocolError):
        TerminalStore(strict=True).apply(update)


# The upstream v2 schema, copied from the npm package @agentclientprotocol/sdk 2.4.0 (schema/v2/schema.json,
# Apache-2.0: tests/data/acp-v2-schema-2.4.0.LICENSE). What the builders make and what the store accepts as
# valid must be valid there too.
UPSTREAM = Path(__file__).parent / "data" / "acp-v2-schema-2.4.0.json"


@cache
def upstream(name: str):
    document = json.loads(UPSTREAM.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator({"$defs": document["$defs"], "$ref": f"#/$defs/{name}"})


BUILT = [
    terminal_update("t", command="make", cwd="/w", output=b"x", exit_status=ExitStatus(-1, "SIGKILL"),
                    size=TerminalSize(80, 24), capabilities=TerminalCapabilities(cancel={}), meta={"k": None}),
    terminal_update("t", size=None, capabilities=None, exit_status=None, output=None, meta=None),
    terminal_output_chunk("t", b"\x1b[31mred", meta={"seq": 1}),
]


@pytest.mark.parametrize("update", VALID_UPDATES + BUILT)
def test_valid_fixtures_and_builders_validate_upstream(update):
    upstream("SessionUpdate").validate(update)


def test_cancel_request_validates_upstream():
    request = cancel_terminal_request("s1", "t1", 3, meta={"why": "user"})
    upstream("CancelTerminalRequest").validate(request["params"])
    validator("CancelTerminalRequest").validate(request)


def test_content_and_subject():
    validator("TerminalToolCallContent").validate(RFD_CONTENT)
    validator("CommandPermissionSubject").validate(RFD_SUBJECT)
    bad = {**RFD_SUBJECT, "cwd": "relative"}
    assert not validator("CommandPermissionSubject").is_valid(bad)
    with pytest.raises(ProtocolError):
        CommandPermissionSubject.from_json(bad)
