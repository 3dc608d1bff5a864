"""A card answered before the hand leaves it: reads taken at once (before the
debounce time) where they make sense, and the cases that must still wait or
be taken back: a card swept past, flicker, a card between two seats, stacked
cards, a misread UID. No time passes between a card's arrival and the checks
marked "at once"."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from table.controller.hygiene import Debouncer, takes_at_once
from table.ports import DEALER
from table.screens.view import ErrorView, PlayView
from tests.table.test_controller_filicau import HANDS, learn, make_rig, plays

DEBOUNCE = 0.2


def playing(knowledge="scan"):
    rig = make_rig(knowledge, debounce_ms=int(DEBOUNCE * 1000))
    rig.press("ok")
    learn(rig, knowledge)
    return rig


def turn(rig):
    """The seat the play screen marks as the one to play."""
    assert isinstance(rig.view, PlayView)
    return [i for i, cell in enumerate(rig.view.seats) if cell.turn]


def shown(rig):
    """The cards the play screen shows in the trick, by seat."""
    return [cell.card.rank + cell.card.suit if cell.card else None for cell in rig.view.seats]


def kinds(rig, kind):
    return [n for n in rig.ctl.notices if n.kind == kind]



def shown_error(rig):
    """The error screen's title and sentence (what this file checks; the
    rule line and the card beside the seat are the screens' tests' concern)."""
    view = rig.view
    assert isinstance(view, ErrorView), view
    return (view.title, view.message)


def test_a_card_at_the_seat_whose_turn_it_is_is_played_at_once():
    rig = playing()
    p = rig.player
    p.arrive(0, p.uid("Kb"))                     # no time passes
    assert plays(rig) == [(0, "Kb")]
    assert turn(rig) == [1] and shown(rig)[0] == "Kb"
    assert rig.mock.indicators.seat_patterns[1] == "on"
    assert rig.ctl.journal.last_seq() == rig.session.seq    # on disk before it was shown
    p.pause(DEBOUNCE + 0.1)                      # it stays: the play stands
    assert plays(rig) == [(0, "Kb")] and not kinds(rig, "withdrawn")
    rig.close()


def test_an_illegal_card_at_the_seat_whose_turn_it_is_is_refused_at_once():
    rig = playing()
    p = rig.player
    rig.tap(0, "Kb")
    before = rig.snapshot()
    p.arrive(1, p.uid("8a"))                     # seat 1 must follow trumps
    assert shown_error(rig) == ("Seat 2", "Seat 2 must follow suit: trumps.")
    assert rig.mock.indicators.seat_patterns[1] == "fast_blink"
    assert rig.snapshot() == before
    rig.close()


def test_a_refusal_stays_on_the_screen_when_the_card_is_swept_away():
    rig = playing()
    p = rig.player
    rig.tap(0, "Kb")
    c8a = p.uid("8a")
    p.arrive(1, c8a)
    p.leave(1, c8a)
    p.pause(DEBOUNCE)
    assert shown_error(rig) == ("Seat 2", "Seat 2 must follow suit: trumps.")
    assert plays(rig) == [(0, "Kb")] and not kinds(rig, "withdrawn")
    rig.close()


def test_the_trump_shown_on_the_dealers_reader_is_taken_at_once():
    rig = make_rig("scan", debounce_ms=int(DEBOUNCE * 1000))
    rig.press("ok")
    for seat, hand in enumerate(HANDS):
        for code in hand:
            rig.tap(seat, code)
    assert rig.state == "match_hand_show"
    rig.player.arrive(DEALER, rig.player.uid("9b"))
    assert rig.state == "match_hand_play" and rig.session.hand().flow.trump == "b"
    rig.close()


def test_out_of_turn_is_refused_at_once_when_the_table_knows_the_hands():
    rig = playing("scan")
    p = rig.player
    p.arrive(2, p.uid("Tl"))                     # seat 2's own card, seat 0 leads
    assert rig.view.message == "It is seat 1's turn, not seat 3's."
    rig.close()


def test_out_of_turn_waits_for_the_debounce_when_the_hands_are_unknown():
    # with open hands a card at seat 2 may be seat 1's card lying between the two
    rig = playing("open")
    p = rig.player
    tl = p.uid("Tl")
    p.arrive(2, tl)
    assert not isinstance(rig.view, ErrorView) and plays(rig) == []
    p.pause(DEBOUNCE)
    assert rig.view.message == "It is seat 1's turn, not seat 3's."
    rig.close()


def test_a_card_swept_past_the_reader_is_taken_back_and_the_journal_says_so():
    rig = playing()
    p = rig.player
    before = rig.snapshot()
    kb = p.uid("Kb")
    p.arrive(0, kb)
    assert plays(rig) == [(0, "Kb")]             # taken at once ...
    p.pause(DEBOUNCE / 2)
    p.leave(0, kb)                               # ... but gone before the debounce time
    p.pause(DEBOUNCE)
    assert plays(rig) == [] and rig.snapshot() == before
    assert [n.data["uid"] for n in kinds(rig, "withdrawn")] == [kb]
    assert turn(rig) == [0] and shown(rig) == [None] * 4
    assert rig.mock.indicators.seat_patterns[0] == "on"
    rig.tap(0, "Kb")                             # and it can be played for real
    assert plays(rig) == [(0, "Kb")]
    rig = rig.restart()                          # the journal holds card, undo, card
    assert plays(rig) == [(0, "Kb")]
    rig.close()


def test_a_swept_card_is_not_taken_back_once_another_play_followed():
    rig = playing()
    p = rig.player
    kb = p.uid("Kb")
    p.arrive(0, kb)
    p.arrive(1, p.uid("Ab"))                     # seat 1 answers at once
    p.leave(0, kb)
    p.pause(DEBOUNCE + 0.1)
    assert plays(rig) == [(0, "Kb"), (1, "Ab")]  # a later play stands on it: undo is the way
    rig.close()


def test_flicker_in_and_out_plays_once_and_is_never_taken_back():
    rig = playing()
    p = rig.player
    kb = p.uid("Kb")
    p.arrive(0, kb)
    for _ in range(3):                           # the reader loses it and finds it again
        p.pause(DEBOUNCE / 8)
        p.leave(0, kb)
        p.pause(DEBOUNCE / 8)
        p.arrive(0, kb)
    p.pause(DEBOUNCE * 3)
    assert plays(rig) == [(0, "Kb")]
    assert not kinds(rig, "withdrawn") and not isinstance(rig.view, ErrorView)
    rig.close()


def test_a_card_between_two_seats_goes_to_the_seat_whose_turn_it_is():
    rig = playing("open")
    p = rig.player
    rig.tap(0, "Kb")
    ab = p.uid("Ab")
    # seat 2's reader sees seat 1's card first: that read waits ...
    p.arrive(2, ab)
    assert plays(rig) == [(0, "Kb")] and not isinstance(rig.view, ErrorView)
    # ... seat 1's reader, the one the table waits for, takes it at once
    p.arrive(1, ab)
    assert plays(rig) == [(0, "Kb"), (1, "Ab")]
    p.pause(DEBOUNCE * 2)
    assert plays(rig) == [(0, "Kb"), (1, "Ab")] and not isinstance(rig.view, ErrorView)
    assert not kinds(rig, "refused")
    rig.close()


def test_a_card_between_two_seats_while_hands_are_scanned_goes_to_the_first_reader():
    rig = make_rig("scan", debounce_ms=int(DEBOUNCE * 1000))
    rig.press("ok")
    p = rig.player
    kb = p.uid("Kb")
    p.arrive(1, kb)                              # seat 1's reader alone: read at once
    assert [(r.seat, r.card.code) for r in rig.session.hand().reads] == [(1, "Kb")]
    p.arrive(0, kb)                              # seat 0's too: seen by two, it waits
    p.pause(DEBOUNCE)
    assert [(r.seat, r.card.code) for r in rig.session.hand().reads] == [(1, "Kb")]
    assert "already read" in [n.text for n in kinds(rig, "ignored")]
    rig.close()


def test_a_card_slid_on_to_the_next_seat_within_the_debounce_time_is_read_there():
    rig = make_rig("scan", debounce_ms=int(DEBOUNCE * 1000))
    rig.press("ok")
    p = rig.player
    tb = p.uid("Tb")
    p.arrive(2, tb)                              # read at once for seat 2 ...
    p.pause(DEBOUNCE / 4)
    p.leave(2, tb)
    p.arrive(3, tb)                              # ... slid on to seat 3 ("already read")
    assert [(r.seat, r.card.code) for r in rig.session.hand().reads] == [(2, "Tb")]
    p.pause(DEBOUNCE)                            # seat 2's read is taken back, seat 3's counts
    assert [(r.seat, r.card.code) for r in rig.session.hand().reads] == [(3, "Tb")]
    p.pause(DEBOUNCE * 2)
    assert [(r.seat, r.card.code) for r in rig.session.hand().reads] == [(3, "Tb")]
    rig = rig.restart()
    assert [(r.seat, r.card.code) for r in rig.session.hand().reads] == [(3, "Tb")]
    rig.close()


def test_a_played_card_slid_on_to_the_next_seat_is_judged_there_as_before():
    rig = playing("open")
    p = rig.player
    kb = p.uid("Kb")
    p.arrive(0, kb)
    p.pause(DEBOUNCE / 4)
    p.leave(0, kb)
    p.arrive(1, kb)                              # seat 1 is next: "already on the table"
    p.pause(DEBOUNCE)
    # seat 0's play is taken back; at seat 1 the card is out of turn, as it would
    # have been with every read waiting for the debounce time
    assert plays(rig) == []
    assert rig.view.message == "It is seat 1's turn, not seat 2's."
    rig.close()


def test_stacked_cards_an_old_card_under_the_new_one_is_ignored_not_replayed():
    rig = playing()
    p = rig.player
    for seat, code in [(0, "Kb"), (1, "Ab"), (2, "Oa"), (3, "9b")]:
        p.arrive(seat, p.uid(code))              # the first trick stays on the table
    assert len(plays(rig)) == 4                  # seat 2 won it and leads the next
    # seat 2 puts 8h on its Oa; the stack detunes and the Oa flickers out and in
    oa = p.uid("Oa")
    p.leave(2, oa)
    p.arrive(2, p.uid("8h"))
    p.arrive(2, oa)
    assert plays(rig)[-1] == (2, "8h") and len(plays(rig)) == 5
    p.pause(DEBOUNCE * 2)
    assert len(plays(rig)) == 5 and not kinds(rig, "refused") and not kinds(rig, "withdrawn")
    assert "already on the table" in [n.text for n in kinds(rig, "ignored")]
    rig.close()


def test_a_misread_uid_is_never_taken_at_once():
    rig = playing()
    p = rig.player
    # a UID nobody enrolled (a garbled read) that is gone at the next poll: nothing
    p.arrive(0, "04AABBCCDDEE00")
    assert not isinstance(rig.view, ErrorView)
    p.pause(DEBOUNCE / 4)
    p.leave(0, "04AABBCCDDEE00")
    p.pause(DEBOUNCE)
    assert not isinstance(rig.view, ErrorView) and not kinds(rig, "refused")
    # a sticker nobody enrolled lying there: refused once it is steady
    p.arrive(0, "04AABBCCDDEE01")
    assert not isinstance(rig.view, ErrorView)
    p.pause(DEBOUNCE)
    assert "Unknown card 04AABBCCDDEE01" in rig.view.message
    rig.close()


def test_the_dealers_reader_during_play_still_waits_and_ignores():
    rig = playing()
    p = rig.player
    p.arrive(DEALER, p.uid("Oa"))
    p.pause(DEBOUNCE)
    assert plays(rig) == [] and "the dealer's reader only takes shown cards" in [
        n.text for n in kinds(rig, "ignored")]
    rig.close()


def test_admin_tags_are_never_taken_at_once():
    rig = playing()
    rig.player.arrive(0, "AD000001")
    assert rig.state == "match_hand_play"
    rig.player.pause(DEBOUNCE)
    assert rig.state == "admin_menu"
    rig.close()


# ----- the rule itself -----------------------------------------------------------------------

def test_takes_at_once_rule():
    assert takes_at_once(1, True, {1}, {1}, None)
    assert not takes_at_once(1, False, {1}, {1}, None)          # not enrolled
    assert takes_at_once(1, True, {1}, {1, 2}, None)            # crosstalk elsewhere loses
    assert not takes_at_once(1, True, {1, 2}, {1, 2}, None)     # two expected readers
    assert not takes_at_once(2, True, {1}, {2}, None)           # unknown owner: may be 1's
    assert takes_at_once(2, True, {1}, {2}, 2)                  # its own card, out of turn
    assert not takes_at_once(2, True, {1}, {2, 3}, 2)           # seen elsewhere too
    assert not takes_at_once(2, True, {1}, {2}, 3)              # another seat's card


# ----- the debouncer as a state machine, against a plain model -------------------------------

MOVES = st.lists(st.tuples(st.sampled_from(["arrive", "leave", "take", "wait"]),
                           st.integers(0, 2), st.integers(0, 3)), max_size=40)


@settings(max_examples=300, deadline=None)
@given(MOVES)
# found by hypothesis: out and back in at the same instant, then taken at once
@example([("arrive", 2, 1), ("leave", 2, 1), ("arrive", 2, 1), ("take", 2, 1)])
def test_every_read_is_settled_once_and_as_the_card_lies(moves):
    d = Debouncer(0.1)
    now = 0.0
    lying: dict[tuple[int, str], float] = {}     # (place, uid) -> arrival of its stay now
    pending: list[tuple[int, str, float]] = []   # stays not yet settled
    taken: set[tuple[int, str, float]] = set()

    def settle():
        out = d.settle(now)
        got = {name: {(r.place, r.uid, r.since) for r in rs}
               for name, rs in (("steady", out.steady), ("kept", out.kept),
                                ("lapsed", out.lapsed))}
        want: dict[str, set] = {"steady": set(), "kept": set(), "lapsed": set()}
        for stay in [s for s in pending if s[2] + 0.1 <= now]:
            pending.remove(stay)
            place, uid, since = stay
            if stay in taken:      # any stay counts: flicker out and back in stands
                want["kept" if (place, uid) in lying else "lapsed"].add(stay)
            elif lying.get((place, uid)) == since:
                want["steady"].add(stay)
        assert got == want
        assert [r.due for r in out.steady] == sorted(r.due for r in out.steady)

    for move, place, card in moves:
        key = (place, str(card))
        if move == "arrive" and key not in lying:
            lying[key] = now
            d.arrived(place, key[1], now)
            pending.append((place, key[1], now))
        elif move == "leave" and key in lying:
            del lying[key]
            d.left(place, key[1])
        elif move == "take" and key in lying and (place, key[1], lying[key]) in pending:
            assert d.take(place, key[1]) == lying[key]
            taken.add((place, key[1], lying[key]))
        elif move == "wait":
            now += 0.03 * (card + 1)
            settle()
        assert d.present_at(key[1]) == {p for (p, u) in lying if u == key[1]}
    now += 1.0
    settle()
    assert not pending and d.next_due() is None
