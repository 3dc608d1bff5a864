"""The referee speaks the whole Filkó family: trumps from the cut, the
Servant, the Old Man's call, team membership where teams are not fixed by
seat, whole hands and whole matches of every variant."""

from __future__ import annotations

import json
import random

import pytest

from engine import get_game
from table.referee import Referee

VARIANTS = [
    ("filko", {}),
    ("filko", {"over_order": "ahbl", "cutter": "right", "first_lead": "left",
               "dealer_while_even": "loser"}),
    ("filko", {"servant_choice": "auto"}),
    ("filko_hats", {}),
    ("filko_hats", {"win_threshold": 62}),
    ("filko6", {}),
    ("filko6", {"top_trumps": "szeged", "over_order": "ahbl"}),
    ("filko6", {"scoring": "romanian"}),
    ("filko5", {}),
    ("filko5", {"top_trumps": "szeged", "old_man_card": "top_trump"}),
    ("filko5", {"top_trumps": "kelebia"}),
    ("filko5", {"top_trumps": "kelebia", "undertrump_required": False}),
    ("filko5", {"top_trumps": "kelebia", "teams": "rich_poor"}),
    ("filko5", {"top_trumps": "szeged", "teams": "rich_poor"}),
    ("filko5", {"old_man_may_call_own_card": True, "liberation_by_6_makes_masters": True,
                "liberating_team": "old_man_opponents"}),
    ("filko5", {"teams": "rich_poor"}),
    ("filko5", {"teams": "rich_poor", "rich_poor_form": "called", "rp_dealer": "next_loser"}),
    ("filko5", {"teams": "rich_poor", "teams_fixed_until_liberated": True,
                "liberation_threshold": 3, "both_top_overs": "alone", "rp_leader": "right"}),
]
IDS = [f"{gid}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for gid, o in VARIANTS]


class Client:
    def __init__(self):
        self.referee = Referee()

    def __call__(self, **request):
        return json.loads(self.referee.answer_line(json.dumps(request)))


def codes(cs):
    return [c.code for c in cs]


def play_hand(ask, game, gid, options, state, rng, hands_known):
    """One whole hand through the referee, by honest random players.
    Returns (the final answer's "hand", every answer to a play)."""
    dealt = game.deal(rng, state["dealer"])
    request = {"op": "new_hand", "game": gid, "options": options, "state": state}
    if hands_known:
        request["hands"] = [codes(h) for h in dealt.hands]
    if gid == "filko5":
        if not hands_known and state["status"] == "even":
            request["old_man"] = dealt.extra["old_man"]
    else:
        request["shown"] = codes(dealt.shown)
    opened = ask(**request)
    assert opened["ok"], opened
    called = {}
    if "call" in opened:
        old_man = opened["old_man"]
        assert old_man == dealt.extra["old_man"]
        if opened["call"] == "card":
            own = set(dealt.hands[old_man]) if not options.get(
                "old_man_may_call_own_card") else set()
            suit = rng.choice("alhb")
            choices = [c for c in game.callable_cards(suit, None) if c not in own]
            while not choices:
                suit = rng.choice("alhb")
                choices = [c for c in game.callable_cards(suit, None) if c not in own]
            called = ask(op="call", game=gid, options=options, card=rng.choice(choices).code)
        else:
            called = ask(op="call", game=gid, options=options, trump=rng.choice("alhb"))
        assert called["ok"], called
    trump = opened.get("trump") or called["trump"]
    held = [list(h) for h in dealt.hands]
    trick = []
    answers = []
    while True:
        # Whose turn it is comes from the protocol too (the view of the table).
        step = ask(op="view", game=gid, options=options)["step"]
        assert step["kind"] == "play"
        seat = step["seat"]
        legal = game.legal_subset(trump, trick, held[seat])
        illegal = [c for c in held[seat] if c not in legal]
        if hands_known and illegal and rng.random() < 0.3:
            # A card the rules refuse here (Kelebia: one that does not head the
            # trick) is refused with the rule's reason, and the seat plays again.
            refused = ask(op="play", seat=seat, card=rng.choice(illegal).code)
            assert refused["ok"] is False, refused
            assert refused["reason"] in ("must_follow", "must_trump", "must_beat"), refused
            assert ask(op="view", game=gid, options=options)["step"] == step
        c = rng.choice(legal)
        answer = ask(op="play", seat=seat, card=c.code)
        assert answer["ok"] and "revoke" not in answer, answer
        answers.append(answer)
        held[seat].remove(c)
        trick.append(c)
        if "trick" in answer:
            trick = []
        if "hand" in answer:
            return answer["hand"], answers


def finish(ask, gid, options, hand):
    if "servant_from" in hand:
        chosen = ask(op="servant", game=gid, options=options, servant=hand["servant_from"][-1])
        assert chosen["ok"], chosen
        return chosen["state"]
    return hand["state"]


@pytest.mark.parametrize("gid, options", VARIANTS, ids=IDS)
@pytest.mark.parametrize("hands_known", [True, False], ids=["known", "unknown"])
def test_a_whole_match_through_the_referee(gid, options, hands_known):
    ask = Client()
    options = {**options, "match_length": 4}
    game = get_game(gid, options)
    rng = random.Random(len(gid) * 7 + len(options))
    state = game.new_match(rng).to_json()
    hands = 0
    while not state.get("over"):
        hand, answers = play_hand(ask, game, gid, options, state, rng, hands_known)
        assert sum(hand["points"]) == game.total_points
        if gid == "filko5":
            assert len(hand["teams"]) == 5 and hand["teams"].count(0) in (1, 2)
            # The partnership is announced by exactly one play (or known from the start).
            reveals = [a for a in answers if "teams" in a]
            assert len(reveals) <= 1
        state = finish(ask, gid, options, hand)
        hands += 1
    assert hands == 4 and state["hands"] == 4


# ----- four and six players -----------------------------------------------------------------

def test_trump_question_from_the_cut():
    ask = Client()
    assert ask(op="trump", game="filko", shown=["Oa", "Ol", "Oh", "Ob", "9h"]) == {
        "ok": True, "trump": "h", "used": 5}
    assert ask(op="trump", game="filko6", options={"top_trumps": "szeged"},
               shown=["7a", "Kb"]) == {"ok": True, "trump": "b", "used": 2}
    refused = ask(op="trump", game="filko", shown=["Oa", "Ob"])
    assert refused["reason"] == "bad_request"
    assert ask(op="trump", game="filko5", shown=["9h"])["reason"] == "bad_request"


HANDS = [["Oa", "9h", "Ab", "Tb", "Kb", "Ub", "9b", "8b"],
         ["Ol", "Ah", "Th", "Kh", "Uh", "8h", "7h", "7b"],
         ["Oh", "Ob", "Aa", "Ta", "Ka", "Ua", "9a", "8a"],
         ["Al", "Tl", "Kl", "Ul", "9l", "8l", "7l", "7a"]]


def test_new_hand_from_the_cut_checks_the_cut_cards_belong_to_the_dealer():
    ask = Client()
    state = {"status": "even", "dealer": 0}
    refused = ask(op="new_hand", game="filko", state=state, shown=["Kl"], hands=HANDS)
    assert refused["ok"] is False and refused["reason"] == "filko_not_cut_card"
    assert ask(op="new_hand", game="filko", state=state, shown=["Oa", "9h", "Ab"],
               hands=HANDS) == {"ok": True, "trump": "h", "used": 2, "leader": 1}


def test_servant_choice_is_checked_and_then_settles():
    ask = Client()
    game = get_game("filko")
    rng = random.Random(0)
    for _ in range(200):
        state = {"status": "even", "dealer": 2}
        hand, _ = play_hand(ask, game, "filko", {}, state, rng, True)
        if "servant_from" in hand:
            break
    else:
        raise AssertionError("no hand made masters")
    winners = 0 if hand["points"][0] >= 6 else 1
    assert hand["servant_from"] == [s for s in range(4) if s % 2 != winners]
    assert "state" not in hand
    wrong = ask(op="servant", game="filko", servant=winners)
    assert wrong["reason"] == "filko_bad_servant"
    assert ask(op="play", seat=0, card="Oa")["reason"] == "hand_over"
    chosen = ask(op="servant", game="filko", servant=hand["servant_from"][0])
    assert chosen == {"ok": True, "state": {
        "status": f"masters:{winners}", "dealer": hand["servant_from"][0],
        "servant": hand["servant_from"][0]}}
    assert ask(op="servant", game="filko", servant=1)["reason"] == "not_expected"


def test_settle_with_servant():
    ask = Client()
    assert ask(op="settle", game="filko", state={"status": "even", "dealer": 1},
               points=[6, 2], servant=3) == {
        "ok": True, "state": {"status": "masters:0", "dealer": 3, "servant": 3}}
    missing = ask(op="settle", game="filko", state={"status": "even", "dealer": 1},
                  points=[6, 2], lang="hu")
    assert missing["reason"] == "bad_request" and "servant" in missing["message"]
    assert ask(op="settle", game="filko", state={"status": "even", "dealer": 1},
               points=[6, 2], servant=2)["reason"] == "filko_bad_servant"


# ----- five players ---------------------------------------------------------------------

HANDS5 = [["Oa", "Ah", "Th", "Kh", "9a", "8a"],
          ["Al", "Tl", "Kl", "Ul", "9l", "8l"],
          ["Ol", "Ob", "Ab", "Tb", "Kb", "Ub"],
          ["Oh", "Aa", "Ta", "Ka", "Ua", "Uh"],
          ["9h", "8h", "7h", "9b", "8b", "7a"]]
EVEN = {"status": "even", "dealer": 1}


def test_the_old_man_calls_and_the_partnership_stays_secret_until_played():
    ask = Client()
    assert ask(op="new_hand", game="filko5", state=EVEN, hands=HANDS5) == {
        "ok": True, "old_man": 0, "call": "card"}
    refused = ask(op="play", seat=0, card="9a")
    assert refused["reason"] == "filko5_call_first" and "(seat 1)" in refused["message"]
    assert ask(op="call", game="filko5", seat=3, card="Uh")["reason"] == "not_your_turn"
    assert ask(op="call", game="filko5", card="Ah")["reason"] == "filko5_call_own"
    assert ask(op="call", game="filko5", card="Oh")["reason"] == "filko_not_a_choice"
    assert ask(op="call", game="filko5", trump="h")["reason"] == "bad_request"
    assert ask(op="call", game="filko", card="Uh")["reason"] == "bad_request"
    assert ask(op="call", game="filko5", card="Uh") == {
        "ok": True, "trump": "h", "called": "Uh", "leader": 0}
    public = ask(op="view", game="filko5")
    assert public["teams"] == [0, None, None, None, None] and public["team_points"] is None
    assert public["hand"] == [] and public["called"] == "Uh"
    partner = ask(op="view", game="filko5", seat=3)
    assert partner["teams"] == [0, 1, 1, 0, 1] and sorted(partner["hand"]) == sorted(HANDS5[3])
    for seat, c in ((0, "9a"), (1, "8l"), (2, "Ob"), (3, "Aa"), (4, "7a"), (2, "Ab")):
        answer = ask(op="play", seat=seat, card=c)
        assert answer["ok"] and "teams" not in answer
    assert ask(op="play", seat=3, card="Uh") == {"ok": True, "teams": [0, 1, 1, 0, 1]}
    assert ask(op="view", game="filko5", seat=1)["team_points"] == [0, 1]


def test_undo_the_call():
    ask = Client()
    ask(op="new_hand", game="filko5", state=EVEN, hands=HANDS5)
    ask(op="call", game="filko5", card="Uh")
    assert ask(op="undo") == {"ok": True, "undone": "call"}
    assert ask(op="play", seat=0, card="9a")["reason"] == "filko5_call_first"
    assert ask(op="undo")["reason"] == "nothing_to_undo"
    assert ask(op="call", game="filko5", card="9h")["ok"]


def test_hands_unknown_the_old_man_is_named_and_a_call_of_his_own_card_is_caught():
    ask = Client()
    refused = ask(op="new_hand", game="filko5", state=EVEN)
    assert refused["reason"] == "bad_request" and "old_man" in refused["message"]
    assert ask(op="new_hand", game="filko5", state=EVEN, old_man=0) == {
        "ok": True, "old_man": 0, "call": "card"}
    assert ask(op="call", game="filko5", card="Ah")["ok"]
    caught = ask(op="play", seat=0, card="Ah")
    assert caught["reason"] == "filko5_called_own"
    assert ask(op="play", seat=1, card="Oa")["reason"] == "not_your_turn"
    assert ask(op="undo") == {"ok": True, "undone": "call"}
    assert ask(op="call", game="filko5", card="Uh")["ok"]
    assert ask(op="play", seat=0, card="Ah") == {"ok": True}


def test_fresh_hands_take_no_trump_and_masters_hands_take_no_call():
    ask = Client()
    assert ask(op="new_hand", game="filko5", state=EVEN, trump="h",
               hands=HANDS5)["reason"] == "bad_request"
    masters = {"status": "masters:0", "dealer": 1, "servant": 1, "teams": [0, 1, 1, 0, 1],
               "trump": "l", "old_man": 3}
    assert ask(op="new_hand", game="filko5", state=masters, hands=HANDS5) == {
        "ok": True, "trump": "l", "leader": 3, "teams": [0, 1, 1, 0, 1]}
    assert ask(op="call", game="filko5", card="Uh")["reason"] == "not_expected"
    assert ask(op="play", seat=3, card="Oh") == {"ok": True}


def test_rich_and_poor_by_overs_names_only_trumps():
    ask = Client()
    options = {"teams": "rich_poor"}
    assert ask(op="new_hand", game="filko5", options=options, state=EVEN, hands=HANDS5) == {
        "ok": True, "old_man": 0, "call": "trump"}
    assert ask(op="call", game="filko5", options=options, card="Uh")["reason"] == "bad_request"
    assert ask(op="call", game="filko5", options=options, trump="b") == {
        "ok": True, "trump": "b", "leader": 0}
    assert ask(op="view", game="filko5", options=options, seat=2)["teams"] == [0, 1, 0, 1, 1]


def test_settle_five_players():
    ask = Client()
    answer = ask(op="settle", game="filko5", state=EVEN, points=[6, 2],
                 teams=[0, 1, 1, 0, 1], old_man=0, trump="h")
    assert answer == {"ok": True, "state": {
        "status": "masters:0", "dealer": 1, "servant": 1, "teams": [0, 1, 1, 0, 1],
        "trump": "h", "old_man": 0}}
    swim = ask(op="settle", game="filko5", state=answer["state"], points=[8, 0])
    assert swim == {"ok": True, "state": {"status": "even", "dealer": 2, "servant": None,
                                          "teams": None, "trump": None, "old_man": None}}
    assert ask(op="settle", game="filko5", state=EVEN, points=[6, 2])["reason"] == "bad_request"


def test_kelebia_legal_question():
    ask = Client()
    answer = ask(op="legal", game="filko5", options={"top_trumps": "kelebia"}, trump="b",
                 trick=["Kh"], hand=["Ah", "9h", "Ub"], card="9h")
    assert answer["legal"] == ["Ah"] and answer["verdict"]["reason"] == "must_beat"
    assert ask(op="legal", game="filko5", options={"top_trumps": "kelebia"}, trump="b",
               trick=["Kh"], hand=["8l"])["reason"] == "unknown_card"


@pytest.mark.parametrize("request_, reason", [
    ({"op": "new_hand", "game": "filko", "state": {"status": "even", "dealer": 0}},
     "bad_request"),
    ({"op": "new_hand", "game": "filko", "state": {"status": "even", "dealer": 0},
      "shown": ["Oa", "Ol"]}, "bad_request"),
    ({"op": "new_hand", "game": "filko", "state": {"status": "even", "dealer": 0},
      "trump": "h", "hands": "all"}, "bad_request"),
    ({"op": "new_hand", "game": "filko", "state": {"status": "even", "dealer": 0},
      "trump": "h", "hands": [["Oa"], 3, [], []]}, "bad_request"),
    ({"op": "new_hand", "game": "filko", "trump": "h"}, "bad_request"),
    ({"op": "new_hand", "game": "filko5", "state": EVEN, "shown": ["9h"], "old_man": 0},
     "bad_request"),
    ({"op": "new_hand", "game": "filko5", "state": EVEN, "hands": HANDS5, "old_man": 2},
     "bad_request"),
    ({"op": "new_hand", "game": "filko6", "options": {"top_trumps": "kelebia"},
      "state": EVEN, "trump": "h"}, "unknown_option"),
    ({"op": "settle", "game": "filko", "state": {"status": "even", "dealer": 0},
      "points": 8}, "bad_request"),
    ({"op": "settle", "game": "filko5", "state": EVEN, "points": [6, 2], "teams": [0, 1],
      "old_man": 0, "trump": "h"}, "bad_request"),
    ({"op": "call", "game": "filko5", "card": "Uh"}, "no_hand"),
    ({"op": "view", "game": "filko5"}, "no_hand"),
    ({"op": "servant", "game": "filko", "servant": 1}, "no_hand"),
])
def test_bad_requests_get_a_clear_refusal(request_, reason):
    answer = Client()(**request_)
    assert answer["ok"] is False and answer["reason"] == reason and answer["message"]


def test_refusals_change_nothing_in_a_referee_hand():
    ask = Client()
    ask(op="new_hand", game="filko", state={"status": "even", "dealer": 0}, trump="h",
        hands=HANDS)
    before = ask(op="view", game="filko", seat=1)
    for bad in ({"op": "play", "seat": 2, "card": "Oh"}, {"op": "play", "seat": 1, "card": "Oh"},
                {"op": "play", "seat": 1, "card": "Zz"}, {"op": "servant", "game": "filko",
                                                          "servant": "one"}):
        assert ask(**bad)["ok"] is False
    assert ask(op="view", game="filko", seat=1) == before
    assert ask(op="play", seat=1, card="Ah") == {"ok": True}


def test_after_the_hand_undo_is_refused():
    ask = Client()
    game = get_game("filko_hats")
    play_hand(ask, game, "filko_hats", {}, {"dealer": 0}, random.Random(1), True)
    assert ask(op="undo")["reason"] == "hand_over"
