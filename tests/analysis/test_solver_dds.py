"""With bridge rules (52 cards, follow suit, no trumps or a trump suit,
tricks) the solver agrees with DDS, the double-dummy solver bridge clubs use
(the `endplay` package, in the test extra), on 1,000 random endings of five
cards a hand, some with the first trick begun.

Bridge is not a game of cardtable; it is written here as a `Game` the way the
engine writes its games (a `Ranking` and the legal family "F"), and every card
is worth one point, so a trick is worth four.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import Card, Game
from engine.analysis import Position, SolverCache, analyse
from engine.packs import FRENCH_52
from engine.ranking import Ranking

endplay_types = pytest.importorskip("endplay.types", reason="pip install endplay (test extra)")
endplay_dds = pytest.importorskip("endplay.dds", reason="pip install endplay (test extra)")

RANKS = ("A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2")
BRIDGE_RANKING = Ranking(FRENCH_52, (), RANKS, RANKS, tuple((r, 1) for r in RANKS))
ENDINGS = 1000
CARDS = 5


class Bridge(Game):
    id = "bridge"
    players = 4
    hand_size = 13
    tricks_per_hand = 13
    legal_family = "F"

    def make_ranking(self) -> Ranking:
        return BRIDGE_RANKING


#: endplay's suits and players, in cardtable's letters and seats (N=0, E=1, S=2, W=3).
DENOM = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs", None: "nt"}


def _pbn(hands: list[list[Card]], first: int) -> str:
    """A PBN deal string starting with `first`'s hand."""
    parts = []
    for i in range(4):
        h = hands[(first + i) % 4]
        suits = []
        for s in "shdc":
            cs = [c for c in h if c.suit == s]
            cs.sort(key=lambda c: RANKS.index(c.rank))
            suits.append("".join(c.rank for c in cs))
        parts.append(".".join(suits))
    return "NESW"[first] + ":" + " ".join(parts)


def _dds(hands: list[list[Card]], trick: list[Card], leader: int, trump: str | None
         ) -> dict[str, int]:
    """Tricks the side to play takes from here (the current trick included),
    for each card DDS names, as {code: tricks}."""
    types: Any = endplay_types
    full = [list(h) for h in hands]
    for i, c in enumerate(trick):
        full[(leader + i) % 4].append(c)
    deal = types.Deal(_pbn(full, 0))
    deal.first = types.Player.find(("north", "east", "south", "west")[leader])
    deal.trump = getattr(types.Denom, DENOM[trump])
    for c in trick:
        deal.play(types.Card(c.suit.upper() + c.rank))
    out: dict[str, int] = {}
    for card, tricks in endplay_dds.solve_board(deal):
        out[card.rank.abbr + card.suit.name[0]] = tricks
    return out


def test_solver_agrees_with_dds() -> None:
    game = Bridge()
    rng = random.Random(18)
    cache = SolverCache()
    for i in range(ENDINGS):
        pack = list(game.pack.cards)
        rng.shuffle(pack)
        trump = rng.choice([None, "s", "h", "d", "c"])
        leader = rng.randrange(4)
        begun = rng.choice([0, 0, 1, 2, 3])
        hands: list[list[Card]] = []
        for seat in range(4):
            k = CARDS - 1 if (seat - leader) % 4 < begun else CARDS
            hands.append([pack.pop() for _ in range(k)])
        trick = [pack.pop() for _ in range(begun)]
        # A begun trick must follow suit as the rules say: give a seat that
        # could have followed a card of the led suit instead.
        for j in range(1, begun):
            seat = (leader + j) % 4
            led = trick[0].suit
            if trick[j].suit != led and any(c.suit == led for c in hands[seat]):
                trick[j] = next(c for c in hands[seat] if c.suit == led)
                hands[seat] = [c for c in hands[seat] if c != trick[j]] + [pack.pop()]
        position = Position(game, trump, tuple(tuple(h) for h in hands), tuple(trick),
                            leader, (0, 1, 0, 1))
        got = analyse(position, cache=cache)
        expected = _dds(hands, trick, leader, trump)
        team = position.turn % 2
        assert {c.code: v // 4 for c, v in got.values.items()} == expected, (i, position)
        assert got.points[team] == 4 * max(expected.values())
