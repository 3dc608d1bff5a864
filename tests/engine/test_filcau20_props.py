"""Properties of 20-card Filcău over random deals and random players (who also
try wrong calls, wrong fris cards and false proofs): every hand holds 8 points;
a binding is only ever accepted from a hand eligible for it; matches end at 11;
undo restores the hand exactly. Everything goes through the public API."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalPlay, cards, get_game
from engine.games.filcau20.binding import CALLS, bindings, naming_suits, required

OPTIONS = st.fixed_dictionaries({}, optional={
    "must_trump": st.booleans(),
    "first_lead_after_binding": st.sampled_from(["left_of_dealer", "binder"]),
    "tie_break": st.sampled_from(["first_caller", "higher_over", "redeal"]),
    "closed_hand": st.sampled_from(["declare", "redeal"]),
    "rule7": st.sampled_from(["strongest", "highest_card_suit"]),
    "binding_compulsory": st.booleans(),
    "no_binding": st.sampled_from(["redeal_same_dealer", "next_dealer", "dealer_names"]),
    "fris_priority": st.sampled_from(["seat_order", "highest_over"]),
    "fris_turned_cards_bind": st.sampled_from(["d1", "d2"]),
    "status_ladder": st.sampled_from(["stepwise", "direct"]),
    "eight_nil_even": st.booleans(),
    "match_points": st.sampled_from(["after_status_update", "status_at_start"]),
})


# ----- an oracle written straight from the rule text, sharing no code with the engine ----

#: RULES §2.C: lowest trumps compare U < K < 10 < A < Ob < Oh < Ol < Oa.
LOWEST_ORDER = ["U", "K", "T", "A", "Ob", "Oh", "Ol", "Oa"]
#: A plain card's rank, low to high (RULES FC-A2).
PLAIN = ["U", "K", "T", "A"]


def rule_binding(hand, suit):
    """RULES §1.2 "Binding the trump", §2.C "Normal binding": the call `hand`
    may bind `suit` with ("N:LOWEST"), or None. n = the Overs + the non-Over
    cards of the suit; at least one Over; n is 3 or 4; with 4 the single other
    card (the farbă) is not an Ace; 5 is closed (închis)."""
    overs = [c for c in hand if c.rank == "O"]
    of_suit = [c for c in hand if c.rank != "O" and c.suit == suit]
    n = len(overs) + len(of_suit)
    if not overs or n not in (3, 4):
        return None
    if n == 4:
        (farba,) = [c for c in hand if c not in overs and c not in of_suit]
        if farba.rank == "A":
            return None
    names = [c.code for c in overs] + [c.rank for c in of_suit]
    return f"{n}:{min(names, key=LOWEST_ORDER.index)}"


def call_value(call):
    """(n, lowest trump), compared lexicographically (RULES §2.C)."""
    n, lowest = call.split(":")
    return int(n), LOWEST_ORDER.index(lowest)


def rule_closed(hand):
    """Has the hand five trumps for some suit (închis)?"""
    return any(sum(1 for c in hand if c.rank == "O" or c.suit == s) == 5 for s in "alhb")


def rule7_suits(hand, rule7):
    """The suits rule 7 lets the hand bind (FC-A11): those of its strongest
    call; with `highest_card_suit`, those whose own highest card (its
    highest trump with a suit: the Overs are trumps whatever the suit) is
    the highest, then the strongest call among them."""
    eligible = {s: rule_binding(hand, s) for s in "alhb"}
    eligible = {s: call for s, call in eligible.items() if call is not None}

    def key(s):
        value = call_value(eligible[s])
        if rule7 == "strongest":
            return value
        top = max((PLAIN.index(c.rank) for c in hand if c.rank != "O" and c.suit == s),
                  default=-1)
        return (top, *value)

    if not eligible:
        return {}
    best = max(key(s) for s in eligible)
    return {s: eligible[s] for s in eligible if key(s) == best}


def test_the_oracle_reads_the_rule_text():
    assert rule_binding(cards("Oa Ua Ka Th Kb"), "a") == "3:U"      # "three, the valet"
    assert rule_binding(cards("Ol Oh Al Tl Ab"), "l") is None       # four, farbă an Ace
    assert rule_binding(cards("Ol Oh Al Tl Ab"), "b") == "3:A"
    assert rule_binding(cards("Oa Ol Oh Ob Kh"), "h") is None       # five: închis
    assert rule_binding(cards("Oa Ol Oh Ob Kh"), "l") == "4:Ob"
    assert rule_binding(cards("Ua Ka Ta Aa Kb"), "a") is None       # no Over
    assert rule7_suits(cards("Oa Ol Ua Ka Th"), "strongest") == {"a": "4:U"}
    assert rule7_suits(cards("Oa Ol Ua Ka Th"), "highest_card_suit") == {"h": "3:T"}


@settings(max_examples=300, deadline=None)
@given(deal=st.permutations(range(20)), rule7=st.sampled_from(["strongest",
                                                              "highest_card_suit"]))
def test_binding_eligibility_and_rule_7_match_the_rule_text(deal, rule7):
    pack = get_game("filcau20").pack.cards
    hand = [pack[i] for i in deal[:5]]
    assert {s: b.call for s, b in bindings(hand).items()} == {
        s: call for s in "alhb" if (call := rule_binding(hand, s)) is not None}
    must = rule7_suits(hand, rule7)
    got = required(hand, rule7)
    assert (got.call if got else None) == (next(iter(must.values())) if must else None)
    assert naming_suits(hand, rule7) == list(must)


def check_binding(f, game):
    """Every call the flow accepted was allowed by the rule text, and whoever
    holds a binding holds a hand that makes it (the hand on record: the dealt
    hand, or the five cards he proved and must now play) in the suit named."""
    opts = game.options
    if f.hands is not None:
        for seat, call in f.calls:
            hand = f.hands[seat]
            allowed = rule7_suits(hand, opts["rule7"])
            compulsory = opts["binding_compulsory"]
            if call == "pass":
                assert not rule_closed(hand) and not (compulsory and allowed), (hand, call)
            elif call == "closed":
                assert rule_closed(hand), (hand, call)
                assert not (compulsory and allowed and opts["closed_hand"] == "declare")
            else:
                assert call in allowed.values(), (hand, call, allowed)
                assert not (rule_closed(hand) and opts["closed_hand"] == "redeal")
    if f.binder is None:
        return
    hand = f.hands[f.binder] if f.hands is not None else f.proven[f.binder]
    allowed = rule7_suits(hand, opts["rule7"])
    assert f.binding.call in allowed.values()
    # the strongest call at the table won (ties: see FC-A7)
    assert all(call_value(f.binding.call) >= call_value(c) for s, c in f.calls
               if c not in ("pass", "closed") and s not in f.struck)
    if f.trump is not None:
        assert f.trump in allowed and rule_binding(hand, f.trump) == f.binding.call


def observable(f):
    """Everything the hand shows: the step it waits for and its phase, the
    actions taken, the fris window, the calls and proofs, the binding, the
    trump, the cards being turned up and the play so far."""
    return (f.pending(), f.phase, f.mark(), f.cut, tuple(f.asked),
            tuple(sorted(f.exposed.items())), f.fris_seat, f.fris_over, tuple(f.calls),
            frozenset(f.struck), tuple(sorted(f.proven.items())), f.proving, tuple(f.proof),
            f.binder, f.binding, f.namer, f.trump, f.redeal, f.turning, tuple(f.turn_cards),
            f.deal.snapshot() if f.deal is not None else None, f.finished)


def random_hand(game, state, rng, known, undo_checks=False):
    """Play one hand with random (often wrong) actions; returns the flow.
    Every refused action must leave the hand exactly as it was."""
    cut = rng.random() < 0.5
    dealt = game.deal(rng, state.dealer, cut=cut)
    held = [list(h) for h in dealt.hands]
    f = game.hand_flow(state, dealt.hands if known else None)
    for _ in range(500):
        check_binding(f, game)
        step = f.pending()
        if step.kind == "done":
            return f
        before = observable(f)
        if undo_checks and rng.random() < 0.15:
            copy = [list(h) for h in held]
            try:
                act(f, step, game, held, rng)
            except IllegalPlay:
                assert observable(f) == before
                continue
            f.undo()
            held = copy
            assert observable(f) == before
            continue
        try:
            act(f, step, game, held, rng)
        except IllegalPlay:
            assert observable(f) == before
    raise AssertionError(f"the hand did not end: {f.pending()}")


def act(f, step, game, held, rng):
    seat = step.seat
    if f.phase == "cut":
        f.choose(seat, rng.choice(step.choices))
    elif f.phase == "fris":
        r = rng.random()
        if r < 0.05:
            f.choose(f.dealer, "deal")
        elif r < 0.6:
            f.card(seat, rng.choice(held[seat][:3]))       # an Over makes fris
        else:
            f.choose(seat, "pass")
    elif f.phase == "bind":
        # half the time the call the hand makes, else any call at all, right or wrong:
        # the flow must refuse or strike the wrong ones
        must = rule7_suits(held[seat], game.options["rule7"])
        if must and rng.random() < 0.5:
            f.choose(seat, f"bind:{next(iter(must.values()))}")
        else:
            f.choose(seat, rng.choice(["pass", "closed", *(f"bind:{c}" for c in CALLS)]))
    elif f.phase == "prove":
        if rng.random() < 0.1:
            f.choose(seat, "withdraw")
        else:
            f.card(seat, held[seat][len(f.proof)])
    elif f.phase == "name":
        f.choose(seat, rng.choice(["a", "l", "h", "b"]))
    elif f.phase == "turn":
        f.card(rng.choice([seat, f.dealer]), held[f.turning][3 + len(f.turn_cards)])
    elif step.kind == "play":
        if rng.random() < 0.1:
            # a wrong play, which the hand refuses: a card at another seat's reader,
            # or (hands known) one of the seat's cards the rules do not allow here
            wrong = [c for c in held[seat] if c not in f.legal_cards()] \
                if f.hands is not None else []
            if wrong:
                f.card(seat, rng.choice(wrong))
            other = rng.choice([s for s in range(4) if s != seat])
            f.card(other, rng.choice(held[other] or held[seat]))
            raise AssertionError("a wrong play was accepted")
        if f.hands is not None:
            c = rng.choice(f.legal_cards())
        else:
            deal = f.deal
            legal = [c for c in held[seat] if deal.is_legal(seat, c)]
            if deal.in_fris_trick:
                # a follower uses his first three cards unless his others are turned up
                turned = deal.turned_cards(seat)
                first = [c for c in held[seat][:3] if c in legal]
                smalls = [c for c in first if c.rank in "UK"]
                legal = smalls or ([c for c in legal if c in turned or c in first]
                                   if turned else [])
            if not legal:
                f.choose(seat, "turn")
                return
            c = rng.choice(legal)
        f.card(seat, c)
        held[seat].remove(c)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), options=OPTIONS, known=st.booleans())
def test_every_hand_has_8_points_and_only_eligible_bindings(seed, options, known):
    game = get_game("filcau20", options)
    rng = random.Random(seed)
    state = game.new_match(rng)
    f = random_hand(game, state, rng, known)
    result = f.result()
    if "redeal" in result.extra:
        after = f.settled()
        assert after.score == state.score and after.boss == state.boss
        return
    assert sum(result.points) == 8 and sum(result.tricks) == 5
    check_binding(f, game)
    after = f.settled()
    assert sum(after.score) - sum(state.score) <= 1
    assert after.boss is None or game.team_of(after.dealer) != after.boss


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), options=OPTIONS, known=st.booleans())
def test_random_matches_are_won_at_11(seed, options, known):
    game = get_game("filcau20", options)
    rng = random.Random(seed)
    state = game.new_match(rng)
    for _ in range(3000):
        if state.over:
            break
        state = random_hand(game, state, rng, known).settled()
    assert state.over and state.score[state.winner] == 11
    assert state.score[1 - state.winner] < 11


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), options=OPTIONS, known=st.booleans())
def test_undo_restores_the_hand_exactly(seed, options, known):
    game = get_game("filcau20", options)
    rng = random.Random(seed)
    random_hand(game, game.new_match(rng), rng, known, undo_checks=True)
