"""The tables are written nested (the diagram); the table runs them flat and
compiled (`table.controller.machine.build`: the `Dispatch` over the leaf
states), and `machine.reference` is `transitions`' flat `Machine` of the
same flattened tables. From every state, for every trigger and whatever its
guards answer, both must do exactly what `transitions`' own nested machine
of those tables does: the same actions in the same order, the same state
after, the same refusal of a trigger the state does not take.
(tests/table/test_controller_compiled_machine.py follows whole sequences.)"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from transitions.core import MachineError

from table.controller import machine

GUARDS = sorted({name for t in machine.TRANSITIONS for key in ("conditions", "unless")
                 for name in ([t[key]] if isinstance(t.get(key), str) else t.get(key) or [])}
                | {guard for guard, _ in machine.ROUTES})
ACTIONS = sorted({name for t in machine.TRANSITIONS for key in ("before", "after")
                  for name in ([t[key]] if isinstance(t.get(key), str) else t.get(key) or [])})


def model_class():
    """A model whose guards answer from `truth` and whose actions only say
    they ran (and with what)."""

    def guard(name):
        return lambda self, *args: self.truth[name]

    def action(name):
        return lambda self, *args: self.log.append((name, args))

    body = {name: guard(name) for name in GUARDS}
    body.update({name: action(name) for name in ACTIONS})
    body["__init__"] = lambda self, truth: (setattr(self, "truth", truth),
                                            setattr(self, "log", []), None)[-1]
    return type("Model", (), body)


Model = model_class()
MACHINES = {}


def outcome(build, state, trigger, truth, args):
    if build not in MACHINES:   # one machine each, built once (building is slow)
        model = Model({})
        MACHINES[build] = (build(model), model)
    m, model = MACHINES[build]
    model.truth, model.log = truth, []
    m.set_state(state)
    try:
        taken = getattr(model, trigger)(*args)
    except (MachineError, machine.TriggerRefused):
        taken = "refused"
    return taken, model.state, model.log


@settings(max_examples=400, deadline=None)
@given(state=st.sampled_from(machine.LEAVES), trigger=st.sampled_from(machine.TRIGGERS),
       truth=st.fixed_dictionaries({g: st.booleans() for g in GUARDS}))
def test_the_flat_machine_does_what_the_nested_one_does(state, trigger, truth):
    args = (2, "04A1B2C3") if trigger in ("read",) else (1,) if trigger.startswith(
        "reader") else ()
    nested = outcome(machine.nested, state, trigger, truth, args)
    assert outcome(machine.reference, state, trigger, truth, args) == nested, (state, trigger)
    assert outcome(machine.build, state, trigger, truth, args) == nested, (state, trigger)


def test_every_state_and_trigger_with_every_guard_true_and_false():
    """The exhaustive corners of the property above: all guards true, all false."""
    for state in machine.LEAVES:
        for trigger in machine.TRIGGERS:
            args = (2, "04A1B2C3") if trigger == "read" else (1,) if trigger.startswith(
                "reader") else ()
            for value in (True, False):
                truth = dict.fromkeys(GUARDS, value)
                nested = outcome(machine.nested, state, trigger, truth, args)
                for build in (machine.reference, machine.build):
                    assert outcome(build, state, trigger, truth, args) == nested, (
                        build.__name__, state, trigger, value)


def test_parent_transitions_come_after_the_leafs_own():
    """In a hand, a card read is taken by the admin tag check first (declared
    on every leaf), then by the badge check (a member's badge is refused, also
    declared on every leaf), then by the hand's own `take_card` (declared on
    the parent)."""
    found = [(t.get("conditions"), t.get("after")) for t in machine.flat_transitions()
             if t["source"] == "match_hand_play" and t["trigger"] == "read"]
    assert found == [("is_admin_tag", "open_admin"), ("is_badge", "refuse_badge"),
                     (None, "take_card")]


def test_the_table_does_not_load_transitions_at_all():
    """The table's machine is the compiled dispatch: neither `transitions`
    (≈ 20 ms of start-up) nor asyncio is imported to build and run it."""
    import subprocess
    import sys

    code = ("import sys; from table.controller import machine\n"
            f"class M:\n{BODY}\n"
            "m = M(); machine.build(m); m.step(); m.read(1, 'AB')\n"
            "print(m.state, sorted(m for m in sys.modules if m.startswith(('transitions', "
            "'asyncio'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ready []"


#: A model class body for the subprocess above: no match, nothing is the admin tag.
BODY = "".join(f"    def {name}(self, *args): return {name == 'has_no_match'}\n"
               for name in GUARDS) + "".join(f"    def {name}(self, *args): pass\n"
                                             for name in ACTIONS)


def test_a_table_up_and_playing_has_not_imported_transitions():
    """The whole controller on a fake table, opened, resumed and taking a
    button press and a card: `transitions` stays unloaded."""
    import subprocess
    import sys

    code = ("import sys, tempfile\n"
            "from hw_mocks.table import MockTable\n"
            "from table.controller import Controller\n"
            "from table.settings import TableSettings\n"
            "mock = MockTable(seats=4)\n"
            "ctl = Controller.open(TableSettings(game='filicau', knowledge='scan'), mock.ports,"
            " tempfile.mkdtemp())\n"
            "ctl.registry.enroll_virtual('german32')\n"
            "ctl.start(); mock.press('ok'); ctl.wait_idle()\n"
            "mock.readers.arrive(0, ctl.registry.uid_for(ctl.session.match.game.pack.cards[0],"
            " 'german', 1)); ctl.wait_idle()\n"
            "print(ctl.state, ctl.session.seq, sorted(m for m in sys.modules"
            " if m.split('.')[0] == 'transitions'))\n"
            "ctl.close(); mock.close()")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    state, seq, loaded = out.stdout.split(" ", 2)
    assert state == "match_deal_scan" and int(seq) == 2, out.stdout   # the match, a card read
    assert loaded.strip() == "[]"
