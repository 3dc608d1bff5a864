"""Fast bounds on a position's value, checked before the solver searches it.

*Sure points*: a trump above every other trump still out wins the trick it
is played to (every trump bids for every trick, and nothing bids higher).
So when one side holds the top trumps still out, down to the first trump the
other side holds, each of those cards ends in a trick that side wins, and
their points are that side's whatever is played. Identical cards of a double
pack tie: the first played wins, so a top card whose twin the other side
holds is not sure. The bound needs only that a trick's card points go to
the side that wins it (`engine.analysis.solver`).

    >>> # Bits 0-3 are trumps, low to high, worth 0, 4, 10, 11; seat 0 (side
    >>> # 0) holds bits 3 and 2, seat 1 (side 1) holds bit 1.
    >>> sides = (True, False, True, False)
    >>> sure_points(0b1111, 0, (0, 4, 10, 11), (0b1100, 0b0010, 0b0001, 0), sides)
    (21, 0)
"""

from __future__ import annotations

from collections.abc import Sequence


def sure_points(trumps: int, ties: int, points: Sequence[int], hands: Sequence[int],
                side0: Sequence[bool]) -> tuple[int, int]:
    """(side 0's sure points, side 1's) at a trick boundary: the points of
    the run of top trumps still out that one side holds (`trumps`: the
    trump bits, higher bits stronger; `ties`: bits whose card is identical
    to the bit below; `hands[seat]`: bits; `side0[seat]`: the seat's side)."""
    out = 0
    for h in hands:
        out |= h
    t = out & trumps
    sure = 0
    side: bool | None = None
    while t:
        top = t.bit_length() - 1
        # The group of identical cards at the top: this bit and the tied bits below.
        group = 1 << top
        b = top
        while ties >> b & 1:
            b -= 1
            group |= 1 << b
        group &= t
        owner: bool | None = None
        for seat, h in enumerate(hands):
            if h & group:
                if owner is None:
                    owner = side0[seat]
                elif owner != side0[seat]:
                    owner = None
                    break
        if owner is None or (side is not None and owner != side):
            break
        side = owner
        g = group
        while g:
            low = g & -g
            sure += points[low.bit_length() - 1]
            g ^= low
        t &= ~group
    if side is None:
        return 0, 0
    return (sure, 0) if side else (0, sure)
