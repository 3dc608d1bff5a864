"""A text never drawn before is composed from cached glyphs
(`table.screens.glyphs`): the composed pixels must be exactly those FreeType
draws for the whole string, for every text the screens draw in whole hands
of every game in every language and screen size (refusals included), and
for random strings over the screens' alphabets, in every font the screens
use. Texts the glyph model does not cover are drawn by FreeType whole."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import ImageFont

from bench.refusals import refusal_for
from engine.games import game_ids
from hw_mocks.rig import Rig
from table.screens import glyphs as g
from table.screens import render as r
from table.settings import TableSettings

#: Every (size, face) a screen draws text in: the layouts' and the error
#: screen's large rule fonts.
FONTS = sorted({(lay.font_size, lay.face)
                for lay in [r.Layout.for_size(s) for s in r.SIZES] + list(r._RULE_FONT.values())})

# the players' languages' letters, digits, punctuation and signs the screens
# use, ligature makers (f) included
ALPHABET = ("aăâbcdeéfghiîíjklmnoóöőpqrsștțuúüűvwxyzAĂÂÁBCDEÉFGHIÎÍJKLMNOÓÖŐPQRSȘTȚUÚÜŰVWXYZ"
            "0123456789 :/-…!?.,()'\"%+=·–—„”«»[]#*&")


def same(a: g.Rendered | None, b: g.Rendered | None) -> bool:
    if a is None or b is None:
        return a is b
    return (a[0], a[1], a[2].size, a[2].tobytes()) == (b[0], b[1], b[2].size, b[2].tobytes())


def freetype(size: int, face: str, text: str) -> g.Rendered | None:
    return g.freetype_text(r.font(size, face), text)


Draw = Callable[[ImageFont.FreeTypeFont, str], "g.Rendered | None"]


def count_freetype(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], Draw]:
    """From now on, every text FreeType is asked to draw is recorded: (the
    texts, FreeType's own drawing, which records nothing)."""
    calls: list[str] = []
    real = g.freetype_text

    def counting(f: ImageFont.FreeTypeFont, t: str) -> g.Rendered | None:
        calls.append(t)
        return real(f, t)

    monkeypatch.setattr(g, "freetype_text", counting)
    return calls, real


def composed(size: int, face: str, text: str) -> g.Rendered | None:
    """Composed with every glyph learned first (not drawn whole instead)."""
    return g.glyphs(r.font(size, face)).compose(text, learn=len(text))


@pytest.fixture
def drawn_texts(monkeypatch: pytest.MonkeyPatch) -> set[tuple[int, str, str]]:
    """Every (size, text, face) the screens draw while the test runs."""
    seen: set[tuple[int, str, str]] = set()
    real = r.rendered_text

    def recording(size: int, text: str, face: str = "sans") -> g.Rendered | None:
        seen.add((size, text, face))
        return real(size, text, face)

    monkeypatch.setattr(r, "rendered_text", recording)
    return seen


def play_a_hand_with_refusals(rig: Rig, seed: int) -> None:
    rng = random.Random(seed)
    rig.press("ok")
    bot = rig.bot(rng)
    rig.learn_hands(bot)
    while (move := bot.next_move()) is not None:
        wrong = refusal_for(bot, rng) if rng.random() < 0.3 else None
        if wrong is not None:
            rig.do(wrong)               # an error screen naming seat and card
        rig.do(move)
    rig.press("menu")                   # the match so far
    rig.press("undo")


@pytest.mark.parametrize("game", game_ids())
def test_every_text_of_whole_hands_composes_to_freetypes_pixels(game, drawn_texts):
    for language in ("ro", "hu", "en"):
        for size in r.SIZES:
            rig = Rig(TableSettings(game=game, language=language, screen=size), None, seats=6)
            try:
                play_a_hand_with_refusals(rig, seed=len(drawn_texts))
            finally:
                rig.close()
    assert len(drawn_texts) > 100
    fonts = {(s, f) for s, _, f in drawn_texts}
    assert {(9, "sans"), (8, "sans"), (14, "condensed")} <= fonts
    uncovered = sorted(t for _, t, _ in drawn_texts if not g.COMPOSABLE.issuperset(t))
    assert uncovered == []              # every text the screens draw is composed
    wrong = [(s, t, f) for s, t, f in sorted(drawn_texts)
             if not same(composed(s, f, t), freetype(s, f, t))]
    assert wrong == []


@settings(max_examples=300, deadline=None)
@given(font=st.sampled_from(FONTS), text=st.text(alphabet=ALPHABET, max_size=40))
def test_random_texts_compose_to_freetypes_pixels(font, text):
    size, face = font
    assert same(composed(size, face, text), freetype(size, face, text)), (font, text)


@pytest.mark.parametrize(("size", "face"), FONTS)
def test_every_composable_character_alone_and_in_pairs(size, face):
    """Each composable character the fonts have, alone and next to a few
    neighbours of every shape (kerning, bearings, accents above and below)."""
    f = r.font(size, face)
    chars = [c for c in sorted(g.COMPOSABLE) if ord(c) < 0x250 or c in "…–—„”‘’“•"]
    for ch in chars:
        assert same(composed(size, face, ch), freetype(size, face, ch)), ch
        for other in "AVTjyfȘŐ_.":
            for text in (ch + other, other + ch):
                assert same(g.glyphs(f).compose(text, learn=2), g.freetype_text(f, text)), text


def ligatures_in(path: Path) -> set[str]:
    """The sequences of characters the font's GSUB "liga" feature joins."""
    font = TTFont(str(path))
    names: dict[str, str] = {}
    for code, name in font.getBestCmap().items():
        names.setdefault(name, chr(code))
    table = font["GSUB"].table
    found: set[str] = set()
    for record in table.FeatureList.FeatureRecord:
        if record.FeatureTag != "liga":
            continue
        for index in record.Feature.LookupListIndex:
            lookup = table.LookupList.Lookup[index]
            for sub in lookup.SubTable:
                kind = lookup.LookupType
                if kind == 7:
                    sub, kind = sub.ExtSubTable, sub.ExtSubTable.LookupType
                if kind != 4:
                    continue
                for first, ligatures in sub.ligatures.items():
                    for lig in ligatures:
                        glyph_names = [first, *lig.Component]
                        if all(n in names for n in glyph_names):
                            found.add("".join(names[n] for n in glyph_names))
    return found


@pytest.mark.parametrize("face", sorted(r.FACES))
def test_the_ligatures_of_composable_characters_are_all_known(face):
    found = {s for s in ligatures_in(r.FONTS / r.FACES[face]) if g.COMPOSABLE.issuperset(s)}
    assert found == set(g.LIGATURES)
    # the longest first, as HarfBuzz takes them
    assert g.units("ffi ffl fff fi fl f") == ["ffi", " ", "ffl", " ", "ff", "f", " ", "fi",
                                               " ", "fl", " ", "f"]


@pytest.mark.parametrize("text", ["s\u0326i t\u0326", "Ana\u0301", "שלום", "مرحبا", "a\u200db",
                                  "ΑΒΓ", "☺ ♠", "x\ty"])
def test_texts_outside_the_model_are_drawn_by_freetype_whole(text):
    """Combining marks, right-to-left and other scripts, joiners, controls:
    FreeType draws these texts whole (the same pixels, by definition)."""
    assert not g.COMPOSABLE.issuperset(text)
    for size, face in FONTS:
        assert same(composed(size, face, text), freetype(size, face, text))


def test_a_layout_the_model_does_not_predict_is_drawn_by_freetype(monkeypatch):
    """When the pen positions summed from the glyphs' advances and pair
    kerning disagree with FreeType's layout of the whole text, the text is
    drawn by FreeType, not composed wrongly."""
    cache = g.Glyphs(r.font(9))
    text = "Tava AVAT"
    assert same(cache.compose(text, learn=9), freetype(9, "sans", text))
    monkeypatch.setattr(cache, "_kern", {("A", "V"): 0, ("V", "A"): 0, ("T", "a"): 0,
                                         ("a", "v"): 0, ("v", "a"): 0, ("V", "T"): 0,
                                         ("a", " "): 0, (" ", "A"): 0, ("A", "T"): 0})
    calls, _ = count_freetype(monkeypatch)
    assert same(cache.compose(text), freetype(9, "sans", text))
    assert text in calls


def test_a_new_text_of_known_glyphs_asks_freetype_to_draw_nothing(monkeypatch):
    cache = g.Glyphs(r.font(9))
    cache.compose("Locul 3 a jucat 10 de roșu; trebuia să răspundă", learn=99)
    calls, real = count_freetype(monkeypatch)
    text = "Locul 1 a jucat 3 de roșu; trebuia să răspundă"
    got = cache.compose(text)
    assert calls == []
    assert same(got, real(r.font(9), text))


def test_a_text_of_many_new_glyphs_is_drawn_whole_and_its_glyphs_learned_later(monkeypatch):
    """Learning a glyph costs about what drawing a short text does: a text
    with more than one new glyph is drawn by FreeType whole (as fast as
    before the cache), its glyphs wait, and idle time learns them."""
    cache = g.Glyphs(r.font(9))
    monkeypatch.setattr(g, "_CACHES", [cache])
    calls, real = count_freetype(monkeypatch)
    text = "Eva: 7 de verde"
    assert same(cache.compose(text), real(r.font(9), text))
    assert calls == [text]
    assert list(cache.pending) == list(dict.fromkeys(text))
    assert r.learn_glyphs(3) is True            # three learned, more wait
    assert len(cache.pending) == len(set(text)) - 3
    while r.learn_glyphs(5):
        pass
    assert not cache.pending
    calls.clear()
    other = "Eva: 7 de verde!"                  # one new glyph (!), if a text may teach one
    assert same(cache.compose(other, learn=1), real(r.font(9), other))
    assert other not in calls
    calls.clear()
    assert same(cache.compose("verde"), real(r.font(9), "verde"))
    assert calls == []


def test_the_controller_thread_learns_waiting_glyphs_while_idle(monkeypatch):
    import time

    cache = g.glyphs(r.font(9))
    text = "ǄǅǆǇǈǉ"                       # letters no screen of these tests draws
    cache.compose(text)                 # drawn whole: its glyphs wait
    assert set(text) <= set(cache.pending)
    rig = Rig(TableSettings(), None, seats=4)
    try:
        rig.ctl.start()
        deadline = time.monotonic() + 10
        while cache.pending and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not cache.pending
        calls, real = count_freetype(monkeypatch)
        assert same(cache.compose("ǇǄ ǉǆ"), real(r.font(9), "ǇǄ ǉǆ"))
        assert calls == []
    finally:
        rig.ctl.stop()
        rig.close()
