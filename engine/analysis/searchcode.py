"""The solver's search, written out per *shape* of game and compiled once.

Why generated: a node of the search costs a few microseconds of Python
statements, and a general search spends a good part of them asking things
that are fixed for a whole search: how many players, where in the trick
this card is (lead, middle, last), whose side the seat to play is on, the
next seat, whether the game's legal family decides by the led suit alone
(then the follower's cards come from the game's follow table and no trick
list is kept), whether a lead restriction applies to this seat, whether
there are trumps to bound a position by. `search_factory` writes the
search once per combination of those (`Shape`), one small function per
(position in the trick, seat), with every such question answered in the
source, compiles it with `exec` and caches the result; each solver then
calls the cached factory with its own tables and state.

The generated code holds only the search (the yes/no question, move
ordering by memo, the memo's order learning from cut-offs, the
transposition table, the cut-offs): no rule of any game. The legal cards
come from the game's follow table or its own `legal_mask`, who wins a
trick from the game's `keytab`, the points from its `points` table, all
passed in at run time (`engine.analysis.solver`).

The generated functions, for `n` seats (`S` a seat, `N` the next one):

* `P0_S(need, gone, rem)`: seat S leads (the trick is empty);
* `Pi_S(need, led, bseat, bkey, tpts, gone, rem, tb)`, `0 < i < n`: seat
  S plays the trick's card i; `led` the led effective suit, `bseat`,
  `bkey` the seat winning the trick and its key, `tpts` the trick's points
  so far, `tb` the trick's cards (bits); the last position settles the
  trick and asks the next trick's question of its winner;
* `BS(need, gone, rem)`: the question at a trick boundary with S to lead;
* `E0_S(need, rem)`, `Ei_S(need, led, bseat, bkey, tpts, rem)`: the last
  two tricks (every hand holds two cards), searched lean: no move
  ordering, no table, the first trick's last card playing the last trick
  out (`WS()`: whether side 0 wins the last trick S leads).

`gone` is the cards played before this trick, `rem` the points still out
(this trick's included). Each answers "can side 0 take `need` of the
points from the start of this trick?", fail-soft (a result r >= need: at
least r; r < need: at most r), with 0 < need <= rem.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


#: What the generated search is specialised for.
@dataclass(frozen=True)
class Shape:
    #: `side0[seat]`: whether the seat's side is side 0 (maximises).
    side0: tuple[bool, ...]
    #: The legal family decides by the led suit alone (the follow table).
    follow: bool
    #: The seat under a no-trump-lead rule (-1: none).
    ntl_seat: int
    #: The game has trumps (the sure-points bound applies).
    trumps: bool


#: The factory of a shape: called with the solver's tables and state (the
#: names in `_PARAMS`), it returns (BS by seat, Pi_S by position then seat).
Factory = Callable[..., tuple[tuple[Callable[..., int], ...],
                              tuple[tuple[Callable[..., int], ...], ...]]]

#: The names the generated code takes from its solver (keyword arguments).
PARAMS = (
    "hands", "me", "stats", "tt", "ends", "orders", "learnt", "order_moves", "key_of",
    "sure_points", "keytab", "eff", "power", "points", "beats", "suit_masks", "follow",
    "family", "tables", "undertrump", "legal_mask", "plain", "ntl_cards", "trumps", "tie",
    "side0", "nbits", "SearchLimit", "TT_LIMIT", "RAW_CARDS",
)

_FACTORIES: dict[Shape, Factory] = {}

#: A follower's arguments: the led suit, the seat winning the trick so far
#: and its card's key, the trick's points so far.
_FOLLOWER_ARGS = "need: int, led: int, bseat: int, bkey: int, tpts: int"


def search_factory(shape: Shape) -> Factory:
    """The compiled factory of `shape` (cached: compiled once per shape)."""
    found = _FACTORIES.get(shape)
    if found is None:
        namespace: dict[str, Any] = {}
        exec(compile(source(shape), f"<search {shape}>", "exec"), namespace)  # noqa: S102
        if len(_FACTORIES) > 64:
            _FACTORIES.clear()
        found = _FACTORIES[shape] = namespace["build"]
    return found


def source(shape: Shape) -> str:
    """The generated source of `shape`'s search (readable: tests and
    `python -c` can print it)."""
    n = len(shape.side0)
    out = ["from __future__ import annotations", "",
           "def build(*, " + ", ".join(PARAMS) + "):"]
    for s in range(n):
        out += _indent(_lead(shape, s))
        for i in range(1, n - 1):
            out += _indent(_middle(shape, i, s))
        out += _indent(_last(shape, s))
        out += _indent(_boundary(shape, s))
        out += _indent(_ending_lead(shape, s))
        for i in range(1, n - 1):
            out += _indent(_ending_middle(shape, i, s))
        out += _indent(_ending_last(shape, s))
        out += _indent(_winner(shape, s))
    out.append(f"    Ws = ({', '.join(f'W{s}' for s in range(n))},)")
    out.append(f"    Bs = ({', '.join(f'B{s}' for s in range(n))},)")
    rows = ", ".join("(" + ", ".join(f"P{i}_{s}" for s in range(n)) + ",)" for i in range(n))
    out.append(f"    return Bs, ({rows},)")
    return "\n".join(out) + "\n"


def _indent(lines: list[str]) -> list[str]:
    return ["    " + line if line else "" for line in lines]


def _block(text: str, **subs: object) -> list[str]:
    """`text`'s lines (a template: `{name}` replaced by `subs`), dedented."""
    lines = text.rstrip().lstrip("\n").split("\n")
    width = min(len(x) - len(x.lstrip()) for x in lines if x.strip())
    return [x[width:].format(**subs) if x.strip() else "" for x in lines]


