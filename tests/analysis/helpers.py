"""Random endings of a hand and a brute-force search written for the tests.

The brute force asks the game only its public, stateless questions
(`Game.legal_subset`, `Game.trick_winner`, `Game.trick_points`) and tries
every legal card at every turn: no pruning, no table, nothing shared with
the solver but the game's rules.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine import Card, Deal, Game
from engine.analysis import Position


def random_teams(game: Game, rng: random.Random) -> tuple[int, ...]:
    """The game's fixed teams, or (five-player Filkó) two seats against three."""
    n = game.players
    if n == 5:
        pair = rng.sample(range(n), 2)
        return tuple(0 if s in pair else 1 for s in range(n))
    return tuple(game.team_of(s) for s in range(n))


def random_ending(game: Game, rng: random.Random, tricks: int,
                  family: str | None = None) -> Position:
    """`tricks` tricks left to play (the first possibly begun), random cards,
    trump, leader and partial trick."""
    n = game.players
    pack = list(game.pack.cards)
    rng.shuffle(pack)
    suits = game.pack.suits
    trump = rng.choice(suits)
    leader = rng.randrange(n)
    begun = rng.randrange(n)
    hands: list[list[Card]] = []
    trick: list[Card] = []
    for seat in range(n):
        played_now = (seat - leader) % n < begun
        k = tricks - 1 if played_now else tricks
        hands.append([pack.pop() for _ in range(k)])
    for _ in range(begun):
        trick.append(pack.pop())
    won = (rng.randrange(5), rng.randrange(5))
    return Position(game, trump, tuple(tuple(h) for h in hands), tuple(trick), leader,
                    random_teams(game, rng), won, family)


def brute_force(position: Position, context: dict[str, object] | None = None,
                memo: dict[object, tuple[int, int]] | None = None
                ) -> tuple[tuple[int, int], dict[Card, int]]:
    """(each team's final points under best play, the mover's team's final
    points for each legal card), by trying everything. With `memo` (a dict,
    shared only by positions of one game, trump and teams), the points still
    to come from the start of a trick are remembered by the exact cards each
    seat holds and the leader: the same tree, each subtree searched once."""
    game = position.game
    trump = position.trump
    teams = position.teams
    n = len(position.hands)
    ctx = context or {}

    rule = position.no_trump_lead
    permanent = set(game.ranking.permanent_trumps)

    def legal(trick: list[Card], hand: list[Card], seat: int) -> list[Card]:
        out = _legal(game, trump, trick, hand, ctx)
        if rule is not None and not trick and seat == rule[0] and len(hand) == rule[1]:
            # 20-card Filcău's rule 8, written out: no trump led if another card is held.
            plain = [c for c in out if c not in permanent and c.suit != trump]
            out = plain or out
        return out

    def search(hands: list[list[Card]], trick: list[Card], leader: int,
               won: tuple[int, int]) -> tuple[int, int]:
        if not trick and not any(hands):
            return won
        if memo is not None and not trick:
            key = (tuple(tuple(sorted(c.code for c in h)) for h in hands), leader)
            future = memo.get(key)
            if future is None:
                got = find(hands, trick, leader, (0, 0))
                future = memo[key] = got
            return won[0] + future[0], won[1] + future[1]
        return find(hands, trick, leader, won)

    def find(hands: list[list[Card]], trick: list[Card], leader: int,
             won: tuple[int, int]) -> tuple[int, int]:
        seat = (leader + len(trick)) % n
        team = teams[seat]
        best: tuple[int, int] | None = None
        for c in legal(trick, hands[seat], seat):
            result = _after(hands, trick, leader, won, seat, c)
            if best is None or result[team] > best[team]:
                best = result
        assert best is not None
        return best

    def _after(hands: list[list[Card]], trick: list[Card], leader: int,
               won: tuple[int, int], seat: int, c: Card) -> tuple[int, int]:
        h = list(hands[seat])
        h.remove(c)
        nh = list(hands)
        nh[seat] = h
        nt = [*trick, c]
        if len(nt) < n:
            return search(nh, nt, leader, won)
        w = (leader + game.trick_winner(nt, trump)) % n
        pts = game.trick_points(nt, trump)
        nw = (won[0] + pts, won[1]) if teams[w] == 0 else (won[0], won[1] + pts)
        return search(nh, [], w, nw)

    hands = [list(h) for h in position.hands]
    seat = position.turn
    values: dict[Card, int] = {}
    for c in legal(list(position.trick), hands[seat], seat):
        values[c] = _after(hands, list(position.trick), position.leader, position.won,
                           seat, c)[teams[seat]]
    return search(hands, list(position.trick), position.leader, position.won), values


def _legal(game: Game, trump: str | None, trick: Sequence[Card], hand: Sequence[Card],
           ctx: dict[str, object]) -> list[Card]:
    out = game.legal_subset(trump, list(trick), list(hand), **ctx)
    seen: list[Card] = []
    for c in out:
        if c not in seen:
            seen.append(c)
    return seen


# ----- 20-card Filcău: a hand bound after a knock ----------------------------------------


