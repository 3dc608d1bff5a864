"""The first frame of `cardtable run` ("Starting…"), before anything else loads.

On a Pi Zero 2 W every module costs about 13 times what it costs on a PC, so
the table puts "Starting…" on the screen before it loads what that frame
does not need: the configuration's checks, the rules, the controller, the
state machine, SQLite, the GPIO library, luma and Pillow.

The frame itself is drawn ahead of time, by the real screens code
(`table.screens.starting`, `python -m table.screens.starting` writes the
file), and shipped as package data: `table/screens/starting_frames.json`
holds "Starting…" in every language, for every screen size, as the bytes of
the Pillow mode "1" image `render()` gives (rows, 8 pixels a byte, the
leftmost in the high bit). A test checks that every one is exactly what the
screens code draws today.

This module reads only the standard library (tomllib, os): what a
frame needs from the configuration (`peek`) and the frame (`starting_rows`,
`panel_pages`). The display opens the frame itself: on the Pi
`table.drivers.early_frame` sends it over the display's I2C bus with the
chip's own set-up; the fakes show it as an image.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from table.choices import (
    DEFAULT_LANGUAGE,
    DEFAULT_SCREEN,
    DISPLAY_DEFAULTS,
    LANGUAGES,
    config_file,
)

FRAMES_FILE = os.path.join(os.path.dirname(__file__), "screens", "starting_frames.json")


class Peek:
    """What the first frame needs from a configuration file, read without
    checking the rest: the screen's language, and the [display] keys
    (`DISPLAY_DEFAULTS` for those not set). `display` is None when the file
    sets one of them to something the first frame cannot use (the full
    check, which comes later, says what is wrong)."""

    def __init__(self, language: str, display: dict[str, str | int] | None) -> None:
        self.language = language
        self.display = display

    @property
    def size(self) -> tuple[int, int]:
        """The picture's size after rotation (as `DisplayConfig.size`)."""
        d = self.display
        if d is None:
            return DEFAULT_SCREEN
        w, h = int(d["width"]), int(d["height"])
        return (h, w) if int(d["rotate"]) % 2 else (w, h)


def peek_config(path: str | os.PathLike[str] | None,
                env: Mapping[str, str] | None = None) -> Peek | None:
    """`peek` at the file `cardtable run --config PATH` reads; the defaults
    when none is named and the default file is absent (as `table.config.load`)."""
    file, named = config_file(path, env)
    if not named and not os.path.lexists(file):
        return peek_data({})
    return peek(file)


def peek(path: str | os.PathLike[str]) -> Peek | None:
    """The first frame's part of the configuration file at `path`; None
    when it cannot be read as TOML (the full check says why, later)."""
    import tomllib

    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except (OSError, ValueError):      # tomllib.TOMLDecodeError is a ValueError
        return None
    return peek_data(data)


def peek_data(data: Mapping[str, object]) -> Peek:
    table = data.get("table")
    language = table.get("language") if isinstance(table, dict) else None
    if not isinstance(language, str) or language not in LANGUAGES:
        language = DEFAULT_LANGUAGE
    section = data.get("display", {})
    if not isinstance(section, dict):
        return Peek(language, None)
    display: dict[str, str | int] = {}
    for key, default in DISPLAY_DEFAULTS.items():
        value = section.get(key, default)
        if isinstance(default, str) and isinstance(value, str):
            display[key] = value
        elif isinstance(default, int) and type(value) is int:    # a bool is no int here
            display[key] = value
        else:
            return Peek(language, None)
    return Peek(language, display)


def starting_rows(language: str, size: tuple[int, int]) -> bytes | None:
    """The "Starting…" frame drawn ahead of time for `language` and `size`
    (mode "1" image bytes), or None if it was not drawn for them.

    The file is JSON with one frame a line (`table.screens.starting.write_frames`),
    so the one line needed is found without loading the json module and
    parsing every frame."""
    key = f'"{language} {size[0]}x{size[1]}": "'
    try:
        with open(FRAMES_FILE, encoding="utf-8") as f:
            for line in f:
                if line.startswith(key):
                    text = line[len(key):].rstrip().rstrip(",")
                    if not text.endswith('"'):
                        return None
                    rows = bytes.fromhex(text[:-1])
                    return rows if len(rows) == (size[0] + 7) // 8 * size[1] else None
    except (OSError, ValueError):   # no file, not text, not hexadecimal
        return None
    return None


def panel_pages(rows: bytes, width: int, height: int, rotate: int = 0) -> bytes:
    """Mode "1" image bytes as the panel's display RAM takes them (as luma
    sends a frame): page 0's columns 0..width-1, then page 1, ...; each byte
    8 pixels of one column, the top one in bit 0. `rotate` 2 turns the
    picture by 180° as luma's `rotate=2` does; 0 leaves it."""
    if rotate not in (0, 2):
        raise ValueError(f"only rotations 0 and 2 are drawn ahead of time, not {rotate}")
    stride = (width + 7) // 8
    if len(rows) != stride * height or height % 8:
        raise ValueError(f"{len(rows)} bytes are not a {width}x{height} mode 1 image")
    out = bytearray(width * (height // 8))
    for y in range(height):
        bit = 1 << (y & 7)
        base = (y >> 3) * width
        for i in range(stride):
            byte = rows[y * stride + i]
            if not byte:
                continue
            x = i * 8
            for k in range(8):
                if byte & (0x80 >> k) and x + k < width:
                    out[base + x + k] |= bit
    if rotate == 2:   # each byte's bits reversed too
        reverse = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))
        return bytes(out[::-1]).translate(reverse)
    return bytes(out)
