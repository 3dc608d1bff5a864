"""The perfect-information (double dummy) solver: all cards visible, what is
the most each side can force from here?

It searches the rest of the hand with every card known, through the game's
own rules (`engine.analysis.rules`), for two sides: *side 0* (the seats whose
team is 0) maximises its card points, side 1 minimises them. Every trick's
points go to one side, so side 1's best is what side 0 cannot stop it taking.

The techniques (each measured in bench/solver_bench.py):

* **yes/no searches**: `boundary(need)` answers "can side 0 still take
  `need` points?"; the exact value is a binary search on `need`. The answers
  are *fail-soft*: a yes comes with the most points the search proved
  reachable, a no with the fewest it proved out of reach, so a question
  often settles more than one value of `need`. `Solver.value(guess)` asks
  about the guess and one point beside it before halving (each card's value
  at the root starts from the previous card's).
* **sure points** (`engine.analysis.bounds`): before a new position is
  searched, the points of the top trumps one side holds bound its value
  from both sides; a question outside those bounds is answered at once.
* **a transposition table at trick boundaries**, keyed by the cards
  *renumbered by their rank among the cards still out*: which cards were
  played does not matter, only who holds the 1st, 2nd, ... card of each suit
  still out, what it is worth, and who leads. It stores bounds (lower,
  upper) on side 0's points from that position, so answers carry over from
  one `need` to the next and from one card's analysis to the next.
* **equivalent cards**: two cards of one hand with only played cards between
  them (in power order, same effective suit) and the same points are
  interchangeable; only one of them is searched.
* **a lead restriction** (`no_trump_lead`, 20-card Filcău's rule 8): one
  seat, leading with a given number of cards (the lead to trick 2), may not
  lead a trump while it holds another card. Every position of that search
  with that seat to lead at that depth is under the rule, so the table stays
  consistent (a solver is made per restriction).
* **the last two tricks** are searched by a lean yes/no search of their
  own (`E0_S` in the generated search: no move ordering, no table, the
  last trick forced). Positions with at most `RAW_CARDS` cards a hand,
  and every position of a search loaded with at most `SMALL_TRICKS` cards
  a hand, keep their bounds by raw position instead of the table (few of
  them recur: the renumbered key costs more than it saves).
* **move ordering**: the leader tries the top remaining card of a suit first,
  then low cards; a follower whose side is winning gives points, one whose
  side is losing wins as cheaply as it can, or else throws its least. Each
  node's ordered moves are remembered by what decides that order, and the
  remembered order **learns from the cut-offs**: when a move other than the
  first refutes a node, it moves to the front of its memo entry, so the
  next node of the same kind (the same legal cards, played cards beside
  them, cards that would win the trick, side winning it) tries it first, in
  every later question of the solver (bench/solver_ab.py against the static
  order: whole Filicău deals 1.28 times fewer nodes, 1.22 times fewer CPU
  seconds); and a node whose memo entry is new tries first the move that
  last refuted a node with the same legal cards (1.04 times fewer nodes in
  Filicău, 1.10 in Filkó). The answers never depend on it; the work a
  question takes may depend on what the solver was asked before.
* **a search written per shape** (`engine.analysis.searchcode`): the trick
  play and the trick boundary are generated once per number of seats,
  seating of sides, kind of legal family, lead rule and trumps, one function
  per position in the trick and seat, so a node asks none of those
  questions; the position's state travels in the calls' arguments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.analysis.bounds import sure_points
from engine.analysis.rules import SolverRules
from engine.analysis.searchcode import Shape, search_factory
from engine.cards import TRUMP
from engine.legal import BY_LED_SUIT, follow_table, legal_mask

#: Above this many entries the transposition table starts again.
TT_LIMIT = 2_000_000


class SearchLimit(Exception):  # noqa: N818 (a limit reached, not a fault)
    """The search visited more nodes than its limit allows."""


@dataclass
class Stats:
    """Work done by a solver since it was made (or since `reset`)."""

    nodes: int = 0
    probes: int = 0
    hits: int = 0
    #: Raise `SearchLimit` once `nodes` passes this (0: no limit).
    limit: int = 0

    @property
    def hit_rate(self) -> float:
        return self.hits / self.probes if self.probes else 0.0


class Solver:
    """A solver for one game, trump and seating of teams (`teams[seat]` is 0
    or 1). Its transposition table is kept between calls: positions are keyed
    absolutely, so any question about the same deal (another card, a later
    position, a larger `need`) reuses what was learnt."""

    def __init__(self, rules: SolverRules, teams: Sequence[int],
                 no_trump_lead: tuple[int, int] | None = None) -> None:
        self.rules = rules
        self.n = len(teams)
        self.teams = tuple(teams)
        self.side0 = tuple(t == 0 for t in teams)
        self.no_trump_lead = no_trump_lead
        everything = 0
        for m in rules.tables.suit_mask:
            everything |= m
        self._everything = everything
        self._point_masks = tuple((rules.points[pm.bit_length() - 1], pm)
                                  for pm in rules.point_masks)
        # A search of a dropped solver of the same rules, sides and lead
        # rule, emptied (`_Search.reset`), or a new one: binding the
        # generated functions (and collecting the reference cycles they
        # make) was most of a solver's set-up.
        self._pool_key = (id(rules), self.side0, no_trump_lead)
        s = None
        pool = _POOL.get(self._pool_key)
        if pool:
            try:
                s = pool.pop()
            except IndexError:  # (another thread took it)
                s = None
        if s is None or s.rules is not rules:
            s = _Search(rules, self.side0, {}, Stats(), no_trump_lead)
        self._s = s
        self.tt: dict[int, tuple[int, int]] = s.tt
        self.stats: Stats = s.stats

    def __del__(self) -> None:
        # The search goes back to the pool, emptied: the next solver of the
        # same rules, sides and lead rule starts from it as from a new one.
        try:
            s = self._s
            s.reset()
            pool = _POOL.get(self._pool_key)
            if pool is None:
                if len(_POOL) >= _POOL_KEYS:
                    _POOL.clear()
                pool = _POOL[self._pool_key] = []
            if len(pool) < _POOL_SIZE:
                pool.append(s)
        except Exception:  # noqa: BLE001, S110 (at interpreter exit: nothing to keep)
            pass

    def legal(self) -> int:
        """The legal cards (bits) of the seat to play."""
        s = self._s
        seat = self.turn
        legal = self.rules.legal(s.hands[seat], s.trick)
        return _lead_rule(self.no_trump_lead, self.rules, seat, s.hands[seat], s.trick, legal)

    # ----- the position -------------------------------------------------------------

    def load(self, hands: Sequence[int], trick: Sequence[int], leader: int) -> None:
        """Set the position: each seat's cards (internal bits), the trick so far
        (bits, leader first), the seat that led it."""
        if len(hands) != self.n:
            raise ValueError(f"expected {self.n} hands, got {len(hands)}")
        out = 0
        most = 0
        for h in hands:
            out |= h
            most = max(most, h.bit_count())
        for b in trick:
            out |= 1 << b
        rem = 0
        for value, mask in self._point_masks:
            rem += value * (out & mask).bit_count()
        s = self._s
        s.hands[:] = hands
        s.trick = list(trick)
        s.leader = leader
        s.gone = self._everything & ~out
        s.rem = rem
        s.small = most <= SMALL_TRICKS

    @property
    def hands(self) -> list[int]:
        return self._s.hands

    @property
    def trick(self) -> list[int]:
        return self._s.trick

    @property
    def leader(self) -> int:
        return self._s.leader

    @property
    def rem(self) -> int:
        """The points still out, the current trick's included."""
        return self._s.rem

    @property
    def turn(self) -> int:
        s = self._s
        return (s.leader + len(s.trick)) % self.n

    # ----- public questions -------------------------------------------------------

    def probe(self, need: int) -> int:
        """The fail-soft answer to "can side 0 take `need`?": a result r >=
        need says side 0 can take at least r of the points still out, r <
        need that it can take at most r."""
        s = self._s
        if need <= 0:
            return 0
        if need > s.rem:
            return s.rem
        if not s.trick:
            return s.boundary(need)
        led, bseat, bkey, tpts = self._trick_state()
        return s.play(self.turn, need, led, bseat, bkey, tpts)

    def value(self, guess: int | None = None) -> int:
        """Side 0's points from here under best play by both sides. With a
        `guess` (a value likely to be right, such as another card's), the
        first questions are "at least `guess`?" and then one point either
        side of it, before halving what is left."""
        s = self._s
        lo, hi = 0, s.rem
        if not s.trick and self.tt:
            # (An empty table, as in a new solver, is not worth the key.)
            found = self.tt.get(s.key())
            if found is not None:
                lo, hi = max(lo, found[0]), min(hi, found[1])
        elif not s.trick and s.small:
            # A small search bounds no position by its top trumps: the root's.
            lo, hi = s.sure()
        steps = 0 if guess is None else _GUESS_STEPS
        need = guess
        while lo < hi:
            if steps and need is not None:
                steps -= 1
                need = min(max(need, lo + 1), hi)
            else:
                need = (lo + hi + 1) // 2
            r = self.probe(need)
            if r >= need:
                lo = r
                need = r + 1
            else:
                hi = r
                need = r
        return lo

    def card_values(self) -> dict[int, int]:
        """For every legal card of the seat to play (an internal bit): side
        0's points from here if it is played and both sides then play best."""
        seat = self.turn
        legal = self.legal()
        out: dict[int, int] = {}
        guess: int | None = None
        for rep, members in self.classes(legal):
            v = self._value_after(seat, rep, guess)
            guess = v
            for b in members:
                out[b] = v
        return out

    # ----- playing a card at the root ----------------------------------------------

    def _value_after(self, seat: int, b: int, guess: int | None = None) -> int:
        s = self._s
        saved = (s.hands[seat], list(s.trick), s.leader, s.gone, s.rem)
        s.hands[seat] &= ~(1 << b)
        s.trick.append(b)
        got = 0
        if len(s.trick) == self.n:
            _, bseat, _, tpts = self._trick_state()
            tb = 0
            for x in s.trick:
                tb |= 1 << x
            s.gone |= tb
            s.rem -= tpts
            s.leader = bseat
            s.trick = []
            if self.side0[bseat]:
                got = tpts
        try:
            return got + self.value(None if guess is None else guess - got)
        finally:
            s.hands[seat], s.trick, s.leader, s.gone, s.rem = saved

    def _trick_state(self) -> tuple[int, int, int, int]:
        """(led effective suit, winning seat, its key, points) of the trick so far."""
        s = self._s
        trick = s.trick
        key = self.rules.tables.key
        led = self.rules.tables.eff[trick[0]]
        bseat, bkey, tpts = -1, -2, 0
        for i, b in enumerate(trick):
            k = key(b, led)
            if k > bkey:
                bseat, bkey = (s.leader + i) % self.n, k
            tpts += self.rules.points[b]
        return led, bseat, bkey, tpts

    def classes(self, legal: int) -> list[tuple[int, list[int]]]:
        """The legal cards grouped into interchangeable classes: (searched
        card, every card of its class)."""
        x = legal | self._s.gone
        pts = self._s.gkey
        out: list[tuple[int, list[int]]] = []
        m = legal
        while m:
            low = m & -m
            run = x & ~(x + low)
            cards = run & legal
            m &= ~run
            groups: dict[int, list[int]] = {}
            while cards:
                c = cards & -cards
                b = c.bit_length() - 1
                groups.setdefault(pts[b], []).append(b)
                cards ^= c
            for members in groups.values():
                out.append((members[-1], members))
        return out


