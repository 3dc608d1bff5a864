"""The table runs its state machine compiled (`machine.Dispatch`, built by
`machine.build`), and `transitions` is the definition and the checked model:
for random sequences of triggers from every state, with guards answering
from a random stream and actions that fire further triggers (queued, as the
model's `self.step()` does) or fail, the compiled dispatch must agree with
`transitions.Machine` of the same tables (`machine.reference`) on every
step: the guards asked (in order, with their arguments), the actions run,
what each trigger call returned or raised, and the state after."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from transitions.core import MachineError

from table.controller import machine

GUARDS = sorted({name for t in machine.TRANSITIONS for key in ("conditions", "unless")
                 for name in ([t[key]] if isinstance(t.get(key), str) else t.get(key) or [])}
                | {guard for guard, _ in machine.ROUTES})
ACTIONS = sorted({name for t in machine.TRANSITIONS for key in ("before", "after")
                  for name in ([t[key]] if isinstance(t.get(key), str) else t.get(key) or [])})


def args_for(trigger: str) -> tuple:
    if trigger == "read":
        return (2, "04A1B2C3")
    if trigger == "reader_offline":
        return (1, "no answer")
    if trigger == "reader_back":
        return (1,)
    return ()


class Recorder:
    """Guards answer from `answers` (the n-th guard asked gets the n-th
    answer, round and round); every guard and action notes its call in `log`.
    An action in `chains` fires that trigger (while chain budget lasts); an
    action in `fails` raises."""

    def __init__(self) -> None:
        self.reset([True], {}, frozenset())

    def reset(self, answers: list[bool], chains: dict[str, str], fails: frozenset[str]) -> None:
        self.answers, self.asked = answers, 0
        self.chains, self.fails, self.budget = chains, fails, 6
        self.log: list[tuple] = []


def _guard(name: str):
    def guard(self: Recorder, *args):
        answer = self.answers[self.asked % len(self.answers)]
        self.asked += 1
        self.log.append(("guard", name, args, answer))
        return answer
    return guard


def _action(name: str):
    def action(self: Recorder, *args):
        self.log.append(("action", name, args, self.state))
        if name in self.fails:
            raise RuntimeError(f"{name} failed")
        follow = self.chains.get(name)
        if follow is not None and self.budget > 0:
            self.budget -= 1
            returned = getattr(self, follow)(*args_for(follow))
            self.log.append(("fired", follow, returned))
    return action


for _name in GUARDS:
    setattr(Recorder, _name, _guard(_name))
for _name in ACTIONS:
    setattr(Recorder, _name, _action(_name))

MACHINES: dict = {}


def machine_for(build):
    if build not in MACHINES:   # built once each (building `transitions`' machine is slow)
        model = Recorder()
        MACHINES[build] = (build(model), model)
    return MACHINES[build]


def run(build, state, triggers, answers, chains, fails):
    m, model = machine_for(build)
    model.reset(answers, chains, fails)
    m.set_state(state)
    steps = []
    for trigger in triggers:
        model.log = []
        try:
            result = ("returned", getattr(model, trigger)(*args_for(trigger)))
        except (MachineError, machine.TriggerRefused):
            result = ("refused",)
        except RuntimeError as exc:
            result = ("raised", str(exc))
        steps.append((trigger, result, model.state, model.log))
    return steps


@settings(max_examples=300, deadline=None)
@given(state=st.sampled_from(machine.LEAVES),
       triggers=st.lists(st.sampled_from(machine.TRIGGERS), min_size=1, max_size=12),
       answers=st.lists(st.booleans(), min_size=1, max_size=16),
       chains=st.dictionaries(st.sampled_from(ACTIONS), st.sampled_from(machine.TRIGGERS),
                              max_size=6),
       fails=st.frozensets(st.sampled_from(ACTIONS), max_size=2))
def test_the_compiled_dispatch_agrees_with_transitions(state, triggers, answers, chains, fails):
    compiled = run(machine.build, state, triggers, answers, chains, fails)
    assert compiled == run(machine.reference, state, triggers, answers, chains, fails)


@pytest.mark.parametrize("state", machine.LEAVES)
def test_every_trigger_in_every_state_with_the_step_an_action_fires(state):
    """The exhaustive corner: from each state, each trigger once with every
    action firing `step` (as the model's do), guards alternating."""
    chains = dict.fromkeys(ACTIONS, "step")
    for trigger in machine.TRIGGERS:
        for answers in ([True], [False], [False, True], [True, False]):
            compiled = run(machine.build, state, [trigger], answers, chains, frozenset())
            assert compiled == run(machine.reference, state, [trigger], answers, chains,
                                   frozenset()), (state, trigger, answers)


def test_a_trigger_fired_by_an_action_runs_after_it_in_the_state_it_finds():
    """Queued, as `transitions` runs it: `start_match` fires `step`, which
    runs once `start_match` is done, from the state the transition left."""
    m, model = machine_for(machine.build)
    model.reset([True], {"start_match": "step"}, frozenset())
    m.set_state("ready")
    assert model.ok() is True
    assert model.log == [("action", "start_match", (), "ready"), ("fired", "step", True),
                         ("guard", "has_no_match", (), True)]
    assert model.state == "ready"


def test_a_failing_action_leaves_nothing_queued():
    m, model = machine_for(machine.build)
    model.reset([False], {"start_match": "step"}, frozenset({"start_match"}))
    m.set_state("ready")
    with pytest.raises(RuntimeError):
        model.ok()
    model.reset([False, False, True], {}, frozenset())
    model.menu()                       # runs at once: nothing was left queued
    assert model.state == "setup_game"
    assert [e[:2] for e in model.log] == [("action", "begin_setup")]


def test_a_trigger_the_state_does_not_take_is_refused_and_changes_nothing():
    m, model = machine_for(machine.build)
    model.reset([True], {}, frozenset())
    m.set_state("boot")
    with pytest.raises(machine.TriggerRefused, match="Can't trigger event ok from state boot"):
        model.ok()
    assert model.state == "boot" and model.log == []


def test_a_model_without_a_callback_the_tables_name_fails_at_the_start():
    class Partial(Recorder):
        pass

    Partial.take_card = None   # not callable: as if the model had lost it
    with pytest.raises(AttributeError, match="no callback 'take_card'"):
        machine.build(Partial())


def test_a_state_that_is_not_a_leaf_is_refused():
    m, _ = machine_for(machine.build)
    with pytest.raises(ValueError, match="not a state of the machine: 'match_hand'"):
        m.set_state("match_hand")


def test_tables_using_what_the_dispatch_does_not_run_are_refused(monkeypatch):
    """A transition with a `transitions` feature the compiled dispatch does
    not implement (here `prepare`) stops the build instead of being
    silently run differently; so do a trigger not in TRIGGERS and a
    destination that is not a leaf."""
    base = list(machine.TRANSITIONS)
    for bad, message in (
            ({"trigger": "ok", "source": "ready", "dest": None, "prepare": "x"}, "prepare"),
            ({"trigger": "poke", "source": "ready", "dest": None}, "unknown trigger 'poke'"),
            ({"trigger": "ok", "source": "ready", "dest": "match"}, "not a leaf state")):
        monkeypatch.setattr(machine, "TRANSITIONS", [*base, bad])
        with pytest.raises(ValueError, match=message):
            machine.compile_tables()
