"""Filicău as the registry hands it out (the rules are in `rules`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.cards import Card
from engine.deal import Deal
from engine.errors import BadRequest
from engine.game import DealtHands, Game, MatchState, check_points, check_seat
from engine.games.filicau.rules import (
    FILICAU_RANKING,
    FilicauState,
    outcome_class,
)
from engine.masters import parse_status
from engine.masters import romanian_status_after as status_after
from engine.options import OptionSpec
from engine.ranking import Ranking


class Filicau(Game):
    id = "filicau"
    title = "Filicău"
    players = 4
    hand_size = 8
    tricks_per_hand = 8
    legal_family = "FT"
    option_specs = (
        OptionSpec("early_stop_when_decided", False, (False, True),
                   doc="end the hand as soon as its status outcome is certain "
                       "(the result is the same)"),
        OptionSpec("match_length", 0, minimum=0, maximum=1000,
                   doc="hands in a match; 0 plays until stopped. With a length, the "
                       "winner is the team that ended more hands as masters"),
    )

    def make_ranking(self) -> Ranking:
        return FILICAU_RANKING

    # ----- trumps and the deal -----------------------------------------------------

    def is_permanent_trump(self, c: Card) -> bool:
        return c in self.ranking.permanent_trumps

    def trump_from_shown(self, shown: Sequence[Card]) -> tuple[str, int]:
        """The suit of the first card that is not an Over, and how many were looked at."""
        for i, c in enumerate(shown):
            if c.rank != "O":
                return c.suit, i + 1
        raise BadRequest("every shown card is an Over: show the next card too")

    def deal(self, rng: random.Random, dealer: int) -> DealtHands:
        """Shuffle, deal one card at a time starting with the player after the
        dealer (FI-1), and fix trumps from the dealer's first cards."""
        cards = list(self.pack.cards)
        rng.shuffle(cards)
        hands: list[list[Card]] = [[] for _ in range(self.players)]
        for i, c in enumerate(cards):
            hands[(dealer + 1 + i) % self.players].append(c)
        trump, used = self.trump_from_shown(hands[dealer])
        return DealtHands(dealer, tuple(tuple(h) for h in hands), trump,
                          tuple(hands[dealer][:used]), (dealer + 1) % self.players)

    def is_decided(self, deal: Deal) -> bool:
        if not self.options["early_stop_when_decided"]:
            return False
        p0, p1 = self.team_points(deal)
        rest = 8 - p0 - p1
        first = outcome_class(p0)
        return all(outcome_class(p) == first for p in range(p0, p0 + rest + 1))

    # ----- the match ---------------------------------------------------------------

    def new_match(self, rng: random.Random, masters: int | None = None) -> FilicauState:
        """A first dealer at random; a slave when a status is carried over (FI-3)."""
        if masters is None:
            dealer = rng.randrange(self.players)
        else:
            dealer = rng.choice([s for s in range(self.players) if self.team_of(s) != masters])
        return FilicauState(masters, dealer, match_length=self.options["match_length"])

    def state_from_json(self, obj: Any) -> FilicauState:
        if not isinstance(obj, dict):
            raise BadRequest("state must be an object")
        unknown = set(obj) - {"status", "dealer", "hands", "tally", "winner", "over"}
        if unknown:
            raise BadRequest(f"unknown state fields: {', '.join(sorted(unknown))}")
        masters = parse_status(obj.get("status", "even"))
        dealer = check_seat(self, obj.get("dealer"), "state.dealer")
        hands = obj.get("hands", 0)
        if isinstance(hands, bool) or not isinstance(hands, int) or hands < 0:
            raise BadRequest("state.hands must be a non-negative integer")
        tally = obj.get("tally", [0, 0])
        if (not isinstance(tally, list) or len(tally) != 2
                or not all(isinstance(t, int) and not isinstance(t, bool) and t >= 0
                           for t in tally)):
            raise BadRequest("state.tally must be two non-negative integers")
        return FilicauState(masters, dealer, hands, (tally[0], tally[1]),
                            self.options["match_length"])

    def next_dealer(self, prev: int, masters: int | None) -> int:
        """Even: the player after the dealer. Otherwise a slave: the same dealer
        if a slave, else the next player (who then is one)."""
        nxt = (prev + 1) % self.players
        if masters is None:
            return nxt
        return prev if self.team_of(prev) != masters else nxt

    def settle(self, state: MatchState, points: Sequence[int],
               tricks: Sequence[int] | None = None, **extra: Any) -> FilicauState:
        if not isinstance(state, FilicauState):
            raise BadRequest("not a Filicău match state")
        if state.over:
            raise BadRequest("the match is over")
        points = check_points(self, list(points))
        masters = status_after(state.masters, points)
        tally = list(state.tally)
        if masters is not None:
            tally[masters] += 1
        return replace(state, masters=masters, dealer=self.next_dealer(state.dealer, masters),
                       hands=state.hands + 1, tally=(tally[0], tally[1]))
