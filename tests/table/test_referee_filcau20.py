"""20-card Filcău through the referee protocol: settle with score and winner, the
bind and fris ops, undo, bad requests, and whole random matches line by line."""

from __future__ import annotations

import json
import random

import pytest

from engine import get_game
from engine.games.filcau20.binding import required
from table.referee import Referee

START = {"status": "even", "score": [3, 4], "dealer": 3, "winner": None}
BIND_HANDS = [["Oa", "Ua", "Ka", "Th", "Kb"], ["Ol", "Oh", "Al", "Tl", "Ub"],
              ["Ob", "Ta", "Aa", "Ah", "Kh"], ["Ul", "Kl", "Uh", "Tb", "Ab"]]


def ask(ref: Referee, **request) -> dict:
    return json.loads(ref.answer_line(json.dumps(request)))


def test_settle_answers_status_score_dealer_and_winner():
    ref = Referee()
    got = ask(ref, op="settle", game="filcau20", options={"match_points": "status_at_start"},
              state={"status": "masters:1", "score": [4, 10], "dealer": 0}, points=[6, 2])
    # the servants climb to equal; the team that was boss when the hand began scores
    assert got == {"ok": True, "state": {"status": "even", "score": [4, 11], "dealer": 1,
                                         "winner": 1}}


@pytest.mark.parametrize("request_", [
    {"op": "new_hand", "state": START},                                 # no cut, no trump
    {"op": "new_hand", "state": START, "cut": "yes"},
    {"op": "new_hand", "state": START, "cut": True, "hands": [["Oa"]] * 4},
    {"op": "new_hand", "state": START, "cut": True, "hands": "all"},
    {"op": "new_hand", "state": {"status": "masters:1", "dealer": 1}, "cut": True},
    {"op": "new_hand", "state": START, "trump": "x"},
    {"op": "settle", "state": START, "points": [8, 1]},
    {"op": "settle", "state": START, "redeal": 1},
])
def test_bad_requests_get_a_reason(request_):
    got = ask(Referee(), game="filcau20", **request_)
    assert got["ok"] is False and got["reason"] == "bad_request" and got["message"]


def test_bind_and_fris_need_a_hand_and_the_right_moment():
    ref = Referee()
    assert ask(ref, op="bind", game="filcau20", seat=0, call="pass")["reason"] == "no_hand"
    ask(ref, op="new_hand", game="filcau20", state=START, cut=False, hands=BIND_HANDS)
    got = ask(ref, op="fris", game="filcau20", seat=0, card="Oa")
    assert got["reason"] == "not_expected"
    got = ask(ref, op="bind", game="filcau20", seat=0, call="pass", trump="a")
    assert got["reason"] == "bad_request"                       # one thing at a time
    got = ask(ref, op="bind", game="filcau20", seat=0, call=3)
    assert got["reason"] == "bad_request"
    got = ask(ref, op="bind", game="filcau20", seat=0, call="3:Ol")
    assert got["reason"] == "not_expected"                      # no hand can call that
    assert ask(ref, op="play", seat=0, card="Oa")["reason"] == "not_expected"
    got = ask(ref, op="bind", game="filcau20", seat=0, hand=BIND_HANDS[0])
    assert got["reason"] == "not_expected"
    assert ask(ref, op="undo")["reason"] == "nothing_to_undo"   # the cut is part of new_hand


def test_a_refused_proof_changes_nothing():
    ref = Referee()
    ask(ref, op="new_hand", game="filcau20", state=START, cut=False)
    for seat, call in enumerate(("3:U", "pass", "pass", "pass")):
        ask(ref, op="bind", game="filcau20", seat=seat, call=call)
    got = ask(ref, op="bind", game="filcau20", seat=0, hand=["Oa", "Ua", "Ka", "Th", "Oa"])
    assert got["reason"] == "already_played"
    got = ask(ref, op="bind", game="filcau20", seat=0, hand=BIND_HANDS[0])
    assert got["proof"] is True and got["binder"] == 0


def test_undo_takes_back_a_whole_proof():
    ref = Referee()
    ask(ref, op="new_hand", game="filcau20", state=START, cut=False)
    for seat, call in enumerate(("3:U", "pass", "pass", "pass")):
        ask(ref, op="bind", game="filcau20", seat=seat, call=call)
    ask(ref, op="bind", game="filcau20", seat=0, hand=BIND_HANDS[0])
    got = ask(ref, op="undo")
    assert got["undone"] == {"op": "bind", "seat": 0}
    assert got["next"]["prompt"] == "filcau20_prove" and got["next"]["seat"] == 0


