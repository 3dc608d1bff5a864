"""Every game the engine has runs through the same controller, in the three
ways of knowing the hands: a generic bot plays a hand at the fake table, the
table's result is the engine's, a restart resumes to the same state, and the
match exported in the referee protocol replays to the same results."""

from __future__ import annotations

import json
import random

import pytest

from engine.games import game_ids
from hw_mocks.rig import Rig
from table.export import export_hands
from table.referee.session import Referee
from table.settings import TableSettings

GAMES = game_ids()


def play_hands(rig, hands, seed=5):
    rig.press("ok")
    bot = rig.bot(random.Random(seed))
    expected = []
    for _ in range(hands):
        if rig.state == "match_over":
            break
        rig.play_hand(bot)
        assert rig.state == "match_result"
        expected.append((bot.shadow.result().points, bot.shadow.settled().to_json()))
        rig.next_hand()
    return expected


@pytest.mark.parametrize("knowledge", ["scan", "dealt", "open"])
@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_a_hand_and_resumes(game, knowledge):
    rig = Rig(TableSettings(game=game, knowledge=knowledge), None, seats=6)
    expected = play_hands(rig, 1)
    results = [(n.data["points"], n.data["state"]) for n in rig.ctl.notices
               if n.kind == "hand" and "points" in n.data]
    assert [(list(p), s) for p, s in expected] == results
    # the hand after it has started: learn part of it, then pull the plug
    if rig.state.startswith("match_"):
        bot = rig.bot(random.Random(99))
        rig.learn_hands(bot)
        for _ in range(3):
            move = bot.next_move()
            if move is None:
                break
            rig.do(move)
    before = rig.snapshot()
    rig = rig.restart()
    assert rig.snapshot() == before
    rig.close()


@pytest.mark.parametrize("game", GAMES)
def test_the_export_replays_to_the_same_results_in_the_referee(game):
    rig = Rig(TableSettings(game=game, knowledge="scan"), None, seats=6)
    play_hands(rig, 2)
    table = [n.data for n in rig.ctl.notices if n.kind == "hand" and "points" in n.data]
    exported = list(export_hands(rig.ctl.journal))
    assert len(exported) == len(table) + 1          # the next hand has started: no plays yet
    referee = Referee()
    for hand, result in zip(exported, table, strict=False):
        # every step of the hand (a call, a binding, a draw...) is written with
        # the game's own referee ops (more in tests/table/test_export_referee.py)
        assert not hand.note
        answers = [json.loads(referee.answer_line(json.dumps(r))) for r in hand.requests]
        assert all(a["ok"] for a in answers), [a for a in answers if not a["ok"]][:1]
        ended = [a["hand"] for a in answers if "hand" in a][-1]
        assert (ended["points"] if "redeal" not in ended else [0, 0]) == result["points"]
        states = [a["hand"]["state"] if "hand" in a else a["state"] for a in answers
                  if "state" in a.get("hand", {}) or "state" in a]
        assert states[-1] == result["state"]
    rig.close()

