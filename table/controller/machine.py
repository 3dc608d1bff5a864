"""The table's state machine, declared as data.

`STATES` and `TRANSITIONS` are plain tables for the `transitions` library;
the callbacks they name (guards are predicates `is_...`/`has_...`/`can_...`,
actions are verbs) are methods of `table.controller.model.TableModel`.
The machine is built with `queued=True` (a trigger fired by a callback runs
after the current one) and `auto_transitions=False`. docs/controller.md shows
the diagram generated from these tables (`mermaid()`); a test checks it is
up to date.

Triggers: `read(place, uid)` a card read at once or seen steadily on a
reader; `ok`, `undo`, `menu` (short presses) and `undo_long`; `reader_offline(place)`,
`reader_back(place)`; and `step`, fired by the model itself to move to the
state that the session (the match, the hand's `HandFlow`) now calls for.
"""

from __future__ import annotations

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


def build(model: Any, graph: bool = False) -> Any:
    """The machine for `model` (a `TableModel`), in its initial state `boot`.

    The table runs a flat `transitions.Machine` over the leaf states
    (`flat_transitions`): a trigger looks up its state's transitions at once,
    instead of walking the nesting, and the start does not load
    `transitions.extensions` (and asyncio with it). `graph=True` builds the
    nested, diagram-capable machine of the same tables (for `mermaid`); a
    test holds the two to the same behaviour."""
    if graph:
        from transitions.extensions import HierarchicalGraphMachine

        return HierarchicalGraphMachine(
            model=model, states=STATES, transitions=TRANSITIONS, initial="boot", queued=True,
            auto_transitions=False, send_event=False, ignore_invalid_triggers=False,
            graph_engine="mermaid", show_conditions=True, title="cardtable controller")
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
