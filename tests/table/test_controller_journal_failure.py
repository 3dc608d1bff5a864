"""The journal cannot be written (disk full, card pulled, file made read-only):
the play that needed the entry is rolled back, the table stops in `failed`
with the error on the screen and the status LED blinking fast, and nothing
afterwards is accepted or shown as if it had been saved. A restart resumes
from what the journal really holds."""

from __future__ import annotations

import random

from hw_mocks.rig import Rig
from table.screens.view import ErrorView
from table.settings import TableSettings


def lit_share(image):
    hist = image.convert("L").histogram()
    return sum(hist[1:]) / sum(hist)


def test_a_failing_append_rolls_back_and_stops_the_table(tmp_path):
    rig = Rig(TableSettings(game="filicau", knowledge="open"), tmp_path, seats=4, seed=3,
              strict=False)
    try:
        rig.press("ok")
        bot = rig.bot(random.Random(5))
        bot.new_hand(rig.session.match.hand.state, "open")
        for _ in range(6):                          # the trump shown, a few cards played
            rig.do(bot.next_move())
        hand = rig.session.hand()
        actions = list(hand.actions)
        pending = hand.flow.pending()
        state = rig.state
        entries = rig.ctl.journal.count()
        frames = rig.display.frames
        move = bot.next_move()
        assert move.kind == "tap" and move.place == pending.seat   # a legal card, its turn

        rig.ctl.journal.db.execute("PRAGMA query_only = ON")      # every write now fails
        rig.do(move)

        # rolled back: the card did not count, the engine waits for the same seat
        hand = rig.session.hand()
        assert list(hand.actions) == actions
        assert hand.flow.pending() == pending
        assert rig.state == state
        assert rig.ctl.journal.count() == entries
        # stopped, and says so: the error screen (inverse video), LED, buzzer
        assert rig.ctl.failed is not None and rig.ctl.failed.startswith(
            "journal: cannot write to the journal")
        assert isinstance(rig.ctl.view, ErrorView)
        assert "journal" in rig.ctl.view.message
        assert rig.display.frames == frames + 1
        shown = rig.display.image.copy()
        assert lit_share(shown) > 0.5                # light background: an error
        ind = rig.mock.indicators
        assert ind.status_pattern == "fast_blink"
        assert ind.buzzes[-1] == "error"

        # nothing later is taken or shown, even once the disk could be written again
        rig.ctl.journal.db.execute("PRAGMA query_only = OFF")
        leds = dict(ind.seat_patterns)
        buzzes = len(ind.buzzes)
        rig.player.tap(move.place, move.uid)
        rig.press("undo")
        rig.press("ok")
        rig.hold("menu")
        assert list(rig.session.hand().actions) == actions
        assert rig.ctl.journal.count() == entries
        assert rig.display.frames == frames + 1
        assert rig.display.image.tobytes() == shown.tobytes()
        assert ind.status_pattern == "fast_blink"
        assert dict(ind.seat_patterns) == leds and len(ind.buzzes) == buzzes

        # after a restart the table is where the journal says: before that card
        rig = rig.restart()
        assert rig.ctl.failed is None
        hand = rig.session.hand()
        assert [a.card for a in hand.actions] == [a.card for a in actions]
        assert hand.flow.pending() == pending
        assert lit_share(rig.display.image) < 0.5
        rig.do(move)
        assert len(rig.session.hand().actions) == len(actions) + 1
        assert rig.ctl.journal.count() == entries + 1
    finally:
        rig.close()
