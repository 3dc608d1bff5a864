"""The Display port's contract, held by the fake (luma's dummy device), the
real OLED adapter on luma's SSD1306 and SH1106 classes (the bytes they send
replayed into a model of the panel's RAM), and the table without a screen.

What the controller relies on: `size` is the picture it must draw; a mode
"1" picture of that size ends up on the screen exactly, whatever came
before; anything else is refused with a ValueError and changes nothing."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw

from tests.contract.harness import DisplayHarness

KINDS = ["fake", "ssd1306", "sh1106", "none"]


@pytest.fixture(params=KINDS)
def display(request):
    h = DisplayHarness(request.param)
    yield h
    h.close()


def picture(rng, size=(128, 64)):
    img = Image.new("1", size, 0)
    d = ImageDraw.Draw(img)
    for _ in range(rng.randrange(1, 6)):
        x0, y0 = rng.randrange(size[0]), rng.randrange(size[1])
        x1, y1 = rng.randrange(x0, size[0]), rng.randrange(y0, size[1])
        if rng.random() < 0.5:
            d.rectangle((x0, y0, x1, y1), fill=1)
        else:
            d.text((x0, y0), rng.choice(["Filicău", "OK", "10", "Seat 3"]), fill=1)
    return img


def rows(img):
    px = img.load()
    return [[1 if px[x, y] else 0 for x in range(img.size[0])] for y in range(img.size[1])]


def test_the_size_is_the_picture_to_draw(display):
    assert tuple(display.port.size) == (128, 64)


@pytest.mark.parametrize("kind", KINDS)
def test_a_short_screen_says_so(kind):
    h = DisplayHarness(kind, (128, 32))
    try:
        assert tuple(h.port.size) == (128, 32)
        img = picture(random.Random(1), (128, 32))
        h.port.show(img)
        assert h.shown() == rows(img)
    finally:
        h.close()


def test_every_picture_shown_is_what_the_screen_shows(display):
    rng = random.Random(7)
    previous = None
    for _ in range(12):
        img = picture(rng)
        if previous is not None and rng.random() < 0.3:
            img = previous.copy()          # the same frame again
            img.putpixel((rng.randrange(128), rng.randrange(64)), 1)
        display.port.show(img)
        assert display.shown() == rows(img)
        previous = img


def test_wrong_pictures_are_refused_and_change_nothing(display):
    good = picture(random.Random(3))
    display.port.show(good)
    for bad in (Image.new("L", (128, 64), 255), Image.new("1", (128, 32), 1),
                Image.new("1", (64, 128), 1)):
        with pytest.raises(ValueError):
            display.port.show(bad)
        assert display.shown() == rows(good)
