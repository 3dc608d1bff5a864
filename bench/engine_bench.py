"""Engine benchmark: random legal Filicău plays per second through the public
API, each as a ratio to a minimal bit-mask playout of the same rules written
here, measured in the same run (issue 15).

Run: `python bench/engine_bench.py [--seconds S] [--repeat R]`, pinned to one
core (`taskset -c 1 ...`) when the machine has `taskset`.

The baseline below is Filicău and nothing else, written from the rules
(RULES.md §2.0 and §2.A) with plain ints: no undo, no outcome objects, no
other game, no checks it can skip. Before timing anything, `check()` plays the
same deals with the same random numbers through the engine and through the
baseline and requires the same legal set at every step, the same trick
winners, the same points and (hands unknown) the same revokes, so both sides
do the same work. Targets: the engine's card-by-card path
(`legal_cards()` + `play()`), `Deal.playout()` and the hands-unknown playout
within 1.5 times the baseline's time per play.

If OpenSpiel (`pyspiel`) is installed, its C++ euchre and hearts driven from
Python are timed in the same run, for scale.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import NamedTuple

from engine import get_game
from engine.cards import Card
from engine.deal import Deal
from engine.game import DealtHands, Game

# ----- the baseline: Filicău on bit masks ---------------------------------------------

#: Slot order of the 32-card German pack: suits acorns, leaves, hearts, bells;
#: ranks 7 to Ace within a suit. The engine's pack uses the same order, which
#: `check()` verifies, so "the k-th lowest legal slot" is the same card on both
#: sides and one stream of random numbers drives both to the same hand.
CODES = tuple(r + s for s in "alhb" for r in "789TUOKA")
SLOT = {code: i for i, code in enumerate(CODES)}
OVERS = ("Oa", "Ol", "Oh", "Ob")     # permanent trumps, high to low
ORDER = "ATKU987"                    # below the Overs, high to low, trump and plain
PLAYERS = 4
TRICKS = 8
TRUMP = 4                            # the "suit" index of trumps


class BitTables(NamedTuple):
    """One trump suit's arrays: `suit[s]` the effective suit of slot `s` (0-3
    or TRUMP), `mask[e]` the slots of effective suit `e`, `power[s]` (every
    trump above every plain card), `points[s]`, `letter[e]`."""

    suit: tuple[int, ...]
    mask: tuple[int, ...]
    power: tuple[int, ...]
    points: tuple[int, ...]
    letter: tuple[str, ...]


def bit_tables(trump: str) -> BitTables:
    suit, power, points = [], [], []
    mask = [0] * 5
    for slot, code in enumerate(CODES):
        rank, s = code
        if code in OVERS:
            e, p = TRUMP, 100 - OVERS.index(code)
        elif s == trump:
            e, p = TRUMP, 50 - ORDER.index(rank)
        else:
            e, p = "alhb".index(s), 10 - ORDER.index(rank)
        suit.append(e)
        power.append(p)
        points.append(1 if rank in "AT" else 0)
        mask[e] |= 1 << slot
    return BitTables(tuple(suit), tuple(mask), tuple(power), tuple(points),
                     ("a", "l", "h", "b", trump))


TABLES = {t: bit_tables(t) for t in "alhb"}


def masks_of(hands: Sequence[Sequence[Card]]) -> list[int]:
    out = []
    for hand in hands:
        m = 0
        for c in hand:
            m |= 1 << SLOT[c.code]
        out.append(m)
    return out


class BitDeal:
    """Card by card: `legal()` lists the slots the seat to play may play;
    `play(slot)` refuses anything else, then plays it."""

    __slots__ = ("t", "hands", "turn", "trick", "follow", "best", "winner", "carry",
                 "points", "winners")

    def __init__(self, trump: str, leader: int, hands: Sequence[Sequence[Card]]) -> None:
        self.t = TABLES[trump]
        self.hands = masks_of(hands)
        self.turn = leader
        self.trick = 0          # cards in the trick so far
        self.follow = 0         # the led effective suit's slots
        self.best = 0           # power of the card winning the trick so far
        self.winner = leader
        self.carry = 0          # points in the trick so far
        self.points = [0, 0]
        self.winners: list[int] = []

    def _legal_mask(self) -> int:
        h = self.hands[self.turn]
        if not self.trick:
            return h
        return h & self.follow or h & self.t.mask[TRUMP] or h

    def legal(self) -> list[int]:
        m = self._legal_mask()
        out = []
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        return out

    def play(self, slot: int) -> None:
        bit = 1 << slot
        if not self._legal_mask() & bit:
            raise ValueError(f"slot {slot} is not legal")
        seat = self.turn
        self.hands[seat] ^= bit
        t = self.t
        if not self.trick:
            e = t.suit[slot]
            self.follow = t.mask[e]
            self.best, self.winner, self.carry = t.power[slot], seat, t.points[slot]
        else:
            if (bit & (self.follow | t.mask[TRUMP])) and t.power[slot] > self.best:
                self.best, self.winner = t.power[slot], seat
            self.carry += t.points[slot]
        self.trick += 1
        if self.trick == PLAYERS:
            self.points[self.winner & 1] += self.carry
            self.winners.append(self.winner)
            self.trick = 0
            self.turn = self.winner
        else:
            self.turn = (seat + 1) % PLAYERS

    @property
    def finished(self) -> bool:
        return len(self.winners) == TRICKS


def bit_playout(trump: str, leader: int, hands: list[int], rng: random.Random
                ) -> tuple[list[int], list[int]]:
    """A random hand, hands known: (team points, trick winners)."""
    suit, mask, power, points, _ = TABLES[trump]
    trumps = mask[TRUMP]
    randrange = rng.randrange
    hands = list(hands)
    team = [0, 0]
    winners = []
    for _ in range(TRICKS):
        seat = leader
        m = hands[seat]
        k = randrange(m.bit_count())
        while k:
            m &= m - 1
            k -= 1
        low = m & -m
        hands[seat] ^= low
        s = low.bit_length() - 1
        follow = mask[suit[s]]
        bids = follow | trumps
        best, winner, carry = power[s], seat, points[s]
        for _ in range(PLAYERS - 1):
            seat = (seat + 1) % PLAYERS
            h = hands[seat]
            m = h & follow or h & trumps or h
            k = randrange(m.bit_count())
            while k:
                m &= m - 1
                k -= 1
            low = m & -m
            hands[seat] = h ^ low
            s = low.bit_length() - 1
            if low & bids and power[s] > best:
                best, winner = power[s], seat
            carry += points[s]
        team[winner & 1] += carry
        winners.append(winner)
        leader = winner
    return team, winners


def bit_playout_unknown(trump: str, leader: int, known: list[int], rng: random.Random
                        ) -> tuple[list[int], list[int], list[tuple[int, int, str]]]:
    """A random hand, hands unknown: any card not played and not known to be
    another seat's; a seat that fails to follow shows a void in the led suit
    (and in trumps, if it neither followed nor trumped a plain lead); playing
    a card of a suit it showed void in, or showing a void while a known card
    of that suit is still in its hand, is a revoke. A seat whose remaining
    cards are all known plays one of them. (team points, trick
    winners, revokes as (seat, trick, suit letter))."""
    suit, mask, power, points, letter = TABLES[trump]
    trumps = mask[TRUMP]
    randrange = rng.randrange
    played = 0
    everyone = 0
    for m in known:
        everyone |= m
    full = (1 << len(CODES)) - 1
    voids = [0] * PLAYERS
    void_trick = [[0] * 5 for _ in range(PLAYERS)]
    revokes: list[tuple[int, int, str]] = []
    team = [0, 0]
    winners = []
    for number in range(1, TRICKS + 1):
        seat = leader
        led = -1
        follow = bids = best = winner = carry = 0
        for i in range(PLAYERS):
            m = full & ~played & ~(everyone & ~known[seat])
            mine = known[seat] & ~played
            if mine and mine.bit_count() >= TRICKS - number + 1:
                m &= mine   # every card the seat still holds is known
            k = randrange(m.bit_count())
            while k:
                m &= m - 1
                k -= 1
            low = m & -m
            played |= low
            s = low.bit_length() - 1
            e = suit[s]
            revoke = None
            if voids[seat] >> e & 1:
                revoke = (seat, void_trick[seat][e], letter[e])
                revokes.append(revoke)
                voids[seat] &= ~(1 << e)
            if i == 0:
                led = e
                follow = mask[e]
                bids = follow | trumps
                best, winner, carry = power[s], seat, points[s]
            else:
                if e != led:
                    shown = [led] if e == TRUMP or led == TRUMP else [led, TRUMP]
                    for v in shown:
                        if known[seat] & ~played & mask[v]:
                            proven = (seat, number, letter[v])
                            revokes.append(proven)
                            break
                        if not voids[seat] >> v & 1:
                            voids[seat] |= 1 << v
                            void_trick[seat][v] = number
                if low & bids and power[s] > best:
                    best, winner = power[s], seat
                carry += points[s]
            seat = (seat + 1) % PLAYERS
        team[winner & 1] += carry
        winners.append(winner)
        leader = winner
    return team, winners, revokes


# ----- the check: the baseline and the engine play the same hands ----------------------

class Mismatch(AssertionError):
    pass


def check(game: Game, dealt: Sequence[DealtHands], seed: int = 7) -> int:
    """Play every deal through both, card by card and by playout, hands known
    and unknown; raise `Mismatch` at the first difference. Returns the
    number of legal sets compared."""
    engine_codes = tuple(c.code for c in game.pack.cards)
    if engine_codes != CODES:
        raise Mismatch(f"the engine's pack order changed: {engine_codes}")
    compared = 0
    for n, d in enumerate(dealt):
        assert d.trump is not None
        rng = random.Random(seed + n)
        deal = game.new_deal(d.trump, d.leader, d.hands)
        bits = BitDeal(d.trump, d.leader, d.hands)
        while not deal.finished:
            ours = sorted(c.code for c in deal.legal_cards())
            theirs = sorted(CODES[s] for s in bits.legal())
            if ours != theirs or deal.turn != bits.turn:
                raise Mismatch(f"deal {n}, trick {deal.trick_number}: seat {deal.turn} "
                               f"may play {ours}; the baseline says seat {bits.turn}: {theirs}")
            compared += 1
            code = theirs[rng.randrange(len(theirs))]
            deal.play(deal.turn, code)
            bits.play(SLOT[code])
        if bits.points != deal.team_points() or bits.winners != [t.winner for t in deal.tricks]:
            raise Mismatch(f"deal {n}: the engine scores {deal.team_points()} "
                           f"{[t.winner for t in deal.tricks]}, the baseline "
                           f"{bits.points} {bits.winners}")
        deal = game.new_deal(d.trump, d.leader, d.hands)
        deal.playout(random.Random(seed + n))
        team, winners = bit_playout(d.trump, d.leader, masks_of(d.hands), random.Random(seed + n))
        if team != deal.team_points() or winners != [t.winner for t in deal.tricks]:
            raise Mismatch(f"deal {n}, playout: the engine scores {deal.team_points()}, "
                           f"the baseline {team}")
        # Hands unknown, the dealer's shown cards known (public, as at the table).
        known = {d.dealer: d.shown}
        deal = game.new_deal(d.trump, d.leader, known=known)
        deal.playout(random.Random(seed + n))
        known_masks = [0] * PLAYERS
        known_masks[d.dealer] = masks_of([d.shown])[0]
        team, winners, revokes = bit_playout_unknown(d.trump, d.leader, known_masks,
                                                     random.Random(seed + n))
        engine_revokes = [(r.seat, r.trick, r.suit) for r in deal.revokes]
        if (team != deal.team_points() or winners != [t.winner for t in deal.tricks]
                or revokes != engine_revokes):
            raise Mismatch(f"deal {n}, hands unknown: the engine scores "
                           f"{deal.team_points()} with revokes {engine_revokes}, the "
                           f"baseline {team} with {revokes}")
    return compared


# ----- timing -----------------------------------------------------------------------------

#: A measurement: `prepare()` (not timed) makes what `work(prepared)` (timed)
#: uses up, such as fresh deals; `work` returns how many units it did.
Work = tuple[Callable[[], object], Callable[[object], int]]


def rate(work: Work, seconds: float) -> float:
    """Units a second of `work`, run for about `seconds` of this process's CPU
    time (the time other programs take on a shared core does not count)."""
    prepare, run = work
    done = 0
    spent = 0.0
    while spent < seconds:
        prepared = prepare()
        start = time.process_time()
        done += run(prepared)
        spent += time.process_time() - start
    return done / spent


def best_rates(pairs: Sequence[tuple[Work, Work | None]], seconds: float, repeat: int
               ) -> list[tuple[float, float | None]]:
    """The best of `repeat` rates of each side, the two sides of a row measured
    one after the other so that both see the same machine."""
    best: list[list[float]] = [[0.0, 0.0] for _ in pairs]
    for _ in range(repeat):
        for i, (engine, baseline) in enumerate(pairs):
            best[i][0] = max(best[i][0], rate(engine, seconds))
            if baseline is not None:
                best[i][1] = max(best[i][1], rate(baseline, seconds))
    return [(e, b if pairs[i][1] is not None else None) for i, (e, b) in enumerate(best)]


def openspiel_rates(seconds: float) -> list[tuple[str, float]]:
    """Moves a second (chance moves not counted) of random OpenSpiel games,
    its C++ core driven from Python; empty when `pyspiel` is not installed."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return []
    out = []
    for name in ("euchre", "hearts"):
        game = pyspiel.load_game(name)
        rng = random.Random(3)

        def moves(game: object = game, rng: random.Random = rng) -> int:
            state = game.new_initial_state()  # type: ignore[attr-defined]
            n = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    actions = [a for a, _ in state.chance_outcomes()]
                else:
                    actions = state.legal_actions()
                    n += 1
                state.apply_action(actions[rng.randrange(len(actions))])
            return n

        out.append((name, rate((lambda: None, lambda _: moves()), seconds)))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    parser.add_argument("--repeat", type=int, default=5,
                        help="measurements of each figure; the best is shown")
    parser.add_argument("--deals", type=int, default=200, help="deals played over and over")
    args = parser.parse_args(argv)
    game = get_game("filicau")
    rng = random.Random(1)
    dealt = [game.deal(rng, i % 4) for i in range(args.deals)]
    compared = check(game, dealt)
    print(f"The baseline agrees with the engine on {len(dealt)} deals: {compared} legal "
          "sets card by card, the playouts' winners and points, hands unknown too.")
    plays = len(dealt) * PLAYERS * TRICKS
    hands = [(d.trump or "", d.leader, d.hands, masks_of(d.hands)) for d in dealt]
    randrange = rng.randrange

    def engine_deals() -> list[Deal]:
        return [game.new_deal(trump, leader, cards) for trump, leader, cards, _ in hands]

    def engine_play(deals: object) -> int:
        assert isinstance(deals, list)
        for deal in deals:
            while not deal.finished:
                legal = list(deal.legal_cards())
                deal.play(deal.turn, legal[randrange(len(legal))])
        return plays

    def baseline_deals() -> list[BitDeal]:
        return [BitDeal(trump, leader, cards) for trump, leader, cards, _ in hands]

    def baseline_play(deals: object) -> int:
        assert isinstance(deals, list)
        for deal in deals:
            while not deal.finished:
                legal = deal.legal()
                deal.play(legal[randrange(len(legal))])
        return plays

    def engine_playout(deals: object) -> int:
        assert isinstance(deals, list)
        for deal in deals:
            deal.playout(rng)
        return plays

    def baseline_playout(_: object) -> int:
        for trump, leader, _cards, masks in hands:
            bit_playout(trump, leader, masks, rng)
        return plays

    def unknown_deals() -> list[Deal]:
        return [game.new_deal(trump, leader) for trump, leader, _, _ in hands]

    no_one = [0] * PLAYERS

    def baseline_unknown(_: object) -> int:
        for trump, leader, _cards, _masks in hands:
            bit_playout_unknown(trump, leader, no_one, rng)
        return plays

    def with_deal(_: object) -> int:
        for i in range(len(dealt)):
            d = game.deal(rng, i % 4)
            game.new_deal(d.trump, d.leader, d.hands).playout(rng)
        return plays

    def engine_undo(deals: object) -> int:
        assert isinstance(deals, list)
        for deal in deals:
            deal.playout(rng)
            while deal.can_undo:
                deal.undo()
        return plays

    def new_deals(_: object) -> int:
        engine_deals()
        return len(hands)

    # Positions in the middle of hands, to ask legal-set questions about.
    positions: list[Deal] = []
    for d in dealt[:50]:
        deal = game.new_deal(d.trump, d.leader, d.hands)
        for _ in range(rng.randrange(31)):
            legal = list(deal.legal_cards())
            deal.play(deal.turn, legal[rng.randrange(len(legal))])
        positions.append(deal)

    def legal_questions(_: object) -> int:
        n = 0
        for deal in positions:
            for _ in range(20):
                deal._changed()  # measure the computation, not the per-turn cache
                list(deal.legal_cards())
                n += 1
        return n

    stateless = [(d.trump, [d.hands[0][0]], list(d.hands[1])) for d in dealt[:50]]

    def stateless_questions(_: object) -> int:
        for trump, trick, hand in stateless:
            game.legal_subset(trump, trick, hand)
        return len(stateless)

    def nothing() -> None:
        return None

    rows: list[tuple[str, Work, Work | None]] = [
        ("plays/s, card by card: legal_cards() + play()", (engine_deals, engine_play),
         (baseline_deals, baseline_play)),
        ("plays/s, Deal.playout()", (engine_deals, engine_playout),
         (nothing, baseline_playout)),
        ("plays/s, hands unknown, Deal.playout()", (unknown_deals, engine_playout),
         (nothing, baseline_unknown)),
        ("plays/s, playout() then undo() back to the start", (engine_deals, engine_undo), None),
        ("plays/s, shuffle + deal + new_deal() + playout()", (nothing, with_deal), None),
        ("new_deal()/s, hands known (checks the 32 cards)", (nothing, new_deals), None),
        ("legal-set questions/s, Deal.legal_cards()", (nothing, legal_questions), None),
        ("legal-set questions/s, stateless Game.legal_subset()",
         (nothing, stateless_questions), None),
    ]
    measured = best_rates([(e, b) for _, e, b in rows], args.seconds, args.repeat)
    width = max(len(name) for name, _, _ in rows)
    print()
    print(f"| {'measure'.ljust(width)} | {'engine':>10} | {'baseline':>10} | {'ratio':>5} | "
          f"{'<= 1.5':<7} |")
    print(f"|-{'-' * width}-|-{'-' * 10}:|-{'-' * 10}:|-{'-' * 5}:|-{'-' * 7}-|")
    for (name, _, _), (engine, baseline) in zip(rows, measured, strict=True):
        if baseline is None:
            print(f"| {name.ljust(width)} | {engine:>10,.0f} | {'':>10} | {'':>5} | {'':<7} |")
            continue
        # judged as printed (two decimals), so the verdict never contradicts the figure
        ratio = round(baseline / engine, 2)
        verdict = "met" if ratio <= 1.5 else "NOT met"
        print(f"| {name.ljust(width)} | {engine:>10,.0f} | {baseline:>10,.0f} | "
              f"{ratio:>5.2f} | {verdict:<7} |")
    print()
    print("ratio: the engine's time per play over the baseline's, CPU time of this "
          "process, best of each")
    spiel = openspiel_rates(args.seconds)
    if spiel:
        print()
        for name, moves in spiel:
            print(f"OpenSpiel {name}: {moves:,.0f} moves/s (random play, same run)")
    else:
        print("OpenSpiel (pyspiel) is not installed: its games are not timed.")
    return 0


if __name__ == "__main__":
    from pinning import one_core

    one_core()
    sys.exit(main())
