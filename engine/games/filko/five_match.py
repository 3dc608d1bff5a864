"""The match state of five-player Filkó and what a hand's result does to it.

Teams change from hand to hand, so a state that has masters carries them:
`teams[s]` is seat `s`'s team (0 = the Old Man's side, 1 = the others),
with the trump suit and the Old Man, all kept while the masters last.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.errors import BadRequest
from engine.games.filko.common import check_int
from engine.games.filko.match import MASTER_POINTS, team_taking
from engine.masters import parse_status, status_text
from engine.match import LengthLimited, MatchState, Standing

PLAYERS = 5


@dataclass(frozen=True)
class Filko5State(LengthLimited, MatchState):
    """`masters` (a team of `teams`) and `servant` (a seat, also the dealer)
    while there are masters. `tally[s]` counts the hands seat `s` won (its
    team took 6 or more, or under Rich and Poor met its target); with the
    option `match_length` the seat with the highest tally wins the match."""

    masters: int | None
    dealer: int
    servant: int | None = None
    teams: tuple[int, ...] | None = None
    trump: str | None = None
    old_man: int | None = None
    hands: int = 0
    tally: tuple[int, ...] = (0,) * PLAYERS
    match_length: int = 0

    # `over` and `winner` (the seat with the best tally) come from LengthLimited

    def standing(self) -> Standing:
        return Standing(True, self.masters)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": status_text(self.masters), "dealer": self.dealer,
            "servant": self.servant,
            "teams": list(self.teams) if self.teams is not None else None,
            "trump": self.trump, "old_man": self.old_man,
        }
        if self.match_length:
            out.update(hands=self.hands, tally=list(self.tally), winner=self.winner,
                       over=self.over)
        return out


def check_teams(value: object, old_man: int, what: str = "teams") -> tuple[int, ...]:
    """Five 0/1 values, the Old Man on team 0 with at most one partner."""
    if (not isinstance(value, list | tuple) or len(value) != PLAYERS
            or not all(v in (0, 1) and not isinstance(v, bool) for v in value)):
        raise BadRequest(f"{what} must be five team numbers, 0 (the Old Man's side) or 1")
    if value[old_man] != 0:
        raise BadRequest(f"{what}: the Old Man (seat {old_man}) is on team 0")
    if list(value).count(0) > 2:
        raise BadRequest(f"{what}: the Old Man has at most one partner")
    return tuple(int(v) for v in value)


def first_on_team(start: int, teams: Sequence[int], team: int) -> int:
    """The first seat from `start` on (in the order of play) on `team`."""
    for i in range(PLAYERS):
        s = (start + i) % PLAYERS
        if teams[s] == team:
            return s
    raise BadRequest(f"no seat is on team {team}")


def with_tally(state: Filko5State, teams: Sequence[int], winner: int | None) -> Filko5State:
    tally = list(state.tally)
    if winner is not None:
        for s in range(PLAYERS):
            if teams[s] == winner:
                tally[s] += 1
    return replace(state, tally=tuple(tally), hands=state.hands + 1)


def even_after(state: Filko5State, dealer: int) -> Filko5State:
    return replace(state, masters=None, servant=None, teams=None, trump=None, old_man=None,
                   dealer=dealer)


def settle_old_man(state: Filko5State, points: Sequence[int], teams: tuple[int, ...],
                   trump: str, old_man: int, options: dict[str, Any]) -> Filko5State:
    """§2.B.3: 6+ makes masters; the Servant is the dealer or the first loser
    after him; the Servant's team liberates itself with 0 or 6+ points."""
    winner = team_taking(points)
    if state.masters is None:
        if winner is None:
            return with_tally(replace(state, dealer=(state.dealer + 1) % PLAYERS), teams, None)
        servant = first_on_team(state.dealer, teams, 1 - winner)
        after = replace(state, masters=winner, servant=servant, dealer=servant, teams=teams,
                        trump=trump, old_man=old_man)
        return with_tally(after, teams, winner)
    assert state.servant is not None
    servants = teams[state.servant]
    liberating = servants if options["liberating_team"] == "servants" else 1
    got = points[liberating]
    if got == 0 or got >= MASTER_POINTS:
        if options["liberation_by_6_makes_masters"] and points[servants] >= MASTER_POINTS:
            servant = first_on_team(state.dealer, teams, 1 - servants)
            after = replace(state, masters=servants, servant=servant, dealer=servant)
        else:
            after = even_after(state, (state.servant + 1) % PLAYERS)
        return with_tally(after, teams, winner)
    return with_tally(state, teams, winner)


