"""The prompt line: what the table waits for, and what each button does now.

The table's own words (its prompt, its choices, in its language) come from
the view the controller drew; the simulator adds which key or button does
what, in English like the rest of the window.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from table.screens.view import ChoiceView, PlayView, TextView


def _table_words(view: Any) -> str:
    if isinstance(view, ChoiceView | PlayView):
        return view.prompt
    if isinstance(view, TextView) and view.lines:
        return view.lines[0]
    return ""


def prompt_line(sim: Any, thinking: bool = False) -> Text:
    """The line above the hand (see the module docstring). `sim` is a
    `SimTable`."""
    st = sim.state
    view = sim.rig.ctl.view
    words = _table_words(view)
    out = Text()
    if st == "match_undo":
        out.append("The table asks to take back the card on its screen: ", style="bold")
        out.append("OK (o) = take it back · UNDO (u) = keep it")
        return out
    if st == "match_abort":
        out.append("Throw this hand away and deal again? ", style="bold")
        out.append("OK (o) = yes · UNDO (u) = no")
        return out
    if st == "match_result":
        out.append("The hand is over (s: the hands so far). ", style="bold")
        out.append("OK (o) = next hand · UNDO (u) = take back your last card")
        return out
    if st == "match_over":
        out.append("The match is over. ", style="bold")
        out.append("OK (o) = a new match · q = quit")
        return out
    if st == "match_info":
        out.append("OK (o) = back to the hand")
        return out
    seat = sim.waiting_for()
    step = sim.step()
    if seat is None or step is None:
        return Text(words)
    if seat not in sim.humans:
        who = f"Seat {seat + 1} ({sim.bots.get(seat, 'bot')})"
        return Text(f"{who} is {'thinking' if thinking else 'to move'}"
                    + (f": {words}" if words else ""), style="grey62")
    if words:
        out.append(words, style="bold")
        out.append(" — ")
    if step.kind == "show":
        out.append("click your cards (or press their numbers) in the order you received "
                   "them; each goes on the dealer's reader, until trumps are fixed")
    elif step.kind == "choose" and isinstance(view, ChoiceView) and view.choices:
        current = view.choices[view.cursor % len(view.choices)]
        out.append("MENU (m) = next choice · OK (o) = take ")
        out.append(f"“{current}”", style="bold")
        out.append(f"   (choices: {' · '.join(view.choices)})", style="grey62")
    elif step.kind == "card":
        out.append("click the card asked for (or press its number): it goes on the reader")
        hint = view.hint if isinstance(view, TextView) else ""
        if step.choices and hint:
            out.append(f" · or OK (o) = {hint.removeprefix('OK: ')}, MENU (m) = next choice")
    else:
        out.append("click a card or press its number · UNDO (u) takes back your last card "
                   "· h: a hint")
    return out
