"""Five-player Filkó (`filko5`): RULES.md §2.B.3 (the Old Man), §2.B.4 (top
trumps) and §2.B.5 (Rich and Poor).

30 cards (no 7b, 7l; under Kelebia no 8l, 8a), 6 cards each in two packets of
3, 6 tricks, Ace and Ten one point each (8 in all). No fixed partnerships:
the holder of the Over of acorns (the Old Man) names trumps and calls a card;
its holder is his secret partner, two against three. Team 0 is always the
Old Man's side (the Rich under Rich and Poor), team 1 the others.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from engine.cards import Card
from engine.deal import Deal
from engine.errors import BadRequest, UnknownOption
from engine.game import DealtHands, Game, MatchState, check_points, check_seat
from engine.games.filko.common import OVER_ORDERS, RANKS, filko_ranking, shuffle_deal
from engine.games.filko.five_deal import Filko5Deal
from engine.games.filko.five_match import (
    Filko5State,
    check_teams,
    rich_poor_winner,
    settle_old_man,
    settle_rich_poor,
    state_from_json,
)
from engine.games.filko.match import team_taking
from engine.games.filko.messages import MESSAGES, Refusal
from engine.options import OptionSpec
from engine.ranking import Ranking


class Filko5Rules(Game):
    """See the module docstring."""

    messages = MESSAGES
    refusal = Refusal

    id = "filko5"
    title = "Five-player Filkó"
    players = 5
    hand_size = 6
    tricks_per_hand = 6
    packets = (3, 3)
    deal_class = Filko5Deal
    #: Teams change from hand to hand: never assume `team_of` (see `engine.bots`).
    fixed_teams: ClassVar[bool] = False
    option_specs = (
        OptionSpec("teams", "old_man", ("old_man", "rich_poor"),
                   doc="the Old Man calls a card, or Rich and Poor"),
        OptionSpec("top_trumps", "overs", ("overs", "szeged", "kelebia"),
                   doc="permanent trumps: the Overs; Szeged: 7h above them; Kelebia: "
                       "Oa 7h Ol Oh Ob 7b 7l 7a, no 8l 8a, must beat"),
        OptionSpec("over_order", "alhb", ("alhb", "ahbl"),
                   doc="order of the Overs (Kelebia has its own)"),
        OptionSpec("undertrump_required", True, (True, False),
                   doc="Kelebia: unable to overtrump, must still trump (FK-10)"),
        OptionSpec("old_man_card", "Oa", ("Oa", "top_trump"),
                   doc="the Old Man holds the Over of acorns, or the top permanent trump "
                       "(FK-11)"),
        OptionSpec("old_man_may_call_own_card", False, (False, True),
                   doc="may the Old Man call a card he holds (he then plays alone) (FK-7)"),
        OptionSpec("liberating_team", "servants", ("servants", "old_man_opponents"),
                   doc="whose 0 or 6+ points free the Servant: his own team, or literally "
                       "the Old Man's opponents (FK-8)"),
        OptionSpec("liberation_by_6_makes_masters", False, (False, True),
                   doc="a Servant's team freed by 6+ points becomes master (FK-9)"),
        OptionSpec("rich_poor_form", "overs", ("overs", "called"),
                   doc="Rich and Poor: the holders of the two top Overs, or the Old Man and "
                       "a called card (RP-c)"),
        OptionSpec("teams_fixed_until_liberated", False, (False, True),
                   doc="Rich and Poor: every deal independent, or teams kept until the "
                       "dealing team frees itself (RP-b)"),
        OptionSpec("liberation_threshold", 6, (6, 3),
                   doc="RP-b: points the dealing team needs to free itself when it is "
                       "the Poor (FK-12)"),
        OptionSpec("both_top_overs", "next_over", ("next_over", "alone"),
                   doc="Rich and Poor: one player holds both top Overs: the holder of the "
                       "next Over is his partner, or he plays alone (FK-13)"),
        OptionSpec("rp_leader", "old_man", ("old_man", "right"),
                   doc="Rich and Poor: the first leader is the Old Man, or the dealer's "
                       "right (FK-14)"),
        OptionSpec("rp_dealer", "first_loser", ("first_loser", "next_loser"),
                   doc="Rich and Poor: the next dealer is the first loser from the dealer "
                       "on (the dealer himself if he lost), or after the dealer"),
        OptionSpec("match_length", 0, minimum=0, maximum=1000,
                   doc="hands in a match; 0 plays until stopped"),
    )

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        opts = self.options
        if opts["top_trumps"] == "kelebia" and opts["over_order"] != "alhb":
            raise UnknownOption(self.id, "over_order", opts["over_order"],
                                "alhb (Kelebia keeps its own order of permanent trumps)")
        self.legal_family = "UB" if opts["top_trumps"] == "kelebia" else "FT"
        permanent = self.ranking.permanent_trumps
        self.old_man_card: Card = (Card("O", "a") if opts["old_man_card"] == "Oa"
                                   else permanent[0])
        #: The cards that make the Rich under Rich and Poor by Overs, in order.
        self.rich_cards: tuple[Card, ...] = (OVER_ORDERS[opts["over_order"]]
                                             if opts["old_man_card"] == "Oa" else permanent)

    def make_ranking(self) -> Ranking:
        return filko_ranking(self.options["top_trumps"], self.options["over_order"], 5)

    @property
    def undertrump_required(self) -> bool:
        return bool(self.options["undertrump_required"])

    @property
    def uses_call(self) -> bool:
        """Does the Old Man call a card (rather than the two top Overs making the Rich)?"""
        return bool(self.options["teams"] == "old_man"
                    or self.options["rich_poor_form"] == "called")

    # ----- the call ------------------------------------------------------------------

    def holder_of(self, c: Card, hands: Sequence[Iterable[Card]]) -> int:
        for seat, h in enumerate(hands):
            if c in list(h):
                return seat
        raise BadRequest(f"nobody holds the {c}")

    def callable_cards(self, suit: str, old_man_hand: Sequence[Card] | None) -> list[Card]:
        """Cards the Old Man may call with `suit` as trumps, high to low: of that
        suit, not an Over, not a permanent trump, and (FK-7) not his own."""
        permanent = self.ranking.permanent_trumps
        own = set(old_man_hand or ()) if not self.options["old_man_may_call_own_card"] else set()
        out = []
        for r in RANKS:
            c = Card(r, suit)
            if c in self.pack and c not in permanent and c not in own:
                out.append(c)
        return out

    def partner_chain(self, called: Card | None) -> tuple[Card, ...]:
        """The partner card(s): the called card, or the second top Over and
        (FK-13, `next_over`) the ones after it."""
        if self.uses_call:
            if called is None:
                raise BadRequest("the Old Man has not called a card")
            return (called,)
        if self.options["both_top_overs"] == "alone":
            return self.rich_cards[1:2]
        return self.rich_cards[1:]

    def leader_for(self, old_man: int, dealer: int) -> int:
        if self.options["teams"] == "rich_poor" and self.options["rp_leader"] == "right":
            return (dealer + 1) % self.players
        return old_man

    # ----- teams -----------------------------------------------------------------------

    def team_points(self, deal: Deal) -> list[int]:
        teams = self._public_teams(deal)
        out = [0, 0]
        for seat, p in enumerate(deal.points):
            out[teams[seat]] += p
        return out

    def team_tricks(self, deal: Deal) -> list[int]:
        teams = self._public_teams(deal)
        out = [0, 0]
        for seat, w in enumerate(deal.won):
            out[teams[seat]] += w
        return out

    def _public_teams(self, deal: Deal) -> tuple[int, ...]:
        if not isinstance(deal, Filko5Deal):
            raise BadRequest("not a five-player Filkó hand")
        teams = deal.teams()
        if teams is None:
            raise BadRequest("the teams are secret until the partner card is played")
        return teams

    def team_of(self, seat: int) -> int:
        raise BadRequest("five-player Filkó has no fixed teams: ask the hand")

    # ----- the hand -------------------------------------------------------------------

    def trump_from_shown(self, shown: Sequence[Card]) -> tuple[str, int]:
        raise BadRequest("in five-player Filkó the Old Man names trumps (op call)")

    def new_deal(self, trump: str | None, leader: int,
                 hands: Sequence[Iterable[Card]] | None = None,
                 known: Mapping[int, Iterable[Card]] | None = None, *,
                 old_man: int | None = None, chain: Sequence[Card] = (),
                 teams: Sequence[int] | None = None, forbid_own_call: bool = False
                 ) -> Filko5Deal:
        if old_man is None:
            raise BadRequest("a five-player Filkó hand needs the Old Man's seat")
        return Filko5Deal(self, trump, leader, hands, known=known, old_man=old_man,
                          chain=chain, teams=teams, forbid_own_call=forbid_own_call)

    def deal(self, rng: random.Random, dealer: int) -> DealtHands:
        """Shuffle and deal 3+3 from the dealer's right. Trumps are not known
        yet: the Old Man names them."""
        hands = shuffle_deal(self.pack, rng, dealer, self.players, self.packets)
        old_man = self.holder_of(self.old_man_card, hands)
        return DealtHands(dealer, tuple(tuple(h) for h in hands), None, (),
                          self.leader_for(old_man, dealer), {"old_man": old_man})

    def first_leader(self, state: MatchState) -> int:
        old_man = getattr(state, "old_man", None)
        if old_man is None:
            raise BadRequest("the first leader is known once the Old Man is")
        return self.leader_for(old_man, state.dealer)

    # ----- the match ---------------------------------------------------------------------

    def new_match(self, rng: random.Random) -> Filko5State:
        return Filko5State(None, rng.randrange(self.players),
                           match_length=self.options["match_length"])

    def state_from_json(self, obj: Any) -> Filko5State:
        return state_from_json(obj, self.options, lambda v, what: check_seat(self, v, what))

    def hand_winner(self, points: Sequence[int]) -> int | None:
        if self.options["teams"] == "rich_poor":
            return rich_poor_winner(points)
        return team_taking(points)

    def settle(self, state: MatchState, points: Sequence[int],
               tricks: Sequence[int] | None = None, *, teams: Sequence[int] | None = None,
               old_man: int | None = None, trump: str | None = None, **extra: Any
               ) -> Filko5State:
        """The state after a hand. A fresh hand (no masters) needs its `teams`
        (per seat, 0 = the Old Man's side), `old_man` and `trump`; while there
        are masters they come from the state (and must agree if given)."""
        if not isinstance(state, Filko5State):
            raise BadRequest("not a five-player Filkó match state")
        if state.over:
            raise BadRequest("the match is over")
        if extra.get("servant") is not None:
            raise BadRequest("in five-player Filkó the rules name the Servant: do not give one")
        extra.pop("servant", None)
        if extra:
            raise BadRequest(f"unknown fields: {', '.join(sorted(extra))}")
        points = check_points(self, list(points))
        if sum(points) != self.total_points:
            raise BadRequest(f"the points of a hand add up to {self.total_points}")
        if state.masters is not None:
            assert state.teams is not None and state.old_man is not None
            changed = ("teams" if teams is not None and tuple(teams) != state.teams
                       else "old_man" if old_man is not None and old_man != state.old_man
                       else "trump" if trump is not None and trump != state.trump else None)
            if changed is not None:
                raise BadRequest(f"{changed} stays as in the state while there are masters")
            teams, old_man, trump = state.teams, state.old_man, state.trump
        else:
            if teams is None or old_man is None or trump is None:
                raise BadRequest('a hand without masters needs "teams", "old_man" and "trump"')
            old_man = check_seat(self, old_man, "old_man")
            if trump not in self.pack.suits:
                raise BadRequest("trump must be a suit letter: a l h b")
        checked = check_teams(teams, old_man)
        assert trump is not None
        if self.options["teams"] == "rich_poor":
            return settle_rich_poor(state, points, checked, trump, old_man, self.options)
        return settle_old_man(state, points, checked, trump, old_man, self.options)

    def settle_deal(self, state: MatchState, deal: Deal) -> Filko5State:
        if not isinstance(deal, Filko5Deal):
            raise BadRequest("not a five-player Filkó hand")
        return self.settle(state, self.team_points(deal), self.team_tricks(deal),
                           teams=deal.teams(), old_man=deal.old_man, trump=deal.trump)