def rich_poor_winner(points: Sequence[int]) -> int:
    """The Rich (team 0) win with 6 or more, the Poor otherwise (3 or more)."""
    return 0 if points[0] >= MASTER_POINTS else 1


def settle_rich_poor(state: Filko5State, points: Sequence[int], teams: tuple[int, ...],
                     trump: str, old_man: int, options: dict[str, Any]) -> Filko5State:
    """§2.B.5: a member of the losing team deals; with fixed teams (RP-b) the
    same dealer keeps dealing until his team takes its liberation threshold."""
    winner = rich_poor_winner(points)

    def loser_deals(losing: int) -> int:
        start = state.dealer if options["rp_dealer"] == "first_loser" else state.dealer + 1
        return first_on_team(start % PLAYERS, teams, losing)

    if not options["teams_fixed_until_liberated"]:
        return with_tally(replace(state, dealer=loser_deals(1 - winner)), teams, winner)
    if state.masters is None:
        servant = loser_deals(1 - winner)
        after = replace(state, masters=winner, servant=servant, dealer=servant, teams=teams,
                        trump=trump, old_man=old_man)
        return with_tally(after, teams, winner)
    assert state.servant is not None
    dealing = teams[state.servant]
    threshold = MASTER_POINTS
    if options["liberation_threshold"] == 3 and dealing == 1:
        threshold = 3
    if points[dealing] >= threshold:
        return with_tally(even_after(state, loser_deals(1 - dealing)), teams, winner)
    return with_tally(state, teams, winner)


def state_from_json(obj: Any, options: dict[str, Any], check_seat: Any) -> Filko5State:
    """Read a referee `state` (see `Filko5State.to_json`)."""
    if not isinstance(obj, dict):
        raise BadRequest("state must be an object")
    unknown = set(obj) - {"status", "dealer", "servant", "teams", "trump", "old_man", "hands",
                          "tally", "winner", "over"}
    if unknown:
        raise BadRequest(f"unknown state fields: {', '.join(sorted(unknown))}")
    masters = parse_status(obj.get("status", "even"))
    dealer = check_seat(obj.get("dealer"), "state.dealer")
    hands = check_int(obj.get("hands", 0), "state.hands")
    tally_raw = obj.get("tally", [0] * PLAYERS)
    if not isinstance(tally_raw, list) or len(tally_raw) != PLAYERS:
        raise BadRequest("state.tally must be five non-negative integers")
    tally = tuple(check_int(t, "state.tally") for t in tally_raw)
    length = options["match_length"]
    if masters is None:
        for name in ("servant", "teams", "trump", "old_man"):
            if obj.get(name) is not None:
                raise BadRequest(f"state.{name} must be null: there are no masters")
        return Filko5State(None, dealer, hands=hands, tally=tally, match_length=length)
    if options["teams"] == "rich_poor" and not options["teams_fixed_until_liberated"]:
        raise BadRequest("Rich and Poor with independent deals has no masters")
    for name in ("servant", "teams", "trump", "old_man"):
        if obj.get(name) is None:
            raise BadRequest(f"state.{name} is needed while there are masters")
    old_man = check_seat(obj["old_man"], "state.old_man")
    servant = check_seat(obj["servant"], "state.servant")
    teams = check_teams(obj["teams"], old_man, "state.teams")
    trump = obj["trump"]
    if trump not in ("a", "l", "h", "b"):
        raise BadRequest("state.trump must be a suit letter: a l h b")
    if teams[servant] == masters:
        raise BadRequest("state.servant must be an opponent of the masters")
    if dealer != servant:
        raise BadRequest("state.dealer must be the Servant: he deals every hand")
    return Filko5State(masters, dealer, servant, teams, trump, old_man, hands, tally, length)
