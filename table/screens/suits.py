"""The suit signs as small bitmaps: German (acorns, leaves, hearts, bells)
and French (clubs, diamonds, hearts, spades). Drawn by hand at 8×8 for the
OLED's small font; scaled up with whole pixels for bigger screens.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

_GERMAN: dict[str, str] = {
    # acorn: stem, a textured cap, the nut in outline
    "a": """
        ...##...
        .######.
        ########
        #.#.#.#.
        .#....#.
        .#....#.
        ..#..#..
        ...##...
    """,
    # leaf: a pointed leaf with its midrib and stem
    "l": """
        ....##..
        ...####.
        ..##.###
        .##.####
        .#.####.
        .#####..
        .#.##...
        #.......
    """,
    # heart
    "h": """
        .##..##.
        ########
        ########
        ########
        .######.
        ..####..
        ...##...
        ........
    """,
    # bell: the round sleigh bell of the German pack, its slot and its loop
    "b": """
        ...##...
        ..#..#..
        .######.
        ########
        #......#
        ########
        .######.
        ..####..
    """,
}

_FRENCH: dict[str, str] = {
    "c": """
        ...##...
        ..####..
        ..####..
        ##.##.##
        ########
        ##.##.##
        ...##...
        ..####..
    """,
    "d": """
        ...##...
        ..####..
        .######.
        ########
        .######.
        ..####..
        ...##...
        ........
    """,
    "h": _GERMAN["h"],
    "s": """
        ...##...
        ..####..
        .######.
        ########
        ########
        .##..##.
        ...##...
        ..####..
    """,
}

SIGN_SIZE = 8


def _rows(art: str) -> list[str]:
    return [ln.strip() for ln in art.strip().splitlines()]


@lru_cache(maxsize=64)
def suit_sign(suit: str, family: str, scale: int = 1) -> Image.Image:
    """The sign of `suit` ("a", "h", ...) for a German or French pack, as a
    mode "1" image of 8×`scale` pixels a side (lit pixels are 255)."""
    table = _FRENCH if family == "french" else _GERMAN
    if suit not in table:
        raise ValueError(f"no sign for suit {suit!r} of the {family} pack")
    rows = _rows(table[suit])
    img = Image.new("1", (SIGN_SIZE, SIGN_SIZE), 0)
    px = img.load()
    assert px is not None
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch == "#":
                px[x, y] = 255
    if scale > 1:
        img = img.resize((SIGN_SIZE * scale, SIGN_SIZE * scale), Image.Resampling.NEAREST)
    return img


def families() -> dict[str, tuple[str, ...]]:
    return {"german": tuple(_GERMAN), "french": tuple(_FRENCH)}
