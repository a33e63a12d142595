"""Validation of ACP v2 terminal objects into plain, already-decoded patches.

Everything here only reads its input and raises ``ProtocolError`` with the JSON pointer of the offending
field; nothing is applied. The store applies a patch only after the whole update validated, so a rejected
update leaves no trace. Error messages name fields and types, never values: terminal output can be private.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ._base64 import decode_base64_strict
from .errors import Base64Error, ProtocolError

__all__ = [
    "OMITTED",
    "ExitStatus",
    "TerminalPatch",
    "ChunkPatch",
    "as_json",
    "check_absolute_path",
    "parse_chunk",
    "parse_terminal_update",
    "parse_exit_status",
]

UINT32_MAX = 4294967295

# POSIX /..., Windows drive C:\... or C:/..., UNC \\server\share[\...] (RFD: every supplied cwd MUST be absolute).
_ABSOLUTE = re.compile(r"/|[A-Za-z]:[\\/]|\\\\[^\\/]+\\[^\\/]+(?:\\|\Z)")


class _Omitted:
    """A field that was not in the object: "unchanged", as opposed to ``None`` (JSON null, "cleared")."""

    _instance: _Omitted | None = None

    def __new__(cls) -> _Omitted:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "OMITTED"


OMITTED: Any = _Omitted()


@dataclass(frozen=True)
class ExitStatus:
    """A terminal's exit status (RFD: exitCode, signal and _meta are each optional and nullable)."""

    exit_code: int | None = None
    signal: str | None = None
    meta: dict[str, Any] | None = None

    @property
    def failed(self) -> bool:
        """A non-zero exit code, or a signal."""
        return (self.exit_code is not None and self.exit_code != 0) or self.signal is not None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.exit_code is not None:
            out["exitCode"] = self.exit_code
        if self.signal is not None:
            out["signal"] = self.signal
        if self.meta is not None:
            out["_meta"] = self.meta
        return out


@dataclass(frozen=True)
class TerminalPatch:
    """A validated ``terminal_update``: each field is OMITTED (unchanged), None (cleared) or a value."""

    terminal_id: str
    command: Any = OMITTED
    cwd: Any = OMITTED
    output: Any = OMITTED  # bytes, None (empty output) or OMITTED
    output_meta: dict[str, Any] | None = None
    exit_status: Any = OMITTED  # ExitStatus, None or OMITTED
    meta: Any = OMITTED


@dataclass(frozen=True)
class ChunkPatch:
    """A validated ``terminal_output_chunk`` with its bytes decoded."""

    terminal_id: str
    data: bytes
    meta: dict[str, Any] | None = None


def as_json(obj: Any) -> Any:
    """Objects with a pydantic ``model_dump`` (the official SDK's models) as JSON-like data. ``exclude_unset``
    keeps "omitted" and "null" apart, which the patch semantics depend on."""
    dump = getattr(obj, "model_dump", None)
    if dump is not None and not isinstance(obj, type):
        return dump(by_alias=True, exclude_unset=True, mode="json")
    return obj


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


