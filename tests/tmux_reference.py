"""tmux as the reference terminal for sized rendering (SPEC 2.8).

``TmuxReference().capture(data, columns, rows)`` replays ``data`` in a tmux window of that size (the bytes
go through a PTY, whose onlcr turns LF into CR LF as SPEC 2.3 assumes) and returns
``tmux capture-pane -p -J -S -``: the history and the screen, soft-wrapped rows joined. One private tmux
server (its own socket, an empty configuration but a history limit that keeps everything) serves every
capture of a test session.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid


def normalize(text: str) -> str:
    """A transcript "modulo trailing blanks" (SPEC 2.8): each line without trailing spaces, and no empty
    lines at the end."""
    return "\n".join(line.rstrip(" ") for line in text.split("\n")).rstrip("\n")


class TmuxReference:
    def __init__(self) -> None:
        if shutil.which("tmux") is None:
            raise RuntimeError("tmux is not installed")
        self.directory = tempfile.mkdtemp(prefix="acp-tmux-")
        self.socket = "acp-transcript-" + uuid.uuid4().hex[:12]
        config = os.path.join(self.directory, "tmux.conf")
        with open(config, "w") as file:
            file.write("set -g history-limit 1000000\nset -g status off\n")
        self.base = ["tmux", "-L", self.socket, "-f", config]
        self.count = 0
        # A session that lives as long as this object: without it the server exits with each capture's
        # session, and the next capture races its shutdown.
        subprocess.run([*self.base, "new-session", "-d", "-s", "keep", "exec sleep 86400"], check=True)

    def version(self) -> str:
        return subprocess.run(["tmux", "-V"], capture_output=True, text=True, check=True).stdout.strip()

    def capture(self, data: bytes, columns: int, rows: int, alternate: bool = False) -> str:
        """``alternate``: if the stream ends on the alternate screen, the history, the main screen
        (``capture-pane -a``) and the alternate screen, in that order (SPEC 2.3's transcript of such a
        stream); otherwise the plain capture."""
        self.count += 1
        name = f"case{self.count}"
        path = os.path.join(self.directory, name)
        with open(path, "wb") as file:
            file.write(data)
        tmux = " ".join(self.base)
        # (stty -echo: tmux answers queries in the stream (DSR, DA) on the pane's input, which the tty would
        # echo back onto the screen as text no terminal shows)
        command = f"stty -echo; cat {path}; {tmux} wait-for -S {name}; exec sleep 3600"
        run = subprocess.run
        run([*self.base, "new-session", "-d", "-s", name, "-x", str(columns), "-y", str(rows), command], check=True)
        try:
            run([*self.base, "wait-for", name], check=True, timeout=60)

            def tmux(command: str, *args: str) -> str:
                out = run([*self.base, command, "-t", name, *args], check=True, capture_output=True).stdout
                return out.decode("utf-8", "replace")

            if alternate and tmux("display-message", "-p", "#{alternate_on}").strip() == "1":
                history = ""
                if int(tmux("display-message", "-p", "#{history_size}")):
                    history = tmux("capture-pane", "-p", "-J", "-S", "-", "-E", "-1")
                main = normalize(history + tmux("capture-pane", "-p", "-J", "-a"))
                screen = tmux("capture-pane", "-p", "-J")
                return main + "\n" + screen if main else screen
            return tmux("capture-pane", "-p", "-J", "-S", "-")
        finally:
            run([*self.base, "kill-session", "-t", name], capture_output=True)
            os.unlink(path)

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True)
        shutil.rmtree(self.directory, ignore_errors=True)
