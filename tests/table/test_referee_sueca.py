"""Sueca through the referee protocol: settle with score, carry and winner; the
redeal and denounce ops; whole random matches played line by line."""

from __future__ import annotations

import json
import random

import pytest

from engine import IllegalPlay, get_game
from table.referee import Referee


def ask(ref: Referee, **request) -> dict:
    return json.loads(ref.answer_line(json.dumps(request)))


def test_settle_answers_score_carry_and_winner():
    ref = Referee()
    s = {"score": [3, 3], "carry": 1, "dealer": 2, "winner": None}
    got = ask(ref, op="settle", game="sueca", state=s, points=[62, 58])
    assert got == {"ok": True, "state": {"score": [5, 3], "carry": 0, "dealer": 3, "winner": 0}}
    got = ask(ref, op="settle", game="sueca", options={"tie": "annul"}, state=s, points=[60, 60])
    assert got["state"] == {"score": [3, 3], "carry": 1, "dealer": 3, "winner": None}


@pytest.mark.parametrize("request_", [
    {"points": [60, 50]},
    {"points": [61, 59], "tricks": [5]},
    {"points": "61-59"},
    {"penalty": {"team": 1}},                       # strict mode has no penalties
    {"penalty": {"team": 2}, "options": {"revoke_mode": "denounce_hand_120"}},
    {"penalty": {"team": 0, "reason": "oops"}, "options": {"revoke_mode": "denounce_hand_120"}},
    {"redeal": "yes"},
])
def test_settle_refuses_bad_input_with_a_reason(request_):
    ref = Referee()
    req = {"op": "settle", "game": "sueca",
           "state": {"score": [0, 0], "carry": 0, "dealer": 0}, **request_}
    got = ask(ref, **req)
    assert got["ok"] is False and got["reason"] == "bad_request" and got["message"]


def test_redeal_and_denounce_need_a_hand():
    ref = Referee()
    assert ask(ref, op="redeal", game="sueca", seat=0)["reason"] == "no_hand"
    assert ask(ref, op="denounce", game="sueca", seat=0, accused=1)["reason"] == "no_hand"


def test_redeal_with_hands_unknown_refuses_cards_known_elsewhere():
    ref = Referee()
    ask(ref, op="new_hand", game="sueca", state={"score": [0, 0], "carry": 0, "dealer": 3},
        shown=["2c"])
    hand = ["2c", "3c", "4c", "5c", "6c", "2d", "3d", "4d", "5d", "6d"]   # 2c is the dealer's
    got = ask(ref, op="redeal", game="sueca", seat=0, hand=hand)
    assert got["reason"] == "bad_request"
    got = ask(ref, op="redeal", game="sueca", seat=0, hand=hand[1:])
    assert got["reason"] == "bad_request"
    got = ask(ref, op="redeal", game="sueca", seat=0, hand=["3c"] + hand[1:] + ["2h"])
    assert got["reason"] == "bad_request"                                  # a card twice


#: Seat 3 deals and holds every spade.
HANDS = [["7c", "2c", "3c", "4c", "5c", "6c", "2d", "3d", "4d", "5d"],
         ["Jc", "Qc", "Kc", "Ac", "6d", "7d", "Jd", "Qd", "Kd", "Ad"],
         ["2h", "3h", "4h", "5h", "6h", "7h", "Jh", "Qh", "Kh", "Ah"],
         ["2s", "3s", "4s", "5s", "6s", "7s", "Js", "Qs", "Ks", "As"]]
DEALER_3 = {"score": [0, 0], "carry": 0, "dealer": 3, "winner": None}


@pytest.mark.parametrize("turned", ["2h", "Ac"])
def test_new_hand_with_hands_refuses_a_turned_card_the_dealer_does_not_hold(turned):
    """The turned-up card is the last card of the pack and stays with the
    dealer (RULES §2.E): a hand that puts it elsewhere is refused, as the
    table's hand flow refuses the dealer showing a card he does not hold."""
    ref = Referee()
    assert ask(ref, op="new_hand", game="sueca", state=DEALER_3, shown=["2s"],
               hands=HANDS) == {"ok": True, "trump": "s", "used": 1, "leader": 0}
    got = ask(ref, op="new_hand", game="sueca", state=DEALER_3, shown=[turned], hands=HANDS)
    assert got["ok"] is False and got["reason"] == "not_in_hand"
    assert "Seat 4" in got["message"]          # seat 3 of the protocol, for people
    # the refusal changed nothing: the hand started before is still in play
    assert ask(ref, op="play", seat=0, card="2c") == {"ok": True}
    game = get_game("sueca")
    flow = game.hand_flow(game.state_from_json(DEALER_3),
                          [[game.pack.parse(c) for c in h] for h in HANDS])
    with pytest.raises(IllegalPlay) as refused:
        flow.card(3, game.pack.parse(turned))
    assert refused.value.reason == got["reason"]