def expect_object(value: Any, pointer: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ProtocolError(f"expected an object, got {_type_name(value)}", pointer)
    return value


def _string(obj: Mapping[str, Any], key: str, pointer: str, *, required: bool = False, nullable: bool = True) -> Any:
    if key not in obj:
        if required:
            raise ProtocolError("required field is missing", f"{pointer}/{key}")
        return OMITTED
    value = obj[key]
    if value is None and nullable and not required:
        return None
    if not isinstance(value, str):
        raise ProtocolError(f"expected a string, got {_type_name(value)}", f"{pointer}/{key}")
    return value


def _meta(obj: Mapping[str, Any], pointer: str) -> Any:
    if "_meta" not in obj:
        return OMITTED
    value = obj["_meta"]
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise ProtocolError(f"expected an object or null, got {_type_name(value)}", f"{pointer}/_meta")
    return dict(value)


def check_absolute_path(value: str, pointer: str) -> str:
    if not _ABSOLUTE.match(value):
        raise ProtocolError("path must be absolute (/..., C:\\..., or \\\\server\\share\\...)", pointer)
    return value


def _base64(value: Any, pointer: str) -> bytes:
    if not isinstance(value, str):
        raise ProtocolError(f"expected a base64 string, got {_type_name(value)}", pointer)
    try:
        return decode_base64_strict(value)
    except Base64Error as exc:
        raise ProtocolError(f"invalid base64 at offset {exc.offset}: {exc.reason}", pointer) from None


def _terminal_id(obj: Mapping[str, Any], pointer: str) -> str:
    terminal_id: str = _string(obj, "terminalId", pointer, required=True, nullable=False)
    if not terminal_id:
        raise ProtocolError("must not be empty", f"{pointer}/terminalId")
    return terminal_id


def parse_exit_status(value: Any, pointer: str) -> ExitStatus:
    obj = expect_object(value, pointer)
    code = obj.get("exitCode")
    if code is not None and (not isinstance(code, int) or isinstance(code, bool) or not 0 <= code <= UINT32_MAX):
        what = _type_name(code) if not isinstance(code, int) or isinstance(code, bool) else "an out-of-range integer"
        raise ProtocolError(f"expected an integer from 0 to {UINT32_MAX} or null, got {what}", f"{pointer}/exitCode")
    signal = _string(obj, "signal", pointer)
    meta = _meta(obj, pointer)
    return ExitStatus(code, None if signal is OMITTED else signal, None if meta is OMITTED else meta)


def parse_terminal_update(update: Mapping[str, Any], pointer: str = "") -> TerminalPatch:
    """Validate a whole ``terminal_update`` (RFD: Terminal state upserts)."""
    terminal_id = _terminal_id(update, pointer)
    command = _string(update, "command", pointer)
    cwd = _string(update, "cwd", pointer)
    if isinstance(cwd, str):
        check_absolute_path(cwd, f"{pointer}/cwd")
    output: Any = OMITTED
    output_meta = None
    if "output" in update:
        raw = update["output"]
        if raw is None:
            output = None
        else:
            snapshot = expect_object(raw, f"{pointer}/output")
            if "data" not in snapshot:
                raise ProtocolError("required field is missing", f"{pointer}/output/data")
            output = _base64(snapshot["data"], f"{pointer}/output/data")
            output_meta = _meta(snapshot, f"{pointer}/output") or None
    exit_status: Any = OMITTED
    if "exitStatus" in update:
        raw = update["exitStatus"]
        exit_status = None if raw is None else parse_exit_status(raw, f"{pointer}/exitStatus")
    meta = _meta(update, pointer)
    return TerminalPatch(terminal_id, command, cwd, output, output_meta, exit_status, meta)


def parse_chunk(update: Mapping[str, Any], pointer: str = "") -> ChunkPatch:
    """Validate a ``terminal_output_chunk`` and decode its one independently encoded chunk."""
    terminal_id = _terminal_id(update, pointer)
    if "data" not in update:
        raise ProtocolError("required field is missing", f"{pointer}/data")
    data = _base64(update["data"], f"{pointer}/data")
    return ChunkPatch(terminal_id, data, _meta(update, pointer) or None)


def terminal_references(update: Mapping[str, Any], pointer: str) -> list[str]:
    """The terminal IDs that a ``tool_call``/``tool_call_update``'s content references, validated."""
    if "content" not in update or update["content"] is None:
        return []
    content = update["content"]
    if not isinstance(content, (list, tuple)):
        raise ProtocolError(f"expected an array, got {_type_name(content)}", f"{pointer}/content")
    ids = []
    for index, item in enumerate(content):
        item = as_json(item)  # an SDK model inside a plain dict
        if isinstance(item, Mapping) and item.get("type") == "terminal":
            ids.append(_terminal_id(item, f"{pointer}/content/{index}"))
    return ids