def test_turn_must_be_two_cards():
    ref = Referee()
    ask(ref, op="new_hand", game="filcau20", state=START, cut=True)
    ask(ref, op="fris", game="filcau20", seat=0, card="Oa")
    ask(ref, op="fris", game="filcau20", seat=0, trump="h")
    assert ask(ref, op="fris", game="filcau20", seat=1, turn=["Ka"])["reason"] == "bad_request"
    got = ask(ref, op="fris", game="filcau20", seat=1, turn=["Ka", "Ka"])
    assert got["reason"] == "already_played"
    got = ask(ref, op="fris", game="filcau20", seat=1, turn=["Ka", "Ub"])
    assert got["next"] == {"kind": "play", "seat": 1, "prompt": "filcau20_fris_follow",
                           "choices": []}


def play_match(options: dict, seed: int, known: bool) -> dict:
    """A whole match with random (sometimes wrong) actions, every line through the
    referee; the players' real cards decide what they do."""
    game = get_game("filcau20", options)
    rng = random.Random(seed)
    ref = Referee()
    state = game.new_match(rng).to_json()
    for _ in range(2000):
        if state["winner"] is not None:
            return state
        cut = rng.random() < 0.5
        dealt = game.deal(rng, state["dealer"], cut=cut)
        held = Held(list(h) for h in dealt.hands)
        req = {"op": "new_hand", "game": "filcau20", "options": options, "state": state,
               "cut": cut}
        if known:
            req["hands"] = [[c.code for c in h] for h in held]
        answer = ask(ref, **req)
        assert answer["ok"], answer
        for _ in range(400):
            if "hand" in answer:
                break
            answer = step(ref, answer, held, rng, known) or answer
        result = answer["hand"]
        if "redeal" not in result:
            assert sum(result["points"]) == 8
        state = result["state"]
    raise AssertionError("the match did not end")


def step(ref, answer, held, rng, known):
    """One op for the step the hand waits for; returns the answer to go on from."""
    nxt = answer["next"]
    seat, prompt = nxt["seat"], nxt["prompt"]
    if prompt == "filcau20_fris":
        overs = [c for c in held[seat][:3] if c.rank == "O"]
        if overs and rng.random() < 0.6:
            got = ask(ref, op="fris", game="filcau20", seat=seat, card=overs[0].code)
            held.fris = True
        else:
            got = ask(ref, op="fris", game="filcau20", seat=seat, **{"pass": True})
    elif prompt == "filcau20_bind":
        must = required(held[seat])
        call = must.call if must is not None and rng.random() < 0.7 else "pass"
        got = ask(ref, op="bind", game="filcau20", seat=seat, call=call)
        if not got["ok"]:               # a compulsory binding, or a closed hand: take the menu
            first = nxt["choices"][0]
            got = ask(ref, op="bind", game="filcau20", seat=seat,
                      call=first[5:] if first.startswith("bind:") else first)
    elif prompt == "filcau20_prove":
        got = ask(ref, op="bind", game="filcau20", seat=seat, hand=[c.code for c in held[seat]])
    elif prompt == "filcau20_name_trump":
        op = "fris" if getattr(held, "fris", False) else "bind"
        got = ask(ref, op=op, game="filcau20", seat=seat, trump=rng.choice(nxt["choices"]))
    else:
        return play(ref, seat, held, rng)
    assert got["ok"], got
    return got


def play(ref, seat, held, rng):
    cards = list(held[seat])
    rng.shuffle(cards)
    for c in cards:
        got = ask(ref, op="play", seat=seat, card=c.code)
        if got["ok"]:
            if rng.random() < 0.1 and "hand" not in got:    # a misread: undo, play again
                assert ask(ref, op="undo")["undone"] == {"op": "play", "seat": seat,
                                                          "card": c.code}
                assert ask(ref, op="play", seat=seat, card=c.code) == got
            held[seat].remove(c)
            if "hand" in got:
                return got
            after = got["trick"]["winner"] if "trick" in got else (seat + 1) % 4
            return {"ok": True, "next": {"kind": "play", "seat": after, "prompt": "play"}}
        if got["reason"] == "fris_turn_first":
            turned = ask(ref, op="fris", game="filcau20", seat=seat,
                         turn=[x.code for x in held[seat][3:]])
            assert turned["ok"], turned
            return turned
    raise AssertionError(f"seat {seat} found no card to play: {held[seat]}")


class Held(list):
    """The players' real cards, and whether this hand had a fris."""

    fris = False


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("known", [True, False])
def test_random_matches_through_the_referee_are_won_at_11(seed, known):
    options = [{}, {"fris_priority": "highest_over", "status_ladder": "direct"},
               {"no_binding": "dealer_names", "fris_turned_cards_bind": "d2"}][seed]
    state = play_match(options, seed, known)
    assert state["score"][state["winner"]] == 11
