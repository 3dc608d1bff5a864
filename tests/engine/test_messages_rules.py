"""Words for people: seats counted from 1 in every sentence, teams named by
their seats, and every refusal's rule in one short line that names the suit
led or the trump with its sign, in English, Romanian and Hungarian."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import get_game
from engine.cards import cards
from engine.errors import IllegalPlay
from engine.messages import CORE, LANGS, RULE, card_short, seat_label, suit_sign, team_label
from engine.registry import all_messages, catalogue, game_ids

ROOT = Path(__file__).resolve().parents[2]


def test_seats_are_counted_from_one_for_people():
    assert [seat_label(0, lang) for lang in LANGS] == ["Seat 1", "Locul 1", "1. hely"]
    assert seat_label(3) == "Seat 4"
    # a configured name is shown as it is
    assert seat_label("N", "ro") == "Locul N"
    assert team_label([0, 2]) == "1+3" and team_label([1, 3, 5]) == "2+4+6"


def test_a_refusal_names_the_seats_as_players_count_them():
    game = get_game("filicau")
    deal = game.new_deal(trump="h", leader=0, hands=[cards(h) for h in (
        ["7l", "Kb", "Tb", "Oh", "8b", "9h", "Th", "Ob"],
        ["Ka", "9a", "Ub", "8a", "Kl", "Ol", "Ab", "7h"],
        ["Tl", "Oa", "Ul", "8l", "Al", "8h", "Ta", "9l"],
        ["9b", "Ah", "Ua", "7a", "Kh", "7b", "Uh", "Aa"])])
    with pytest.raises(IllegalPlay) as err:
        deal.play(2, "Tl")                # the protocol's seat 2 plays out of turn
    assert err.value.message("en") == "It is seat 1's turn, not seat 3's."
    assert err.value.message("ro") == "Este rândul locului 1, nu al locului 3."
    assert err.value.message("hu") == "A(z) 1. hely következik, nem a(z) 3."
    deal.play(0, "Kb")                    # bells led
    with pytest.raises(IllegalPlay) as err:
        deal.play(1, "8a")                # holds the Under of bells
    assert err.value.reason == "must_follow"
    assert err.value.message("en") == "Seat 2 must follow suit: bells."
    rules = {lang: CORE.rule("must_follow", lang, **err.value.params) for lang in LANGS}
    bell = suit_sign("b", "german")
    assert rules == {"en": f"Follow {bell} bells", "ro": f"Răspunde la {bell} dubă",
                     "hu": f"Színre színt: {bell} tök"}


def test_the_rule_of_a_missing_suit_names_the_trump_and_the_suit_led():
    heart, bell = suit_sign("h", "german"), suit_sign("b", "german")
    params = {"seat": 1, "card": "8a", "suit": "h", "trump": "b", "family": "german"}
    assert CORE.rule("must_trump", "en", **params) == \
        f"Trump {bell}: you have no {heart} hearts"
    assert CORE.rule("must_trump", "ro", **params) == f"Taie cu atu {bell}: n-ai {heart} roșu"
    assert CORE.rule("must_trump", "hu", **params) == f"Aduzz {bell}: nincs {heart} piros"
    # led trumps: the trump suit's sign with the word
    assert CORE.rule("must_follow", "en", seat=1, suit="trump", trump="l") == \
        f"Follow {suit_sign('l', 'german')} trumps"
    # a voice has no glyphs: the words stay, the signs go, no space is left over
    assert CORE.rule("must_trump", "en", signs=False, **params) == \
        "Trump: you have no hearts"
    assert CORE.rule("not_in_hand", "hu", signs=False, seat=0, card="Ta") == \
        "makk tízes (Ta) nincs a kezedben"


def test_french_packs_use_their_own_signs():
    assert [suit_sign(s, "french") for s in "cdhs"] == ["\u2663", "\u2666", "\u2665", "\u2660"]
    assert card_short("Td", "french") == "10\u2666"
    assert catalogue("sueca").rule("must_trump", "en", seat=0, suit="s", trump="d",
                                   family="french") == "Trump \u2666: you have no \u2660 spades"


def test_the_four_german_suits_have_four_different_signs():
    signs = {suit_sign(s, "german") for s in "alhb"}
    assert len(signs) == 4 and "" not in signs
    assert signs.isdisjoint({suit_sign(s, "french") for s in "cds"})


def _refusal_codes(folder: Path) -> set[str]:
    """The reason codes raised in the source under `folder` (IllegalPlay,
    a game's Refusal, the table's `refuse(...)`, the legal hooks' answers)."""
    codes: set[str] = set()
    pattern = re.compile(
        r'(?:IllegalPlay|Refusal|TableRefusal|refused|refusal)\(\s*"([a-z0-9_]+)"'
        r'|refuse\(\s*[\w.]+,\s*"([a-z0-9_]+)"'
        r'|return \(?"([a-z0-9_]+)"(?: if [^,]+ else "[a-z0-9_]+"\))?, ')
    for path in folder.rglob("*.py"):
        for m in pattern.finditer(path.read_text(encoding="utf-8")):
            codes.add(next(g for g in m.groups() if g))
    return codes


def test_every_refusal_of_the_engine_and_the_table_has_its_rule_in_one_short_line():
    from table.controller.messages import TABLE

    every = all_messages() | TABLE
    codes = _refusal_codes(ROOT / "engine") | _refusal_codes(ROOT / "table" / "controller")
    assert {"must_follow", "must_trump", "must_beat", "fris_small_card", "table_unknown_uid",
            "denounce_partner", "meld_cards_missing", "filko5_call_first"} <= codes
    # what a hook returns may also be a step ("play", "done"): only messages count,
    # and "play" is the prompt "Seat 1 to play"
    codes = {c for c in codes if c in every} - {"play"}
    missing = sorted(c for c in codes if not every.has_rule(c))
    assert not missing, f"refusals without a short rule: {missing}"


PARAMS = {"seat": 1, "turn": 2, "accused": 3, "owner": 0, "card": "Oa", "suit": "h",
          "trump": "l", "call": "three", "choice": "x", "choices": "0, 2", "code": "Zz",
          "count": 8, "limit": 10, "meld": "bezique", "pack": 2, "points": 12, "trick": 3,
          "uid": "0BADC0DE", "servant": 2, "seats": [1, 3], "step": "play", "name": "Ana",
          "number": 3}


@pytest.mark.parametrize("gid", game_ids())
def test_every_short_rule_is_short_in_every_language(gid):
    from table.controller.messages import TABLE

    cat = catalogue(gid) | TABLE
    for code in cat:
        if not code.endswith(RULE):
            continue
        reason = code[: -len(RULE)]
        assert reason in cat, f"{code} is the rule of no message"
        for lang in LANGS:
            text = cat.rule(reason, lang, **PARAMS)
            assert text and "{" not in text and "  " not in text, (code, lang, text)
            # one short line: about what two lines of the OLED's large font hold
            assert len(text) <= 44, (code, lang, text)
            assert len(cat.rule(reason, lang, signs=False, **PARAMS)) <= 60
