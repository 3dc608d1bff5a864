"""Sentences for people, in English, Romanian and Hungarian.

Pure data and string formatting; no gettext here because the engine does no
I/O. A reason code plus its parameters renders to one sentence. Games add their
own codes with `register`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

LANGS = ("en", "ro", "hu")

_SUIT_NAMES: dict[str, dict[str, dict[str, str]]] = {
    "german": {
        "en": {"a": "acorns", "l": "leaves", "h": "hearts", "b": "bells"},
        "ro": {"a": "ghindă", "l": "verde", "h": "roșu", "b": "dubă"},
        "hu": {"a": "makk", "l": "zöld", "h": "piros", "b": "tök"},
    },
    "french": {
        "en": {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"},
        "ro": {"c": "treflă", "d": "caro", "h": "cupă", "s": "pică"},
        "hu": {"c": "treff", "d": "káró", "h": "kőr", "s": "pikk"},
    },
}
_TRUMPS = {"en": "trumps", "ro": "atu", "hu": "adu"}

_RANK_NAMES: dict[str, dict[str, dict[str, str]]] = {
    "german": {
        "en": {"7": "Seven", "8": "Eight", "9": "Nine", "T": "Ten", "U": "Under",
               "O": "Over", "K": "King", "A": "Ace"},
        "ro": {"7": "șeptar", "8": "optar", "9": "nouar", "T": "zece", "U": "valet",
               "O": "filcău", "K": "cal", "A": "as"},
        "hu": {"7": "hetes", "8": "nyolcas", "9": "kilences", "T": "tízes", "U": "alsó",
               "O": "felső", "K": "király", "A": "ász"},
    },
    "french": {
        "en": {"2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven",
               "8": "Eight", "9": "Nine", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King",
               "A": "Ace"},
        "ro": {"2": "doi", "3": "trei", "4": "patru", "5": "cinci", "6": "șase", "7": "șapte",
               "8": "opt", "9": "nouă", "T": "zece", "J": "valet", "Q": "damă", "K": "popă",
               "A": "as"},
        "hu": {"2": "kettes", "3": "hármas", "4": "négyes", "5": "ötös", "6": "hatos",
               "7": "hetes", "8": "nyolcas", "9": "kilences", "T": "tízes", "J": "bubi",
               "Q": "dáma", "K": "király", "A": "ász"},
    },
}

_TEMPLATES: dict[str, dict[str, str]] = {
    "bad_request": {
        "en": "Bad request: {detail}",
        "ro": "Cerere greșită: {detail}",
        "hu": "Hibás kérés: {detail}",
    },
    "unknown_game": {
        "en": "There is no game called '{game}'.",
        "ro": "Nu există jocul „{game}”.",
        "hu": "Nincs „{game}” nevű játék.",
    },
    "unknown_option": {
        "en": "The game {game} has no option '{option}'.",
        "ro": "Jocul {game} nu are opțiunea „{option}”.",
        "hu": "A(z) {game} játéknak nincs „{option}” beállítása.",
    },
    "unknown_option_value": {
        "en": "Option '{option}' of {game} cannot be {value}; allowed: {allowed}.",
        "ro": "Opțiunea „{option}” a jocului {game} nu poate fi {value}; permise: {allowed}.",
        "hu": "A(z) {game} „{option}” beállítása nem lehet {value}; lehet: {allowed}.",
    },
    "unknown_card": {
        "en": "'{code}' is not a card of this pack.",
        "ro": "„{code}” nu este o carte din acest pachet.",
        "hu": "„{code}” nem lap ebben a pakliban.",
    },
    "not_in_hand": {
        "en": "Seat {seat} does not hold the {card_name}.",
        "ro": "Locul {seat} nu are {card_name}.",
        "hu": "A(z) {seat}. helyen ülőnél nincs {card_name}.",
    },
    "already_played": {
        "en": "The {card_name} has already been played.",
        "ro": "{card_name_cap} a fost deja jucat.",
        "hu": "{card_name_cap} már ki van játszva.",
    },
    "not_your_turn": {
        "en": "It is seat {turn}'s turn, not seat {seat}'s.",
        "ro": "Este rândul locului {turn}, nu al locului {seat}.",
        "hu": "A(z) {turn}. hely következik, nem a(z) {seat}.",
    },
    "must_follow": {
        "en": "Seat {seat} must follow suit: {suit_name}.",
        "ro": "Locul {seat} trebuie să răspundă la culoare: {suit_name}.",
        "hu": "A(z) {seat}. helynek színre színt kell tennie: {suit_name}.",
    },
    "must_trump": {
        "en": "Seat {seat} has no {suit_name} and must play a trump.",
        "ro": "Locul {seat} nu are {suit_name} și trebuie să taie cu atu.",
        "hu": "A(z) {seat}. helynek nincs {suit_name}, ezért adut kell tennie.",
    },
    "must_beat": {
        "en": "Seat {seat} must beat the best card of the trick.",
        "ro": "Locul {seat} trebuie să bată cea mai mare carte din mână.",
        "hu": "A(z) {seat}. helynek felül kell ütnie az ütés legerősebb lapját.",
    },
    "no_hand": {
        "en": "No hand has been started.",
        "ro": "Nu a început nicio partidă.",
        "hu": "Nincs elkezdett leosztás.",
    },
    "not_expected": {
        "en": "Not now: the table is waiting for something else.",
        "ro": "Nu acum: masa așteaptă altceva.",
        "hu": "Most nem: az asztal mást vár.",
    },
    "nothing_to_undo": {
        "en": "There is nothing to undo.",
        "ro": "Nu este nimic de anulat.",
        "hu": "Nincs mit visszavonni.",
    },
    "hand_over": {
        "en": "The hand is over.",
        "ro": "Partida s-a terminat.",
        "hu": "A leosztás véget ért.",
    },
}


def register(reason: str, templates: Mapping[str, str]) -> None:
    """Add a game's own reason code. Every language must be given."""
    missing = [lang for lang in LANGS if lang not in templates]
    if missing:
        raise ValueError(f"templates for {reason!r} lack {missing}")
    _TEMPLATES[reason] = dict(templates)


