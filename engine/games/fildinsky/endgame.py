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
from functools import cache, lru_cache
from itertools import combinations_with_replacement

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


#: A seat's won cards not yet used in a meld, as sorted (code, count) pairs,
#: only the cards some meld takes (the others never score again).
Pile = tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class EndState:
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

    def pile(self, cards: Counter[Card]) -> Pile:
        keep = self.meld_cards()
        return tuple(sorted((c.code, n) for c, n in cards.items() if n > 0 and c in keep))

    def choices(self, state: EndState, number: int, leader: int, cards: Sequence[Card],
                winner: int) -> list[tuple[int, EndState]]:
        """Every way trick `number` (its `cards` from the `leader`, won by
        `winner`) can score beyond its brisques, as (points for the winner,
        the state after): the deece and the last-trick bonus, then each
        choice of melds the winner may declare after it (none, one, or two
        together, as `legal_melds` allows)."""
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
        piles = list(state.piles)
        keep = self.meld_cards()
        new = [c for c in cards if c in keep]
        melds_now: list[tuple[MeldKind, ...]] | None = None
        if not new and self.meld_needs_trick_card:
            # Nothing the melds take: no meld can be declared.
            melds_now = [()]
        have = _counter(piles[winner])
        have.update(new)
        if melds_now is None:
            melds_now = _meld_choices(self, self.pile(have),
                                      tuple(sorted(c.code for c in cards))
                                      if self.meld_needs_trick_card else None)
        out = []
        for melds in melds_now:
            left = Counter(have)
            for k in melds:
                left.subtract(k.cards)
            piles[winner] = self.pile(left)
            out.append((bonus + sum(k.points for k in melds),
                        EndState((piles[0], piles[1]), (scored[0], scored[1]))))
        return out

    def meld_choices(self, pile: Counter[Card], trick: Counter[Card] | None
                     ) -> list[tuple[MeldKind, ...]]:
        """Every set of melds the winner may declare after a trick (the empty
        one first): the melds `legal_melds` offers, and the pairs it offers
        after one of them."""
        singles = legal_melds(pile, self.trump, trick=trick, bezique_pair=self.bezique_pair)
        out: list[tuple[MeldKind, ...]] = [()]
        out.extend((k,) for k in singles)
        for a, b in combinations_with_replacement(singles, 2):
            if combination_problem([a, b], pile, None if trick is None else Counter(trick)) \
                    is None:
                out.append((a, b))
        return out


@lru_cache(maxsize=100_000)
def _meld_choices(scoring: EndgameScoring, pile: Pile, trick: tuple[str, ...] | None
                  ) -> list[tuple[MeldKind, ...]]:
    """`EndgameScoring.meld_choices`, remembered (the search asks again and again)."""
    return scoring.meld_choices(_counter(pile),
                                None if trick is None else Counter(map(Card.parse, trick)))


@cache
def _kinds(trump: str, bezique_pair: str) -> tuple[MeldKind, ...]:
    return meld_kinds(trump, bezique_pair)


@cache
def _meld_cards(trump: str, bezique_pair: str) -> frozenset[Card]:
    return frozenset(c for k in _kinds(trump, bezique_pair) for c in k.cards)


def _counter(pile: Pile) -> Counter[Card]:
    return Counter({Card.parse(code): n for code, n in pile})
