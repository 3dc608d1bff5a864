"""Fildinsky's end game in the solver (`Position.extras`): besides the
brisques, a trick scores the deece (a Seven of trumps that has not scored
yet), the last-trick bonus (option `last_trick_bonus = 32`) and the melds
its winner declares from his won cards; each player plays for his margin.
The solver agrees exactly with a brute force that plays every card and every
meld choice out with the game's own deal, on random endings of 3 and 4
tricks under the default options and the variants that change what the end
game scores."""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Card, get_game
from engine.analysis import Position, SolverCache, analyse, position_of
from engine.analysis.review import HandRecord, record_of, review_double_dummy
from engine.games.fildinsky.endgame import EndgameScoring, EndState
from tests.analysis.helpers import brute_force_fildinsky, exact_fildinsky, fildinsky_ending

#: Endings per case (a brute force through the deal takes about half a
#: second); CARDTABLE_SOLVER_ENDINGS=N multiplies them by N for a longer run.
_SCALE = int(os.environ.get("CARDTABLE_SOLVER_ENDINGS", "1"))
OPTIONS = {
    "default": {},
    "last trick 32": {"last_trick_bonus": 32},
    "deece by its player": {"deece_trigger": "played_by_winner"},
    "melds without a trick card": {"meld_needs_current_trick_card": False},
}


@pytest.mark.parametrize("variant", list(OPTIONS))
def test_the_solver_agrees_with_the_brute_force_in_the_end_game(variant: str) -> None:
    game = get_game("fildinsky", OPTIONS[variant])
    rng = random.Random(f"fildinsky-{variant}")
    extra = 0
    for i in range(6 * _SCALE):
        deal = fildinsky_ending(game, rng, 4 if i % 4 == 0 else 3)
        margin, values = brute_force_fildinsky(deal)
        p = position_of(deal)
        assert p.extras is not None
        a = analyse(p)
        sign = 1 if a.team == 0 else -1
        assert a.points[0] - a.points[1] == margin, (i, deal.snapshot())
        assert {c: a.loss(c) for c in a.values} == \
            {c: margin * sign - v for c, v in values.items()}, (i, deal.snapshot())
        # What brisques alone would say, for the count of endings where the
        # extras change the answer.
        plain = analyse(Position(p.game, p.trump, p.hands, p.trick, p.leader, p.teams, p.won,
                                 p.family))
        extra += (plain.points[0] - plain.points[1]) != margin
    assert extra >= 1, "the extras changed no answer: the check proves little"


def test_the_review_judges_the_end_game_with_its_melds() -> None:
    rng = random.Random("fildinsky-review")
    game = get_game("fildinsky")
    for _ in range(2):
        deal = fildinsky_ending(game, rng, 8)
        if deal.trick:
            deal.undo()
        while not deal.finished:
            deal.step_randomly(rng)
        record = record_of(deal)
        assert len(record.plays) == 16 and record.extras is not None
        reviews = review_double_dummy(record)
        assert [r.index for r in reviews] == list(range(16))
        # The last card of the hand has no choice left.
        assert reviews[-1].legal == 1 and reviews[-1].loss == 0


def _whole_end_game(rng: random.Random) -> HandRecord:
    """A whole end game played at random by the game's own deal, recorded."""
    deal: Any = fildinsky_ending(get_game("fildinsky"), rng, 8)
    if deal.trick:
        deal.undo()
    while not deal.finished:
        deal.step_randomly(rng)
    return record_of(deal)


def test_the_review_of_a_whole_end_game_agrees_with_an_exact_search_without_pruning() -> None:
    """One table serves the 16 positions of the review, as in
    `cardtable review`: every judgement from the last five tricks on (an
    exact search of more takes minutes) is the reference's, the loss of the
    card played and the best cards. (The third hand of this seed is one the
    search once judged wrong: a window narrowed to a remembered bound that
    had become exact was empty, and its answer was taken as a bound.)"""
    rng = random.Random("fildinsky-bench")
    for i in range(3):
        record = _whole_end_game(rng)
        if i < 2:
            continue
        reviews = review_double_dummy(record, SolverCache())
        assert len(reviews) == 16
        for r in reviews[6:]:
            margin, values = exact_fildinsky(record.position(r.index))
            best = max(values.values())
            assert (r.loss, set(r.best)) == \
                (best - values[r.card], {c for c, v in values.items() if v == best}), r


@pytest.mark.parametrize("variant", [v for v in OPTIONS if v != "default"])
def test_the_solver_agrees_with_an_exact_search_on_endings_of_five_tricks(variant: str) -> None:
    """The variants (the default options: the whole end game's review above)."""
    game = get_game("fildinsky", OPTIONS[variant])
    rng = random.Random(f"fildinsky-5-{variant}")
    for i in range(_SCALE):
        deal = fildinsky_ending(game, rng, 5)
        p = position_of(deal)
        margin, values = exact_fildinsky(p)
        a = analyse(p)
        sign = 1 if a.team == 0 else -1
        assert (a.points[0] - p.won[0]) - (a.points[1] - p.won[1]) == margin, i
        assert {c: a.loss(c) for c in a.values} == \
            {c: margin * sign - v for c, v in values.items()}, (i, deal.snapshot())


# ----- the scoring's packed piles against the meld rules written out ------------------

_SCORINGS = [EndgameScoring(t, bezique_pair=b, meld_needs_trick_card=n)
             for t in "cdhs" for b in ("fixed", "classic_switch") for n in (True, False)]
#: Every card of the pack once (the pack holds each twice).
_CARDS = [Card(r, s) for r in "789TJQKA" for s in "cdhs"]


Split = tuple[EndgameScoring, Counter[Card], Counter[Card], Counter[Card]]