def _cutoff(maxi: bool, restore: list[str]) -> list[str]:
    """A move's answer `r` against `need`: a cut-off returns it (after
    `restore`), otherwise it may become the best so far."""
    if maxi:
        head, better = "if r >= need:", "if r > best:"
    else:
        head, better = "if r < need:", "if r < best:"
    return [head, *("    " + x for x in restore), "    return r", better, "    best = r"]


def _node(signature: str, s: int, maxi: bool, body: list[str],
          restore: list[str] | None = None, learn: bool = False) -> list[str]:
    """A generated search function of seat `s`: its `def` line
    (`signature`), the node counted, the seat's hand read, `body` (ending in
    the moves' loop, each move's answer in `r`), then each move's cut-off
    (`_cutoff`, after `restore`, by default the seat's hand put back, and
    with `learn` the cut-off learnt, `_learn`), and after the loop `restore`
    and the best answer returned. Lines of a bare `pass` are dropped."""
    restore = restore or [f"hands[{s}] = hand"]
    inner = ["stats.nodes += 1", f"hand = hands[{s}]", *body,
             *("    " + x for x in _cutoff(maxi, restore + (_learn() if learn else []))),
             *restore, "return best"]
    return [f"def {signature} -> int:",
            *("    " + x for x in inner if x.strip() != "pass"), ""]


def _learn() -> list[str]:
    """At a cut-off by a move not tried first: the memo's moves with that
    move first, so the next node of the same memo key tries it first, and
    the move remembered by the legal cards (`learnt`), tried first where
    the same legal cards meet a memo key not seen yet (the memo's order
    learns from the search's cut-offs; the set of moves, and so every
    answer, is unchanged)."""
    return ["if b != moves[0]:",
            "    orders[mk] = (b, *[m for m in moves if m != b])",
            "    learnt[legal] = b"]


def _follower_legal(shape: Shape) -> list[str]:
    if shape.follow:
        return _block("""
            first, second = follow[led]
            legal = hand & first or hand & second or hand
        """)
    return ["legal = legal_mask(family, tables, hand, me.trick, undertrump)"]


def _follower_moves(shape: Shape, i: int, s: int) -> list[str]:
    """The ordered moves of a follower (`moves`), from the memo or sorted."""
    n = len(shape.side0)
    maxi = shape.side0[s]
    # The memo's key: a follower whose side is winning the trick (kind 1)
    # or losing it (kind 2, with the cards that would win it).
    winning = "mk = (legal << nbits | span) << 2 | 1"
    losing = "mk = (((legal & beats[led][bkey]) << nbits | legal) << nbits | span) << 2 | 2"
    lines = ["low = legal & -legal", "span = gone & ((1 << legal.bit_length()) - low)"]
    if i == 1:
        # The trick's only card is the lead: the leader is winning it.
        lines.append(winning if shape.side0[(s - 1) % n] == maxi else losing)
    else:
        lines += [f"if {'' if maxi else 'not '}side0[bseat]:", "    " + winning,
                  "else:", "    " + losing]
    return lines + _memo_moves("mk & 3, led, bkey")


