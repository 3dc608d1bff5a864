"""The play of a 20-card Filcău hand: the fris trick and rule 8 on top of the
usual follow-then-trump play (RULES.md §1.2 rules 3–6 and 8, FC-A17 … FC-A21).

**The fris trick** is trick 1 of a hand whose trump was chosen by fris. The
fris player leads his Over; every other player plays a small card (U or K, of
any suit) from his first three cards. A player with none has his two other
cards turned face up: with the option `fris_turned_cards_bind` = `d1` he must
play a small card from them if there is one, otherwise any Ten or Ace of his
five; with `d2` the turned cards never oblige and he may play any of his five
cards that is not an Over. Nobody may play an Over on the fris Over, so the
fris player always wins the trick.

With hands known the deal knows each seat's first three cards and turns the
other two itself. With hands unknown, a player must have his two cards turned
(tapped, so the deal knows them) before he may play a Ten or an Ace.

**Rule 8**: a player who bound three trumps and won trick 1 must lead a
non-trump to trick 2.

**The binding is public**: `calls` keeps every seat's call (pass, closed, a
binding; a call struck for want of proof is left out) and `binder` the seat
whose binding won, and `hand_fits` says whether five cards could have made a
seat's call (the rules of `engine.games.filcau20.binding`): what a player who
heard the calls knows of the other hands (`engine.analysis` samples with it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from engine.cards import TRUMP, Card
from engine.deal import Deal, DealRules, Revoke
from engine.games.filcau20.binding import SUITS, call_refusal, naming_suits, parse_call, trumps_in
from engine.games.filcau20.messages import Refusal


@dataclass
class FrisTrick:
    """The fris of this hand: who made it, with which Over; each seat's first
    three cards (a slot mask; hands known) and the cards turned up for it."""

    seat: int
    over: Card
    first: list[int] = field(default_factory=list)
    turned: list[int] = field(default_factory=lambda: [0, 0, 0, 0])


class Filcau20Deal(Deal):
    """A hand of 20-card Filcău; see the module docstring."""

    def __init__(self, game: DealRules, trump: str | None, leader: int,
                 hands: Sequence[Iterable[Card]] | None = None, *,
                 known: Mapping[int, Iterable[Card]] | None = None,
                 fris: FrisTrick | None = None, rule8: int | None = None,
                 calls: Mapping[int, str] | None = None, binder: int | None = None) -> None:
        super().__init__(game, trump, leader, hands, known=known)
        self.fris = fris
        self.rule8 = rule8
        #: Each seat's binding call, heard by all (none after a fris).
        self.calls: dict[int, str] = dict(calls or {})
        #: The seat whose binding won (it named the trump), if any.
        self.binder = binder
        self.d1 = game.options["fris_turned_cards_bind"] == "d1"
        pack = self.pack
        self._small = sum(1 << i for i, c in enumerate(pack.cards) if c.rank in "UK")
        self._big = sum(1 << i for i, c in enumerate(pack.cards) if c.rank in "TA")

    # ----- where we are ------------------------------------------------------------

    @property
    def in_fris_trick(self) -> bool:
        return self.fris is not None and not self.tricks

    def rule8_applies(self, seat: int) -> bool:
        """Is `seat` the three-binder leading trick 2 after winning trick 1?"""
        return (self.rule8 == seat and len(self.tricks) == 1 and not self.trick
                and self.tricks[0].winner == seat)

    def turned_cards(self, seat: int) -> list[Card]:
        """The cards turned face up for `seat` on the fris (hands known: as soon
        as it is his turn and he has no small card among his first three)."""
        if self.fris is None:
            return []
        mask = self.fris.turned[seat]
        if self.hands is not None and self.in_fris_trick and seat != self.fris.seat:
            if self._must_turn(seat) and self._reached(seat):
                mask = self._later(seat)
        return self.pack.cards_of(mask)

    def _first(self, seat: int) -> int:
        assert self.fris is not None and self.hands is not None
        return self.hands[seat] & self.fris.first[seat]

    def _later(self, seat: int) -> int:
        assert self.fris is not None and self.hands is not None
        return self.hands[seat] & ~self.fris.first[seat]

    def _must_turn(self, seat: int) -> bool:
        return not self._first(seat) & self._small

    def _reached(self, seat: int) -> bool:
        return (seat - self.leader) % self.n <= len(self.trick)

    def hand_fits(self, seat: int, cards: Iterable[Card]) -> bool:
        """Could `seat`, dealt these five `cards`, have made the call it made
        (and, the binder, named this trump)? True for a seat that made none."""
        call = self.calls.get(seat)
        o = self.game.options
        if call is None or (call == "pass" and not o["binding_compulsory"]):
            # An optional pass rules out only the rare closed hand: taken to
            # tell nothing (checking it would cost the sampler most of its time).
            return True
        cards = tuple(cards)
        named = self.trump if seat == self.binder else None
        b = parse_call(call)
        if b is not None:
            # Quick refusals first: the binding's number of trumps.
            suits = (named,) if named is not None else SUITS
            if not any(len(trumps_in(cards, s)) == b.count for s in suits if s is not None):
                return False
        return _fits(frozenset(cards), call, named, o["rule7"], o["binding_compulsory"],
                     o["closed_hand"] == "redeal")

    # ----- legality, hands known -----------------------------------------------------

    def fris_legal(self, seat: int, hand: int) -> int:
        """The cards of `hand` (a slot mask: the seat's five cards, the first
        three as dealt in `fris.first`) that `seat` may play to the fris
        trick, hands known: the fris Over for the fris player; for the others
        a small card of the first three, else (the two others turned up) a
        small card of those (d1) or any Ten or Ace (d2), else any Ten or Ace
        of the five. The one place this rule is written (the solver asks it
        too: `engine.analysis.position`)."""
        assert self.fris is not None
        if seat == self.fris.seat:
            slot = self.pack.slot(self.fris.over, hand)
            return 0 if slot < 0 else 1 << slot
        first, later = hand & self.fris.first[seat], hand & ~self.fris.first[seat]
        if first & self._small:
            return first & self._small
        if self.d1:
            return (later & self._small) or ((first | later) & self._big)
        return (later & self._small) | ((first | later) & self._big)

    def _legal(self, seat: int, hand: int) -> int:
        if self.in_fris_trick and self.hands is not None:
            return self.fris_legal(seat, hand)
        if self.rule8_applies(seat):
            return hand & ~self.tables.suit_mask[TRUMP]
        return super()._legal(seat, hand)

    def _refusal(self, seat: int, hand: int, slot: int) -> tuple[str, str]:
        c = self.pack.cards[slot]
        if self.in_fris_trick:
            assert self.fris is not None
            if seat == self.fris.seat:
                return "fris_lead_over", "trump"
            if c.rank == "O":
                return "fris_no_over", "trump"
            if self.hands is not None and not self._first(seat) >> slot & 1 \
                    and not self._must_turn(seat):
                return "fris_not_dealt", c.suit
            return "fris_small_card", c.suit
        if self.rule8_applies(seat):
            return "rule8_farba", "trump"
        return super()._refusal(seat, hand, slot)

    # ----- hands unknown -------------------------------------------------------------

    def held(self, seat: int) -> int:
        """How many cards `seat` still holds."""
        in_trick = (seat - self.leader) % self.n < len(self.trick)
        return self.game.hand_size - len(self.tricks) - (1 if in_trick else 0)

    def fully_known(self, seat: int) -> int:
        """With hands unknown: the seat's remaining cards when all are on record
        (a binder who proved his binding), else 0."""
        if self.hands is not None:
            return 0
        mine = self.known[seat] & ~self.played
        return mine if mine and mine.bit_count() == self.held(seat) else 0

    def _unknown_refusal(self, seat: int, c: Card, slot: int) -> tuple[str, str] | None:
        """The fris and rule 8 checks that need no hand."""
        if self.in_fris_trick:
            assert self.fris is not None
            if seat == self.fris.seat:
                if c != self.fris.over:
                    return "fris_lead_over", "trump"
                return None
            turned = self.fris.turned[seat]
            if c.rank == "O":
                return "fris_no_over", "trump"
            if c.rank in "TA":
                if not turned:
                    return "fris_turn_first", c.suit
                if self.d1 and turned & self._small:
                    return "fris_small_card", c.suit
            return None
        if self.rule8_applies(seat) and self.tables.eff[slot] == TRUMP:
            return "rule8_farba", "trump"
        return None

    def _validate(self, seat: int, card: Card | str) -> tuple[Card, int]:
        c, slot = super()._validate(seat, card)
        if self.hands is not None:
            return c, slot
        params = {"seat": seat, "family": self.pack.family, "card": c.code}
        full = self.fully_known(seat)
        if full and not self.in_fris_trick:
            if not full >> slot & 1:
                raise Refusal("not_in_hand", **params)
            if not self._legal(seat, full) >> slot & 1:
                reason, suit = self._refusal(seat, full, slot)
                raise Refusal(reason, suit=suit, **params)
        refused = self._unknown_refusal(seat, c, slot)
        if refused is not None:
            raise Refusal(refused[0], suit=refused[1], **params)
        return c, slot

    def legal_mask(self, seat: int | None = None) -> int:
        mask = super().legal_mask(seat)
        if self.hands is not None or not mask:
            return mask
        seat = self.turn if seat is None else seat
        full = self.fully_known(seat)
        if full and not self.in_fris_trick:
            return self._legal(seat, full)
        out = 0
        cards = self.pack.cards
        m = mask
        while m:
            low = m & -m
            slot = low.bit_length() - 1
            if self._unknown_refusal(seat, cards[slot], slot) is None:
                out |= low
            m ^= low
        return out

    def _track_voids(self, seat: int, e: int) -> Revoke | None:
        # On the fris, small cards of any suit are the rule: they show no void.
        if self.in_fris_trick:
            return None
        return super()._track_voids(seat, e)

    def snapshot(self) -> tuple[object, ...]:
        fris = None if self.fris is None else (self.fris.seat, self.fris.over,
                                              tuple(self.fris.turned))
        return (*super().snapshot(), fris, self.rule8)


@lru_cache(maxsize=1 << 16)
def _fits(hand: frozenset[Card], call: str, named: str | None, rule7: str,
          compulsory: bool, closed_redeal: bool) -> bool:
    """`Filcau20Deal.hand_fits`, remembered: sampling asks the same hands often."""
    cards = sorted(hand, key=lambda c: c.code)
    if call_refusal(cards, call.removeprefix("bind:"), rule7, compulsory, closed_redeal):
        return False
    return named is None or named in naming_suits(cards, rule7)
