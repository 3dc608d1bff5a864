"""On the OLED's few pixels a letter, players must tell the digit 0 (scores)
from the letter O (the rank Over of the German pack) and from D, on every
screen size: the letter O has round corners where D has square ones, and the
digit zero has a stroke across its hole where the O is empty."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageDraw

from table.screens.render import SIZES, Canvas, render
from table.screens.view import CardFace, Header, PlayView, SeatCell, TeamLine


def glyph(size, ch):
    c = Canvas(size)
    c.text(2, 0, ch)
    return c.image.crop(c.image.getbbox())


def corners(img):
    w, h = img.size
    px = img.load()
    return [bool(px[x, y]) for x, y in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1))]


def holes(img):
    """How many separate dark regions the glyph's outline encloses: one for
    an O; a zero with a stroke across its hole has it cut in two."""
    w, h = img.size
    src = img.load()
    px = {(x, y): bool(src[x, y]) for x in range(w) for y in range(h)}
    seen = set()

    def fill(start):
        todo, region = [start], {start}
        while todo:
            x, y = todo.pop()
            for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if q in px and not px[q] and q not in region:
                    region.add(q)
                    todo.append(q)
        return region

    for p in px:                                # the outside: dark pixels on the border
        if not px[p] and p not in seen and (p[0] in (0, w - 1) or p[1] in (0, h - 1)):
            seen |= fill(p)
    count = 0
    for p in px:
        if not px[p] and p not in seen:
            seen |= fill(p)
            count += 1
    return count


@pytest.mark.parametrize("size", SIZES)
def test_o_is_round_d_is_square_and_zero_is_slashed(size):
    o, d, zero = glyph(size, "O"), glyph(size, "D"), glyph(size, "0")
    assert corners(o) == [False] * 4            # round: no corner pixel
    assert corners(d)[0] and corners(d)[2]      # D: a straight, square left side
    assert holes(o) == 1 and holes(zero) >= 2
    for a, b in ((o, d), (o, zero), (d, zero)):
        same = a.size == b.size and ImageChops.difference(a, b).getbbox() is None
        assert not same


@pytest.mark.parametrize("size", SIZES)
def test_every_zero_in_a_text_is_slashed_and_nothing_else(size):
    c = Canvas(size)
    text = "OK 10 · 2+0:30 UNDO"
    c.text(0, 0, text)
    plain = Image.new("1", size, 0)
    draw = ImageDraw.Draw(plain)
    draw.fontmode = "1"
    draw.text((0, 0), text, font=c.font, fill=255)
    extra = ImageChops.difference(c.image, plain)
    # the slashes are the only difference, one inside each of the three zeros
    boxes = []
    for i, ch in enumerate(text):
        if ch == "0":
            left = round(c.font.getlength(text[:i + 1]) - c.font.getlength("0"))
            bbox = c.font.getbbox("0")
            boxes.append((left + bbox[0], bbox[1], left + bbox[2], bbox[3]))
    px = extra.load()
    added = [(x, y) for x in range(size[0]) for y in range(size[1]) if px[x, y]]
    assert added
    for x, y in added:
        assert any(x0 < x < x1 - 1 and y0 < y < y1 - 1 for x0, y0, x1, y1 in boxes)
    for x0, y0, x1, y1 in boxes:
        assert any(x0 <= x < x1 and y0 <= y < y1 for x, y in added)


def test_a_played_over_and_a_score_of_zero_look_different():
    view = PlayView(Header("Filicău", trump="a", family="german", detail="T1"),
                    (SeatCell("1", CardFace("O", "a", "german")), SeatCell("2", None, turn=True),
                     SeatCell("3", None), SeatCell("4", None)),
                    TeamLine(("1+3", "2+4"), (0, 0), ""), "")
    img = render(view, (128, 64))
    # the rank O after "1:" and the score 0 after "1+3: " as the screen draws them
    c = Canvas((128, 64))
    rank_x = 5 + c.text_width("1:") + 2
    score_x = 1 + c.text_width("1+3: ")
    o = img.crop((rank_x, 13, rank_x + c.text_width("O"), 25))
    zero = img.crop((score_x, 37, score_x + c.text_width("0"), 49))
    o, zero = o.crop(o.getbbox()), zero.crop(zero.getbbox())
    assert corners(o) == [False] * 4 and holes(o) == 1
    assert holes(zero) >= 2
