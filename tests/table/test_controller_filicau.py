"""Filicău at the fake table, end to end: a hand whose every trick is worked
out by hand from the rules (the hand of examples/referee/filicau_hand.jsonl),
in the three ways of knowing the hands; refusals with their screens, LEDs and
buzzer; read hygiene; undo and abort; and whole matches to their end."""

from __future__ import annotations

import random

import pytest

from engine import get_game
from hw_mocks.rig import Rig
from table.ports import DEALER
from table.screens.view import CardFace, ErrorView, PlayView, ProgressView, Sign, TextView
from table.settings import TableSettings

# The hand: dealer seat 3 (shown on the screen as "4"), the match even.
HANDS = [
    ["7l", "Kb", "Tb", "Oh", "8b", "9h", "Th", "Ob"],
    ["Ka", "9a", "Ub", "8a", "Kl", "Ol", "Ab", "7h"],
    ["Tl", "Oa", "Ul", "8l", "Al", "8h", "Ta", "9l"],
    ["9b", "Ah", "Ua", "7a", "Kh", "7b", "Uh", "Aa"],
]
# The plays in order (seat, card), the refused 8a left out.
PLAYS = [(0, "Kb"), (1, "Ab"), (2, "Oa"), (3, "9b"),
         (2, "8h"), (3, "Ah"), (0, "Th"), (1, "7h"),
         (3, "7b"), (0, "Ob"), (1, "Ub"), (2, "Al"),
         (0, "Tb"), (1, "Ol"), (2, "Ul"), (3, "Kh"),
         (1, "Kl"), (2, "Tl"), (3, "Uh"), (0, "7l"),
         (2, "9l"), (3, "Aa"), (0, "8b"), (1, "Ka"),
         (0, "Oh"), (1, "9a"), (2, "8l"), (3, "Ua"),
         (0, "9h"), (1, "8a"), (2, "Ta"), (3, "7a")]
# Worked out by hand (trumps: the four Overs, then bells A T K U 9 8 7; an Ace
# or a Ten is a point): (winner, points) of each trick.
TRICKS = [(2, 1), (3, 2), (0, 1), (1, 1), (2, 1), (0, 1), (0, 0), (0, 1)]
# Team 0 (seats 0, 2): 1+1+1+1+0+1 = 5; team 1 (seats 1, 3): 2+1 = 3. 5-3 leaves
# the teams even; even, so the next dealer is the player after the dealer: seat 0.
POINTS = (5, 3)

BELLS = Sign("b", "german")
#: Seat 2 plays 8a to a trump lead (bells are trumps): the seat, the rule in
#: one short line with the trump's sign, the whole sentence, the card refused.
REFUSAL = {
    "en": ("Seat 2", "Seat 2 must follow suit: trumps.", ("Follow ", BELLS, " trumps")),
    "ro": ("Locul 2", "Locul 2 trebuie să răspundă la culoare: atu.",
           ("Răspunde la ", BELLS, " atu")),
    "hu": ("2. hely", "A(z) 2. helynek színre színt kell tennie: adu.",
           ("Színre színt: ", BELLS, " adu")),
}


def seed_with_dealer(dealer, options=None):
    game = get_game("filicau", options or {})
    return next(s for s in range(1000) if game.new_match(random.Random(s)).dealer == dealer)


def make_rig(knowledge, language="en", options=None, **kw):
    seed = seed_with_dealer(3, options)
    settings = TableSettings(game="filicau", knowledge=knowledge, language=language,
                             options=options or {}, admin_uids=("AD000001",), **kw)
    return Rig(settings, None, seats=4, seed_source=lambda: seed)


