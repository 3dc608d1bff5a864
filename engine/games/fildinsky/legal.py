"""Fildinsky legality with partly unknown hands, and revoke proofs.

In the stock phase any card may be played. In the last eight tricks the BE
family applies (follow, beat if possible, else trump). At a real table the
engine often does not know a seat's hand: it knows some cards in it (`known`),
how many others it holds (`unknown`), and the set of cards whose place it does
not know (`unseen`: in the stock or in an unknown part of a hand). A play is
refused only when *no* hand consistent with that knowledge would allow it.
With the hand fully known (`unknown == 0`) this is exactly the BE rule.

`RevokeWatch` keeps what a seat has shown in the last eight tricks (no draws
any more, so a hand only shrinks): a void in a suit, or no card of a suit
higher than some card. A later play contradicting it proves a revoke.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import TRUMP
from engine.deal import Revoke
from engine.packs import iter_bits
from engine.ranking import TrumpTables


def higher_in_suit(t: TrumpTables, eff: int, than: int) -> int:
    """The slots of effective suit `eff` strictly stronger than power `than`."""
    out = 0
    for s in iter_bits(t.suit_mask[eff]):
        if t.power[s] > than:
            out |= 1 << s
    return out


def _can_avoid(avoid: int, known: int, unknown: int, pool: int) -> bool:
    """Could the hand hold none of `avoid`: no known card in it, and enough
    other unseen cards to make up the unknown part?"""
    if known & avoid:
        return False
    return (pool & ~avoid).bit_count() >= unknown


def follower_refusal(t: TrumpTables, lead: int, slot: int, known: int, unknown: int,
                     unseen: int, from_unknown: bool) -> tuple[str, str] | None:
    """Why the second card `slot` is provably illegal under BE, or None.

    `known`/`unknown` describe the player's hand *including* `slot`;
    `from_unknown` says the card came from the unknown part (it is then in
    `unseen`). Returns (reason code, suit letter of the lead).
    """
    bit = 1 << slot
    if from_unknown:
        rest_known, rest_unknown, pool = known, unknown - 1, unseen & ~bit
    else:
        rest_known, rest_unknown, pool = known & ~bit, unknown, unseen
    led = t.eff[lead]
    letter = t.suit_letter(led)
    e = t.eff[slot]
    if e == led:
        if t.power[slot] > t.power[lead]:
            return None
        if not _can_avoid(higher_in_suit(t, led, t.power[lead]), rest_known, rest_unknown, pool):
            return "must_beat", letter
        return None
    led_mask = t.suit_mask[led]
    if not _can_avoid(led_mask, rest_known, rest_unknown, pool):
        return "must_follow", letter
    if e != TRUMP and led != TRUMP and not _can_avoid(led_mask | t.suit_mask[TRUMP],
                                                        rest_known, rest_unknown, pool):
        return "must_trump", letter
    return None


@dataclass
class RevokeWatch:
    """What each seat has shown in the last eight tricks.

    `voids[seat][eff]` is the trick where the seat showed it holds no card of
    effective suit `eff`; `ceilings[seat][eff]` lists (power, trick): at that
    trick it held no card of that suit stronger than `power`.
    """

    voids: list[dict[int, int]] = field(default_factory=lambda: [{}, {}])
    ceilings: list[dict[int, list[tuple[int, int]]]] = field(
        default_factory=lambda: [{}, {}])

    def copy(self) -> RevokeWatch:
        return RevokeWatch([dict(v) for v in self.voids],
                           [{e: list(c) for e, c in s.items()} for s in self.ceilings])

    def check(self, t: TrumpTables, seat: int, slot: int) -> Revoke | None:
        """A revoke proven by `seat` playing `slot` now, if any."""
        e = t.eff[slot]
        if e in self.voids[seat]:
            return Revoke(seat, self.voids[seat][e], t.suit_letter(e))
        for power, trick in self.ceilings[seat].get(e, ()):
            if t.power[slot] > power:
                return Revoke(seat, trick, t.suit_letter(e))
        return None

    def record(self, t: TrumpTables, seat: int, lead: int, slot: int, trick: int) -> None:
        """`seat` played `slot` second to `lead` at trick number `trick`."""
        led, e = t.eff[lead], t.eff[slot]
        if e != led:
            self.voids[seat].setdefault(led, trick)
            if e != TRUMP and led != TRUMP:
                self.voids[seat].setdefault(TRUMP, trick)
        elif t.power[slot] <= t.power[lead]:
            self.ceilings[seat].setdefault(led, []).append((t.power[lead], trick))

    def forget(self, seat: int, revoke: Revoke, t: TrumpTables, slot: int) -> None:
        """After a proven revoke, stop reporting the same contradiction again."""
        e = t.eff[slot]
        self.voids[seat].pop(e, None)
        self.ceilings[seat][e] = [(p, tr) for p, tr in self.ceilings[seat].get(e, ())
                                  if t.power[slot] <= p]
