"""One hand of play: turn, validation, refusals that change nothing, undo, and
the hands-unknown mode with voids and revokes."""

from __future__ import annotations

import pytest

from engine import IllegalPlay, UnknownCard, card, cards, get_game

G = get_game("filicau")

# Four hands of 8, trump hearts, seat 0 leads (dealer 3).
HANDS = [
    cards("Oa Ah Th Aa 7a Al 8b 9b"),
    cards("Ol Kh 9h Ta Ka Tl 7l 7b"),
    cards("Oh Uh 8h Ua 9a Kl Ab Tb"),
    cards("Ob 7h 8a Ul 9l 8l Kb Ub"),
]


def new(hands=HANDS, trump="h", leader=0, **kw):
    return G.new_deal(trump, leader, hands, **kw)


def test_whose_turn_moves_round_and_the_winner_leads():
    d = new()
    assert d.turn == 0
    d.play(0, card("Aa"))
    assert d.turn == 1
    d.play(1, card("Ta"))
    d.play(2, card("Ua"))
    out = d.play(3, card("8a"))
    assert out.trick is not None and out.trick.winner == 0 and out.trick.points == 2
    assert d.turn == 0 and d.trick_number == 2


@pytest.mark.parametrize("seat,code,reason", [
    (1, "Ol", "not_your_turn"),
    (0, "Ol", "not_in_hand"),
])
def test_refusals_before_any_play(seat, code, reason):
    d = new()
    before = d.snapshot()
    with pytest.raises(IllegalPlay) as err:
        d.play(seat, card(code))
    assert err.value.reason == reason
    assert d.snapshot() == before


def test_a_card_not_in_the_pack_is_unknown():
    d = new()
    with pytest.raises(UnknownCard):
        d.play(0, "2c")
    with pytest.raises(UnknownCard):
        d.play(0, "nonsense")


def test_must_follow_and_must_trump_are_refused_and_change_nothing():
    d = new()
    d.play(0, card("Aa"))
    before = d.snapshot()
    with pytest.raises(IllegalPlay) as err:
        d.play(1, card("Tl"))  # holds Ta, Ka: must follow acorns
    assert err.value.reason == "must_follow"
    assert "acorns" in err.value.message("en")
    assert "ghindă" in err.value.message("ro")
    assert "makk" in err.value.message("hu")
    assert d.snapshot() == before
    d.play(1, card("Ta"))
    d.play(2, card("9a"))
    d.play(3, card("8a"))
    # Trick 2: seat 0 leads bells; seat 1 has 7b and must follow.
    d.play(0, card("9b"))
    d.play(1, card("7b"))
    # Seat 2 has bells (Ab, Tb) and must follow
    with pytest.raises(IllegalPlay) as err:
        d.play(2, card("Oh"))
    assert err.value.reason == "must_follow"
    d.play(2, card("Ab"))
    d.play(3, card("Kb"))
    # Trick 3, seat 2 leads clubs... leaves: Kl. Seat 3 follows with Ul.
    d.play(2, card("Kl"))
    d.play(3, card("Ul"))
    d.play(0, card("Al"))
    d.play(1, card("Tl"))
    # Seat 0 won with Al, leads the 8 of bells; seat 1 is now void in bells
    # and must trump with Ol, Kh or 9h.
    d.play(0, card("8b"))
    with pytest.raises(IllegalPlay) as err:
        d.play(1, card("7l"))
    assert err.value.reason == "must_trump"


def test_already_played():
    d = new()
    d.play(0, card("Aa"))
    with pytest.raises(IllegalPlay) as err:
        d.play(1, card("Aa"))
    assert err.value.reason == "already_played"


def test_undo_restores_exactly_across_a_trick():
    d = new()
    snaps = [d.snapshot()]
    for seat, code in [(0, "Aa"), (1, "Ta"), (2, "Ua"), (3, "8a"), (0, "9b")]:
        d.play(seat, card(code))
        snaps.append(d.snapshot())
    for expected in reversed(snaps[:-1]):
        d.undo()
        assert d.snapshot()[:-1] == expected[:-1]
    with pytest.raises(IllegalPlay) as err:
        d.undo()
    assert err.value.reason == "nothing_to_undo"


