"""The simulated table as a person meets it, without the window: bots at a
human pace on the table's clock, UNDO for the person's own card, refusals
with the legal cards, nothing said about a bot's hand, the hands so far."""

from __future__ import annotations

import pytest

from hw_mocks.simulator.driver import SimTable
from hw_mocks.simulator.pace import Pace
from table.settings import TableSettings


def table(knowledge="scan", seed=3, **kw) -> SimTable:
    kw.setdefault("pace", Pace.human())
    sim = SimTable(TableSettings(game="filicau", knowledge=knowledge), humans=(0,), seed=seed,
                   **kw)
    sim.start()
    return sim


def until_my_turn(sim: SimTable, step: float = 0.25, limit: int = 2000) -> int:
    """Let table time pass until the person is to play; returns the ticks."""
    n = 0
    while not sim.is_human_turn():
        sim.tick(step)
        n += 1
        assert n < limit, sim.state
    return n


def play_legal(sim: SimTable) -> None:
    while sim.step().kind == "show":   # the dealer shows his cards in the order received
        sim.play(0, sim.hand_of(0)[len(sim._hand().flow.shown)])
        until_my_turn(sim)
    assert sim.play(0, sim.legal_now(0)[0])


def cards_on_table(sim: SimTable) -> int:
    return len(sim._hand().actions)


def test_a_bot_waits_about_a_second_after_a_card_and_longer_after_a_trick():
    sim = table()
    try:
        until_my_turn(sim)
        play_legal(sim)
        before = cards_on_table(sim)
        waits = []
        for _ in range(6):   # the next moves of the bots, timed in table time
            waited = 0.0
            while cards_on_table(sim) == before and not sim.is_human_turn():
                sim.tick(0.1)
                waited += 0.1
            if sim.is_human_turn():
                break
            before = cards_on_table(sim)
            waits.append((round(waited, 1), len(sim._hand().flow.deal.current_trick)))
        assert waits, "no bot played after the person"
        for waited, in_trick in waits:
            # a card about a second after the one before; a lead after a
            # finished trick only once the trick has stayed in view
            assert waited >= (2.5 if in_trick == 1 else 1.0) - 1e-9, waits
            assert waited <= 2.7, waits
    finally:
        sim.close()


def test_fast_pace_is_the_old_speed():
    sim = table(pace=Pace.fast())
    try:
        ticks = until_my_turn(sim, step=0.05)
        assert ticks <= 12   # a few bot moves, one tick each
    finally:
        sim.close()


def test_undo_takes_back_the_persons_card_and_the_bots_cards_after_it():
    sim = table()
    try:
        until_my_turn(sim)
        play_legal(sim)
        mine = sim._hand().actions[-1].card
        n = cards_on_table(sim)
        while cards_on_table(sim) < n + 2:   # two bots play after the person
            sim.tick(0.5)
        sim.take_back()
        assert sim.state == "match_undo"   # the table asks about the person's card
        assert cards_on_table(sim) == n
        sim.press("ok")
        assert cards_on_table(sim) == n - 1
        assert mine in sim.hand_of(0) and sim.is_human_turn()
        # the bots do not play over the undo: the person is to move, however long
        for _ in range(30):
            sim.tick(0.5)
        assert cards_on_table(sim) == n - 1 and sim.is_human_turn()
        assert [line.text for line in sim.log if line.text.startswith("undone")][-1] \
            .startswith("undone: Seat 1's")
    finally:
        sim.close()


def test_a_bot_does_not_jump_in_right_after_an_undo():
    """UNDO with no card of the person's in the hand is the table's own: it
    takes back the last move; the bot waits its pace before moving again."""
    sim = table(knowledge="open")
    try:
        sim.tick(0.0)
        while cards_on_table(sim) == 0:
            sim.tick(0.25)
        assert not sim.is_human_turn()   # seed 3: a bot plays before the person
        sim.take_back()
        sim.press("ok")
        count = cards_on_table(sim)
        sim.tick(0.5)
        assert cards_on_table(sim) == count   # not at once
        sim.tick(0.6)
        assert cards_on_table(sim) == count + 1
    finally:
        sim.close()


def test_a_refusal_says_it_all_and_names_the_legal_cards():
    for seed in range(3, 30):
        sim = table(seed=seed, pace=Pace.fast())
        try:
            until_my_turn(sim, 0.05)
            if sim.step().kind != "play":
                continue
            legal = set(sim.legal_now(0))
            illegal = [c for c in sim.hand_of(0) if c not in legal]
            if not illegal:
                continue
            assert not sim.play(0, illegal[0])
            r = sim.refusal
            assert r is not None and r.seat == 0
            assert set(r.legal) == legal and illegal[0] not in r.legal
            assert len(r.text) > 22 and r.text == sim.rig.ctl.notices[-1].text
            assert [line for line in sim.log if line.kind == "error"][-1].text \
                .startswith("refused: ")
            sim.play(0, sorted(legal, key=lambda c: c.code)[0])
            assert sim.refusal is None   # gone once a card is taken
            return
        finally:
            sim.close()
    raise AssertionError("no seed gave the person a card they may not play")


