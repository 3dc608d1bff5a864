"""Idle time prepares the screens: a refusal's error screen, the first time
its sentence is shown, is composed from glyphs and kerning learned while the
table waited (`Controller.idle`), not laid out and drawn by FreeType, and it
is pixel for pixel the golden image."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops

from table.ports import DEALER
from table.screens import glyphs as g
from table.screens import render as r
from tests.table.test_controller_filicau import HANDS
from tests.table.test_screens_glyphs import count_freetype, same
from tests.table.test_screens_golden import rig_for

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture
def fresh_caches(monkeypatch):
    """Glyph and text caches that know nothing yet (as in a table just started)."""
    monkeypatch.setattr(g, "_CACHES", [])
    g.glyphs.cache_clear()
    r.rendered_text.cache_clear()
    yield
    g.glyphs.cache_clear()
    r.rendered_text.cache_clear()


def pairs_laid_out(monkeypatch) -> list[tuple[str, str]]:
    """From now on, every kerning pair FreeType is asked to lay out."""
    laid: list[tuple[str, str]] = []
    real = g.Glyphs.kern

    def kern(self: g.Glyphs, a: str, b: str) -> int:
        if not self.knows_pair(a, b):
            laid.append((a, b))
        return real(self, a, b)

    monkeypatch.setattr(g.Glyphs, "kern", kern)
    return laid


def to_the_first_play(rig) -> None:
    rig.press("ok")
    for seat, hand in enumerate(HANDS):
        for code in hand:
            rig.tap(seat, code)
    rig.tap(DEALER, "9b")
    rig.tap(0, "Kb")


@pytest.mark.parametrize("language", ["en", "ro", "hu"])
def test_a_refusal_first_shown_after_idle_time_is_composed_from_what_idle_time_learned(
        language, fresh_caches, monkeypatch):
    rig = rig_for(language, (128, 64))
    try:
        to_the_first_play(rig)
        pieces = 0
        while rig.ctl.idle():
            pieces += 1
        assert pieces > 50               # the language's glyphs and pairs, piece by piece
        assert rig.ctl.idle() is False   # nothing left: the thread sleeps on its queue
        drawn, _ = count_freetype(monkeypatch)
        laid = pairs_laid_out(monkeypatch)
        rig.tap(1, "8a")                 # not following suit: refused
        assert type(rig.ctl.view).__name__ == "ErrorView"
        assert drawn == []               # no text drawn by FreeType
        assert laid == []                # no kerning pair laid out
        golden = Image.open(GOLDEN / f"error_{language}.png").convert("1")
        shown = rig.display.image.convert("1")
        assert ImageChops.difference(shown, golden).getbbox() is None
    finally:
        rig.close()


def test_without_idle_time_the_same_refusal_is_drawn_by_freetype_and_looks_the_same(
        fresh_caches, monkeypatch):
    """The other side: a table given no idle time draws the new sentence
    with FreeType (slower on a Pi), to the same pixels."""
    rig = rig_for("en", (128, 64))
    try:
        to_the_first_play(rig)
        drawn, _ = count_freetype(monkeypatch)
        rig.tap(1, "8a")
        assert drawn                     # new texts drawn whole
        golden = Image.open(GOLDEN / "error_en.png").convert("1")
        assert ImageChops.difference(rig.display.image.convert("1"), golden).getbbox() is None
    finally:
        rig.close()


def test_idle_time_prepares_again_when_the_language_changes(fresh_caches):
    rig = rig_for("en", (128, 64))
    try:
        while rig.ctl.idle():
            pass
        big = g.glyphs(r.font(12, "sans"))
        assert all(big.knows_glyph(ch) for ch in map(chr, range(0x20, 0x7F)))
        assert not big.knows_glyph("ș")
        rig.press("menu")                       # the setup: game, options, knowledge, language
        rig.press("ok")
        rig.press("ok")
        rig.press("ok")
        rig.press("ok")
        for _ in range(3):
            if rig.ctl.model.lang == "ro":
                break
            rig.press("menu")
        assert rig.ctl.model.lang == "ro"
        while rig.ctl.idle():
            pass
        assert big.knows_glyph("ș") and big.knows_pair("ș", "i")
    finally:
        rig.close()


def test_templates_hole_neighbours_are_paired_with_the_digits_and_every_texts_ends(
        fresh_caches, monkeypatch):
    size = (128, 64)
    for _ in r.prepare_glyphs(size, ["ab{x}cd", "Zq", "7"], chunk=1):
        pass
    small = g.glyphs(r.font(9, "sans"))
    assert {"a", "b", "c", "d", "Z", "q", "fi"} <= set(small.pending)
    want = {("a", "b"), ("c", "d"), ("Z", "q"), ("b", "7"), ("7", "c"), ("b", "Z"),
            ("q", "c"), ("b", "d")}
    assert want <= set(small.pending_pairs)
    assert not {("q", "Z"), ("d", "a"), ("c", "b")} & set(small.pending_pairs)  # never neighbours
    while r.learn_glyphs(1):
        pass
    laid = pairs_laid_out(monkeypatch)
    drawn, real = count_freetype(monkeypatch)
    for text in ("ab7cd", "abZqcd", "Zq"):
        assert same(small.compose(text), real(r.font(9), text))
    assert laid == [] and drawn == []
