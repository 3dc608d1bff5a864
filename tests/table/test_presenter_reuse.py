"""The presenter keeps the texts every frame of a hand repeats (the teams'
names, the match status, the step's prompt) and makes them again only when
what they are made of changes. What the table shows must never be stale:
after every card, button and hand, and after the seat names or the language
change, the view equals the one a new presenter (nothing kept) builds."""

from __future__ import annotations

import dataclasses
import random

import pytest

from hw_mocks.rig import Rig
from table.controller.present import Presenter
from table.screens.view import PlayView
from table.settings import TableSettings


def fresh_view(rig: Rig):
    return Presenter(rig.ctl.model).view()


@pytest.mark.parametrize("game, knowledge, seats", [
    ("filicau", "scan", 4), ("filcau20", "open", 4), ("filko6", "open", 6)])
def test_every_frame_of_two_hands_is_what_a_new_presenter_shows(game, knowledge, seats):
    rig = Rig(TableSettings(game=game, knowledge=knowledge), None, seats=seats,
              seed_source=lambda: 7)
    rig.press("ok")
    checked = [0]

    def check(_move=None):
        assert rig.ctl.presenter.view() == fresh_view(rig), rig.state
        checked[0] += 1

    bot = rig.bot(random.Random(5))
    for _ in range(2):
        check()
        rig.play_hand(bot, after_move=check)
        check()
        rig.next_hand()
    assert checked[0] > 20
    rig.close()


def test_new_seat_names_and_a_new_language_show_at_once():
    rig = Rig(TableSettings(game="filicau", knowledge="scan"), None, seats=4,
              seed_source=lambda: 7)
    rig.press("ok")
    bot = rig.bot(random.Random(5))
    rig.learn_hands(bot)
    rig.do(bot.next_move())
    before = rig.ctl.presenter.view()
    assert isinstance(before, PlayView) and before.teams is not None
    assert before.teams.names == ("1+3", "2+4")
    model = rig.ctl.model
    model.settings = dataclasses.replace(model.settings, seat_names=("Ana", "Bo", "Cy", "Di"))
    named = rig.ctl.presenter.view()
    assert named.teams.names == ("Ana+Cy", "Bo+Di")
    assert "Bo" in named.prompt or "Cy" in named.prompt or "Di" in named.prompt \
        or "Ana" in named.prompt, named.prompt
    assert named == fresh_view(rig)
    session = rig.ctl.session
    session.selection = dataclasses.replace(session.selection, language="ro")
    romanian = rig.ctl.presenter.view()
    assert romanian.prompt != named.prompt
    assert romanian == fresh_view(rig)
    rig.close()
