"""Record real programs on a pseudo-terminal into the capture fixtures (``*.bin``).

Run from the repository root: ``python tests/captures/record.py``. Each capture is what the program wrote to
an 80x24 xterm-256color PTY. The expected transcripts (``*.txt``, ``*.strip.txt``) were then produced with
``tests/captures/record.py --expect`` and checked by eye and against tmux (``capture-pane -p -J``), as
described in tests/captures/README.md; they are not regenerated automatically on purpose.
"""

from __future__ import annotations

import os
import pty
import select
import signal
import struct
import subprocess
import sys
import tempfile
import textwrap
import time
from fcntl import ioctl
from pathlib import Path
from termios import TIOCSWINSZ

HERE = Path(__file__).parent


def record(argv: list[str], cwd: str, env_extra: dict[str, str] | None = None, columns: int = 80, rows: int = 24,
           kill_after: float | None = None) -> bytes:
    """What ``argv`` writes to a ``columns`` x ``rows`` xterm-256color PTY (``TIOCSWINSZ``, as ``stty cols C rows
    R``). ``kill_after``: SIGKILL after that many seconds, as a sandbox kills a command (no clean-up, no
    leaving the alternate screen); the output is read until the PTY closes."""
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(columns), "LINES": str(rows), **(env_extra or {})}
    pid, fd = pty.fork()
    if pid == 0:  # child: a terminal of that size
        ioctl(0, TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        os.chdir(cwd)
        os.execvpe(argv[0], argv, env)
    out = bytearray()
    start = time.monotonic()
    killed = False
    while True:
        if kill_after is not None and not killed and time.monotonic() - start > kill_after:
            os.kill(pid, signal.SIGKILL)
            killed = True
        try:
            ready, _, _ = select.select([fd], [], [], 0.1)
            if not ready:
                continue
            block = os.read(fd, 65536)
        except OSError:
            break
        if not block:
            break
        out += block
    os.waitpid(pid, 0)
    return bytes(out)


def setup_tree(root: Path) -> None:
    (root / "src").mkdir()
    (root / "docs").mkdir()
    (root / "README.md").write_text("# demo\n")
    (root / "run.sh").write_text("#!/bin/sh\necho hi\n")
    (root / "run.sh").chmod(0o755)
    (root / "link").symlink_to("README.md")
    (root / "test_demo.py").write_text(
        textwrap.dedent(
            """
            def test_ok():
                assert 1 + 1 == 2

            def test_fails():
                assert {"a": 1, "b": 2} == {"a": 1, "b": 3}

            def test_also_fails():
                raise ValueError("bad \\u00e9t\\u00e9 value")
            """
        )
    )
    (root / "bar.py").write_text(
        "import time\nfrom tqdm import tqdm\nfor _ in tqdm(range(30), desc='work', ncols=60):\n    time.sleep(0.01)\n"
    )
    git = ["git", "-c", "user.name=Dev", "-c", "user.email=dev@example.com"]
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, check=True)
    for message in ["Initial commit", "Add the demo test", "Fix the runner"]:
        (root / "log.txt").write_text(message)
        subprocess.run(["git", "add", "-A"], cwd=root, check=True)
        subprocess.run([*git, "commit", "-q", "-m", message, "--date=2026-01-01T00:00:00"], cwd=root, check=True,
                       env={**os.environ, "GIT_COMMITTER_DATE": "2026-01-01T00:00:00"})


PROGRAMS = {
    "ls_color": ["ls", "--color=always", "-F", "-C"],
    "git_log": ["git", "log", "--color", "--graph", "--decorate", "--format=%C(auto)%h%d %s"],
    "pytest_failures": [sys.executable, "-m", "pytest", "--color=yes", "-p", "no:cacheprovider", "test_demo.py"],
    "tqdm_bar": [sys.executable, "bar.py"],
    "vim_fullscreen": ["vim", "-u", "NONE", "-N", "-c", "redraw", "-c", "sleep 100m", "-c", "q", "README.md"],
}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        setup_tree(root)
        for name, argv in PROGRAMS.items():
            data = record(argv, tmp)
            (HERE / f"{name}.bin").write_bytes(data.replace(tmp.encode(), b"/tmp/demo"))
            print(f"{name}: {len(data)} bytes")
    if "--expect" in sys.argv:
        sys.path.insert(0, str(HERE.parents[1] / "src"))
        from acp_transcript._decoder_py import sanitize

        for path in sorted(HERE.glob("*.bin")):
            path.with_suffix(".txt").write_text(sanitize(path.read_bytes()), encoding="utf-8")
            path.with_suffix(".strip.txt").write_text(sanitize(path.read_bytes(), mode="strip"), encoding="utf-8")


if __name__ == "__main__":
    main()
