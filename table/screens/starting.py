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
