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
