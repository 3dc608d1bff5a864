"""Explicit message catalogues: every code of every game renders in English,
Romanian and Hungarian, a code nobody wrote a sentence for is an error, and
what a catalogue holds does not depend on what happens to be imported."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine import get_game
from engine.errors import IllegalPlay
from engine.messages import CORE, LANGS, Catalogue, UnknownReason
from engine.registry import all_messages, catalogue, game_class, game_ids

#: A value for every parameter a sentence may name.
PARAMS = {"seat": 1, "turn": 2, "accused": 3, "owner": 0, "card": "Oa", "suit": "h",
          "allowed": "a, b", "call": "three", "choice": "x", "choices": "0, 2", "code": "Zz",
          "count": 8, "detail": "why", "game": "filicau", "limit": 10, "meld": "bezique",
          "option": "o", "pack": "german_32", "points": 12, "trick": 3, "uid": "0BADC0DE",
          "value": None, "step": "play", "servant": 2, "seats": [1, 3], "trump": "l",
          "name": "Ana", "number": 3}


def every_code() -> list[tuple[str, str]]:
    return [(gid, code) for gid in game_ids() for code in catalogue(gid)]


@pytest.mark.parametrize(("gid", "code"), every_code())
def test_every_code_of_every_game_renders_in_every_language(gid, code):
    texts = {lang: catalogue(gid).render(code, lang, **PARAMS) for lang in LANGS}
    for lang, text in texts.items():
        assert text and "{" not in text and "}" not in text, (gid, code, lang, text)
        assert not text.startswith(code), (gid, code, lang, text)
    # the three languages are three sentences, not one copied
    if len(texts["en"]) > 12:
        assert texts["en"] != texts["ro"] or texts["en"] != texts["hu"], (gid, code)


def test_the_table_renders_every_code_of_its_own_in_every_language():
    from table.controller.messages import TABLE

    for code in TABLE:
        for lang in LANGS:
            text = TABLE.render(code, lang, **PARAMS)
            assert text and "{" not in text, (code, lang)


def test_an_unknown_code_is_an_error_not_a_made_up_sentence():
    with pytest.raises(UnknownReason, match="no_such_reason"):
        CORE.render("no_such_reason", "en", seat=1)
    with pytest.raises(UnknownReason):
        IllegalPlay("no_such_reason", seat=1)
    # a game's code is not the engine's: only the game's catalogue has it
    with pytest.raises(UnknownReason):
        CORE.render("redeal_refused", "en", seat=1, points=12, limit=10)
    assert "12" in catalogue("sueca").render("redeal_refused", "en", seat=1, points=12,
                                             limit=10)


def test_a_sentence_missing_a_parameter_is_an_error():
    with pytest.raises(ValueError, match="not_in_hand"):
        CORE.render("not_in_hand", "en", seat=1)


def test_a_catalogue_needs_every_language_and_one_sentence_per_code():
    with pytest.raises(ValueError, match="lacks hu"):
        Catalogue({"x": {"en": "X", "ro": "X"}})
    one = Catalogue({"x": {"en": "X", "ro": "X", "hu": "X"}})
    with pytest.raises(ValueError, match="two different messages"):
        one | Catalogue({"x": {"en": "Y", "ro": "X", "hu": "X"}})
    assert set(one | CORE) == set(CORE) | {"x"}


def test_a_games_refusal_renders_from_its_own_catalogue():
    game = get_game("sueca")
    err = game.refusal("redeal_too_late", seat=2, family=game.pack.family)
    assert isinstance(err, IllegalPlay)
    assert err.message("ro") == catalogue("sueca").render("redeal_too_late", "ro", seat=2)
    assert game_class("sueca").messages is catalogue("sueca")


def test_catalogues_do_not_depend_on_what_was_imported():
    """A fresh interpreter that imports only one game sees the same catalogue."""
    code = ("from engine.registry import catalogue; "
            "print(len(catalogue('fildinsky')), len(catalogue('filicau')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert [int(n) for n in out] == [len(catalogue("fildinsky")), len(catalogue("filicau"))]
    assert len(catalogue("filicau")) == len(CORE)
    assert set(all_messages()) >= set(catalogue("fildinsky")) | set(catalogue("sueca"))
