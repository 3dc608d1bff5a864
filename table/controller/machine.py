"""The table's state machine, declared as data.

`STATES` and `TRANSITIONS` are plain tables for the `transitions` library;
the callbacks they name (guards are predicates `is_...`/`has_...`/`can_...`,
actions are verbs) are methods of `table.controller.model.TableModel`.
They are written for `transitions` with `queued=True` (a trigger fired by a
callback runs after the current one) and `auto_transitions=False`, and that
is the machine's definition: `transitions` draws it (`mermaid()`, the
diagram in docs/controller.md, which a test checks is up to date) and the
tests hold the table to `transitions`' own machines of these tables. The
table itself runs them compiled (`COMPILED`, `Dispatch`): the same
behaviour, a precomputed dispatch, and no `transitions` import at run time.

Triggers: `read(place, uid)` a card read at once or seen steadily on a
reader; `ok`, `undo`, `menu` (short presses) and `undo_long`; `reader_offline(place)`,
`reader_back(place)`; and `step`, fired by the model itself to move to the
state that the session (the match, the hand's `HandFlow`) now calls for.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

#: Every trigger the machine knows.
TRIGGERS: tuple[str, ...] = ("step", "read", "ok", "undo", "undo_long", "menu",
                             "reader_offline", "reader_back")

STATES: list[Any] = [
    "boot",                                   # replaying the journal; then `step`
    "ready",                                  # no match: OK starts one, MENU sets it up
    {"name": "setup", "children": ["game", "options", "knowledge", "language"]},
    {"name": "match", "children": [
        {"name": "deal", "children": ["scan", "dealt"]},        # learning the hands
        {"name": "hand", "children": ["show", "choose", "card", "play"]},  # HandFlow steps
        "undo",                               # confirm taking back the last action
        "abort",                              # confirm throwing the hand away
        "result",                             # the hand is over
        "end",                                # confirm ending the match
        "info",                               # the match so far (MENU)
        "over",                               # the match is over
    ]},
    {"name": "admin", "children": ["menu", "enroll", "badges", "reset"]},
]


def leaves(states: list[Any] | None = None, prefix: str = "") -> list[str]:
    """The names of the states that have no children (where the machine rests)."""
    out: list[str] = []
    for s in STATES if states is None else states:
        if isinstance(s, str):
            out.append(prefix + s)
        else:
            out.extend(leaves(s["children"], prefix + s["name"] + "_"))
    return out


LEAVES: tuple[str, ...] = tuple(leaves())
_NOT_ADMIN = [s for s in LEAVES if not s.startswith("admin") and s != "boot"]
_ADMIN = [s for s in LEAVES if s.startswith("admin")]
_PLAYING = ["match_deal", "match_hand"]           # a hand is being learnt or played
_CONFIRMS = ["match_undo", "match_abort", "match_end", "match_info"]


def _t(trigger: str, source: str | list[str], dest: str | None, **kw: Any) -> dict[str, Any]:
    return {"trigger": trigger, "source": source, "dest": dest, **kw}


#: Where `step` leads, tried in this order.
ROUTES: list[tuple[str, str]] = [
    ("has_no_match", "ready"),
    ("is_match_finished", "match_over"),
    ("needs_scan", "match_deal_scan"),
    ("needs_dealt", "match_deal_dealt"),
    ("is_step_show", "match_hand_show"),
    ("is_step_choose", "match_hand_choose"),
    ("is_step_card", "match_hand_card"),
    ("is_step_play", "match_hand_play"),
    ("is_hand_done", "match_result"),
]

TRANSITIONS: list[dict[str, Any]] = [
    # --- following the session --------------------------------------------------------
    *[_t("step", ["boot", "ready", "match"], dest, conditions=cond) for cond, dest in ROUTES],

    # --- the admin tag opens (and closes) the admin menu from anywhere ---------------------
    # (declared on every leaf state, so that it is tried before any state's own
    # `read`: the enrollment screen never takes the tag as a card)
    _t("read", _NOT_ADMIN, "admin_menu", conditions="is_admin_tag", after="open_admin"),
    _t("read", _ADMIN, "boot", conditions="is_admin_tag", after="leave_admin"),
    # a member's badge sits the member at a seat between matches, and is
    # refused anywhere else (never taken for a card)
    _t("read", "ready", None, conditions="is_badge", after="seat_member"),
    _t("read", [s for s in _NOT_ADMIN if s != "ready"], None, conditions="is_badge",
       after="refuse_badge"),

    # --- no match -----------------------------------------------------------------------------
    _t("read", "ready", None, after="identify_card"),
    _t("ok", "ready", None, after="start_match"),
    _t("menu", "ready", "setup_game", after="begin_setup"),
    _t("menu", "setup", None, after="next_value"),
    _t("ok", "setup_game", "setup_options", conditions="has_options", after="pick_game"),
    _t("ok", "setup_game", "setup_knowledge", after="pick_game"),
    _t("ok", "setup_options", None, conditions="has_more_options", after="next_option"),
    _t("ok", "setup_options", "setup_knowledge"),
    _t("ok", "setup_knowledge", "setup_language"),
    _t("ok", "setup_language", "ready", after="commit_setup"),
    _t("undo", "setup", "ready", after="cancel_setup"),

    # --- learning the hands and playing them -----------------------------------------------
    _t("read", "match_deal_scan", None, after="take_scan"),
    _t("read", "match_deal_dealt", None, after="take_dealt"),
    _t("read", "match_hand", None, after="take_card"),
    # a step with choices (a call, a claim, "pass"): MENU moves through them, OK picks one
    _t("menu", "match_hand", None, conditions="has_choices", after="next_choice"),
    _t("ok", "match_hand", None, conditions="has_choices", after="take_choice"),
    _t("ok", _PLAYING, None, after="dismiss"),
    _t("menu", _PLAYING, "match_info"),
    _t("undo", [*_PLAYING, "match_result"], "match_undo", conditions="can_undo"),
    _t("undo", [*_PLAYING, "match_result"], None, after="refuse_undo"),
    _t("undo_long", [*_PLAYING, "match_result"], "match_abort"),

    # --- confirmations: OK confirms, UNDO or MENU goes back ----------------------------------
    _t("ok", "match_undo", None, after="take_undo"),
    _t("ok", "match_abort", None, after="take_abort"),
    _t("ok", "match_end", "ready", after="take_end"),
    _t("ok", "match_info", None, after="go_back"),
    _t("undo", _CONFIRMS, None, after="go_back"),
    _t("menu", _CONFIRMS, None, after="go_back"),

    # --- the hand is over -------------------------------------------------------------------
    _t("ok", "match_result", None, after="take_next_hand"),
    _t("menu", "match_result", "match_end"),
    _t("ok", "match_over", "ready", after="close_match"),

    # --- admin: enrollment and reset --------------------------------------------------------
    _t("menu", "admin_menu", None, after="next_item"),
    _t("ok", "admin_menu", "admin_enroll", conditions="is_item_enroll", after="begin_enroll"),
    _t("ok", "admin_menu", "admin_reset", conditions="is_item_reset"),
    _t("ok", "admin_menu", "admin_badges", conditions="is_item_badges", after="begin_badges"),
    _t("ok", "admin_menu", "boot", after="leave_admin"),
    _t("undo", "admin_menu", "boot", after="leave_admin"),
    _t("read", "admin_enroll", None, after="take_enroll"),
    _t("undo", "admin_enroll", None, after="unenroll_last"),
    _t("ok", "admin_enroll", "admin_menu", conditions="is_enroll_complete"),
    _t("menu", "admin_enroll", "admin_menu"),
    _t("read", "admin_badges", None, after="take_badge"),
    _t("undo", "admin_badges", None, after="unenroll_badge"),
    _t("ok", "admin_badges", "admin_menu"),
    _t("menu", "admin_badges", "admin_menu"),
    _t("ok", "admin_reset", "boot", after="take_reset"),
    _t("undo", "admin_reset", "admin_menu"),
    _t("menu", "admin_reset", "admin_menu"),

    # --- readers going away and coming back, in any state ------------------------------------
    _t("reader_offline", "*", None, after="mark_offline"),
    _t("reader_back", "*", None, after="mark_back"),
]


def _declared_at(states: list[Any] | None = None, prefix: str = "", depth: int = 0
                 ) -> dict[str, tuple[int, tuple[str, ...]]]:
    """Every state, nested or not, by name: (its depth, the leaves under it)."""
    out: dict[str, tuple[int, tuple[str, ...]]] = {}
    for s in STATES if states is None else states:
        if isinstance(s, str):
            out[prefix + s] = (depth, (prefix + s,))
            continue
        name = prefix + s["name"]
        inner = _declared_at(s["children"], name + "_", depth + 1)
        out.update(inner)
        out[name] = (depth, tuple(leaf for n, (_, under) in inner.items()
                                  for leaf in under if n == leaf))
    return out


def flat_transitions() -> list[dict[str, Any]]:
    """`TRANSITIONS` for a flat machine over `LEAVES`, the same machine.

    A transition declared on a parent state ("match", "match_hand") is
    repeated for each leaf under it. A trigger fired in a leaf is tried, as
    the nested machine tries it, on the leaf's own transitions first, then on
    its parent's, then its grandparent's, each level in the order declared:
    the first whose conditions hold is taken."""
    where = _declared_at()
    tried: dict[tuple[str, str], list[tuple[int, int, dict[str, Any]]]] = {}
    for order, t in enumerate(TRANSITIONS):
        sources = t["source"] if isinstance(t["source"], list) else [t["source"]]
        for source in sources:
            # "*": every state, so every leaf at its own level
            for leaf in LEAVES if source == "*" else where[source][1]:
                depth = where[leaf if source == "*" else source][0]
                tried.setdefault((t["trigger"], leaf), []).append((-depth, order, t))
    return [{**t, "source": leaf} for (_, leaf), found in tried.items()
            for _, _, t in sorted(found, key=lambda item: item[:2])]


#: The keys a transition may carry: what the compiled dispatch runs (a table
#: using any other `transitions` feature is refused when it is compiled).
_KEYS = frozenset({"trigger", "source", "dest", "conditions", "unless", "before", "after"})


class TriggerRefused(Exception):
    """The current state does not take this trigger (`transitions` raises
    its `MachineError` there): nothing ran, nothing changed."""


#: One transition ready to run: (guards that must hold, guards that must not,
#: the destination or None for an internal transition, the actions before the
#: state changes, the actions after), by callback name.
Compiled = tuple[tuple[str, ...], tuple[str, ...], "str | None", tuple[str, ...],
                 tuple[str, ...]]


def _names(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if all(isinstance(v, str) for v in value):
        return tuple(value)
    raise TypeError(f"callbacks must be named by strings: {value!r}")


def compile_tables() -> dict[str, dict[str, tuple[Compiled, ...]]]:
    """`flat_transitions()` precomputed for dispatch: trigger -> leaf state ->
    the transitions to try there, in order. Pure data from the tables; no
    `transitions` import."""
    table: dict[str, dict[str, list[Compiled]]] = {trigger: {} for trigger in TRIGGERS}
    for t in flat_transitions():
        unknown = set(t) - _KEYS
        if unknown:
            raise ValueError(f"the compiled machine does not run {sorted(unknown)}: {t}")
        if t["trigger"] not in table:
            raise ValueError(f"unknown trigger {t['trigger']!r} (not in TRIGGERS)")
        if t["dest"] is not None and t["dest"] not in LEAVES:
            raise ValueError(f"{t['trigger']} leads to {t['dest']!r}, not a leaf state")
        table[t["trigger"]].setdefault(t["source"], []).append(
            (_names(t.get("conditions")), _names(t.get("unless")), t["dest"],
             _names(t.get("before")), _names(t.get("after"))))
    return {trigger: {state: tuple(found) for state, found in by_state.items()}
            for trigger, by_state in table.items()}


#: The compiled tables (made once, when this module is imported).
COMPILED: dict[str, dict[str, tuple[Compiled, ...]]] = compile_tables()

_Bound = tuple[tuple[Callable[..., Any], ...], tuple[Callable[..., Any], ...], "str | None",
               tuple[Callable[..., Any], ...], tuple[Callable[..., Any], ...]]


class Dispatch:
    """The machine the table runs: `COMPILED` with every callback bound to
    the model once, at the start.

    It does what `transitions.Machine(queued=True, auto_transitions=False,
    send_event=False)` does with the same tables (a test holds the two to it
    for random trigger sequences from every state): each trigger becomes a
    method of the model; the transitions of the current state are tried in
    order, the first whose `conditions` all hold (and `unless` all fail) runs
    its `before` actions, sets `model.state` to its `dest` (an internal
    transition keeps the state) and runs its `after` actions, with the
    trigger's arguments. A trigger fired while another runs (an action
    calling `self.step()`) is queued and runs after it, in the state it
    finds then; a trigger call returns True (the queue's answer, as
    `transitions` gives it), or raises `TriggerRefused` when the current
    state does not take it. An exception clears the queue and propagates.
    A callback the model lacks fails here, at the start, not at its first use.
    """

    def __init__(self, model: Any, initial: str = "boot") -> None:
        self.model = model
        self._queue: deque[tuple[str, dict[str, tuple[_Bound, ...]], tuple[Any, ...]]] = deque()
        self._running = False

        def bind(names: tuple[str, ...]) -> tuple[Callable[..., Any], ...]:
            out = []
            for name in names:
                fn = getattr(model, name, None)
                if not callable(fn):
                    raise AttributeError(f"{type(model).__name__} has no callback {name!r}")
                out.append(fn)
            return tuple(out)

        for trigger, by_state in COMPILED.items():
            bound = {state: tuple((bind(c), bind(u), dest, bind(b), bind(a))
                                  for c, u, dest, b, a in found)
                     for state, found in by_state.items()}
            setattr(model, trigger, self._trigger(trigger, bound))
        self.set_state(initial)

    def set_state(self, state: str) -> None:
        """Put the model in `state` (a leaf), without running anything."""
        if state not in LEAVES:
            raise ValueError(f"not a state of the machine: {state!r}")
        self.model.state = state

    def _trigger(self, trigger: str, by_state: dict[str, tuple[_Bound, ...]]
                 ) -> Callable[..., bool]:
        model = self.model
        queue = self._queue

        def fire(*args: Any) -> bool:
            if self._running:
                queue.append((trigger, by_state, args))
                return True
            self._running = True
            try:
                _run(model, trigger, by_state, args)
                while queue:
                    _run(model, *queue[0])
                    queue.popleft()
            except BaseException:
                queue.clear()
                raise
            finally:
                self._running = False
            return True

        fire.__name__ = trigger
        return fire


def _run(model: Any, trigger: str, by_state: dict[str, tuple[_Bound, ...]],
         args: tuple[Any, ...]) -> None:
    """One trigger in the model's current state (see `Dispatch`)."""
    state = model.state
    found = by_state.get(state)
    if found is None:
        raise TriggerRefused(f"Can't trigger event {trigger} from state {state}!")
    for conditions, unless, dest, before, after in found:
        for guard in conditions:
            if not guard(*args):
                break
        else:
            for guard in unless:
                if guard(*args):
                    break
            else:
                for action in before:
                    action(*args)
                if dest is not None:
                    model.state = dest
                for action in after:
                    action(*args)
                return


