"""What a Fildinsky trick scores beyond its brisques, as pure functions: the
deece, the last-trick bonus, and the melds its winner may declare after it.

`FildinskyDeal` scores its tricks with `deece_cards` and `last_trick_points`;
the perfect-information solver (`engine.analysis.extras`) asks
`EndgameScoring.choices` what each trick of the end game can bring, so both
use the rules written here and in `engine.games.fildinsky.melds`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from typing import NamedTuple

from engine.cards import Card
from engine.games.fildinsky.melds import MeldKind, combination_problem, legal_melds, meld_kinds

DEECE_POINTS = 10
LAST_TRICK_POINTS = 10


def is_deece_card(c: Card, trump: str | None) -> bool:
    """A Seven of trumps: the card of the deece."""
    return c.rank == "7" and c.suit == trump


def deece_cards(cards: Sequence[Card], scored: Sequence[bool], leader: int, winner: int,
                trump: str | None, trigger: str) -> list[int]:
    """The places in the trick (0: the lead) of the cards that score a deece
    for the trick's winner: a Seven of trumps that has not scored one yet
    (`scored[i]`), with `trigger` `played_by_winner` only if the winner
    played it himself."""
    out = []
    for i, c in enumerate(cards):
        if not is_deece_card(c, trump) or scored[i]:
            continue
        if trigger == "played_by_winner" and (leader + i) % 2 != winner:
            continue
        out.append(i)
    return out


def last_trick_points(number: int, bonus_trick: int) -> int:
    """The bonus of trick `number` (counted from 1): 10 for the trick the
    option `last_trick_bonus` names."""
    return LAST_TRICK_POINTS if number == bonus_trick else 0


#: A seat's won cards not yet used in a meld, only the cards some meld takes
#: (the others never score again), packed in an int: the count of the
#: scoring's `meld_order()[i]` in bits 3i..3i+1 (`EndgameScoring.pile`).
Pile = int


class EndState(NamedTuple):
    """What the rest of an end game's scoring depends on besides the cards in
    hand: each seat's unused won cards (`piles`) and how many of the Sevens
    of trumps it holds (or has led to the trick under way) have already
    scored a deece (`scored_sevens`; the deal plays such a copy first)."""

    piles: tuple[Pile, Pile]
    scored_sevens: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class EndgameScoring:
    """The scoring of one hand's end game (its trumps and options)."""

    trump: str
    deece_trigger: str = "trick_contains"
    bonus_trick: int = 24
    meld_needs_trick_card: bool = True
    bezique_pair: str = "fixed"

    def kinds(self) -> tuple[MeldKind, ...]:
        return _kinds(self.trump, self.bezique_pair)

    def meld_cards(self) -> frozenset[Card]:
        """The cards some meld takes."""
        return _meld_cards(self.trump, self.bezique_pair)

    def meld_order(self) -> tuple[Card, ...]:
        """The cards some meld takes, in the order a `Pile` counts them."""
        return _table(self.trump, self.bezique_pair).order

    def pile(self, cards: Counter[Card]) -> Pile:
        """The meld cards of `cards` (a seat's unused won cards) as a `Pile`."""
        return _table(self.trump, self.bezique_pair).pack(cards)

    def pile_cards(self, pile: Pile) -> Counter[Card]:
        """The cards of a `Pile`."""
        t = _table(self.trump, self.bezique_pair)
        return Counter({c: (pile >> (3 * i)) & 3 for i, c in enumerate(t.order)
                        if (pile >> (3 * i)) & 3})

    def choices(self, state: EndState, number: int, leader: int, cards: Sequence[Card],
                winner: int) -> list[tuple[int, EndState]]:
        """Every way trick `number` (its `cards` from the `leader`, won by
        `winner`) can score beyond its brisques, as (points for the winner,
        the state after): the deece and the last-trick bonus, then each
        choice of melds the winner may declare after it (none, one, or two
        together, as `legal_melds` allows; in the order of `meld_choices`)."""
        t = _table(self.trump, self.bezique_pair)
        scored = list(state.scored_sevens)
        copies = []
        for i, c in enumerate(cards):
            seat = (leader + i) % 2
            was = is_deece_card(c, self.trump) and scored[seat] > 0
            if was:
                scored[seat] -= 1
            copies.append(was)
        bonus = DEECE_POINTS * len(deece_cards(cards, copies, leader, winner, self.trump,
                                               self.deece_trigger))
        bonus += last_trick_points(number, self.bonus_trick)
        sevens = (scored[0], scored[1])
        new = [t.index[c] for c in cards if c in t.index]
        if not new and self.meld_needs_trick_card:
            # Nothing the melds take: no meld can be declared.
            return [(bonus, EndState(state.piles, sevens))]
        piles = list(state.piles)
        have = piles[winner] + sum(1 << (3 * i) for i in new)
        trick = tuple(sorted(new)) if self.meld_needs_trick_card else None
        out = []
        for points, used in t.choices(have, trick):
            piles[winner] = have - used
            out.append((bonus + points, EndState((piles[0], piles[1]), sevens)))
        return out

    def plain_cards(self, cards: Sequence[Card]) -> list[Card]:
        """The cards of `cards` that score nothing but their brisques: in no
        meld, and not a Seven of trumps (the deece)."""
        keep = self.meld_cards()
        return [c for c in cards if c not in keep and not is_deece_card(c, self.trump)]

    def cards_out(self, cards: Sequence[Card]) -> int:
        """The meld cards among `cards` (the cards still to be played), packed
        as a `Pile`: what `relevant` needs."""
        return _table(self.trump, self.bezique_pair).pack(Counter(cards))

    def relevant(self, state: EndState, out: int) -> EndState:
        """`state` without the won cards that can no longer score, `out` being
        the meld cards still to be played (`cards_out`): a card stays in a seat's pile only
        while some meld that takes it can still be completed from that pile
        and the cards out (with `meld_needs_trick_card`, some card of the
        meld must still be out, to be won in a trick). The melds still
        possible only shrink as the hand goes on, so the cards dropped never
        score again and the rest of the hand scores the same."""
        t = _table(self.trump, self.bezique_pair)
        p0, p1 = state.piles
        r0 = t.relevant(p0, out, self.meld_needs_trick_card)
        r1 = t.relevant(p1, out, self.meld_needs_trick_card)
        if r0 == p0 and r1 == p1:
            return state
        return EndState((r0, r1), state.scored_sevens)

    def meld_choices(self, pile: Counter[Card], trick: Counter[Card] | None
                     ) -> list[tuple[MeldKind, ...]]:
        """Every set of melds the winner may declare after a trick (the empty
        one first): the melds `legal_melds` offers, and the pairs it offers
        after one of them. (What `choices` offers, written with the game's
        meld rules directly: the tests compare the two.)"""
        singles = legal_melds(pile, self.trump, trick=trick, bezique_pair=self.bezique_pair)
        out: list[tuple[MeldKind, ...]] = [()]
        out.extend((k,) for k in singles)
        for a, b in combinations_with_replacement(singles, 2):
            if combination_problem([a, b], pile, None if trick is None else Counter(trick)) \
                    is None:
                out.append((a, b))
        return out