class _Search:
    """The search proper: the position it works on and the recursive yes/no
    search over it, written for speed (tables bound to locals, no method
    lookups in the loop; the trick play and trick boundaries generated per
    shape by `engine.analysis.searchcode`). Its interface: `hands`, `trick`,
    `leader`, `gone`, `rem`, `small` (the position loaded), `key()`,
    `boundary(need)` and `play(seat, need, led, bseat, bkey, tpts)`."""

    def __init__(self, rules: SolverRules, side0: tuple[bool, ...],
                 tt: dict[int, tuple[int, int]], stats: Stats,
                 no_trump_lead: tuple[int, int] | None = None) -> None:
        n = len(side0)
        self.rules = rules
        self.tt = tt
        self.stats = stats
        self.hands: list[int] = [0] * n
        self.trick: list[int] = []
        self.leader = 0
        self.gone = 0
        self.rem = 0
        self.small = False
        tables = rules.tables
        family, undertrump = rules.family, rules.undertrump
        eff = tables.eff
        power = tables.power
        points = rules.points
        above = rules.above
        guards = rules.guards
        tie = _ties(rules)
        # Cards of one run are interchangeable when they score the same; in a
        # double pack only identical cards are (a twin held elsewhere ties
        # with one and beats the other).
        gkey = tables.power if tie else points
        self.gkey = gkey
        # The game's own trick-winning key, tabulated per led effective suit.
        nbits = len(eff)
        if nbits > _MOVE_BITS:
            raise ValueError(f"{nbits} card bits: the solver handles at most {_MOVE_BITS}")
        keytab = rules.keytab
        # A lead restriction (20-card Filcău's rule 8): this seat, leading
        # with this many cards, may not lead a trump while it holds another.
        ntl_seat, ntl_cards = no_trump_lead if no_trump_lead is not None else (-1, -1)
        plain = ~tables.suit_mask[TRUMP]
        trumps = tables.suit_mask[TRUMP]
        # The follower's legal cards by led suit, for the families that
        # decide by the led suit alone (the game's own table).
        follow = follow_table(family, tables) if family in BY_LED_SUIT else None
        hands = self.hands
        me = self
        beats, suit_masks = _beats(rules)
        # The ordered moves of a node, by what decides them (`play`), and
        # the move that last refuted a node, by its legal cards: both learn
        # from the search's cut-offs (`searchcode._learn`).
        orders: dict[int, tuple[int, ...]] = {}
        learnt: dict[int, int] = {}

        # The renumbered key (see `_key_tables`): per 8-bit chunk of the cards
        # still out, one lookup gives their classes, one per hand their seat.
        chunk_tabs, spread, wcount = _key_tables(rules, n)
        seats = tuple(enumerate(range(1, n)))
        memo: dict[int, int] = {}
        ends: dict[int, tuple[int, int]] = {}
        # Every table the search fills, emptied by `reset`.
        self._tables = (tt, ends, orders, learnt, memo)

        def key_of(raw: int, leader: int) -> int:
            # The renumbered key of the raw position `raw` (the leader, then
            # each hand, `nbits` bits each) led by `leader`, remembered: the
            # searches for each `need` revisit them.
            k = memo.get(raw)
            if k is not None:
                return k
            u = guards
            for h in hands:
                u |= h
            u2 = u << 1
            k = 0
            pos = 0
            for sh, classes in chunk_tabs:
                c = (u >> sh) & 255
                if c:
                    cs = c << 8
                    block = classes[(u2 >> sh) & 511]
                    for i, code in seats:
                        block += spread[cs | ((hands[i] >> sh) & 255)] * code
                    k |= block << pos
                    pos += wcount[c]
            k = k << 4 | leader
            if len(memo) > 500_000:
                memo.clear()
            memo[raw] = k
            return k

        def order_moves(legal: int, gone: int, kind: int, led: int, bkey: int) -> tuple[int, ...]:
            # One card per class of interchangeable cards, best guesses first
            # (a score times _MOVES plus the card's bit, sorted). `kind`: 0
            # the lead, 1 a follower whose side is winning the trick, 2 one
            # whose side is losing it.
            x = legal | gone
            scored: list[int] = []
            m = legal
            kt = keytab[led] if kind else power
            while m:
                low = m & -m
                run = x & ~(x + low)
                cards = run & legal
                m &= ~run
                seen = -1
                while cards:
                    top = cards.bit_length() - 1
                    cards ^= 1 << top
                    g = gkey[top]
                    if g == seen:
                        continue
                    seen = g
                    if kind == 0:
                        if above[top] & ~gone == 0:
                            scored.append((10_000 + power[top]) * _MOVES + top)
                        else:
                            scored.append(top - power[top] * _MOVES)
                        continue
                    p = points[top] * 10_000
                    if kind == 1:
                        scored.append((p - power[top]) * _MOVES + top)
                    elif kt[top] > bkey:
                        scored.append((1_000_000 + p - power[top]) * _MOVES + top)
                    else:
                        scored.append(top - (p + power[top]) * _MOVES)
            scored.sort(reverse=True)
            return tuple([v & _MOVE_MASK for v in scored])

        # The search proper: generated per shape (`engine.analysis.searchcode`).
        shape = Shape(side0, follow is not None, ntl_seat, trumps != 0)
        bounds, plays = search_factory(shape)(
            hands=hands, me=me, stats=stats, tt=tt, ends=ends, orders=orders, learnt=learnt,
            order_moves=order_moves, key_of=key_of, sure_points=sure_points,
            keytab=keytab, eff=eff, power=power, points=points, beats=beats,
            suit_masks=suit_masks, follow=follow, family=family, tables=tables,
            undertrump=undertrump, legal_mask=legal_mask, plain=plain, ntl_cards=ntl_cards,
            trumps=trumps, tie=tie, side0=side0, nbits=nbits, SearchLimit=SearchLimit,
            TT_LIMIT=TT_LIMIT, RAW_CARDS=RAW_CARDS)

        def key() -> int:
            # The renumbered key of the position loaded.
            raw = me.leader
            for h in hands:
                raw = (raw << nbits) | h
            return key_of(raw, me.leader)

        def boundary(need: int) -> int:
            # Fail-soft: a result r >= need says side 0 can take at least r
            # of the points still out; r < need says at most r.
            if need <= 0:
                return 0
            rem = me.rem
            if need > rem:
                return rem
            return bounds[me.leader](need, me.gone, rem)

        def play(seat: int, need: int, led: int, bseat: int, bkey: int, tpts: int) -> int:
            # Fail-soft like `boundary`, for the points from the start of
            # this trick (its own cards included), `seat` to play to the
            # trick loaded (`led`, the winning seat `bseat` and its key
            # `bkey`, its points `tpts`).
            trick = me.trick
            if not trick:
                return plays[0][seat](need, me.gone, me.rem)
            tb = 0
            for x in trick:
                tb |= 1 << x
            return plays[len(trick)][seat](need, led, bseat, bkey, tpts, me.gone, me.rem, tb)

        def sure() -> tuple[int, int]:
            # Side 0's points from the position loaded (a trick boundary) are
            # at least its sure points and at most the rest less the other's.
            if not trumps:
                return 0, me.rem
            sure0, sure1 = sure_points(trumps, tie, points, hands, side0)
            return sure0, me.rem - sure1

        self.sure = sure
        self.key = key
        self.boundary = boundary
        self.play = play

    def reset(self) -> None:
        """Empty every table and the counts: as good as a new search."""
        for table in self._tables:
            table.clear()
        stats = self.stats
        stats.nodes = stats.probes = stats.hits = stats.limit = 0
        self.trick = []


