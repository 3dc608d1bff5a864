"""Draw a 1-bit OLED frame in a terminal with half-block characters.

Each character cell shows two pixel rows: the upper one as the glyph's top half
and the lower one as its bottom half, so a 128x64 screen needs 128x32 cells.
"""

from __future__ import annotations

from PIL import Image

# (top lit, bottom lit) -> character
_GLYPHS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}


def frame_lines(image: Image.Image) -> list[str]:
    """The frame as text lines, one per two pixel rows."""
    img = image.convert("1")
    width, height = img.size
    px = img.load()
    lines = []
    for y in range(0, height, 2):
        row = []
        for x in range(width):
            top = px[x, y] != 0
            bottom = y + 1 < height and px[x, y + 1] != 0
            row.append(_GLYPHS[(top, bottom)])
        lines.append("".join(row))
    return lines


def frame_text(image: Image.Image) -> str:
    return "\n".join(frame_lines(image))
