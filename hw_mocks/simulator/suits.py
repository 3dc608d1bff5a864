"""Cards as the simulator writes them, matching the OLED's suit icons.

A terminal has no German suit signs, and French ones mislead (a player took
the Over of acorns shown as `O♣` for a club, not a trump). So a German card
is its rank and the suit letter of the card codes (`a` acorns, `l` leaves,
`h` hearts, `b` bells: the letters the table's own messages, exports and
docs use, as in "Over of acorns (Oa)"), coloured as the suit is on the
cards: acorns light brown, leaves green, hearts red, bells yellow. A French
pack (Sueca, Fildinsky) keeps its signs ♣ ♦ ♥ ♠, which the OLED shows too.
`legend` says which is which in the table's language.
"""

from __future__ import annotations

from rich.text import Text

from engine.cards import Card
from engine.messages import suit_name

#: suit letter -> (what is written after the rank, its colour)
SUIT_MARKS: dict[str, tuple[str, str]] = {
    # the German pack (Filicău, Filkó, Filcău): the card codes' letters
    "a": ("a", "tan"), "l": ("l", "green3"), "h": ("h", "red1"), "b": ("b", "yellow1"),
    # the French pack (Sueca, Fildinsky): its own signs
    "c": ("♣", "grey85"), "s": ("♠", "grey85"), "d": ("♦", "red1"),
}
_FRENCH_HEARTS = ("♥", "red1")
#: German names of the German suits, for the legend (the pack's own words)
_GERMAN_NAMES = {"a": "Eichel", "l": "Laub", "h": "Herz", "b": "Schellen"}


def _mark(c: Card, family: str) -> tuple[str, str]:
    if c.suit == "h" and family == "french":
        return _FRENCH_HEARTS
    return SUIT_MARKS.get(c.suit, (c.suit, "white"))


def rank_text(c: Card) -> str:
    return "10" if c.rank == "T" else c.rank


def card_text(c: Card, family: str = "german") -> str:
    """The card as plain text: `Oa`, `10h`, `Q♠`."""
    return rank_text(c) + _mark(c, family)[0]


def card_label(c: Card, family: str = "german") -> Text:
    """The card in colour: the rank in bold, the suit mark in its suit's colour."""
    mark, colour = _mark(c, family)
    return Text.assemble((rank_text(c), "bold"), (mark, f"bold {colour}"))


def legend(suits: tuple[str, ...], family: str, language: str) -> Text:
    """Which mark is which suit: `a acorns (ghindă, Eichel)` in the suit's
    colour, for the suits of the pack in play."""
    out = Text("Suits: ")
    for i, s in enumerate(suits):
        if i:
            out.append("   ")
        mark, colour = (_FRENCH_HEARTS if s == "h" and family == "french"
                        else SUIT_MARKS.get(s, (s, "white")))
        names = [suit_name(s, family, "en")]
        if language != "en":
            names.append(suit_name(s, family, language))
        if family == "german":
            names.append(_GERMAN_NAMES.get(s, ""))
        out.append(mark, style=f"bold {colour}")
        out.append(f" {names[0]}")
        rest = [n for n in names[1:] if n]
        if rest:
            out.append(f" ({', '.join(rest)})", style="grey62")
    return out
