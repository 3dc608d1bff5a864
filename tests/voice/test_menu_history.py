"""MENU during a hand shows the match's hands so far, also after a power cut."""

from __future__ import annotations

import random

from hw_mocks.rig import Rig
from table.screens.view import TextView
from table.settings import TableSettings


def play_hands(rig: Rig, n: int) -> list[tuple[int, ...]]:
    points = []
    for _ in range(n):
        bot = rig.bot(random.Random(len(points)))
        rig.play_hand(bot)
        points.append(tuple(rig.session.hand().flow.result().points))
        rig.next_hand()
    return points


def info_lines(rig: Rig) -> tuple[str, ...]:
    rig.press("menu")
    view = rig.view
    assert isinstance(view, TextView)
    rig.press("ok")
    return view.lines


def test_menu_shows_the_hands_so_far_and_keeps_them_across_a_power_cut():
    rig = Rig(TableSettings(game="filicau", knowledge="scan"))
    try:
        rig.press("ok")
        assert not any(ln.startswith("So far") for ln in info_lines(rig))  # no hand yet
        points = play_hands(rig, 2)
        said = ", ".join(":".join(map(str, p)) for p in points)
        assert f"So far (1+3:2+4): {said}" in info_lines(rig)
        rig = rig.restart()          # the power goes; the table resumes from the journal
        assert f"So far (1+3:2+4): {said}" in info_lines(rig)
        points += play_hands(rig, 3)
        last4 = ", ".join(":".join(map(str, p)) for p in points[-4:])
        assert f"So far (1+3:2+4): …, {last4}" in info_lines(rig)
    finally:
        rig.close()


def test_the_hands_so_far_in_romanian():
    rig = Rig(TableSettings(game="filicau", knowledge="scan", language="ro"))
    try:
        rig.press("ok")
        (p,) = play_hands(rig, 1)
        assert f"Până acum (1+3:2+4): {p[0]}:{p[1]}" in info_lines(rig)
    finally:
        rig.close()