def _memo_moves(args: str) -> list[str]:
    """The ordered moves (`moves`) remembered by the memo key `mk`, sorted
    by `order_moves(legal, gone, <args>)` on a miss, with the move that last
    refuted a node of the same legal cards first (`_learn`)."""
    return _block('''
        moves = orders.get(mk)
        if moves is None:
            if len(orders) > 200_000:
                orders.clear()
                learnt.clear()
            moves = order_moves(legal, gone, {args})
            kb = learnt.get(legal, -1)
            if kb != moves[0] and kb in moves:
                moves = (kb, *[m for m in moves if m != kb])
            orders[mk] = moves
    ''', args=args)


def _lead(shape: Shape, s: int) -> list[str]:
    n = len(shape.side0)
    maxi = shape.side0[s]
    nxt = f"P1_{(s + 1) % n}"
    keep = not shape.follow
    body = ["legal = hand"]
    if s == shape.ntl_seat:
        # The lead restriction: this seat, leading with `ntl_cards` cards,
        # may not lead a trump while it holds another card.
        body += _block("""
            if hand.bit_count() == ntl_cards and hand & plain:
                legal = hand & plain
        """)
    body += _block("""
        if legal & (legal - 1) == 0:
            b = legal.bit_length() - 1
            hands[{s}] = hand ^ legal
            {push}
            r = {nxt}(need, eff[b], {s}, power[b], points[b], gone, rem, legal)
            {pop}
            hands[{s}] = hand
            return r
        rel = 0
        for sm in suit_masks:
            ls = legal & sm
            if ls:
                rel |= sm & -(ls & -ls)
        mk = (legal << nbits | (gone & rel)) << 2
    """, s=s, nxt=nxt, push=_push(keep), pop=_pop(keep))
    body += _memo_moves("0, -1, -2")
    body += _block("""
        best = {best}
        for b in moves:
            bit = 1 << b
            hands[{s}] = hand ^ bit
            {push}
            r = {nxt}(need, eff[b], {s}, power[b], points[b], gone, rem, bit)
            {pop}
    """, s=s, nxt=nxt, best=_start(maxi), push=_push(keep), pop=_pop(keep))
    return _node(f"P0_{s}(need: int, gone: int, rem: int)", s, maxi, body, learn=True)


def _middle(shape: Shape, i: int, s: int) -> list[str]:
    n = len(shape.side0)
    maxi = shape.side0[s]
    nxt = f"P{i + 1}_{(s + 1) % n}"
    keep = not shape.follow
    body = _follower_legal(shape)
    body += _block("""
        if legal & (legal - 1) == 0:
            b = legal.bit_length() - 1
            hands[{s}] = hand ^ legal
            {push}
            k = keytab[led][b]
            if k > bkey:
                r = {nxt}(need, led, {s}, k, tpts + points[b], gone, rem, tb | legal)
            else:
                r = {nxt}(need, led, bseat, bkey, tpts + points[b], gone, rem, tb | legal)
            {pop}
            hands[{s}] = hand
            return r
    """, s=s, nxt=nxt, push=_push(keep), pop=_pop(keep))
    body += _follower_moves(shape, i, s)
    body += _block("""
        kt = keytab[led]
        best = {best}
        for b in moves:
            bit = 1 << b
            hands[{s}] = hand ^ bit
            {push}
            k = kt[b]
            if k > bkey:
                r = {nxt}(need, led, {s}, k, tpts + points[b], gone, rem, tb | bit)
            else:
                r = {nxt}(need, led, bseat, bkey, tpts + points[b], gone, rem, tb | bit)
            {pop}
    """, s=s, nxt=nxt, best=_start(maxi), push=_push(keep), pop=_pop(keep))
    return _node(f"P{i}_{s}({_FOLLOWER_ARGS}, gone: int, rem: int, tb: int)", s, maxi, body,
                 learn=True)


