"""The end game of a two-player hand whose tricks score more than their card
points (Fildinsky: the deece, the last-trick bonus, melds declared after a
trick won), searched exactly with every card visible.

Extra points are not a fixed total (a meld adds points nobody else loses),
so each player plays for the **margin**: his points minus the other's. The
game says what a trick can score beyond its card points, and what its
winner may choose then (which melds to declare), through an object with a
`choices(state, number, leader, cards, winner)` method (Fildinsky's
`EndgameScoring`, `engine.games.fildinsky.endgame`) and a state of its own
(unused won cards, Sevens that already scored). The play itself (legal
cards, who wins a trick, card points) comes from the game's rules, renumbered
as for the solver (`engine.analysis.rules`).

The search tries every legal card (one of two identical cards, one of cards
the extras call plain that nothing of the other side separates), every
choice of the trick's winner, and remembers each position at a trick's start
by its exact cards, leader and scoring state, the state reduced to what can
still score with the cards still out (the extras' `relevant`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from functools import partial
from typing import Any, Protocol

from engine import BadRequest, Card
from engine.analysis.rules import SolverRules, solver_rules
from engine.analysis.solver import SearchLimit


class TrickExtras(Protocol):
    """What a game's tricks score beyond their card points (see the module
    docstring)."""

    def choices(self, state: Any, number: int, leader: int, cards: Sequence[Card],
                winner: int) -> Sequence[tuple[int, Any]]: ...

    def plain_cards(self, cards: Sequence[Card]) -> list[Card]:
        """The cards of `cards` that score nothing but their card points,
        whoever plays or wins them."""
        ...

    def cards_out(self, cards: Sequence[Card]) -> Hashable:
        """What `relevant` needs to know of the cards still to be played."""
        ...

    def relevant(self, state: Any, out: Any) -> Hashable:
        """`state` with what can no longer score dropped, `out` being what
        `cards_out` says of the cards still to be played: two states with
        the same answer score the rest of the hand alike."""
        ...


#: A game's extras and where the hand stands (its state, hashable).
Extras = tuple[TrickExtras, Hashable]

#: (margin for side 0, side 0's points, side 1's points) from a position on.
Line = tuple[int, int, int]

_INF = 1 << 30


def _take(maxi: bool, got: Line, best: Line | None, alpha: int, beta: int
          ) -> tuple[Line, int, int]:
    """One tried move's line against the best so far: the better of the two
    for the side to choose (`maxi`: team 0), and the window narrowed by it."""
    v = got[0]
    if best is None or (v > best[0] if maxi else v < best[0]):
        best = got
    if maxi:
        return best, max(alpha, v), beta
    return best, alpha, min(beta, v)


class ExtrasSearch:
    """The search for one position's game, trumps, family and extras."""

    def __init__(self, game: Any, trump: str | None, family: str | None,
                 teams: Sequence[int], extras: TrickExtras, tricks: int,
                 limit: int = 0) -> None:
        if len(teams) != 2:
            raise BadRequest("the end game with extra points is searched for two players")
        self.rules: SolverRules = solver_rules(game, trump, family)
        self.teams = tuple(teams)
        self.extras = extras
        self.tricks = tricks
        self.memo: dict[tuple[int, int, int, Hashable], Line] = {}
        self.bounds: dict[tuple[int, int, int, Hashable], tuple[int, int]] = {}
        #: The extras' answers, by (state, trick number, leader, the two cards).
        self.options: dict[tuple[Hashable, int, int, int, int],
                           tuple[tuple[int, Any], ...]] = {}
        #: The extras' `relevant` states, by (state, `cards_out`), and
        #: `cards_out` by the mask of the cards out.
        self.reduced: dict[tuple[Hashable, Hashable], Hashable] = {}
        self.outs: dict[int, Hashable] = {}
        #: Legal moves by (hand, card led or -1, the other cards out).
        self.legal: dict[tuple[int, int, int], list[int]] = {}
        #: The bits of the cards that score nothing but their card points.
        self.plain = self.rules.mask_of(extras.plain_cards(self.rules.game.pack.cards))
        self.nodes = 0
        #: Raise `SearchLimit` once `nodes` passes this (0: no limit).
        self.limit = limit

    # ----- moves ---------------------------------------------------------------

    def moves(self, hand: int, trick: Sequence[int], others: int = 0) -> list[int]:
        """The legal bits of `hand`, one of each class of `classes`."""
        lk = (hand, trick[0] if trick else -1, others)
        found = self.legal.get(lk)
        if found is None:
            found = self.legal[lk] = list(dict.fromkeys(self.classes(hand, trick, others)
                                                        .values()))
        return found

    def classes(self, hand: int, trick: Sequence[int], others: int) -> dict[int, int]:
        """Every legal bit of `hand` and the bit that stands for it: two
        identical cards are one, and so are cards interchangeable with
        `others` (the other hand's cards and the trick's) the only cards they
        meet: cards of one suit worth the same points that score nothing
        else (the extras' `plain_cards`), with no card of `others` between
        them."""
        rules = self.rules
        legal = rules.legal(hand, trick)
        apart = others | rules.guards
        for b in trick:
            apart |= 1 << b
        plain = self.plain
        points = rules.points
        out: dict[int, int] = {}
        seen: dict[Card, int] = {}
        last = -1
        while legal:
            low = legal & -legal
            b = low.bit_length() - 1
            legal ^= low
            if (last >= 0 and plain >> b & 1 and plain >> last & 1
                    and points[b] == points[last]
                    and not apart & (low - (2 << last))):
                out[b] = out[last]   # interchangeable with the card before it
            else:
                out[b] = seen.setdefault(rules.card(b), b)
            last = b
        return out

    def relevant(self, state: Hashable, out: int) -> Hashable:
        """`state` as it matters with the cards `out` (a mask) still to play."""
        o = self.outs.get(out)
        if o is None:
            o = self.outs[out] = self.extras.cards_out(self.rules.cards_of(out))
        k = (state, o)
        found = self.reduced.get(k)
        if found is None:
            found = self.reduced[k] = self.extras.relevant(state, o)
        return found

    def _sign(self, seat: int) -> int:
        return 1 if self.teams[seat] == 0 else -1

    # ----- the search ----------------------------------------------------------
    #
    # Alpha-beta on side 0's margin: a window (alpha, beta) of margins that
    # still matter. A result inside its window is exact (kept in `memo` with
    # its line); one outside is only a bound (kept in `bounds`), and its line
    # is never used: only exact results reach the root (searched with an
    # open window, or by `_exact`).

    def boundary(self, hands: tuple[int, int], leader: int, state: Hashable,
                 alpha: int = -_INF, beta: int = _INF) -> Line:
        """The best line from the start of a trick."""
        if not hands[0] and not hands[1]:
            return 0, 0, 0
        key = (hands[0], hands[1], leader, state)
        found = self.memo.get(key)
        if found is not None:
            return found
        lo, hi = self.bounds.get(key, (-_INF, _INF))
        if lo >= beta:
            return lo, 0, 0
        if hi <= alpha:
            return hi, 0, 0
        # Margins are whole points: a window one point wider than the known
        # bounds finds a value equal to a bound exact (a window narrowed to
        # the bounds themselves could be empty, and its answer meaningless).
        a0, b0 = max(alpha, lo - 1), min(beta, hi + 1)
        a, b = a0, b0
        maxi = self.teams[leader] == 0
        best: Line | None = None
        for m in self.moves(hands[leader], (), hands[1 - leader]):
            got = self.follow(hands, leader, state, m, a, b)
            best, a, b = _take(maxi, got, best, a, b)
            if a >= b:
                break
        assert best is not None
        v = best[0]
        if a0 < v < b0:
            self.memo[key] = best
        elif v <= a0:
            self.bounds[key] = (lo, min(hi, v))
        else:
            self.bounds[key] = (max(lo, v), hi)
        return best

    def follow(self, hands: tuple[int, int], leader: int, state: Hashable, lead: int,
               alpha: int = -_INF, beta: int = _INF) -> Line:
        """The best line once the leader has led `lead`."""
        other = 1 - leader
        maxi = self.teams[other] == 0
        best: Line | None = None
        for m in self.moves(hands[other], (lead,), hands[leader]):
            got = self.close(hands, leader, state, lead, m, alpha, beta)
            best, alpha, beta = _take(maxi, got, best, alpha, beta)
            if alpha >= beta:
                break
        if best is None:
            raise BadRequest(f"seat {other} has no card to play")
        return best

    def close(self, hands: tuple[int, int], leader: int, state: Hashable, lead: int,
              second: int, alpha: int = -_INF, beta: int = _INF) -> Line:
        """The best line once both cards of the trick are down: the trick's
        points and the winner's best choice of extras, then the rest."""
        self.nodes += 1
        if self.limit and self.nodes > self.limit:
            raise SearchLimit(self.nodes)
        rules = self.rules
        kt = rules.keytab[rules.tables.eff[lead]]
        winner = 1 - leader if kt[second] > kt[lead] else leader
        left = [hands[0], hands[1]]
        left[leader] &= ~(1 << lead)
        left[1 - leader] &= ~(1 << second)
        rest = (left[0], left[1])
        number = self.tricks - rest[leader].bit_count()
        pts = rules.points[lead] + rules.points[second]
        ck = (state, number, leader, lead, second)
        options = self.options.get(ck)
        if options is None:
            cards = (rules.card(lead), rules.card(second))
            got_options = self.extras.choices(state, number, leader, cards, winner)
            # The richest choice first: it usually decides.
            options = self.options[ck] = tuple(sorted(got_options, key=lambda o: -o[0]))
        maxi = self.teams[winner] == 0
        best: Line | None = None
        out = rest[0] | rest[1]
        for extra, after in options:
            after = self.relevant(after, out)
            gain = pts + extra
            shift = gain if maxi else -gain
            m, x0, x1 = self.boundary(rest, winner, after, alpha - shift, beta - shift)
            got = (m + gain, x0 + gain, x1) if maxi else (m - gain, x0, x1 + gain)
            best, alpha, beta = _take(maxi, got, best, alpha, beta)
            if alpha >= beta:
                break
        assert best is not None
        return best


