"""Sampled deals: hidden hands that agree with what a seat knew.

`Knowledge` is what a seat knew before a play: its own cards, every card
played and by whom, the cards shown to everybody, the suits each seat
showed it lacked, how many cards each seat still holds (the review builds
it from a played hand, `engine.analysis.review.knowledge`; the hint from a
live deal, `engine.analysis.bot.hint`). `sample_hands` draws hidden hands
consistent with it.

Some games tell more before the first card: in 20-card Filcău every
seat's binding call is heard by all ("three, the Under": three trumps, the
lowest the Under), so the binder holds exactly that many trumps, and a seat
that passed could not bind (or chose not to). A deal that can say so has
`hand_fits(seat, cards)`: could the seat, dealt these cards, have made its
call (`engine.games.filcau20.deal.Filcau20Deal.hand_fits`)?

`FittingDraw` lists, for every other seat the deal constrains, each hand it
may hold now (its cards still hidden, its voids respected) whose cards,
with those it already played, fit its call; a draw picks one of those hands
at random for each such seat (the fewest first, the cards not taken by
another) and deals the rest with `sample_hands`; when calls leave the
cards few ways to lie and no such try fits, every choice is tried in a
random order (up to `SEARCH_STEPS`). A seat with too many hands
to list (`MAX_HANDS`) is not constrained; if the calls contradict what was
seen (a player who called what he did not hold, at a table where only the
winner proves his call), the draw falls back on the plays alone
(`FittingDraw.fallback`). The bots' hints and the review's fair view both
draw their deals here: the one place that says which hands fit the calls.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from engine import Card


@dataclass(frozen=True)
class Knowledge:
    """What `seat` knew before play `index`: its cards, every card played,
    the cards each other seat is known to hold (shown) or cannot hold
    (shown void), and how many cards each seat still holds."""

    seat: int
    index: int
    own: tuple[Card, ...]
    known: tuple[tuple[Card, ...], ...]
    excluded: tuple[frozenset[Card], ...]
    counts: tuple[int, ...]
    unseen: tuple[Card, ...]



def sample_hands(k: Knowledge, rng: random.Random, tries: int = 50
                 ) -> list[list[Card]] | None:
    """Current hands consistent with `k`, drawn at random (None if every try
    ran into a dead end)."""
    n = len(k.counts)
    for _ in range(tries):
        hands: list[list[Card]] = [[] for _ in range(n)]
        hands[k.seat] = list(k.own)
        room = list(k.counts)
        room[k.seat] = 0
        rest = list(k.unseen)
        for s in range(n):
            for c in k.known[s]:
                if c in rest:
                    rest.remove(c)
                    hands[s].append(c)
                    room[s] -= 1
        rng.shuffle(rest)
        allowed = {id(c): [s for s in range(n) if s != k.seat and c not in k.excluded[s]]
                   for c in rest}
        rest.sort(key=lambda c: len(allowed[id(c)]))
        ok = True
        for c in rest:
            choices = [s for s in allowed[id(c)] if room[s] > 0]
            if not choices:
                ok = False
                break
            weights = [room[s] for s in choices]
            s = rng.choices(choices, weights)[0]
            hands[s].append(c)
            room[s] -= 1
        if ok and all(r == 0 for r in room):
            return hands
    return None


#: A deal's answer to "could `seat` have held these cards at the deal?"
Fits = Callable[[int, Sequence[Card]], bool]


def drawer(k: Knowledge, fits: Fits | None, plays: Sequence[tuple[int, Card]]
           ) -> Callable[[random.Random], list[list[Card]] | None]:
    """Draws of the current hands consistent with `k` and, where the deal
    has calls to fit (`fits`), with every other seat's call (`FittingDraw`,
    `plays`: every (seat, card) played so far); else `sample_hands`."""
    if fits is None:
        return lambda rng: sample_hands(k, rng)
    played: list[list[Card]] = [[] for _ in k.counts]
    for seat, c in plays:
        played[seat].append(c)
    return FittingDraw(k, fits, played)


#: A seat with more possible hands than this is left unconstrained.
MAX_HANDS = 20_000
#: Tries of the constrained seats' hands for each deal drawn.
TRIES = 20
#: Hands tried, at most, in the search that follows when no try fits.
SEARCH_STEPS = 50_000


class FittingDraw:
    """Draws of the current hands consistent with `k` and with `fits` for
    every seat but `k.seat`; `played[s]` are the cards seat s played."""

    def __init__(self, k: Knowledge, fits: Fits, played: Sequence[Sequence[Card]]) -> None:
        self.k = k
        self.fallback = False
        #: Per constrained seat: its possible current hands, as bit masks
        #: over `k.unseen` (index i: the i-th unseen card).
        self.hands: dict[int, list[int]] = {}
        index = {c: i for i, c in enumerate(k.unseen)}
        for s in range(len(k.counts)):
            if s == k.seat:
                continue
            held = [c for c in k.known[s] if c in index]
            pool = [c for c in k.unseen if c not in k.excluded[s] and c not in held]
            need = k.counts[s] - len(held)
            if need < 0 or need > len(pool):
                continue
            if math.comb(len(pool), need) > MAX_HANDS:
                continue
            base = tuple(played[s]) + tuple(held)
            out = []
            for combo in combinations(pool, need):
                if fits(s, base + combo):
                    out.append(sum(1 << index[c] for c in (*held, *combo)))
            if len(out) == math.comb(len(pool), need):
                continue  # every hand fits: the call tells nothing more
            if not out:
                self.fallback = True  # the calls contradict the plays
                return
            self.hands[s] = out
        self.order = sorted(self.hands, key=lambda s: len(self.hands[s]))

    def __call__(self, rng: random.Random) -> list[list[Card]] | None:
        """Current hands, every seat's included (None if no draw fits)."""
        k = self.k
        if self.fallback or not self.hands:
            return sample_hands(k, rng)
        for _ in range(TRIES):
            used = 0
            known = list(k.known)
            ok = True
            for s in self.order:
                options = [h for h in self.hands[s] if not h & used]
                if not options:
                    ok = False
                    break
                h = rng.choice(options)
                used |= h
                known[s] = self._cards(h)
            if not ok:
                continue
            hands = sample_hands(replace(k, known=tuple(known)), rng, tries=5)
            if hands is not None:
                return hands
        # Tight calls (one way or few for the cards to lie): every choice
        # of hands, in a random order, before falling back on the plays.
        found = self._search(rng, 0, 0, list(k.known), [SEARCH_STEPS])
        return found if found is not None else sample_hands(k, rng)

    def _cards(self, h: int) -> tuple[Card, ...]:
        """The unseen cards of the hand mask `h`."""
        return tuple(c for i, c in enumerate(self.k.unseen) if h >> i & 1)

    def _search(self, rng: random.Random, depth: int, used: int,
                known: list[tuple[Card, ...]], steps: list[int]) -> list[list[Card]] | None:
        """The first deal, in a random order of each seat's hands, in which
        every constrained seat holds one of its hands (None: none within
        `steps[0]` tries)."""
        k = self.k
        if depth == len(self.order):
            return sample_hands(replace(k, known=tuple(known)), rng, tries=5)
        s = self.order[depth]
        options = [h for h in self.hands[s] if not h & used]
        rng.shuffle(options)
        saved = known[s]
        for h in options:
            steps[0] -= 1
            if steps[0] < 0:
                return None
            known[s] = self._cards(h)
            found = self._search(rng, depth + 1, used | h, known, steps)
            if found is not None:
                return found
        known[s] = saved
        return None
