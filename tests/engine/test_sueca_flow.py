"""A Sueca hand as the table lives it: the turned card, the redeal claim, the
denounce of a revoke, the end-of-hand window and undo (engine.games.sueca.flow)."""

from __future__ import annotations

import random

import pytest

from engine import IllegalPlay, card, cards, get_game
from engine.games.sueca import SuecaState
from tests.engine.test_sueca import make_hands

START = SuecaState((1, 0), 0, 3)   # dealer 3: seat 0 leads


def flow(options=None, hands=None, trump="h", state=START):
    return get_game("sueca", options).hand_flow(state, hands, trump)


def play_out(f, rng_choice=lambda legal: legal[0]):
    while f.pending().kind == "play":
        step = f.pending()
        f.card(step.seat, rng_choice(f.legal_cards()))


# ----- the turned card ----------------------------------------------------------------


def test_the_dealer_shows_the_turned_card_then_the_player_after_him_leads():
    hands = make_hands("", "", "", "7d")
    f = flow(hands=hands, trump=None)
    assert f.pending().kind == "show" and f.pending().seat == 3
    with pytest.raises(IllegalPlay) as refused:
        f.card(0, card("7d"))
    assert refused.value.reason == "not_your_turn"
    event = f.card(3, card("7d"))
    assert event.kind == "trump" and event.data == {"trump": "d", "used": 1}
    step = f.pending()
    assert (step.kind, step.seat) == ("play", 0)
    assert f.deal.trump == "d"


def test_with_hands_unknown_the_turned_card_is_known_to_be_the_dealers():
    f = flow(trump=None)
    f.card(3, card("7d"))
    with pytest.raises(IllegalPlay) as refused:
        f.card(0, card("7d"))
    assert refused.value.reason == "not_in_hand"


# ----- the redeal claim -----------------------------------------------------------------

TEN_POINTS = "7c 2c 3c 4c 5c 6c 2d 3d 4d 5d"
ELEVEN_POINTS = "Ac 2c 3c 4c 5c 6c 2d 3d 4d 5d"


def test_the_first_player_may_claim_a_redeal_with_10_points_or_less():
    f = flow(hands=make_hands(TEN_POINTS))
    assert f.pending().choices == ("redeal:0",)
    event = f.choose(0, "redeal:0")
    assert event.data["redeal"] is True and event.data["points"] == 10
    assert f.finished and f.pending().kind == "done"
    assert f.result().extra == {"redeal": 0}
    assert f.settled() == START          # same dealer, nothing scored


def test_a_redeal_claim_with_11_points_is_refused_and_changes_nothing():
    f = flow(hands=make_hands(ELEVEN_POINTS))
    with pytest.raises(IllegalPlay) as refused:
        f.choose(0, "redeal:0")
    assert refused.value.reason == "redeal_refused"
    assert "11" in refused.value.message("en")
    assert f.pending().kind == "play" and f.pending().seat == 0
    f.card(0, card("Ac"))


def test_only_the_first_player_may_claim_by_default():
    f = flow(hands=make_hands(ELEVEN_POINTS, "2h 3h 4h 5h 6h 2s 3s 4s 5s 6s"))
    with pytest.raises(IllegalPlay) as refused:
        f.choose(1, "redeal:1")
    assert refused.value.reason == "not_expected"
    with pytest.raises(IllegalPlay) as refused:
        f.choose(1, "redeal:0")       # the menu's claim is seat 0's, whoever chooses it
    assert refused.value.reason == "redeal_refused"


def test_no_claim_after_the_first_card():
    f = flow(hands=make_hands(TEN_POINTS))
    f.card(0, card("2c"))
    assert not any(c.startswith("redeal") for c in f.pending().choices)
    with pytest.raises(IllegalPlay):
        f.choose(0, "redeal:0")


def test_redeal_threshold_off():
    f = flow({"redeal_threshold": "off"}, hands=make_hands("2c 3c 4c 5c 6c 2d 3d 4d 5d 6d"))
    assert f.pending().choices == ()
    with pytest.raises(IllegalPlay):
        f.choose(0, "redeal:0")


@pytest.mark.parametrize("hand0,hand2,seat,granted", [
    ("Kc Jc Qc 2c 3c 4c 5c 6c 2d 3d", "", 0, True),      # first player: 9 < 10
    (TEN_POINTS, "", 0, False),                          # first player: 10 is not < 10
    (ELEVEN_POINTS, "Kh 2h 3h 4h 5h 6h 2s 3s 4s 5s", 2, True),   # another: 4 < 5
    (ELEVEN_POINTS, "Jh Qh 3h 4h 5h 6h 2s 3s 4s 5s", 2, False),  # another: 5 is not < 5
])
def test_redeal_threshold_brazil(hand0, hand2, seat, granted):
    f = flow({"redeal_threshold": "brazil"}, hands=make_hands(hand0, "", hand2))
    assert f.pending().choices == ("redeal:0", "redeal:1", "redeal:2", "redeal:3")
    if granted:
        f.choose(seat, f"redeal:{seat}")
        assert f.result().extra == {"redeal": seat}
    else:
        with pytest.raises(IllegalPlay) as refused:
            f.choose(seat, f"redeal:{seat}")
        assert refused.value.reason == "redeal_refused"


