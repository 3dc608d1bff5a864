"""What Filkó for four (`filko`), with Hats (`filko_hats`) and for six (`filko6`)
share: the options, trumps from the cut, the deal in packets (RULES.md §2.B.1,
§2.B.2, §2.B.4 and §2.B.6).

Fixed partnerships in alternate seats (team = seat mod 2), the four Overs (and
under `szeged` the top Sevens) as permanent trumps, trumps from the bottom of
the cut, the deal in packets (4+4, or 3+2 for six) starting with the player
after the dealer, so the cards looked at in the cut go to the dealer.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from engine.cards import Card
from engine.errors import BadRequest
from engine.game import DealtHands, Game, MatchState, check_points, check_seat
from engine.games.filko.common import (
    check_int,
    cut_recipients,
    filko_ranking,
    shuffle_cut_deal,
    trump_from_cut,
)
from engine.games.filko.messages import MESSAGES, Refusal
from engine.options import OptionSpec
from engine.ranking import Ranking


def opt_top_trumps(values: tuple[str, ...]) -> OptionSpec:
    return OptionSpec("top_trumps", "overs", values,
                      doc="permanent trumps: the four Overs, or (six players) `szeged`: "
                          "Seven of hearts, Seven of acorns, then the Overs")


OVER_ORDER = OptionSpec("over_order", "alhb", ("alhb", "ahbl"),
                        doc="order of the Overs: acorns, leaves, hearts, bells, or acorns, "
                            "hearts, bells, leaves")
CUTTER = OptionSpec("cutter", "left", ("left", "right"),
                    doc="who cuts and shows the cut cards: the dealer's left or right (FK-2)")
CUT_MIN_SIZE = OptionSpec("cut_min_size", 5, minimum=5, maximum=15,
                          doc="the fewest cards a cut may lift or leave (FK-1); only the "
                              "engine's own shuffles use it")
FIRST_LEAD = OptionSpec("first_lead", "right", ("right", "left"),
                        doc="who leads the first trick: the dealer's right (the next "
                            "player) or left (FK-6)")
DEALER_WHILE_EVEN = OptionSpec("dealer_while_even", "next", ("next", "loser"),
                               doc="the next dealer while there are no masters: the next "
                                   "player, or the dealer again if his team took fewer points "
                                   "(FK-3)")
SERVANT_CHOICE = OptionSpec("servant_choice", "masters", ("masters", "auto"),
                            doc="who picks the first Servant: the masters, or the engine "
                                "(the player after the dealer if an opponent, else the "
                                "dealer) (FK-4)")
MATCH_LENGTH = OptionSpec("match_length", 0, minimum=0, maximum=1000,
                          doc="hands in a match; 0 plays until stopped")


class FilkoCutRules(Game):
    """What filko, filko_hats and filko6 share: trumps from the cut, the deal
    in packets, fixed teams in alternate seats."""

    messages = MESSAGES
    refusal = Refusal

    packets: ClassVar[tuple[int, ...]] = (4, 4)
    hats: ClassVar[bool] = False

    def make_ranking(self) -> Ranking:
        return filko_ranking(self.options["top_trumps"], self.options["over_order"],
                             self.players, self.hats)

    # ----- trumps and the deal -----------------------------------------------------

    def trump_from_shown(self, shown: Sequence[Card]) -> tuple[str, int]:
        """Cards looked at in the cut, the bottom one first: the suit of the
        first that is not a permanent trump, and how many were looked at."""
        return trump_from_cut(shown, self.ranking.permanent_trumps)

    def cutter(self, dealer: int) -> int:
        step = -1 if self.options["cutter"] == "left" else 1
        return (dealer + step) % self.players

    def cut_recipients(self, dealer: int) -> list[int]:
        """Who is dealt each card looked at in the cut, in the order looked at."""
        return cut_recipients(self.players, dealer, self.packets)

    def deal(self, rng: random.Random, dealer: int) -> DealtHands:
        """Shuffle, cut, fix trumps from the bottom of the cut and deal."""
        permanent = self.ranking.permanent_trumps
        hands, shown, k = shuffle_cut_deal(self.pack, rng, dealer, self.players, self.packets,
                                           self.options["cut_min_size"], permanent)
        trump, _ = trump_from_cut(shown, permanent)
        recipients = self.cut_recipients(dealer)[:len(shown)]
        return DealtHands(dealer, tuple(tuple(h) for h in hands), trump, tuple(shown),
                          self.leader_after(dealer),
                          {"cut": k, "cutter": self.cutter(dealer), "shown_to": recipients})

    def leader_after(self, dealer: int) -> int:
        step = 1 if self.options["first_lead"] == "right" else -1
        return (dealer + step) % self.players

    def first_leader(self, state: MatchState) -> int:
        return self.leader_after(state.dealer)

    # ----- dealers -------------------------------------------------------------------

    def dealer_without_masters(self, prev: int, points: Sequence[int]) -> int:
        """FK-3: the next player, or (`loser`) the dealer again when his team
        took fewer points than the other."""
        mine = self.team_of(prev)
        if self.options["dealer_while_even"] == "loser" and points[mine] < points[1 - mine]:
            return prev
        return (prev + 1) % self.players

    def servant_choices(self, state: MatchState, points: Sequence[int]) -> tuple[int, ...]:
        """Seats the masters choose the Servant from after a hand with these
        points (empty when there is nothing to choose)."""
        return ()

    def settle_deal(self, state: MatchState, deal: Any, servant: int | None = None
                    ) -> MatchState:
        return self.settle(state, deal.team_points(), deal.team_tricks(), servant=servant)

    def check_hand_points(self, points: Sequence[int]) -> list[int]:
        """Points per team of a whole hand: every card point is won by someone."""
        out = check_points(self, list(points))
        if sum(out) != self.total_points:
            raise BadRequest(f"the points of a hand of {self.id} add up to {self.total_points}, "
                             f"not {sum(out)}")
        return out

    def _check_state(self, state: MatchState, cls: type) -> None:
        if not isinstance(state, cls):
            raise BadRequest(f"not a {self.id} match state")
        if state.over:
            raise BadRequest("the match is over")

    def _match_fields(self, obj: dict[str, Any]) -> tuple[int, int]:
        dealer = check_seat(self, obj.get("dealer"), "state.dealer")
        hands = check_int(obj.get("hands", 0), "state.hands")
        return dealer, hands