#: Emptied searches of dropped solvers, by (rules' identity, sides, lead
#: rule) (`Solver.__init__`): at most `_POOL_SIZE` for each of at most
#: `_POOL_KEYS` keys (an emptied search of six seats holds ≈ 28 KiB: at
#: most ≈ 3.5 MiB in all). A pooled search holds its rules, so their
#: identity is not reused while it waits.
_POOL: dict[tuple[int, tuple[bool, ...], tuple[int, int] | None], list[_Search]] = {}
_POOL_SIZE = 4
_POOL_KEYS = 32

#: A move's bit fits in this many bits of a sort key.
_MOVE_BITS = 128
_MOVES = _MOVE_BITS
_MOVE_MASK = _MOVE_BITS - 1
#: A search loaded with at most this many cards a hand skips the table,
#: keeping the bounds of all its positions by raw position
#: (bench/solver_ab.py: endings of 4 tricks 1.1-1.25x fewer CPU seconds than
#: with the table from 3 cards up, 1.03-1.07x more nodes).
SMALL_TRICKS = 4
#: A position whose hands hold at most this many cards keeps its bounds by
#: raw position, in every search: its renumbered key costs more than the
#: transpositions it finds (bench/solver_ab.py against the table there:
#: whole Filicău deals 1.13x fewer CPU seconds, 1.25x more nodes; 4: also
#: 1.13x, 1.39x more nodes).
RAW_CARDS = 3
#: Questions asked next to a guess before halving (`Solver.value`).
_GUESS_STEPS = 2


