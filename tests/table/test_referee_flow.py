"""The referee drives the same `HandFlow` as the table for Filicău: the same
plays in the table's flow and through the referee leave the same hand, and the
referee's answers come from the flow."""

from __future__ import annotations

import json
import random

from engine import get_game
from table.referee import Referee


def ask(ref: Referee, obj: dict) -> dict:
    return json.loads(ref.answer_line(json.dumps(obj)))


def test_a_filicau_hand_at_the_referee_is_the_tables_flow_play_for_play():
    rng = random.Random(5)
    game = get_game("filicau")
    state = game.state_from_json({"status": "even", "dealer": 1})
    dealt = game.deal(rng, 1)
    table = game.hand_flow(state, dealt.hands)
    for c in dealt.shown:
        table.card(1, c)
    ref = Referee()
    got = ask(ref, {"op": "new_hand", "game": "filicau", "state": state.to_json(),
                    "shown": [c.code for c in dealt.shown],
                    "hands": [[c.code for c in h] for h in dealt.hands]})
    assert got["ok"] and got["trump"] == table.trump
    assert ref.hand is not None and ref.hand.flow is not None
    assert ref.hand.deal is ref.hand.flow.deal
    last = {}
    while not table.finished:
        assert table.deal is not None
        seat = table.deal.turn
        c = rng.choice(list(table.deal.legal_cards()))
        event = table.card(seat, c)
        last = ask(ref, {"op": "play", "seat": seat, "card": c.code})
        # the answer is what the table's flow event says, shaped for the protocol
        shaped = {k: v for k, v in event.to_json().items() if k in ("revoke", "trick")}
        assert {k: v for k, v in last.items() if k in ("revoke", "trick")} == shaped
    assert last["hand"]["points"] == list(table.result().points)
    assert last["hand"]["state"] == table.settled().to_json()


def test_undo_at_the_referee_takes_back_the_flows_last_play_only():
    ref = Referee()
    ask(ref, {"op": "new_hand", "game": "filicau", "trump": "h",
              "state": {"status": "even", "dealer": 3}})
    assert ask(ref, {"op": "undo"})["reason"] == "nothing_to_undo"
    assert ask(ref, {"op": "play", "seat": 0, "card": "Ah"})["ok"]
    assert ask(ref, {"op": "undo"}) == {"ok": True, "seat": 0, "card": "Ah"}
    assert ask(ref, {"op": "undo"})["reason"] == "nothing_to_undo"
    assert ref.hand is not None and ref.hand.flow is not None
    assert ref.hand.flow.pending().kind == "play" and ref.hand.flow.trump == "h"
