"""The terminal drawing of an OLED frame shows exactly its pixels."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from hw_mocks.simulator.halfblock import frame_lines


def test_each_cell_shows_two_pixel_rows():
    img = Image.new("1", (4, 4), 0)
    img.putpixel((0, 0), 1)  # top half of cell (0, 0)
    img.putpixel((1, 1), 1)  # bottom half of cell (1, 0)
    img.putpixel((2, 0), 1)
    img.putpixel((2, 1), 1)  # full cell (2, 0)
    img.putpixel((3, 3), 1)  # bottom half of cell (3, 1)
    assert frame_lines(img) == ["▀▄█ ", "   ▄"]


def test_an_odd_height_keeps_the_last_row():
    img = Image.new("1", (2, 3), 1)
    assert frame_lines(img) == ["██", "▀▀"]


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 16), st.integers(1, 16), st.data())
def test_the_drawing_round_trips_to_the_same_pixels(w, h, data):
    bits = data.draw(st.lists(st.booleans(), min_size=w * h, max_size=w * h))
    img = Image.new("1", (w, h), 0)
    for i, on in enumerate(bits):
        if on:
            img.putpixel((i % w, i // w), 1)
    lines = frame_lines(img)
    assert len(lines) == (h + 1) // 2 and all(len(line) == w for line in lines)
    for y in range(h):
        for x in range(w):
            ch = lines[y // 2][x]
            lit = ch == "█" or (ch == "▀" and y % 2 == 0) or (ch == "▄" and y % 2 == 1)
            assert lit == bool(img.getpixel((x, y)))


def test_quadrant_cells_show_two_by_two_pixels():
    img = Image.new("1", (4, 2), 0)
    img.putpixel((0, 0), 1)
    img.putpixel((1, 1), 1)  # cell 0: top left + bottom right
    img.putpixel((2, 0), 1)
    img.putpixel((3, 0), 1)
    img.putpixel((2, 1), 1)  # cell 1: all but bottom right
    assert frame_lines(img, "quad") == ["▚▛"]


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.data())
def test_quadrant_drawing_round_trips_to_the_same_pixels(w, h, data):
    bits = data.draw(st.lists(st.booleans(), min_size=w * h, max_size=w * h))
    img = Image.new("1", (w, h), 0)
    for i, on in enumerate(bits):
        if on:
            img.putpixel((i % w, i // w), 1)
    lines = frame_lines(img, "quad")
    assert len(lines) == (h + 1) // 2 and all(len(line) == (w + 1) // 2 for line in lines)
    masks = {"▘": 8, "▝": 4, "▖": 2, "▗": 1, "▀": 12, "▄": 3, "▌": 10, "▐": 5, "▚": 9,
             "▞": 6, "▛": 14, "▜": 13, "▙": 11, "▟": 7, "█": 15, " ": 0}
    for y in range(h):
        for x in range(w):
            m = masks[lines[y // 2][x // 2]]
            bit = {(0, 0): 8, (1, 0): 4, (0, 1): 2, (1, 1): 1}[(x % 2, y % 2)]
            assert bool(m & bit) == bool(img.getpixel((x, y)))
