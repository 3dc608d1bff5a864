"""A refusal on the OLED is legible at a glance: the rule in a large font with
the suit's own icon, Romanian and Hungarian accents drawn apart from their
letters; and the cards a player may play, for the simulator to highlight."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from engine.cards import cards
from engine.messages import suit_sign
from table.controller.present import legal_cards, sign_parts
from table.screens.render import _RULE_FONT, font, render
from table.screens.suits import SIGN_SIZE
from table.screens.suits import suit_sign as icon
from table.screens.view import CardFace, ErrorView, Sign
from tests.table.test_controller_filicau import HANDS, learn, make_rig


def find(image: Image.Image, pattern: Image.Image, ink: int) -> list[tuple[int, int]]:
    """Where `pattern`'s lit pixels are all drawn in `ink` and its dark ones are not."""
    px = image.convert("L").load()
    pat = pattern.load()
    w, h = pattern.size
    hits = []
    for y in range(image.size[1] - h + 1):
        for x in range(image.size[0] - w + 1):
            if all((px[x + i, y + j] == ink) == bool(pat[i, j])
                   for i in range(w) for j in range(h)):
                hits.append((x, y))
    return hits


def test_the_rule_is_drawn_large_with_the_suits_icon_in_the_line():
    view = ErrorView("Seat 2", "Seat 2 must follow suit: hearts.",
                     ("Follow ", Sign("h", "german"), " hearts"), CardFace("8", "a", "german"))
    image = render(view, (128, 64))
    ink = 0                                         # inverse video: dark ink on a lit screen
    hearts = find(image, icon("h", "german"), ink)
    acorns = find(image, icon("a", "german"), ink)
    # the heart sits in the rule's line, under the title; the refused card's acorn
    # is at the top right, next to who refused it
    assert any(y > 12 and x < 80 for x, y in hearts), hearts
    assert any(y < 12 and x > 100 for x, y in acorns), acorns
    # the rule's letters are larger than the sentence's: its lit rows are taller
    rows = [y for y in range(13, 28) if any(image.getpixel((x, y)) == ink for x in range(1, 40))]
    assert rows and rows[-1] - rows[0] >= 9


def test_sign_parts_turn_the_catalogues_signs_into_icons():
    text = f"Trump {suit_sign('b')}: you have no {suit_sign('h')} hearts"
    assert sign_parts(text, "german") == ("Trump ", Sign("b", "german"), ": you have no ",
                                          Sign("h", "german"), " hearts")
    assert sign_parts("10\u2666", "french") == ("10", Sign("d", "french"))


def _glyph(ch: str, size: int) -> Image.Image:
    img = Image.new("1", (size * 2, size * 2), 0)
    d = ImageDraw.Draw(img)
    d.fontmode = "1"
    d.text((2, 2), ch, font=font(size), fill=1)
    return img


def _bands(img: Image.Image) -> int:
    """Groups of lit rows separated by empty rows: a letter with its accent apart is 2."""
    lit = [any(img.getpixel((x, y)) for x in range(img.size[0])) for y in range(img.size[1])]
    return sum(1 for i, v in enumerate(lit) if v and (i == 0 or not lit[i - 1]))


@pytest.mark.parametrize("ch", ["ă", "â", "î", "ș", "ț", "ő", "ű", "á", "Ă", "Î", "Ș", "Ö", "Ü"])
def test_accents_stand_apart_from_their_letters_in_the_rules_font(ch):
    size = _RULE_FONT[9].font_size            # the 128x64 panel's rule font
    assert _bands(_glyph(ch, size)) >= 2, f"{ch}: the accent touches its letter"


@pytest.mark.parametrize(("a", "b"), [("ő", "ö"), ("ű", "ü"), ("ă", "â"), ("ș", "ş"),
                                      ("Ő", "Ö"), ("Ű", "Ü")])
def test_letters_that_differ_only_by_their_accent_look_different(a, b):
    # (capital Ő and Ű: at 12 px their double acute touches the letter, but
    # still differs from the diaeresis of Ö and Ü)
    size = _RULE_FONT[9].font_size
    assert _glyph(a, size).tobytes() != _glyph(b, size).tobytes()


def test_the_german_icons_are_eight_pixels_and_all_different():
    shapes = {icon(s, "german").tobytes() for s in "alhb"}
    assert len(shapes) == 4 and icon("a", "german").size == (SIGN_SIZE, SIGN_SIZE)


@pytest.mark.parametrize("knowledge", ["scan", "open"])
def test_the_legal_cards_of_the_player_to_play(knowledge):
    rig = make_rig(knowledge)
    rig.press("ok")
    learn(rig, knowledge)
    rig.tap(0, "Kb")                         # bells are trumps: seat 2 must play a trump
    hand = rig.session.hand()
    held = cards(HANDS[1])
    trumps = frozenset(cards(["Ub", "Ol", "Ab"]))
    if knowledge == "scan":                  # the table knows the hand
        assert legal_cards(hand, 1) == trumps
    else:                                    # only the player (the simulator) knows it
        assert legal_cards(hand, 1) == frozenset()
        assert legal_cards(hand, 1, cards(["7h", "8a"])) == frozenset(cards(["7h", "8a"]))
    assert legal_cards(hand, 1, held) == trumps
    assert legal_cards(hand, 2, cards(HANDS[2])) == frozenset()     # not seat 3's turn
    rig.close()