def bound_deal(game: Game, rng: random.Random) -> Any:
    """A hand of 20-card Filcău dealt at random, knocked and bound with
    random calls among those the flow offers, waiting for the first card
    (the flow's deal: it knows the calls); None if nobody bound."""
    state = game.new_match(rng)
    dealt = game.deal(rng, state.dealer)
    f: Any = game.hand_flow(state, dealt.hands)
    f.choose(f.pending().seat, "knock")
    while f.pending().kind == "choose":
        step = f.pending()
        f.choose(step.seat, rng.choice(step.choices))
    if f.deal is None or f.deal.binder is None:
        return None
    return f.deal


# ----- 20-card Filcău: the fris trick ---------------------------------------------------


def fris_deal(game: Game, rng: random.Random) -> Deal:
    """A random hand of 20-card Filcău whose trumps were chosen by fris, as
    the game's own deal plays it: a random seat with an Over among its first
    three cards made fris with it (led at once), random trumps; each hand
    lists its first three cards first."""
    from engine.games.filcau20.deal import Filcau20Deal, FrisTrick

    while True:
        cards = list(game.pack.cards)
        rng.shuffle(cards)
        hands = [cards[5 * s:5 * s + 5] for s in range(game.players)]
        seat = rng.randrange(game.players)
        overs = [c for c in hands[seat][:3] if c.rank == "O"]
        if overs:
            break
    over = rng.choice(overs)
    first = [game.pack.mask(h[:3]) for h in hands]
    deal = Filcau20Deal(game, rng.choice(game.pack.suits), seat, hands,
                        fris=FrisTrick(seat, over, first))
    deal.play(seat, over)
    return deal


def brute_force_fris(deal: Deal, teams: tuple[int, ...]
                     ) -> tuple[tuple[int, int], dict[Card, int]]:
    """(each team's final points under best play, the mover's team's final
    points for each legal card) of a deal in its fris trick. The fris trick
    is played out by the game's own deal (`legal_cards`, `play`, `undo`:
    every card it accepts, nothing else); from the trick's end `brute_force`
    tries everything (with a memo of whole tricks: the same tree)."""
    n = deal.n
    memo: dict[object, tuple[int, int]] = {}
    assert getattr(deal, "in_fris_trick", False) and deal.hands is not None

    def tail() -> tuple[int, int]:
        won = [0, 0]
        for t in deal.tricks:
            won[teams[t.winner]] += t.points
        p = Position(deal.game, deal.trump,  # type: ignore[arg-type]
                     tuple(tuple(deal.hand_of(s)) for s in range(n)), (), deal.leader,
                     teams, (won[0], won[1]))
        return brute_force(p, memo=memo)[0]

    def search() -> tuple[int, int]:
        if deal.tricks:
            return tail()
        seat = deal.turn
        best: tuple[int, int] | None = None
        for c in list(deal.legal_cards()):
            deal.play(seat, c)
            got = search()
            deal.undo()
            if best is None or got[teams[seat]] > best[teams[seat]]:
                best = got
        assert best is not None
        return best

    seat = deal.turn
    values: dict[Card, int] = {}
    for c in list(deal.legal_cards()):
        deal.play(seat, c)
        values[c] = search()[teams[seat]]
        deal.undo()
    return search(), values


# ----- Fildinsky's end game: brisques, deece, last trick, melds -------------------------


def fildinsky_ending(game: Game, rng: random.Random, tricks: int) -> Deal:
    """A Fildinsky hand as the game's own deal plays it, `tricks` tricks from
    its end: the hand read (hands and stock), the stock phase and the first
    tricks of the end game played at random by `step_randomly` (random
    cards, melds, exchanges and passes), waiting for a card. Half the time
    the hand stops with the first card of a trick down."""
    dealt = game.deal(rng, rng.randrange(2))
    deal = game.new_deal(dealt.trump, dealt.leader, dealt.hands,  # type: ignore[call-arg]
                         turn_up=dealt.extra["turn_up"], stock=dealt.extra["stock"])
    stop = game.tricks_per_hand - tricks
    while len(deal.tricks) < stop or deal.pending()[0] != "play":
        deal.step_randomly(rng)
    if rng.randrange(2):
        deal.play(deal.turn, rng.choice(list(deal.legal_cards())))
    return deal


def brute_force_fildinsky(deal: Deal) -> tuple[int, dict[Card, int]]:
    """(seat 0's margin at the end of the hand under best play: its points
    minus seat 1's; the margin of the seat to play for each of its legal
    cards), each player playing for his own margin. Everything is played out
    by the game's own deal: every legal card (`legal_cards`), after each
    trick every meld the deal offers its winner (`legal_melds`, `declare`)
    or none (`close_melds`), `undo` back; the points are the deal's."""
    d: Any = deal

    def margin(seat: int) -> int:
        return int(d.points[seat] - d.points[1 - seat])

    def search() -> int:
        """Seat 0's final margin."""
        if d.finished:
            return margin(0)
        stage, seat = d.pending()
        sign = 1 if seat == 0 else -1
        results = []
        if stage == "play":
            seen = []
            for c in list(d.legal_cards()):
                if c in seen:
                    continue
                seen.append(c)
                d.play(seat, c)
                results.append(search())
                d.undo()
        else:
            assert stage == "meld", stage
            for k in d.legal_melds():
                d.declare(seat, k.name)
                results.append(search())
                d.undo()
            d.close_melds(seat)
            results.append(search())
            d.undo()
        return max(results, key=lambda m: m * sign)

    seat = d.turn
    sign = 1 if seat == 0 else -1
    values: dict[Card, int] = {}
    for c in list(d.legal_cards()):
        if c in values:
            continue
        d.play(seat, c)
        values[c] = search() * sign
        d.undo()
    return search(), values