def known_reasons() -> frozenset[str]:
    return frozenset(_TEMPLATES)


def suit_name(suit: str, family: str, lang: str = "en") -> str:
    """`suit` is a suit letter, or `"trump"` for the trump suit as a whole."""
    lang = lang if lang in LANGS else "en"
    if suit == "trump":
        return _TRUMPS[lang]
    return _SUIT_NAMES.get(family, _SUIT_NAMES["german"])[lang].get(suit, suit)


def card_name(code: str, family: str, lang: str = "en") -> str:
    """`Oa` -> "Over of acorns" / "filcău de ghindă" / "makk felső"."""
    lang = lang if lang in LANGS else "en"
    if len(code) != 2:
        return code
    rank, suit = code[0], code[1]
    fam = family if family in _RANK_NAMES else "german"
    r = _RANK_NAMES[fam][lang].get(rank, rank)
    s = suit_name(suit, fam, lang)
    if lang == "en":
        return f"{r} of {s} ({code})"
    if lang == "ro":
        return f"{r} de {s} ({code})"
    return f"{s} {r} ({code})"


def render(reason: str, lang: str = "en", **params: Any) -> str:
    """The sentence for `reason` in `lang` (English when the language is unknown)."""
    lang = lang if lang in LANGS else "en"
    if reason == "unknown_option" and params.get("value") is not None:
        reason = "unknown_option_value"
    template = _TEMPLATES.get(reason, {}).get(lang)
    if template is None:
        return f"{reason}: {params}" if params else reason
    family = params.get("family", "german")
    values: dict[str, Any] = dict(params)
    if "seat_label" in params:
        values["seat"] = params["seat_label"]
    if "card" in params:
        name = card_name(str(params["card"]), family, lang)
        values["card_name"] = name
        values["card_name_cap"] = name[:1].upper() + name[1:]
    if "suit" in params:
        values["suit_name"] = suit_name(str(params["suit"]), family, lang)
    if "value" in values and values["value"] is not None:
        values["value"] = repr(values["value"])
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):
        return f"{reason}: {params}"
