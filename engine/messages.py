"""Sentences for people, in English, Romanian and Hungarian.

Pure data and string formatting; no gettext here because the engine does no
I/O. A reason code plus its parameters renders to one sentence.

Seats are written for people: a seat number given as an int (the protocol's
0-based index: `seat`, `turn`, `owner`, `accused`, `servant`; a list of them in
`seats`) is shown counted from 1, as players count them (`seat_label`,
`team_label`); a string (a seat's name from the table's configuration) is
shown as it is.

Every refusal also has its rule in one short line (`Catalogue.rule`: the code
plus `.rule`), for a small screen or a quick glance: "Follow ♥ hearts",
"Trump 🔔: you have no ♥ hearts". Its `{suit_sign}` / `{trump_sign}` are the
suits' signs (`suit_sign`); a medium that shows no glyphs (a voice) passes
`signs=False`.

Messages live in explicit catalogues (`Catalogue`): `CORE` holds the engine's
own codes; each game's package has its catalogue (`CORE` and its own codes),
which the registry finds (`Game.messages`, `engine.registry.catalogue`); the
table joins its own (`catalogue | table_catalogue`). Nothing is registered by
importing a module, and a code a catalogue does not know is an error
(`UnknownReason`), never a sentence made up on the spot.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
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

#: The suits' signs in text. French packs: the usual signs. German packs have
#: no signs of their own in Unicode: acorns, leaves and bells are written
#: with the nearest pictures (chestnut, leaf, bell), hearts with the heart.
#: The table's OLED draws its own German suit icons in their place
#: (`table.screens.suits`).
SUIT_SIGNS: dict[str, dict[str, str]] = {
    "german": {"a": "\U0001F330", "l": "\U0001F343", "h": "\u2665", "b": "\U0001F514"},
    "french": {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"},
}

_SEAT_WORD = {"en": "Seat {n}", "ro": "Locul {n}", "hu": "{n}. hely"}

#: Parameters that name one seat (an int: the 0-based index of the protocol).
SEAT_PARAMS = ("seat", "turn", "owner", "accused", "servant")

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

_CORE: dict[str, dict[str, str]] = {
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
    # ----- the rules of the refusals in one short line (`Catalogue.rule`) -----
    "unknown_card.rule": {
        "en": "{code}: not a card of this pack",
        "ro": "{code}: nu e carte din pachet",
        "hu": "{code}: nem lap ebben a pakliban",
    },
    "not_in_hand.rule": {
        "en": "The {card_short} is not in your hand",
        "ro": "Nu ai {card_short} în mână",
        "hu": "{card_short} nincs a kezedben",
    },
    "already_played.rule": {
        "en": "The {card_short} was played already",
        "ro": "{card_short} a fost deja jucat",
        "hu": "{card_short} már ki van játszva",
    },
    "not_your_turn.rule": {
        "en": "Wait: seat {turn} plays now",
        "ro": "Stai: acum joacă locul {turn}",
        "hu": "Várj: most a(z) {turn}. hely jön",
    },
    "must_follow.rule": {
        "en": "Follow {suit_sign} {suit_name}",
        "ro": "Răspunde la {suit_sign} {suit_name}",
        "hu": "Színre színt: {suit_sign} {suit_name}",
    },
    "must_trump.rule": {
        "en": "Trump {trump_sign}: you have no {suit_sign} {suit_name}",
        "ro": "Taie cu atu {trump_sign}: n-ai {suit_sign} {suit_name}",
        "hu": "Aduzz {trump_sign}: nincs {suit_sign} {suit_name}",
    },
    "must_beat.rule": {
        "en": "Play higher: beat the best card",
        "ro": "Dă mai mare: bate cartea cea mare",
        "hu": "Üss felül: a legerősebb lapot",
    },
    "no_hand.rule": {
        "en": "No hand is being played",
        "ro": "Nu se joacă nicio partidă",
        "hu": "Nincs folyamatban leosztás",
    },
    "not_expected.rule": {
        "en": "Not now: see the screen",
        "ro": "Nu acum: vezi ecranul",
        "hu": "Most nem: nézd a kijelzőt",
    },
    "nothing_to_undo.rule": {
        "en": "Nothing to take back",
        "ro": "Nimic de anulat",
        "hu": "Nincs mit visszavonni",
    },
    "hand_over.rule": {
        "en": "The hand is over",
        "ro": "Partida s-a terminat",
        "hu": "Vége a leosztásnak",
    },
    # The prompts of the base `HandFlow` (`engine.flow`).
    "show_trump": {
        "en": "Seat {seat}: show the cards for trumps",
        "ro": "Locul {seat}: arătați cărțile pentru atu",
        "hu": "{seat}. hely: mutassa az adu lapjait",
    },
    "play": {
        "en": "Seat {seat} to play",
        "ro": "Joacă locul {seat}",
        "hu": "{seat}. hely következik",
    },
}


class UnknownReason(KeyError):
    """A reason code the catalogue has no sentence for: a bug, never shown
    to a player as a made-up sentence."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason

    def __str__(self) -> str:
        return f"no message for the reason code {self.reason!r}"


