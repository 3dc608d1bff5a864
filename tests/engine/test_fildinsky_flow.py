"""Fildinsky through `HandFlow`, the interface the table controller drives:
show the turn-up, play, choose melds / exchange / pass, draw, done."""

from __future__ import annotations

import pytest

from engine import BadRequest, IllegalPlay, card, cards
from engine.flow import Step
from engine.games.fildinsky import FildinskyState
from engine.registry import all_messages
from tests.engine.test_fildinsky_helpers import game, rest_of_pack

render = all_messages().render

H0 = "Qs Kh 7c 8c 9c 7d 8d 9d"
H1 = "Jd Qh 7s 8s 9s Tc Jc Qc"


def flow(hands=True, stock=None, **options):
    g = game(**options)
    hs = [cards(H0), cards(H1)] if hands else None
    return g.hand_flow(FildinskyState(1), hs, stock=stock)


def test_the_dealer_shows_the_turn_up_first():
    f = flow()
    assert f.pending() == Step("show", 1, "fildinsky_show_turn_up")
    with pytest.raises(IllegalPlay) as e:
        f.card(0, card("9h"))
    assert e.value.reason == "not_your_turn"
    ev = f.card(1, card("9h"))
    assert ev.kind == "trump" and ev.data == {"trump": "h", "used": 1}
    assert f.pending() == Step("play", 0, "play")
    f.undo()
    assert f.pending().kind == "show" and f.deal is None


def test_a_turn_up_both_copies_of_which_are_dealt_is_refused():
    g = game()
    f = g.hand_flow(FildinskyState(1), [cards("Ac Ac 7d 8d 9d Td Jd Qd"),
                                        cards("Kc 7c 8s 9s Ts Js Qs Ks")])
    with pytest.raises(BadRequest):
        f.card(1, card("Ac"))
    assert f.pending().kind == "show" and f.deal is None
    f.card(1, card("7c"))  # one copy dealt, the other free: fine
    assert f.pending() == Step("play", 0, "play") and f.deal.trump == "c"


def test_meld_choice_step_then_draw_steps_when_the_stock_is_unknown():
    f = flow()
    f.card(1, card("9h"))
    f.card(0, card("Qs"))
    ev = f.card(1, card("Jd"))
    assert ev.kind == "played" and ev.outcome.trick.winner == 0
    step = f.pending()
    assert step == Step("choose", 0, "fildinsky_declare", ("bezique", "pass"))
    with pytest.raises(BadRequest):
        f.choose(0, "four_aces")
    with pytest.raises(IllegalPlay) as e:
        f.choose(1, "pass")
    assert e.value.reason == "not_your_turn"
    with pytest.raises(IllegalPlay):
        f.card(0, card("Kh"))  # not yet: a choice is awaited
    ev = f.choose(0, "bezique")
    assert ev.kind == "chosen" and ev.data["choice"] == "bezique"
    assert f.deal.points == [40, 0]
    assert f.pending() == Step("card", 0, "fildinsky_draw", ("unknown",))
    f.card(0, card("As"))  # seat 0 shows what he drew
    assert f.pending() == Step("card", 1, "fildinsky_draw", ("unknown",))
    f.choose(1, "unknown")
    assert not f.deal.hands_known and f.pending() == Step("play", 0, "play")
    f.undo()
    assert f.deal.hands_known and f.pending().kind == "card"


def test_draws_are_automatic_when_hands_are_unknown():
    f = flow(hands=False)
    f.card(1, card("9h"))
    f.card(0, card("Qs"))
    f.card(1, card("Jd"))
    f.choose(0, "pass")
    assert f.pending() == Step("play", 0, "play")
    assert f.deal.stock_left == 46
    assert f.known_cards() == {}


def test_draws_are_automatic_with_the_stock_known_and_undo_takes_them_back():
    stock = rest_of_pack(cards(H0), cards(H1), cards("9h"))
    f = flow(stock=stock)
    f.card(1, card("9h"))
    f.card(0, card("7c"))
    before = f.deal.snapshot()
    ev = f.card(1, card("Jc"))  # seat 1 wins, nothing to meld: both draw at once
    assert f.pending() == Step("play", 1, "play")
    assert [type(e).__name__ for e in ev.data["events"]] == ["TrickScore", "Drawn", "Drawn"]
    undone = f.undo()
    assert undone.kind == "undone" and undone.data == {"action": "play"}
    assert undone.seat == 1 and undone.card == card("Jc")
    assert f.deal.snapshot() == before


