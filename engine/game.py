"""What every game provides: its pack and ranking, options, teams, the deal,
the trump rule, and how a hand's result changes the match.

A game is a subclass of `Game` with class-level facts (`id`, `players`,
`hand_size`, ...) and an `option_specs` table; an instance carries validated
options. Each game lives in its own package under `engine/games/`, and the
registry (`engine.registry`) finds it by id.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from engine.cards import Card
from engine.deal import Deal
from engine.errors import BadRequest, IllegalPlay
from engine.flow import HandFlow
from engine.legal import legal_mask, refusal
from engine.match import DealtHands, MatchState
from engine.messages import CORE, Catalogue
from engine.options import OptionSpec, validate
from engine.packs import Pack
from engine.ranking import Ranking

__all__ = ["DealtHands", "Game", "MatchState", "check_points", "check_seat"]


class Game:
    """Base class of every game (see module docstring)."""

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    players: ClassVar[int] = 4
    hand_size: ClassVar[int] = 8
    tricks_per_hand: ClassVar[int] = 8
    #: The legal-play family (see `engine.legal`); a game whose options change
    #: it sets it per instance.
    legal_family: str = "FT"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    deal_class: ClassVar[type[Deal]] = Deal
    #: The game's sentences (`engine.messages`): the engine's own codes and
    #: the game's. The registry finds a game's catalogue through its class.
    messages: ClassVar[Catalogue] = CORE
    #: The error a refusal of this game raises: `IllegalPlay` that renders
    #: from `messages`.
    refusal: ClassVar[type[IllegalPlay]] = IllegalPlay

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.options: dict[str, Any] = validate(self.id, self.option_specs, options)
        self.ranking: Ranking = self.make_ranking()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.options!r})"

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        """A game is its rules, fixed once made (its options and ranking are
        read, never changed): a copy of a hand or a deal shares it."""
        return self

    # ----- cards ----------------------------------------------------------------

    def make_ranking(self) -> Ranking:
        raise NotImplementedError

    @property
    def pack(self) -> Pack:
        return self.ranking.pack

    @property
    def undertrump_required(self) -> bool:
        """UB family: must a player who cannot overtrump still trump?"""
        return True

    @property
    def total_points(self) -> int:
        return self.ranking.total_points()

    def parse_cards(self, codes: Iterable[object]) -> list[Card]:
        return [self.pack.parse(c) for c in codes]

    def trick_points(self, cards: Sequence[Card], trump: str | None = None) -> int:
        return sum(self.ranking.card_points(c) for c in cards)

    def trick_winner(self, cards: Sequence[Card], trump: str | None) -> int:
        """Index in `cards` (0 = leader) of the card that wins this trick."""
        if not cards:
            raise BadRequest("a trick needs at least one card")
        if len(cards) > self.players:
            raise BadRequest(f"a trick of {self.id} has at most {self.players} cards")
        pack = self.pack
        used = 0
        slots = []
        for c in cards:
            s = pack.slot(c, pack.full_mask & ~used)
            if s < 0:
                raise BadRequest(f"{c} appears in the trick more often than the pack holds it")
            used |= 1 << s
            slots.append(s)
        return self.ranking.tables(trump).winner_index(slots)

    def legal_family_for(self, **context: Any) -> str:
        """Hook: the legal-play family for a stateless question (context such
        as Fildinsky's `stock_empty` may change it)."""
        return self.legal_family

    def _position(self, trump: str | None, trick: Sequence[Card], hand: Sequence[Card]
                  ) -> tuple[list[int], int, list[int]]:
        """Slots for a trick so far and a hand: (trick slots, hand mask, hand slots)."""
        pack = self.pack
        if len(trick) >= self.players:
            raise BadRequest(f"a trick of {self.id} already has {self.players} cards")
        used = 0
        trick_slots = []
        for c in trick:
            s = pack.slot(c, pack.full_mask & ~used)
            if s < 0:
                raise BadRequest(f"{c} appears more often than the pack holds it")
            used |= 1 << s
            trick_slots.append(s)
        hand_slots = []
        for c in hand:
            s = pack.slot(c, pack.full_mask & ~used)
            if s < 0:
                raise BadRequest(f"{c} is both in the hand and in the trick, or held twice")
            used |= 1 << s
            hand_slots.append(s)
        mask = 0
        for s in hand_slots:
            mask |= 1 << s
        return trick_slots, mask, hand_slots

    def legal_subset(self, trump: str | None, trick: Sequence[Card], hand: Sequence[Card],
                     **context: Any) -> list[Card]:
        """Stateless question: the cards of `hand` that may be played to `trick`
        (leader first), in the order of `hand`."""
        trick_slots, mask, hand_slots = self._position(trump, trick, hand)
        family = self.legal_family_for(**context)
        legal = legal_mask(family, self.ranking.tables(trump), mask, trick_slots,
                           self.undertrump_required)
        return [c for c, s in zip(hand, hand_slots, strict=True) if legal >> s & 1]

    def verdict(self, trump: str | None, trick: Sequence[Card], hand: Sequence[Card],
                card: Card, seat: int | None = None, **context: Any) -> IllegalPlay | None:
        """Stateless question: why `card` may not be played (None when it may)."""
        seat = len(trick) if seat is None else seat
        params: dict[str, Any] = {"seat": seat, "family": self.pack.family, "card": card.code}
        if card not in hand:
            return self.refusal("not_in_hand", **params)
        trick_slots, mask, hand_slots = self._position(trump, trick, hand)
        family = self.legal_family_for(**context)
        tables = self.ranking.tables(trump)
        legal = legal_mask(family, tables, mask, trick_slots, self.undertrump_required)
        slot = hand_slots[list(hand).index(card)]
        if legal >> slot & 1:
            return None
        reason, suit = refusal(family, tables, mask, trick_slots, slot)
        return self.refusal(reason, suit=suit, **params)

    # ----- teams and scoring ----------------------------------------------------

    def team_of(self, seat: int) -> int:
        """Fixed partnerships: the team of a seat is `seat mod 2`."""
        return seat % 2

    def team_points(self, deal: Deal) -> list[int]:
        out = [0, 0]
        for seat, p in enumerate(deal.points):
            out[self.team_of(seat)] += p
        return out

    def team_tricks(self, deal: Deal) -> list[int]:
        out = [0, 0]
        for seat, w in enumerate(deal.won):
            out[self.team_of(seat)] += w
        return out

    def is_decided(self, deal: Deal) -> bool:
        """May the hand stop before its last trick? Only with an option saying so."""
        return False

    # ----- the hand -------------------------------------------------------------

    def trump_from_shown(self, shown: Sequence[Card]) -> tuple[str, int]:
        """The trump suit fixed by cards shown in order: (suit, cards looked at)."""
        raise BadRequest(f"{self.id} does not fix trumps from shown cards")

    def check_shown(self, dealer: int, shown: Iterable[Card],
                    hands: Sequence[Sequence[Card]] | None) -> None:
        """The cards shown to fix trumps are the dealer's (Filicău's first
        cards, Sueca's turned-up card): with the hands known, a shown card
        the dealer does not hold is refused (`not_in_hand`)."""
        if hands is None:
            return
        for c in shown:
            if c not in hands[dealer]:
                raise self.refusal("not_in_hand", seat=dealer, card=c.code,
                                   family=self.pack.family)

    def dealer_before(self, leader: int) -> int | None:
        """The dealer of a hand known only by its first leader, when the rules
        fix him (Sueca: the seat before the leader), so that the cards shown
        to fix trumps are still checked as his. None: they do not."""
        return None

    def new_deal(self, trump: str | None, leader: int,
                 hands: Sequence[Iterable[Card]] | None = None,
                 known: Mapping[int, Iterable[Card]] | None = None) -> Deal:
        return self.deal_class(self, trump, leader, hands, known=known)

    def hand_flow(self, state: MatchState, hands: Sequence[Iterable[Card]] | None = None,
                  trump: str | None = None) -> HandFlow:
        """A hand as the table lives it (see `engine.flow`). Games with calls,
        bindings, draws or melds return their own `HandFlow` subclass."""
        return HandFlow(self, state, hands, trump)

    def flow_with_trump(self, state: MatchState | None,
                        hands: Sequence[Iterable[Card]] | None, trump: str, *,
                        shown: Sequence[Card] = (), leader: int | None = None) -> HandFlow:
        """The hand flow of a hand whose trumps are known when it starts (the
        referee's `new_hand`): `shown` are the cards that fixed them, public
        from the start. Without `state` the hand is played on its own:
        `leader` leads trick 1 and the hand settles nothing. A game with its
        own flow returns it (the class `hand_flow` returns), refusing what
        its hands cannot start from."""
        return HandFlow(self, state, hands, trump, shown=shown, leader=leader)

    def deal(self, rng: random.Random, dealer: int) -> DealtHands:
        """Shuffle with `rng` and deal a hand."""
        raise NotImplementedError

    def first_leader(self, state: MatchState) -> int:
        """Who leads trick 1 in a hand with this match state: by default the
        player after the dealer."""
        return (state.dealer + 1) % self.players

    # ----- the match --------------------------------------------------------------

    def new_match(self, rng: random.Random) -> MatchState:
        raise NotImplementedError

    def state_from_json(self, obj: Any) -> MatchState:
        raise NotImplementedError

    def settle(self, state: MatchState, points: Sequence[int],
               tricks: Sequence[int] | None = None, **extra: Any) -> MatchState:
        """The match state after a hand with these card points per team."""
        raise NotImplementedError

    def settle_deal(self, state: MatchState, deal: Deal) -> MatchState:
        """Settle a finished deal."""
        return self.settle(state, deal.team_points(), deal.team_tricks())


def check_seat(game: Game, seat: object, what: str = "seat") -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
        raise BadRequest(f"{what} must be a seat number 0..{game.players - 1}")
    return seat


def check_points(game: Game, points: object, teams: int = 2) -> list[int]:
    if (not isinstance(points, list | tuple) or len(points) != teams
            or not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0
                       for p in points)):
        raise BadRequest(f"points must be a list of {teams} non-negative integers")
    if sum(points) > game.total_points:
        raise BadRequest(f"the points of {game.id} add up to at most {game.total_points}, "
                         f"not {sum(points)}")
    return list(points)
