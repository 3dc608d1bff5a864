"""A game's trick-play rules, renumbered for the solver.

The solver never writes a rule of its own: it takes the game's `TrumpTables`
(effective suit, power and points of every card, from the game's `Ranking`)
and the game's legal-play family (`engine.legal.legal_mask`), and only
renumbers the cards. Internally a card is a bit; the cards of one effective
suit sit next to each other, lowest first, and one empty *guard* bit follows
each suit. So "the cards of this suit still out, in order" is a run of bits,
and two cards of one hand with only played cards between them form one run
of a bit mask (they are interchangeable: see `engine.analysis.solver`).

The renumbered cards come with a renumbered `TrumpTables`, so the game's own
`legal_mask` and `key` (who wins a trick) run on them unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine import Game
from engine.cards import CARD_CODES, TRUMP, Card
from engine.legal import legal_mask
from engine.ranking import TrumpTables


@dataclass(frozen=True)
class SolverRules:
    """Per game, trump and legal family: the tables the solver searches with.

    * `tables`: a `TrumpTables` over internal bits (guard bits are in no suit).
    * `to_bit[slot]`, `to_slot[bit]`: the renumbering (`-1` for a guard bit).
    * `points[bit]`: card points; `point_masks`: one bit mask per distinct
      non-zero point value (they make the transposition key).
    * `guards`: the mask of guard bits; `top[bit]`: the mask of the bits of
      the same suit above `bit`.
    """

    game: Game
    trump: str | None
    family: str
    undertrump: bool
    tables: TrumpTables
    to_bit: tuple[int, ...]
    to_slot: tuple[int, ...]
    points: tuple[int, ...]
    point_masks: tuple[int, ...]
    guards: int
    above: tuple[int, ...]
    total: int
    #: `keytab[led][bit]`: the game's trick-winning key (`TrumpTables.key`)
    #: of every bit for each led effective suit (-1 for a guard bit).
    keytab: tuple[tuple[int, ...], ...] = ()
    #: `bits_of[card.index]`: the internal bits of that card's copies in
    #: the pack (empty for a card not in it).
    bits_of: tuple[tuple[int, ...], ...] = ()

    def legal(self, hand: int, trick: Sequence[int]) -> int:
        """The game's own legal family on internal bits."""
        return legal_mask(self.family, self.tables, hand, trick, self.undertrump)

    def mask_of(self, cards: Iterable[Card], taken: int = 0) -> int:
        """Internal bits of these cards (a double pack: the first free copy)."""
        bits_of = self.bits_of
        m = taken
        for c in cards:
            for b in bits_of[c.index]:
                if not m >> b & 1:
                    m |= 1 << b
                    break
            else:
                self.game.pack.slots_of(c)  # UnknownCard for a card not in the pack
                raise ValueError(f"{c} appears more often than the pack holds it")
        return m & ~taken

    def cards_of(self, mask: int) -> list[Card]:
        cards = self.game.pack.cards
        out = []
        while mask:
            low = mask & -mask
            out.append(cards[self.to_slot[low.bit_length() - 1]])
            mask ^= low
        return out

    def card(self, bit: int) -> Card:
        return self.game.pack.cards[self.to_slot[bit]]


_CACHE: dict[tuple[int, str | None, str], SolverRules] = {}


def solver_rules(game: Game, trump: str | None, family: str | None = None) -> SolverRules:
    """The renumbered rules of `game` with `trump` (cached per game object)."""
    fam = family or game.legal_family
    key = (id(game), trump, fam)
    found = _CACHE.get(key)
    if found is not None and found.game is game:
        return found
    rules = _build(game, trump, fam)
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[key] = rules
    return rules


def _build(game: Game, trump: str | None, family: str) -> SolverRules:
    src = game.ranking.tables(trump)
    n_slots = len(src.eff)
    order: list[int] = []  # internal bit -> pack slot, -1 for a guard
    for e in (0, 1, 2, 3, TRUMP):
        slots = [s for s in range(n_slots) if src.eff[s] == e]
        slots.sort(key=lambda s: (src.power[s], s))
        order.extend(slots)
        order.append(-1)
    to_bit = [0] * n_slots
    for b, s in enumerate(order):
        if s >= 0:
            to_bit[s] = b
    eff: list[int] = []
    power: list[int] = []
    points: list[int] = []
    masks = [0, 0, 0, 0, 0]
    guards = 0
    for b, s in enumerate(order):
        if s < 0:
            eff.append(-1)
            power.append(-1)
            points.append(0)
            guards |= 1 << b
            continue
        eff.append(src.eff[s])
        power.append(src.power[s])
        points.append(src.points[s])
        masks[src.eff[s]] |= 1 << b
    tables = TrumpTables(
        ranking=src.ranking, trump=trump, eff=tuple(eff),
        suit_mask=(masks[0], masks[1], masks[2], masks[3], masks[4]),
        power=tuple(power), points=tuple(points), trump_order=src.trump_order)
    bits_of: list[list[int]] = [[] for _ in range(CARD_CODES)]
    for slot, c in enumerate(game.pack.cards):
        bits_of[c.index].append(to_bit[slot])
    values = sorted({p for p in points if p})
    point_masks = tuple(sum(1 << b for b, p in enumerate(points) if p == v) for v in values)
    above: list[int] = []
    for b in range(len(order)):
        if order[b] < 0:
            above.append(0)
            continue
        m = masks[eff[b]]
        above.append(m & ~((2 << b) - 1))
    return SolverRules(
        game=game, trump=trump, family=family, undertrump=game.undertrump_required,
        tables=tables, to_bit=tuple(to_bit), to_slot=tuple(order), points=tuple(points),
        point_masks=point_masks, guards=guards, above=tuple(above), total=sum(points),
        keytab=tuple(tuple(tables.key(b, led) if eff[b] >= 0 else -1 for b in range(len(eff)))
                     for led in range(5)),
        bits_of=tuple(tuple(bits) for bits in bits_of))