def learn(rig, knowledge):
    if knowledge == "scan":
        for seat, hand in enumerate(HANDS):
            for code in hand:
                rig.tap(seat, code)
    elif knowledge == "dealt":
        for i in range(32):
            rig.tap(DEALER, HANDS[(0 + i) % 4][i // 4])
    if knowledge != "dealt":
        assert rig.state == "match_hand_show"
        rig.tap(DEALER, "9b")
    assert rig.state == "match_hand_play"
    assert rig.session.hand().flow.trump == "b"


def plays(rig):
    return [(a.seat, a.card.code) for a in rig.session.hand().actions if a.event.kind == "played"]


def tricks_seen(rig):
    return [(n.data["winner"], n.data["points"]) for n in rig.ctl.notices if n.kind == "trick"]


@pytest.mark.parametrize("knowledge", ["scan", "dealt", "open"])
def test_the_worked_out_hand_scores_as_the_rules_say(knowledge):
    rig = make_rig(knowledge)
    rig.press("ok")
    assert rig.session.match.state.dealer == 3
    learn(rig, knowledge)
    for seat, code in PLAYS:
        rig.tap(seat, code)
    assert tricks_seen(rig) == TRICKS
    assert rig.state == "match_result"
    assert rig.view.lines[0] == "1+3: 5 · 2+4: 3"
    assert rig.view.lines[1] == "even"
    assert rig.view.lines[2] == "Next dealer: 1"
    rig.next_hand()
    state = rig.session.match.state
    assert (state.masters, state.dealer) == (None, 0)
    assert rig.session.match.last.result.points == POINTS
    rig.close()


@pytest.mark.parametrize("language", ["en", "ro", "hu"])
def test_an_illegal_card_is_refused_with_the_seat_and_the_rule(language):
    rig = make_rig("scan", language)
    rig.press("ok")
    learn(rig, "scan")
    rig.tap(0, "Kb")
    before = rig.snapshot()
    buzzes = len(rig.mock.indicators.buzzes)
    rig.tap(1, "8a")                      # seat 1 holds Ub, Ol, Ab: it must follow trumps
    assert rig.view == ErrorView(*REFUSAL[language], CardFace("8", "a", "german"))
    assert rig.display.image.getpixel((0, 0))      # inverse video: a lit background
    assert rig.mock.indicators.seat_patterns[1] == "fast_blink"
    assert rig.mock.indicators.buzzes[buzzes:] == ["error"]
    assert rig.snapshot() == before       # nothing changed
    rig.tap(1, "Ab")                      # the legal card is taken; the error goes
    assert isinstance(rig.view, PlayView)
    assert rig.mock.indicators.seat_patterns[1] == "off"
    assert rig.mock.indicators.seat_patterns[2] == "on"
    assert rig.mock.factory.pin(rig.mock.indicators.seat_leds[2].pin.info.name).state
    rig.close()


def test_refusals_not_your_turn_not_this_pack_already_played_unknown():
    rig = make_rig("scan")
    rig.press("ok")
    learn(rig, "scan")
    before = rig.snapshot()
    rig.tap(2, "Tl")                                   # seat 0 leads, not seat 2
    assert rig.view.message == "It is seat 1's turn, not seat 3's."
    rig.press("ok")                                    # OK takes the message away
    # a card of a French pack on a German table
    french = rig.registry.enroll_virtual("french52")
    rig.player.tap(0, rig.registry.uid_for(get_game("sueca").pack.cards[0], "french"))
    assert rig.view.message == f"This card (2c, pack {french.number}) is not in this game's pack."
    # the Kb of a second German pack once the first pack's Kb is on the table
    rig.tap(0, "Kb")
    second = rig.registry.enroll_virtual("german32")
    kb = next(u for u in rig.registry.uids_of(second.number)
              if rig.registry.lookup(u).card.code == "Kb")
    rig.tap(1, "Ab")
    rig.tap(2, "Oa")
    rig.tap(3, "9b")
    rig.tap(2, "8h")
    rig.player.tap(3, kb)
    assert rig.view.message == "The King of bells (Kb) has already been played."
    # a sticker nobody enrolled
    rig.player.tap(3, "04AABBCCDDEEFF")
    assert "Unknown card 04AABBCCDDEEFF" in rig.view.message
    assert "admin tag" in rig.view.message
    assert rig.session.hand().actions[-1].card.code == "8h"
    assert before != rig.snapshot()
    rig.close()


def test_read_hygiene_debounce_duplicates_and_crosstalk():
    rig = make_rig("scan", debounce_ms=200)
    rig.press("ok")
    learn(rig, "scan")
    p = rig.player
    kb = p.uid("Kb")
    # swept past the reader faster than the debounce time: it does not count
    p.arrive(0, kb)
    p.pause(0.1)
    p.leave(0, kb)
    p.pause(0.5)
    assert plays(rig) == []
    # read twice: one play
    rig.tap(0, "Kb")
    rig.tap(0, "Kb")
    assert plays(rig) == [(0, "Kb")]
    # the played Kb lying on the table, picked up by another reader: ignored, not refused
    rig.tap(3, "Kb")
    assert not isinstance(rig.view, ErrorView)
    # seat 1 plays its Ab while seat 2's reader also sees it: one play, by seat 1
    ab = p.uid("Ab")
    p.arrive(1, ab)
    p.arrive(2, ab)
    p.pause(0.3)
    p.leave(2, ab)
    p.leave(1, ab)
    assert plays(rig) == [(0, "Kb"), (1, "Ab")]
    assert not isinstance(rig.view, ErrorView)
    # a card of seat 0's hand read by seat 3's reader (not its turn): crosstalk, ignored
    rig.tap(3, "Tb")
    assert not isinstance(rig.view, ErrorView)
    # the dealer's reader during play: cards landing in the middle are ignored
    rig.tap(DEALER, "Oa")
    assert plays(rig) == [(0, "Kb"), (1, "Ab")]
    ignored = [n.text for n in rig.ctl.notices if n.kind == "ignored"]
    assert "already on the table" in ignored and "crosstalk" in ignored
    rig.close()


def test_undo_asks_first_and_takes_back_exactly_the_last_play():
    rig = make_rig("scan")
    rig.press("ok")
    learn(rig, "scan")
    rig.tap(0, "Kb")
    before = rig.snapshot()
    rig.tap(1, "Ab")
    rig.press("undo")
    assert rig.state == "match_undo"
    assert isinstance(rig.view, TextView) and rig.view.lines == ("Seat 2: Ace of bells (Ab)",)
    rig.press("undo")                              # changed my mind
    assert rig.state == "match_hand_play" and plays(rig) == [(0, "Kb"), (1, "Ab")]
    rig.press("undo")
    rig.press("ok")
    assert rig.state == "match_hand_play"
    assert rig.snapshot() == before
    rig.tap(1, "Ab")                               # and it can be played again
    assert plays(rig) == [(0, "Kb"), (1, "Ab")]
    rig.close()


def test_nothing_to_undo_is_refused():
    rig = make_rig("open")
    rig.press("ok")
    rig.press("undo")
    assert rig.view == ErrorView("Not accepted", "There is nothing to undo.",
                                 ("Nothing to take back",))
    assert rig.state == "match_hand_show"
    rig.close()


def test_a_hand_can_be_aborted_and_dealt_again_by_the_same_dealer():
    rig = make_rig("scan")
    rig.press("ok")
    learn(rig, "scan")
    rig.tap(0, "Kb")
    rig.hold("undo")
    assert rig.state == "match_abort"
    rig.press("ok")
    assert rig.state == "match_deal_scan"
    hand = rig.session.hand()
    assert hand.number == 1 and hand.reads == [] and hand.state.dealer == 3
    assert isinstance(rig.view, ProgressView)
    assert rig.view.seats == (("1", 0, 8), ("2", 0, 8), ("3", 0, 8), ("4", 0, 8))
    rig.close()


def test_a_revoke_is_reported_when_the_open_table_can_prove_it():
    rig = make_rig("open")
    rig.press("ok")
    learn(rig, "open")
    rig.tap(0, "Kb")
    rig.tap(1, "8a")           # no trump shown to a trump lead: seat 1 shows a void in trumps
    rig.tap(2, "Oa")
    rig.tap(3, "9b")
    rig.tap(2, "8h")
    rig.tap(3, "Ah")
    rig.tap(0, "Th")
    buzzes = len(rig.mock.indicators.buzzes)
    rig.tap(1, "Ab")           # ... and now plays a trump: proven
    assert rig.view == ErrorView(
        "Revoke", "Revoke! Seat 2 showed no bells in trick 1, yet played one now.",
        ("Revoke: no ", BELLS, " bells in trick 1"), CardFace("A", "b", "german"))
    assert rig.mock.indicators.buzzes[buzzes:] == ["error"]
    assert rig.mock.indicators.seat_patterns[1] == "blink"
    assert rig.session.hand().actions[-1].card.code == "Ab"     # the play stands
    rig.close()


def _status_after(masters, points):
    """The status rule of RULES.md §2.A, written out again for the test."""
    p0, p1 = points
    if 8 in (p0, p1):
        return None
    if p0 >= 6:
        return 0
    if p1 >= 6:
        return 1
    return masters


@pytest.mark.parametrize("knowledge", ["scan", "dealt", "open"])
def test_a_whole_match_to_its_end(knowledge):
    rig = make_rig(knowledge, options={"match_length": 3})
    rig.press("ok")
    learn(rig, knowledge)
    for seat, code in PLAYS:
        rig.tap(seat, code)
    rig.next_hand()
    bot = rig.bot(random.Random(11))
    while rig.state != "match_over":
        rig.play_hand(bot)
        assert rig.state == "match_result"
        rig.next_hand()
    results = [n.data for n in rig.ctl.notices if n.kind == "hand" and "points" in n.data]
    assert len(results) == 3 and results[0]["points"] == [5, 3]
    masters, tally = None, [0, 0]
    for r in results:
        masters = _status_after(masters, r["points"])
        if masters is not None:
            tally[masters] += 1
    final = rig.session.match.state
    assert final.tally == tuple(tally)
    winner = None if tally[0] == tally[1] else (0 if tally[0] > tally[1] else 1)
    assert final.winner == winner
    assert rig.view.header.title == "Match over"
    assert rig.mock.indicators.buzzes[-1] == "match_end"
    rig.press("ok")
    assert rig.state == "ready" and rig.session.match is None
    rig.close()


def test_the_leds_show_whose_turn_it_is_and_a_reader_that_went_away():
    rig = make_rig("scan")
    rig.press("ok")
    ind = rig.mock.indicators
    assert [ind.seat_patterns[s] for s in range(4)] == ["on"] * 4      # everybody scans
    learn(rig, "scan")
    assert [ind.seat_patterns[s] for s in range(4)] == ["on", "off", "off", "off"]
    assert ind.status_pattern == "on"
    rig.player.offline(2, "cable")
    assert ind.status_pattern == "fast_blink"
    assert rig.view.banner == "Reader 3 offline"
    rig.player.back(2)
    assert ind.status_pattern == "on"
    assert rig.view.banner == ""
    rig.close()
