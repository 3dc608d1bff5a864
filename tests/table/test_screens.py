"""Screens: pure renderers at every size, the suit signs, the bundled font's
diacritics, and the gettext catalogs (complete, compiled by the pure-Python
msgfmt into real .mo data)."""

from __future__ import annotations

import gettext
import io
import re
import string
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from table.screens import i18n
from table.screens.render import SIZES, Layout, font, render
from table.screens.suits import suit_sign
from table.screens.view import (
    CardFace,
    ChoiceView,
    EnrollView,
    ErrorView,
    Header,
    MenuView,
    PlayView,
    ProgressView,
    SeatCell,
    TeamLine,
    TextView,
)

ROOT = Path(__file__).resolve().parents[2]

VIEWS = [
    PlayView(Header("Filicău", "h", "german", "T3"),
             tuple(SeatCell(str(i + 1), CardFace.of(c, "german") if c else None, turn=i == 2)
                   for i, c in enumerate(["Kh", "Th", None, None])),
             TeamLine(("1+3", "2+4"), (2, 3), "1+3 masters, 2+4 slaves"), "Seat 3 to play"),
    PlayView(Header("Filkó 6", "l", "german", "T1"),
             tuple(SeatCell(str(i + 1)) for i in range(6)), None, "", "Reader 5 offline"),
    ProgressView(Header("Sueca", None, "french", "Hand 1"), "Each player taps their cards",
                 (("1", 10, 10), ("2", 3, 10), ("3", 0, 10), ("4", 9, 10)), 1),
    ChoiceView(Header("Filcău", None, "german", "Seat 1"), "Cut or knock?", ("cut", "knock"), 1),
    TextView(Header("Fildinsky", "s", "french", "Hand 2"), ("Seat 1: 250 · Seat 2: 90",),
             "OK next", (CardFace.of("Ts", "french"),)),
    MenuView("Game", tuple(f"Game {i}" for i in range(12)), 11, "MENU next · OK choose"),
    EnrollView("1: German 32", CardFace.of("Ab", "german"), "Ace of bells (Ab)", 31, 32,
               "Tap this card on any reader", "UNDO take back"),
    ErrorView("Seat 2", "Seat 2 must follow suit: hearts. " * 4),
]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("view", VIEWS, ids=lambda v: type(v).__name__)
def test_every_view_renders_at_every_size(view, size):
    img = render(view, size)
    assert img.mode == "1" and img.size == size
    assert img.getbbox() is not None                # something is drawn
    assert render(view, size).tobytes() == img.tobytes()      # a pure function


def test_an_error_is_drawn_in_inverse_video():
    img = render(ErrorView("Seat 2", "Not your turn."), (128, 64)).convert("L")
    lit = sum(1 for p in img.get_flattened_data() if p)
    assert lit > 128 * 64 // 2


def test_the_suit_signs_are_all_different_and_scale_by_whole_pixels():
    signs = {(f, s): suit_sign(s, f).tobytes() for f, ss in
             (("german", "alhb"), ("french", "cdhs")) for s in ss}
    assert len(set(signs.values())) == 7           # hearts is the same sign in both packs
    big = suit_sign("b", "german", 2)
    assert big.size == (16, 16)
    assert big.resize((8, 8), Image.Resampling.NEAREST).tobytes() == \
        suit_sign("b", "german").tobytes()
    with pytest.raises(ValueError, match="no sign for suit 'x'"):
        suit_sign("x", "german")


@pytest.mark.parametrize("layout", [Layout.for_size(s) for s in SIZES],
                         ids=lambda lay: f"{lay.face}{lay.font_size}")
@pytest.mark.parametrize("pair", ["aă", "aâ", "iî", "sș", "tț", "oő", "uű", "oö", "eé",
                                  "AĂ", "SȘ", "OŐ"])
def test_the_font_draws_every_romanian_and_hungarian_letter(pair, layout):
    f = font(layout.font_size, layout.face)

    def draw(ch):
        img = Image.new("1", (24, 24))
        d = ImageDraw.Draw(img)
        d.fontmode = "1"
        d.text((2, 4), ch, font=f, fill=255)
        return img
    plain, accented = (draw(c) for c in pair)
    assert ImageChops.difference(plain, accented).getbbox() is not None
    assert f.getmask(pair[1]).getbbox() is not None


def presenter_texts():
    source = "".join((ROOT / path).read_text(encoding="utf-8") for path in (
        "table/controller/present.py", "table/screens/starting.py"))
    return sorted({eval(m) for m in re.findall(r'_\(("(?:[^"\\]|\\.)*")\)', source)})


def placeholders(text):
    return sorted(f for _, f, _, _ in string.Formatter().parse(text) if f)


@pytest.mark.parametrize("lang", ["ro", "hu"])
def test_every_screen_text_is_translated_with_the_same_placeholders(lang):
    catalog = i18n.parse_po(i18n.po_path(lang).read_text(encoding="utf-8"))
    texts = presenter_texts()
    assert len(texts) > 40
    missing = [t for t in texts if t not in catalog]
    assert not missing
    unused = [k for k in catalog if k and k not in texts]
    assert not unused
    for t in texts:
        assert placeholders(catalog[t]) == placeholders(t), t


def test_the_compiled_catalog_is_real_gettext_data():
    mo = i18n.compile_po({"Hand {n}": "Partida {n}", "even": "egyenlők"})
    assert mo[:4] == b"\xde\x12\x04\x95"            # the little-endian .mo magic
    t = gettext.GNUTranslations(io.BytesIO(mo))
    assert t.gettext("even") == "egyenlők"
    assert t.gettext("Hand {n}") == "Partida {n}"
    assert t.gettext("untranslated") == "untranslated"
    assert i18n.translator("hu")("Take back?") == "Visszavonja?"
    assert i18n.translator("en")("Take back?") == "Take back?"


def test_the_po_reader_skips_fuzzy_and_empty_entries_and_names_bad_lines():
    text = "\n".join([
        'msgid ""', 'msgstr "Content-Type: text/plain; charset=UTF-8\\n"', "",
        "#, fuzzy", 'msgid "Back"', 'msgstr "Înapoi?"', "",
        'msgid "Game"', 'msgstr ""', "",
        'msgid "Language"', 'msgstr "Limba"'])
    assert i18n.parse_po(text) == {
        "": "Content-Type: text/plain; charset=UTF-8\n", "Language": "Limba"}
    with pytest.raises(i18n.PoError, match="x.po:2"):
        i18n.parse_po('msgid "a"\nmsgctxt "b"\n', "x.po")
    with pytest.raises(i18n.PoError, match="msgstr without msgid"):
        i18n.parse_po('msgstr "a"\n')
    with pytest.raises(ValueError, match="unknown language"):
        i18n.translations("de")
