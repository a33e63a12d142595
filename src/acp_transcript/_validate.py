"""Validation of ACP v2 terminal objects into plain, already-decoded patches.

Everything here only reads its input and raises ``ProtocolError`` with the JSON pointer of the offending
field; nothing is applied. The store applies a patch only after the whole update validated, so a rejected
update leaves no trace. Error messages name fields and types, never values: terminal output can be private.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

from ._base64 import decode_base64_strict
from .errors import Base64Error, ProtocolError, where

__all__ = [
    "OMITTED",
    "ExitStatus",
    "TerminalPatch",
    "ChunkPatch",
    "ProtocolWarning",
    "TerminalCapabilities",
    "TerminalSize",
    "as_json",
    "check_absolute_path",
    "check_text",
    "parse_chunk",
    "parse_terminal_update",
    "parse_exit_status",
]

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1  # schema 2.4.0: exitCode is int64 (signed codes, -1)
SIZE_MAX = 65535  # schema 2.4.0: TerminalSize cols/rows are uint16, at least 1

# SPEC 3.1 rev 2: every string the store keeps is valid Unicode (no lone surrogate) and free of NUL, so that
# it can be encoded, written to a file and shown without surprises.
_INVALID_TEXT = re.compile("[\x00\ud800-\udfff]")

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
class TerminalSize:
    """Schema 2.4.0 ``TerminalSize``: the size the command runs with, in character cells."""

    cols: int
    rows: int
    meta: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"cols": self.cols, "rows": self.rows}
        if self.meta is not None:
            out["_meta"] = self.meta
        return out


@dataclass(frozen=True)
class TerminalCapabilities:
    """Schema 2.4.0 ``TerminalCapabilities``: Client-initiated controls the terminal supports now. ``cancel``
    is an object (even ``{}``) when ``terminal/cancel`` is allowed, else None."""

    cancel: dict[str, Any] | None = None
    meta: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.cancel is not None:
            out["cancel"] = self.cancel
        if self.meta is not None:
            out["_meta"] = self.meta
        return out


@dataclass(frozen=True)
class ProtocolWarning:
    """A malformed optional field that fell back to *omitted* (schema: ``x-deserialize-default-on-error``),
    as the reference SDK's validators do. ``pointer`` names the field; the message never echoes its value."""

    message: str
    pointer: str

    def __str__(self) -> str:
        return f"{where(self.pointer)}: {self.message} (ignored)"


class _Reader:
    """Reads optional fields. Strict: a malformed one raises ProtocolError (revision 1, atomic rejection).
    Tolerant (the default, schema 2.4.0): it falls back to OMITTED and a ProtocolWarning is recorded."""

    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.warnings: list[ProtocolWarning] = []

    def optional(self, parse: Callable[[], Any]) -> Any:
        try:
            return parse()
        except ProtocolError as exc:
            if self.strict:
                raise
            self.warnings.append(ProtocolWarning(exc.message, exc.pointer))
            return OMITTED


@dataclass(frozen=True)
class TerminalPatch:
    """A validated ``terminal_update``: each field is OMITTED (unchanged), None (cleared) or a value."""

    terminal_id: str
    command: Any = OMITTED
    cwd: Any = OMITTED
    output: Any = OMITTED  # bytes, None (empty output) or OMITTED
    output_meta: dict[str, Any] | None = None
    exit_status: Any = OMITTED  # ExitStatus, None or OMITTED
    meta: Any = OMITTED  # a patch by top-level key (None: clear)
    size: Any = OMITTED  # TerminalSize, None or OMITTED
    capabilities: Any = OMITTED  # TerminalCapabilities, None or OMITTED
    warnings: tuple[ProtocolWarning, ...] = ()


@dataclass(frozen=True)
class ChunkPatch:
    """A validated ``terminal_output_chunk`` with its bytes decoded."""

    terminal_id: str
    data: bytes
    meta: dict[str, Any] | None = None
    warnings: tuple[ProtocolWarning, ...] = ()


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
    return check_text(value, f"{pointer}/{key}")


def check_text(value: str, pointer: str) -> str:
    """A string the store keeps: no NUL, no lone surrogate (SPEC 3.1 rev 2)."""
    found = _INVALID_TEXT.search(value)
    if found is not None:
        what = "NUL" if found.group() == "\x00" else "a lone surrogate"
        raise ProtocolError(f"string contains {what} at index {found.start()}", pointer)
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


def _scoped_meta(reader: _Reader, obj: Mapping[str, Any], pointer: str) -> dict[str, Any] | None:
    """``_meta`` scoped to one object: omitted and null are the same (None)."""
    meta = reader.optional(lambda: _meta(obj, pointer))
    return meta or None


def is_int(value: object) -> TypeGuard[int]:
    """An int that is not a bool: JSON true is not 1, and ``True`` as a limit is a bug in the caller."""
    return isinstance(value, int) and not isinstance(value, bool)


def _integer(value: Any, low: int, high: int, pointer: str) -> int:
    if not is_int(value):
        raise ProtocolError(f"expected an integer from {low} to {high}, got {_type_name(value)}", pointer)
    if not low <= value <= high:
        raise ProtocolError(f"expected an integer from {low} to {high}, got an out-of-range integer", pointer)
    return value


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


def parse_exit_status(value: Any, pointer: str, reader: _Reader | None = None) -> ExitStatus:
    """``TerminalExitStatus``: exitCode (int64), signal and _meta, each optional and nullable."""
    reader = reader or _Reader(strict=True)
    obj = expect_object(value, pointer)

    def code() -> int | None:
        raw = obj.get("exitCode")
        return None if raw is None else _integer(raw, INT64_MIN, INT64_MAX, f"{pointer}/exitCode")

    exit_code = reader.optional(code)
    signal = reader.optional(lambda: _string(obj, "signal", pointer))
    return ExitStatus(
        exit_code if isinstance(exit_code, int) else None,
        signal if isinstance(signal, str) else None,
        _scoped_meta(reader, obj, pointer),
    )


