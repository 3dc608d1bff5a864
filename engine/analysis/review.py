"""The card that lost the hand: every card played, against best play.

Two views of each card:

* **double dummy**: with every card visible, how many points the card gave
  away against the best card (`Analysis.loss`), and whether the hand's
  result (who became masters, the game points) would have been different;
* **sampled** (perfect-information Monte Carlo): fair to what the player
  could know. Deals consistent with everything the player had seen (their
  own cards, every card played and by whom, the cards shown to everybody,
  the suits each seat showed it lacked, the calls heard before play: 20-card
  Filcău's binding) are drawn at random (`engine.analysis.sampling`, as the
  bots draw theirs) and solved; the card's loss is its average loss over
  them.

A card is *flagged* when it cost at least one point on average (sampled
view when there is one, else double dummy) or changed the hand's result.

Pure: the randomness is passed in and the work is counted in samples, not
seconds; `table.review` spreads it over the cores and keeps the time budget.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine import BadRequest, Card, Deal, EngineError, Game, MatchState
from engine.analysis.extras import Extras
from engine.analysis.position import (
    Analysis,
    Position,
    SolverCache,
    after_trick,
    analyse,
    extras_of,
    game_of,
    hands_after,
    load,
    no_trump_lead_of,
    teams_of,
)
from engine.analysis.rules import solver_rules
from engine.analysis.sampling import Fits, Knowledge, drawer
from engine.analysis.solver import SearchLimit

#: Nodes a review may spend on one position before it gives up on that card.
NODE_LIMIT = 400_000

#: Loss (points, on average) from which a card is flagged.
FLAG_LOSS = 1.0


@dataclass(frozen=True)
class HandRecord:
    """One hand as played: the cards each seat was dealt, the plays in order
    (seat, card), trumps, the first leader, each seat's team, the cards shown
    to everybody (by seat), the match state before the hand, and the plays
    the solver cannot judge (by index; a special trick of the game).
    `first_trick`: the first trick follows rules of its own (20-card
    Filcău's fris trick), and these are the cards each seat could play to it
    (the game's own answer, from the hands as dealt): its plays are judged
    with every card visible, they show no void and have no fair view."""

    game: Game
    trump: str | None
    leader: int
    hands: tuple[tuple[Card, ...], ...]
    plays: tuple[tuple[int, Card], ...]
    teams: tuple[int, ...]
    public: Mapping[int, tuple[Card, ...]] = field(default_factory=dict)
    state: MatchState | None = None
    skipped: frozenset[int] = frozenset()
    family: str | None = None
    first: int = 0
    no_trump_lead: tuple[int, int] | None = None
    first_trick: tuple[tuple[Card, ...], ...] | None = None
    #: Tricks that score more than card points (Fildinsky's end game): before
    #: each play, the game's scoring and where the hand stood (unused won
    #: cards, Sevens that scored), and each seat's points in the hand so far.
    extras: tuple[tuple[Extras, tuple[int, int]], ...] | None = None
    #: The calls every seat heard before play (20-card Filcău's binding: the
    #: deal's `calls`, by seat) and the seat whose binding won; the fair view
    #: draws only deals that fit them (`engine.analysis.sampling`). None: the
    #: game has no calls, or the record does not carry them.
    calls: Mapping[int, str] | None = None
    binder: int | None = None
    #: The game has calls before play, but this hand's are not on record (its
    #: trumps were given, not bound): its fair view follows the plays alone.
    calls_unknown: bool = False
    #: The deal's class, which answers whether a hand fits a call (`fits`).
    deal_class: type[Deal] | None = None

    def special(self, index: int) -> bool:
        """Is play `index` in a trick with rules of its own (the fris trick)?"""
        return self.first_trick is not None and index < self.game.players

    def position(self, index: int, hands: Sequence[Sequence[Card]] | None = None
                 ) -> Position:
        """The position before play `index` (0-based), with these initial
        hands (default: the real ones; a trick with rules of its own needs
        them)."""
        game = self.game
        n = game.players
        held = [list(h) for h in (hands if hands is not None else self.hands)]
        leader = self.leader
        trick: list[Card] = []
        won = [0, 0]
        for seat, c in self.plays[:index]:
            held[seat].remove(c)
            trick.append(c)
            if len(trick) == n:
                w = (leader + game.trick_winner(trick, self.trump)) % n
                won[self.teams[w]] += game.trick_points(trick, self.trump)
                leader = w
                trick = []
        first_trick = self.first_trick if self.special(index) else None
        if first_trick is not None and hands is not None:
            raise BadRequest("the fris trick is judged with the hands as dealt only")
        extras = None
        if self.extras is not None:
            extras, (won[0], won[1]) = self.extras[index]
        return Position(game, self.trump, tuple(tuple(h) for h in held), tuple(trick), leader,
                        self.teams, (won[0], won[1]), self.family, self.no_trump_lead,
                        first_trick, extras)

    def fits(self) -> Fits | None:
        """The game's answer to "could this seat, dealt these cards, have made
        the call it made?" for this hand's calls (None: no call to fit)."""
        if not self.calls or self.deal_class is None:
            return None
        # The game's own deal, with the calls and nothing else (hands
        # unknown), answers it: the rule is written there only.
        make: Any = self.deal_class
        deal = make(self.game, self.trump, self.leader, None, calls=dict(self.calls),
                    binder=self.binder)
        fits: Fits = deal.hand_fits
        return fits


@dataclass(frozen=True)
class CardReview:
    """What one card played was worth (see the module docstring). Losses are
    points of the player's team; `best` are the double-dummy best cards."""

    index: int
    trick: int
    seat: int
    card: Card
    legal: int
    best: tuple[Card, ...]
    loss: int
    result_changed: bool
    sampled_loss: float | None = None
    sampled_best: Card | None = None
    samples: int = 0
    #: The played card's value with every card visible: the points its team
    #: ends the hand with (the sampled view starts its deals from it).
    value: int | None = None

    @property
    def flagged(self) -> bool:
        loss = self.sampled_loss if self.sampled_loss is not None else float(self.loss)
        return loss >= FLAG_LOSS or self.result_changed


def record_of(deal: Deal, state: MatchState | None = None,
              public: Mapping[int, Sequence[Card]] | None = None) -> HandRecord:
    """The record of a deal (its hands known, or every card played)."""
    game = game_of(deal)
    n = game.players
    plays: list[tuple[int, Card]] = []
    for t in deal.tricks:
        for i, c in enumerate(t.cards):
            plays.append(((t.leader + i) % n, c))
    for i, c in enumerate(deal.current_trick):
        plays.append(((deal.leader + i) % n, c))
    family = None
    first_leader = deal.tricks[0].leader if deal.tricks else deal.leader
    context = deal.context()
    if "stock_empty" in context:
        # Fildinsky: hands change with every draw while the stock lasts; the
        # solver judges the end game, from the first trick after the stock.
        family = game.legal_family_for(stock_empty=True)
        stock_tricks = len(deal.tricks) if context["stock_empty"] and len(deal.tricks) < 24 \
            else 24
        if len(deal.tricks) < stock_tricks or not context["stock_empty"]:
            plays = []
        else:
            plays = plays[n * stock_tricks:]
            first_leader = (deal.tricks[stock_tricks].leader
                            if len(deal.tricks) > stock_tricks else deal.leader)
    initial: list[list[Card]] = [[] for _ in range(n)]
    if deal.hands is not None:
        for s in range(n):
            initial[s] = deal.pack.cards_of(deal.hands[s])
    for seat, c in plays:
        initial[seat].append(c)
    if any(len(h) != len(initial[0]) for h in initial):
        raise BadRequest("the hands of this deal are not known: it cannot be reviewed")
    skipped: set[int] = set()
    # 20-card Filcău: the fris trick follows rules of its own, the game's
    # (`fris_legal`, from each seat's first three cards as dealt): judged
    # when the hands were read; with hands unknown the first three are not
    # known, and the trick is not judged.
    first_trick = None
    fris = getattr(deal, "fris", None)
    if fris is not None:
        if deal.hands is not None:
            legal = deal.fris_legal  # type: ignore[attr-defined]  # a Filcau20Deal
            pack = deal.pack
            first_trick = tuple(tuple(pack.cards_of(legal(s, pack.mask(initial[s]))))
                                for s in range(n))
        else:
            skipped.update(range(n))
    first = 0
    teams = teams_of(deal)
    extras = _extras_before_each_play(deal, len(plays)) if family is not None and plays \
        else None
    # The calls before play, heard by all (20-card Filcău's binding). A hand
    # with none and no fris had its trumps given: its calls are not known.
    heard: Mapping[int, str] | None = getattr(deal, "calls", None)
    calls = dict(heard) if heard else None
    calls_unknown = heard is not None and not heard and fris is None
    return HandRecord(game, deal.trump, first_leader, tuple(tuple(h) for h in initial),
                      tuple(plays), teams,
                      {s: tuple(cs) for s, cs in (public or {}).items()}, state,
                      frozenset(skipped), family, first, no_trump_lead_of(deal), first_trick,
                      extras, calls, getattr(deal, "binder", None) if calls else None,
                      calls_unknown, type(deal) if calls else None)


def _extras_before_each_play(deal: Deal, plays: int
                             ) -> tuple[tuple[Extras, tuple[int, int]], ...] | None:
    """Fildinsky's end game: before each of its last `plays` plays, what the
    rest of the hand could score beyond brisques and each seat's points so
    far, read from a copy of the deal taken back one action at a time (its
    own `undo`). None when the deal cannot say."""
    if extras_of(deal) is None or not deal.can_undo:
        return None
    d = copy.deepcopy(deal, {id(deal.game): deal.game})
    n = d.n
    found: dict[int, tuple[Extras, tuple[int, int]]] = {}
    start = d.tricks_per_hand * n - plays   # plays before the first one reviewed
    while d.can_undo:
        undone = d.undo()
        index = len(d.tricks) * n + len(d.trick) - start
        if getattr(undone, "action", "play") == "play" and 0 <= index < plays:
            e = extras_of(d)
            assert e is not None
            found[index] = (e, (d.points[0], d.points[1]))
        if index < 0:
            break
    if len(found) != plays:
        return None
    return tuple(found[i] for i in range(plays))


def result_of(game: Game, state: MatchState | None, points: tuple[int, int]) -> Any:
    """What the hand's points do to the match (None when the game cannot say
    without more answers, such as the masters' choice of Servant)."""
    if state is None:
        return None
    try:
        after = game.settle(state, list(points)).to_json()
    except (EngineError, ValueError, TypeError):
        return None
    if isinstance(after, dict):
        after.pop("dealer", None)
    return after


def review_double_dummy(record: HandRecord, cache: SolverCache | None = None,
                        limit: int = NODE_LIMIT) -> list[CardReview]:
    """Every play judged with all cards visible. A position that needs more
    than `limit` search nodes is not judged (Sueca's first tricks)."""
    cache = cache or SolverCache()
    out: list[CardReview] = []
    n = record.game.players
    for i, (seat, c) in enumerate(record.plays):
        if i < record.first or i in record.skipped:
            continue
        pos = record.position(i)
        try:
            a = analyse(pos, cache=cache, limit=limit)
        except SearchLimit:
            continue
        if c not in a.values:
            continue  # not a legal card by the solver's rules (a special trick)
        out.append(_judged(record, i, seat, c, a, n))
    return out


def _judged(record: HandRecord, i: int, seat: int, c: Card, a: Analysis, n: int
            ) -> CardReview:
    team = a.team
    played = a.values[c]
    total_left = a.points[0] + a.points[1]
    other = total_left - played
    after = (played, other) if team == 0 else (other, played)
    changed = False
    best_result = result_of(record.game, record.state, a.points)
    if best_result is not None:
        changed = result_of(record.game, record.state, after) != best_result
    return CardReview(i, i // n + 1, seat, c, len(a.values), tuple(a.best_cards()),
                      a.best - played, changed, value=played)


# ----- what a player could know, and deals consistent with it --------------------------


def knowledge(record: HandRecord, index: int) -> Knowledge:
    """What the player of play `index` knew then."""
    game = record.game
    n = game.players
    seat = record.plays[index][0]
    pos = record.position(index)
    played = [c for _, c in record.plays[:index]]
    own = pos.hands[seat]
    excluded = exclusions(game, record.trump, record.family, record.leader,
                          record.plays[:index], record.skipped | own_rules(record),
                          record.first)
    known: list[tuple[Card, ...]] = []
    for s in range(n):
        shown = [c for c in record.public.get(s, ()) if c not in played] if s != seat else []
        known.append(tuple(shown))
    counts = tuple(len(h) for h in pos.hands)
    unseen = _unseen(record, played, own)
    return Knowledge(seat, index, own, tuple(known), excluded, counts, tuple(unseen))


def exclusions(game: Game, trump: str | None, family: str | None, leader: int,
               plays: Sequence[tuple[int, Card]], skipped: frozenset[int] = frozenset(),
               first: int = 0) -> tuple[frozenset[Card], ...]:
    """The cards each seat is shown not to hold by its plays: a seat that
    played a card which holding some other card would have made illegal did
    not hold that other card (the game's own legal family decides; plays
    before `first` or in `skipped` teach nothing)."""
    n = game.players
    rules = solver_rules(game, trump, family)
    # Every distinct card's internal bits (two for a double pack's twins).
    bits_of = {x: tuple(rules.to_bit[slot] for slot in game.pack.slots_of(x))
               for x in game.pack.distinct_cards}
    excluded: list[set[Card]] = [set() for _ in range(n)]
    trick_bits: list[int] = []
    taken = 0
    seen: set[Card] = set()
    for j, (s, c) in enumerate(plays):
        cb = next((b for b in bits_of[c] if not taken >> b & 1), bits_of[c][0])
        if trick_bits and j not in skipped and j >= first:
            c_mask = 1 << cb
            for x, xbits in bits_of.items():
                if x in seen or x in excluded[s]:
                    continue
                xb = next((b for b in xbits if b != cb and not taken >> b & 1), -1)
                if xb < 0:
                    continue  # x cannot be held beside these cards
                if not rules.legal(c_mask | 1 << xb, trick_bits) & c_mask:
                    excluded[s].add(x)
        seen.add(c)
        taken |= 1 << cb
        trick_bits.append(cb)
        if len(trick_bits) == n:
            trick_bits = []
    return tuple(frozenset(e) for e in excluded)


def own_rules(record: HandRecord) -> frozenset[int]:
    """The plays of a trick with rules of its own: they show no void."""
    n = record.game.players
    return frozenset(i for i in range(min(n, len(record.plays))) if record.special(i))


def _unseen(record: HandRecord, played: list[Card], own: Sequence[Card]) -> list[Card]:
    rest = [c for h in record.hands for c in h]
    for c in (*played, *own):
        rest.remove(c)
    return rest


def draw_for(record: HandRecord, index: int, k: Knowledge | None = None
             ) -> Callable[[random.Random], list[list[Card]] | None]:
    """Draws of the current hands the player of play `index` could not tell
    from the real ones: consistent with what he saw (`knowledge`) and, in a
    game with calls before play, with every seat's call
    (`engine.analysis.sampling.FittingDraw`, as the bots draw them)."""
    return drawer(k or knowledge(record, index), record.fits(), record.plays[:index])


def sampled_losses(record: HandRecord, index: int, rng: random.Random, samples: int,
                   cache: SolverCache | None = None, limit: int = NODE_LIMIT
                   ) -> tuple[dict[Card, float], int]:
    """Average loss of every legal card of play `index` over `samples` deals
    consistent with what its player knew: ({card: average loss}, deals solved).
    None in a trick with rules of its own (a player on the fris has seen only
    his first three cards)."""
    if record.special(index):
        return {}, 0
    draw = draw_for(record, index)
    pos = record.position(index)
    totals: dict[Card, float] = {}
    solved = 0
    for _ in range(samples):
        hands = draw(rng)
        if hands is None:
            break
        sample = Position(pos.game, pos.trump, tuple(tuple(h) for h in hands), pos.trick,
                          pos.leader, pos.teams, pos.won, pos.family, pos.no_trump_lead)
        try:
            a = analyse(sample, cache=cache or SolverCache(limit=1), limit=limit)
        except SearchLimit:
            break
        for c, v in a.values.items():
            totals[c] = totals.get(c, 0.0) + (a.best - v)
        solved += 1
    if not solved:
        return {}, 0
    return {c: t / solved for c, t in totals.items()}, solved


def with_samples(review: CardReview, losses: Mapping[Card, float], solved: int
                 ) -> CardReview:
    """`review` with its sampled view."""
    if not solved or review.card not in losses:
        return review
    best = min(losses, key=lambda c: (losses[c], c.code))
    return replace(review, sampled_loss=losses[review.card], sampled_best=best,
                   samples=solved)


# ----- the sampled view, asking each deal only what the review needs -----------------


def played_loss(position: Position, card: Card, cache: SolverCache | None = None,
                limit: int = NODE_LIMIT, guess: int | None = None, grouped: bool = True
                ) -> tuple[int, int | None, Analysis | None]:
    """Points `card` (a legal card of the seat to play) gives away against the
    best card in `position` (all cards visible), asking only what that
    needs: the played card's exact value, then for each other legal card one
    yes/no question, "does it do better?". Cards the solver searches as one
    (`grouped`: of one hand, touching once the played cards are taken out,
    worth the same points) are worth the same: one question for each such
    class, none for the played card's own. Most played cards are a best
    card: every answer is no, and the loss is 0 (with None). At the first
    yes, every card is valued (`analyse`, its search already warm) and that
    analysis comes back with the loss. Returns (loss, the played card's
    value: the points its team ends the hand with (`guess` when no other
    card could be played instead), the analysis or None).
    `guess`: a value the played card likely has (another deal's, or the
    real deal's), to start its search from. Positions with rules of their
    own (the fris trick, Fildinsky's extras) are valued in full.
    `grouped=False` asks every other card (as the review first did; kept
    for `bench/review_bench.py`)."""
    cache = cache or SolverCache()
    if position.first_trick is not None or position.extras is not None:
        a = analyse(position, cache=cache, limit=limit)
        return a.loss(card), a.values[card], a
    seat = position.turn
    team = position.teams[seat]
    solver, rules = load(position, cache)
    legal = solver.legal()
    if grouped:
        # The solver's own classes of interchangeable cards (`card_values`
        # values each class once too).
        others = [rules.card(rep) for rep, members in solver.classes(legal)
                  if card not in {rules.card(b) for b in members}]
    else:
        others = [c for c in rules.cards_of(legal) if c != card]
    if not others:
        return 0, guess, None   # no choice: nothing given away, nothing to search
    played = _value_after(position, seat, card, team, cache, limit, guess)
    for other in others:
        if _reaches(position, seat, other, team, played + 1, cache, limit)[0]:
            a = analyse(position, cache=cache, limit=limit)
            return a.loss(card), played, a
    return 0, played, None


def _after(position: Position, seat: int, c: Card) -> Position:
    p = hands_after(position, seat, c)
    return after_trick(p) if len(p.trick) == len(p.hands) else p


def _value_after(position: Position, seat: int, c: Card, team: int, cache: SolverCache,
                 limit: int, guess: int | None = None) -> int:
    """The points `team` ends the hand with when `seat` plays `c` and
    everybody then plays best (`guess`: likely that many)."""
    p = _after(position, seat, c)
    if not any(p.hands):
        return p.won[team]
    solver, _ = load(p, cache)
    solver.stats.limit = solver.stats.nodes + limit if limit else 0
    rem = solver.rem
    hint = None
    if guess is not None:   # in side 0's points from here
        hint = guess - p.won[0] if team == 0 else p.won[1] + rem - guess
        hint = min(max(hint, 0), rem)
    v0 = solver.value(hint)
    return p.won[0] + v0 if team == 0 else p.won[1] + rem - v0


def _reaches(position: Position, seat: int, c: Card, team: int, at_least: int,
             cache: SolverCache, limit: int) -> tuple[bool, int]:
    """Does `team` end the hand with at least `at_least` points when `seat`
    plays `c` and everybody then plays best? One yes/no search, and what it
    proved on the way (fail-soft): (True, r): at least r points (r >=
    `at_least`); (False, r): at most r (r < `at_least`)."""
    p = _after(position, seat, c)
    if not any(p.hands):
        got = p.won[team]
        return got >= at_least, got
    solver, _ = load(p, cache)
    solver.stats.limit = solver.stats.nodes + limit if limit else 0
    rem = solver.rem
    # (`probe` answers a `need` of 0 or less, or above `rem`, without a search.)
    if team == 0:   # side 0 (the solver's) must take at_least - won0 of what is left
        need = at_least - p.won[0]
        r = solver.probe(need)
        return r >= need, p.won[0] + r
    # side 1 takes what side 0 cannot: side 0 held to rem - (at_least - won1)
    need = p.won[1] + rem - at_least + 1   # side 0 taking this many stops side 1
    r = solver.probe(need)
    # r >= need: side 0 takes at least r, side 1 at most won1 + rem - r.
    return r < need, p.won[1] + rem - r


@dataclass
class SampledLoss:
    """One card's sampled view as it grows, a deal at a time: its loss over
    every deal solved (`deals`), and, over the deals where it was not a
    best card (`valued`, where every card was valued), every card's loss."""

    card: Card
    deals: int = 0
    total: float = 0.0
    valued: int = 0
    others: dict[Card, float] = field(default_factory=dict)

    @property
    def loss(self) -> float:
        return self.total / self.deals if self.deals else 0.0

    @property
    def best(self) -> Card | None:
        """The fair best card: the played card when it was a best card in
        every deal; else the card that gave away least over the deals where
        the played card was not best."""
        if not self.deals:
            return None
        if not self.valued:
            return self.card
        return min(self.others, key=lambda c: (self.others[c], c.code))


class CardSampler:
    """Deals consistent with what the player of play `index` knew, solved one
    at a time (`solve`) with the cheap question (`played_loss`); the solver
    cache (and its transposition table) serves every deal."""

    def __init__(self, record: HandRecord, index: int, cache: SolverCache | None = None,
                 limit: int = NODE_LIMIT, guess: int | None = None, grouped: bool = True
                 ) -> None:
        self.record = record
        self.index = index
        self.card = record.plays[index][1]
        self.cache = cache or SolverCache(limit=1)
        self.limit = limit
        self.special = record.special(index)
        self.knowledge = None if self.special else knowledge(record, index)
        #: Where this card's deals come from (`draw_for`).
        self.draw = None if self.knowledge is None else draw_for(record, index,
                                                                   self.knowledge)
        self.position = record.position(index)
        self.result = SampledLoss(self.card)
        #: The value the next deal's search starts from (`played_loss`):
        #: the real deal's at first (`guess`), then the last deal's.
        self._guess = guess
        self.grouped = grouped

    def solve(self, rng: random.Random) -> bool:
        """Draw and solve one more deal (False: no deal could be drawn, the
        search passed its node limit, or a trick with rules of its own)."""
        if self.draw is None:
            return False
        hands = self.draw(rng)
        return hands is not None and self.solve_hands(hands)

    def solve_hands(self, hands: Sequence[Sequence[Card]]) -> bool:
        """Solve the deal with these current hands (one more deal of the
        view; False: the search passed its node limit)."""
        pos = self.position
        sample = Position(pos.game, pos.trump, tuple(tuple(h) for h in hands), pos.trick,
                          pos.leader, pos.teams, pos.won, pos.family, pos.no_trump_lead)
        try:
            loss, value, a = played_loss(sample, self.card, self.cache, self.limit,
                                         self._guess, self.grouped)
        except SearchLimit:
            return False
        self._guess = value
        r = self.result
        r.deals += 1
        r.total += loss
        if a is not None:
            r.valued += 1
            for c, v in a.values.items():
                r.others[c] = r.others.get(c, 0.0) + (a.best - v)
        return True


def with_sampled(review: CardReview, sampled: SampledLoss) -> CardReview:
    """`review` with its sampled view (from `CardSampler`)."""
    best = sampled.best
    if not sampled.deals or best is None:
        return review
    return replace(review, sampled_loss=sampled.loss, sampled_best=best,
                   samples=sampled.deals)
