"""What a match carries from hand to hand, and what a deal hands out.

`MatchState` is the base of every game's match state (a frozen dataclass
with a `dealer` field); `DealtHands` is the result of shuffling and dealing;
`LengthLimited` ends a match after a set number of hands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card


@dataclass(frozen=True)
class DealtHands:
    """The result of shuffling and dealing: every seat's cards in the order
    received, the cards shown to fix trumps, the trump and the first leader."""

    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    trump: str | None
    shown: tuple[Card, ...] = ()
    leader: int = 0
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Standing:
    """The match at a glance, for a screen. `has_status`: the game knows
    masters and even (then `masters` is the master team, None when even);
    `score`: the score, when the game keeps one."""

    has_status: bool = False
    masters: int | None = None
    score: tuple[int, ...] | None = None


class MatchState:
    """The state a match carries from hand to hand. Subclasses are frozen
    dataclasses with a `dealer` field; `to_json` gives the referee's `state`,
    `standing` what a screen says about it."""

    dealer: int

    def standing(self) -> Standing:
        return Standing()

    @property
    def winner(self) -> int | None:
        """The team that has won the match, if it is over with a winner."""
        return None

    @property
    def over(self) -> bool:
        return False

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError


class LengthLimited:
    """Mixin for a match state that ends after a set number of hands
    (`match_length`), won by the side with the best tally: Filicău and the
    Filkó family, where the rules set no end of their own. The state has
    `hands` (played so far), `match_length` (0: no end) and `tally` (what each
    side has won, per team or per seat)."""

    hands: int
    match_length: int
    tally: Sequence[int]

    def tally_of_sides(self) -> tuple[int, ...]:
        return tuple(self.tally)

    @property
    def over(self) -> bool:
        return self.match_length > 0 and self.hands >= self.match_length

    @property
    def winner(self) -> int | None:
        """The side with the best tally once the match is over; None on a tie."""
        if not self.over:
            return None
        tally = self.tally_of_sides()
        best = max(tally)
        leaders = [side for side, t in enumerate(tally) if t == best]
        return leaders[0] if len(leaders) == 1 else None
