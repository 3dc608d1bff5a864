"""Crash and resume: pulling the plug at any point of a match and starting
again gives the same end state as an uninterrupted run; random streams of
reader, button and timing events never crash the controller nor corrupt the
journal (replaying it always gives the state the table was in)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hw_mocks.rig import Rig
from table.ports import DEALER, ButtonPressed, CardArrived, CardLeft, ReaderBack, ReaderOffline
from table.settings import TableSettings

ADMIN = "AD000001"


def table_settings(knowledge="open", game="filicau"):
    return TableSettings(game=game, knowledge=knowledge, admin_uids=(ADMIN,),
                         options={"match_length": 2} if game == "filicau" else {})


def bot_moves_done(rig, bot):
    done = []
    while (move := bot.next_move()) is not None:
        rig.do(move)
        done.append(move)
    return done


def replay(rig, move):
    if move == "ok":
        rig.press("ok")
    elif move == "next":
        rig.next_hand()
    else:
        rig.do(move)


_BASE: dict[str, tuple[list, tuple]] = {}


def base_run(tmp_path_factory, knowledge):
    """An uninterrupted match (recorded once): its moves and its end state."""
    if knowledge not in _BASE:
        rig = Rig(table_settings(knowledge), None, seats=4, seed=3)
        rig.press("ok")
        bot = rig.bot(random.Random(3))
        script: list = ["ok"]
        while rig.state != "match_over":
            bot.new_hand(rig.session.match.hand.state, knowledge)
            learn = bot.scan_moves() if knowledge == "scan" else []
            for m in learn:
                rig.do(m)
            script.extend(learn)
            script.extend(bot_moves_done(rig, bot))
            rig.next_hand()
            script.append("next")
        _BASE[knowledge] = (script, rig.snapshot())
        rig.close()
    return _BASE[knowledge]


@settings(max_examples=5, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.floats(0, 1), min_size=1, max_size=4), st.sampled_from(["scan", "open"]))
def test_crash_and_resume_at_random_points_gives_the_same_end(tmp_path_factory, cuts, knowledge):
    script, end = base_run(tmp_path_factory, knowledge)
    rig = Rig(table_settings(knowledge), None, seats=4, seed=3)
    rig.registry.enroll_virtual("german32")       # the same stickers as the first run
    points = sorted({int(c * (len(script) - 1)) for c in cuts})
    for i, move in enumerate(script):
        if i in points:
            before = rig.snapshot()
            rig = rig.restart()          # the power goes; the table starts again
            assert rig.snapshot() == before
        replay(rig, move)
    assert rig.snapshot() == end
    assert rig.state == "match_over"
    rig.close()


# ----- random streams ----------------------------------------------------------------

PLACES = [0, 1, 2, 3, DEALER]


def events(draw_cards):
    card = st.sampled_from(draw_cards)
    place = st.sampled_from(PLACES)
    return st.one_of(
        st.tuples(st.just("arrive"), place, card),
        st.tuples(st.just("leave"), place, card),
        st.tuples(st.just("tap"), place, card),
        st.tuples(st.just("press"), st.sampled_from(["ok", "undo", "menu"]), st.booleans()),
        st.tuples(st.just("time"), st.floats(0, 3)),
        st.tuples(st.just("offline"), place),
        st.tuples(st.just("back"), place),
        st.tuples(st.just("move"), st.integers(0, 10**6)),
    )


CARDS = ["Oa", "Ol", "Kh", "Th", "7b", "9b", "Aa", "Ub", "8l", ADMIN, "0BADC0DE"]


def table_move(rig, rng):
    """A move that suits what the table waits for (to get the stream somewhere)."""
    state = rig.state
    if state in ("ready", "match_result", "match_over") or state.startswith("setup"):
        rig.press("ok")
        return
    if state.startswith("admin") or state in ("match_undo", "match_abort", "match_end",
                                              "match_info"):
        rig.press("undo")
        return
    hand = rig.session.hand()
    game = hand.game
    if state in ("match_deal_scan", "match_deal_dealt"):
        known = {r.card for r in hand.reads}
        c = next(c for c in game.pack.cards if c not in known)
        if state == "match_deal_dealt":
            rig.tap(DEALER, c.code)
            return
        seat = next(s for s in range(game.players) if len(hand.cards_of(s)) < game.hand_size)
        rig.tap(seat, c.code)
        return
    step = hand.step()
    if step.choices:
        rig.press("ok")
        return
    flow = hand.flow
    if step.kind == "play":
        legal = list(flow.deal.legal_cards(step.seat))
        c = rng.choice(legal)
        rig.tap(step.seat, c.code)
    else:
        pool = flow.hands[step.seat] if flow.hands is not None else list(game.pack.cards)
        c = rng.choice([c for c in pool if c not in flow.shown])
        rig.tap(DEALER, c.code)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(events(CARDS), max_size=60), st.sampled_from(["open", "scan", "dealt"]))
def test_random_streams_never_crash_nor_corrupt_the_journal(tmp_path_factory, stream, knowledge):
    rig = Rig(table_settings(knowledge), None, seats=4, seed=1)
    p = rig.player
    on = {place: set() for place in PLACES}
    for ev in stream:
        kind = ev[0]
        if kind in ("arrive", "leave", "tap"):
            _, place, written = ev
            uid = p.uid(written)
            if kind == "arrive" and uid not in on[place]:
                on[place].add(uid)
                rig.ctl.post(CardArrived(place, uid))
            elif kind == "leave" and uid in on[place]:
                on[place].discard(uid)
                rig.ctl.post(CardLeft(place, uid))
            elif kind == "tap" and uid not in on[place]:
                rig.ctl.post(CardArrived(place, uid))
                rig.mock.clock.advance(0.2)
                rig.ctl.pump()
                rig.ctl.post(CardLeft(place, uid))
        elif kind == "press":
            rig.ctl.post(ButtonPressed(ev[1], ev[2]))
        elif kind == "time":
            rig.mock.clock.advance(ev[1])
        elif kind == "offline":
            on[ev[1]].clear()
            rig.ctl.post(ReaderOffline(ev[1], "test"))
        elif kind == "back":
            rig.ctl.post(ReaderBack(ev[1]))
        else:
            rig.ctl.pump()
            table_move(rig, random.Random(ev[1]))
        rig.ctl.pump()
        assert rig.ctl.failed is None
        assert rig.ctl.view == rig.ctl.presenter.view()
    before = rig.snapshot()
    rig = rig.restart()
    assert rig.snapshot() == before
    rig.close()
