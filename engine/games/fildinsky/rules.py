"""Fildinsky (Polish Bézique) for two players (RULES.md §2.D).

The 64-card double French pack (7 to Ace, every card twice), 8 cards each,
the 17th card turned face up for trumps and put under the stock. Ranks A, 10,
K, Q, J, 9, 8, 7 in every suit. While the stock lasts any card may be played
and after each trick the winner draws first; in the last eight tricks a player
must follow, beat the card led if he can, else trump (the BE family). Of two
identical cards the first played wins. Points come as they are won: 10 for
each Ace and Ten in a trick won (brisques), melds made from won cards
(`engine.games.fildinsky.melds`), 10 for the deece (a Seven of trumps won), 10
for the last trick of the stock. The game is 2000 points over several hands.

The hand itself is `engine.games.fildinsky.deal.FildinskyDeal`; the table's
view of it `engine.games.fildinsky.flow.FildinskyFlow`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.cards import Card
from engine.errors import BadRequest, IllegalPlay
from engine.game import DealtHands, Game, MatchState, check_seat
from engine.games.fildinsky.deal import FildinskyDeal
from engine.games.fildinsky.messages import MESSAGES, Bad, Refusal
from engine.match import Standing
from engine.options import OptionSpec
from engine.packs import FRENCH_64_DOUBLE
from engine.ranking import Ranking

RANKS = ("A", "T", "K", "Q", "J", "9", "8", "7")
BRISQUES = (("A", 10), ("T", 10))
FILDINSKY_RANKING = Ranking(FRENCH_64_DOUBLE, (), RANKS, RANKS, BRISQUES)

#: The deal's batches (FD-A1): cards given to the non-dealer, then the dealer, per round.
DEAL_PATTERNS = {"3-2-3": (3, 2, 3), "2-3-3": (2, 3, 3), "3-3-2": (3, 3, 2)}
FREE = "ANY"



@dataclass(frozen=True)
class FildinskyState(MatchState):
    """The match: the next `dealer` and each player's `score` so far."""

    dealer: int
    score: tuple[int, int] = (0, 0)
    target: int = 2000

    @property
    def winner(self) -> int | None:
        """The player with the higher total once a total has reached the target
        (equal totals at or above it: play on)."""
        a, b = self.score
        if max(a, b) < self.target or a == b:
            return None
        return 0 if a > b else 1

    @property
    def over(self) -> bool:
        return self.winner is not None

    def standing(self) -> Standing:
        return Standing(score=self.score)

    def to_json(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "score": list(self.score), "winner": self.winner}


