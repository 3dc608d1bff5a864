"""The referee speaks Fildinsky: legal (stock_empty), trick, melds, new_hand,
play, draw, meld, undo, settle; and whole games to 2000 over the protocol."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine import get_game
from table.referee import Referee

H0 = ["Qs", "Kh", "7c", "8c", "9c", "7d", "8d", "9d"]
H1 = ["Jd", "Qh", "7s", "8s", "9s", "Tc", "Jc", "Qc"]


def ask(ref, **req):
    return json.loads(ref.answer_line(json.dumps(req)))


def fd(ref, **req):
    return ask(ref, game="fildinsky", **req)


# ----- stateless questions ---------------------------------------------------------------

def test_legal_depends_on_stock_empty():
    ref = Referee()
    hand = ["Ac", "9c", "Kh", "7s"]
    a = fd(ref, op="legal", trump="h", trick=["Tc"], hand=hand, card="9c", stock_empty=True)
    assert a["legal"] == ["Ac"] and a["verdict"]["reason"] == "must_beat"
    a = fd(ref, op="legal", trump="h", trick=["Tc"], hand=hand, card="9c")
    assert a == {"ok": True, "legal": hand, "verdict": {"legal": True}}
    a = fd(ref, op="legal", trump="h", trick=["Td"], hand=hand, card="7s", stock_empty=True)
    assert a["legal"] == ["Kh"] and a["verdict"]["reason"] == "must_trump"
    for bad in ({"stock_empty": "yes"}, {"stok_empty": True}):
        a = fd(ref, op="legal", trump="h", trick=[], hand=hand, **bad)
        assert a["ok"] is False and a["reason"] == "bad_request"


def test_trick_identical_cards_and_brisques():
    ref = Referee()
    assert fd(ref, op="trick", trump="h", cards=["Ac", "Ac"]) == \
        {"ok": True, "winner": 0, "points": 20}
    opts = {"tie_rule_phase1": False}
    assert fd(ref, op="trick", options=opts, trump="h", cards=["Ac", "Ac"])["winner"] == 1
    assert fd(ref, op="trick", options=opts, trump="h", cards=["Ac", "Ac"],
              stock_empty=True)["winner"] == 0
    assert fd(ref, op="trick", trump="h", cards=["Tc", "7h"]) == \
        {"ok": True, "winner": 1, "points": 10}


def test_melds_question_lists_legal_melds_and_the_best_choice():
    ref = Referee()
    a = fd(ref, op="melds", trump="h", pile=["Qh", "Qs", "Qd", "Qc", "Kh", "Jd"],
           trick=["Qh", "Jd"])
    assert a == {"ok": True, "legal": ["royal_marriage", "four_queens", "bezique"],
                 "best": ["royal_marriage", "bezique"], "points": 80}
    a = fd(ref, op="melds", trump="h", pile=["Kc", "Qc", "8s"])
    assert a["ok"] is False and a["reason"] == "bad_request"  # the trick is needed
    a = fd(ref, op="melds", options={"meld_needs_current_trick_card": False}, trump="h",
           pile=["Kc", "Qc", "8s"])
    assert a == {"ok": True, "legal": ["marriage_c"], "best": ["marriage_c"], "points": 20}
    a = fd(ref, op="melds", trump="h", pile=["Kc", "Qc"], trick=["As"])
    assert a["ok"] is False and "pile" in a["message"]


def test_unknown_option_is_refused():
    a = fd(Referee(), op="trick", options={"deece": 1}, trump="h", cards=["Ac", "Kc"])
    assert a["ok"] is False and a["reason"] == "unknown_option"


# ----- a hand ------------------------------------------------------------------------------

def new_hand(ref, **extra):
    return fd(ref, op="new_hand", state={"dealer": 1, "score": [0, 0]}, shown=["9h"], **extra)


def test_new_hand_needs_the_turn_up():
    ref = Referee()
    a = fd(ref, op="new_hand", state={"dealer": 1}, trump="h")
    assert a["ok"] is False and "shown" in a["message"]
    a = fd(ref, op="new_hand", state={"dealer": 1}, shown=["9h"], trump="c")
    assert a["ok"] is False and a["reason"] == "bad_request"
    a = fd(ref, op="new_hand", state={"dealer": 1}, shown=["9h", "Kc"])
    assert a["ok"] is False
    a = fd(ref, op="new_hand", state={"dealer": 1, "score": [2000, 10]}, shown=["9h"])
    assert a["ok"] is False and a["reason"] == "match_over"
    a = fd(ref, op="new_hand", state={"dealer": 1}, shown=["6h"])
    assert a["ok"] is False and a["reason"] == "unknown_card"
    assert new_hand(ref) == {"ok": True, "trump": "h", "used": 1, "leader": 0}
    a = fd(ref, op="new_hand", leader=1, shown=["Ks"])
    assert a == {"ok": True, "trump": "s", "used": 1, "leader": 1}


def test_a_trick_its_melds_and_the_draws():
    ref = Referee()
    new_hand(ref, hands=[H0, H1])
    assert ask(ref, op="play", seat=0, card="Qs") == {"ok": True}
    a = ask(ref, op="play", seat=1, card="Jd")
    assert a == {"ok": True, "trick": {"winner": 0, "points": 0}, "hand_points": [0, 0],
                 "next": {"step": "meld", "seat": 0, "melds": ["bezique"],
                          "exchange": False}}
    a = ask(ref, op="play", seat=1, card="Qh")
    assert a["reason"] == "not_your_turn"
    a = fd(ref, op="meld", seat=0, melds=["bezique", "four_queens"])
    assert a["ok"] is False and a["reason"] == "meld_cards_missing"
    a = fd(ref, op="meld", seat=0, melds=["bezique"])
    assert a == {"ok": True, "melds": [{"meld": "bezique", "cards": ["Qs", "Jd"],
                                        "points": 40}],
                 "hand_points": [40, 0], "next": {"step": "draw", "seat": 0}}
    a = fd(ref, op="draw", seat=1, card="As")
    assert a["reason"] == "not_your_turn"
    a = fd(ref, op="draw", seat=0, card="Qs")  # one Q♠ is won, the other may be drawn
    assert a == {"ok": True, "card": "Qs", "stock": 47, "next": {"step": "draw", "seat": 1}}
    a = fd(ref, op="draw", seat=1, card="Qs")
    assert a["ok"] is False and a["reason"] == "not_in_stock"
    a = fd(ref, op="draw", seat=1)
    assert a == {"ok": True, "stock": 46, "next": {"step": "play", "seat": 0}}
    # Seat 1's hand is partly unknown now: any unseen card is accepted from it.
    ask(ref, op="play", seat=0, card="Kh")
    a = ask(ref, op="play", seat=1, card="Ah")
    assert a["trick"] == {"winner": 1, "points": 10}
    a = ask(ref, op="undo")
    assert a == {"ok": True, "undone": "play", "seat": 1, "card": "Ah",
                 "next": {"step": "play", "seat": 1}}


def test_a_play_closes_the_melds_and_records_unreported_draws():
    ref = Referee()
    new_hand(ref, hands=[H0, H1])
    ask(ref, op="play", seat=0, card="Qs")
    ask(ref, op="play", seat=1, card="Jd")
    a = ask(ref, op="play", seat=0, card="Kh")
    assert a == {"ok": True, "draws": [{"seat": 0, "card": None}, {"seat": 1, "card": None}]}
    a = fd(ref, op="meld", seat=0, melds=["bezique"])
    assert a["reason"] == "not_expected"
    a = ask(ref, op="undo")
    assert a["undone"] == "play" and a["next"] == {"step": "meld", "seat": 0,
                                                    "melds": ["bezique"], "exchange": False}


def test_the_deal_read_draws_are_reported_with_their_cards():
    ref = Referee()
    g = get_game("fildinsky")
    left = Counter(c.code for c in g.pack.cards)
    left.subtract(H0 + H1 + ["9h", "As", "Ad"])
    stock = ["As", "Ad"] + sorted(left.elements())
    assert new_hand(ref, hands=[H0, H1], stock=stock)["ok"]
    ask(ref, op="play", seat=0, card="7c")
    a = ask(ref, op="play", seat=1, card="Jc")
    assert a == {"ok": True, "trick": {"winner": 1, "points": 0}, "hand_points": [0, 0],
                 "draws": [{"seat": 1, "card": "As"}, {"seat": 0, "card": "Ad"}],
                 "next": {"step": "play", "seat": 1}}
    a = fd(ref, op="draw", seat=1)
    assert a["reason"] == "not_expected"


def test_the_deece_and_its_exchange():
    ref = Referee()
    fd(ref, op="new_hand", state={"dealer": 1, "score": [0, 0]}, shown=["Ah"],
       hands=[["7h", "Kc", "Qc", "9c", "8c", "7c", "9d", "8d"],
              ["8h", "7h", "Jc", "Tc", "9s", "8s", "7s", "7d"]])
    ask(ref, op="play", seat=0, card="7h")
    a = ask(ref, op="play", seat=1, card="8h")
    assert a["trick"] == {"winner": 1, "points": 0, "deece": 10}
    assert a["next"] == {"step": "meld", "seat": 1, "melds": [], "exchange": True}
    a = fd(ref, op="meld", seat=1, exchange=True)
    assert a == {"ok": True, "exchange": {"took": "Ah", "gave": "7h"},
                 "next": {"step": "draw", "seat": 1}}


def test_refused_melds_change_nothing():
    ref = Referee()
    new_hand(ref, hands=[H0, H1])
    ask(ref, op="play", seat=0, card="Qs")
    ask(ref, op="play", seat=1, card="Jd")
    for melds, reason in ((["bezique", "bezique"], "meld_cards_missing"),
                          (["bezique", "royal_marriage", "four_aces"], "too_many_melds")):
        a = fd(ref, op="meld", seat=0, melds=melds)
        assert a["ok"] is False and a["reason"] == reason
    a = fd(ref, op="meld", seat=0, exchange=True)
    assert a["reason"] == "no_exchange"
    a = fd(ref, op="meld", seat=0, melds=["nonsense"])
    assert a["reason"] == "bad_request" and "royal_marriage" in a["message"]
    a = fd(ref, op="meld", seat=1, melds=[])
    assert a["reason"] == "not_your_turn"
    a = fd(ref, op="meld", seat=0, melds="bezique")
    assert a["reason"] == "bad_request"
    a = fd(ref, op="meld", seat=0, melds=[])  # pass
    assert a == {"ok": True, "next": {"step": "draw", "seat": 0}}


def test_play_without_a_hand_and_after_the_end():
    ref = Referee()
    assert ask(ref, op="play", seat=0, card="Ac")["reason"] == "no_hand"
    assert fd(ref, op="draw", seat=0)["reason"] == "no_hand"
    fd(ref, op="new_hand", state={"dealer": 1, "score": [1990, 0]}, shown=["9h"],
       hands=[["Ac"] + H0[1:], H1])
    ask(ref, op="play", seat=0, card="Ac")
    a = ask(ref, op="play", seat=1, card="7s")
    assert a["hand"] == {"points": [10, 0], "brisques": [10, 0], "melds": [0, 0],
                         "bonus": [0, 0],
                         "state": {"dealer": 0, "score": [2000, 0], "winner": 0}}
    assert ask(ref, op="play", seat=0, card="Kh")["reason"] == "hand_over"
    assert ask(ref, op="undo")["reason"] == "hand_over"


def test_settle():
    ref = Referee()
    a = fd(ref, op="settle", state={"dealer": 0, "score": [1800, 900]}, points=[250, 120])
    assert a == {"ok": True, "state": {"dealer": 1, "score": [2050, 1020], "winner": 0}}
    a = fd(ref, op="settle", state={"dealer": 0, "score": [2050, 1020]}, points=[0, 0])
    assert a["reason"] == "match_over"


# ----- whole games over the protocol ------------------------------------------------------

class Client:
    """A player pair that knows the real deal and talks only JSON to the referee."""

    def __init__(self, options, mode, seed):
        self.ref = Referee()
        self.options = options
        self.mode = mode
        self.rng = random.Random(seed)
        self.engine = get_game("fildinsky", options)  # only to shuffle and deal
        self.requests = 0

    def ask(self, **req):
        self.requests += 1
        a = json.loads(self.ref.answer_line(json.dumps({"game": "fildinsky",
                                                        "options": self.options, **req})))
        assert a["ok"], (req, a)
        return a

    def follow_draws(self, answer):
        for d in answer.get("draws", []):
            c = self.take_next()
            assert d["card"] in (c, None)
            self.hands[d["seat"]].append(c)

    def take_next(self):
        if self.pos < len(self.stock):
            self.pos += 1
            return self.stock[self.pos - 1]
        c, self.bottom = self.bottom, None
        return c

    def hand(self, state):
        dealt = self.engine.deal(self.rng, state["dealer"])
        self.hands = [[c.code for c in h] for h in dealt.hands]
        self.stock = [c.code for c in dealt.extra["stock"]]
        self.pos = 0
        self.bottom = dealt.extra["turn_up"].code
        self.trump = dealt.trump
        req = {"op": "new_hand", "state": state, "shown": [self.bottom]}
        if self.mode != "blind":
            req["hands"] = [list(h) for h in self.hands]
        if self.mode == "full":
            req["stock"] = self.stock
        a = self.ask(**req)
        step = {"step": "play", "seat": a["leader"]}
        trick, tricks = [], 0
        while True:
            seat = step["seat"]
            if step["step"] == "play":
                legal = self.ask(op="legal", trump=self.trump, trick=trick,
                                 hand=self.hands[seat], stock_empty=tricks >= 24)["legal"]
                c = self.rng.choice(legal)
                self.hands[seat].remove(c)
                a = self.ask(op="play", seat=seat, card=c)
                trick.append(c)
                self.follow_draws(a)
                if "trick" in a:
                    trick, tricks = [], tricks + 1
                    if "hand" in a:
                        return a["hand"]["state"]
                    step = a["next"]
                else:
                    step = {"step": "play", "seat": 1 - seat}
            elif step["step"] == "meld":
                melds = [self.rng.choice(step["melds"])] if step["melds"] and \
                    self.rng.random() < 0.8 else []
                exchange = step["exchange"] and self.rng.random() < 0.7
                a = self.ask(op="meld", seat=seat, melds=melds, exchange=exchange)
                if "exchange" in a:
                    if self.options.get("deece_exchange_to") == "hand":
                        self.hands[seat].append(self.bottom)
                        self.bottom = None
                    else:
                        self.bottom = a["exchange"]["gave"]
                self.follow_draws(a)
                if "hand" in a:
                    return a["hand"]["state"]
                step = a["next"]
            elif step["step"] == "draw":
                c = self.take_next()
                self.hands[seat].append(c)
                req = {"op": "draw", "seat": seat}
                if self.rng.random() < 0.5:
                    req["card"] = c
                a = self.ask(**req)
                self.follow_draws(a)
                step = a["next"]

    def match(self):
        state = {"dealer": self.rng.randrange(2), "score": [0, 0]}
        hands = 0
        while state.get("winner") is None:
            hands += 1
            state = self.hand(state)
        return state, hands


@pytest.mark.parametrize(("mode", "options"), [
    ("full", {}),
    ("hands", {"deece_exchange_to": "hand", "tie_rule_phase1": False}),
    ("blind", {"game_end": "end_of_hand", "last_trick_bonus": 32}),
])
def test_whole_games_to_2000_over_the_protocol(mode, options):
    client = Client(options, mode, seed=11)
    state, hands = client.match()
    a, b = state["score"]
    assert state["winner"] == (0 if a > b else 1) and max(a, b) >= 2000 and hands >= 2


@pytest.mark.parametrize("penalty", ["none", "forfeit_last_eight"])
def test_a_blind_hand_to_the_last_eight_reports_the_revoke(penalty):
    from tests.engine.test_fildinsky_helpers import phase_one_plays

    options = {"revoke_penalty": penalty}
    _, plays, leader = phase_one_plays(get_game("fildinsky", options),
                                       "8h Kc Qc Jc 7c 7d 8d", "7h Ac 9c 7s 8s 9s Ts")
    follower = 1 - leader
    ref = Referee()
    fd(ref, op="new_hand", options=options, state={"dealer": 1, "score": [0, 0]},
       shown=["9h"])
    for seat, c in plays:  # melds passed and draws recorded unseen by the plays
        a = ask(ref, op="play", seat=seat, card=c.code)
        assert a["ok"], a
    assert a["next"]["seat"] == leader
    ask(ref, op="play", seat=leader, card="Kc")
    a = ask(ref, op="play", seat=follower, card="7s")
    assert a["reason"] == "must_trump"  # he holds the turned-up 9♥
    ask(ref, op="play", seat=follower, card="9c")  # hides his A♣
    ask(ref, op="play", seat=leader, card="Qc")
    a = ask(ref, op="play", seat=follower, card="Ac")
    assert a["revoke"] == {"seat": follower, "trick": 25, "suit": "c"}
    if penalty == "none":
        assert a["trick"] == {"winner": follower, "points": 10}
        assert "forfeit" not in a
    else:
        assert a["trick"] == {"winner": follower, "points": 10, "credited": leader}
        assert a["forfeit"] == {"seat": follower, "points": 0}  # trick 25 was not his
