"""The state machine's tables, its diagram in the docs, and every trigger
fired from every state: a trigger a state does not take is refused cleanly
(nothing changes, nothing is journaled), and nothing in the session ever
changes without a journal entry."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import messages
from engine.errors import IllegalPlay
from engine.flow import FlowEvent, HandFlow, Step
from engine.games import register
from engine.games.filicau import Filicau
from hw_mocks.rig import Rig
from table.controller import machine
from table.controller.loop import Controller
from table.controller.model import TableModel
from table.ports import DEALER
from table.settings import TableSettings

ROOT = Path(__file__).resolve().parents[2]
ADMIN = "AD0A0A0A"
UNKNOWN = "0BADC0DE"


# ----- a small game with every kind of step, one trick a hand ------------------------

class StepsFlow(HandFlow):
    """Filicău's hand with a call (`choose`) and a tapped card (`card`, or the
    choice `skip`) before the trump is shown; the hand is one trick."""

    def __init__(self, game, state, hands=None, trump=None):
        self.called = None
        self.tapped = None
        super().__init__(game, state, hands, trump)

    def pending(self):
        if self.called is None:
            return Step("choose", (self.dealer + 1) % 4, "test_call", ("alpha", "beta"))
        if self.tapped is None:
            return Step("card", self.dealer, "test_tap", ("skip",))
        return super().pending()

    def choose(self, seat, choice):
        step = self.pending()
        if step.kind == "choose" and choice in step.choices:
            if seat != step.seat:
                raise IllegalPlay("not_your_turn", seat=seat, turn=step.seat)
            self.called = choice
            self._log.append(("call", seat))
            return FlowEvent("chosen", seat, data={"choice": choice})
        if step.kind == "card" and choice == "skip":
            self.tapped = "skip"
            self._log.append(("tap", seat))
            return FlowEvent("chosen", seat, data={"choice": choice})
        raise IllegalPlay("not_expected", seat=seat, step=step.kind)

    def card(self, seat, card):
        step = self.pending()
        if step.kind == "card":
            if seat != step.seat:
                raise IllegalPlay("not_your_turn", seat=seat, turn=step.seat, family="german")
            self.tapped = card.code
            self._log.append(("tap", seat))
            return FlowEvent("tapped", seat, card)
        return super().card(seat, card)

    def _undo_other(self, kind, data):
        if kind == "call":
            self.called = None
        elif kind == "tap":
            self.tapped = None
        else:
            return super()._undo_other(kind, data)
        return FlowEvent("undone", data, data={"action": kind})


STEPS_MESSAGES = Filicau.messages | messages.Catalogue({
    "test_call": {"en": "Seat {seat}: call a word", "ro": "Locul {seat}: alegeți",
                  "hu": "{seat}. hely: válasszon"},
    "test_tap": {"en": "Seat {seat}: tap any card", "ro": "Locul {seat}: o carte",
                 "hu": "{seat}. hely: egy lap"},
})


@register
class StepsGame(Filicau):
    id = "test_steps"
    title = "Steps"
    messages = STEPS_MESSAGES
    tricks_per_hand = 1

    def hand_flow(self, state, hands=None, trump=None):
        return StepsFlow(self, state, hands, trump)


def settings(game="test_steps", knowledge="open", **kw):
    return TableSettings(game=game, knowledge=knowledge, admin_uids=(ADMIN,), **kw)


def step_seat(rig):
    step = rig.session.hand().step()
    return step.seat


def play_one_trick(rig):
    """Four cards nobody has shown, each from the seat whose turn it is."""
    for code in ("7a", "8a", "9a", "Ta"):
        rig.tap(step_seat(rig), code)


def to_play(rig):
    rig.press("ok")                 # start: the call
    rig.press("ok")                 # "alpha"
    rig.tap(DEALER, "Kb")           # the tapped card
    rig.tap(DEALER, "9h")           # shown: hearts are trumps
    assert rig.state == "match_hand_play"


def reach(state, tmp_path):
    """A rig resting in `state`, reached the way players would get there."""
    game_settings = settings(options={"match_length": 1}) if state == "match_over" \
        else settings(knowledge={"match_deal_scan": "scan",
                                 "match_deal_dealt": "dealt"}.get(state, "open"))
    rig = Rig(game_settings, None)
    path = {
        "ready": [],
        "setup_game": ["menu"],
        "setup_options": ["menu", "ok"],
        "setup_knowledge": ["menu", "ok", "ok", "ok"],
        "setup_language": ["menu", "ok", "ok", "ok", "ok"],
        "match_deal_scan": ["ok"],
        "match_deal_dealt": ["ok"],
        "match_hand_choose": ["ok"],
        "match_hand_card": ["ok", "ok"],
        "match_hand_show": ["ok", "ok", ("tap", DEALER, "Kb")],
        "admin_menu": [("tap", 0, ADMIN)],
        "admin_enroll": [("tap", 0, ADMIN), "ok"],
    }.get(state)
    if path is not None:
        for step in path:
            if isinstance(step, tuple):
                rig.tap(step[1], step[2])
            else:
                rig.press(step)
    else:
        to_play(rig)
        if state == "match_info":
            rig.press("menu")
        elif state == "match_undo":
            rig.press("undo")
        elif state == "match_abort":
            rig.hold("undo")
        elif state in ("match_result", "match_end", "match_over"):
            play_one_trick(rig)
            if state == "match_end":
                rig.press("menu")
            elif state == "match_over":
                rig.press("ok")
        elif state in ("admin_reset", "admin_badges"):
            rig.tap(0, ADMIN)
            kinds = [i.kind for i in rig.ctl.model.admin_items()]
            for _ in range(kinds.index(state.removeprefix("admin_"))):
                rig.press("menu")
            rig.press("ok")
    assert rig.state == state, (state, rig.state)
    return rig


# ----- the tables ---------------------------------------------------------------------

def test_every_callback_the_tables_name_is_a_method_of_the_model():
    names = set()
    for t in machine.TRANSITIONS:
        for key in ("conditions", "after", "before", "unless"):
            value = t.get(key)
            if value:
                names.update([value] if isinstance(value, str) else value)
    for _, guard in [(d, c) for c, d in machine.ROUTES]:
        names.add(guard)
    missing = sorted(n for n in names if not callable(getattr(TableModel, n, None)))
    assert not missing


def test_the_machine_is_built_queued_without_auto_transitions():
    class Bare:
        pass

    m = machine.reference(Bare())   # `transitions`' machine of the tables (the checked model)
    assert m.has_queue
    assert not m.auto_transitions
    assert not hasattr(Bare(), "to_ready")
    assert sorted({t["trigger"] for t in machine.TRANSITIONS}) == sorted(machine.TRIGGERS)


def test_the_diagram_in_the_docs_is_the_one_generated_from_the_tables():
    text = (ROOT / "docs" / "controller.md").read_text(encoding="utf-8")
    found = re.search(r"```mermaid\n(.*?)```", text, re.S)
    assert found, "docs/controller.md has no mermaid block"
    assert found.group(1) == machine.mermaid(), (
        "the diagram is out of date: paste the output of "
        "`python -c 'from table.controller.machine import mermaid; print(mermaid(), end=\"\")'`")


def test_every_resting_state_can_be_reached(tmp_path):
    for i, state in enumerate(machine.LEAVES):
        if state == "boot":
            continue
        rig = reach(state, tmp_path / str(i))
        rig.close()


def test_a_new_controller_rests_in_boot_until_it_has_read_its_journal(tmp_path):
    from hw_mocks.table import MockTable
    from table.journal import Journal
    from table.registry import CardRegistry

    mock = MockTable(seats=4)
    ctl = Controller(settings(), mock.ports, Journal(tmp_path / "j"),
                     CardRegistry(tmp_path / "r"), strict=True)
    assert ctl.state == "boot"
    ctl.resume()
    assert ctl.state == "ready"
    ctl.close()
    mock.close()


# ----- every trigger from every state -------------------------------------------------

FIRINGS = [("read", "admin"), ("read", "card"), ("read", "unknown"), ("ok",), ("undo",),
           ("undo_long",), ("menu",), ("step",), ("reader_offline",), ("reader_back",)]


def fire(rig, firing):
    name = firing[0]
    step = rig.session.hand().step() if rig.session.match and rig.session.match.hand else None
    seat = step.seat if step is not None and step.seat is not None else 0
    if name == "read":
        what = {"admin": ADMIN, "unknown": UNKNOWN, "card": "Ka"}[firing[1]]
        rig.tap(seat, what)
    elif name == "undo_long":
        rig.hold("undo")
    elif name in ("ok", "undo", "menu"):
        rig.press(name)
    elif name == "step":
        rig.ctl.fire("step")
        rig.ctl.refresh()
    elif name == "reader_offline":
        rig.player.offline(1, "unplugged")
    else:
        rig.player.back(1)


@pytest.mark.parametrize("state", [s for s in machine.LEAVES if s != "boot"])
def test_every_trigger_from_every_state(state, tmp_path):
    class Bare:
        pass

    tables = machine.reference(Bare())   # `transitions`' own machine of the tables
    for i, firing in enumerate(FIRINGS):
        rig = reach(state, tmp_path / str(i))
        declared = firing[0] in tables.get_triggers(state)
        journal = rig.ctl.journal
        before = (rig.state, rig.snapshot(), journal.count())
        fire(rig, firing)
        after = (rig.state, rig.snapshot(), journal.count())
        if not declared:
            assert after == before, (state, firing)
        # the session changes exactly when the journal grows
        assert (after[1] != before[1]) == (after[2] > before[2]), (state, firing)
        # what is on the screen is the view of where the machine is now
        assert rig.ctl.view == rig.ctl.presenter.view()
        rig.close()
