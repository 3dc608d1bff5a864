"""The legal-play families of RULES.md §2.0, on bit-mask card sets.

* `FT`: follow the led effective suit; else trump; else anything (Filicău, Filkó).
* `F`: follow the led suit; else anything (Sueca).
* `UB`: Ulti-style must-beat (Kelebia).
* `BE`: Bézique end game: UB for two players; identical cards do not beat.

Since "higher" is strict and identical cards have equal power, UB and BE share
one implementation.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.cards import TRUMP
from engine.packs import iter_bits
from engine.ranking import TrumpTables

FAMILIES = ("FT", "F", "UB", "BE")


#: Families whose follower's legal set depends only on the led suit.
BY_LED_SUIT = ("FT", "F")


@lru_cache(maxsize=1024)
def follow_table(family: str, t: TrumpTables) -> tuple[tuple[int, int], ...] | None:
    """For a family of `BY_LED_SUIT`: per led effective suit `led` (0-3 or
    `TRUMP`), the pair `(first, second)` such that a follower holding `hand`
    may play `hand & first or hand & second or hand`. None for the other
    families (their sets depend on the trick's winning card too)."""
    if family == "FT":   # follow the led suit; else trump; else anything
        return tuple((t.suit_mask[led], t.suit_mask[TRUMP]) for led in range(5))
    if family == "F":    # follow the led suit; else anything
        return tuple((t.suit_mask[led], 0) for led in range(5))
    return None


@lru_cache(maxsize=1024)
def follow_by_slot(family: str, t: TrumpTables) -> tuple[tuple[int, int], ...] | None:
    """`follow_table` looked up by the led card's slot: `[slot]` is
    `follow_table(family, t)[t.eff[slot]]` (one lookup less on hot paths)."""
    by_led = follow_table(family, t)
    if by_led is None:
        return None
    return tuple(by_led[e] for e in t.eff)


def _stronger(t: TrumpTables, candidates: int, than: int) -> int:
    power = t.power
    out = 0
    for s in iter_bits(candidates):
        if power[s] > than:
            out |= 1 << s
    return out


def _current_best(t: TrumpTables, trick: Sequence[int]) -> tuple[int, int]:
    """(winning slot, its key) of a trick so far."""
    led = t.eff[trick[0]]
    best = trick[0]
    best_key = t.key(best, led)
    for s in trick[1:]:
        k = t.key(s, led)
        if k > best_key:
            best, best_key = s, k
    return best, best_key


def legal_mask(family: str, t: TrumpTables, hand: int, trick: Sequence[int],
               undertrump: bool = True) -> int:
    """The subset of `hand` that may be played to `trick` (slots, leader first)."""
    if not trick:
        return hand
    eff = t.eff
    led = eff[trick[0]]
    if family in BY_LED_SUIT:
        by_led = follow_table(family, t)
        assert by_led is not None
        first, second = by_led[led]
        return hand & first or hand & second or hand
    follow = hand & t.suit_mask[led]
    if family not in ("UB", "BE"):
        raise ValueError(f"unknown legal-play family {family!r}")
    best, best_key = _current_best(t, trick)
    best_is_trump = eff[best] == TRUMP
    if follow:
        if led != TRUMP and best_is_trump:
            return follow
        return _stronger(t, follow, best_key) or follow
    trumps = hand & t.suit_mask[TRUMP]
    if trumps:
        if best_is_trump:
            over = _stronger(t, trumps, best_key)
            if over:
                return over
            return trumps if undertrump else hand
        return trumps
    return hand


def refusal(family: str, t: TrumpTables, hand: int, trick: Sequence[int], slot: int
            ) -> tuple[str, str]:
    """Why `slot` (held, but not legal) is refused: (reason code, suit letter or "trump")."""
    led = t.eff[trick[0]]
    led_name = "trump" if led == TRUMP else t.ranking.pack.suits[led]
    has_led = hand & t.suit_mask[led]
    if family in ("UB", "BE"):
        if has_led:
            return ("must_beat" if t.eff[slot] == led else "must_follow"), led_name
        if t.eff[slot] == TRUMP:
            return "must_beat", led_name
        return "must_trump", led_name
    if has_led:
        return "must_follow", led_name
    return "must_trump", led_name
