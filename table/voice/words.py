"""Sentences for the ear, built from message codes and their parameters.

The screen renders a code of a catalogue (`engine.messages.Catalogue`) with
its parameters; the voice renders the same template with the same
parameters, only with every card and suit said as words ("Ace of hearts",
"as de roșu", "piros ász": never "A♥" or "Ah"), and then makes the sentence
easy for a speech synthesiser: no signs, "1+3" as "1 and 3", Hungarian
"A(z)" as the article the next word needs. Reworded catalogues flow in by
themselves: nothing here parses the screen's text.

`VOICE` holds the voice's own codes: the announcements that have no
screen sentence of their own (a card played, the trick's winner, the score).
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from engine import messages
from engine.messages import LANGS, Catalogue

_AND = {"en": "and", "ro": "și", "hu": "és"}
_TO = {"en": "to", "ro": "la", "hu": ""}

VOICE = Catalogue({
    "voice_trump": {
        "en": "Trumps are {suit_name}.",
        "ro": "Atu este {suit_name}.",
        "hu": "Az adu {suit_name}.",
    },
    "voice_played": {
        "en": "Seat {seat}: {card_name}.",
        "ro": "Locul {seat}: {card_name}.",
        "hu": "{seat}. hely: {card_name}.",
    },
    "voice_trick": {
        "en": "Seat {seat} takes the trick, {points} points.",
        "ro": "Locul {seat} ia mâna, {points} puncte.",
        "hu": "A(z) {seat}. hely viszi az ütést, {points} pont.",
    },
    "voice_trick_one": {
        "en": "Seat {seat} takes the trick, 1 point.",
        "ro": "Locul {seat} ia mâna, 1 punct.",
        "hu": "A(z) {seat}. hely viszi az ütést, 1 pont.",
    },
    "voice_hand_over": {
        "en": "Hand {number} is over. {points}.",
        "ro": "Partida {number} s-a terminat. {points}.",
        "hu": "A(z) {number}. leosztás véget ért. {points}.",
    },
    "voice_team_points": {
        "en": "seats {team}: {points}",
        "ro": "locurile {team}: {points}",
        "hu": "{team}: {points} pont",
    },
    "voice_score": {
        "en": "The score is {score}.",
        "ro": "Scorul este {score}.",
        "hu": "Az állás {score}.",
    },
    "voice_masters": {
        "en": "Seats {masters} are masters, seats {slaves} are slaves.",
        "ro": "Locurile {masters} sunt stăpâni, locurile {slaves} sunt slugi.",
        "hu": "A(z) {masters} hely az úr, a(z) {slaves} hely a szolga.",
    },
    "voice_even": {
        "en": "The match is even.",
        "ro": "Meciul este egal.",
        "hu": "A mérkőzés döntetlenre áll.",
    },
    "voice_match_over": {
        "en": "The match is over. {winner}.",
        "ro": "Meciul s-a terminat. {winner}.",
        "hu": "A mérkőzés véget ért. {winner}.",
    },
    "voice_team_wins": {
        "en": "Seats {team} win the match",
        "ro": "Locurile {team} câștigă meciul",
        "hu": "A(z) {team} hely nyerte a mérkőzést",
    },
    "voice_draw": {
        "en": "No winner: a draw",
        "ro": "Niciun câștigător: egalitate",
        "hu": "Nincs győztes: döntetlen",
    },
    "voice_press_ok": {
        "en": "Press OK for the next hand.",
        "ro": "Apăsați OK pentru partida următoare.",
        "hu": "A következő leosztáshoz nyomja meg az OK gombot.",
    },
    "voice_press_ok_end": {
        "en": "Press OK to close the match.",
        "ro": "Apăsați OK pentru a încheia meciul.",
        "hu": "A mérkőzés lezárásához nyomja meg az OK gombot.",
    },
    "voice_undone": {
        "en": "Taken back: seat {seat}, {card_name}.",
        "ro": "Anulat: locul {seat}, {card_name}.",
        "hu": "Visszavonva: {seat}. hely, {card_name}.",
    },
    "voice_match_start": {
        "en": "A new match of {game}. Seat {seat} deals.",
        "ro": "Un meci nou de {game}. Împarte locul {seat}.",
        "hu": "Új {game} mérkőzés. A(z) {seat}. hely oszt.",
    },
    "voice_choice": {
        "en": "OK chooses {choice}; MENU shows the next choice.",
        "ro": "OK alege {choice}; MENU arată varianta următoare.",
        "hu": "Az OK ezt választja: {choice}; a MENU a következőt mutatja.",
    },
})

#: Signs a screen may use that a voice must not read out.
_SPOKEN_SIGNS = {"·": ",", "…": ".", "×": " x ", "→": ",", "⊘": ""}


def card_words(code: str, family: str, lang: str) -> str:
    """A card as words: `Ah` -> "Ace of hearts" / "as de roșu" / "piros ász"."""
    name = messages.card_name(code, family, lang)
    return clean(name.removesuffix(f" ({code})"), lang)


def suit_words(suit: str, family: str, lang: str) -> str:
    """A suit (or "trump") as a word, without its sign."""
    return clean(messages.suit_name(suit, family, lang), lang)


def seat_list(labels: Sequence[str], lang: str) -> str:
    """"1", "3" -> "1 and 3" / "1 și 3" / "1 és 3"."""
    lang = lang if lang in LANGS else "en"
    if len(labels) < 2:
        return "".join(labels)
    return ", ".join(labels[:-1]) + f" {_AND[lang]} " + labels[-1]


class _Spoken(string.Formatter):
    """Looks a field up in the values; a `..._sign` field (a suit drawn as its
    sign on a screen) is said as the suit's name."""

    def __init__(self, signs: str) -> None:
        super().__init__()
        self.signs = signs

    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        if isinstance(key, str) and key not in kwargs and key.endswith("sign"):
            return self.signs
        return super().get_value(key, args, kwargs)