@st.composite
def _split(draw: st.DrawFn) -> Split:
    """A scoring and two copies of every card dealt at random between a
    seat's unused won cards, the other seat's, and the cards still out (or
    gone: played, or used in a meld)."""
    scoring = draw(st.sampled_from(_SCORINGS))
    places: list[Counter[Card]] = [Counter(), Counter(), Counter(), Counter()]
    weights = draw(st.sampled_from([(1, 1, 1, 3), (2, 1, 1, 1), (1, 1, 3, 1)]))
    for c in _CARDS:
        for _ in range(2):
            places[draw(st.sampled_from([i for i, w in enumerate(weights) for _ in range(w)]))
                   ][c] += 1
    return scoring, places[0], places[1], places[2]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(_split(), st.data())
def test_the_packed_choices_are_the_meld_rules_choices(split: Split, data: st.DataObject) -> None:
    """`choices` offers, after any trick, exactly the meld choices the game's
    meld rules allow (`meld_choices`, written with `legal_melds` and
    `combination_problem`), in the same order, each leaving the right cards."""
    scoring, pile, other, out = split
    trick = data.draw(st.lists(st.sampled_from(sorted(out.elements(), key=str) or [Card("7", "c")]),
                               min_size=2, max_size=2))
    winner = data.draw(st.integers(0, 1))
    state = EndState((scoring.pile(pile), scoring.pile(other)) if winner == 0 else
                     (scoring.pile(other), scoring.pile(pile)))
    got = scoring.choices(state, 30, 0, trick, winner)
    have = Counter(pile)
    have.update(trick)
    expected = scoring.meld_choices(have, Counter(trick) if scoring.meld_needs_trick_card
                                    else None)
    if scoring.meld_needs_trick_card and not any(c in scoring.meld_cards() for c in trick):
        expected = [()]
    bonus = got[0][0]   # the deece, the same whatever the melds
    assert [p - bonus for p, _ in got] == [sum(k.points for k in ks) for ks in expected]
    for (_, after), ks in zip(got, expected, strict=True):
        left = Counter(have)
        for k in ks:
            left.subtract(k.cards)
        assert scoring.pile_cards(after.piles[winner]) == \
            Counter({c: n for c, n in left.items() if n > 0 and c in scoring.meld_cards()})
        assert after.piles[1 - winner] == state.piles[1 - winner]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(_split(), st.data())
def test_dropping_the_won_cards_that_can_no_longer_score_changes_nothing_later(
        split: Split, data: st.DataObject) -> None:
    """`relevant` is exact: from a state and the state it keeps, every trick
    that can still be played offers the same choices, and the states after
    them keep the same cards again; so, trick by trick, the rest of the hand
    scores the same. And it does drop cards: a won card no meld can use."""
    scoring, pile0, pile1, out = split
    full = EndState((scoring.pile(pile0), scoring.pile(pile1)), (0, 0))
    outs = list(out.elements())
    kept = scoring.relevant(full, scoring.cards_out(outs))
    for _ in range(3):
        if len(outs) < 2:
            break
        i, j = data.draw(st.lists(st.integers(0, len(outs) - 1), min_size=2, max_size=2,
                                  unique=True))
        trick = [outs[i], outs[j]]
        rest = [c for k, c in enumerate(outs) if k not in (i, j)]
        leader, winner = data.draw(st.integers(0, 1)), data.draw(st.integers(0, 1))
        a = scoring.choices(full, 30, leader, trick, winner)
        b = scoring.choices(kept, 30, leader, trick, winner)
        assert [p for p, _ in a] == [p for p, _ in b]
        left = scoring.cards_out(rest)
        assert [scoring.relevant(s, left) for _, s in a] == \
            [scoring.relevant(s, left) for _, s in b]
        pick = data.draw(st.integers(0, len(a) - 1))
        full, kept, outs = a[pick][1], scoring.relevant(b[pick][1], left), rest


def test_a_won_card_no_meld_can_use_any_more_is_dropped() -> None:
    scoring = EndgameScoring("h")
    c = Card.parse
    # Seat 0 won K and Q of diamonds, both copies of each are gone: the
    # diamond marriage is over. The Jack of hearts still counts (the
    # sequence in hearts and four Jacks are still possible with the cards out).
    state = EndState((scoring.pile(Counter([c("Kd"), c("Qd"), c("Jh")])), 0))
    out = [c("Ah"), c("Th"), c("Kh"), c("Qh"), c("Jc"), c("Js"), c("Jd")]
    kept = scoring.relevant(state, scoring.cards_out(out))
    assert scoring.pile_cards(kept.piles[0]) == Counter([c("Jh")])
    # With another Queen of diamonds out, the marriage is possible again.
    assert scoring.relevant(state, scoring.cards_out([*out, c("Qd")])) == state


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.sampled_from(list(OPTIONS)), st.integers(0, 2**32), st.integers(2, 4))
def test_the_pruned_search_never_contradicts_the_exact_search(variant: str, seed: int,
                                                               tricks: int) -> None:
    """Dropping dead won cards, merging interchangeable plain cards and the
    empty-window searches at the root: random endings of 2 to 4 tricks in
    every variant, every card's loss as the search without pruning says."""
    deal = fildinsky_ending(get_game("fildinsky", OPTIONS[variant]), random.Random(seed),
                            tricks)
    p = position_of(deal)
    margin, values = exact_fildinsky(p)
    a = analyse(p)
    sign = 1 if a.team == 0 else -1
    assert (a.points[0] - p.won[0]) - (a.points[1] - p.won[1]) == margin
    assert {c: a.loss(c) for c in a.values} == {c: margin * sign - v for c, v in values.items()}
