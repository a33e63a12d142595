"""SPEC 2.5: the safety filter and the Unicode policy (standard, strict, off)."""

from __future__ import annotations

import pytest

from helpers import assert_transcript

from acp_transcript._unicode_policy import _SHOWN

RLO = "\u202e"
FLAG_SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
TAGGED = "x\U000e0069\U000e0067\U000e006e\U000e006f\U000e0072\U000e0065y"  # "ignore" hidden in tags

CASES = [
    # (text, standard, strict, off)
    pytest.param(f"a{RLO}b", "a<U+202E>b", "a<U+202E>b", f"a{RLO}b", id="bidi-override"),
    pytest.param("\u2066\u2069", "<U+2066><U+2069>", "<U+2066><U+2069>", "\u2066\u2069", id="isolates"),
    pytest.param("a\u2028b\u2029", "a<U+2028>b<U+2029>", "a<U+2028>b<U+2029>", "a<U+2028>b<U+2029>", id="separators-never-raw"),
    pytest.param(TAGGED, "xy", "xy", TAGGED, id="tags-removed"),
    pytest.param(FLAG_SCOTLAND, FLAG_SCOTLAND, "\U0001f3f4", FLAG_SCOTLAND, id="flag-sequence-kept"),
    pytest.param("\U0001f3f4\U000e0067\U000e007f", "\U0001f3f4", "\U0001f3f4", "\U0001f3f4\U000e0067\U000e007f", id="flag-too-short"),
    pytest.param("zero\u200bwidth\ufeff", "zero\u200bwidth\ufeff", "zero<U+200B>width<U+FEFF>", "zero\u200bwidth\ufeff", id="invisible"),
    pytest.param("soft\u00adhyphen", "soft\u00adhyphen", "soft<U+00AD>hyphen", "soft\u00adhyphen", id="soft-hyphen"),
    pytest.param("\U0001f600 ok", "\U0001f600 ok", "\U0001f600 ok", "\U0001f600 ok", id="emoji-untouched"),
]


@pytest.mark.parametrize(("text", "standard", "strict", "off"), CASES)
@pytest.mark.parametrize("mode", ["render", "strip"])
def test_policy(impl, mode, text, standard, strict, off):
    data = text.encode()
    assert_transcript(impl, data, standard, mode=mode)
    assert_transcript(impl, data, strict, mode=mode, unicode="strict")
    assert_transcript(impl, data, off, mode=mode, unicode="off")


def test_policy_does_not_change_columns(impl):
    # The override is one cell (overwritten by "X"), however long its shown form is.
    assert_transcript(impl, f"a{RLO}b\r\x1b[1CX".encode(), "aXb")


def test_flag_across_sequences_in_strip_mode(impl):
    data = FLAG_SCOTLAND[:3].encode() + b"\x1b[31m" + FLAG_SCOTLAND[3:].encode()
    assert_transcript(impl, data, FLAG_SCOTLAND, mode="strip")


def test_live_applies_policy_without_counting(impl):
    decoder = impl.TranscriptDecoder()
    decoder.decode(f"a{RLO}".encode())
    assert decoder.live == "a<U+202E>"
    assert decoder.stats["bidi_shown"] == 0
    decoder.decode(b"", final=True)
    assert decoder.stats["bidi_shown"] == 1


@pytest.mark.parametrize("mode", ["render", "strip"])
def test_stats(impl, mode):
    decoder = impl.TranscriptDecoder(mode=mode, unicode="strict")
    decoder.decode(f"{RLO}\u2028{TAGGED}\u200b".encode(), final=True)
    stats = decoder.stats
    assert (stats["bidi_shown"], stats["separators_shown"], stats["tags_removed"], stats["invisible_shown"]) == (1, 1, 6, 1)


@pytest.mark.parametrize("mode", ["render", "strip"])
def test_no_splitlines_character_survives(impl, mode):
    data = "a\x1c\x1d\x1e\x85\u2028\u2029\x0b\x0c\rb".encode()
    out = impl.sanitize(data, mode=mode, unicode="off")
    assert out.split("\n") == out.splitlines()


