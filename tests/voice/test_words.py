"""Every message a screen can show has a spoken form in every language:
cards and suits as words, never a sign or a card code."""

from __future__ import annotations

import re
import string

import pytest

from engine.messages import LANGS
from engine.packs import PACKS
from engine.registry import all_messages, catalogue, game_ids
from table.controller.messages import TABLE
from table.voice.words import VOICE, card_words, clean, glyphs, say, seat_list

EVERY = all_messages() | TABLE | VOICE

#: a value for every parameter a template may name (as the table passes them)
SAMPLE = {"seat": "2", "turn": "3", "owner": "4", "accused": "1", "card": "Oa", "suit": "h",
          "game": "filicau", "option": "match_length", "value": 7, "allowed": "0..1000",
          "code": "Zz", "detail": "bad", "points": 15, "limit": 3, "choice": "pass",
          "choices": "pass, play", "call": "Ah", "meld": "40", "count": 8, "pack": 2,
          "uid": "04A1B2C3D4E5F6", "trick": 3, "number": 4, "team": "1 and 3",
          "masters": "1 and 3", "slaves": "2 and 4", "score": "2 to 1", "winner": "1 and 3",
          "servant": "3", "seats": "2, 4", "name": "Ana Pop"}


def params_for(template: str) -> dict[str, object]:
    fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
    out: dict[str, object] = {}
    for f in fields:
        if f in ("card_name", "card_name_cap", "card_short"):
            out["card"] = SAMPLE["card"]
        elif f == "suit_name" or f.endswith("sign"):
            out["suit"] = SAMPLE["suit"]
        else:
            out[f] = SAMPLE[f]
    return out


CARD_CODE = re.compile(r"\b[2-9TJQKAUO][alhbcds]\b")


@pytest.mark.parametrize("code", sorted(EVERY))
def test_every_code_has_a_spoken_form_in_every_language(code):
    for lang in LANGS:
        template = EVERY[code][lang]
        text = say(EVERY, code, lang, **params_for(template))
        assert text.strip(), (code, lang)
        assert not glyphs(text), (code, lang, text)
        assert "{" not in text and "(Oa)" not in text, (code, lang, text)
        if "card_name" in template:
            assert card_words("Oa", "german", lang).lower() in text.lower(), (code, lang, text)
            assert not CARD_CODE.search(text.replace("Zz", "")), (code, lang, text)
        if "A(z)" in template:
            assert "(z)" not in text, (code, lang, text)


def test_every_games_catalogue_is_walked():
    for gid in game_ids():
        assert catalogue(gid).codes() <= EVERY.codes()


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Ace of hearts"), ("ro", "as de roșu"), ("hu", "piros ász")])
def test_cards_are_said_as_words(lang, said):
    assert card_words("Ah", "german", lang) == said


def test_every_card_of_every_pack_is_words_without_its_code():
    for pack in PACKS.values():
        for c in pack.distinct_cards:
            for lang in LANGS:
                words = card_words(c.code, pack.family, lang)
                assert c.code not in words.split() and "(" not in words, (c, lang, words)
                assert not glyphs(words)


def test_a_refusal_names_the_rule_and_the_suit_in_words():
    assert say(EVERY, "must_trump", "en", seat="2", suit="h") == \
        "Seat 2 has no hearts and must play a trump."
    assert say(EVERY, "must_follow", "ro", seat="2", suit="a") == \
        "Locul 2 trebuie să răspundă la culoare: ghindă."


def test_a_suit_sign_in_a_reworded_message_is_said_as_the_suit():
    from engine.messages import Catalogue

    signs = Catalogue({"follow": {"en": "Follow {suit_sign} {suit_name}",
                                  "ro": "Răspunde la {suit_sign}",
                                  "hu": "{suit_sign}: színre szín ♥"}})
    # a sign next to the suit's name is said once
    assert say(signs, "follow", "en", suit="h") == "Follow hearts"
    assert say(signs, "follow", "ro", suit="l") == "Răspunde la verde"
    assert say(signs, "follow", "hu", suit="b") == "tök: színre szín"


@pytest.mark.parametrize(("lang", "text", "said"), [
    ("en", "1+3 masters, 2+4 slaves, score 2:1", "1 and 3 masters, 2 and 4 slaves, score 2 to 1"),
    ("ro", "Mâna 3 · 1+3", "Mâna 3, 1 și 3"),
    ("hu", "A(z) 1. hely és a(z) 2. hely", "Az 1. hely és a 2. hely"),
    ("hu", "A(z) Öreg", "Az Öreg"),
    ("en", "\u2298 T3 ♥ ♣️", "T3"),
])
def test_clean_makes_a_sentence_for_the_ear(lang, text, said):
    assert clean(text, lang) == said


def test_seat_lists():
    assert seat_list(["1"], "en") == "1"
    assert seat_list(["1", "3", "5"], "hu") == "1, 3 és 5"


def test_every_screen_text_of_the_gettext_catalogues_cleans_to_words():
    """The screens' own texts (table/screens/locale): none keeps a sign once
    made ready for the ear (the voice says the scan prompt, the status...)."""
    from table.screens.i18n import LANGUAGES, parse_po, po_path, translator

    msgids = set(parse_po(po_path("ro").read_text(encoding="utf-8")))
    msgids |= set(parse_po(po_path("hu").read_text(encoding="utf-8")))
    msgids.discard("")
    assert len(msgids) > 30
    for lang in LANGUAGES:
        _ = translator(lang)
        for msgid in msgids:
            said = clean(_(msgid), lang)
            assert said and not glyphs(said), (lang, msgid, said)