def test_with_hands_unknown_the_claimant_taps_his_hand():
    f = flow()
    f.choose(0, "redeal:0")
    step = f.pending()
    assert (step.kind, step.seat, step.prompt) == ("card", 0, "sueca_show_hand")
    for c in cards(TEN_POINTS)[:9]:
        f.card(0, c)
    with pytest.raises(IllegalPlay):
        f.card(0, card("7c"))         # the same card twice
    event = f.card(0, card("5d"))
    assert event.data == {"redeal": True, "points": 10, "limit": 10}
    assert f.result().extra == {"redeal": 0}


def test_with_hands_unknown_a_refused_claim_leaves_the_shown_cards_known():
    f = flow()
    f.choose(0, "redeal:0")
    for c in cards(ELEVEN_POINTS):
        f.card(0, c)
    assert f.pending().kind == "play" and f.pending().choices == ()   # no second claim
    with pytest.raises(IllegalPlay) as refused:
        f.card(0, card("Ah"))         # not one of the cards he showed
    assert refused.value.reason == "not_in_hand"
    f.card(0, card("2c"))
    with pytest.raises(IllegalPlay) as refused:
        f.card(1, card("Ac"))         # seat 1 cannot hold a card seat 0 showed
    assert refused.value.reason == "not_in_hand"
    f.card(1, card("As"))
    f.card(2, card("Kc"))
    f.card(3, card("Qc"))             # seat 2 won with the King; seat 0 holds clubs:
    f.card(2, card("Jc"))
    f.card(3, card("Ad"))
    with pytest.raises(IllegalPlay) as refused:
        f.card(0, card("2d"))         # his hand is on record, so he must follow suit
    assert refused.value.reason == "must_follow"
    f.card(0, card("3c"))


# ----- revokes and the denounce ------------------------------------------------------------

# Seat 1 holds a spade but will play a club on the spade lead.
REVOKE_HANDS = ("As 2c 3c 4c 5c 6c 2d 3d 4d 5d", "Ks Ac 7c Kc Jc Qc 6d 7d Kd Jd",
                "2s 3s 4s 5s 6s Qs Js 7s Ad Qd")


def revoke_flow(mode, state=START):
    f = flow({"revoke_mode": mode}, hands=make_hands(*REVOKE_HANDS), state=state)
    f.card(0, card("As"))
    return f


def test_strict_mode_offers_no_denounce_and_refuses_the_revoke():
    f = revoke_flow("strict")
    assert f.pending().choices == ()
    with pytest.raises(IllegalPlay) as refused:
        f.card(1, card("Ac"))
    assert refused.value.reason == "must_follow"


def test_denounce_mode_accepts_the_revoke_without_announcing_it():
    f = revoke_flow("denounce_match_loss")
    event = f.card(1, card("Ac"))
    assert event.outcome.revoke is None
    assert f.pending().choices == ("denounce:0", "denounce:1", "denounce:2", "denounce:3")


def test_a_proven_revoke_loses_the_match():
    f = revoke_flow("denounce_match_loss")
    f.card(1, card("Ac"))
    f.card(2, card("2s"))
    event = f.choose(2, "denounce:1")
    assert event.data["penalty"] == {"team": 1, "reason": "revoke", "accuser": 2, "accused": 1,
                                     "revoke": {"seat": 1, "trick": 1, "suit": "s"}}
    assert f.finished
    assert f.result().extra["penalty"]["team"] == 1
    after = f.settled()
    assert after.winner == 0 and after.score == (4, 0) and after.dealer == 0


def test_a_false_denounce_is_refused_when_a_revoke_loses_the_match():
    f = revoke_flow("denounce_match_loss")
    f.card(1, card("Ks"))
    with pytest.raises(IllegalPlay) as refused:
        f.choose(0, "denounce:1")
    assert refused.value.reason == "no_revoke"
    assert f.pending().kind == "play" and f.pending().seat == 2


def test_the_menus_denounce_is_made_by_the_opponents_whoever_chooses_it():
    f = revoke_flow("denounce_match_loss")
    f.card(1, card("Ac"))
    event = f.choose(3, "denounce:1")      # seat 3 pressed OK: seat 1's opponents accuse
    assert event.data["penalty"]["accuser"] == 2 and event.data["penalty"]["team"] == 1


def test_partners_cannot_denounce_each_other():
    f = revoke_flow("denounce_match_loss")
    f.card(1, card("Ac"))
    with pytest.raises(IllegalPlay) as refused:
        f.deal.denounce(3, 1)
    assert refused.value.reason == "denounce_partner"
    assert f.pending().kind == "play"


def test_hand_120_mode_a_proven_revoke_loses_the_hand_120_to_0():
    f = revoke_flow("denounce_hand_120", state=SuecaState((1, 0), 1, 3))
    f.card(1, card("Ac"))
    f.choose(0, "denounce:1")
    after = f.settled()
    assert after.score == (1 + 2 + 1, 0) and after.winner == 0 and after.carry == 0


