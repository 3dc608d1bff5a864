"""The 20-card Romanian Filcău (RULES.md §1 and §2.C; source 004).

Four players in fixed partnerships (seats 0+2 against 1+3), clockwise, the
20-card German pack (U, O, K, T, A of each suit). The four Overs are the top
trumps (Oa > Ol > Oh > Ob), then A, T, K, U of the trump suit; plain suits
rank A > T > K > U. An Ace or a Ten is one point, 8 in all; 5 tricks.

Trumps are chosen by binding (five cards each, after a knock) or by fris (after
a cut: the first to put down an Over on three cards names trumps); the steps
are in `engine.games.filcau20.flow`, the binding rules in
`engine.games.filcau20.binding`, the play (fris trick, rule 8) in
`engine.games.filcau20.deal`.

After a hand a team with 6 points or more climbs the ladder servant <-> equal
<-> boss one step and the other team goes one step down; the boss team then
scores one match point. The first team to 11 wins. While there is a boss team
only the servants deal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Card
from engine.deal import Deal
from engine.errors import BadRequest
from engine.game import DealtHands, Game, MatchState, check_seat
from engine.games.filcau20.binding import OVERS
from engine.games.filcau20.messages import MESSAGES, Refusal
from engine.masters import parse_status
from engine.match import Standing
from engine.options import OptionSpec
from engine.packs import GERMAN_20
from engine.ranking import Ranking

RANKS = ("A", "T", "K", "U")
FILCAU20_RANKING = Ranking(GERMAN_20, OVERS, RANKS, RANKS, (("A", 1), ("T", 1)))
TOTAL = 8
TARGET = 11


@dataclass(frozen=True)
class Filcau20State(MatchState):
    """`boss` is the boss (șef) team, None when both are equal (egal); the
    other team is then the servants (slugă). `score` is match points."""

    boss: int | None
    score: tuple[int, int]
    dealer: int

    @property
    def winner(self) -> int | None:
        for team in (0, 1):
            if self.score[team] >= TARGET:
                return team
        return None

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def servants(self) -> int | None:
        return None if self.boss is None else 1 - self.boss

    def standing(self) -> Standing:
        return Standing(True, self.boss, self.score)

    def to_json(self) -> dict[str, Any]:
        return {"status": "even" if self.boss is None else f"masters:{self.boss}",
                "score": list(self.score), "dealer": self.dealer, "winner": self.winner}


class Filcau20Rules(Game):

    messages = MESSAGES
    refusal = Refusal
    id = "filcau20"
    title = "Filcău (20 cards)"
    players = 4
    hand_size = 5
    tricks_per_hand = 5
    legal_family = "FT"
    option_specs = (
        OptionSpec("must_trump", True, (True, False),
                   doc="a player who cannot follow must play a trump (FC-A1); false: "
                       "follow suit only"),
        OptionSpec("first_lead_after_binding", "left_of_dealer", ("left_of_dealer", "binder"),
                   doc="who leads the first trick after a binding (FC-A6)"),
        OptionSpec("tie_break", "first_caller", ("first_caller", "higher_over", "redeal"),
                   doc="two equal bindings: the earlier caller wins, the one holding the "
                       "higher Over wins, or the same dealer deals again (FC-A7)"),
        OptionSpec("closed_hand", "declare", ("declare", "redeal"),
                   doc="five trumps (închis): only a declaration, or the same dealer "
                       "deals again (FC-A9)"),
        OptionSpec("rule7", "strongest", ("strongest", "highest_card_suit"),
                   doc="rule 7: a binder calls his strongest binding, or (\"the suit of "
                       "his highest trump\") the binding of the suit he may bind whose own "
                       "highest card is the highest, Overs not counting (FC-A11)"),
        OptionSpec("binding_compulsory", False, (False, True),
                   doc="a player who can bind must bind (FC-A11, FC-A12)"),
        OptionSpec("no_binding", "redeal_same_dealer",
                   ("redeal_same_dealer", "next_dealer", "dealer_names"),
                   doc="nobody binds: the same dealer deals again, the next dealer deals, "
                       "or the dealer names trumps (FC-A13)"),
        OptionSpec("fris_priority", "seat_order", ("seat_order", "highest_over"),
                   doc="fris: the first player in turn to put down an Over wins, or the "
                       "highest Over put down wins (FC-A15)"),
        OptionSpec("fris_turned_cards_bind", "d1", ("d1", "d2"),
                   doc="on the fris, a player without a small card has his other two "
                       "cards turned up: d1, he must play a small card from them if there "
                       "is one; d2, turned cards never oblige (FC-A19)"),
        OptionSpec("status_ladder", "stepwise", ("stepwise", "direct"),
                   doc="6 points or more: one step up the ladder servant <-> equal <-> "
                       "boss, or straight to boss (FC-A22)"),
        OptionSpec("eight_nil_even", False, (False, True),
                   doc="an 8–0 hand makes both teams equal (FC-A23)"),
        OptionSpec("match_points", "after_status_update",
                   ("after_status_update", "status_at_start"),
                   doc="the match point goes to the boss team after the hand's status "
                       "change, or to the team that was boss when the hand began (FC-A24)"),
        OptionSpec("seat_direction", "default", ("default", "reverse"),
                   doc="play goes clockwise (the source), or the other way"),
    )

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        super().__init__(options)
        # Instance attribute: the legal-play family depends on an option.
        self.legal_family = "FT" if self.options["must_trump"] else "F"

    def make_ranking(self) -> Ranking:
        return FILCAU20_RANKING

    def physical_order(self) -> tuple[int, ...]:
        """The seats clockwise round the table from seat 0: seats are numbered
        in the order of play, which is clockwise unless `seat_direction` is
        `reverse`."""
        return (0, 1, 2, 3) if self.options["seat_direction"] == "default" else (0, 3, 2, 1)

    # ----- the hand ------------------------------------------------------------------

    def cutter(self, dealer: int) -> int:
        """The player on the dealer's right cuts or knocks: the one before him
        in the order of play."""
        return (dealer - 1) % self.players

    def deal(self, rng: random.Random, dealer: int, cut: bool = False) -> DealtHands:
        """Shuffle and deal from the dealer's left, the dealer last: five each at
        once after a knock; three each, then two each, after a cut. Each hand
        lists its cards in the order received (after a cut: its first three)."""
        cards = list(self.pack.cards)
        rng.shuffle(cards)
        order = [(dealer + 1 + k) % self.players for k in range(self.players)]
        hands: list[list[Card]] = [[] for _ in range(self.players)]
        packets = (3, 2) if cut else (5,)
        pos = 0
        for size in packets:
            for seat in order:
                hands[seat] += cards[pos:pos + size]
                pos += size
        return DealtHands(dealer, tuple(tuple(h) for h in hands), None, (), order[0],
                          {"cut": cut})

    def first_leader(self, state: MatchState) -> int:
        return (state.dealer + 1) % self.players

    # ----- the match -----------------------------------------------------------------

    def new_match(self, rng: random.Random) -> Filcau20State:
        return Filcau20State(None, (0, 0), rng.randrange(self.players))

    def state_from_json(self, obj: Any) -> Filcau20State:
        if not isinstance(obj, dict):
            raise BadRequest("state must be an object")
        unknown = set(obj) - {"status", "score", "dealer", "winner"}
        if unknown:
            raise BadRequest(f"unknown state fields: {', '.join(sorted(unknown))}")
        boss = parse_status(obj.get("status", "even"))
        score = obj.get("score", [0, 0])
        if (not isinstance(score, list) or len(score) != 2
                or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0
                           for s in score)):
            raise BadRequest("state.score must be two non-negative integers")
        dealer = check_seat(self, obj.get("dealer"), "state.dealer")
        if boss is not None and self.team_of(dealer) == boss:
            raise BadRequest("only the servants deal: the dealer must not be on the boss team")
        return Filcau20State(boss, (score[0], score[1]), dealer)

    def next_dealer(self, dealer: int, boss: int | None) -> int:
        """Both teams equal: the next player. Otherwise the first player after the
        dealer who is a servant (FC-A25), so the two servants take turns."""
        seat = (dealer + 1) % self.players
        if boss is not None:
            while self.team_of(seat) == boss:
                seat = (seat + 1) % self.players
        return seat

    def status_after(self, boss: int | None, points: Sequence[int]) -> int | None:
        """The boss team after a hand (None: both equal)."""
        if self.options["eight_nil_even"] and TOTAL in points:
            return None
        takers = [t for t in (0, 1) if points[t] >= 6]
        if not takers:
            return boss
        taker = takers[0]
        if self.options["status_ladder"] == "direct" or boss is None:
            return taker
        if boss == taker:
            return boss
        return None  # the servants climb to equal, the boss team steps down

    def settle(self, state: MatchState, points: Sequence[int] | None,
               tricks: Sequence[int] | None = None, **extra: Any) -> Filcau20State:
        """The match after a hand. `redeal=True` settles a hand nobody bound: the
        option `no_binding` decides who deals it again."""
        if not isinstance(state, Filcau20State):
            raise BadRequest("not a Filcău match state")
        if state.over:
            raise BadRequest("the match is over")
        if extra.get("redeal"):
            if self.options["no_binding"] == "next_dealer":
                return Filcau20State(state.boss, state.score,
                                     self.next_dealer(state.dealer, state.boss))
            return state
        if (not isinstance(points, list | tuple) or len(points) != 2
                or not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0
                           for p in points)):
            raise BadRequest("points must be a list of 2 non-negative integers")
        if sum(points) != TOTAL:
            raise BadRequest(f"the points of a hand add up to {TOTAL}, not {sum(points)}")
        boss = self.status_after(state.boss, points)
        scorer = boss if self.options["match_points"] == "after_status_update" else state.boss
        score = list(state.score)
        if scorer is not None:
            score[scorer] += 1
        return Filcau20State(boss, (score[0], score[1]), self.next_dealer(state.dealer, boss))

    def settle_deal(self, state: MatchState, deal: Deal) -> Filcau20State:
        return self.settle(state, deal.team_points(), deal.team_tricks())