class _Meld(NamedTuple):
    points: int
    need: int      # its cards, packed as a Pile
    takes: int     # 0b111 in the field of every card it takes


class _Table:
    """One trump suit's melds over packed piles, and what was asked of them.

    A pile holds at most 2 of a card, and two melds together need at most 4,
    so with 3 bits a field `have` holds all of `need` exactly when every
    field's guard bit (its third) survives `(have | guards) - need`."""

    def __init__(self, kinds: Sequence[MeldKind]) -> None:
        self.order = tuple(sorted({c for k in kinds for c in k.cards}, key=lambda c: c.code))
        self.index = {c: i for i, c in enumerate(self.order)}
        self.guards = sum(4 << (3 * i) for i in range(len(self.order)))
        self.melds = [_Meld(k.points, self.pack(Counter(k.cards)),
                            sum(7 << (3 * self.index[c]) for c in set(k.cards)))
                      for k in kinds]
        self._choices: dict[tuple[Pile, tuple[int, ...] | None],
                            tuple[tuple[int, Pile], ...]] = {}
        self._relevant: dict[tuple[Pile, int, bool], Pile] = {}

    def pack(self, cards: Counter[Card]) -> Pile:
        return sum(min(n, 3) << (3 * self.index[c]) for c, n in cards.items()
                   if n > 0 and c in self.index)

    def holds(self, have: Pile, need: int) -> bool:
        g = self.guards
        return ((have | g) - need) & g == g

    def choices(self, have: Pile, trick: tuple[int, ...] | None
                ) -> tuple[tuple[int, Pile], ...]:
        """(points, the cards they take) of every choice of melds from `have`
        (none first, then single melds in the table's order, then pairs);
        `trick`: the fields of the meld cards of the trick just won, when
        every meld needs one of its own."""
        key = (have, trick)
        found = self._choices.get(key)
        if found is not None:
            return found
        holds = self.holds
        singles = [m for m in self.melds if holds(have, m.need) and
                   (trick is None or any(m.takes >> (3 * i) & 1 for i in trick))]
        out = [(0, 0)]
        out.extend((m.points, m.need) for m in singles)
        for a, b in combinations_with_replacement(singles, 2):
            if not holds(have, a.need + b.need):
                continue
            if trick is not None and not _own_trick_cards(a, b, trick):
                continue
            out.append((a.points + b.points, a.need + b.need))
        found = self._choices[key] = tuple(out)
        return found

    def relevant(self, pile: Pile, out: int, needs_trick_card: bool) -> Pile:
        """The fields of `pile` some meld can still be completed with (see
        `EndgameScoring.relevant`)."""
        if not pile:
            return pile
        key = (pile, out, needs_trick_card)
        found = self._relevant.get(key)
        if found is not None:
            return found
        reach = pile + out
        keep = 0
        for m in self.melds:
            if self.holds(reach, m.need) and (not needs_trick_card or m.takes & out):
                keep |= m.takes
        found = self._relevant[key] = pile & keep
        return found


def _own_trick_cards(a: _Meld, b: _Meld, trick: tuple[int, ...]) -> bool:
    """Can melds `a` and `b` each take a card of the trick of its own?"""
    if len(trick) < 2:
        return False
    i, j = trick[0], trick[1]
    return bool((a.takes >> (3 * i) & 1 and b.takes >> (3 * j) & 1) or
                (a.takes >> (3 * j) & 1 and b.takes >> (3 * i) & 1))


@cache
def _table(trump: str, bezique_pair: str) -> _Table:
    return _Table(_kinds(trump, bezique_pair))


@cache
def _kinds(trump: str, bezique_pair: str) -> tuple[MeldKind, ...]:
    return meld_kinds(trump, bezique_pair)


@cache
def _meld_cards(trump: str, bezique_pair: str) -> frozenset[Card]:
    return frozenset(c for k in _kinds(trump, bezique_pair) for c in k.cards)
