"""One numbering for people: wherever a person reads a seat (the screen, the
log of `cardtable run`, the headless demo's summary) seats count from 1 and
teams are named by their seats ("1+3"), while files and the protocol keep
the 0-based indices of the spec."""

from __future__ import annotations

import pytest

from engine.messages import seat_label
from table.ports import DEALER
from tests.table.test_controller_filicau import HANDS, PLAYS, make_rig


def finished_match(language):
    rig = make_rig("scan", language, options={"match_length": 1})
    rig.press("ok")
    for seat, hand in enumerate(HANDS):
        for code in hand:
            rig.tap(seat, code)
    rig.tap(DEALER, "9b")
    for seat, code in PLAYS:
        rig.tap(seat, code)
    rig.press("ok")
    return rig


@pytest.mark.parametrize(("language", "words", "draw"), [
    ("en", "Match over: 2+4 win the match; 2+4 masters, 1+3 slaves; Hands played: 3.",
     "Match over: No winner: a draw; even; Hands played: 1."),
    ("ro", "Meciul s-a terminat: 2+4 câștigă meciul; 2+4 stăpâni, 1+3 slugi; "
           "Partide jucate: 3.",
     "Meciul s-a terminat: Fără câștigător: egalitate; egali; Partide jucate: 1."),
    ("hu", "Vége a mérkőzésnek: 2+4 nyerte a mérkőzést; 2+4 urak, 1+3 szolgák; "
           "Lejátszott leosztások: 3.",
     None),
])
def test_a_match_in_words_names_the_teams_by_their_seats(language, words, draw):
    rig = finished_match(language)
    match = rig.session.match
    if draw is not None:
        assert rig.ctl.presenter.match_words(match) == draw
    # the state a headless demo ended with: the protocol's team 1 won ...
    match.state = match.game.state_from_json(
        {"status": "masters:1", "dealer": 2, "hands": 3, "tally": [0, 3], "winner": 1,
         "over": True})
    assert rig.ctl.presenter.match_words(match) == words     # ... that is seats 2 and 4
    rig.close()


def test_the_screen_and_the_sentences_agree_on_seat_numbers():
    rig = make_rig("open")
    rig.press("ok")
    rig.tap(DEALER, "9b")
    rig.tap(2, "Oa")                       # seat index 2 plays before index 0 led
    assert rig.view.title == "Seat 3" == seat_label(2)
    assert rig.view.message == "It is seat 1's turn, not seat 3's."
    assert "".join(p for p in rig.view.rule if isinstance(p, str)) == "Wait: seat 1 plays now"
    rig.close()


def test_a_rule_missing_a_parameter_falls_back_to_the_sentence(caplog):
    from engine.messages import Catalogue

    rig = make_rig("open")
    rig.press("ok")
    model = rig.ctl.model
    broken = Catalogue({"odd": {"en": "Seat {seat} did something odd.", "ro": "Ciudat {seat}.",
                                "hu": "Furcsa {seat}."},
                        "odd.rule": {"en": "Odd {nothing}", "ro": "{nothing}", "hu": "{nothing}"}})
    model._catalogue = (model.session.selection.game, model.catalogue() | broken)
    model.refuse(1, "odd")
    view = rig.ctl.presenter.view()
    assert view.title == "Seat 2" and view.rule == ()
    assert view.message == "Seat 2 did something odd."
    assert "no short rule for odd" in caplog.text
    rig.close()


def test_a_refusal_notice_carries_what_a_voice_needs_to_say_it():
    from engine.registry import catalogue

    rig = make_rig("open")
    rig.press("ok")
    heard = []
    rig.ctl.model.listeners.append(heard.append)
    rig.tap(DEALER, "9b")
    rig.tap(0, "Kb")
    rig.tap(2, "Oa")                                   # out of turn
    refused = [n for n in heard if n.kind == "refused"][-1]
    assert refused.data["reason"] == "not_your_turn"
    assert refused.data["rule"] == "Wait: seat 2 plays now"
    spoken = catalogue("filicau").rule(refused.data["reason"], "ro", signs=False,
                                       **refused.data["params"])
    assert spoken == "Stai: acum joacă locul 2"
    rig.close()