def _nullable(update: Mapping[str, Any], key: str, parse: Callable[[Any, str], Any], pointer: str) -> Any:
    """A patch field: OMITTED when absent, None when null, else ``parse(value, pointer)``."""
    if key not in update:
        return OMITTED
    value = update[key]
    return None if value is None else parse(value, f"{pointer}/{key}")


def _cwd(value: Any, pointer: str) -> str:
    if not isinstance(value, str):
        raise ProtocolError(f"expected a string, got {_type_name(value)}", pointer)
    return check_absolute_path(check_text(value, pointer), pointer)


def _snapshot(reader: _Reader) -> Callable[[Any, str], tuple[bytes, dict[str, Any] | None]]:
    def parse(value: Any, pointer: str) -> tuple[bytes, dict[str, Any] | None]:
        snapshot = expect_object(value, pointer)
        if "data" not in snapshot:
            raise ProtocolError("required field is missing", f"{pointer}/data")
        return _base64(snapshot["data"], f"{pointer}/data"), _scoped_meta(reader, snapshot, pointer)

    return parse


def _size(reader: _Reader) -> Callable[[Any, str], TerminalSize]:
    def parse(value: Any, pointer: str) -> TerminalSize:
        obj = expect_object(value, pointer)
        for key in ("cols", "rows"):
            if key not in obj:
                raise ProtocolError("required field is missing", f"{pointer}/{key}")
        cols = _integer(obj["cols"], 1, SIZE_MAX, f"{pointer}/cols")
        rows = _integer(obj["rows"], 1, SIZE_MAX, f"{pointer}/rows")
        return TerminalSize(cols, rows, _scoped_meta(reader, obj, pointer))

    return parse


def _capabilities(reader: _Reader) -> Callable[[Any, str], TerminalCapabilities]:
    def parse(value: Any, pointer: str) -> TerminalCapabilities:
        obj = expect_object(value, pointer)

        def cancel() -> dict[str, Any] | None:
            raw = obj.get("cancel")
            if raw is None:
                return None
            cancel_obj = expect_object(raw, f"{pointer}/cancel")
            meta = _scoped_meta(reader, cancel_obj, f"{pointer}/cancel")
            return {} if meta is None else {"_meta": meta}

        found = reader.optional(cancel)
        return TerminalCapabilities(found if isinstance(found, dict) else None, _scoped_meta(reader, obj, pointer))

    return parse


def parse_terminal_update(update: Mapping[str, Any], pointer: str = "", *, strict: bool = True) -> TerminalPatch:
    """Validate a whole ``terminal_update`` (RFD: Terminal state upserts; schema 2.4.0).

    ``strict=False`` is the schema's default-on-error rule: a malformed optional field is left out (and
    reported in ``TerminalPatch.warnings``) and the rest applies. ``terminalId`` is required either way.
    """
    reader = _Reader(strict)
    terminal_id = _terminal_id(update, pointer)
    command = reader.optional(lambda: _string(update, "command", pointer))
    cwd = reader.optional(lambda: _nullable(update, "cwd", _cwd, pointer))
    snapshot = reader.optional(lambda: _nullable(update, "output", _snapshot(reader), pointer))
    output, output_meta = (snapshot, None) if snapshot is OMITTED or snapshot is None else snapshot
    exit_status = reader.optional(
        lambda: _nullable(update, "exitStatus", lambda value, at: parse_exit_status(value, at, reader), pointer)
    )
    size = reader.optional(lambda: _nullable(update, "size", _size(reader), pointer))
    capabilities = reader.optional(lambda: _nullable(update, "capabilities", _capabilities(reader), pointer))
    meta = reader.optional(lambda: _meta(update, pointer))
    return TerminalPatch(
        terminal_id, command, cwd, output, output_meta, exit_status, meta, size, capabilities, tuple(reader.warnings)
    )


def parse_chunk(update: Mapping[str, Any], pointer: str = "", *, strict: bool = True) -> ChunkPatch:
    """Validate a ``terminal_output_chunk`` and decode its one independently encoded chunk. ``terminalId``
    and ``data`` are required; its ``_meta`` is scoped to the chunk and never patches the terminal's."""
    reader = _Reader(strict)
    terminal_id = _terminal_id(update, pointer)
    if "data" not in update:
        raise ProtocolError("required field is missing", f"{pointer}/data")
    data = _base64(update["data"], f"{pointer}/data")
    return ChunkPatch(terminal_id, data, _scoped_meta(reader, update, pointer), tuple(reader.warnings))


def terminal_references(update: Mapping[str, Any], pointer: str) -> list[str]:
    """The terminal IDs that a ``tool_call``/``tool_call_update``'s content references, validated."""
    if "content" not in update or update["content"] is None:
        return []
    content = as_json(update["content"])
    if isinstance(content, Mapping):  # tool_call_content_chunk: one content item
        content = [content]
    if not isinstance(content, (list, tuple)):
        raise ProtocolError(f"expected an array, got {_type_name(content)}", f"{pointer}/content")
    ids = []
    for index, item in enumerate(content):
        item = as_json(item)  # an SDK model inside a plain dict
        if isinstance(item, Mapping) and item.get("type") == "terminal":
            ids.append(_terminal_id(item, f"{pointer}/content/{index}"))
    return ids
