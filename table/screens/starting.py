"""The table's first frame: "Starting…" in its language.

`cardtable run` shows it as soon as the display is open, before the
controller, the rules, the journal and the other parts are loaded (on a
small Pi they take seconds), through the same display port as every later
frame. This module imports only the screens (Pillow and the fonts).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from table.screens.i18n import translator
from table.screens.view import Header, TextView

if TYPE_CHECKING:
    from table.ports import Display


def starting_view(language: str) -> TextView:
    """What the screen shows while the table starts (the controller's `boot`)."""
    _ = translator(language)
    return TextView(Header("cardtable"), (str(_("Starting…")),))


def show_starting(display: Display, language: str) -> None:
    """Draw `starting_view` on `display`."""
    from table.screens.render import render

    display.show(render(starting_view(language), display.size))


def drawn_frames() -> dict[str, str]:
    """ "Starting…" in every language for every screen size a display can
    have (after rotation), as `table.first_frame` reads them: "LANG WxH" ->
    the hex of the mode "1" image `render()` draws."""
    from table.choices import LANGUAGES
    from table.config import DISPLAY_SIZES
    from table.screens.render import render

    sizes = sorted({s for chip in DISPLAY_SIZES.values() for w, h in chip
                    for s in ((w, h), (h, w))})
    return {f"{lang} {w}x{h}": render(starting_view(lang), (w, h)).tobytes().hex()
            for lang in LANGUAGES for w, h in sizes}


def write_frames(path: str) -> None:
    """Write `drawn_frames()` to `path` (table/screens/starting_frames.json)."""
    import json

    with open(path, "w", encoding="utf-8") as f:
        json.dump({"about": "Starting… as table.screens.starting draws it, for "
                            "table.first_frame; `python -m table.screens.starting` "
                            "writes this file again",
                   "frames": drawn_frames()}, f, indent=0, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    from table.first_frame import FRAMES_FILE

    write_frames(FRAMES_FILE)
    print(f"written: {FRAMES_FILE}")