def exact_fildinsky(position: Position) -> tuple[int, dict[Card, int]]:
    """Like `brute_force_fildinsky`, from a `Position` with Fildinsky's
    extras, and fast enough for whole end games: every legal card
    (`Game.legal_subset`, `trick_winner`, `trick_points`), after each trick
    the deece and last-trick bonus (`deece_cards`, `last_trick_points`) and
    every choice of melds (`EndgameScoring.meld_choices`, written with the
    game's meld rules), remembered by the exact position (every won card
    kept): no pruning, no window, no renumbering, nothing shared with the
    search in `engine.analysis.extras`."""
    from collections import Counter
    from functools import cache

    from engine.games.fildinsky.endgame import (
        EndgameScoring,
        deece_cards,
        is_deece_card,
        last_trick_points,
    )

    assert position.extras is not None
    scoring, start = position.extras
    assert isinstance(scoring, EndgameScoring)
    game, trump = position.game, position.trump
    teams = position.teams
    ctx = {"stock_empty": True}
    keep = scoring.meld_cards()
    Key = tuple[tuple[Card, int], ...]

    def frozen(c: Counter[Card]) -> Key:
        return tuple(sorted(((k, n) for k, n in c.items() if n > 0 and k in keep),
                            key=lambda kn: kn[0].code))

    def margin0(seat: int, m: int) -> int:
        return m if teams[seat] == 0 else -m

    def trick_end(hands: tuple[tuple[Card, ...], ...], trick: tuple[Card, ...], leader: int,
                  piles: tuple[Key, Key], sevens: tuple[int, int]) -> int:
        """Seat 0's margin from a finished trick on."""
        winner = (leader + game.trick_winner(list(trick), trump)) % 2
        scored = list(sevens)
        copies = []
        for i, c in enumerate(trick):
            s = (leader + i) % 2
            was = is_deece_card(c, scoring.trump) and scored[s] > 0
            scored[s] -= was
            copies.append(was)
        number = game.tricks_per_hand - len(hands[0])
        gain = game.trick_points(list(trick), trump)
        gain += 10 * len(deece_cards(trick, copies, leader, winner, scoring.trump,
                                     scoring.deece_trigger))
        gain += last_trick_points(number, scoring.bonus_trick)
        have = Counter(dict(piles[winner]))
        have.update(trick)
        window = Counter(trick) if scoring.meld_needs_trick_card else None
        sign = 1 if teams[winner] == 0 else -1
        best: int | None = None
        for melds in scoring.meld_choices(have, window):
            left = Counter(have)
            for k in melds:
                left.subtract(k.cards)
            new = list(piles)
            new[winner] = frozen(left)
            v = sign * (gain + sum(k.points for k in melds)) + \
                search(hands, (), winner, (new[0], new[1]), (scored[0], scored[1]))
            if best is None or v * sign > best * sign:
                best = v
        assert best is not None
        return best

    @cache
    def search(hands: tuple[tuple[Card, ...], ...], trick: tuple[Card, ...], leader: int,
               piles: tuple[Key, Key], sevens: tuple[int, int]) -> int:
        if not hands[0] and not hands[1]:
            return 0
        seat = (leader + len(trick)) % 2
        sign = 1 if teams[seat] == 0 else -1
        return max((play(hands, trick, leader, piles, sevens, seat, c)
                    for c in _legal(game, trump, trick, hands[seat], ctx)),
                   key=lambda v: v * sign)

    def play(hands: tuple[tuple[Card, ...], ...], trick: tuple[Card, ...], leader: int,
             piles: tuple[Key, Key], sevens: tuple[int, int], seat: int, c: Card) -> int:
        h = list(hands[seat])
        h.remove(c)
        nh = list(hands)
        nh[seat] = tuple(sorted(h, key=lambda x: x.code))
        hs = (nh[0], nh[1])
        if len(trick) == 0:
            return search(hs, (c,), leader, piles, sevens)
        return trick_end(hs, (*trick, c), leader, piles, sevens)

    piles0 = tuple(frozen(scoring.pile_cards(p)) for p in start.piles)
    piles = (piles0[0], piles0[1])
    hands = tuple(tuple(sorted(h, key=lambda x: x.code)) for h in position.hands)
    seat = position.turn
    values = {c: margin0(seat, play(hands, position.trick, position.leader, piles,
                                    start.scored_sevens, seat, c))
              for c in _legal(game, trump, position.trick, hands[seat], ctx)}
    base = search(hands, position.trick, position.leader, piles, start.scored_sevens)
    return base, values
