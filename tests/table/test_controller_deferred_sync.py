"""A card is answered before its journal entry reaches the disk (the entry
is written, the verdict shown, then the entry synced): a power cut at that
exact moment loses the entry, not the card, which still lies on its reader
and is read again when the table is back, to the same state and screen.

The power cut is played on copies of the state folder: what the disk holds
when the verdict is on the screen (the entry not synced: the folder as it
was before the card, every earlier event synced) and, as the disk may also
have taken the entry in time, the folder with it."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from hw_mocks.rig import Rig
from table.controller.session import snapshot
from table.settings import TableSettings


def copy_state(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def rig_in_a_hand(state: Path, moves: int) -> tuple[Rig, object]:
    rig = Rig(TableSettings(game="filicau", knowledge="scan"), state, seats=4)
    rig.press("ok")
    bot = rig.bot(random.Random(3))
    rig.learn_hands(bot)
    for _ in range(moves):
        rig.do(bot.next_move())
    return rig, bot


def put_down(rig: Rig, place: int, uid: str) -> None:
    """The card put down and left there (its read taken at once)."""
    rig.player.arrive(place, uid)


#: moves made before the card: the trump shown on the dealer's reader, a lead,
#: a card followed, the last card of a trick, the next trick's lead
MOMENTS = {"trump": 0, "lead": 1, "follow": 2, "trick_end": 4, "next_lead": 5}


@pytest.mark.parametrize("moment", list(MOMENTS))
@pytest.mark.parametrize("disk", ["without the entry", "with the entry, not its mark"])
def test_a_power_cut_between_a_cards_verdict_and_its_sync_keeps_the_card(tmp_path, moment, disk):
    rig, bot = rig_in_a_hand(tmp_path / "state", MOMENTS[moment])
    after_cut = tmp_path / "after the cut"
    try:
        move = bot.next_move()
        assert move.kind == "tap"
        copy_state(tmp_path / "state", after_cut)     # every earlier event is synced
        seq = rig.ctl.session.seq
        journal = rig.ctl.journal
        unsynced: list[int] = []

        def power_cut() -> None:
            """The verdict is on the screen, the entry written, not synced:
            the power goes. The disk may or may not have taken the entry."""
            unsynced.append(rig.ctl.session.seq)
            if disk != "without the entry":
                shutil.rmtree(after_cut)
                copy_state(tmp_path / "state", after_cut)

        journal.sync = power_cut
        put_down(rig, move.place, move.uid)
        shown = rig.display.image.copy()
        state = snapshot(rig.ctl.session)
        assert unsynced and unsynced[0] > seq           # written, then the cut
        assert state != snapshot_of(after_cut) if disk == "without the entry" else True
    finally:
        rig.ctl.journal.db.close()                      # dropped, as the power went
        rig.mock.close()
    back = Rig(TableSettings(game="filicau", knowledge="scan"), after_cut, seats=4)
    try:
        back.player.arrive(move.place, move.uid)        # the readers' first poll: still there
        assert snapshot(back.ctl.session) == state
        assert back.display.image.tobytes() == shown.tobytes()
        assert not [n for n in back.ctl.notices if n.kind == "refused"]
    finally:
        back.close()


def snapshot_of(state: Path) -> object:
    """The state a table started on a copy of `state` resumes (nothing read)."""
    rig = Rig(TableSettings(game="filicau", knowledge="scan"), copy_state(
        state, state.with_name(state.name + " (look)")), seats=4)
    try:
        return snapshot(rig.ctl.session)
    finally:
        rig.close()


def test_a_deferred_entry_is_on_disk_with_its_mark_once_sync_returns(tmp_path):
    from table import storemark
    from table.journal import Journal, mark_path

    path = tmp_path / "journal.sqlite"
    j = Journal.open_checked(path)
    try:
        first = j.append("note", {"n": 1})
        j.defer_sync()
        assert j.db.execute("PRAGMA synchronous").fetchone()[0] == 1      # NORMAL
        second = j.append("note", {"n": 2})
        assert storemark.read(mark_path(path)).value == first          # not yet
        j.sync()
        assert storemark.read(mark_path(path)).value == second
        assert j.db.execute("PRAGMA synchronous").fetchone()[0] == 2      # FULL again
        third = j.append("note", {"n": 3})                             # synced at once
        assert storemark.read(mark_path(path)).value == third
        j.sync()                                                       # nothing deferred
        assert storemark.read(mark_path(path)).value == third
    finally:
        j.close()


def test_a_sync_that_fails_after_the_verdict_stops_the_table_with_the_journal_error(
        tmp_path, monkeypatch):
    import errno
    import os

    rig, bot = rig_in_a_hand(tmp_path / "state", 1)
    rig.ctl.strict = False
    try:
        move = bot.next_move()

        def broken(fd: int) -> None:
            raise OSError(errno.EIO, "Input/output error")

        monkeypatch.setattr(os, "fdatasync", broken)
        rig.player.arrive(move.place, move.uid)
        assert rig.ctl.failed is not None and "Input/output error" in rig.ctl.failed
        assert type(rig.ctl.view).__name__ == "ErrorView"
        assert rig.mock.indicators.status_pattern == "fast_blink"
    finally:
        monkeypatch.undo()
        rig.close()