# Every character a policy changes, among the scripts around it: the core copies runs of "ordinary" cells
# without a look at each (acp_ordinary: every character below U+1F000 but the policy's), so each policy
# character must still be found inside a run of Cyrillic, Devanagari, CJK, Latin-1 or ASCII text, at the
# start, in the middle (past a 16-cell block) and at the end, in both modes and every policy, as the
# fallback (apply_policy over a call's text, in Python) finds it.
# (From the policy itself, so a character it gains is tested here too; and the neighbours of its ranges.)
POLICY_CHARS = sorted({code for codes, _ in _SHOWN.values() for code in codes} | {0x200C, 0x200D, 0x2065}
                      | {0xE0001, 0xE0020, 0xE0041, 0xE007F, 0x1F3F4})
NEIGHBOURS = ["\u0416\u0438\u0437\u043d\u044c", "\u0915\u093e\u092e", "\u4e2d\u6587", "\u00e9t\u00e9", "ascii", "\u206a\u2027"]


@pytest.mark.parametrize("mode", ["render", "strip"])
def test_policy_characters_inside_any_script(both, mode):
    compiled, fallback = both
    for code in POLICY_CHARS:
        for word in NEIGHBOURS:
            text = chr(code) + word * 5 + chr(code) + word * 4 + chr(code) + "\n" + word + chr(code)
            for policy in ("standard", "strict", "off"):
                results = []
                for module in (compiled, fallback):
                    decoder = module.TranscriptDecoder(mode=mode, unicode=policy)
                    results.append((decoder.decode(text.encode()) + decoder.decode(b"", final=True), decoder.stats))
                assert results[0] == results[1], (hex(code), word, policy)


# A committed line of the unsized window is copied 16 cells at a time while every cell is ordinary
# (acp_copy_ordinary for ASCII and Latin-1, then acp_copy_common: one test for CJK and the scripts past
# U+206A, the exact one for a block of Cyrillic, Indic or Thai), four cells to a vector: each character
# at either side of each range the tests draw, at every position of three blocks, must still be found.
EDGES = [0x9F, 0xA0, 0xAC, 0xAD, 0xAE, 0x61B, 0x61C, 0x61D, 0x180D, 0x180E, 0x180F, 0x200A, 0x200B, 0x200F,
         0x2010, 0x2027, 0x2028, 0x202E, 0x202F, 0x205F, 0x2060, 0x2069, 0x206A, 0xFEFE, 0xFEFF, 0xFF00,
         0x1EFFF, 0x1F000, 0x1F3F3, 0x1F3F4, 0x1F3F5, 0x1F600, 0xDFFFF, 0xE0000, 0xE0001, 0xE007F, 0xE0080,
         0xFFFFF, 0x100000]
# (round 35: characters from U+1F000 on are ordinary but the black flag and the tags; emoji rows among them)
SCRIPTS = ["\u4e2d\u6587\ud55c\u30c6 ", "\u0416\u0438\u0437\u043d\u044c", "\u0915\u093e\u092e\u0e01", "a\u00e9\u4e2d",
           "\U0001f600\U0001f680x"]


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_edge_at_every_position_of_a_committed_line(both, script):
    compiled, fallback = both
    line = (script * 12)[:48]
    for code in EDGES:
        for position in range(len(line) + 1):
            data = (line[:position] + chr(code) + line[position:] + "\n").encode()
            for policy in ("standard", "strict"):
                for options in ({}, {"columns": 100, "rows": 3}):  # (a sized row's text: row_text's blocks)
                    results = [module.sanitize(data, unicode=policy, **options) for module in (compiled, fallback)]
                    assert results[0] == results[1], (hex(code), position, policy, options)


# A call's text goes through the core's policy 16 cells at a time where the policy leaves every cell as it
# is (_policy_c, acp_copy_policy_kept; round 34): each edge of its ranges and the joiners it passes, at every
# position of three blocks of a call's text, must still be found, with a bidi mark first so that the policy
# runs; in text below U+0100 (where only the soft hyphen is not passed by the block's first test), CJK, and
# the astral planes, whose cells OR past U+10FFFF (U+100000 with U+10000: no character, a str still made).
@pytest.mark.parametrize("script", ["ab\u00e9\u00ff\t", "\u4e2d\u6587", "\U00100000\U00010000x"])
def test_every_edge_at_every_position_of_a_calls_text(both, script):
    compiled, fallback = both
    line = (script * 48)[:48]
    for code in [*EDGES, 0x200C, 0x200D, 0x2065, 0xE007F, 0x100000]:
        for position in range(len(line) + 1):
            data = (RLO + "\n" + line[:position] + chr(code) + line[position:] + "\n" + line + "\n").encode()
            for policy in ("standard", "strict"):
                results = [module.sanitize(data, unicode=policy) for module in (compiled, fallback)]
                assert results[0] == results[1], (hex(code), position, policy)


