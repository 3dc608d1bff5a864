"""Filkó for four (`filko`), with Hats (`filko_hats`) and for six (`filko6`)
as the registry hands them out (shared rules in `rules`, the match in `match`)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from engine.cards import Card
from engine.errors import BadRequest
from engine.game import MatchState, check_seat
from engine.games.filko.flow import FilkoFlow
from engine.games.filko.match import (
    FilkoState,
    HatsState,
    check_pair,
    check_unknown_fields,
    team_taking,
)
from engine.games.filko.messages import Refusal
from engine.games.filko.rules import (
    CUT_MIN_SIZE,
    CUTTER,
    DEALER_WHILE_EVEN,
    FIRST_LEAD,
    MATCH_LENGTH,
    OVER_ORDER,
    SERVANT_CHOICE,
    FilkoCutRules,
    opt_top_trumps,
)
from engine.masters import parse_status, romanian_status_after
from engine.options import OptionSpec


class FilkoCutGame(FilkoCutRules):
    """The Filkó games whose trumps come from the cut, with their hand flow."""

    def hand_flow(self, state: MatchState, hands: Sequence[Iterable[Card]] | None = None,
                  trump: str | None = None) -> FilkoFlow:
        return FilkoFlow(self, state, hands, trump)

    def flow_with_trump(self, state: MatchState | None,
                        hands: Sequence[Iterable[Card]] | None, trump: str, *,
                        shown: Sequence[Card] = (), leader: int | None = None) -> FilkoFlow:
        """The hand with trumps given. A Filkó hand always starts from its
        match state; cut cards are shown through the flow's steps (the
        referee's Filkó `new_hand` does so)."""
        if state is None or shown:
            raise BadRequest("a Filkó hand starts from its match state; cut cards are "
                             "shown at its steps")
        return self.hand_flow(state, hands, trump)


class HungarianFilko(FilkoCutGame):
    """Masters and a Servant (§2.B.1); filko6 may switch to Romanian scoring."""

    def romanian(self) -> bool:
        return self.options.get("scoring") == "romanian"

    def new_match(self, rng: random.Random) -> FilkoState:
        """Even teams and a first dealer at random."""
        return FilkoState(None, rng.randrange(self.players),
                          match_length=self.options["match_length"])

    def state_from_json(self, obj: Any) -> FilkoState:
        if not isinstance(obj, dict):
            raise BadRequest("state must be an object")
        check_unknown_fields(obj, {"status", "dealer", "servant", "hands", "tally", "winner",
                                   "over"})
        masters = parse_status(obj.get("status", "even"))
        dealer, hands = self._match_fields(obj)
        tally = check_pair(obj.get("tally", [0, 0]), "state.tally")
        servant = obj.get("servant")
        if servant is not None:
            servant = check_seat(self, servant, "state.servant")
        if masters is None or self.romanian():
            if servant is not None:
                raise BadRequest("state.servant must be null: "
                                 + ("there are no masters" if masters is None
                                    else "Romanian scoring has no Servant"))
        else:
            if servant is None:
                raise BadRequest("state.servant is needed: with masters there is a Servant")
            if self.team_of(servant) == masters:
                raise BadRequest(f"state.servant must be an opponent of the masters "
                                 f"(team {1 - masters})")
            if dealer != servant:
                raise BadRequest("state.dealer must be the Servant: he deals every hand")
        return FilkoState(masters, dealer, servant, hands, tally, self.options["match_length"])

    def default_servant(self, prev: int, masters: int) -> int:
        """FK-4's bot choice: the player after the dealer if an opponent, else the dealer."""
        nxt = (prev + 1) % self.players
        return nxt if self.team_of(nxt) != masters else prev

    def servant_choices(self, state: MatchState, points: Sequence[int]) -> tuple[int, ...]:
        if (self.romanian() or self.options["servant_choice"] != "masters"
                or not isinstance(state, FilkoState) or state.masters is not None):
            return ()
        winner = team_taking(points)
        if winner is None:
            return ()
        return tuple(s for s in range(self.players) if self.team_of(s) != winner)

    def settle(self, state: MatchState, points: Sequence[int],
               tricks: Sequence[int] | None = None, servant: int | None = None,
               **extra: Any) -> FilkoState:
        """The state after a hand; `servant` is the masters' choice when a team
        first becomes master (with `servant_choice` = `masters`)."""
        self._check_state(state, FilkoState)
        assert isinstance(state, FilkoState)
        if extra:
            raise BadRequest(f"unknown fields: {', '.join(sorted(extra))}")
        points = self.check_hand_points(points)
        if servant is not None:
            servant = check_seat(self, servant, "servant")
        after = (self._settle_romanian(state, points, servant) if self.romanian()
                 else self._settle_hungarian(state, points, servant))
        tally = list(state.tally)
        if after.masters is not None:
            tally[after.masters] += 1
        return replace(after, hands=state.hands + 1, tally=(tally[0], tally[1]))

    def _no_servant_choice(self, servant: int | None, why: str) -> None:
        if servant is not None:
            raise BadRequest(f"no Servant is chosen after this hand: {why}")

    def _settle_hungarian(self, state: FilkoState, points: Sequence[int],
                          servant: int | None) -> FilkoState:
        winner = team_taking(points)
        if state.masters is None:
            if winner is None:
                self._no_servant_choice(servant, "no team took 6 points")
                return replace(state, dealer=self.dealer_without_masters(state.dealer, points))
            choices = tuple(s for s in range(self.players) if self.team_of(s) != winner)
            if servant is None:
                if self.options["servant_choice"] != "auto":
                    raise BadRequest(
                        f'team {winner} became master and chooses the Servant: give "servant", '
                        f"one of seats {', '.join(map(str, choices))}")
                servant = self.default_servant(state.dealer, winner)
            elif servant not in choices:
                raise Refusal("filko_bad_servant", choice=str(servant),
                                  choices=", ".join(map(str, choices)), servant=servant,
                                  seats=list(choices))
            return replace(state, masters=winner, servant=servant, dealer=servant)
        self._no_servant_choice(servant, "the masters chose the Servant already")
        assert state.servant is not None
        if winner is None or winner == state.masters:
            return state
        nxt = (state.servant + 1) % self.players
        return replace(state, masters=winner, servant=nxt, dealer=nxt)

    def _settle_romanian(self, state: FilkoState, points: Sequence[int],
                         servant: int | None) -> FilkoState:
        self._no_servant_choice(servant, "Romanian scoring has no Servant")
        masters = romanian_status_after(state.masters, points)
        prev = state.dealer
        if masters is None:
            dealer = self.dealer_without_masters(prev, points)
        else:
            dealer = prev if self.team_of(prev) != masters else (prev + 1) % self.players
        return replace(state, masters=masters, dealer=dealer)


