"""Filicău, the Romanian game (RULES.md §2.A).

Four players in fixed partnerships (seats 0+2 against 1+3), the 32-card
German pack, the four Overs as permanent trumps, trumps from the dealer's
first non-Over card, 8 tricks, an Ace or Ten is one point (8 in all).
After each hand: 6 or 7 points make that team masters, 8–0 makes both teams
even again ("running away"), 4–4 and 5–3 change nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.cards import Card
from engine.deal import Deal
from engine.errors import BadRequest
from engine.games import register
from engine.games.base import DealtHands, Game, MatchState, check_points, check_seat
from engine.games.match_length import LengthLimited
from engine.options import OptionSpec
from engine.packs import GERMAN_32
from engine.ranking import Ranking

OVERS = (Card("O", "a"), Card("O", "l"), Card("O", "h"), Card("O", "b"))
TRUMP_RANKS = ("A", "T", "K", "U", "9", "8", "7")
PLAIN_RANKS = ("A", "T", "K", "U", "9", "8", "7")
ACE_TEN_POINTS = (("A", 1), ("T", 1))

FILICAU_RANKING = Ranking(GERMAN_32, OVERS, TRUMP_RANKS, PLAIN_RANKS, ACE_TEN_POINTS)


def parse_status(value: object) -> int | None:
    """`"even"` -> None, `"masters:T"` -> T."""
    if value == "even":
        return None
    if isinstance(value, str) and value in ("masters:0", "masters:1"):
        return int(value[-1])
    raise BadRequest('status must be "even", "masters:0" or "masters:1"')


def status_text(masters: int | None) -> str:
    return "even" if masters is None else f"masters:{masters}"


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

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": status_text(self.masters), "dealer": self.dealer}
        if self.match_length:
            out.update(hands=self.hands, tally=list(self.tally), winner=self.winner,
                       over=self.over)
        return out


def status_after(masters: int | None, points: Sequence[int]) -> int | None:
    """The Filicău status table: 6–7 masters, 8–0 even, 4–4 and 5–3 unchanged."""
    p0, p1 = points
    if p0 == 8 or p1 == 8:
        return None
    if p0 >= 6:
        return 0
    if p1 >= 6:
        return 1
    return masters


def outcome_class(p0: int) -> int:
    """A number per distinct status outcome of team 0 scoring `p0` of 8."""
    if p0 in (0, 8):
        return 0  # running away: even
    if p0 <= 2:
        return 1  # team 1 masters
    if p0 <= 5:
        return 2  # unchanged
    return 3  # team 0 masters


@register
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
