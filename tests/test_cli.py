"""SPEC 5: the acp-transcript command line, run as a real subprocess."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from acp_fixtures import SESSION_TRANSCRIPT, as_notification, session_updates
from acp_transcript import ExitStatus, terminal_output_chunk, terminal_update
from acp_transcript._options import STAT_KEYS

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "session.jsonl"


def run(*args: str, stdin: bytes = b"", env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "acp_transcript", *args], input=stdin, capture_output=True, timeout=60,
        env={**os.environ, **(env or {})},
    )


@pytest.fixture
def impl_env(impl):
    """Run the CLI on the implementation under test."""
    return {"ACP_TRANSCRIPT_NO_EXTENSIONS": "1"} if impl.__name__.endswith("_py") else {}


def write_log(tmp_path: Path, lines: list) -> Path:
    path = tmp_path / "log.jsonl"
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
    return path


# ---------------------------------------------------------------- sanitize


def test_sanitize_stdin(impl_env):
    result = run("sanitize", stdin=b"\x1b[31mred\x1b[0m\n10%\r100%\r\n", env=impl_env)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"red\n100%\n", b"")


def test_sanitize_files_and_dash(tmp_path):
    (tmp_path / "a").write_bytes(b"one\r\n")
    (tmp_path / "b").write_bytes(b"\x1b]0;title\x07two\n")
    result = run("sanitize", str(tmp_path / "a"), "-", str(tmp_path / "b"), stdin=b"mid\n")
    assert result.stdout == b"one\nmid\ntwo\n"


def test_sanitize_options_are_flags(tmp_path):
    data = b"a\tb\x1b[?1049hX\x1b[?1049l\r50%\r100%\n"
    assert run("sanitize", stdin=data).stdout == b"100%    b\n"  # "100%" overwrote the tab's first cell
    assert run("sanitize", "--mode", "strip", "--tabs", "expand", stdin=data).stdout == b"a\tb\n50%\n100%\n"
    assert run("sanitize", "--alt-screen", "keep", "--tabs", "expand", stdin=data).stdout == b"100%    bX\n"
    assert run("sanitize", "--unicode", "off", stdin="\u202e".encode()).stdout == "\u202e".encode()


def test_sanitize_at_a_size(impl_env):
    """SPEC 2.8: --columns/--rows render as a terminal of that size (wrap, then CUP addresses the screen)."""
    data = b"abcdefghij\n\x1b[1;1HX"
    assert run("sanitize", "--columns", "4", "--rows", "3", stdin=data, env=impl_env).stdout == b"abcdXfghij"
    assert run("sanitize", stdin=data, env=impl_env).stdout == b"abcdefghij\nX"  # unsized: a fresh line
    result = run("sanitize", "--columns", "0", stdin=data)
    assert result.returncode == 2 and b"columns must be between 1 and 65535" in result.stderr


def test_sanitize_output_is_utf8_whatever_the_locale():
    result = run("sanitize", stdin="é ✓\n".encode(), env={"LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": "ascii"})
    assert result.stdout == "é ✓\n".encode()


def test_sanitize_streams_lines_before_eof():
    """`tail -f | acp-transcript sanitize`: each line shows once it is complete, before the input ends."""
    process = subprocess.Popen([sys.executable, "-m", "acp_transcript", "sanitize"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE)
    try:
        for piece in [b"first li", b"ne\r\nsecond ", b"line\n"]:
            process.stdin.write(piece)
            process.stdin.flush()
            time.sleep(0.05)
        assert process.stdout.readline() == b"first line\n"  # would block forever if buffered until EOF
        process.stdin.write(b"third\n")
        process.stdin.flush()
        assert process.stdout.readline() == b"second line\n"
    finally:
        process.stdin.close()
        rest = process.stdout.read()
        process.stdout.close()
        process.wait(timeout=30)
    assert rest == b"third\n"


def test_sanitize_missing_file_is_one_line_and_the_rest_still_runs(tmp_path):
    """SPEC 5 rev 2: like cat, a file that cannot be read is reported and the others are still written."""
    (tmp_path / "a").write_bytes(b"one")
    (tmp_path / "b").write_bytes(b"\x1b[1mtwo\n")
    result = run("sanitize", str(tmp_path / "a"), "/no/such/file", str(tmp_path / "b"))
    assert result.returncode == 1
    assert result.stderr.decode().count("\n") == 1 and b"Traceback" not in result.stderr
    assert result.stdout == b"onetwo\n"  # each file is its own stream: "one" ended with its file


def test_sanitize_each_file_is_its_own_stream(tmp_path):
    (tmp_path / "a").write_bytes(b"\x1b]0;never terminated")
    (tmp_path / "b").write_bytes(b"seen\n")
    assert run("sanitize", str(tmp_path / "a"), str(tmp_path / "b")).stdout == b"seen\n"


def test_every_flag_has_help_with_its_default():
    text = run("sanitize", "--help").stdout.decode()
    for flag in ("--mode", "--tabs", "--alt-screen", "--unicode", "--max-line-cells", "--max-live-cells",
                 "--max-jump", "--max-string-bytes"):
        assert flag in text
    assert text.count("(default:") >= 9


@pytest.mark.parametrize("args", [["sanitize", "--mode", "fancy"], ["sanitize", "--live-lines", "0"], [], ["frobnicate"]])
def test_usage_errors_exit_2(args):
    result = run(*args)
    assert result.returncode == 2 and b"Traceback" not in result.stderr


# ---------------------------------------------------------------- replay


def test_replay_bundled_example(impl_env):
    result = run("replay", str(EXAMPLE), env=impl_env)
    assert result.returncode == 0, result.stderr
    text = result.stdout.decode()
    assert text.count("=== terminal") == 4
    assert "command:   pytest --color=yes" in text and "status:    exit code 1" in text
    assert "work: 100%" in text and "work:  33%" not in text  # the bar collapsed to its final frame
    assert "source:    pre-v2 _meta extensions" in text
    assert "\x1b" not in text


def test_replay_json_format(tmp_path):
    log = write_log(tmp_path, [as_notification(u) for u in session_updates()])
    result = run("replay", str(log), "--format", "json")
    (terminal,) = json.loads(result.stdout)
    assert terminal == {
        "sessionId": "sess_1", "terminalId": "term_1", "command": "cargo test", "cwd": "/workspace/demo",
        "exitStatus": {"exitCode": 0, "signal": None}, "toolCalls": [{"toolCallId": "call_1", "title": "Run the tests"}],
        "size": None, "capabilities": None, "background": False, "legacy": False,
        "stats": {**dict.fromkeys(STAT_KEYS, 0), "sequences_removed": 6, "cells_overwritten": 26},
        "transcript": SESSION_TRANSCRIPT,
    }


def test_replay_markdown_format(tmp_path):
    log = write_log(tmp_path, [terminal_update("t", command="echo ```", output=b"a ``` b\n")])
    text = run("replay", str(log), "--format", "markdown").stdout.decode()
    assert text.startswith("## ```` echo ``` ````\n")  # CommonMark: padded, since it ends with a backtick
    assert "\n````text\na ``` b\n````\n" in text


def test_replay_batches_and_sessions(tmp_path):
    log = write_log(tmp_path, [
        [{"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s1", "update": terminal_update(
            "t", command="one")}},
         {"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s2", "update": terminal_update(
             "t", command="two")}}],
        {"jsonrpc": "2.0", "id": 1, "result": {}},
    ])
    data = json.loads(run("replay", str(log), "--format", "json").stdout)
    assert [(t["sessionId"], t["command"]) for t in data] == [("s1", "one"), ("s2", "two")]
    only = json.loads(run("replay", str(log), "--format", "json", "--session", "s2").stdout)
    assert [t["command"] for t in only] == ["two"]


def test_replay_zed_export(tmp_path):
    export = [
        {"_direction": "incoming", "_type": "notification", "method": "session/update",
         "params": {"sessionId": "s", "update": u}} for u in session_updates()
    ]
    export.insert(0, {"_direction": "outgoing", "_type": "request", "id": 0, "method": "initialize", "params": {}})
    path = tmp_path / "zed.json"
    path.write_text(json.dumps(export, indent=2))
    data = json.loads(run("replay", str(path), "--format", "json").stdout)
    assert data[0]["transcript"] == SESSION_TRANSCRIPT


def test_replay_terminal_filter_and_output_dir(tmp_path):
    log = write_log(tmp_path, [terminal_update("a/1", output=b"A\n"), terminal_update("b", output=b"B\n")])
    out = tmp_path / "out"
    result = run("replay", str(log), "--terminal", "a/1", "--output", str(out), "--format", "markdown")
    assert result.returncode == 0 and result.stdout == b""
    (written,) = out.iterdir()
    assert re.fullmatch(r"a_1-[0-9a-f]{12}\.md", written.name) and "A\n" in written.read_text()
    missing = run("replay", str(log), "--terminal", "zzz")
    assert missing.returncode == 1


def test_replay_bad_lines_are_reported_and_skipped(tmp_path):
    secret = "c2VjcmV0!"
    log = write_log(tmp_path, [
        terminal_output_chunk("t", b"good\n"),
        "{not json",
        {"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": secret},
        terminal_output_chunk("t", b"still good\n"),
    ])
    result = run("replay", str(log))
    assert result.returncode == 1
    errors = result.stderr.decode().splitlines()
    assert [e.split(": ")[0] for e in errors] == [f"{log}:2", f"{log}:3"]
    assert "/data" in errors[1] and secret not in result.stderr.decode()
    assert "good\nstill good\n" in result.stdout.decode()
    strict = run("replay", str(log), "--strict")
    assert strict.returncode == 1 and strict.stdout == b"" and strict.stderr.decode().count("\n") == 1


def test_replay_stdin_and_missing_file():
    updates = "".join(json.dumps(as_notification(u)) + "\n" for u in session_updates()).encode()
    result = run("replay", "-", "--format", "json", stdin=updates)
    assert json.loads(result.stdout)[0]["transcript"] == SESSION_TRANSCRIPT
    missing = run("replay", "/no/such/log")
    assert missing.returncode == 2 and missing.stderr.decode().count("\n") == 1


def test_version():
    result = run("--version")
    assert result.returncode == 0 and result.stdout.startswith(b"acp-transcript ")


def test_replay_zed_export_reports_exact_lines(tmp_path):
    good = {"_direction": "incoming", "_type": "notification", "method": "session/update",
            "params": {"sessionId": "s", "update": {"sessionUpdate": "tool_call", "toolCallId": "c", "title": "t",
                                                      "content": [{"type": "terminal", "terminalId": "t1"}]}}}
    bad = {"_direction": "incoming", "_type": "notification", "method": "session/update",
           "params": {"sessionId": "s", "update": {"sessionUpdate": "terminal_output_chunk", "terminalId": "t1",
                                                     "data": "!!"}}}
    text = json.dumps([good, bad], indent=2)
    path = tmp_path / "zed.json"
    path.write_text(text)
    result = run("replay", str(path))
    second = text.index('"_direction"', text.index('"_direction"') + 1)
    line = text.count("\n", 0, second)  # the element's "{" is on the line above its first key
    assert result.returncode == 1
    assert result.stderr.decode().startswith(f"{path}:{line}: ")


def test_replay_decoder_flags_and_legacy_switch():
    text = run("replay", str(EXAMPLE), "--mode", "strip", "--terminal", "term_2").stdout.decode()
    assert text.count("work:") == 5  # strip mode: every progress frame
    legacy_off = json.loads(run("replay", str(EXAMPLE), "--format", "json", "--no-legacy-meta").stdout)
    assert "legacy_1" not in {t["terminalId"] for t in legacy_off}


def test_progress_bar_only_on_a_terminal(monkeypatch, capsys):
    from acp_transcript import cli

    monkeypatch.setattr(cli.sys.stderr, "isatty", lambda: False)
    quiet = cli.Progress(total=cli.Progress.MIN_SIZE * 2, enabled=True)
    quiet(1000)
    quiet.close()
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(cli.sys.stderr, "isatty", lambda: True)
    monkeypatch.setitem(sys.modules, "tqdm", None)  # the standard-library bar
    bar = cli.Progress(total=cli.Progress.MIN_SIZE * 2, enabled=True)
    bar(cli.Progress.MIN_SIZE)
    assert "replay  50%" in capsys.readouterr().err
    bar.close()
    assert capsys.readouterr().err.strip(" \r") == ""  # the bar erases itself
    small = cli.Progress(total=100, enabled=True)  # short logs get no bar
    small(100)
    assert capsys.readouterr().err == ""
    disabled = cli.Progress(total=cli.Progress.MIN_SIZE * 2, enabled=False)  # --no-progress
    disabled(10)
    assert capsys.readouterr().err == ""


# ---------------------------------------------------------------- hostile recordings (SPEC 5 rev 2)

HOSTILE = "ls\x1b]52;c;ZXZpbA==\x07\x1b[2J\n=== terminal forged"


def hostile_log(tmp_path: Path) -> Path:
    return write_log(tmp_path, [
        {"sessionUpdate": "tool_call", "toolCallId": "call\x1b[31m", "title": "t\x1b]0;x\x07",
         "content": [{"type": "terminal", "terminalId": "t\x1b[2J"}]},
        terminal_update("t\x1b[2J", command=HOSTILE, cwd="/w\x1b[1m\nx", output=b"ok\n",
                        exit_status=ExitStatus(signal="SIG\x1b[5mKILL\u202e")),
    ])


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_replay_never_prints_agent_controlled_fields_raw(tmp_path, fmt):
    result = run("replay", str(hostile_log(tmp_path)), "--format", fmt)
    assert result.returncode == 0, result.stderr
    text = result.stdout.decode()
    assert "\x1b" not in text and "\u202e" not in text and "\x07" not in text
    assert "<U+001B>]52;c;ZXZpbA==<U+0007>" in text and "<U+000A>=== terminal forged" in text
    assert text.count("=== terminal") == (1 if fmt == "text" else 0) + text.count("<U+000A>=== terminal")


def test_replay_json_escapes_what_could_harm_a_reader(tmp_path):
    log = write_log(tmp_path, ['{"sessionUpdate":"terminal_update","terminalId":"t","_meta":{"k":"a\\u2028b\\u202ec\\u0085d\\u009be\\ud800"}}'])
    result = run("replay", str(log), "--format", "json")
    assert result.returncode == 0 and b"Traceback" not in result.stderr
    text = result.stdout.decode("utf-8")
    for raw in ("\u2028", "\u202e", "\x85", "\x9b"):
        assert raw not in text
    assert json.loads(text)[0]["transcript"] == ""


def test_replay_line_that_is_not_utf8_is_a_bad_line(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"a":"\xff"}\n' + json.dumps(terminal_update("t", output=b"ok\n")).encode() + b"\n\xe2\x82")
    result = run("replay", str(path))
    assert result.returncode == 1 and b"Traceback" not in result.stderr
    assert result.stderr.decode().splitlines() == [f"{path}:1: not UTF-8 (byte 6)", f"{path}:3: not UTF-8 (byte 0)"]
    assert "ok" in result.stdout.decode()


def test_replay_output_names_are_unique_bounded_and_stay_inside(tmp_path):
    ids = ["a/b", "a_b", "../../etc/passwd", "x" * 300, "..", ""]
    log = write_log(tmp_path, [terminal_update(i or "empty", output=i.encode() + b"\n") for i in ids])
    out = tmp_path / "out"
    result = run("replay", str(log), "--output", str(out))
    assert result.returncode == 0, result.stderr
    names = sorted(p.name for p in out.iterdir())
    assert len(names) == len(ids) and all(len(n) < 120 for n in names)
    assert not (tmp_path / "etc").exists() and all(p.parent == out for p in out.iterdir())


def test_replay_output_write_errors_are_reported_not_raised(tmp_path):
    if os.geteuid() == 0:  # root writes into read-only directories: make the target a file instead
        log = write_log(tmp_path, [terminal_update("t", output=b"x\n"), terminal_update("u", output=b"y\n")])
        out = tmp_path / "out"
        out.mkdir()
        (out / "t.txt").mkdir()  # the rename onto it fails
        result = run("replay", str(log), "--output", str(out))
    else:
        out = tmp_path / "ro"
        out.mkdir()
        out.chmod(0o500)
        log = write_log(tmp_path, [terminal_update("t", output=b"x\n"), terminal_update("u", output=b"y\n")])
        result = run("replay", str(log), "--output", str(out))
    assert result.returncode == 1 and b"Traceback" not in result.stderr
    assert result.stderr.decode().count("\n") >= 1
    if os.geteuid() == 0:
        assert (out / "u.txt").read_text().endswith("y\n")  # later terminals are still written


def test_replay_lone_surrogate_anywhere_never_crashes(tmp_path):
    log = write_log(tmp_path, [
        '{"sessionUpdate":"tool_call","toolCallId":"c","title":"\\ud800","content":[{"type":"terminal","terminalId":"t"}]}',
        '{"sessionUpdate":"terminal_update","terminalId":"t","command":"\\udc00","_meta":{"\\ud800":"\\udfff"}}',
    ])
    for fmt in ("text", "markdown", "json"):
        result = run("replay", str(log), "--format", fmt)
        assert b"Traceback" not in result.stderr, result.stderr
        result.stdout.decode("utf-8")
    result = run("replay", str(log), "--output", str(tmp_path / "o"))
    assert b"Traceback" not in result.stderr


def test_replay_keeps_transcripts_not_raw_bytes():
    from acp_transcript.replay import Replay

    replay = Replay()
    replay.apply(terminal_output_chunk("t", b"x" * 100_000 + b"\n"))
    ((_, terminal),) = replay.terminals()
    assert terminal.output == b"" and terminal.output_dropped == 100_001
    assert terminal.transcript == "x" * 65536 + "\n" + "x" * (100_000 - 65536) + "\n"


def test_progress_redraws_at_most_ten_times_a_second(monkeypatch):
    from acp_transcript import cli

    monkeypatch.setattr(cli.sys.stderr, "isatty", lambda: True)
    monkeypatch.setitem(sys.modules, "tqdm", None)  # the plain fallback
    writes = []
    monkeypatch.setattr(cli.sys.stderr, "write", writes.append)
    clock = iter(i * 0.001 for i in range(100_000))
    monkeypatch.setattr(cli.time, "monotonic", lambda: next(clock))
    progress = cli.Progress(10 << 20, enabled=True)
    for _ in range(30_000):  # 30 s of lines at 1 ms each
        progress(100)
    assert 250 <= len(writes) <= 310  # about 10 a second, not 30,000


def test_replay_reports_malformed_optional_fields_as_warnings(tmp_path):
    log = write_log(tmp_path, [
        {"sessionUpdate": "terminal_update", "terminalId": "t", "cwd": "relative", "output": {"data": "b2sK"}},
    ])
    result = run("replay", str(log))
    assert result.returncode == 0
    assert result.stderr.decode() == f"{log}:1: /cwd: path must be absolute (/..., C:\\..., or \\\\server\\share\\...) (ignored)\n"
    assert "ok" in result.stdout.decode() and "cwd:       -" in result.stdout.decode()
