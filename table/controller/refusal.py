"""The table refusing to start on its stored state.

When the journal or the card registry cannot be trusted (damaged, or
holding less than the table had shown: `JournalBehind`, `RegistryBehind`),
`cardtable run` changes nothing, says why on the screen (a short text an
organiser can act on) and in the log (the whole story: what is missing, how
to recover), and exits with `EXIT_REFUSED`. The systemd unit names that
status in `RestartPreventExitStatus=`, so the service stays stopped instead
of restarting in a loop.
"""

from __future__ import annotations

from typing import Any

from table.journal import JournalBehind, JournalError
from table.registry import RegistryBehind, RegistryError
from table.screens.render import render
from table.screens.view import ErrorView

#: EX_CONFIG of sysexits.h: the stored state needs a person; do not restart.
EXIT_REFUSED = 78


def screen_text(exc: JournalError | RegistryError) -> ErrorView:
    """What the table's screen says (the log has the details)."""
    if isinstance(exc, JournalBehind):
        if exc.have < exc.mark:
            missing = exc.mark - exc.have
            what = f"{missing} entr{'y' if missing == 1 else 'ies'} missing"
        else:
            what = "another journal"
        return ErrorView("STOPPED: journal", f"{what}. Nothing changed. Restore the backup: "
                                             "see the log.")
    if isinstance(exc, RegistryBehind):
        return ErrorView("STOPPED: cards", "Enrolled packs are missing. Nothing changed. "
                                           "Restore the backup: see the log.")
    if isinstance(exc, RegistryError):
        return ErrorView("STOPPED: cards", "The card registry cannot be read. Nothing "
                                           "changed. See the log.")
    return ErrorView("STOPPED: journal", "The journal cannot be read. Nothing changed. "
                                         "See the log.")


def show_refusal(display: Any, exc: JournalError | RegistryError) -> None:
    """Draw the refusal on `display` and leave it there after the program
    exits (luma blanks its panel at exit unless told to persist)."""
    view = screen_text(exc)
    display.show(render(view, display.size))
    device = getattr(display, "device", None)
    if device is not None and hasattr(device, "persist"):
        device.persist = True