class Catalogue(Mapping[str, Mapping[str, str]]):
    """Reason codes and their sentences in every language (`LANGS`): a
    read-only mapping `code -> {lang: template}`. Join two with `|`; a code
    both give must have the same sentences."""

    def __init__(self, templates: Mapping[str, Mapping[str, str]]) -> None:
        entries: dict[str, dict[str, str]] = {}
        for reason, texts in templates.items():
            missing = [lang for lang in LANGS if not texts.get(lang)]
            if missing:
                raise ValueError(f"the message {reason!r} lacks {', '.join(missing)}")
            entries[reason] = {lang: texts[lang] for lang in LANGS}
        self._entries = entries

    def __getitem__(self, reason: str) -> Mapping[str, str]:
        try:
            return self._entries[reason]
        except KeyError:
            raise UnknownReason(reason) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __or__(self, other: Mapping[str, Mapping[str, str]]) -> Catalogue:
        for reason, texts in other.items():
            mine = self._entries.get(reason)
            if mine is not None and dict(mine) != {lang: texts[lang] for lang in LANGS}:
                raise ValueError(f"two different messages for {reason!r}")
        return Catalogue({**self._entries, **other})

    def codes(self) -> frozenset[str]:
        return frozenset(self._entries)

    def render(self, reason: str, lang: str = "en", **params: Any) -> str:
        """The sentence for `reason` in `lang` (English when the language is
        unknown). Raises `UnknownReason` for a code this catalogue lacks."""
        return _render(self, reason, lang, params)

    def has_rule(self, reason: str) -> bool:
        return reason + RULE in self._entries

    def rule(self, reason: str, lang: str = "en", signs: bool = True, **params: Any) -> str:
        """The rule of refusal `reason` in one short line ("Follow ♥ hearts"),
        from its `<reason>.rule` entry; the whole sentence (`render`) when the
        catalogue has no short line for it. `signs=False` leaves the suit signs
        out (for a voice: the suit's name is always there)."""
        if not self.has_rule(reason):
            return self.render(reason, lang, **params)
        values = dict(params)
        if not signs:
            values["suit_sign"] = values["trump_sign"] = ""
            if "card" in values:
                lang_ = lang if lang in LANGS else "en"
                values["card_short"] = card_name(str(values["card"]),
                                                 values.get("family", "german"), lang_)
        text = _render(self, reason + RULE, lang, values)
        return tidy(text)


#: The suffix of a refusal's short rule in a catalogue: `must_follow.rule`.
RULE = ".rule"


def tidy(text: str) -> str:
    """Spaces left by an empty sign: none doubled, none before punctuation."""
    text = re.sub(r" {2,}", " ", text.strip())
    return re.sub(r" ([:;,.!?)])", r"\1", text).replace("( ", "(")


