"""Permanent trumps, effective suits, card order and the trick winner (RULES.md §2.0).

`Ranking` describes how a game orders its cards; `Ranking.tables(trump)` gives
the precomputed per-slot arrays the hot paths use, cached per trump suit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from engine.cards import TRUMP, Card
from engine.packs import Pack

_NOT_IN_TRICK = -1


@dataclass(frozen=True)
class Ranking:
    """How one game ranks and counts its cards.

    `permanent_trumps` are trumps in every hand, high to low, and never members
    of their printed suit. `trump_ranks` and `plain_ranks` order the other cards,
    high to low, of the trump suit and of plain suits. `points` gives card
    points by rank.
    """

    pack: Pack
    permanent_trumps: tuple[Card, ...]
    trump_ranks: tuple[str, ...]
    plain_ranks: tuple[str, ...]
    points: tuple[tuple[str, int], ...]

    def tables(self, trump: str | None) -> TrumpTables:
        return _tables(self, trump)

    def card_points(self, c: Card) -> int:
        return dict(self.points).get(c.rank, 0)

    def total_points(self) -> int:
        return sum(self.card_points(c) for c in self.pack.cards)


@dataclass(frozen=True, eq=False)
class TrumpTables:
    """Per-slot arrays for one ranking and one trump suit (which may be `None`).

    * `eff[s]`: the effective suit of slot `s`, an index into `pack.suits`, or `TRUMP`.
    * `suit_mask[e]`: the set of slots whose effective suit is `e` (`TRUMP` = 4).
    * `power[s]`: a strength: every trump is above every plain card, and within
      a suit higher is stronger. Identical cards have equal power.
    * `points[s]`: card points.
    * `bids[led]`: the slots that bid for a trick whose led effective suit is
      `led`: that suit's and the trumps (any other card cannot win it).

    Tables are made once per ranking and trump (`Ranking.tables`) and compare
    by identity, so they are cheap dictionary keys for per-table caches.
    """

    ranking: Ranking
    trump: str | None
    eff: tuple[int, ...]
    suit_mask: tuple[int, int, int, int, int]
    power: tuple[int, ...]
    points: tuple[int, ...]
    trump_order: tuple[Card, ...]
    bids: tuple[int, int, int, int, int] = field(init=False)

    def __post_init__(self) -> None:
        m = self.suit_mask
        object.__setattr__(self, "bids", (m[0] | m[TRUMP], m[1] | m[TRUMP], m[2] | m[TRUMP],
                                          m[3] | m[TRUMP], m[TRUMP]))

    def key(self, slot: int, led: int) -> int:
        """How strongly `slot` bids for a trick whose led effective suit is `led`."""
        if self.bids[led] >> slot & 1:
            return self.power[slot]
        return _NOT_IN_TRICK

    def suit_letter(self, eff: int) -> str:
        """The letter of an effective suit; trumps are written as the trump suit."""
        if eff == TRUMP:
            return self.trump or "trump"
        return self.ranking.pack.suits[eff]

    def winner_index(self, slots: Sequence[int]) -> int:
        """Index (0 = leader) of the winning card; the first of identical cards wins."""
        led = self.eff[slots[0]]
        best, best_key = 0, self.key(slots[0], led)
        for i in range(1, len(slots)):
            k = self.key(slots[i], led)
            if k > best_key:
                best, best_key = i, k
        return best


@lru_cache(maxsize=256)
def _tables(ranking: Ranking, trump: str | None) -> TrumpTables:
    pack = ranking.pack
    suits = pack.suits
    if trump is not None and trump not in suits:
        raise ValueError(f"{trump!r} is not a suit of the {pack.name} pack")
    permanent = ranking.permanent_trumps
    trump_order: list[Card] = list(permanent)
    if trump is not None:
        trump_order += [Card(r, trump) for r in ranking.trump_ranks
                        if Card(r, trump) in pack and Card(r, trump) not in permanent]
    trump_pos = {c: i for i, c in enumerate(trump_order)}
    plain_pos = {r: i for i, r in enumerate(ranking.plain_ranks)}
    pts = dict(ranking.points)
    eff: list[int] = []
    power: list[int] = []
    masks = [0, 0, 0, 0, 0]
    n_trumps = len(trump_order)
    for slot, c in enumerate(pack.cards):
        if c in trump_pos:
            e = TRUMP
            p = 1000 + n_trumps - trump_pos[c]
        else:
            e = suits.index(c.suit)
            p = 100 + len(plain_pos) - plain_pos[c.rank]
        eff.append(e)
        power.append(p)
        masks[e] |= 1 << slot
    return TrumpTables(
        ranking=ranking,
        trump=trump,
        eff=tuple(eff),
        suit_mask=(masks[0], masks[1], masks[2], masks[3], masks[4]),
        power=tuple(power),
        points=tuple(pts.get(c.rank, 0) for c in pack.cards),
        trump_order=tuple(trump_order),
    )
