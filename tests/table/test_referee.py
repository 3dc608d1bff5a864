"""`cardtable referee`: the spec's examples exactly, every refusal, and garbage."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import get_game
from table.referee import Referee


def ask(ref: Referee, obj) -> dict:
    line = obj if isinstance(obj, str | bytes) else json.dumps(obj)
    return json.loads(ref.answer_line(line))


# The examples of shared/spec/referee.md, with their exact answers (the "…"
# message of the first is checked separately).
SPEC = [
    ({"op": "trick", "game": "filicau", "trump": "b", "cards": ["Aa", "7b", "Ol", "Ta"]},
     {"ok": True, "winner": 2, "points": 2}),
    ({"op": "trump", "game": "filicau", "shown": ["Ol", "Ob", "9h", "Aa"]},
     {"ok": True, "trump": "h", "used": 3}),
    ({"op": "settle", "game": "filicau", "state": {"status": "masters:0", "dealer": 1},
      "points": [2, 6]},
     {"ok": True, "state": {"status": "masters:1", "dealer": 2}}),
]


@pytest.mark.parametrize("request_,answer", SPEC)
def test_spec_examples(request_, answer):
    assert ask(Referee(), request_) == answer


def test_spec_legal_example():
    got = ask(Referee(), {"op": "legal", "game": "filicau", "trump": "l", "trick": ["Th"],
                          "hand": ["Oh", "Ob", "Aa", "7a", "Kb"], "card": "Aa"})
    assert got["ok"] is True and got["legal"] == ["Oh", "Ob"]
    assert got["verdict"]["legal"] is False and got["verdict"]["reason"] == "must_trump"
    assert got["verdict"]["message"]
    assert list(got) == ["ok", "legal", "verdict"]


def test_spec_hand_example_shape():
    ref = Referee()
    assert ask(ref, {"op": "new_hand", "game": "filicau",
                     "state": {"status": "even", "dealer": 3}, "trump": "h"}) == \
        {"ok": True, "leader": 0}
    assert ask(ref, {"op": "play", "seat": 0, "card": "Ah"}) == {"ok": True}


def test_a_whole_hand_with_hands_known():
    rng = random.Random(11)
    g = get_game("filicau")
    d = g.deal(rng, 2)
    ref = Referee()
    got = ask(ref, {"op": "new_hand", "game": "filicau",
                    "state": {"status": "masters:1", "dealer": 2},
                    "shown": [c.code for c in d.hands[2][:5]],
                    "hands": [[c.code for c in h] for h in d.hands]})
    assert got == {"ok": True, "trump": d.trump, "used": len(d.shown), "leader": 3}
    mirror = g.new_deal(d.trump, 3, d.hands)
    answers = []
    while not mirror.finished:
        seat = mirror.turn
        c = rng.choice(list(mirror.legal_cards()))
        mirror.play(seat, c)
        answers.append(ask(ref, {"op": "play", "seat": seat, "card": c.code}))
    assert all(a["ok"] for a in answers)
    tricks = [a["trick"] for a in answers if "trick" in a]
    assert [t["winner"] for t in tricks] == [t.winner for t in mirror.tricks]
    last = answers[-1]["hand"]
    assert sum(last["points"]) == 8 and last["points"] == mirror.team_points()
    p0, p1 = last["points"]
    # expected status, straight from the rules table
    if 8 in (p0, p1):
        status = "even"
    elif p0 >= 6:
        status = "masters:0"
    elif p1 >= 6:
        status = "masters:1"
    else:
        status = "masters:1"  # unchanged
    assert last["state"]["status"] == status
    # dealer 2 (team 0): even -> 3; team 0 slaves -> 2 stays; team 1 slaves -> 3
    assert last["state"]["dealer"] == (2 if status == "masters:1" else 3)
    # the hand is over: a further play is refused
    assert ask(ref, {"op": "play", "seat": 0, "card": "Oa"})["reason"] == "hand_over"


def test_an_illegal_play_is_refused_and_the_same_seat_plays_again():
    ref = Referee()
    hands = [["Oa", "Ah", "Th", "Aa", "7a", "Al", "8b", "9b"],
             ["Ol", "Kh", "9h", "Ta", "Ka", "Tl", "7l", "7b"],
             ["Oh", "Uh", "8h", "Ua", "9a", "Kl", "Ab", "Tb"],
             ["Ob", "7h", "8a", "Ul", "9l", "8l", "Kb", "Ub"]]
    ask(ref, {"op": "new_hand", "game": "filicau", "state": {"status": "even", "dealer": 3},
              "trump": "h", "hands": hands})
    assert ask(ref, {"op": "play", "seat": 0, "card": "Aa"}) == {"ok": True}
    got = ask(ref, {"op": "play", "seat": 1, "card": "Tl", "lang": "ro"})
    assert got["ok"] is False and got["reason"] == "must_follow"
    # the protocol's seat 1 is the second player: "Locul 2" for people
    assert got["message"].startswith("Locul 2 ")
    got = ask(ref, {"op": "play", "seat": 1, "card": "Aa"})
    assert got["reason"] == "already_played"
    got = ask(ref, {"op": "play", "seat": 1, "card": "Oh"})
    assert got["reason"] == "not_in_hand"
    assert ask(ref, {"op": "play", "seat": 1, "card": "Ta"}) == {"ok": True}


def test_hands_unknown_reports_a_revoke():
    ref = Referee()
    ask(ref, {"op": "new_hand", "game": "filicau", "state": {"status": "even", "dealer": 3},
              "trump": "h"})
    for seat, code in [(0, "Aa"), (1, "Ta"), (2, "Kl"), (3, "8a"), (0, "9h"), (1, "Kh")]:
        assert ask(ref, {"op": "play", "seat": seat, "card": code})["ok"]
    assert ask(ref, {"op": "play", "seat": 2, "card": "Uh"}) == \
        {"ok": True, "revoke": {"seat": 2, "trick": 1, "suit": "h"}}


def test_shown_cards_belong_to_the_dealer_when_hands_are_unknown():
    ref = Referee()
    got = ask(ref, {"op": "new_hand", "game": "filicau",
                    "state": {"status": "even", "dealer": 3}, "shown": ["Ol", "9h"]})
    assert got == {"ok": True, "trump": "h", "used": 2, "leader": 0}
    assert ask(ref, {"op": "play", "seat": 0, "card": "Ol"})["reason"] == "not_in_hand"


def test_undo_extension():
    ref = Referee()
    assert ask(ref, {"op": "undo"})["reason"] == "no_hand"
    ask(ref, {"op": "new_hand", "game": "filicau", "state": {"status": "even", "dealer": 3},
              "trump": "h"})
    assert ask(ref, {"op": "undo"})["reason"] == "nothing_to_undo"
    ask(ref, {"op": "play", "seat": 0, "card": "Ah"})
    assert ask(ref, {"op": "undo"}) == {"ok": True, "seat": 0, "card": "Ah"}
    assert ask(ref, {"op": "play", "seat": 0, "card": "Ah"}) == {"ok": True}


def test_an_op_naming_another_game_than_the_hand_in_play_is_refused():
    """Issue 26, case 5: `undo` naming Sueca during a Filicău hand took back
    the Filicău play. A request on the hand in play that names another game
    is refused and changes nothing, whichever op it is."""
    ref = Referee()
    ask(ref, {"op": "new_hand", "game": "filicau", "state": {"status": "even", "dealer": 3},
              "shown": ["9h"]})
    assert ask(ref, {"op": "play", "seat": 0, "card": "Ah"}) == {"ok": True}
    for request in ({"op": "undo", "game": "sueca"},
                    {"op": "play", "game": "sueca", "seat": 1, "card": "Th"},
                    {"op": "play", "game": "filko", "seat": 1, "card": "Th"},
                    {"op": "denounce", "game": "sueca", "seat": 1, "accused": 0},
                    {"op": "meld", "game": "fildinsky", "seat": 1, "melds": []},
                    {"op": "bind", "game": "filcau20", "seat": 1, "call": "pass"}):
        got = ask(ref, request)
        assert got["ok"] is False and got["reason"] == "bad_request", request
        assert "the hand being played is filicau, not" in got["message"], request
    # nothing changed: seat 1 is still to play, and the Filicău play is there to undo
    assert ask(ref, {"op": "play", "seat": 0, "card": "Th"})["reason"] == "not_your_turn"
    assert ask(ref, {"op": "undo", "game": "filicau"}) == {"ok": True, "seat": 0, "card": "Ah"}
    assert ask(ref, {"op": "undo"})["reason"] == "nothing_to_undo"


def test_games_extension_lists_filicau_with_its_options():
    got = ask(Referee(), {"op": "games"})
    ids = [g["id"] for g in got["games"]]
    assert "filicau" in ids
    filicau = got["games"][ids.index("filicau")]
    assert filicau["options"] == {"early_stop_when_decided": False, "match_length": 0}


@pytest.mark.parametrize("request_,reason", [
    ({"op": "trick", "game": "whist", "trump": "h", "cards": ["Ah"]}, "unknown_game"),
    ({"op": "trick", "game": 7, "trump": "h", "cards": ["Ah"]}, "unknown_game"),
    ({"op": "trick", "game": "filicau", "options": {"foo": 1}, "cards": ["Ah"]},
     "unknown_option"),
    ({"op": "trick", "game": "filicau", "options": {"match_length": "x"}, "cards": ["Ah"]},
     "unknown_option"),
    ({"op": "trick", "game": "filicau", "options": [], "cards": ["Ah"]}, "bad_request"),
    ({"op": "trick", "game": "filicau", "trump": "h", "cards": ["Ah", "2c"]}, "unknown_card"),
    ({"op": "trick", "game": "filicau", "trump": "h", "cards": []}, "bad_request"),
    ({"op": "trick", "game": "filicau", "trump": "h", "cards": ["Ah"] * 2}, "bad_request"),
    ({"op": "trick", "game": "filicau", "trump": "h",
      "cards": ["Ah", "Th", "Kh", "Uh", "9h"]}, "bad_request"),
    ({"op": "trick", "game": "filicau", "trump": "x", "cards": ["Ah"]}, "bad_request"),
    ({"op": "trick", "game": "filicau", "trump": "h", "cards": "Ah"}, "bad_request"),
    ({"op": "trump", "game": "filicau", "shown": ["Oa", "Ol"]}, "bad_request"),
    ({"op": "trump", "game": "filicau"}, "bad_request"),
    ({"op": "legal", "game": "filicau", "trump": "h", "trick": ["Ah"]}, "bad_request"),
    ({"op": "legal", "game": "filicau", "trump": "h", "trick": ["Ah"], "hand": ["Ah"]},
     "bad_request"),
    ({"op": "legal", "game": "filicau", "trump": "h", "trick": [], "hand": ["Zz"]},
     "unknown_card"),
    ({"op": "settle", "game": "filicau", "state": {"status": "kings", "dealer": 0},
      "points": [4, 4]}, "bad_request"),
    ({"op": "settle", "game": "filicau", "state": {"status": "even", "dealer": 4},
      "points": [4, 4]}, "bad_request"),
    ({"op": "settle", "game": "filicau", "state": {"status": "even", "dealer": 0},
      "points": [5, 5]}, "bad_request"),
    ({"op": "settle", "game": "filicau", "state": {"status": "even", "dealer": 0},
      "points": "44"}, "bad_request"),
    ({"op": "settle", "game": "filicau", "state": [], "points": [4, 4]}, "bad_request"),
    ({"op": "new_hand", "game": "filicau", "state": {"status": "even", "dealer": 0}},
     "bad_request"),
    ({"op": "new_hand", "game": "filicau", "trump": "h"}, "bad_request"),
    ({"op": "new_hand", "game": "filicau", "state": {"status": "even", "dealer": 0},
      "trump": "h", "hands": [["Oa"]]}, "bad_request"),
    ({"op": "new_hand", "game": "filicau", "state": {"status": "even", "dealer": 0},
      "trump": "h", "hands": "all"}, "bad_request"),
    ({"op": "play", "seat": 0, "card": "Ah"}, "no_hand"),
    ({"op": "fly"}, "bad_request"),
    ({"game": "filicau"}, "bad_request"),
    ({"op": "trump", "game": "filicau", "shown": ["9h"], "lang": "de"}, "bad_request"),
])
def test_bad_requests_get_a_reason_and_a_message(request_, reason):
    got = ask(Referee(), request_)
    assert got["ok"] is False and got["reason"] == reason
    assert isinstance(got["message"], str) and got["message"]


@pytest.mark.parametrize("lang,word", [("en", "seat"), ("ro", "Locul"), ("hu", "hely")])
def test_messages_speak_the_requested_language(lang, word):
    got = ask(Referee(), {"op": "legal", "game": "filicau", "trump": "l", "trick": ["Th"],
                          "hand": ["Oh", "Ob", "Aa"], "card": "Aa", "lang": lang})
    assert word.lower() in got["verdict"]["message"].lower()


@pytest.mark.parametrize("line", ["", "   ", "not json", "[1, 2]", "42", "null", '"op"',
                                  "{", '{"op": "play"', b"\xff\xfe{}", "[" * 10000])
def test_garbage_lines_get_one_bad_request_answer(line):
    got = ask(Referee(), line)
    assert got["ok"] is False and got["reason"] == "bad_request"


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200),
                 st.dictionaries(st.sampled_from(["op", "game", "seat", "card", "trump",
                                                  "cards", "hand", "trick", "state",
                                                  "points", "shown", "hands", "options",
                                                  "lang"]),
                                 st.one_of(st.none(), st.booleans(), st.integers(),
                                           st.text(max_size=5),
                                           st.sampled_from(["filicau", "legal", "trick",
                                                            "trump", "settle", "new_hand",
                                                            "play", "undo", "h", "Oa"]),
                                           st.lists(st.sampled_from(["Oa", "Th", "7b", "xx"]),
                                                    max_size=9)),
                                 max_size=8).map(json.dumps)))
def test_the_referee_answers_every_random_line_with_one_json_object(line):
    ref = Referee()
    text = ref.answer_line(line)
    assert "\n" not in text
    got = json.loads(text)
    assert isinstance(got, dict) and isinstance(got["ok"], bool)
    if not got["ok"]:
        assert got["reason"] and got["message"]


def test_a_games_own_op_on_the_hand_in_play_may_leave_out_the_game():
    """The same Fildinsky hand twice, its meld and draw ops with and without
    "game": the answers are the same."""
    answers = []
    for with_game in (True, False):
        ref = Referee()
        ask(ref, {"op": "new_hand", "game": "fildinsky",
                  "state": {"dealer": 1, "score": [0, 0]}, "shown": ["9h"],
                  "hands": [["Qs", "Kh", "7c", "8c", "9c", "7d", "8d", "9d"],
                            ["Jd", "Qh", "7s", "8s", "9s", "Tc", "Jc", "Qc"]]})
        ask(ref, {"op": "play", "seat": 0, "card": "Qs"})
        ask(ref, {"op": "play", "seat": 1, "card": "Jd"})
        extra = {"game": "fildinsky"} if with_game else {}
        answers.append([ask(ref, {"op": "meld", "seat": 0, "melds": ["bezique"], **extra}),
                        ask(ref, {"op": "draw", "seat": 0, "card": "Ah", **extra})])
    assert answers[0] == answers[1]
    assert answers[1][0]["ok"] and answers[1][0]["melds"][0]["points"] == 40
    assert answers[1][1] == {"ok": True, "card": "Ah", "stock": 47,
                             "next": {"step": "draw", "seat": 1}}
    # with no hand in play there is no game to take: the op is unknown
    assert ask(Referee(), {"op": "meld", "seat": 0, "melds": []})["reason"] == "bad_request"


def test_filicau_shown_cards_must_be_the_dealers_when_hands_are_given():
    hands = [["Oa", "Ah", "Th", "Aa", "7a", "Al", "8b", "9b"],
             ["Ol", "Kh", "9h", "Ta", "Ka", "Tl", "7l", "7b"],
             ["Oh", "Uh", "8h", "Ua", "9a", "Kl", "Ab", "Tb"],
             ["Ob", "7h", "8a", "Ul", "9l", "8l", "Kb", "Ub"]]
    ref = Referee()
    got = ask(ref, {"op": "new_hand", "game": "filicau", "hands": hands, "shown": ["Ah"],
                    "state": {"status": "even", "dealer": 3}})
    assert got["ok"] is False and got["reason"] == "not_in_hand"
    assert ask(ref, {"op": "play", "seat": 0, "card": "Ah"})["reason"] == "no_hand"
    got = ask(ref, {"op": "new_hand", "game": "filicau", "hands": hands, "shown": ["Ob", "7h"],
                    "state": {"status": "even", "dealer": 3}})
    assert got == {"ok": True, "trump": "h", "used": 2, "leader": 0}