@pytest.mark.parametrize("policy", ["standard", "strict", "off"])
def test_the_fallbacks_first_search_never_skips_a_character_the_policy_acts_on(policy):
    """The fallback passes text with no character at or above its policy's lowest one without the policy's
    search (one range, the fastest class to test): every character below that bound, searched, gives nothing,
    and the bound itself is one the policy acts on."""
    from acp_transcript import _unicode_policy

    lowest = ord(_unicode_policy._LOWEST[policy])
    below = "".join(map(chr, range(0xD800 if lowest > 0xD800 else lowest)))
    assert _unicode_policy._PATTERNS[policy].search(below) is None
    assert _unicode_policy.apply_policy(chr(lowest), policy, None) == f"<U+{lowest:04X}>"


@pytest.mark.parametrize("policy", ["standard", "strict", "off"])
def test_the_fallbacks_candidate_search_never_skips_a_character_the_policy_acts_on(policy):
    """Past that bound the fallback searches a class of a few ranges first (round 28), and the exact class
    only from its first match: every character of Unicode that the candidate class does not hold, searched
    with the exact class, gives nothing, so the candidates hold every character the policy acts on."""
    from acp_transcript import _unicode_policy

    everything = "".join(chr(code) for code in range(0x110000) if not 0xD800 <= code <= 0xDFFF)
    rest = _unicode_policy._CANDIDATES[policy].sub("", everything)
    assert len(rest) < len(everything)
    assert _unicode_policy._PATTERNS[policy].search(rest) is None


# Characters the policy acts on, dense (round 36): the core's policy pass returns the cells of a block before
# the first such character (acp_kept_prefix) and then tries no block for 16 cells, and a committed line's
# text tries no block for 16 cells after a try that found none (both tried a block at each such character
# before, retesting the same cells: a U+202E every 3 characters read 33 MB/s). Every spacing from adjacent
# to past a block, with a kept character of each str kind before, inside or at the end of the run between.
@pytest.mark.parametrize("kept", ["\u00e9", "\u4e2d", "\U00010000"])
def test_characters_the_policy_acts_on_at_every_spacing(both, kept):
    compiled, fallback = both
    for gap in range(0, 19):
        for code in (0x202E, 0x2028, 0x200B, 0xE0041):
            for where in {0, gap // 2, gap}:
                run = "x" * where + kept + "x" * (gap - where)
                data = ((run + chr(code)) * 40 + "\n" + (chr(code) + run) * 3).encode()
                for mode, options in (("render", {}), ("strip", {}), ("render", {"columns": 100, "rows": 3})):
                    for policy in ("standard", "strict"):
                        decoders = [module.TranscriptDecoder(mode=mode, unicode=policy, **options)
                                    for module in (compiled, fallback)]
                        results = [decoder.decode(data) + decoder.decode(b"", final=True) for decoder in decoders]
                        assert results[0] == results[1], (gap, hex(code), where, mode, options, policy)


# A run of one character the policy acts on (REP's copies: up to max_jump of them, each a cell) is shown,
# removed and counted as that many characters, by runs in the core since round 43: each copy and each
# marker was a turn of its loops
@pytest.mark.parametrize("char", ["\u202e", "\u2028", "\u200b", "\U000e0041", "\u2066"])
@pytest.mark.parametrize("count", [1, 2, 7, 1024])
@pytest.mark.parametrize("policy", ["standard", "strict", "off"])
def test_a_run_of_one_character_the_policy_acts_on(impl, char, count, policy):
    outputs = []
    for data in (f"a{char}\x1b[{count}bz\n{char}", f"a{char * (count + 1)}z\n{char}"):
        decoder = impl.TranscriptDecoder(unicode=policy)
        out = decoder.decode(data.encode())
        live = decoder.live
        out += decoder.decode(b"", final=True)
        stats = dict(decoder.stats)
        del stats["sequences_removed"]
        outputs.append((out, live, stats))
    assert outputs[0] == outputs[1]
    shown = {"standard": char in "\u202e\u2028\u2066", "strict": char != "\U000e0041", "off": char == "\u2028"}
    marker = f"<U+{ord(char):04X}>"
    assert outputs[0][0].count(marker) == (count + 2 if shown[policy] else 0)