def test_the_open_table_refusal_counts_seats_from_one():
    for seed in range(3, 30):
        sim = table(knowledge="open", seed=seed, pace=Pace.fast())
        try:
            until_my_turn(sim, 0.05)
            if sim.step().kind != "play":
                continue
            illegal = [c for c in sim.hand_of(0) if c not in sim.legal_now(0)]
            if not illegal:
                continue
            assert not sim.play(0, illegal[0])
            text = sim.log[-1].text
            assert text.startswith("Seat 1: the ") and "Seat 0" not in text
            assert sim.refusal is not None and set(sim.refusal.legal) == set(sim.legal_now(0))
            return
        finally:
            sim.close()
    raise AssertionError("no seed gave the person a card they may not play")


@pytest.mark.parametrize("knowledge", ["dealt", "scan"])
def test_the_log_never_names_a_bots_dealt_cards(knowledge):
    sim = table(knowledge=knowledge, pace=Pace.fast())
    try:
        until_my_turn(sim, 0.05)
        dealt = sim.dealt.hands
        reads = [line.text for line in sim.log if " gets " in line.text]
        assert len(reads) == sum(len(h) for h in dealt)
        mine = [t for t in reads if t.startswith("Seat 1 ")]
        assert len(mine) == len(dealt[0]) and all(t != "Seat 1 gets a card" for t in mine)
        for seat in (1, 2, 3):
            theirs = [t for t in reads if t.startswith(f"Seat {seat + 1} ")]
            assert theirs == [f"Seat {seat + 1} gets a card"] * len(dealt[seat])
    finally:
        sim.close()


def test_the_hands_so_far_are_kept_with_the_table_words():
    sim = SimTable(TableSettings(game="filicau", options={"match_length": 2}), humans=(),
                   seed=5)
    try:
        sim.start()
        sim.run_bots()
        assert sim.state == "match_over"
        assert [r.number for r in sim.hands_played] == [1, 2]
        for r in sim.hands_played:
            assert r.names == ("1+3", "2+4") and sum(r.points) == 8
        assert "win" in sim.hands_played[-1].after or "draw" in sim.hands_played[-1].after
    finally:
        sim.close()


def test_a_slow_bot_thinks_off_the_callers_thread():
    """A sampled bot's move is worked out by `think` (a worker in the window)
    and made when it is done, unless the hand moved on meanwhile."""
    sim = SimTable(TableSettings(game="filicau", knowledge="scan"), humans=(0,), seed=3,
                   bot={1: "easy", 2: "easy", 3: "easy"}, pace=Pace.fast())
    jobs = []
    sim.think = lambda work, done: jobs.append((work, done))
    try:
        sim.start()
        for _ in range(20):
            sim.tick(0.1)
            if jobs or sim.is_human_turn():
                break
        if sim.is_human_turn():
            play_legal(sim)
            for _ in range(5):
                sim.tick(0.1)
        assert len(jobs) == 1 and sim.thinking
        sim.tick(5.0)
        assert len(jobs) == 1   # one thought at a time
        work, done = jobs.pop()
        before = cards_on_table(sim)
        done(work())
        assert not sim.thinking and cards_on_table(sim) == before + 1
        # a thought that comes too late (the hand moved on) is dropped
        sim.tick(1.0)
        assert len(jobs) == 1
        work, done = jobs.pop()
        decision = work()
        if not sim.is_human_turn():
            sim.rig.press("undo")
            sim.rig.press("ok")
        before = cards_on_table(sim)
        done(decision)
        assert cards_on_table(sim) == before
    finally:
        sim.close()


def test_trumps_are_known_once_fixed():
    sim = table(pace=Pace.fast())
    try:
        until_my_turn(sim, 0.05)
        while sim.step().kind == "show":
            play_legal(sim)
        trumps = sim.trumps()
        deal = sim._hand().flow.deal
        assert {c.code for c in trumps} >= {"Oa", "Ol", "Oh", "Ob"}
        assert all(c.suit == deal.trump or c.rank == "O" for c in trumps)
    finally:
        sim.close()


def test_a_new_random_rng_per_bot_move_keeps_runs_repeatable():
    def first_cards(seed):
        sim = table(seed=seed, pace=Pace.fast())
        try:
            until_my_turn(sim, 0.05)
            return [a.card for a in sim._hand().actions], sim.hand_of(0)
        finally:
            sim.close()

    assert first_cards(11) == first_cards(11)
    assert first_cards(11) != first_cards(12)


def test_teams_that_change_each_hand_are_named_by_their_seats():
    sim = SimTable(TableSettings(game="filko5", options={"match_length": 2}), seed=3)
    try:
        sim.start()
        sim.run_bots()
        assert len(sim.hands_played) == 2
        for r in sim.hands_played:
            seats = sorted(int(s) for name in r.names for s in name.split("+"))
            assert seats == [1, 2, 3, 4, 5] and len(r.names) == len(r.points) == 2
    finally:
        sim.close()
