"""Decoder option validation, shared by both implementations.

The option values, their defaults and the counters' names are in ``_defs``. Validation lives here once so
that the Cython core and the Python fallback accept and reject exactly the same options with the same
messages.
"""

from __future__ import annotations

from ._defs import ALT_SCREEN, DEFAULTS, MAX_OPTION, MAX_SIZE, MODES, STAT_KEYS, TABS, UNICODE, Options
from ._validate import is_int

__all__ = ["MODES", "TABS", "ALT_SCREEN", "UNICODE", "STAT_KEYS", "DEFAULTS", "Options", "parse_options", "parse_size", "new_stats"]


def new_stats() -> dict[str, int]:
    return dict.fromkeys(STAT_KEYS, 0)


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, not {value!r}")
    return value


def _limit(name: str, value: object, minimum: int) -> int:
    if not is_int(value):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if not minimum <= value <= MAX_OPTION:
        raise ValueError(f"{name} must be between {minimum} and {MAX_OPTION}, not {value}")
    return value


def _size(name: str, value: object) -> int | None:
    if value is None:
        return None
    if not is_int(value):
        raise TypeError(f"{name} must be an int or None, not {type(value).__name__}")
    if not 1 <= value <= MAX_SIZE:
        raise ValueError(f"{name} must be between 1 and {MAX_SIZE}, or None, not {value}")
    return value


def parse_size(columns: object, rows: object) -> tuple[int | None, int | None]:
    """Validate a terminal size (SPEC 2.8): each of ``columns`` and ``rows`` is None or 1..65535."""
    return _size("columns", columns), _size("rows", rows)


def parse_options(*values: object, **named: object) -> Options:
    """Validate the keyword options of ``TranscriptDecoder``, given in ``Options``' field order and/or by
    name (what is not given is the default); raise ``TypeError``/``ValueError``."""
    if len(values) > len(Options._fields):
        raise TypeError(f"at most {len(Options._fields)} options, not {len(values)}")
    given = dict(zip(Options._fields, values))
    for name in named:
        if name not in Options._fields:
            raise TypeError(f"unexpected keyword argument {name!r}")
        if name in given:
            raise TypeError(f"option {name!r} given twice")
    given.update(named)
    mode, tabs, alt_screen, unicode, live_lines, max_line_cells, max_live_cells, max_jump, max_string_bytes, columns, rows = (
        DEFAULTS._replace(**given)  # type: ignore[arg-type]
    )
    return Options(
        _choice("mode", mode, MODES),  # type: ignore[arg-type]  # checked against the Literal's values
        _choice("tabs", tabs, TABS),  # type: ignore[arg-type]
        _choice("alt_screen", alt_screen, ALT_SCREEN),  # type: ignore[arg-type]
        _choice("unicode", unicode, UNICODE),  # type: ignore[arg-type]
        _limit("live_lines", live_lines, 1),
        _limit("max_line_cells", max_line_cells, 1),
        _limit("max_live_cells", max_live_cells, 1),
        _limit("max_jump", max_jump, 0),
        _limit("max_string_bytes", max_string_bytes, 0),
        *parse_size(columns, rows),
    )
