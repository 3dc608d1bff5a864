"""Kelebia's must-beat rule (RULES.md §2.0 "UB", §2.B.4) over random positions:
the engine's legal sets and refusals against an oracle written from the rule
text, sharing no code with the engine, with `undertrump_required` both ways."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalPlay, get_game

# ----- the rule text --------------------------------------------------------------------

#: §2.B.4: Kelebia's eight permanent trumps, high to low.
PERMANENT = ["Oa", "7h", "Ol", "Oh", "Ob", "7b", "7l", "7a"]
#: §2.A: a suit's own cards, high to low (its Over and, in Kelebia, its Seven are
#: permanent trumps); §2.B.4: the pack has no 8l and no 8a.
SUIT_ORDER = ["A", "T", "K", "U", "9", "8"]
PACK = [r + s for s in "alhb" for r in ("A", "T", "K", "O", "U", "9", "8", "7")
        if r + s not in ("8l", "8a")]
TRUMP = "trump"


def eff(c, trump):
    """§2.0: a permanent trump or a card of the trump suit is a trump."""
    return TRUMP if c in PERMANENT or c[1] == trump else c[1]


def strength(c, trump, led):
    """How high `c` stands in a trick led in `led`: trumps (the permanent ones
    in their order, then the trump suit's own cards) above the led suit above
    the rest, which never win."""
    if eff(c, trump) == TRUMP:
        if c in PERMANENT:
            return 200 - PERMANENT.index(c)
        return 100 - SUIT_ORDER.index(c[0])
    if eff(c, trump) == led:
        return 50 - SUIT_ORDER.index(c[0])
    return 0


def ub_legal(trump, trick, hand, undertrump):
    """§2.0 UB, point by point. S = the led effective suit, W = the card
    winning the trick so far."""
    if not trick:
        return list(hand)
    led = eff(trick[0], trump)
    w = max(trick, key=lambda c: strength(c, trump, led))
    w_is_trump = eff(w, trump) == TRUMP

    def higher(cs):
        return [c for c in cs if strength(c, trump, led) > strength(w, trump, led)]

    of_s = [c for c in hand if eff(c, trump) == led]
    trumps = [c for c in hand if eff(c, trump) == TRUMP]
    if of_s:
        if led == TRUMP:                        # trumps higher than W, else any trump
            return higher(of_s) or of_s
        if any(eff(c, trump) == TRUMP for c in trick):
            return of_s                         # the lead was trumped: any S card
        return higher(of_s) or of_s             # S cards higher than W, else any S card
    if trumps:
        if w_is_trump:                          # overtrump; unable: any trump (FK-10) ...
            return higher(trumps) or (trumps if undertrump else list(hand))
        return trumps                           # ... or any card without the duty
    return list(hand)


def ub_reason(trump, trick, hand, c):
    """The refusal a player should hear for an illegal `c`: a card of another
    suit while holding S is a failure to follow; an S card or a trump that does
    not head the trick a failure to beat; anything else where a trump is due,
    a failure to trump."""
    led = eff(trick[0], trump)
    if any(eff(h, trump) == led for h in hand):
        return "must_beat" if eff(c, trump) == led else "must_follow"
    return "must_beat" if eff(c, trump) == TRUMP else "must_trump"


# ----- the properties -------------------------------------------------------------------

def kelebia(undertrump):
    return get_game("filko5", {"top_trumps": "kelebia", "undertrump_required": undertrump})


def test_the_oracle_reads_the_rule_text():
    # bells trumps, the Ace of bells led: only the permanent Seven of acorns beats it
    assert ub_legal("b", ["Ab"], ["Kb", "7a", "Aa", "8h"], True) == ["7a"]
    # hearts led and trumped: any heart; not trumped: a heart above the King
    assert ub_legal("b", ["Kh", "7b"], ["Ah", "9h"], True) == ["Ah", "9h"]
    assert ub_legal("b", ["Kh"], ["Ah", "9h", "Ub"], True) == ["Ah"]
    # no acorns, the lead trumped with the Over of hearts, only a lower trump
    assert ub_legal("b", ["Aa", "Oh"], ["Kb", "9l"], True) == ["Kb"]
    assert ub_legal("b", ["Aa", "Oh"], ["Kb", "9l"], False) == ["Kb", "9l"]
    assert len(PACK) == 30 and len(set(PACK)) == 30


@settings(max_examples=400, deadline=None)
@given(trump=st.sampled_from("alhb"), order=st.permutations(PACK),
       played=st.integers(0, 4), held=st.integers(1, 6), undertrump=st.booleans())
def test_legal_sets_and_refusals_follow_the_ub_rule(trump, order, played, held, undertrump):
    game = kelebia(undertrump)
    trick, hand = order[:played], order[played:played + held]
    expected = ub_legal(trump, trick, hand, undertrump)
    parse = game.pack.parse
    got = game.legal_subset(trump, [parse(c) for c in trick], [parse(c) for c in hand])
    assert [c.code for c in got] == expected
    for c in hand:
        refused = game.verdict(trump, [parse(x) for x in trick], [parse(x) for x in hand],
                               parse(c))
        if c in expected:
            assert refused is None
        else:
            assert refused is not None and refused.reason == ub_reason(trump, trick, hand, c)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), trump=st.sampled_from("alhb"), undertrump=st.booleans())
def test_whole_hands_follow_the_ub_rule(seed, trump, undertrump):
    """A dealt hand played out: at every turn the seat's legal cards are the
    oracle's, and a card outside them is refused and changes nothing."""
    game = kelebia(undertrump)
    rng = random.Random(seed)
    dealt = game.deal(rng, rng.randrange(5))
    old_man = dealt.extra["old_man"]
    teams = [0 if s == old_man else 1 for s in range(5)]
    teams[(old_man + 1) % 5] = 0
    deal = game.new_deal(trump, old_man, dealt.hands, old_man=old_man, teams=teams)
    held = [[c.code for c in h] for h in dealt.hands]
    trick: list[str] = []
    while not deal.finished:
        seat = deal.turn
        expected = ub_legal(trump, trick, held[seat], undertrump)
        assert sorted(c.code for c in deal.legal_cards()) == sorted(expected)
        wrong = [c for c in held[seat] if c not in expected]
        if wrong:
            before = deal.snapshot()
            bad = rng.choice(wrong)
            try:
                deal.play(seat, game.pack.parse(bad))
            except IllegalPlay as refused:
                assert refused.reason == ub_reason(trump, trick, held[seat], bad)
            else:
                raise AssertionError(f"{bad} was accepted from {held[seat]} on {trick}")
            assert deal.snapshot() == before
        c = rng.choice(expected)
        outcome = deal.play(seat, game.pack.parse(c))
        held[seat].remove(c)
        trick = [] if outcome.trick is not None else [*trick, c]
