"""The transposition key: two positions share a key exactly when they are
the same position once the played cards are taken out (who holds the 1st,
2nd, ... card still out of each suit, what it is worth, whether its twin is
out too, and who leads). Checked against a plain reference, in every game,
on random positions and on positions that differ from them by one card."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import game_ids, get_game
from engine.analysis.rules import SolverRules, solver_rules
from engine.analysis.solver import Solver, _ties


def _reference(rules: SolverRules, hands: list[int], leader: int) -> tuple[object, ...]:
    """Each card still out (and each suit's end), lowest first: who holds it,
    its points, and whether it ties with the card below, itself out."""
    ties = _ties(rules)
    out = rules.guards
    for h in hands:
        out |= h
    cards: list[tuple[object, ...]] = []
    for b in range(len(rules.points)):
        if not out >> b & 1:
            continue
        if rules.guards >> b & 1:
            cards.append(("end of suit",))
            continue
        seat = next(s for s, h in enumerate(hands) if h >> b & 1)
        tie = bool(ties >> b & 1 and out >> (b - 1) & 1)
        cards.append((seat, rules.points[b], tie))
    return (tuple(cards), leader)


def _key(rules: SolverRules, hands: list[int], leader: int) -> int:
    solver = Solver(rules, tuple(s % 2 for s in range(len(hands))))
    solver.load(hands, [], leader)
    return solver._s.key()


def _deal(rules: SolverRules, n: int, rng: random.Random) -> tuple[list[int], int]:
    """Random hands of equal size (a random number of cards already played)."""
    bits = [b for b in range(len(rules.points)) if not rules.guards >> b & 1]
    rng.shuffle(bits)
    k = rng.randint(1, len(bits) // n)
    hands = [sum(1 << b for b in bits[s * k:(s + 1) * k]) for s in range(n)]
    return hands, sum(1 << b for b in bits[n * k:])


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.sampled_from(game_ids()), st.integers(0, 2**32), st.sampled_from(["played", "seats"]))
def test_positions_share_a_key_exactly_when_they_are_the_same_once_played_cards_go(
        game_id: str, seed: int, change: str) -> None:
    game = get_game(game_id)
    rng = random.Random(seed)
    rules = solver_rules(game, rng.choice(game.pack.suits))
    n = game.players
    hands, played = _deal(rules, n, rng)
    leader = rng.randrange(n)
    other = list(hands)
    seat = rng.randrange(n)
    held = [b for b in range(len(rules.points)) if hands[seat] >> b & 1]
    b = rng.choice(held)
    if change == "played" and played:
        # A held card swaps with a played one: often the same position (the
        # played card next to it, as good), often not.
        gone = [x for x in range(len(rules.points)) if played >> x & 1]
        near = sorted(gone, key=lambda x: abs(x - b))[:2]
        other[seat] ^= (1 << b) | (1 << rng.choice(near))
    else:
        # Two seats swap a card each.
        seat2 = (seat + rng.randrange(1, n)) % n
        b2 = rng.choice([x for x in range(len(rules.points)) if hands[seat2] >> x & 1])
        other[seat] ^= (1 << b) | (1 << b2)
        other[seat2] ^= (1 << b) | (1 << b2)
    leader2 = leader if rng.random() < 0.8 else rng.randrange(n)
    same = _reference(rules, hands, leader) == _reference(rules, other, leader2)
    assert (_key(rules, hands, leader) == _key(rules, other, leader2)) == same


def test_a_played_card_between_two_cards_does_not_change_the_key() -> None:
    """Filicău, trumps hearts: seat 0 holds the 7 and the 9 of leaves, or the 7
    and the 8 (the 8 played in one, the 9 in the other): one position; seat 0
    holding the 9 with the 8 still out in seat 1's hand is another."""
    from engine import cards

    game = get_game("filicau")
    rules = solver_rules(game, "h")
    a = [rules.mask_of(cards(h)) for h in ("7l 9l", "Kl Al", "7b 8b", "9b Ub")]
    b = [rules.mask_of(cards(h)) for h in ("7l 8l", "Kl Al", "7b 8b", "9b Ub")]
    c = [rules.mask_of(cards(h)) for h in ("7l 9l", "8l Al", "7b 8b", "9b Ub")]
    assert _key(rules, a, 0) == _key(rules, b, 0)
    assert _key(rules, a, 0) != _key(rules, c, 0)
    assert _key(rules, a, 0) != _key(rules, a, 1)