#: The engine's own codes: requests, cards, turns, following, undo.
CORE = Catalogue(_CORE)


def known_reasons() -> frozenset[str]:
    """The engine's own codes (a game's are in its catalogue)."""
    return CORE.codes()


def suit_name(suit: str, family: str, lang: str = "en") -> str:
    """`suit` is a suit letter, or `"trump"` for the trump suit as a whole."""
    lang = lang if lang in LANGS else "en"
    if suit == "trump":
        return _TRUMPS[lang]
    return _SUIT_NAMES.get(family, _SUIT_NAMES["german"])[lang].get(suit, suit)


def suit_sign(suit: str, family: str = "german") -> str:
    """The sign of a suit letter in text ("" for an unknown suit)."""
    return SUIT_SIGNS.get(family, SUIT_SIGNS["german"]).get(suit, "")


def seat_number(seat: int | str) -> str:
    """A seat as people count them: the protocol's index 0 is "1"; a name
    (a string, from the table's configuration) stays as it is."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        return str(seat)
    return str(seat + 1)


def seat_label(seat: int | str, lang: str = "en") -> str:
    """`0` -> "Seat 1" / "Locul 1" / "1. hely": the one way to name a seat to
    a person (`seat` is the protocol's 0-based index, or a configured name)."""
    lang = lang if lang in LANGS else "en"
    return _SEAT_WORD[lang].format(n=seat_number(seat))


def team_label(seats: Iterable[int | str]) -> str:
    """`[0, 2]` -> "1+3": a team named by its seats as people count them."""
    return "+".join(seat_number(s) for s in seats)


def card_short(code: str, family: str = "german") -> str:
    """`Ta` -> "10🌰": the rank as printed on the card and the suit's sign."""
    if len(code) != 2:
        return code
    rank = "10" if code[0] == "T" else code[0]
    return rank + (suit_sign(code[1], family) or code[1])


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
    """The sentence for one of the engine's own codes (`CORE.render`)."""
    return CORE.render(reason, lang, **params)


def _render(catalogue: Catalogue, reason: str, lang: str, params: Mapping[str, Any]) -> str:
    lang = lang if lang in LANGS else "en"
    if reason == "unknown_option" and params.get("value") is not None:
        reason = "unknown_option_value"
    template = catalogue[reason][lang]
    family = params.get("family", "german")
    values: dict[str, Any] = dict(params)
    for key in SEAT_PARAMS:
        if key in values:
            values[key] = seat_number(values[key])
    if isinstance(values.get("seats"), (list, tuple)):
        values["seats"] = ", ".join(seat_number(s) for s in values["seats"])
    if "seat_label" in params:
        values["seat"] = params["seat_label"]
    if "card" in params:
        name = card_name(str(params["card"]), family, lang)
        values["card_name"] = name
        values["card_name_cap"] = name[:1].upper() + name[1:]
        values.setdefault("card_short", card_short(str(params["card"]), family))
    trump = params.get("trump")
    if isinstance(trump, str) and trump:
        values["trump_name"] = suit_name(trump, family, lang)
        values.setdefault("trump_sign", suit_sign(trump, family))
    else:
        values["trump_name"] = _TRUMPS[lang]
        values.setdefault("trump_sign", "")
    if "suit" in params:
        suit = str(params["suit"])
        values["suit_name"] = suit_name(suit, family, lang)
        # the trump suit as a whole is shown with the trump's sign
        sign = suit_sign(suit, family) if suit != "trump" else values["trump_sign"]
        values.setdefault("suit_sign", sign)
    if "value" in values and values["value"] is not None:
        values["value"] = repr(values["value"])
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError) as exc:
        raise ValueError(f"the message {reason!r} ({lang}) needs parameters it was "
                         f"not given: {exc}") from None
