"""The referee drives the same `HandFlow` as the table, for every game: the
same plays in the table's flow and through the referee leave the same hand,
and the referee's answers come from the flow."""

from __future__ import annotations

import json
import random

import pytest

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


# ----- every game: the table's flow and the referee, play for play ----------------------

def _codes(cards) -> list[str]:
    return [c.code for c in cards]


def _trick_part(answer: dict) -> dict:
    return {k: v for k, v in answer.items() if k in ("revoke", "trick")}


def _play_both(game, table, ref, rng, dealt, hands_known=True):
    """Play the table's flow to its end with random legal cards (from the
    dealt hands when the flow does not know them), each card also sent to the
    referee; every answer must say what the table's flow event says. Returns
    the referee's last answer."""
    from engine.bots import honest_card

    last: dict = {}
    while not table.play_over:
        seat = table.deal.turn
        c = honest_card(game, table, dealt, rng)
        event = table.card(seat, c)
        last = ask(ref, {"op": "play", "seat": seat, "card": c.code})
        assert last["ok"], last
        assert _trick_part(last) == _trick_part(event.to_json())
    return last


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("hands_known", [True, False])
@pytest.mark.parametrize("game_id,options", [
    ("sueca", None), ("sueca", {"revoke_mode": "denounce_match_loss"}),
    ("filko", None), ("filko6", None), ("filcau20", None)])
def test_a_hand_at_the_referee_is_the_tables_flow_play_for_play(game_id, options, hands_known,
                                                               seed):
    rng = random.Random(seed)
    game = get_game(game_id, options)
    state = game.new_match(rng)
    dealt = game.deal(rng, state.dealer)
    hands = dealt.hands if hands_known else None
    req = {"op": "new_hand", "game": game_id, "state": state.to_json()}
    if options:
        req["options"] = options
    if hands_known:
        req["hands"] = [_codes(h) for h in dealt.hands]
    if game_id == "sueca":
        table = game.hand_flow(state, hands)
        table.card(state.dealer, dealt.shown[0])      # the dealer shows the turned-up card
        req["shown"] = _codes(dealt.shown)
    else:
        trump = dealt.trump or rng.choice(game.pack.suits)   # Filcău-20: named later
        table = game.hand_flow(state, hands, trump)
        req["trump"] = trump
    ref = Referee()
    got = ask(ref, req)
    assert got["ok"], got
    assert got["leader"] == table.deal.leader
    last = _play_both(game, table, ref, rng, dealt, hands_known)
    assert last["hand"]["points"] == list(table.result().points)
    if table.pending().kind == "done":
        assert last["hand"]["state"] == table.settled().to_json()


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("game_id", ["filicau", "sueca"])
def test_a_hand_known_only_by_its_leader_plays_as_the_tables_hand(game_id, seed):
    """Without a match state the referee still drives the game's flow: the
    same tricks and points as the table's hand with that leader."""
    rng = random.Random(seed)
    game = get_game(game_id)
    state = game.new_match(rng)
    dealt = game.deal(rng, state.dealer)
    table = game.hand_flow(state, dealt.hands, dealt.trump)
    ref = Referee()
    got = ask(ref, {"op": "new_hand", "game": game_id, "leader": table.deal.leader,
                    "trump": dealt.trump, "hands": [_codes(h) for h in dealt.hands]})
    assert got == {"ok": True, "leader": table.deal.leader}
    assert ref.hand is not None and ref.hand.flow.state is None
    last = _play_both(game, table, ref, rng, dealt)
    assert last["hand"] == {"points": list(table.result().points)}   # no state to settle


def _fildinsky_both(rng, ref, table, dealt, leader_only=False):
    """Drive a Fildinsky hand at the table (random choices) and the same acts
    at the referee: plays, and the melds of a trick as one `meld` request.
    Returns the referee's last answer (the one that ended the hand)."""
    meld: dict | None = None
    last: dict = {}

    def flush() -> None:
        nonlocal meld, last
        if meld is not None:
            last = ask(ref, meld)
            assert last["ok"], (meld, last)
            meld = None

    while table.pending().kind != "done":
        step = table.pending()
        if meld is not None and (step.kind != "choose" or step.seat != meld["seat"]):
            flush()
        if step.kind == "choose":
            choice = rng.choice(step.choices)
            table.choose(step.seat, choice)
            if meld is None:
                meld = {"op": "meld", "seat": step.seat, "melds": []}
            if choice == "exchange":
                meld["exchange"] = True
            elif choice != "pass":
                meld["melds"].append(choice)
            if choice == "pass":
                flush()
            continue
        assert step.kind == "play", step
        c = rng.choice(list(table.deal.legal_cards(step.seat)))
        event = table.card(step.seat, c)
        last = ask(ref, {"op": "play", "seat": step.seat, "card": c.code})
        assert last["ok"], last
        if "trick" in last:
            assert last["trick"]["winner"] == event.outcome.trick.winner
            assert last["hand_points"] == list(ref.hand.deal.points)
            assert ref.hand.deal.points == table.deal.points
    flush()
    return last


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("leader_only", [False, True])
def test_a_fildinsky_hand_at_the_referee_is_the_tables_flow(seed, leader_only):
    rng = random.Random(seed)
    game = get_game("fildinsky")
    state = game.new_match(rng)
    dealt = game.deal(rng, state.dealer)
    stock = dealt.extra["stock"]
    table = game.hand_flow(state, dealt.hands, stock=stock)
    table.card(state.dealer, dealt.extra["turn_up"])
    ref = Referee()
    start = {"leader": table.deal.turn} if leader_only else {"state": state.to_json()}
    got = ask(ref, {"op": "new_hand", "game": "fildinsky", **start,
                    "shown": [dealt.extra["turn_up"].code],
                    "hands": [_codes(h) for h in dealt.hands], "stock": _codes(stock)})
    assert got["ok"] and got["leader"] == table.deal.turn
    assert isinstance(ref.hand.flow, type(table))      # the table's own flow class
    last = _fildinsky_both(rng, ref, table, dealt)
    assert ref.hand.deal.finished
    assert ref.hand.deal.points == table.deal.points
    assert last["hand"]["points"] == table.deal.points
    if leader_only:
        assert "state" not in last["hand"] and ref.hand.state is None
    else:
        assert ref.hand.state.to_json() == table.settled().to_json()


