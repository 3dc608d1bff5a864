"""Rules the referee used to check itself now live in the game's package and
answer the same way to the table's flow and to the referee."""

from __future__ import annotations

import pytest

from engine import BadRequest, IllegalPlay, card, get_game
from tests.engine.test_filcau20_fris import FRIS_HANDS, cut


def test_only_the_dealer_deals_the_rest_of_the_fris_window():
    f = cut(FRIS_HANDS)
    f.choose(0, "pass")
    with pytest.raises(IllegalPlay) as refused:
        f.deal_rest(1)                       # seat 1 names itself: not the dealer
    assert refused.value.reason == "only_dealer"
    assert "seat 4" in refused.value.message("en")   # seat 3, as people count
    assert f.pending().prompt == "filcau20_fris" and f.pending().seat == 1   # unchanged
    event = f.deal_rest(3)
    assert event.seat == 3 and f.pending().prompt == "filcau20_bind"


@pytest.mark.parametrize(("played", "seat", "reason"), [
    (1, 0, "redeal_too_late"), (0, 1, "redeal_not_allowed")])
def test_a_sueca_redeal_claim_too_late_or_not_allowed_is_refused(played, seat, reason):
    game = get_game("sueca")
    with pytest.raises(IllegalPlay) as refused:
        game.redeal_claim_limit(seat, 0, played)
    assert refused.value.reason == reason


def test_a_sueca_redeal_claim_over_the_limit_is_refused_with_its_points():
    game = get_game("sueca")
    limit = game.redeal_claim_limit(0, 0, 0)
    weak = [card(c) for c in ("2h", "3h", "4h", "5h", "6h", "2s", "3s", "4s", "5s", "Qs")]
    assert game.redeal_verdict(0, weak, limit) == (2, None)
    strong = [card("Ah"), *weak[1:]]
    points, refused = game.redeal_verdict(0, strong, limit)
    assert points == 13 and refused is not None and refused.reason == "redeal_refused"
    with pytest.raises(IllegalPlay, match="13"):
        game.redeal_points(0, strong, limit)


def test_the_shown_cards_must_be_the_dealers_when_the_hands_are_known():
    game = get_game("filicau")
    hands = [[card("Oa")], [card("9h")], [], []]
    game.check_shown(0, [card("Oa")], hands)
    game.check_shown(0, [card("9h")], None)            # hands unknown: nothing to check
    with pytest.raises(IllegalPlay) as refused:
        game.check_shown(0, [card("9h")], hands)
    assert refused.value.reason == "not_in_hand" and refused.value.params["seat"] == 0


def test_after_a_granted_redeal_the_referee_refuses_a_denounce_as_hand_over():
    import json
    import random

    from engine.games.sueca import hand_points
    from table.referee import Referee

    game = get_game("sueca", {"revoke_mode": "denounce_match_loss"})
    for seed in range(500):
        dealt = game.deal(random.Random(seed), 3)
        if hand_points(dealt.hands[dealt.leader]) <= 10:
            break
    else:
        pytest.fail("no weak hand in 500 deals")
    ref = Referee()

    def ask(**obj):
        return json.loads(ref.answer_line(json.dumps(obj)))

    hands = [[c.code for c in h] for h in dealt.hands]
    assert ask(op="new_hand", game="sueca", options={"revoke_mode": "denounce_match_loss"},
               state={"score": [0, 0], "carry": 0, "dealer": 3, "winner": None},
               shown=[dealt.shown[0].code], hands=hands)["ok"]
    granted = ask(op="redeal", game="sueca", seat=dealt.leader)
    assert granted["ok"] and granted["hand"]["redeal"] == dealt.leader
    refused = ask(op="denounce", game="sueca", seat=1, accused=0)
    assert refused["ok"] is False and refused["reason"] == "hand_over"


WEAK = "2h 3h 4h 5h 6h 2s 3s 4s 5s Qs"


def _sueca_flow(hands):
    from engine import cards
    game = get_game("sueca")
    known = [cards(h) for h in hands] if hands is not None else None
    state = game.state_from_json({"score": [0, 0], "dealer": 3})
    return game.flow_with_trump(state, known, "c")


def test_a_sueca_redeal_claim_with_the_hands_known_counts_the_dealt_hand_and_ends_it():
    flow = _sueca_flow([WEAK, "Ah 7h Kh Jh Qh As 7s Ks Js 6s",
                        "2c 3c 4c 5c 6c 7c Jc Qc Kc Ac", "2d 3d 4d 5d 6d 7d Jd Qd Kd Ad"])
    with pytest.raises(BadRequest):
        flow.claim_redeal(0, lambda: [])          # the hands are known
    assert flow.claim_redeal(0).data["points"] == 2
    assert flow.deal.finished and flow.deal.redealt and flow.pending().kind == "done"
    assert flow.settled().to_json()["dealer"] == 3      # the same dealer deals again


def test_a_sueca_redeal_claim_with_hands_unknown_reads_the_cards_only_when_allowed():
    from engine import cards
    flow = _sueca_flow(None)
    read = []

    def shown():
        read.append(True)
        return cards(WEAK)

    with pytest.raises(IllegalPlay) as refused:
        flow.claim_redeal(1, shown)               # not the leader: no claim
    assert refused.value.reason == "redeal_not_allowed" and read == []
    with pytest.raises(BadRequest):
        flow.claim_redeal(0, lambda: cards(WEAK)[:9])
    assert not flow.deal.finished and not flow.can_undo     # refused: nothing changed
    assert flow.claim_redeal(0, shown).data["points"] == 2 and read == [True]
    assert flow.deal.redealt
    flow.undo()                                   # the claim is one act, taken back whole
    assert not flow.deal.finished and flow.pending().kind == "play"


def test_sueca_knows_the_dealer_from_the_leader_filicau_does_not():
    assert [get_game("sueca").dealer_before(s) for s in range(4)] == [3, 0, 1, 2]
    assert get_game("filicau").dealer_before(0) is None