def _last(shape: Shape, s: int) -> list[str]:
    """The trick's last card: the trick is settled here, and the next
    trick's trivial answers are given without a call."""
    n = len(shape.side0)
    i = n - 1
    maxi = shape.side0[s]
    keep = not shape.follow
    body = _follower_legal(shape)
    body += ["if legal & (legal - 1) == 0:",
             "    moves: tuple[int, ...] = (legal.bit_length() - 1,)",
             "else:"]
    body += ["    " + x for x in _follower_moves(shape, i, s)]
    if keep:
        # The next trick starts with an empty trick list.
        body += ["trick = me.trick", "me.trick = []"]
    restore = [f"hands[{s}] = hand"] + (["me.trick = trick"] if keep else [])
    body += _block("""
        kt = keytab[led]
        g = gone | tb
        other = Bs[bseat]
        other0 = side0[bseat]
        best = {best}
        for b in moves:
            tp = tpts + points[b]
            left = rem - tp
            if kt[b] > bkey:
    """, best=_start(maxi))
    body += ["        " + x for x in _settle(maxi, s, f"B{s}")]
    body += ["    elif other0:"]
    body += ["        " + x for x in _settle(True, s, "other")]
    body += ["    else:"]
    body += ["        " + x for x in _settle(False, s, "other")]
    # (A single legal card has no memo key, but it is always `moves[0]`.)
    return _node(f"P{i}_{s}({_FOLLOWER_ARGS}, gone: int, rem: int, tb: int)", s, maxi, body,
                 restore, learn=True)


def _settle(side0: bool, s: int, boundary: str) -> list[str]:
    """The answer `r` when a side (side 0 if `side0`) wins the trick with
    card `b` and `boundary` asks the next trick's question."""
    if side0:
        return _block("""
            if need - tp <= 0:
                r = tp
            elif need - tp > left:
                r = rem
            else:
                bit = 1 << b
                hands[{s}] = hand ^ bit
                r = {boundary}(need - tp, g | bit, left) + tp
        """, s=s, boundary=boundary)
    return _block("""
        if need > left:
            r = left
        else:
            bit = 1 << b
            hands[{s}] = hand ^ bit
            r = {boundary}(need, g | bit, left)
    """, s=s, boundary=boundary)


def _boundary(shape: Shape, s: int) -> list[str]:
    n = len(shape.side0)
    last = _last_trick(shape, s, "lh") + [f"stats.nodes += {n}", "return rem if w0 else 0"]
    raw = f"{s}"
    for a in range(n):
        raw = f"({raw}) << nbits | hands[{a}]"
    lines = [f"def B{s}(need: int, gone: int, rem: int) -> int:",
             f"    lh = hands[{s}]",
             "    cards = lh.bit_count()",
             "    if cards <= 1:",
             "        # The last trick: every card is forced."]
    lines += ["        " + x for x in last]
    body = _block("""
        if stats.limit and stats.nodes > stats.limit:
            raise SearchLimit(stats.nodes)
        # The last two tricks: searched by `E0_S` (lean).
        two = cards == 2
        raw = {raw}
        if me.small or cards <= RAW_CARDS:
            # Bounds kept by the raw position (cheaper than the key, for
            # the few positions that recur this late or in a small search).
            found = ends.get(raw)
            if found is None:
                lo, hi = 0, rem
            else:
                lo, hi = found
                if lo >= need:
                    return lo
                if hi < need:
                    return hi
    """, raw=raw)
    body += ["    " + x for x in _search_and_store(s, "len(ends) > 500_000", "ends", "raw")]
    body += _block("""
        stats.probes += 1
        k = key_of(raw, {s})
        found = tt.get(k)
        if found is not None:
            lo, hi = found
            if lo >= need:
                stats.hits += 1
                return lo
            if hi < need:
                stats.hits += 1
                return hi
        else:
            lo, hi = 0, rem
    """, s=s)
    if shape.trumps:
        # A new position: first bounded by the top trumps one side holds.
        body += ["    " + x for x in _block("""
            sure0, sure1 = sure_points(trumps, tie, points, hands, side0)
            lo, hi = sure0, rem - sure1
            if lo >= need or hi < need:
                stats.hits += 1
                if len(tt) >= TT_LIMIT:
                    tt.clear()
                tt[k] = (lo, hi)
                return lo if lo >= need else hi
        """)]
    body += _search_and_store(s, "len(tt) >= TT_LIMIT", "tt", "k")
    return lines + ["    " + x for x in body] + [""]


def _search_and_store(s: int, full: str, table: str, key: str) -> list[str]:
    """The boundary's search once its bounds `lo`, `hi` did not answer: the
    last two tricks by `E0_{s}`, else seat `s` leads; the answer narrows
    the bounds kept in `table` under `key` (cleared when `full`)."""
    return _block("""
        if two:
            r = E0_{s}(need, rem)
        else:
            r = P0_{s}(need, gone, rem)
        if r >= need:
            lo = r
        else:
            hi = r
        if {full}:
            {table}.clear()
        {table}[{key}] = (lo, hi)
        return r
    """, s=s, full=full, table=table, key=key)


