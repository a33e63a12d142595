"""The shipped JSON Schemas agree with the store: every valid fixture validates, every invalid one is
rejected by both."""

from __future__ import annotations

import pytest

from acp_fixtures import INVALID_UPDATES, RFD_CONTENT, RFD_SUBJECT, VALID_UPDATES
from acp_transcript import CommandPermissionSubject, ProtocolError, TerminalStore
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
        TerminalStore().apply(update)


def test_content_and_subject():
    validator("TerminalToolCallContent").validate(RFD_CONTENT)
    validator("CommandPermissionSubject").validate(RFD_SUBJECT)
    bad = {**RFD_SUBJECT, "cwd": "relative"}
    assert not validator("CommandPermissionSubject").is_valid(bad)
    with pytest.raises(ProtocolError):
        CommandPermissionSubject.from_json(bad)
