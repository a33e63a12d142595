"""Record real programs on a pseudo-terminal of a known size, and tmux's transcript of each (SPEC 2.8).

Run from the repository root: ``python tests/captures/sized/record.py`` (needs tmux, apt-get, dpkg-deb,
top, watch and vim, and root for apt). For each capture it writes:

- ``NAME.bin``: what the program wrote to a ``COLUMNS x ROWS`` xterm-256color PTY (``TIOCSWINSZ``, as
  ``stty cols C rows R``), the temporary directory's path replaced by ``/tmp/demo``;
- ``NAME.json``: the size, the command and the tmux version;
- ``NAME.tmux.txt``: the reference: ``NAME.bin`` replayed in a tmux window of the same size and captured
  with ``capture-pane -p -J -S -`` (``tests/tmux_reference.py``). For a stream that ends on the alternate
  screen (vim killed), SPEC 2.3 gives the main screen and then the alternate one: the reference is the
  history, the main screen (``capture-pane -a``) and the alternate screen, in that order.

``tests/test_screen_tmux.py`` checks that both twins render every capture as its reference.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent.parent))  # tests/: tmux_reference
sys.path.insert(0, str(HERE.parent))  # tests/captures/: the PTY recorder of the 80x24 captures
from record import record  # noqa: E402
from tmux_reference import TmuxReference  # noqa: E402


def record_sized(command: str, columns: int, rows: int, cwd: str, kill_after: float | None = None) -> bytes:
    data = record(["sh", "-c", command], cwd, {"LANG": "C.UTF-8"}, columns, rows, kill_after)
    return data.replace(cwd.encode(), b"/tmp/demo")


def setup(root: Path) -> None:
    for index in range(60):
        (root / f"file_{index:02d}_{'x' * (index % 7)}.txt").write_text("")
    package = root / "acp-demo"
    (package / "DEBIAN").mkdir(parents=True)
    (package / "DEBIAN" / "control").write_text(
        "Package: acp-demo\nVersion: 1.0\nArchitecture: all\nMaintainer: Dev <dev@example.com>\n"
        "Description: a package for the apt capture\n"
    )
    subprocess.run(["dpkg-deb", "--build", str(package), str(root / "acp-demo.deb")], check=True,
                   capture_output=True)
    (root / "layers.py").write_text(textwrap.dedent(
        """
        import sys, time
        layers = ["a1b2c3", "d4e5f6", "0718aa"]
        for layer in layers:
            print(f"{layer}: Waiting")
        for step in range(0, 101, 25):
            sys.stdout.write(f"\\x1b[{len(layers)}A")
            for index, layer in enumerate(layers):
                done = min(100, step + 25 * index)
                bar = "=" * (done // 10) + ">" + " " * (10 - done // 10)
                state = "Pull complete" if done == 100 else f"Downloading [{bar}] {done}%"
                sys.stdout.write(f"\\x1b[2K\\r{layer}: {state}\\n")
            sys.stdout.flush()
            time.sleep(0.02)
        print("Status: Downloaded newer image")
        """
    ))
    (root / "notes.txt").write_text("".join(f"line {n} of the file\n" for n in range(1, 40)))


CAPTURES = {
    # name: (command, columns, rows, kill_after)
    "apt_fancy_progress": (
        "apt-get install -y --reinstall -o Dpkg::Progress-Fancy=1 ./acp-demo.deb", 80, 12, None),
    "top_refresh": ("top -d 0.2 -n 3 -w 80", 80, 14, None),
    "docker_layers": ("python3 layers.py", 60, 8, None),
    "watch_ticks": ("echo watching; timeout --foreground -s INT 1 watch -n 0.2 -t 'echo tick; cut -d. -f2 /proc/uptime; seq 3'", 40, 6, None),
    "ls_wide": ("ls -C --color=always", 100, 10, None),
    "cjk_emoji": (
        "printf '\\344\\270\\255\\346\\226\\207\\343\\201\\250 emoji \\360\\237\\230\\200 and "
        "\\360\\237\\221\\251\\342\\200\\215\\360\\237\\222\\273 mixed with ASCII text that wraps "
        "\\351\\225\\267\\343\\201\\204\\350\\241\\214 e\\314\\201t\\303\\251\\n'", 20, 6, None),
    "long_line": ("python3 -c \"print(' '.join(f'word{n}' for n in range(150)))\"", 80, 5, None),
    "vim_killed": ("exec vim -n -u NONE notes.txt", 60, 10, 1.0),
    # vim scrolling its window with scroll regions and line deletes, opening lines at the end, and asking the
    # terminal for its cursor position and attributes (DSR, DA: tmux's answers are not echoed, see
    # tmux_reference), killed
    "vim_scrolled": (
        "exec vim -n -u NONE -N -c 'set scrolloff=0' -c 'exe \"normal 30G\" | redraw' "
        "-c 'exe \"normal gg\" | redraw' -c 'exe \"normal \\<C-e>\\<C-e>\\<C-e>\" | redraw' "
        "-c 'exe \"normal \\<C-y>\" | redraw' -c 'exe \"normal Gox\" | redraw' -c 'exe \"normal oy\" | redraw' "
        "-c 'exe \"normal ggdd\" | redraw' notes.txt", 40, 10, 1.5),
}


def reference(tmux: TmuxReference, data: bytes, columns: int, rows: int) -> str:
    return tmux.capture(data, columns, rows, alternate=True)


def main() -> int:
    tmux = TmuxReference()
    try:
        with tempfile.TemporaryDirectory() as temporary:
            root = Path(temporary)
            setup(root)
            subprocess.run(["apt-get", "install", "-y", str(root / "acp-demo.deb")], check=True, capture_output=True)
            try:
                for name, (command, columns, rows, kill_after) in CAPTURES.items():
                    data = record_sized(command, columns, rows, temporary, kill_after)
                    (HERE / f"{name}.bin").write_bytes(data)
                    meta = {"command": command, "columns": columns, "rows": rows, "tmux": tmux.version(),
                            "killed_after_seconds": kill_after}
                    (HERE / f"{name}.json").write_text(json.dumps(meta, indent=2) + "\n")
                    (HERE / f"{name}.tmux.txt").write_text(reference(tmux, data, columns, rows), encoding="utf-8")
                    print(f"{name}: {len(data)} bytes")
            finally:
                subprocess.run(["dpkg", "-r", "acp-demo"], capture_output=True)
    finally:
        tmux.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
