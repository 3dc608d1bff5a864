"""Sueca, the Portuguese and Brazilian game (RULES.md §2.E).

Four players in fixed partnerships (seats 0+2 against 1+3), the 40-card French
pack ranked A 7 K J Q 6 5 4 3 2 in every suit, card points A 11, 7 10, K 4,
J 3, Q 2 (120 in all). The dealer turns up the last card of the pack: its suit
is trumps and the card stays with him. Follow suit if you can, otherwise play
anything (family F). After a hand: 61–90 scores one game point, 91–120 two,
60–60 carries a point to the winner of the next hand, and the flag (a team
takes every trick) wins the match at once. The match is to 4.

The hand itself (the redeal claim, the denounce of a revoke) lives in
`engine.games.sueca.deal` and `engine.games.sueca.flow`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.cards import Card
from engine.deal import Deal
from engine.errors import BadRequest, IllegalPlay
from engine.game import DealtHands, Game, MatchState, check_seat
from engine.games.sueca.deal import Penalty, SuecaDeal
from engine.games.sueca.messages import MESSAGES, Refusal
from engine.match import Standing
from engine.options import OptionSpec
from engine.packs import FRENCH_40
from engine.ranking import Ranking

SUECA_RANKS = ("A", "7", "K", "J", "Q", "6", "5", "4", "3", "2")
SUECA_POINTS = (("A", 11), ("7", 10), ("K", 4), ("J", 3), ("Q", 2))
SUECA_RANKING = Ranking(FRENCH_40, (), SUECA_RANKS, SUECA_RANKS, SUECA_POINTS)

TOTAL = 120
TRICKS = 10

REVOKE_MODES = ("strict", "denounce_match_loss", "denounce_hand_120")
REDEAL_RULES = ("at_most_10", "off", "brazil")


@dataclass(frozen=True)
class SuecaState(MatchState):
    """Game points per team, the points carried by 60–60 ties, the dealer and,
    once the match is over, the winning team."""

    score: tuple[int, int]
    carry: int
    dealer: int
    won_by: int | None = None

    @property
    def winner(self) -> int | None:
        return self.won_by

    @property
    def over(self) -> bool:
        return self.won_by is not None

    def standing(self) -> Standing:
        return Standing(score=self.score)

    def to_json(self) -> dict[str, Any]:
        return {"score": list(self.score), "carry": self.carry, "dealer": self.dealer,
                "winner": self.won_by}


def hand_points(cards: Iterable[Card]) -> int:
    """The card points of a hand of Sueca cards."""
    return sum(SUECA_RANKING.card_points(c) for c in cards)


class SuecaRules(Game):

    messages = MESSAGES
    refusal = Refusal
    id = "sueca"
    title = "Sueca"
    players = 4
    hand_size = 10
    tricks_per_hand = TRICKS
    legal_family = "F"
    deal_class = SuecaDeal
    option_specs = (
        OptionSpec("direction", "clockwise", ("clockwise", "anticlockwise"),
                   doc="which way play goes round the table: clockwise (the source; the "
                       "dealer's left leads) or anticlockwise (Portugal; the dealer's right "
                       "leads)"),
        OptionSpec("redeal_threshold", "at_most_10", REDEAL_RULES,
                   doc="who may show a weak hand and ask for a new deal before the first "
                       "lead: the first player with 10 points or less; nobody; or (Brazil) "
                       "the first player under 10 and the others under 5"),
        OptionSpec("flag_requires_all_tricks", True, (True, False),
                   doc="the flag (bandeira) is all ten tricks; false: all 120 points"),
        OptionSpec("flag_effect", "match", ("match", "four_points"),
                   doc="the flag wins the match at once, or scores 4 game points"),
        OptionSpec("tie", "carry_accumulate", ("carry_accumulate", "annul"),
                   doc="60–60: a point carries to the winner of the next hand (and "
                       "accumulates over several ties), or the hand is simply annulled"),
        OptionSpec("target", 4, minimum=1, maximum=100,
                   doc="game points that win the match"),
        OptionSpec("revoke_mode", "strict", REVOKE_MODES,
                   doc="strict: a card that does not follow suit when it could is refused. "
                       "denounce_*: it is accepted; an opponent may denounce it, and a "
                       "proven revoke loses the match, or the hand 120–0"),
    )

    def make_ranking(self) -> Ranking:
        return SUECA_RANKING

    # ----- options as facts ----------------------------------------------------------

    @property
    def direction(self) -> str:
        return str(self.options["direction"])

    def physical_order(self) -> tuple[int, ...]:
        """The seats as they sit clockwise round the table, starting at seat 0.

        Seats are numbered in the order of play, so clockwise play puts seat 1
        on seat 0's left; anticlockwise play (Portugal) puts it on his right."""
        if self.direction == "clockwise":
            return (0, 1, 2, 3)
        return (0, 3, 2, 1)

    @property
    def denounce(self) -> bool:
        """Are revokes accepted at the table and punished only when denounced?"""
        return bool(self.options["revoke_mode"] != "strict")

    def dealer_before(self, leader: int) -> int:
        """The dealer turns up his last card and the next seat leads: the
        dealer is the seat before the leader."""
        return (leader - 1) % self.players

    def redeal_limit(self, seat: int, leader: int) -> int | None:
        """The highest hand points with which `seat` may claim a redeal (None: may not)."""
        rule = self.options["redeal_threshold"]
        if rule == "off":
            return None
        if rule == "at_most_10":
            return 10 if seat == leader else None
        return 9 if seat == leader else 4

    def redeal_claim_limit(self, seat: int, leader: int, played: int) -> int:
        """May `seat` claim a redeal now (`played` cards of the hand played)?
        The limit of its hand points, or a refusal: `redeal_too_late` after
        the first card, `redeal_not_allowed` when the option gives it none."""
        family = self.pack.family
        if played:
            raise Refusal("redeal_too_late", seat=seat, family=family)
        limit = self.redeal_limit(seat, leader)
        if limit is None:
            raise Refusal("redeal_not_allowed", seat=seat, family=family)
        return limit

    def redeal_verdict(self, seat: int, cards: Iterable[Card], limit: int
                       ) -> tuple[int, IllegalPlay | None]:
        """The hand points of a claim with these cards, and why it is refused
        (`redeal_refused`: more than `limit`), None when it is granted."""
        points = hand_points(cards)
        if points > limit:
            return points, Refusal("redeal_refused", seat=seat, points=points, limit=limit,
                                   family=self.pack.family)
        return points, None

    def redeal_points(self, seat: int, cards: Iterable[Card], limit: int) -> int:
        """The hand points of a granted claim; raises its refusal otherwise."""
        points, refused = self.redeal_verdict(seat, cards, limit)
        if refused is not None:
            raise refused
        return points

    # ----- the hand ------------------------------------------------------------------

    def trump_from_shown(self, shown: Sequence[Card]) -> tuple[str, int]:
        """The turned-up card's suit is trumps."""
        if not shown:
            raise BadRequest("show the turned-up card")
        return shown[0].suit, 1

    def deal(self, rng: random.Random, dealer: int) -> DealtHands:
        """Shuffle, turn up the last card, deal ten at a time starting with the
        player after the dealer; the dealer's packet is the last ten cards, so
        the turned card stays with him."""
        cards = list(self.pack.cards)
        rng.shuffle(cards)
        turned = cards[-1]
        hands: list[tuple[Card, ...]] = [()] * self.players
        for k in range(self.players):
            seat = (dealer + 1 + k) % self.players
            hands[seat] = tuple(cards[k * 10:(k + 1) * 10])
        return DealtHands(dealer, tuple(hands), turned.suit, (turned,),
                          (dealer + 1) % self.players, {"direction": self.direction})

    def new_deal(self, trump: str | None, leader: int,
                 hands: Sequence[Iterable[Card]] | None = None,
                 known: Mapping[int, Iterable[Card]] | None = None) -> SuecaDeal:
        return SuecaDeal(self, trump, leader, hands, known=known)

    # ----- the match -----------------------------------------------------------------

    def new_match(self, rng: random.Random) -> SuecaState:
        return SuecaState((0, 0), 0, rng.randrange(self.players))

    def state_from_json(self, obj: Any) -> SuecaState:
        if not isinstance(obj, dict):
            raise BadRequest("state must be an object")
        unknown = set(obj) - {"score", "carry", "dealer", "winner"}
        if unknown:
            raise BadRequest(f"unknown state fields: {', '.join(sorted(unknown))}")
        score = obj.get("score", [0, 0])
        if (not isinstance(score, list) or len(score) != 2
                or not all(_natural(s) for s in score)):
            raise BadRequest("state.score must be two non-negative integers")
        carry = obj.get("carry", 0)
        if not _natural(carry):
            raise BadRequest("state.carry must be a non-negative integer")
        dealer = check_seat(self, obj.get("dealer"), "state.dealer")
        winner = obj.get("winner")
        if winner is not None and (isinstance(winner, bool) or winner not in (0, 1)):
            raise BadRequest("state.winner must be 0, 1 or null")
        return SuecaState((score[0], score[1]), carry, dealer, winner)

    def next_dealer(self, dealer: int) -> int:
        """The next player in the order of play deals next (SU-A2)."""
        return (dealer + 1) % self.players

    def is_flag(self, points: Sequence[int], tricks: Sequence[int] | None, team: int) -> bool:
        if self.options["flag_requires_all_tricks"]:
            return tricks is not None and tricks[team] == TRICKS
        return points[team] == TOTAL

    def settle(self, state: MatchState, points: Sequence[int] | None,
               tricks: Sequence[int] | None = None, **extra: Any) -> SuecaState:
        """The match after a hand.

        `points` and `tricks` are per team. Extra keywords: `redeal=True` (the
        hand was redealt: nothing changes, the same dealer deals again) and
        `penalty=Penalty(...)` (a denounced revoke or a false denounce)."""
        if not isinstance(state, SuecaState):
            raise BadRequest("not a Sueca match state")
        if state.over:
            raise BadRequest("the match is over")
        if extra.get("redeal"):
            return state
        penalty: Penalty | None = extra.get("penalty")
        if penalty is not None:
            return self._settle_penalty(state, penalty)
        pts = self._check_points(points)
        trk = self._check_tricks(tricks, pts)
        for team in (0, 1):
            if pts[team] == TOTAL and trk is None and self.options["flag_requires_all_tricks"]:
                raise BadRequest("120–0: give \"tricks\" too, to tell a flag from 120 points")
            if self.is_flag(pts, trk, team):
                return self._flag(state, team)
        if pts[0] == pts[1]:
            carry = state.carry + 1 if self.options["tie"] == "carry_accumulate" else state.carry
            return replace(state, carry=carry, dealer=self.next_dealer(state.dealer))
        return self._score(state, 0 if pts[0] > pts[1] else 1, max(pts))

    def game_points(self, points: int) -> int:
        """61–90 is one game point, 91–120 two."""
        return 2 if points > 90 else 1

    def _score(self, state: SuecaState, team: int, points: int) -> SuecaState:
        score = list(state.score)
        score[team] += self.game_points(points) + state.carry
        winner = team if score[team] >= self.options["target"] else None
        return SuecaState((score[0], score[1]), 0, self.next_dealer(state.dealer), winner)

    def _flag(self, state: SuecaState, team: int) -> SuecaState:
        score = list(state.score)
        target = self.options["target"]
        if self.options["flag_effect"] == "match":
            score[team] = max(score[team], target)
        else:
            score[team] += 4 + state.carry
        winner = team if score[team] >= target else None
        return SuecaState((score[0], score[1]), 0, self.next_dealer(state.dealer), winner)

    def _settle_penalty(self, state: SuecaState, penalty: Penalty) -> SuecaState:
        """The team penalised loses: the match (revoke_mode denounce_match_loss) or
        the hand, scored 120–0 against it (denounce_hand_120; two game points to the
        other team plus any carry, never a flag)."""
        mode = self.options["revoke_mode"]
        if mode == "strict":
            raise BadRequest("revoke_mode strict has no penalties: illegal cards are refused")
        other = 1 - penalty.team
        if mode == "denounce_match_loss":
            score = list(state.score)
            score[other] = max(score[other], self.options["target"])
            return SuecaState((score[0], score[1]), 0, self.next_dealer(state.dealer), other)
        return self._score(state, other, TOTAL)

    def _check_points(self, points: Sequence[int] | None) -> list[int]:
        if (not isinstance(points, list | tuple) or len(points) != 2
                or not all(_natural(p) for p in points)):
            raise BadRequest("points must be a list of 2 non-negative integers")
        if sum(points) != TOTAL:
            raise BadRequest(f"the points of a Sueca hand add up to {TOTAL}, not {sum(points)}")
        return list(points)

    def _check_tricks(self, tricks: Sequence[int] | None, points: list[int]) -> list[int] | None:
        if tricks is None:
            return None
        if (not isinstance(tricks, list | tuple) or len(tricks) != 2
                or not all(_natural(t) for t in tricks)):
            raise BadRequest("tricks must be a list of 2 non-negative integers")
        if sum(tricks) != TRICKS:
            raise BadRequest(f"a Sueca hand has {TRICKS} tricks, not {sum(tricks)}")
        for team in (0, 1):
            if tricks[team] == 0 and points[team] > 0:
                raise BadRequest(f"team {team} has points but no trick")
        return list(tricks)

    def settle_deal(self, state: MatchState, deal: Deal) -> SuecaState:
        penalty = getattr(deal, "penalty", None)
        if penalty is not None:
            return self.settle(state, None, penalty=penalty)
        return self.settle(state, deal.team_points(), deal.team_tricks())


def _natural(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
