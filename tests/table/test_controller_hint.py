"""The practice hint at the table (`[table] practice_hint`): MENU during play
shows the card the sampled analysis suggests to the seat to play, only when
the option is on and the table knows the hands."""

from __future__ import annotations

from table.controller.hint import Hints
from table.screens.view import TextView
from tests.table.test_controller_filicau import PLAYS, learn, make_rig


def info_lines(rig):
    rig.press("menu")
    assert rig.state == "match_info"
    view = rig.view
    assert isinstance(view, TextView)
    lines = list(view.lines)
    rig.press("ok")
    assert rig.state == "match_hand_play"
    return lines


def test_the_hint_is_off_by_default():
    rig = make_rig("scan")
    rig.press("ok")
    learn(rig, "scan")
    lines = info_lines(rig)
    assert not any("Hint" in line or "hint" in line for line in lines)


def test_menu_shows_a_legal_card_for_the_seat_to_play():
    rig = make_rig("scan", practice_hint=True)
    rig.press("ok")
    learn(rig, "scan")
    # Six tricks played as in the worked hand: two tricks left, the hint is
    # the solver's (every deal consistent with seat 0's view).
    for seat, code in PLAYS[:24]:
        rig.tap(seat, code)
    deal = rig.session.hand().flow.deal
    seat = deal.turn
    legal = {c.code for c in deal.legal_cards(seat)}
    lines = info_lines(rig)
    line = lines[1]                     # right under the status
    name = rig.ctl.model.seat_name(seat)
    assert line.startswith(f"Hint for {name}: "), lines
    shown = line.split(": ", 1)[1]
    from engine import messages

    names = {messages.card_name(code, "german", "en"): code for code in legal}
    assert shown in names, (shown, names)


def test_the_hint_is_worked_out_once_per_position():
    rig = make_rig("scan", practice_hint=True)
    rig.press("ok")
    learn(rig, "scan")
    for seat, code in PLAYS[:28]:
        rig.tap(seat, code)
    hints = rig.ctl.presenter.hints
    calls = []
    work = hints._work

    def counting(*a):
        calls.append(a)
        return work(*a)

    hints._work = counting
    first = info_lines(rig)
    second = info_lines(rig)
    assert first == second and len(calls) == 1


def test_in_romanian_and_with_no_search_budget_it_says_so():
    rig = make_rig("scan", language="ro", practice_hint=True)
    rig.press("ok")
    learn(rig, "scan")
    rig.ctl.presenter.hints = Hints(budget=1)
    assert info_lines(rig)[1] == "Nicio sugestie aici"


def test_open_play_gives_no_hint_the_cards_being_unknown():
    rig = make_rig("open", practice_hint=True)
    rig.press("ok")
    learn(rig, "open")
    assert rig.session.hand().flow.deal.hands is None
    assert info_lines(rig)[1] == "No hint here"


def test_the_option_in_the_configuration_file_and_in_docs_review_md():
    from pathlib import Path

    import pytest

    from table.config import ConfigError, loads
    from tests.table.test_config_docs import blocks

    docs = Path(__file__).resolve().parents[2] / "docs" / "review.md"
    (block,) = [b for b in blocks(docs.read_text(), "toml") if "practice_hint" in b]
    assert loads(block).table.practice_hint is True
    assert loads("").table.practice_hint is False
    with pytest.raises(ConfigError, match="table.practice_hint: must be true or false, "
                                          "not a whole number 1"):
        loads("[table]\npractice_hint = 1\n")