def test_undo_by_replaying_keeps_the_hands_deal_object():
    """Sueca's flow undoes by replaying; whoever holds the hand's deal (the
    referee's session, `cardtable review`) still holds it after an undo,
    with the play taken back."""
    ref = Referee()
    ask(ref, {"op": "new_hand", "game": "sueca", "leader": 0, "trump": "c"})
    deal = ref.hand.deal
    assert ask(ref, {"op": "play", "seat": 0, "card": "Ah"})["ok"]
    assert deal.played and ref.hand.deal is deal
    assert ask(ref, {"op": "undo"}) == {"ok": True, "seat": 0, "card": "Ah"}
    assert ref.hand.deal is deal and not deal.played and deal.turn == 0
    assert ask(ref, {"op": "play", "seat": 0, "card": "Ah"})["ok"]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("mode", ["denounce_hand_120", "denounce_match_loss"])
def test_a_sueca_denounce_at_the_referee_is_the_tables_denounce(mode, seed):
    """A random seat denounces a random opponent after some plays: the table's
    `denounce:S` choice and the referee's `denounce` end the hand alike (the
    same penalty, the same match state), or are both refused."""
    from engine import EngineError

    rng = random.Random(seed)
    options = {"revoke_mode": mode}
    game = get_game("sueca", options)
    state = game.new_match(rng)
    dealt = game.deal(rng, state.dealer)
    table = game.hand_flow(state, dealt.hands)
    table.card(state.dealer, dealt.shown[0])
    ref = Referee()
    ask(ref, {"op": "new_hand", "game": "sueca", "options": options, "state": state.to_json(),
              "shown": _codes(dealt.shown), "hands": [_codes(h) for h in dealt.hands]})
    for _ in range(rng.randrange(1, 40)):
        if table.play_over:
            break
        seat = table.deal.turn
        # any card held: in a denounce mode the table takes revokes too
        c = rng.choice(table.deal.hand_of(seat))
        table.card(seat, c)
        assert ask(ref, {"op": "play", "seat": seat, "card": c.code})["ok"]
    accused = rng.randrange(4)
    accuser = (accused + 1) % 4
    answer = ask(ref, {"op": "denounce", "seat": accuser, "accused": accused})
    try:
        event = table.choose(accuser, f"denounce:{accused}")
    except EngineError as refused:
        assert answer["ok"] is False and answer["reason"] == refused.reason
        return
    assert answer["ok"], answer
    assert answer["penalty"] == event.data["penalty"]
    assert answer["hand"]["state"] == table.settled().to_json()


@pytest.mark.parametrize("seed", range(8))
def test_a_sueca_redeal_claim_at_the_referee_is_the_tables_claim(seed):
    """The first-hand seat (or any, under `brazil`) claims a redeal: granted
    or refused alike at the table (`redeal:S`) and at the referee."""
    from engine import EngineError

    rng = random.Random(seed)
    options = {"redeal_threshold": "brazil"}
    game = get_game("sueca", options)
    state = game.new_match(rng)
    dealt = game.deal(rng, state.dealer)
    table = game.hand_flow(state, dealt.hands)
    table.card(state.dealer, dealt.shown[0])
    ref = Referee()
    ask(ref, {"op": "new_hand", "game": "sueca", "options": options, "state": state.to_json(),
              "shown": _codes(dealt.shown), "hands": [_codes(h) for h in dealt.hands]})
    seat = rng.randrange(4)
    answer = ask(ref, {"op": "redeal", "seat": seat})
    try:
        event = table.choose(seat, f"redeal:{seat}")
    except EngineError as refused:
        assert answer["ok"] is False and answer["reason"] == refused.reason
        assert table.pending().kind == "play" and ref.hand.flow.pending().kind == "play"
        return
    assert answer == {"ok": True, "hand": {"redeal": seat, "points": event.data["points"],
                                           "state": table.settled().to_json()}}


@pytest.mark.parametrize("game_id", ["filicau", "filko", "filko6", "filko_hats", "filcau20",
                                     "sueca"])
def test_a_hand_started_with_its_trumps_is_the_games_own_flow(game_id):
    """`flow_with_trump` (the referee's way in) gives the class `hand_flow`
    (the table's) gives; games that always start from a match state refuse a
    hand without one."""
    from engine import BadRequest

    rng = random.Random(1)
    game = get_game(game_id)
    state = game.new_match(rng)
    dealt = game.deal(rng, state.dealer)
    trump = dealt.trump or "h"
    flow = game.flow_with_trump(state, dealt.hands, trump)
    assert type(flow) is type(game.hand_flow(state, dealt.hands, trump))
    assert flow.trump == trump and flow.pending().kind == "play"
    if game_id in ("filicau", "sueca"):
        assert game.flow_with_trump(None, dealt.hands, trump, leader=2).deal.leader == 2
    else:
        with pytest.raises(BadRequest):
            game.flow_with_trump(None, dealt.hands, trump, leader=2)
