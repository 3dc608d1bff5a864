"""A bot and a hint on the sampled analysis (perfect-information Monte Carlo).

For the seat to play, deals consistent with what it has seen (its own cards,
every card played and by whom, the cards shown to everybody, the cards its
opponents' plays showed they lack, the calls heard before play: 20-card
Filcău's binding, `engine.analysis.sampling`) are drawn at random and solved with every
card visible; the card with the most points on average is played (or hinted).
Of cards the deals value alike the bot plays `SimpleBot`'s card if it is one
of them, else the cheapest (`SampledBot.among_best`).

Strength is the number of deals per card (`LEVELS`). The level `reading`
also reads the opponents' plays: each deal solved is the one of a few drawn
whose opponents' plays `SimpleBot`'s rule of thumb explains best
(`engine.analysis.inference`), and it searches only the last 5 tricks
(`LEVEL_TRICKS_LEFT`). Where the solver does not search the hand (the stock
phase of Fildinsky, the fris trick of 20-card Filcău), the bot falls back on
`engine.bots.SimpleBot`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine import Card, Deal
from engine.analysis.inference import Replay, fewest_surprises
from engine.analysis.position import Position, SolverCache, analyse, game_of, no_trump_lead_of
from engine.analysis.review import exclusions
from engine.analysis.sampling import Knowledge, drawer
from engine.analysis.solver import SearchLimit
from engine.bots import Bot, SimpleBot, legal_from

#: Deals solved per card at each strength level.
LEVELS: dict[str, int] = {"easy": 4, "good": 16, "strong": 48, "reading": 4, "careful": 8}
#: Levels that search only the last few tricks of a hand (`SimpleBot` before).
LEVEL_TRICKS_LEFT: dict[str, int] = {"reading": 5, "careful": 5}
#: Levels that read the opponents' plays (`engine.analysis.inference`).
READING: frozenset[str] = frozenset({"reading", "careful"})
#: Averages closer than this (points) count as equal when the bot chooses.
TIE = 1e-9
#: Nodes one sampled deal may cost before the bot stops sampling.
NODE_LIMIT = 200_000


@dataclass(frozen=True)
class Hint:
    """The card the sampled analysis prefers, its average points (the seat's
    team, the hand's end) and every legal card's average; `samples` deals."""

    card: Card
    average: float
    averages: Mapping[Card, float]
    samples: int


def _plays(deal: Deal) -> list[tuple[int, Card]]:
    n = deal.n
    out: list[tuple[int, Card]] = []
    for t in deal.tricks:
        for i, c in enumerate(t.cards):
            out.append(((t.leader + i) % n, c))
    for i, c in enumerate(deal.current_trick):
        out.append(((deal.leader + i) % n, c))
    return out


def _teams(deal: Deal, seat: int) -> tuple[int, ...]:
    """The teams as `seat` can tell them; a seat it cannot place is taken
    for an opponent (five-player Filkó before the partner shows)."""
    seen = getattr(deal, "teams_seen_by", None)
    if seen is None:
        return tuple(deal.game.team_of(s) for s in range(deal.n))
    teams = seen(seat)
    mine = teams[seat] if teams[seat] is not None else 1
    return tuple(t if t is not None else 1 - mine for t in teams)


def searchable(deal: Deal) -> bool:
    """Does the solver search this deal's next card?"""
    if getattr(deal, "in_fris_trick", False):
        return False
    context = deal.context()
    return not ("stock_empty" in context and not context["stock_empty"])


def hint(deal: Deal, seat: int, hand: Sequence[Card], rng: random.Random, samples: int,
         public: Mapping[int, Sequence[Card]] | None = None,
         budget: int | None = None, model: Bot | None = None) -> Hint | None:
    """The sampled analysis's card for `seat` (to play) holding `hand`, or
    None where the solver does not search the hand. With a `budget`, the
    deals solved share that many search nodes (the work, counted without a
    clock: ≈ 2.5 µs a node on one core of the development machine): sampling
    stops at the deal that would overrun it, and None comes back if not even
    the first deal fits. With a `model` (a bot), each deal solved is the one
    of a few drawn whose opponents' plays the model explains best
    (`engine.analysis.inference`)."""
    if deal.finished or not searchable(deal):
        return None
    if public is None and deal.hands_known:
        # A deal that knows every hand (a bench) keeps in `known` only cards
        # shown to everybody: the cards shown to fix trumps. A deal that does
        # not (the table) knows cards the players do not see, such as a
        # binder's hand tapped face down: it tells nothing.
        public = {s: deal.pack.cards_of(m) for s, m in enumerate(deal.known) if m}
    game = game_of(deal)
    n = deal.n
    plays = _plays(deal)
    family = None
    first = 0
    context = deal.context()
    if "stock_empty" in context:
        family = game.legal_family_for(stock_empty=True)
        first = n * 24  # the plays while the stock lasted teach nothing
    first_leader = deal.tricks[0].leader if deal.tricks else deal.leader
    # The fris trick (20-card Filcău) has rules of its own: a card not of
    # the suit led there shows no void (as in the review, `own_rules`).
    own = frozenset(range(n)) if getattr(deal, "fris", None) is not None else frozenset()
    excluded = exclusions(game, deal.trump, family, first_leader, plays, own, first)
    # The cards out of the hands: the deal's own record (in Fildinsky a
    # Seven played may come back from under the stock, exchanged).
    played = deal.pack.cards_of(deal.played)
    # The seats that already played to this trick hold one card fewer.
    counts = [len(hand) - (1 if (s - deal.leader) % n < len(deal.current_trick) else 0)
              for s in range(n)]
    unseen = list(game.pack.cards)
    for c in (*played, *hand):
        unseen.remove(c)
    known = []
    for s in range(n):
        shown = [c for c in (public or {}).get(s, ()) if c not in played and s != seat]
        known.append(tuple(shown))
    total = sum(counts) - len(hand)
    if total != len(unseen):
        # Cards out of play (a stock, cards not dealt): only the unseen that fit.
        rng.shuffle(unseen)
        unseen = unseen[:total]
    k = Knowledge(seat, len(plays), tuple(hand), tuple(known), excluded, tuple(counts),
                  tuple(unseen))
    teams = _teams(deal, seat)

    # The calls before play (20-card Filcău's binding) narrow the deals.
    drawn = drawer(k, getattr(deal, "hand_fits", None), plays)

    def draw() -> list[list[Card]] | None:
        return drawn(rng)

    replay = None
    if model is not None and len(plays) > first:
        watched = [s for s in range(n) if teams[s] != teams[seat]]
        replay = Replay(deal, watched, model, len(plays) - first)
    won = [0, 0]
    for s, p in enumerate(deal.points):
        won[teams[s]] += p
    sums: dict[Card, float] = {}
    solved = 0
    left = budget if budget is not None else -1
    for _ in range(samples):
        hands = draw() if replay is None else fewest_surprises(draw, replay)
        if hands is None:
            break
        pos = Position(game, deal.trump, tuple(tuple(h) for h in hands),
                       tuple(deal.current_trick), deal.leader, teams, (won[0], won[1]), family,
                       no_trump_lead_of(deal))
        cache = SolverCache(limit=1)
        try:
            a = analyse(pos, cache=cache, limit=NODE_LIMIT if left < 0 else min(NODE_LIMIT, left))
        except SearchLimit:
            break
        finally:
            if left >= 0:
                left = max(0, left - cache.nodes())
        for c, v in a.values.items():
            sums[c] = sums.get(c, 0.0) + v
        solved += 1
        if left == 0:
            break
    if not solved:
        return None
    averages = {c: v / solved for c, v in sums.items()}
    best = max(averages, key=lambda c: (averages[c], c.code))
    return Hint(best, averages[best], averages, solved)


class SampledBot:
    """Plays the card the sampled analysis prefers (`LEVELS` deals a card).

    With `tricks_left`, the bot searches only once at most that many tricks
    are left in the hand and plays as `SimpleBot` before (a cheap level for
    long measurements: bench/bots_bench.py); `samples` overrides the level's
    number of deals; `infer` whether the deals are read against the
    opponents' plays (default: the level's, `READING`)."""

    def __init__(self, level: str = "good", tricks_left: int | None = None,
                 samples: int | None = None, infer: bool | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"no level {level!r}; there are: {', '.join(LEVELS)}")
        if tricks_left is not None and tricks_left < 1:
            raise ValueError("tricks_left must be at least 1")
        if samples is not None and samples < 1:
            raise ValueError("samples must be at least 1")
        self.level = level
        self.samples = samples or LEVELS[level]
        if tricks_left is None:
            tricks_left = LEVEL_TRICKS_LEFT.get(level)
        self.tricks_left = tricks_left
        self.infer = level in READING if infer is None else infer
        # The name says what differs from the level (from a plain search of
        # the whole hand when `samples` is given).
        self.name, plain = f"sampled-{level}", samples is None
        if samples is not None:
            self.name = f"sampled-{self.samples}"
        if tricks_left is not None and tricks_left != (
                LEVEL_TRICKS_LEFT.get(level) if plain else None):
            self.name += f"-last{tricks_left}"
        if self.infer != (level in READING and plain):
            self.name += "-infer" if self.infer else "-noinfer"
        self._fallback = SimpleBot()

    def play(self, deal: Deal, seat: int, hand: Sequence[Card], rng: random.Random) -> Card:
        legal = legal_from(deal, seat, hand)
        if len(legal) == 1:
            return legal[0]
        if self.tricks_left is not None and len(hand) > self.tricks_left:
            return self._fallback.play(deal, seat, hand, rng)
        found = hint(deal, seat, hand, rng, self.samples,
                     model=self._fallback if self.infer else None)
        if found is None or found.card not in legal:
            return self._fallback.play(deal, seat, hand, rng)
        return self.among_best(deal, seat, hand, rng, found, legal)

    def among_best(self, deal: Deal, seat: int, hand: Sequence[Card], rng: random.Random,
                   found: Hint, legal: Sequence[Card]) -> Card:
        """The card to play of those the samples value alike (within `TIE`
        points): `SimpleBot`'s card if it is one of them, else the cheapest
        (fewest points, then the weakest: the high cards are kept)."""
        best = [c for c in legal if found.averages.get(c, -1.0) >= found.average - TIE]
        if len(best) == 1:
            return best[0]
        simple = self._fallback.play(deal, seat, hand, rng)
        if simple in best:
            return simple
        tables, pack = deal.tables, deal.pack
        return min(best, key=lambda c: (tables.points[pack.slot(c)],
                                        tables.power[pack.slot(c)], c.code))
