"""Draw a 1-bit OLED frame in a terminal with block characters.

`half` cells show two pixel rows each (the upper one as the glyph's top half,
the lower one as its bottom half): a 128x64 screen needs 128x32 cells.
`quad` cells show 2x2 pixels each with the quadrant characters, for small
terminals: 64x16 cells.
"""

from __future__ import annotations

from PIL import Image

# (top lit, bottom lit) -> character
_GLYPHS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}


# (top left, top right, bottom left, bottom right) -> character
_QUADS = {
    (0, 0, 0, 0): " ", (1, 0, 0, 0): "▘", (0, 1, 0, 0): "▝", (0, 0, 1, 0): "▖",
    (0, 0, 0, 1): "▗", (1, 1, 0, 0): "▀", (0, 0, 1, 1): "▄", (1, 0, 1, 0): "▌",
    (0, 1, 0, 1): "▐", (1, 0, 0, 1): "▚", (0, 1, 1, 0): "▞", (1, 1, 1, 0): "▛",
    (1, 1, 0, 1): "▜", (1, 0, 1, 1): "▙", (0, 1, 1, 1): "▟", (1, 1, 1, 1): "█",
}


def frame_lines(image: Image.Image, cell: str = "half") -> list[str]:
    """The frame as text lines: one per two pixel rows (`half`), or per two
    rows of 2x2 blocks (`quad`)."""
    if cell == "quad":
        return _quad_lines(image)
    if cell != "half":
        raise ValueError(f"cell must be 'half' or 'quad', not {cell!r}")
    img = image.convert("1")
    width, height = img.size
    px = img.load()
    assert px is not None  # an image in memory is loaded
    lines = []
    for y in range(0, height, 2):
        row = []
        for x in range(width):
            top = px[x, y] != 0
            bottom = y + 1 < height and px[x, y + 1] != 0
            row.append(_GLYPHS[(top, bottom)])
        lines.append("".join(row))
    return lines


def _quad_lines(image: Image.Image) -> list[str]:
    img = image.convert("1")
    width, height = img.size
    px = img.load()
    assert px is not None  # an image in memory is loaded

    def lit(x: int, y: int) -> int:
        return int(x < width and y < height and px[x, y] != 0)

    return ["".join(_QUADS[(lit(x, y), lit(x + 1, y), lit(x, y + 1), lit(x + 1, y + 1))]
                    for x in range(0, width, 2))
            for y in range(0, height, 2)]


def frame_text(image: Image.Image, cell: str = "half") -> str:
    return "\n".join(frame_lines(image, cell))