def _exact(search: Callable[[int, int], Line], guess: int | None) -> Line:
    """The exact line of `search(alpha, beta)` (an alpha-beta search of one
    move): with no `guess`, one search with an open window; else a series
    of searches with empty windows (does the margin reach beta?) from the
    guess on, each narrowing the margin's bounds (MTD(f)), then one with a
    window of the margin alone, which returns its line."""
    if guess is None:
        return search(-_INF, _INF)
    lo, hi = -_INF, _INF
    g = guess
    while lo < hi:
        beta = g + 1 if g == lo else g
        g = search(beta - 1, beta)[0]
        if g < beta:
            hi = g
        else:
            lo = g
    line = search(lo - 1, lo + 1)
    assert line[0] == lo, (line, lo)
    return line


def search_extras(game: Any, trump: str | None, family: str | None, teams: Sequence[int],
                  extras: Extras, hands: Sequence[Sequence[Card]], trick: Sequence[Card],
                  leader: int, limit: int = 0, search: ExtrasSearch | None = None
                  ) -> tuple[int, Line, dict[Card, Line]]:
    """(the seat to play, the best line from the position, the line after each
    of its legal cards). With a `limit`, more search nodes than that raise
    `SearchLimit`. `search`: one made for the same game, trumps, family,
    teams and scoring, whose tables serve again."""
    scoring, state = extras
    if search is None:
        search = ExtrasSearch(game, trump, family, teams, scoring, game.tricks_per_hand)
    search.limit = search.nodes + limit if limit else 0
    rules = search.rules
    taken = 0
    masks = []
    for h in hands:
        m = rules.mask_of(h, taken)
        taken |= m
        masks.append(m)
    if len(masks) != 2:
        raise BadRequest("the end game with extra points is searched for two players")
    if len(trick) > 1:
        raise BadRequest("a trick of two players has at most one card down")
    start = (masks[0], masks[1])
    lead_bits = [rules.mask_of([c], taken).bit_length() - 1 for c in trick]
    out = start[0] | start[1]
    for b in lead_bits:
        out |= 1 << b
    state = search.relevant(state, out)
    seat = leader if not trick else 1 - leader
    lines: dict[int, Line] = {}
    guess: int | None = None
    classes = search.classes(start[seat], lead_bits, start[1 - seat])
    for b in dict.fromkeys(classes.values()):
        if trick:
            line = _exact(partial(search.close, start, leader, state, lead_bits[0], b), guess)
        else:
            line = _exact(partial(search.follow, start, leader, state, b), guess)
        lines[b] = line
        guess = line[0]
    values = {rules.card(b): lines[rep] for b, rep in classes.items()}
    if not values:
        raise BadRequest(f"seat {seat} has no card to play")
    sign = search._sign(seat)
    best = max(values.values(), key=lambda line: line[0] * sign)
    return seat, best, values