def test_the_hand_ends_after_eight_tricks_with_all_points():
    import random

    d = new()
    d.playout(random.Random(4))
    assert d.finished and len(d.tricks) == 8
    assert sum(d.team_points()) == 8 and sum(d.team_tricks()) == 8
    with pytest.raises(IllegalPlay) as err:
        d.play(d.turn, card("Oa"))
    assert err.value.reason == "hand_over"


def test_hands_must_be_complete_and_disjoint():
    from engine import BadRequest

    with pytest.raises(BadRequest):
        new(hands=HANDS[:3])
    with pytest.raises(BadRequest):
        new(hands=[HANDS[0][:7]] + HANDS[1:])
    dup = [list(HANDS[0]), list(HANDS[1]), list(HANDS[2]), list(HANDS[3])]
    dup[1][0] = card("Oa")
    with pytest.raises(BadRequest):
        new(hands=dup)


# ----- hands unknown ----------------------------------------------------------------

def test_unknown_hands_accept_any_unplayed_card_in_turn():
    d = G.new_deal("h", 0)
    d.play(0, card("Aa"))
    with pytest.raises(IllegalPlay) as err:
        d.play(2, card("Ta"))
    assert err.value.reason == "not_your_turn"
    with pytest.raises(IllegalPlay) as err:
        d.play(1, card("Aa"))
    assert err.value.reason == "already_played"


def test_a_revoke_is_reported_when_a_later_play_proves_it():
    d = G.new_deal("h", 0)
    # Trick 1: acorns led; seat 2 plays a leaf (shows void in acorns and in trumps).
    for seat, code in [(0, "Aa"), (1, "Ta"), (2, "Kl"), (3, "8a")]:
        assert d.play(seat, card(code)).revoke is None
    # Trick 2: seat 0 leads hearts (trumps); seat 2 plays a heart: it was void in
    # trumps since trick 1, so that is a proven revoke.
    d.play(0, card("9h"))
    d.play(1, card("Kh"))
    out = d.play(2, card("Uh"))
    assert out.revoke is not None
    assert (out.revoke.seat, out.revoke.trick, out.revoke.suit) == (2, 1, "h")


def test_an_over_proves_a_trump_revoke_too():
    d = G.new_deal("b", 0)
    for seat, code in [(0, "Ah"), (1, "Kl"), (2, "Th"), (3, "7h")]:
        d.play(seat, card(code))
    # Seat 1 showed it had no hearts and no trumps at trick 1; an Over is a trump.
    for seat, code in [(0, "8h"), (1, "Ob")]:
        out = d.play(seat, card(code))
    assert out.revoke is not None and out.revoke.suit == "b" and out.revoke.trick == 1


def test_void_only_in_the_led_suit_when_the_seat_trumped():
    d = G.new_deal("b", 0)
    for seat, code in [(0, "Ah"), (1, "7b"), (2, "Th"), (3, "7h")]:
        d.play(seat, card(code))
    # Seat 1 trumped: void in hearts, but may well hold more trumps.
    d.play(1, card("9b"))
    d.play(2, card("8b"))
    d.play(3, card("Ob"))
    out = d.play(0, card("Tb"))
    assert out.revoke is None
    # ...and a heart from seat 1 later is a revoke of hearts found at trick 1
    d.play(3, card("9a"))
    d.play(0, card("Aa"))
    out = d.play(1, card("Kh"))
    assert out.revoke is not None and (out.revoke.suit, out.revoke.trick) == ("h", 1)


def test_cards_known_to_be_the_dealers_are_not_someone_elses():
    d = G.new_deal("h", 0, known={3: cards("Ol 9h")})
    with pytest.raises(IllegalPlay) as err:
        d.play(0, card("Ol"))
    assert err.value.reason == "not_in_hand"
    assert sorted(c.code for c in d.hand_of(3)) == ["9h", "Ol"]


def test_undo_of_a_revoke_forgets_it():
    d = G.new_deal("h", 0)
    for seat, code in [(0, "Aa"), (1, "Ta"), (2, "Kl"), (3, "8a"), (0, "9h"), (1, "Kh")]:
        d.play(seat, card(code))
    before = d.snapshot()
    d.play(2, card("Uh"))
    assert d.revokes
    d.undo()
    assert not d.revokes and d.snapshot()[:-1] == before[:-1]