def test_hand_120_mode_a_false_denounce_loses_the_hand_for_the_accusers():
    f = revoke_flow("denounce_hand_120")
    f.card(1, card("Ks"))
    event = f.choose(1, "denounce:0")
    assert event.data["penalty"]["reason"] == "false_denounce"
    assert event.data["penalty"]["team"] == 1
    after = f.settled()
    assert after.score == (3, 0) and after.winner is None


def test_after_the_last_trick_players_may_denounce_or_accept():
    f = revoke_flow("denounce_match_loss")
    f.card(1, card("Ac"))
    play_out(f)
    step = f.pending()
    assert step.kind == "choose" and step.seat == 3       # the dealer confirms
    assert step.choices == ("accept", "denounce:0", "denounce:1", "denounce:2", "denounce:3")
    f.choose(0, "denounce:1")
    assert f.settled().winner == 0


def test_accepting_the_hand_scores_it_normally():
    f = flow({"revoke_mode": "denounce_hand_120"}, hands=make_hands(*REVOKE_HANDS))
    play_out(f)
    f.choose(1, "accept")
    assert f.finished
    points = f.result().points
    assert sum(points) == 120
    expected = START.score[0] + (2 if points[0] > 90 else 1 if points[0] > 60 else 0)
    assert f.settled().score[0] == expected


def test_with_hands_unknown_a_revoke_is_proven_by_a_later_play():
    f = flow({"revoke_mode": "denounce_match_loss"})
    for seat, c in enumerate(("As", "Ac", "2s", "3s")):   # seat 1 shows a void in spades
        f.card(seat, card(c))
    with pytest.raises(IllegalPlay):
        f.choose(2, "denounce:1")                         # not proven yet
    for seat, c in enumerate(("Ks", "7c", "Qs", "4s")):   # seat 0 won and leads a spade
        f.card(seat, card(c))
    assert f.deal.revokes == []
    f.card(0, card("Js"))
    event = f.card(1, card("7s"))                         # seat 1 plays a spade after all
    assert event.outcome.revoke is not None and event.outcome.revoke.seat == 1
    f.choose(0, "denounce:1")
    assert f.settled().winner == 0


# ----- a full hand, the flag and undo ------------------------------------------------------


def test_a_team_taking_every_trick_plays_the_flag():
    hands = make_hands("As 7s Ks Js Qs 6s 5s 4s 3s Ah", "", "", "2s 7h Kh Jh Qh 6h 5h 4h 3h 2h")
    f = flow(hands=hands, trump="s")
    for c in ("As", "7s", "Ks", "Js", "Qs", "6s", "5s", "4s", "3s", "Ah"):
        f.card(0, card(c))
        for seat in (1, 2, 3):
            f.card(seat, f.legal_cards()[0])
    assert f.result().points == (120, 0) and f.result().tricks == (10, 0)
    assert f.settled().winner == 0


def test_undo_takes_back_every_kind_of_action():
    f = flow({"revoke_mode": "denounce_match_loss"}, hands=make_hands(*REVOKE_HANDS), trump=None)
    f.card(3, f.hands[3][-1])
    start = f.pending()
    f.card(0, card("As"))
    f.card(1, card("Ac"))
    f.choose(0, "denounce:1")
    assert f.finished
    f.undo()
    assert f.pending().kind == "play" and f.pending().seat == 2
    f.undo()
    f.undo()
    assert f.pending() == start
    f.undo()
    assert f.pending().kind == "show"
    with pytest.raises(IllegalPlay) as refused:
        f.undo()
    assert refused.value.reason == "nothing_to_undo"


def test_undo_of_a_redeal():
    f = flow(hands=make_hands(TEN_POINTS))
    f.choose(0, "redeal:0")
    f.undo()
    assert f.pending().kind == "play"
    f.card(0, card("7c"))


# ----- a table that reads the deal ---------------------------------------------------------


def test_deal_order_is_ten_at_a_time_from_the_dealers_left():
    f = flow(trump=None, state=SuecaState((0, 0), 0, 1))
    assert f.deal_order() == (2,) * 10 + (3,) * 10 + (0,) * 10 + (1,) * 10


def test_after_deal_shows_the_last_card_dealt_as_the_turned_card():
    game = get_game("sueca")
    dealt = game.deal(random.Random(4), 1)
    f = game.hand_flow(SuecaState((0, 0), 0, 1), dealt.hands)
    order = f.deal_order()
    cursor = [0, 0, 0, 0]
    sequence = []
    for seat in order:
        sequence.append((seat, dealt.hands[seat][cursor[seat]]))
        cursor[seat] += 1
    events = f.after_deal(sequence)
    assert [e.kind for e in events] == ["trump"]
    assert f.deal.trump == dealt.trump and f.shown == [dealt.shown[0]]
    assert f.after_deal(sequence) == []          # nothing more to show


def test_can_undo():
    f = flow(hands=make_hands(TEN_POINTS))
    assert not f.can_undo
    f.card(0, card("2c"))
    assert f.can_undo