def say(catalogue: Catalogue, reason: str, lang: str = "en", **params: Any) -> str:
    """The spoken form of `reason` with `params` (as `Catalogue.render`
    takes them: seats already as the table names them)."""
    lang = lang if lang in LANGS else "en"
    if reason == "unknown_option" and params.get("value") is not None:
        reason = "unknown_option_value"
    template = catalogue[reason][lang]
    family = str(params.get("family", "german"))
    values: dict[str, Any] = dict(params)
    if "seat_label" in params:
        values["seat"] = params["seat_label"]
    if "card" in params:
        name = card_words(str(params["card"]), family, lang)
        values["card_name"] = name
        values["card_name_cap"] = name[:1].upper() + name[1:]
        values["card_short"] = name          # a refusal's short rule: the card in words
    # a refusal's short rule (`<code>.rule`): the trump's sign is said as the
    # trump suit (nothing when unknown); seats given as numbers are said from 1
    trump = params.get("trump")
    values.setdefault("trump_sign", suit_words(str(trump), family, lang)
                      if isinstance(trump, str) and trump else "")
    for key in messages.SEAT_PARAMS:
        if isinstance(values.get(key), int) and not isinstance(values[key], bool):
            values[key] = messages.seat_number(values[key])
    if isinstance(values.get("seats"), (list, tuple)):
        values["seats"] = ", ".join(messages.seat_number(s) for s in values["seats"])
    signs = ""
    if "suit" in params:
        values["suit_name"] = signs = suit_words(str(params["suit"]), family, lang)
    if "uid" in params:  # a sticker's number: its last four digits are enough to hear
        values["uid"] = " ".join(str(params["uid"])[-4:])
    if "value" in values and values["value"] is not None:
        values["value"] = repr(values["value"])
    try:
        text = _Spoken(signs).vformat(template, (), values)
        if signs:        # a sign next to the suit's name ("Follow ♥ hearts") is said once
            text = text.replace(f"{signs} {signs}", signs)
        text = messages.tidy(text)
    except (KeyError, IndexError, ValueError) as exc:
        raise ValueError(f"the message {reason!r} ({lang}) needs parameters it was "
                         f"not given: {exc}") from None
    return clean(text, lang)


_TEAM = re.compile(r"([^\s+(),:]+(?:\+[^\s+(),:]+)+)")
_RATIO = re.compile(r"(\d+):(\d+)")
_HU_ARTICLE = re.compile(r"\b([Aa])\(z\) (\S)")


def clean(text: str, lang: str) -> str:
    """A sentence ready for a speech synthesiser: no signs or emoji, teams
    "1+3" said as "1 and 3", scores "2:1" as "2 to 1", Hungarian "A(z)" as
    "A" or "Az"."""
    lang = lang if lang in LANGS else "en"
    text = _TEAM.sub(lambda m: seat_list(m.group(1).split("+"), lang), text)
    text = _RATIO.sub(lambda m: " ".join(x for x in (m.group(1), _TO[lang], m.group(2)) if x),
                      text)
    if lang == "hu":
        text = _HU_ARTICLE.sub(lambda m: _hu_article(m.group(1), m.group(2)), text)
    out = []
    for ch in text:
        if ch in _SPOKEN_SIGNS:
            out.append(_SPOKEN_SIGNS[ch])
        elif unicodedata.category(ch) in ("So", "Sk", "Co", "Cn") or ch == "\ufe0f":
            out.append(" ")
        else:
            out.append(ch)
    text = "".join(out)
    text = re.sub(r"\(\s*\)", "", text)
    text = re.sub(r"\s+([,.:;!?])", r"\1", text)
    return re.sub(r"\s{2,}", " ", text).strip()


def _hu_article(a: str, first: str) -> str:
    """The Hungarian article before a word: "az" before a vowel (and before
    1 and 5, said "egy", "öt"), "a" before a consonant."""
    vowel = first.lower() in "aáeéiíoóöőuúüű15"
    return (a + "z " if vowel else a + " ") + first


def glyphs(text: str) -> list[str]:
    """The characters of `text` a voice would not say (signs, emoji)."""
    return [ch for ch in text if unicodedata.category(ch) in ("So", "Sk", "Co")]