def _pext8() -> list[int]:
    """`pext8[(u << 8) | h]`: the bits of `h` picked out by `u` and packed
    low (for 8-bit `u` and `h` a subset of `u`)."""
    global _PEXT8
    if _PEXT8 is None:
        table = [0] * 65536
        for u in range(256):
            places = [i for i in range(8) if u >> i & 1]
            h = u
            while True:
                v = 0
                for j, i in enumerate(places):
                    if h >> i & 1:
                        v |= 1 << j
                table[(u << 8) | h] = v
                if h == 0:
                    break
                h = (h - 1) & u
        _PEXT8 = table
    return _PEXT8


_PEXT8: list[int] | None = None


def _lead_rule(rule: tuple[int, int] | None, rules: SolverRules, seat: int, hand: int,
               trick: Sequence[int], legal: int) -> int:
    """`legal` under a no-trump-lead rule (seat, cards in hand) of the position."""
    if rule is None or trick or seat != rule[0] or hand.bit_count() != rule[1]:
        return legal
    plain = legal & ~rules.tables.suit_mask[TRUMP]
    return plain or legal


#: The tables of the renumbered key (`_key_tables`).
_KeyTables = tuple[tuple[tuple[int, list[int]], ...], list[int], list[int]]
#: Per renumbered rules (by identity) and number of seats: the key's tables,
#: shared by every solver of those rules.
_KEYS: dict[tuple[int, int], tuple[SolverRules, _KeyTables]] = {}
#: `spread` tables by card width (`_key_tables`).
_SPREAD: dict[int, list[int]] = {}


