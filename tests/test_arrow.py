"""SPEC 6: sanitize_arrow reads any Arrow C data interface export of binary or string values."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from strategies import FRAGMENTS

pa = pytest.importorskip("pyarrow")

TYPES = [pa.binary(), pa.large_binary(), pa.string(), pa.large_string(), pa.binary_view(), pa.string_view()]
VALUES = [b"\x1b[31mred\x1b[0m", None, b"10%\r100%", b"", "caf\u00e9 \u202e".encode() + b"x" * 20, b"\xff\xfe",
          b"a\x1b[?1049hb", "\U0001f3f4".encode()]


def as_list(result):
    return (result if isinstance(result, pa.Array) else pa.array(result)).to_pylist()


def typed(values, kind):
    if pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_string_view(kind):
        values = [None if v is None else v.decode("utf-8", "replace") for v in values]
    return pa.array(values, type=kind)


@pytest.mark.parametrize("kind", TYPES, ids=str)
def test_every_value_as_sanitize_gives_it_nulls_kept(impl, kind):
    array = typed(VALUES, kind)
    expected = [None if v is None else impl.sanitize(v.encode() if isinstance(v, str) else v)
                for v in array.to_pylist()]
    result = impl.sanitize_arrow(array)
    assert len(result) == len(array)
    assert as_list(result) == expected
    assert pa.array(result).type == pa.large_string()


def test_chunked_sliced_and_empty_inputs(impl):
    chunked = pa.chunked_array([pa.array([b"a", None]), pa.array([b"\x1b[1mb"])])
    assert as_list(impl.sanitize_arrow(chunked)) == ["a", None, "b"]
    assert as_list(impl.sanitize_arrow(pa.array([b"x", b"\x1b[2my", b"z"]).slice(1))) == ["y", "z"]
    assert as_list(impl.sanitize_arrow(pa.array([], pa.binary()))) == []
    assert as_list(impl.sanitize_arrow(pa.array([None, None], pa.binary()))) == [None, None]


def test_options_apply_and_bad_input_is_refused(impl):
    array = pa.array([b"10%\r100%"])
    assert as_list(impl.sanitize_arrow(array, mode="strip")) == ["10%\n100%"]
    with pytest.raises(TypeError):
        impl.sanitize_arrow(pa.array([1, 2]))
    with pytest.raises(TypeError):
        impl.sanitize_arrow([b"not arrow"])
    with pytest.raises(ValueError):
        impl.sanitize_arrow(array, mode="fancy")


@given(st.lists(st.one_of(st.none(), st.lists(st.sampled_from(FRAGMENTS), max_size=8).map(b"".join)), max_size=30))
def test_twins_agree_on_arrow(both, values):
    compiled, python = both
    array = pa.array(values, type=pa.large_binary())
    assert as_list(compiled.sanitize_arrow(array)) == as_list(python.sanitize_arrow(array))


def test_compiled_result_exports_itself_again_and_without_pyarrow(both):
    compiled, _ = both
    result = compiled.sanitize_arrow(pa.array([b"\x1b[1mone", None, b"two"]))
    assert result.to_pylist() == ["one", None, "two"] and result.null_count == 1
    first, second = pa.array(result), pa.array(result)  # each export is a copy the consumer owns
    del result
    assert first.to_pylist() == second.to_pylist() == ["one", None, "two"]


def test_duckdb_results_are_read_through_the_stream_interface(impl):
    duckdb = pytest.importorskip("duckdb")
    connection = duckdb.connect()
    table = connection.sql("SELECT (chr(27) || '[31m' || i::VARCHAR)::BLOB AS v FROM range(5) t(i)").to_arrow_table()
    column = table.column("v")  # a chunked array: read through __arrow_c_stream__
    assert as_list(impl.sanitize_arrow(column)) == [str(i) for i in range(5)]


@pytest.mark.parametrize("mode", ["render", "strip"])
def test_values_whose_text_comes_in_pieces(impl, mode):
    """A value whose text passes a piece of cells (half a million) goes to the UTF-8 output a piece at a time
    (round 29), before the rest of it, and between values that do not: every value as ``sanitize`` gives it,
    with the Unicode policy applied to each piece (a bidi override in each line) and one-byte text before the
    cells (ASCII, Latin-1) kept in front of them. In strip mode the escape sequences make nothing, so a value
    of wide text alone makes the pieces there."""
    wide = "\u4e2d\x1b[1023b\u202e\n".encode() * 1200
    head = b"x\x1b[1023b\n" * 300 + "\u00e9\x1b[1023b\n".encode() * 300
    emoji = "\U0001f600\x1b[1023b\n".encode() * 1200 + "\U0001f3f4\U000e0067\U000e0062\U000e007f end".encode()
    text_only = "\u4e2d".encode() * 700_000 + "caf\u00e9".encode()
    values = [b"a\x1b[31mb", wide, None, emoji, "\u00e9\x1b[1023b\n".encode() * 1100, wide + b"x" * 5000, text_only,
              b"", head + wide, head + wide.replace("\u202e".encode(), b"")]  # (the policy makes a piece all cells)
    result = as_list(impl.sanitize_arrow(pa.array(values, type=pa.large_binary()), mode=mode))
    assert result == [None if v is None else impl.sanitize(v, mode=mode) for v in values]
    assert len(result[6]) > 700_000