def _last_trick(shape: Shape, s: int, hand: str) -> list[str]:
    """The last trick, seat `s` leading its last card (`hand` holds it) and
    every other seat its last card of `hands`: `w0`, whether side 0 wins it."""
    n = len(shape.side0)
    lines = [f"b = {hand}.bit_length() - 1", "kt = keytab[eff[b]]", "wk = kt[b]",
             f"w0 = {shape.side0[s]}"]
    for a in [(s + j) % n for j in range(1, n)]:
        lines += [f"k = kt[hands[{a}].bit_length() - 1]",
                  "if k > wk:",
                  f"    wk, w0 = k, {shape.side0[a]}"]
    return lines


def _winner(shape: Shape, s: int) -> list[str]:
    """`W{s}()`: whether side 0 wins the last trick, seat `s` leading it."""
    return ([f"def W{s}() -> bool:"] + ["    " + x for x in _last_trick(shape, s, f"hands[{s}]")]
            + ["    return w0", ""])


def _ending_lead(shape: Shape, s: int) -> list[str]:
    """`E0_{s}(need, rem)`: the last two tricks (every hand holds two cards),
    seat `s` leading the first: a lean yes/no search, fail-soft like the
    boundary (no move ordering, no table; the last trick forced)."""
    n = len(shape.side0)
    maxi = shape.side0[s]
    nxt = f"E1_{(s + 1) % n}"
    keep = not shape.follow
    body = ["legal = hand"]
    if s == shape.ntl_seat:
        body += ["if ntl_cards == 2 and hand & plain:", "    legal = hand & plain"]
    body += _block("""
        best = {best}
        while legal:
            low = legal & -legal
            legal ^= low
            b = low.bit_length() - 1
            hands[{s}] = hand ^ low
            {push}
            r = {nxt}(need, eff[b], {s}, power[b], points[b], rem)
            {pop}
    """, s=s, nxt=nxt, best=_start(maxi), push=_push(keep), pop=_pop(keep))
    return _node(f"E0_{s}(need: int, rem: int)", s, maxi, body)


def _ending_middle(shape: Shape, i: int, s: int) -> list[str]:
    """`E{i}_{s}(need, led, bseat, bkey, tpts, rem)`: seat `s` plays card `i`
    of the first of the last two tricks (`_ending_lead`)."""
    n = len(shape.side0)
    maxi = shape.side0[s]
    nxt = f"E{i + 1}_{(s + 1) % n}"
    keep = not shape.follow
    body = _follower_legal(shape)
    body += _block("""
        kt = keytab[led]
        best = {best}
        while legal:
            low = legal & -legal
            legal ^= low
            b = low.bit_length() - 1
            hands[{s}] = hand ^ low
            {push}
            k = kt[b]
            if k > bkey:
                r = {nxt}(need, led, {s}, k, tpts + points[b], rem)
            else:
                r = {nxt}(need, led, bseat, bkey, tpts + points[b], rem)
            {pop}
    """, s=s, nxt=nxt, best=_start(maxi), push=_push(keep), pop=_pop(keep))
    return _node(f"E{i}_{s}({_FOLLOWER_ARGS}, rem: int)", s, maxi, body)


def _ending_last(shape: Shape, s: int) -> list[str]:
    """The first trick's last card in the last two tricks: the trick is
    settled and the last trick, every card forced, is played out (won by
    seat `s`'s card: written out here; else by `W{bseat}`)."""
    n = len(shape.side0)
    maxi = shape.side0[s]
    body = _follower_legal(shape)
    body += _block("""
        kt0 = keytab[led]
        b0 = side0[bseat]
        best = {best}
        while legal:
            low = legal & -legal
            legal ^= low
            b = low.bit_length() - 1
            tp = tpts + points[b]
            lh = hand ^ low
            hands[{s}] = lh
            if kt0[b] > bkey:
    """, best=_start(maxi), s=s)
    body += ["        " + x for x in _last_trick(shape, s, "lh")]
    body += [f"        r = {'tp' if shape.side0[s] else '0'} + (rem - tp if w0 else 0)",
             "    else:",
             "        r = (tp if b0 else 0) + (rem - tp if Ws[bseat]() else 0)"]
    return _node(f"E{n - 1}_{s}({_FOLLOWER_ARGS}, rem: int)", s, maxi, body)


def _start(maxi: bool) -> str:
    return "-1" if maxi else "1 << 30"


def _push(keep: bool) -> str:
    return "me.trick.append(b)" if keep else "pass"


def _pop(keep: bool) -> str:
    return "me.trick.pop()" if keep else "pass"