def _key_tables(rules: SolverRules, n: int) -> _KeyTables:
    """The tables of the renumbered transposition key for `n` seats.

    The key lists the cards still out (the guard bits always among them),
    lowest bit first, `w` bits a card: its seat's code (seat i < n - 1 is
    i + 1, the last seat 0), its class (its points' rank among the point
    values, or "guard") and, in a double pack, whether the card below it
    (its identical twin) is out too. Which cards were played only shifts
    the later cards down, so positions that differ only in played cards
    share a key. Returned: per 8-bit chunk of the bits, (its shift, the sum
    of its cards' class codes by `(u << 1 >> shift) & 511`, u the cards
    out); `spread[(c << 8) | h]`: the bits of `h` picked out by chunk `c`,
    packed low, one every `w` bits; `wcount[c]`: `w` times the cards of `c`.
    """
    found = _KEYS.get((id(rules), n))
    if found is not None and found[0] is rules:
        return found[1]
    ties = _ties(rules)
    points = rules.points
    values = sorted({p for p in points if p})
    guard_class = len(values) + 1
    seat_bits = (n - 1).bit_length()
    tie_bits = 1 if ties else 0
    class_bits = guard_class.bit_length()
    w = seat_bits + class_bits + tie_bits
    nbits = len(points)
    cls = [guard_class if rules.guards >> b & 1 else values.index(points[b]) + 1 if points[b]
           else 0 for b in range(nbits)]
    chunks = []
    for sh in range(0, nbits, 8):
        table = [0] * 512
        for x in range(512):
            c = x >> 1
            code = 0
            j = 0
            for i in range(8):
                b = sh + i
                if c >> i & 1 and b < nbits:
                    below = x >> i & 1  # bit b - 1 out
                    tie = 1 if ties >> b & 1 and below else 0
                    code |= ((cls[b] << tie_bits | tie) << seat_bits) << (w * j)
                    j += 1
            table[x] = code
        chunks.append((sh, table))
    spread = _SPREAD.get(w)
    if spread is None:
        one = [0] * 256
        for v in range(256):
            one[v] = sum(1 << (w * i) for i in range(8) if v >> i & 1)
        spread = _SPREAD[w] = [one[v] for v in _pext8()]
    wcount = [w * c.bit_count() for c in range(256)]
    tables: _KeyTables = (tuple(chunks), spread, wcount)
    if len(_KEYS) > 64:
        _KEYS.clear()
    _KEYS[(id(rules), n)] = (rules, tables)
    return tables


