"""Random endings of a hand and a brute-force search written for the tests.

The brute force asks the game only its public, stateless questions
(`Game.legal_subset`, `Game.trick_winner`, `Game.trick_points`) and tries
every legal card at every turn: no pruning, no table, nothing shared with
the solver but the game's rules.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine import Card, Game
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


def brute_force(position: Position, context: dict[str, object] | None = None
                ) -> tuple[tuple[int, int], dict[Card, int]]:
    """(each team's final points under best play, the mover's team's final
    points for each legal card), by trying everything."""
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
