"""Match states of the four- and six-player Filkó games and of Filkó with Hats.

Hungarian scoring (§2.B.1): a team taking 6 or more of the 8 points becomes
master (8–0 included); otherwise nothing changes. The first time a team
becomes master it picks one opponent as the Servant, who deals every hand
until his team takes 6 or more; the role then passes to the player after him.
Once there are masters there is never "even" again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import BadRequest
from engine.games.filko.common import check_int
from engine.masters import status_text
from engine.match import LengthLimited, MatchState, Standing

MASTER_POINTS = 6


def team_taking(points: Sequence[int], at_least: int = MASTER_POINTS) -> int | None:
    """The team with `at_least` points or more, if any."""
    if points[0] >= at_least:
        return 0
    if points[1] >= at_least:
        return 1
    return None


def check_unknown_fields(obj: dict[str, Any], allowed: set[str]) -> None:
    unknown = set(obj) - allowed
    if unknown:
        raise BadRequest(f"unknown state fields: {', '.join(sorted(unknown))}")


def check_pair(value: object, what: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise BadRequest(f"{what} must be two non-negative integers")
    return check_int(value[0], what), check_int(value[1], what)


@dataclass(frozen=True)
class FilkoState(LengthLimited, MatchState):
    """`masters` is the master team or None (even); `servant` the Servant's
    seat while there are masters (he is also the dealer). With the option
    `match_length`, `hands` counts hands played and `tally` the hands each team
    ended as masters; the team with the larger tally wins."""

    masters: int | None
    dealer: int
    servant: int | None = None
    hands: int = 0
    tally: tuple[int, int] = (0, 0)
    match_length: int = 0

    def standing(self) -> Standing:
        return Standing(True, self.masters)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": status_text(self.masters), "dealer": self.dealer,
                               "servant": self.servant}
        if self.match_length:
            out.update(hands=self.hands, tally=list(self.tally), winner=self.winner,
                       over=self.over)
        return out


@dataclass(frozen=True)
class HatsState(LengthLimited, MatchState):
    """Filkó with Hats: `hatless` is the team that lost the last decided hand
    (it plays bare-headed, or standing, until it wins one), `score` the hands
    won per team. With `match_length`, the team that won more hands wins."""

    dealer: int
    hatless: int | None = None
    score: tuple[int, int] = (0, 0)
    hands: int = 0
    match_length: int = 0

    def tally_of_sides(self) -> tuple[int, ...]:
        return self.score

    def standing(self) -> Standing:
        return Standing(score=self.score)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"dealer": self.dealer, "hatless": self.hatless,
                               "score": list(self.score)}
        if self.match_length:
            out.update(hands=self.hands, winner=self.winner, over=self.over)
        return out
