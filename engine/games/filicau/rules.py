"""Filicău, the Romanian game: its cards and its match state.

Four players in fixed partnerships (seats 0+2 against 1+3), the 32-card
German pack, the four Overs as permanent trumps, trumps from the dealer's
first non-Over card, 8 tricks, an Ace or Ten is one point (8 in all).
After each hand: 6 or 7 points make that team masters, 8–0 makes both teams
even again ("running away"), 4–4 and 5–3 change nothing: the status table
shared with the other Romanian-scored games, `engine.masters`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.cards import Card
from engine.masters import status_text
from engine.match import LengthLimited, MatchState, Standing
from engine.packs import GERMAN_32
from engine.ranking import Ranking

OVERS = (Card("O", "a"), Card("O", "l"), Card("O", "h"), Card("O", "b"))
TRUMP_RANKS = ("A", "T", "K", "U", "9", "8", "7")
PLAIN_RANKS = ("A", "T", "K", "U", "9", "8", "7")
ACE_TEN_POINTS = (("A", 1), ("T", 1))

FILICAU_RANKING = Ranking(GERMAN_32, OVERS, TRUMP_RANKS, PLAIN_RANKS, ACE_TEN_POINTS)


@dataclass(frozen=True)
class FilicauState(LengthLimited, MatchState):
    """`masters` is the master team or None (even). `hands` counts hands
    played and `tally` the hands each team ended as masters; they matter only
    when the option `match_length` is set."""

    masters: int | None
    dealer: int
    hands: int = 0
    tally: tuple[int, int] = (0, 0)
    match_length: int = 0

    @property
    def slaves(self) -> int | None:
        return None if self.masters is None else 1 - self.masters

    def standing(self) -> Standing:
        return Standing(True, self.masters)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": status_text(self.masters), "dealer": self.dealer}
        if self.match_length:
            out.update(hands=self.hands, tally=list(self.tally), winner=self.winner,
                       over=self.over)
        return out


def outcome_class(p0: int) -> int:
    """A number per distinct status outcome of team 0 scoring `p0` of 8."""
    if p0 in (0, 8):
        return 0  # running away: even
    if p0 <= 2:
        return 1  # team 1 masters
    if p0 <= 5:
        return 2  # unchanged
    return 3  # team 0 masters