_Beats = tuple[tuple[list[int], ...], tuple[int, ...]]
_BEATS: dict[int, tuple[SolverRules, _Beats]] = {}


def _beats(rules: SolverRules) -> _Beats:
    """`beats[led][k]`: the cards whose trick-winning key (`keytab[led]`)
    is above `k`, for every key `k` >= 0; and the masks of the suits that
    have cards (cached per rules)."""
    found = _BEATS.get(id(rules))
    if found is not None and found[0] is rules:
        return found[1]
    top = max(rules.tables.power) + 1
    out = []
    for kt in rules.keytab:
        row = [0] * (top + 1)
        for b, k in enumerate(kt):
            if k > 0:
                row[k - 1] |= 1 << b
        acc = 0
        for k in range(top, -1, -1):
            acc |= row[k]
            row[k] = acc
        out.append(row)
    if len(_BEATS) > 64:
        _BEATS.clear()
    result = tuple(out), tuple(m for m in rules.tables.suit_mask if m)
    _BEATS[id(rules)] = (rules, result)
    return result


def _ties(rules: SolverRules) -> int:
    """Bits whose card has the same power as the bit below (a double pack's
    identical cards): the key must tell "equal" from "higher" (cached per
    rules)."""
    found = _TIES.get(id(rules))
    if found is not None and found[0] is rules:
        return found[1]
    power = rules.tables.power
    out = 0
    for b in range(1, len(power)):
        if power[b] >= 0 and power[b] == power[b - 1]:
            out |= 1 << b
    if len(_TIES) > 64:
        _TIES.clear()
    _TIES[id(rules)] = (rules, out)
    return out


_TIES: dict[int, tuple[SolverRules, int]] = {}