def test_new_hand_given_only_the_leader_checks_the_turned_card_too():
    ref = Referee()
    assert ask(ref, op="new_hand", game="sueca", leader=0, shown=["As"], hands=HANDS) == {
        "ok": True, "trump": "s", "used": 1, "leader": 0}
    got = ask(ref, op="new_hand", game="sueca", leader=0, shown=["Ah"], hands=HANDS)
    assert got["reason"] == "not_in_hand" and "Seat 4" in got["message"]
    assert ask(ref, op="play", seat=0, card="2c") == {"ok": True}   # the first hand goes on
    assert ask(ref, op="new_hand", game="sueca", leader=1, shown=["7c"], hands=HANDS)["ok"]


def test_new_hand_with_hands_unknown_takes_any_turned_card():
    ref = Referee()
    assert ask(ref, op="new_hand", game="sueca", state=DEALER_3, shown=["2h"]) == {
        "ok": True, "trump": "h", "used": 1, "leader": 0}


def test_denounce_is_off_in_strict_mode():
    ref = Referee()
    ask(ref, op="new_hand", game="sueca", state={"score": [0, 0], "carry": 0, "dealer": 3},
        trump="h")
    got = ask(ref, op="denounce", game="sueca", seat=0, accused=1, lang="ro")
    assert got["reason"] == "denounce_off" and "renunț" in got["message"]


def play_match(options: dict, seed: int, known: bool) -> dict:
    """A whole match of random legal cards, every line through the referee."""
    game = get_game("sueca", options)
    rng = random.Random(seed)
    ref = Referee()
    state = game.new_match(rng).to_json()
    for _ in range(300):
        if state["winner"] is not None:
            return state
        dealt = game.deal(rng, state["dealer"])
        hands = [list(h) for h in dealt.hands]
        req = {"op": "new_hand", "game": "sueca", "options": options, "state": state,
               "shown": [dealt.shown[0].code]}
        if known:
            req["hands"] = [[c.code for c in h] for h in hands]
        got = ask(ref, **req)
        assert got["ok"] and got["trump"] == dealt.trump and got["leader"] == dealt.leader
        seat, trick, answer = dealt.leader, [], None
        if rng.random() < 0.2:
            req = {"op": "redeal", "game": "sueca", "seat": seat}
            if not known:
                req["hand"] = [c.code for c in hands[seat]]
            answer = ask(ref, **req)
            if not answer["ok"]:
                assert answer["reason"] in ("redeal_refused", "redeal_not_allowed")
                answer = None
        while answer is None or "hand" not in answer:
            legal = game.legal_subset(dealt.trump, trick, hands[seat])
            c = rng.choice(legal)
            answer = ask(ref, op="play", seat=seat, card=c.code)
            assert answer["ok"], answer
            hands[seat].remove(c)
            trick.append(c)
            if "trick" in answer:
                seat, trick = answer["trick"]["winner"], []
            else:
                seat = (seat + 1) % 4
        result = answer["hand"]
        if "redeal" not in result:
            assert sum(result["points"]) == 120
        state = result["state"]
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("known", [True, False])
def test_random_matches_through_the_referee_end_with_a_winner(seed, known):
    options = [{}, {"target": 2}, {"redeal_threshold": "brazil", "tie": "annul"},
               {"flag_requires_all_tricks": False, "flag_effect": "four_points"}][seed]
    state = play_match(options, seed, known)
    target = get_game("sueca", options).options["target"]
    assert state["score"][state["winner"]] >= target


def test_a_denounce_after_the_last_card_replaces_the_hands_result():
    game = get_game("sueca", {"revoke_mode": "denounce_hand_120"})
    ref = Referee()
    rng = random.Random(3)
    dealt = game.deal(rng, 3)
    hands = [list(h) for h in dealt.hands]
    before = {"score": [0, 0], "carry": 0, "dealer": 3, "winner": None}
    ask(ref, op="new_hand", game="sueca", options={"revoke_mode": "denounce_hand_120"},
        state=before, shown=[dealt.shown[0].code], hands=[[c.code for c in h] for h in hands])
    seat, trick, answer = 0, [], {}
    while "hand" not in answer:
        c = game.legal_subset(dealt.trump, trick, hands[seat])[0]
        answer = ask(ref, op="play", seat=seat, card=c.code)
        hands[seat].remove(c)
        trick.append(c)
        seat, trick = ((answer["trick"]["winner"], []) if "trick" in answer
                       else ((seat + 1) % 4, trick))
    points = answer["hand"]["points"]
    assert sum(points) == 120
    # nobody revoked, so a denounce is false and costs the accusers (team 1) the hand
    got = ask(ref, op="denounce", game="sueca", seat=1, accused=0)
    assert got["penalty"]["reason"] == "false_denounce"
    assert got["hand"]["state"] == {"score": [2, 0], "carry": 0, "dealer": 0, "winner": None}
    assert ask(ref, op="denounce", game="sueca", seat=1, accused=0)["reason"] == "hand_over"