def build(model: Any, graph: bool = False) -> Any:
    """The machine for `model` (a `TableModel`), in its initial state `boot`.

    The table runs the compiled dispatch (`Dispatch` over `COMPILED`): a
    trigger looks up its state's transitions at once, with the callbacks
    bound at the start, and `transitions` is not imported at all.
    `graph=True` builds `transitions`' nested, diagram-capable machine of the
    same tables (for `mermaid`); tests hold the dispatch to `transitions`'
    own machines of the tables (`reference`, `nested`)."""
    if graph:
        from transitions.extensions import HierarchicalGraphMachine

        return HierarchicalGraphMachine(
            model=model, states=STATES, transitions=TRANSITIONS, initial="boot", queued=True,
            auto_transitions=False, send_event=False, ignore_invalid_triggers=False,
            graph_engine="mermaid", show_conditions=True, title="cardtable controller")
    return Dispatch(model)


def reference(model: Any) -> Any:
    """`transitions`' flat `Machine` over the leaf states (`flat_transitions`),
    as the table ran before the compiled dispatch: the checked model the
    tests compare `Dispatch` with."""
    from transitions.core import Machine

    return Machine(model=model, states=list(LEAVES), transitions=flat_transitions(),
                   initial="boot", queued=True, auto_transitions=False, send_event=False,
                   ignore_invalid_triggers=False)


def nested(model: Any) -> Any:
    """The nested machine of the same tables (`transitions`' HierarchicalMachine),
    as the table ran before `flat_transitions`: the reference the tests compare with."""
    from transitions.extensions import HierarchicalMachine

    return HierarchicalMachine(model=model, states=STATES, transitions=TRANSITIONS,
                               initial="boot", queued=True, auto_transitions=False,
                               send_event=False, ignore_invalid_triggers=False)


class _Diagram:
    """A bare model: the diagram needs the tables, not the callbacks."""


def mermaid() -> str:
    """The machine as a mermaid state diagram (no graphviz needed)."""
    m = build(_Diagram(), graph=True)
    text: str = m.get_graph().draw(None)
    # Drop the styling of the "active" state: the diagram shows the tables.
    lines = [ln for ln in text.splitlines()
             if not ln.strip().startswith(("Class ", "classDef "))]
    return "\n".join(ln.rstrip() for ln in lines).strip() + "\n"
