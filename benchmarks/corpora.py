"""Benchmark corpora, built deterministically (no files to download): each a few MB of terminal output."""

from __future__ import annotations

import random
from pathlib import Path

CAPTURES = Path(__file__).resolve().parents[1] / "tests" / "captures"


def _repeat(sample: bytes, size: int) -> bytes:
    return (sample * (size // max(len(sample), 1) + 1))[:size]


def real_captures(size: int) -> bytes:
    """The PTY captures of the test suite (ls, git log, pytest, tqdm, vim), repeated."""
    sample = b"".join(path.read_bytes() for path in sorted(CAPTURES.glob("*.bin")))
    return _repeat(sample, size)


def plain_ascii(size: int) -> bytes:
    rng = random.Random(1)
    words = [b"GET", b"/api/v1/items", b"200", b"INFO", b"worker", b"started", b"request", b"done", b"ms"]
    lines = [b"2026-11-30T12:00:%02d " % (i % 60) + b" ".join(rng.choices(words, k=10)) for i in range(2000)]
    return _repeat(b"\n".join(lines) + b"\n", size)


def sgr_heavy(size: int) -> bytes:
    rng = random.Random(2)
    parts = []
    for i in range(4000):
        color = rng.choice([b"31", b"32", b"33", b"1;34", b"38;5;208", b"38;2;10;200;30"])
        parts.append(b"\x1b[%sm%s\x1b[0m " % (color, rng.choice([b"PASS", b"FAIL", b"warn", b"src/main.rs:10"])))
        if i % 8 == 7:
            parts.append(b"\r\n")
    return _repeat(b"".join(parts), size)


def cjk_colored(size: int) -> bytes:
    text = "日志：服务已启动，正在处理请求。エラーは発生していません。한국어 텍스트도 있습니다."
    line = f"\x1b[36m{text}\x1b[0m \x1b[1m完成\x1b[0m\n".encode()
    return _repeat(line, size)


def other_scripts(size: int) -> bytes:
    """Colored log lines in Cyrillic, Devanagari, Thai, Hangul and Greek (two- and three-byte UTF-8, leads E0
    and ED included): the text that the CJK corpus's E1-EC/EE-EF leads do not stand for."""
    texts = [
        "Журнал: сервер запущен, запросы обрабатываются. Ошибок нет.",
        "लॉग: सर्वर शुरू हो गया है, अनुरोध संसाधित किए जा रहे हैं।",
        "บันทึก: เซิร์ฟเวอร์เริ่มทำงานแล้ว กำลังประมวลผลคำขอ",
        "로그: 서버가 시작되었습니다. 한국어 텍스트 확인 했습니다.",
        "Καταγραφή: ο διακομιστής ξεκίνησε, τα αιτήματα επεξεργάζονται.",
    ]
    lines = "".join(f"\x1b[3{i + 1}m{text}\x1b[0m ok\n" for i, text in enumerate(texts))
    return _repeat(lines.encode(), size)


def progress_bars(size: int) -> bytes:
    frames = []
    for pct in range(0, 101):
        bar = "█" * (pct // 4) + " " * (25 - pct // 4)
        frames.append(f"\rdownloading |{bar}| {pct:3d}% 12.3MB/s".encode())
    return _repeat(b"".join(frames) + b"\n", size)


CORPORA = {
    "real captures": real_captures,
    "plain ASCII": plain_ascii,
    "SGR-heavy": sgr_heavy,
    "CJK colored": cjk_colored,
    "other scripts": other_scripts,
    "progress bars": progress_bars,
}


def _frames(frames: list[bytes], size: int) -> bytes:
    return _repeat(b"".join(frames), size)


GO_SOURCE = b"""func main() {
\tfor _, f := range files {
\t\tif err := process(f); err != nil {
\t\t\tlog.Printf("%s: %v", f, err)
\t\t\tcontinue
\t\t}
\t\tcount++
\t}
}
"""

# Inputs shaped against Parser.fold_frames (not in CORPORA: instructions.py --corpora picks them): frames that
# each shrink by a cell (never skippable), a CR before every line (a scan that finds a LF), frames that grow
# (every one skipped), and each script of other_scripts alone. Then tabbed text (round 10): tab-indented code
# (a diff or a cat of Go, C or a Makefile) and tab-separated columns; then each real capture alone.
SHAPES = {
    "tab-indented code": lambda size: _repeat(GO_SOURCE, size),
    "tab-separated columns": lambda size: _repeat(b"2026-12-01\t18:20:03\tINFO\tworker-3\tserved in 12 ms\n", size),
    "frames that shrink": lambda size: _frames([b"\r" + b"y" * (60 - k) for k in range(60)], size),
    "a CR before every line": lambda size: _frames([b"\r" + b"x" * 100 + b"\n"], size),
    "frames that grow": lambda size: _frames([b"\r" + "\u2588".encode() * k for k in range(60)], size),
    "random bytes": lambda size: random.Random(1).randbytes(size),
    # characters the Unicode policy shows or passes, in log lines (round 34: one such character made the
    # core's policy pass walk a call's whole text a cell at a time; the joiners started it for nothing)
    "one bidi mark a 4 KiB": lambda size: _repeat((b"x" * 60 + b" ok\n") * 63 + b"x" * 40 + "\u202eabc\n".encode(), size),
    "a ZWJ emoji a line": lambda size: _repeat(("build step \U0001f469\u200d\U0001f4bb done " + "y" * 50 + "\n").encode(), size),
    "Persian with ZWNJ": lambda size: _repeat(("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 " * 10 + "\n").encode(), size),
    **{
        name: (lambda text: lambda size: _repeat(f"\x1b[36m{text}\x1b[0m\n".encode(), size))(text)
        for name, text in [
            ("Cyrillic", "Журнал: сервер запущен, запросы обрабатываются. Ошибок нет, всё в порядке."),
            ("Devanagari", "लॉग: सर्वर शुरू हो गया है, अनुरोध संसाधित किए जा रहे हैं। कोई त्रुटि नहीं।"),
            ("Thai", "บันทึก: เซิร์ฟเวอร์เริ่มทำงานแล้ว กำลังประมวลผลคำขอ ไม่มีข้อผิดพลาด"),
            ("Hangul", "로그: 서버가 시작되었습니다. 요청을 처리하는 중입니다. 한국어 텍스트 확인 했습니다."),
        ]
    },
    # each PTY capture of real_captures alone (round 61): where the real captures' cost, and the regex's, come
    # from (``instructions.py --baselines --corpora "capture: vim_fullscreen,..."``)
    **{
        f"capture: {path.stem}": (lambda sample: lambda size: _repeat(sample, size))(path.read_bytes())
        for path in sorted(CAPTURES.glob("*.bin"))
    },
}