def test_the_deece_exchange_as_a_choice():
    g = game()
    f = g.hand_flow(FildinskyState(1), [cards("7h Kc Qc 9c 8c 7c 9d 8d"),
                                        cards("8h 7h Jc Tc 9s 8s 7s 7d")])
    f.card(1, card("Ah"))
    f.card(0, card("7h"))
    f.card(1, card("8h"))
    assert f.pending() == Step("choose", 1, "fildinsky_declare", ("exchange", "pass"))
    f.choose(1, "exchange")
    assert f.pending().kind == "card" and f.pending().seat == 1
    assert [c.code for c in f.deal.won_cards(1)] == ["8h", "Ah"]


def test_a_whole_hand_to_done_with_result_and_settlement():
    import random

    rng = random.Random(4)
    g = game()
    dealt = g.deal(rng, 1)
    f = g.hand_flow(FildinskyState(1), dealt.hands, stock=dealt.extra["stock"])
    f.card(1, dealt.extra["turn_up"])
    while f.pending().kind != "done":
        step = f.pending()
        if step.kind == "play":
            f.card(step.seat, next(iter(f.deal.legal_cards())))
        else:
            f.choose(step.seat, step.choices[0])
    res = f.result()
    assert res.points == tuple(f.deal.points) and sum(res.tricks) == 32
    assert res.extra["brisques"][0] + res.extra["melds"][0] + res.extra["bonus"][0] == \
        res.points[0]
    st = f.settled()
    assert st.dealer == 0 and st.score == res.points
    with pytest.raises(IllegalPlay) as e:
        f.card(0, card("Ac"))
    assert e.value.reason == "hand_over"


def test_prompts_and_reasons_have_texts_in_three_languages():
    for key in ("fildinsky_show_turn_up", "fildinsky_declare", "fildinsky_draw",
                "meld_cards_missing", "meld_needs_trick_card", "too_many_melds",
                "no_exchange", "not_in_stock", "match_over"):
        texts = {render(key, lang, seat=0, meld="bezique", card="Qs", family="french")
                 for lang in ("en", "ro", "hu")}
        assert len(texts) == 3 and not any(t.startswith(key) for t in texts)


def test_trump_known_in_advance_still_asks_for_the_turn_up_card():
    g = game()
    f = g.hand_flow(FildinskyState(1), [cards(H0), cards(H1)], "h")
    assert f.pending().kind == "show"
    with pytest.raises(BadRequest):
        f.card(1, card("Ac"))  # not a heart
    f.card(1, card("9h"))
    assert f.pending() == Step("play", 0, "play")
    f.undo()
    assert f.pending().kind == "show" and f.trump == "h"
    f2 = g.hand_flow(FildinskyState(1), None, turn_up=card("Ks"))
    assert f2.pending() == Step("play", 0, "play") and f2.deal.trump == "s"


@pytest.mark.parametrize(("pattern", "order"), [
    ("3-2-3", "0001110011000111"),
    ("2-3-3", "0011000111000111"),
    ("3-3-2", "0001110001110011"),
])
def test_deal_order_for_a_table_that_reads_the_deal(pattern, order):
    g = game(deal_pattern=pattern)
    f = g.hand_flow(FildinskyState(1), None)
    assert f.deal_order() == tuple(int(x) for x in order)
    assert game(deal_pattern=pattern).hand_flow(FildinskyState(0), None).deal_order() == \
        tuple(1 - int(x) for x in order)
    # After the deal the table still waits for the turned-up card.
    f = g.hand_flow(FildinskyState(1), [cards(H0), cards(H1)])
    assert f.after_deal([(1, c) for c in cards(H1)]) == []
    assert f.pending().kind == "show"


def test_one_policy_for_unreported_draws_at_the_table_and_at_the_referee():
    """Hands unknown, the table's flow makes the draws unseen at once; the
    deal the referee drives makes them unseen when the next leader plays
    without them reported: the same engine rule, the same state after it."""
    f = flow(hands=False)
    f.card(1, card("9h"))
    f.card(0, card("Qs"))
    f.card(1, card("Jd"))
    ev = f.choose(0, "pass")
    table_draws = [(e.seat, e.card) for e in ev.data["events"] if type(e).__name__ == "Drawn"]
    assert table_draws == [(0, None), (1, None)]

    g = game()
    deal = g.new_hand(FildinskyState(1), card("9h"), None, None)
    deal.play(0, card("Qs"))
    deal.play(1, card("Jd"))
    deal.move_on(0, playing=True)            # the leader plays: melds closed, draws unseen
    assert deal.pending() == ("play", 0)
    assert deal.snapshot() == f.deal.snapshot()
    assert deal.draw_unreported() == []      # nothing due any more
