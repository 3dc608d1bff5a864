"""docs/table.md tells the truth about seat names and the order of play."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

from hw_mocks.rig import Rig
from table.config import loads
from table.screens.view import PlayView

TABLE_MD = Path(__file__).resolve().parents[2] / "docs" / "table.md"


def test_the_default_table_plays_1_4_3_2_with_partners_opposite():
    text = TABLE_MD.read_text()
    config = loads("")
    # named clockwise round the table, 1..4; play goes anticlockwise
    assert [s.name for s in sorted(config.seats, key=lambda s: s.position)] == list("1234")
    assert [s.name for s in config.seats] == list("1432")
    assert "the order of play is\n`1, 4, 3, 2`" in text
    assert "play goes\nanticlockwise: 1, 4, 3, 2" in text
    assert "seat 2 plays after seat 1" not in text.replace("\n", " ").replace(
        "seat 2 does play after seat 1", "")
    clockwise = loads('[table]\ndirection = "clockwise"\n')
    assert [s.name for s in clockwise.seats] == list("1234")
    # the points line of a match on the default table
    rig = Rig(dataclasses.replace(config.table, knowledge="open"), seats=4)
    try:
        rig.press("ok")
        bot = rig.bot(random.Random(2))
        bot.new_hand(rig.session.match.hand.state, "open")
        while not isinstance(rig.view, PlayView):
            rig.do(bot.next_move())
        assert rig.view.teams.names == ("1+3", "4+2")
        assert "`1+3: 5 · 4+2: 3`" in text
    finally:
        rig.close()


def test_the_fake_table_names_seats_in_the_order_of_play():
    rig = Rig(dataclasses.replace(loads("").table, seat_names=(), knowledge="open"), seats=4)
    try:
        rig.press("ok")
        bot = rig.bot(random.Random(2))
        bot.new_hand(rig.session.match.hand.state, "open")
        while not isinstance(rig.view, PlayView):
            rig.do(bot.next_move())
        assert rig.view.teams.names == ("1+3", "2+4")
        assert [c.name for c in rig.view.seats] == ["1", "2", "3", "4"]
    finally:
        rig.close()
