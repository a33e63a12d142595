"""The JSON Schemas (2020-12) of the ACP v2 display-terminal surface (schema 2.4.0), shipped with the package."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

__all__ = ["DEFINITIONS", "terminal_schema", "definition"]

DEFINITIONS = (
    "TerminalToolCallContent",
    "TerminalOutput",
    "TerminalExitStatus",
    "TerminalSize",
    "TerminalCapabilities",
    "TerminalUpdate",
    "TerminalOutputChunk",
    "CommandPermissionSubject",
    "CancelTerminalRequest",
)


@cache
def terminal_schema() -> dict[str, Any]:
    """The whole schema document, with every definition under ``$defs``."""
    document: dict[str, Any] = json.loads(files(__package__).joinpath("terminal-v2.json").read_text(encoding="utf-8"))
    return document


def definition(name: str) -> dict[str, Any]:
    """A schema for one definition (a ``$ref`` into the document), usable with any 2020-12 validator."""
    if name not in DEFINITIONS:
        raise KeyError(name)
    document = terminal_schema()
    return {"$schema": document["$schema"], "$defs": document["$defs"], "$ref": f"#/$defs/{name}"}
