"""What every Filkó game shares (RULES.md §2.B): the rankings of each
top-trump variant, trumps from the bottom of the cut, the deal in packets, and
the reason codes and prompts the family adds.

Seats are in the order of play (anticlockwise at the table): the dealer's
right-hand neighbour R is `dealer + 1`, his left-hand neighbour L is
`dealer - 1`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from engine.cards import Card
from engine.errors import BadRequest
from engine.packs import GERMAN_30, GERMAN_30_KELEBIA, GERMAN_32, Pack
from engine.ranking import Ranking

#: The two orders of the Overs (§2.B.4): the usual one and "in some places".
OVER_ORDERS: dict[str, tuple[Card, ...]] = {
    "alhb": (Card("O", "a"), Card("O", "l"), Card("O", "h"), Card("O", "b")),
    "ahbl": (Card("O", "a"), Card("O", "h"), Card("O", "b"), Card("O", "l")),
}
#: Kelebia's eight permanent trumps, high to low (its own fixed order).
KELEBIA_TRUMPS = tuple(Card.parse(c) for c in ("Oa", "7h", "Ol", "Oh", "Ob", "7b", "7l", "7a"))
RANKS = ("A", "T", "K", "U", "9", "8", "7")
ACE_TEN_POINTS = (("A", 1), ("T", 1))
HATS_POINTS = (("A", 11), ("T", 10), ("K", 4), ("O", 3), ("U", 2))


def permanent_trumps(top_trumps: str, over_order: str, players: int) -> tuple[Card, ...]:
    """The permanent trumps, high to low, of a top-trump variant."""
    overs = OVER_ORDERS[over_order]
    if top_trumps == "overs":
        return overs
    if top_trumps == "szeged":
        sevens = (Card("7", "h"), Card("7", "a")) if players == 6 else (Card("7", "h"),)
        return sevens + overs
    if top_trumps == "kelebia":
        return KELEBIA_TRUMPS
    raise ValueError(f"unknown top_trumps {top_trumps!r}")


def pack_for(top_trumps: str, players: int) -> Pack:
    if top_trumps == "kelebia":
        return GERMAN_30_KELEBIA
    return GERMAN_32 if players == 4 else GERMAN_30


@lru_cache(maxsize=64)
def filko_ranking(top_trumps: str, over_order: str, players: int, hats: bool = False
                  ) -> Ranking:
    """One shared (hence cached) ranking per variant."""
    return Ranking(pack_for(top_trumps, players),
                   permanent_trumps(top_trumps, over_order, players),
                   RANKS, RANKS, HATS_POINTS if hats else ACE_TEN_POINTS)


def trump_from_cut(shown: Sequence[Card], permanent: Sequence[Card]) -> tuple[str, int]:
    """The suit of the first shown card that is not a permanent trump (an Over,
    or a top Seven under `szeged`), and how many cards were looked at."""
    seen: set[Card] = set()
    for i, c in enumerate(shown):
        if c in seen:
            raise BadRequest(f"{c} is shown twice")
        seen.add(c)
        if c not in permanent:
            return c.suit, i + 1
    raise BadRequest("every shown card is a permanent trump: show the next card up the cut too")


def packet_layout(players: int, dealer: int, packets: Sequence[int]) -> list[int]:
    """The seat that receives each position of the pack (0 = top), dealing the
    packets round the table starting with the player after the dealer."""
    seats: list[int] = []
    for size in packets:
        for i in range(players):
            seats.extend([(dealer + 1 + i) % players] * size)
    return seats


def cut_recipients(players: int, dealer: int, packets: Sequence[int]) -> list[int]:
    """Who receives the cards looked at in the cut, in the order looked at:
    the bottom card of the pack first, then upwards."""
    return list(reversed(packet_layout(players, dealer, packets)))


def cut_bounds(pack_size: int, cut_min_size: int, permanent: int) -> tuple[int, int]:
    """The smallest and largest packet the cutter may lift (FK-1): both parts
    keep at least `cut_min_size` cards, and the lifted packet always holds a
    card that is not a permanent trump."""
    low = max(cut_min_size, permanent + 1)
    return low, max(low, pack_size - cut_min_size)


def shuffle_cut_deal(pack: Pack, rng: random.Random, dealer: int, players: int,
                     packets: Sequence[int], cut_min_size: int,
                     permanent: Sequence[Card]) -> tuple[list[list[Card]], list[Card], int]:
    """Shuffle, cut (lift `k` cards, look at the packet's bottom card and
    upwards past permanent trumps, put the packet under the rest) and deal.
    Returns (hands in the order received, the cards looked at, k)."""
    cards = list(pack.cards)
    rng.shuffle(cards)
    low, high = cut_bounds(len(cards), cut_min_size, len(permanent))
    k = rng.randint(low, high)
    lifted = cards[:k]
    shown: list[Card] = []
    for c in reversed(lifted):
        shown.append(c)
        if c not in permanent:
            break
    order = cards[k:] + lifted
    hands: list[list[Card]] = [[] for _ in range(players)]
    for pos, seat in enumerate(packet_layout(players, dealer, packets)):
        hands[seat].append(order[pos])
    return hands, shown, k


def shuffle_deal(pack: Pack, rng: random.Random, dealer: int, players: int,
                 packets: Sequence[int]) -> list[list[Card]]:
    """Shuffle and deal in packets, with no cut that matters (five players)."""
    cards = list(pack.cards)
    rng.shuffle(cards)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for pos, seat in enumerate(packet_layout(players, dealer, packets)):
        hands[seat].append(cards[pos])
    return hands


def check_int(value: object, what: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise BadRequest(f"{what} must be an integer of at least {low}")
    return value


# ----- reason codes and prompts of the Filkó family ----------------------------------