class Filko(HungarianFilko):
    """Four-player Filkó (Zsigri), §2.B.1."""

    id = "filko"
    title = "Filkó"
    players = 4
    hand_size = 8
    tricks_per_hand = 8
    packets = (4, 4)
    option_specs = (opt_top_trumps(("overs",)), OVER_ORDER, CUTTER, CUT_MIN_SIZE, FIRST_LEAD,
                    DEALER_WHILE_EVEN, SERVANT_CHOICE, MATCH_LENGTH)


class Filko6(HungarianFilko):
    """Six-player Filkó, §2.B.2: 30 cards, teams of three in alternate seats."""

    id = "filko6"
    title = "Six-player Filkó"
    players = 6
    hand_size = 5
    tricks_per_hand = 5
    packets = (3, 2)
    option_specs = (opt_top_trumps(("overs", "szeged")), OVER_ORDER, CUTTER, CUT_MIN_SIZE,
                    FIRST_LEAD, DEALER_WHILE_EVEN, SERVANT_CHOICE,
                    OptionSpec("scoring", "hungarian", ("hungarian", "romanian"),
                               doc="Hungarian (6+ points make masters, a Servant) or "
                                   "Romanian (Filicău's statuses: 8–0 makes even) (FK-5)"),
                    MATCH_LENGTH)


class FilkoHats(FilkoCutGame):
    """Filkó with Hats (Bátmonostor), §2.B.6: 120 card points; a team taking at
    least `win_threshold` wins the hand, and the losers play without hats."""

    id = "filko_hats"
    title = "Filkó with Hats"
    players = 4
    hand_size = 8
    tricks_per_hand = 8
    packets = (4, 4)
    hats = True
    option_specs = (opt_top_trumps(("overs",)), OVER_ORDER, CUTTER, CUT_MIN_SIZE, FIRST_LEAD,
                    DEALER_WHILE_EVEN,
                    OptionSpec("win_threshold", 61, minimum=61, maximum=120,
                               doc="the fewest card points that win a hand (FK-15): 61, or "
                                   "62 for the literal \"more than 61\""),
                    MATCH_LENGTH)

    def new_match(self, rng: random.Random) -> HatsState:
        return HatsState(rng.randrange(self.players), match_length=self.options["match_length"])

    def state_from_json(self, obj: Any) -> HatsState:
        if not isinstance(obj, dict):
            raise BadRequest("state must be an object")
        check_unknown_fields(obj, {"dealer", "hatless", "score", "hands", "winner", "over"})
        dealer, hands = self._match_fields(obj)
        hatless = obj.get("hatless")
        if hatless is not None and (isinstance(hatless, bool) or hatless not in (0, 1)):
            raise BadRequest("state.hatless must be 0, 1 or null")
        score = check_pair(obj.get("score", [0, 0]), "state.score")
        return HatsState(dealer, hatless, score, hands, self.options["match_length"])

    def hand_winner(self, points: Sequence[int]) -> int | None:
        return team_taking(points, self.options["win_threshold"])

    def settle(self, state: MatchState, points: Sequence[int],
               tricks: Sequence[int] | None = None, servant: int | None = None,
               **extra: Any) -> HatsState:
        self._check_state(state, HatsState)
        assert isinstance(state, HatsState)
        if servant is not None:
            raise BadRequest("Filkó with Hats has no Servant")
        if extra:
            raise BadRequest(f"unknown fields: {', '.join(sorted(extra))}")
        points = self.check_hand_points(points)
        winner = self.hand_winner(points)
        score = list(state.score)
        hatless = state.hatless
        if winner is not None:
            score[winner] += 1
            hatless = 1 - winner
        return replace(state, dealer=self.dealer_without_masters(state.dealer, points),
                       hatless=hatless, score=(score[0], score[1]), hands=state.hands + 1)
