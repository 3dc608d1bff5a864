"""The table runs its machine flat (`table.controller.machine.build`: one
`transitions.Machine` over the leaf states), built from the same nested
tables as the diagram. From every state, for every trigger and whatever its
guards answer, it must do exactly what `transitions`' own nested machine of
those tables does: the same actions in the same order, the same state after,
the same refusal of a trigger the state does not take."""

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
    except MachineError:
        taken = "refused"
    return taken, model.state, model.log


@settings(max_examples=400, deadline=None)
@given(state=st.sampled_from(machine.LEAVES), trigger=st.sampled_from(machine.TRIGGERS),
       truth=st.fixed_dictionaries({g: st.booleans() for g in GUARDS}))
def test_the_flat_machine_does_what_the_nested_one_does(state, trigger, truth):
    args = (2, "04A1B2C3") if trigger in ("read",) else (1,) if trigger.startswith(
        "reader") else ()
    flat = outcome(machine.build, state, trigger, truth, args)
    assert flat == outcome(machine.nested, state, trigger, truth, args), (state, trigger)


def test_every_state_and_trigger_with_every_guard_true_and_false():
    """The exhaustive corners of the property above: all guards true, all false."""
    for state in machine.LEAVES:
        for trigger in machine.TRIGGERS:
            args = (2, "04A1B2C3") if trigger == "read" else (1,) if trigger.startswith(
                "reader") else ()
            for value in (True, False):
                truth = dict.fromkeys(GUARDS, value)
                assert outcome(machine.build, state, trigger, truth, args) == outcome(
                    machine.nested, state, trigger, truth, args), (state, trigger, value)


def test_parent_transitions_come_after_the_leafs_own():
    """In a hand, a card read is taken by the admin tag check first (declared
    on every leaf), then by the badge check (a member's badge is refused, also
    declared on every leaf), then by the hand's own `take_card` (declared on
    the parent)."""
    found = [(t.get("conditions"), t.get("after")) for t in machine.flat_transitions()
             if t["source"] == "match_hand_play" and t["trigger"] == "read"]
    assert found == [("is_admin_tag", "open_admin"), ("is_badge", "refuse_badge"),
                     (None, "take_card")]


def test_the_table_does_not_load_the_nested_machines_at_start():
    import subprocess
    import sys

    code = ("import sys; from table.controller import machine\n"
            "class M: pass\n"
            "machine.build(M())\n"
            "print(sorted(m for m in sys.modules if m.startswith(('transitions.extensions', "
            "'asyncio'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