class FildinskyRules(Game):

    messages = MESSAGES
    refusal = Refusal
    id = "fildinsky"
    title = "Fildinsky (Polish Bézique)"
    players = 2
    hand_size = 8
    tricks_per_hand = 32
    legal_family = "BE"
    deal_class = FildinskyDeal
    option_specs = (
        OptionSpec("meld_needs_current_trick_card", True, (True, False),
                   doc="every meld must contain a card of the trick just won (FD-A7)"),
        OptionSpec("last_trick_bonus", 24, (24, 32),
                   doc="the trick whose winner scores 10: the last of the stock (24) "
                       "or the last of the hand (32) (FD-A10)"),
        OptionSpec("deece_trigger", "trick_contains", ("trick_contains", "played_by_winner"),
                   doc="a Seven of trumps scores for the winner of any trick holding it, "
                       "or only when the winner played it himself (FD-A4)"),
        OptionSpec("deece_exchange_to", "won_pile", ("won_pile", "hand"),
                   doc="where the turned-up card goes in the deece exchange (FD-A5)"),
        OptionSpec("turned_seven_scores", False, (False, True),
                   doc="a Seven turned up for trumps scores 10 for the dealer (FD-A6)"),
        OptionSpec("tie_rule_phase1", True, (True, False),
                   doc="of two identical cards the first played wins in the stock phase "
                       "too; false: the second wins there (FD-A3)"),
        OptionSpec("game_end", "immediate", ("immediate", "end_of_hand"),
                   doc="the game ends the moment a total reaches the target, or at the end "
                       "of that hand (FD-A13)"),
        OptionSpec("bezique_pair", "fixed", ("fixed", "classic_switch"),
                   doc="bézique is always Q♠ + J♦, or Q♣ + J♥ when ♠ or ♦ are trumps "
                       "(FD-A16)"),
        OptionSpec("deal_pattern", "3-2-3", tuple(DEAL_PATTERNS),
                   doc="the batches of the deal, non-dealer first (FD-A1)"),
        OptionSpec("first_dealer", "random", ("random", 0, 1),
                   doc="who deals the first hand; then the deal alternates (FD-A2)"),
        OptionSpec("revoke_penalty", "none", ("none", "forfeit_last_eight"),
                   doc="with hands unknown, a revoke proven in the last eight tricks "
                       "forfeits them: their points go to the other player (FD-A14)"),
        OptionSpec("target", 2000, minimum=100, maximum=100000,
                   doc="the points that win the game"),
    )

    def make_ranking(self) -> Ranking:
        return FILDINSKY_RANKING

    # ----- stateless questions ------------------------------------------------------

    def _stock_empty(self, context: Mapping[str, Any]) -> bool:
        unknown = set(context) - {"stock_empty"}
        if unknown:
            raise BadRequest(f"Fildinsky does not know the field(s) {', '.join(sorted(unknown))}")
        value = context.get("stock_empty", False)
        if not isinstance(value, bool):
            raise BadRequest('"stock_empty" must be true or false')
        return value

    def legal_family_for(self, **context: Any) -> str:
        """BE once the stock is empty; before that any card may be played."""
        return "BE" if self._stock_empty(context) else FREE

    def legal_subset(self, trump: str | None, trick: Sequence[Card], hand: Sequence[Card],
                     **context: Any) -> list[Card]:
        if self.legal_family_for(**context) == FREE:
            self._position(trump, trick, hand)
            return list(hand)
        return super().legal_subset(trump, trick, hand, **context)

    def verdict(self, trump: str | None, trick: Sequence[Card], hand: Sequence[Card],
                card: Card, seat: int | None = None, **context: Any) -> IllegalPlay | None:
        if self.legal_family_for(**context) == FREE:
            self._position(trump, trick, hand)
            if card not in hand:
                seat = len(trick) if seat is None else seat
                return Refusal("not_in_hand", seat=seat, family=self.pack.family,
                                   card=card.code)
            return None
        return super().verdict(trump, trick, hand, card, seat, **context)

    def trick_winner(self, cards: Sequence[Card], trump: str | None,
                     **context: Any) -> int:
        """Index of the winning card; of two identical cards the first played
        wins (in the stock phase only with `tie_rule_phase1`)."""
        stock_empty = self._stock_empty(context)
        idx = super().trick_winner(cards, trump)
        if (len(cards) == 2 and cards[0] == cards[1] and not stock_empty
                and not self.options["tie_rule_phase1"]):
            return 1
        return idx

    def trump_from_shown(self, shown: Sequence[Card]) -> tuple[str, int]:
        """The turned-up card's suit is trumps."""
        if not shown:
            raise BadRequest("show the turned-up card")
        return shown[0].suit, 1

    # ----- the deal -------------------------------------------------------------------

    def deal(self, rng: random.Random, dealer: int) -> DealtHands:
        """Shuffle and deal in batches, non-dealer first; turn the next card up
        for trumps; the rest is the stock, top first (`extra["stock"]`)."""
        check_seat(self, dealer, "dealer")
        cards = list(self.pack.cards)
        rng.shuffle(cards)
        hands: list[list[Card]] = [[], []]
        pos = 0
        for batch in DEAL_PATTERNS[self.options["deal_pattern"]]:
            for seat in (1 - dealer, dealer):
                hands[seat].extend(cards[pos:pos + batch])
                pos += batch
        turn_up = cards[pos]
        stock = tuple(cards[pos + 1:])
        return DealtHands(dealer, (tuple(hands[0]), tuple(hands[1])), turn_up.suit,
                          (turn_up,), 1 - dealer, {"turn_up": turn_up, "stock": stock})

    def new_deal(self, trump: str | None, leader: int,
                 hands: Sequence[Iterable[Card]] | None = None,
                 known: Mapping[int, Iterable[Card]] | None = None, *,
                 turn_up: Card | None = None, stock: Sequence[Card] | None = None,
                 start_score: Sequence[int] = (0, 0)) -> FildinskyDeal:
        return FildinskyDeal(self, trump, leader, hands, known=known, turn_up=turn_up,
                             stock=stock, start_score=start_score)

    def new_hand(self, state: MatchState, turn_up: Card,
                 hands: Sequence[Iterable[Card]] | None = None,
                 stock: Sequence[Card] | None = None,
                 known: Mapping[int, Iterable[Card]] | None = None) -> FildinskyDeal:
        """A hand of this match: the non-dealer leads, the match score counts
        towards the target."""
        st = self._state(state)
        if st.over:
            raise Bad("the match is over", reason="match_over")
        return self.new_deal(turn_up.suit, self.first_leader(st), hands, known,
                             turn_up=turn_up, stock=stock, start_score=st.score)

    def start_hand(self, state: MatchState, dealt: DealtHands, *, read_stock: bool = True
                   ) -> FildinskyDeal:
        """The hand just dealt by `deal`, with the hands (and the stock) known."""
        stock = dealt.extra["stock"] if read_stock else None
        return self.new_hand(state, dealt.extra["turn_up"], dealt.hands, stock)

    # ----- the match ------------------------------------------------------------------

    def team_of(self, seat: int) -> int:
        return seat

    def _state(self, state: MatchState) -> FildinskyState:
        if not isinstance(state, FildinskyState):
            raise BadRequest("not a Fildinsky match state")
        return state

    def new_match(self, rng: random.Random) -> FildinskyState:
        first = self.options["first_dealer"]
        dealer = rng.randrange(2) if first == "random" else int(first)
        return FildinskyState(dealer, (0, 0), self.options["target"])

    def state_from_json(self, obj: Any) -> FildinskyState:
        if not isinstance(obj, dict):
            raise BadRequest("state must be an object")
        unknown = set(obj) - {"dealer", "score", "winner"}
        if unknown:
            raise BadRequest(f"unknown state fields: {', '.join(sorted(unknown))}")
        dealer = check_seat(self, obj.get("dealer"), "state.dealer")
        score = obj.get("score", [0, 0])
        return FildinskyState(dealer, _points(score, "state.score"), self.options["target"])

    def settle(self, state: MatchState, points: Sequence[int],
               tricks: Sequence[int] | None = None, **extra: Any) -> FildinskyState:
        """Add the hand's points to the totals; the other player deals next."""
        st = self._state(state)
        if st.over:
            raise Bad("the match is over", reason="match_over")
        p = _points(list(points), "points")
        return replace(st, dealer=1 - st.dealer,
                       score=(st.score[0] + p[0], st.score[1] + p[1]))


def _points(value: object, name: str) -> tuple[int, int]:
    if (not isinstance(value, list | tuple) or len(value) != 2
            or not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0
                       for p in value)):
        raise BadRequest(f"{name} must be a list of 2 non-negative integers")
    return int(value[0]), int(value[1])
