"""20-card Filcău's referee ops (documented with examples in docs/games/filcau20.md).

A hand here is a `Filcau20Flow`: `new_hand` starts it (with the cut or knock),
`fris` and `bind` drive the steps before play, `play` and `undo` the rest. Each
answer to `new_hand`, `fris` and `bind` names the step the hand waits for
next (`next`); the answer that ends the hand (or redeals it) has `hand`.
`EXPORT` writes a hand the table recorded with these ops (`cardtable export`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine import BadRequest, EngineError, IllegalPlay
from engine.flow import FlowEvent, Step
from engine.games.filcau20 import Filcau20
from engine.games.filcau20.flow import Filcau20Flow
from table.referee.request import Request
from table.referee.session import HandSession, Referee

if TYPE_CHECKING:
    from table.export import RecordedHand

Answer = dict[str, Any]


def _filcau(game: object) -> Filcau20:
    if not isinstance(game, Filcau20):
        raise BadRequest("this op is for filcau20")
    return game


def step_json(step: Step) -> Answer:
    out: Answer = {"kind": step.kind}
    if step.kind != "done":
        out.update(seat=step.seat, prompt=step.prompt, choices=list(step.choices))
    return out


def _session(ref: Referee, req: Request) -> tuple[HandSession, Filcau20, Filcau20Flow]:
    hand = ref.require_hand(req)
    flow = hand.flow
    if not isinstance(flow, Filcau20Flow):
        raise EngineError("no_hand")
    return hand, _filcau(hand.game), flow


def _hand_result(hand: HandSession, flow: Filcau20Flow) -> Answer:
    result = flow.result()
    out: Answer = {}
    if "redeal" in result.extra:
        out["redeal"] = result.extra["redeal"]
    else:
        out["points"] = list(result.points)
    if hand.state is not None:
        hand.state = flow.settled()
        out["state"] = hand.state.to_json()
    return out


def _answer(hand: HandSession, flow: Filcau20Flow, out: Answer,
            done: tuple[int, Answer] | None = None) -> Answer:
    """The answer to an op. `done` is (the flow's mark before the op, what the op
    was), so that `undo` can take the whole op back."""
    if done is not None and flow.mark() > done[0]:
        hand.extra["marks"].append(done)
    if flow.finished:
        out["hand"] = _hand_result(hand, flow)
    else:
        out["next"] = step_json(flow.pending())
    return {"ok": True, **out}


def _atomic(flow: Filcau20Flow, action: Callable[[], Any]) -> Any:
    """Run several flow actions as one: on a refusal, none of them happened."""
    mark = flow.mark()
    try:
        return action()
    except EngineError:
        flow.rollback(mark)
        raise


# ----- ops -------------------------------------------------------------------------


def op_settle(ref: Referee, req: Request) -> Answer:
    game = _filcau(req.game())
    state = game.state_from_json(req.require("state"))
    if req.boolean("redeal"):
        return {"ok": True, "state": game.settle(state, None, redeal=True).to_json()}
    after = game.settle(state, req.require("points"), req.get("tricks"))
    return {"ok": True, "state": after.to_json()}


def op_new_hand(ref: Referee, req: Request) -> Answer:
    game = _filcau(req.game())
    state = game.state_from_json(req.require("state"))
    hands = None
    if "hands" in req:
        raw = req.require("hands")
        if not isinstance(raw, list) or not all(isinstance(h, list) for h in raw):
            raise BadRequest('"hands" must be a list of hands, one per seat')
        hands = [[game.pack.parse(c) for c in h] for h in raw]
    trump = req.suit(game, "trump") if "trump" in req else None
    flow = Filcau20Flow(game, state, hands, trump)
    if trump is None:
        cut = req.require("cut")
        if not isinstance(cut, bool):
            raise BadRequest('"cut" must be true (cut: fris window) or false (knock)')
        flow.choose(flow.cutter, "cut" if cut else "knock")
    hand = HandSession(game, flow, state, req.lang, {"marks": []})
    ref.hand = hand
    out: Answer = {}
    if trump is not None:
        out["leader"] = flow.pending().seat
    return _answer(hand, flow, out)


def _one_of(req: Request, names: tuple[str, ...]) -> str:
    given = [n for n in names if n in req]
    if len(given) != 1:
        raise BadRequest(f"give exactly one of: {', '.join(names)}")
    return given[0]


def _phase(flow: Filcau20Flow, seat: int, *phases: str) -> None:
    if flow.finished:
        raise IllegalPlay("hand_over")
    if flow.phase not in phases:
        raise IllegalPlay("not_expected", seat=seat, step=flow.pending().kind)


def _named(flow: Filcau20Flow, event: FlowEvent) -> Answer:
    out: Answer = {"trump": event.data["trump"]}
    deal = flow.deal
    if deal is not None and deal.fris is not None:
        out["played"] = {"seat": deal.fris.seat, "card": deal.fris.over.code}
    elif deal is not None:
        out["leader"] = deal.leader
    return out


def op_fris(ref: Referee, req: Request) -> Answer:
    hand, game, flow = _session(ref, req)
    mark = flow.mark()
    seat = req.seat(game, "seat")
    what = _one_of(req, ("card", "pass", "deal", "trump", "turn"))
    out: Answer = {}
    if what == "card":
        _phase(flow, seat, "fris")
        flow.card(seat, req.card(game, "card"))
    elif what in ("pass", "deal"):
        if req.get(what) is not True:
            raise BadRequest(f'"{what}" must be true')
        _phase(flow, seat, "fris")
        if what == "deal":
            flow.deal_rest(seat)
        else:
            flow.choose(seat, what)
    elif what == "trump":
        _phase(flow, seat, "name")
        if flow.fris_seat is None:
            raise IllegalPlay("not_expected", seat=seat, step="choose")
        out = _named(flow, flow.choose(seat, req.suit(game, "trump")))
    else:
        _phase(flow, seat, "play")
        cards = req.cards(game, "turn")
        if len(cards) != 2:
            raise BadRequest('"turn" must be the two cards turned face up')

        def turn() -> None:
            flow.choose(seat, "turn")
            for c in cards:
                flow.card(seat, c)

        _atomic(flow, turn)
    return _answer(hand, flow, out, (mark, {"op": req.op, "seat": seat}))


def op_bind(ref: Referee, req: Request) -> Answer:
    hand, game, flow = _session(ref, req)
    mark = flow.mark()
    seat = req.seat(game, "seat")
    what = _one_of(req, ("call", "trump", "hand", "withdraw"))
    out: Answer = {}
    if what == "call":
        _phase(flow, seat, "bind")
        call = req.require("call")
        if not isinstance(call, str):
            raise BadRequest('"call" must be "pass", "closed" or a binding such as "3:U"')
        flow.choose(seat, call if call in ("pass", "closed") else f"bind:{call}")
    elif what == "trump":
        _phase(flow, seat, "name")
        if flow.fris_seat is not None:
            raise IllegalPlay("not_expected", seat=seat, step="choose")
        out = _named(flow, flow.choose(seat, req.suit(game, "trump")))
    elif what == "hand":
        _phase(flow, seat, "prove")
        cards = req.cards(game, "hand")
        if len(cards) != game.hand_size:
            raise BadRequest(f'"hand" must be the seat\'s {game.hand_size} cards')

        def prove() -> FlowEvent:
            event = None
            for c in cards:
                event = flow.card(seat, c)
            assert event is not None
            return event

        event = _atomic(flow, prove)
        out = {"proof": event.data["proof"]}
    else:
        if req.get("withdraw") is not True:
            raise BadRequest('"withdraw" must be true')
        _phase(flow, seat, "prove")
        flow.choose(seat, "withdraw")
    if flow.binder is not None and flow.phase == "name":
        out["binder"] = flow.binder
    return _answer(hand, flow, out, (mark, {"op": req.op, "seat": seat}))


def op_play(ref: Referee, req: Request) -> Answer:
    hand, game, flow = _session(ref, req)
    seat = req.seat(game, "seat")
    c = req.card(game, "card")
    if flow.finished:
        raise IllegalPlay("hand_over")
    if flow.phase != "play":
        raise IllegalPlay("not_expected", seat=seat, step=flow.pending().kind)
    mark = flow.mark()
    event = flow.card(seat, c)
    hand.extra["marks"].append((mark, {"op": "play", "seat": seat, "card": c.code}))
    out: Answer = {"ok": True}
    outcome = event.outcome
    assert outcome is not None
    if outcome.revoke is not None:
        out["revoke"] = outcome.revoke.to_json()
    if outcome.trick is not None:
        out["trick"] = outcome.trick.to_json()
    if flow.finished:
        out["hand"] = _hand_result(hand, flow)
    return out


def op_undo(ref: Referee, req: Request) -> Answer:
    """Take back the last op of the hand (a play, a call, a proof, a fris...)."""
    hand, game, flow = _session(ref, req)
    if flow.finished:
        raise IllegalPlay("hand_over")
    marks: list[tuple[int, Answer]] = hand.extra["marks"]
    if not marks:
        raise IllegalPlay("nothing_to_undo")
    mark, what = marks.pop()
    flow.rollback(mark)
    return {"ok": True, "undone": what, "next": step_json(flow.pending())}


OPS = {
    "settle": op_settle,
    "new_hand": op_new_hand,
    "fris": op_fris,
    "bind": op_bind,
    "play": op_play,
    "undo": op_undo,
}


# ----- export: a hand the table recorded, as these ops ------------------------------------

def export_hand(hand: RecordedHand) -> list[dict[str, Any]]:
    """The requests that replay a 20-card Filcău hand as the table recorded
    it: `new_hand` with the `cut` (or knock), then the fris window (`fris`
    with an Over, `pass` or `deal`), the binding calls (`bind`), a binder's
    proof (`bind` with his five cards, once all five are tapped) or
    withdrawal, the trump named (`fris` or `bind`, after a fris or not), the
    two cards turned face up on the fris (`fris` with `turn`) and every play."""
    actions = list(hand.actions)
    if not actions or actions[0].prompt != "filcau20_cut_or_knock":
        return []   # the cutter has not chosen yet
    flow = hand.flow
    out = [hand.new_hand(cut=actions[0].choice == "cut")]
    after_fris = getattr(flow, "fris_seat", None) is not None
    proof: list[str] = []
    turning: tuple[int, list[str]] | None = None
    for a in actions[1:]:
        prompt = a.prompt
        if a.played:
            out.append({"op": "play", "seat": a.seat, "card": a.code})
        elif prompt == "filcau20_fris":
            if a.kind == "card":
                out.append(hand.op("fris", seat=a.seat, card=a.code))
            else:
                # "deal" is the dealer's act, whoever picked it on the menu
                seat = a.action.event.seat if a.choice == "deal" else a.seat
                out.append(hand.op("fris", seat=seat, **{a.choice: True}))
        elif prompt == "filcau20_bind":
            call = a.choice[5:] if a.choice.startswith("bind:") else a.choice
            out.append(hand.op("bind", seat=a.seat, call=call))
        elif prompt == "filcau20_prove":
            if a.kind == "choose":
                proof = []
                out.append(hand.op("bind", seat=a.seat, withdraw=True))
            else:
                proof.append(a.code)
                if len(proof) == hand.game.hand_size:
                    out.append(hand.op("bind", seat=a.seat, hand=proof))
                    proof = []
        elif prompt == "filcau20_name_trump":
            out.append(hand.op("fris" if after_fris else "bind", seat=a.seat, trump=a.choice))
        elif a.kind == "choose" and a.choice == "turn":
            turning = (a.seat, [])
        elif prompt == "filcau20_show_turned" and turning is not None:
            turning[1].append(a.code)
            if len(turning[1]) == 2:
                out.append(hand.op("fris", seat=turning[0], turn=turning[1]))
                turning = None
    return out


EXPORT = export_hand
