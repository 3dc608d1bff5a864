"""Referee ops of the Filkó family (`filko`, `filko_hats`, `filko5`, `filko6`).

A hand is run through the game's `HandFlow`, the same object the table
controller drives, so the referee and the table cannot disagree.

* `new_hand`: as the generic op; `shown` are the cards looked at in the cut
  (bottom first). Five players: no trump in a fresh hand, the answer names the
  `old_man` and what he must `call`; `old_man` must be given when `hands` are not.
* `call` (five players): the Old Man calls a `card` (its suit is trumps), or
  under Rich and Poor by Overs names a `trump` suit.
* `play`, `undo`: as the generic ops. Five players: the answer to the play
  that makes the partnership public carries `teams`; the hand's result too.
  Four and six players: when a team has just become master for the first time
  the result names `servant_from` instead of a new state, and `servant` follows.
* `servant`: the masters' choice of Servant after such a hand.
* `settle`: as the generic op, plus `servant` (four and six players) or
  `teams`, `old_man`, `trump` (five players).
* `view`: what one seat may know of the hand now (five players: the secret
  partnership stays secret).

`EXPORT` writes a hand the table recorded with these ops (`cardtable export`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import BadRequest, Card, EngineError, IllegalPlay, MatchState
from engine.flow import HandFlow
from engine.games.filko import Filko5
from engine.games.filko.five_deal import Filko5Deal
from engine.games.filko.five_flow import Filko5Flow
from engine.games.filko.flow import FilkoFlow
from table.referee.request import Request
from table.referee.session import Answer, HandSession, Referee, read_hands

if TYPE_CHECKING:
    from engine.games.base import MatchState
    from table.export import RecordedHand



def _current(ref: Referee, req: Request) -> tuple[HandSession, HandFlow]:
    hand = ref.require_hand(req)
    if not isinstance(hand.flow, FilkoFlow | Filko5Flow):
        raise EngineError("no_hand")
    return hand, hand.flow


# ----- new_hand ----------------------------------------------------------------------

def op_new_hand(ref: Referee, req: Request) -> Answer:
    game = req.game()
    state = game.state_from_json(req.require("state"))
    hands = read_hands(game, req)
    if isinstance(game, Filko5):
        return _new_hand_five(ref, req, game, state, hands)
    out: Answer = {"ok": True}
    if "trump" in req:
        flow = game.hand_flow(state, hands, req.suit(game, "trump"))
    elif "shown" in req:
        shown = req.cards(game, "shown")
        flow = game.hand_flow(state, hands)
        cutter = flow.cutter  # type: ignore[attr-defined]  # a Filkó hand's flow is a FilkoFlow
        for c in shown:
            flow.card(cutter, c)
            if flow.deal is not None:
                break
        if flow.deal is None:
            raise BadRequest("every shown card is a permanent trump: show the next card "
                             "up the cut too")
        out.update(trump=flow.trump, used=len(flow.shown))
    else:
        raise BadRequest('new_hand needs "trump" or "shown"')
    assert flow.deal is not None
    ref.hand = HandSession(game, flow, state, req.lang)
    out["leader"] = flow.deal.leader
    return out


def _new_hand_five(ref: Referee, req: Request, game: Filko5, state: Any,
                   hands: list[list[Card]] | None) -> Answer:
    old_man = req.seat(game, "old_man") if "old_man" in req else None
    fresh = state.masters is None
    if fresh and ("trump" in req or "shown" in req):
        raise BadRequest('in a fresh hand of five-player Filkó the Old Man names trumps: '
                         'use the "call" op')
    if "shown" in req:
        raise BadRequest("five-player Filkó does not cut for trumps")
    trump = req.suit(game, "trump") if "trump" in req else None
    if fresh and hands is None and old_man is None:
        raise BadRequest('without "hands", say who the Old Man is: "old_man", a seat')
    flow = game.hand_flow(state, hands, trump, old_man)
    ref.hand = HandSession(game, flow, state, req.lang)
    if fresh:
        return {"ok": True, "old_man": flow.old_man,
                "call": "card" if game.uses_call else "trump"}
    assert flow.deal is not None
    return {"ok": True, "trump": flow.trump, "leader": flow.deal.leader,
            "teams": list(flow.teams() or ())}


# ----- the Old Man's call --------------------------------------------------------------

def op_call(ref: Referee, req: Request) -> Answer:
    hand, flow = _current(ref, req)
    game = hand.game
    if not isinstance(game, Filko5) or not hasattr(flow, "call"):
        raise BadRequest(f"{game.id} has no call")
    step = flow.pending()
    if step.kind != "choose":
        raise IllegalPlay("not_expected", seat=step.seat, step=step.kind)
    seat = req.seat(game, "seat") if "seat" in req else step.seat
    assert seat is not None
    if game.uses_call:
        flow.call(seat, card=req.card(game, "card"))
    else:
        flow.call(seat, trump=req.suit(game, "trump"))
    assert flow.deal is not None
    out: Answer = {"ok": True, "trump": flow.trump}
    called = getattr(flow, "called", None)
    if called is not None:
        out["called"] = called.code
    out["leader"] = flow.deal.leader
    return out


# ----- play, undo, servant -------------------------------------------------------------

def op_play(ref: Referee, req: Request) -> Answer:
    hand, flow = _current(ref, req)
    game = hand.game
    seat = req.seat(game, "seat")
    card = req.card(game, "card")
    was_public = not isinstance(flow.deal, Filko5Deal) or flow.deal.partner_public()
    outcome = flow.play(seat, card).outcome
    assert outcome is not None
    deal = flow.deal
    out: Answer = {"ok": True, **outcome.to_json()}
    if isinstance(deal, Filko5Deal) and not was_public and deal.partner_public():
        out["teams"] = list(deal.teams() or ())
    if outcome.hand_over:
        out["hand"] = _hand_result(hand, flow)
    return out


def _hand_result(hand: HandSession, flow: HandFlow) -> Answer:
    assert flow.deal is not None
    result: Answer = {"points": flow.deal.team_points()}
    if isinstance(flow.deal, Filko5Deal):
        result["teams"] = list(flow.deal.teams() or ())
    choices = getattr(flow, "servant_choices", lambda: ())()
    if choices:
        result["servant_from"] = list(choices)
        return result
    hand.state = flow.settled()
    result["state"] = hand.state.to_json()
    return result


def op_servant(ref: Referee, req: Request) -> Answer:
    hand, flow = _current(ref, req)
    step = flow.pending()
    if step.kind != "choose" or step.prompt != "filko_choose_servant":
        raise IllegalPlay("not_expected", seat=step.seat, step=step.kind)
    assert step.seat is not None
    servant = req.require("servant")
    if isinstance(servant, bool) or not isinstance(servant, int):
        raise BadRequest('"servant" must be a seat number')
    flow.choose(step.seat, str(servant))
    hand.state = flow.settled()
    return {"ok": True, "state": hand.state.to_json()}


def op_undo(ref: Referee, req: Request) -> Answer:
    hand, flow = _current(ref, req)
    event = flow.undo_play()
    action = event.data.get("action")
    if action == "play":
        assert event.card is not None
        return {"ok": True, "seat": event.seat, "card": event.card.code}
    return {"ok": True, "undone": "call" if action in ("call", "trump") else action}


# ----- settle and view ------------------------------------------------------------------

def op_settle(ref: Referee, req: Request) -> Answer:
    game = req.game()
    state = game.state_from_json(req.require("state"))
    points = req.require("points")
    if not isinstance(points, list):
        raise BadRequest('"points" must be a list of integers, one per team')
    if isinstance(game, Filko5):
        teams = req.get("teams")
        old_man = req.seat(game, "old_man") if req.get("old_man") is not None else None
        trump = req.suit(game, "trump") if req.get("trump") is not None else None
        after: MatchState = game.settle(state, points, teams=teams, old_man=old_man,
                                        trump=trump, servant=req.get("servant"))
    else:
        after = game.settle(state, points, servant=req.get("servant"))
    return {"ok": True, "state": after.to_json()}


def op_view(ref: Referee, req: Request) -> Answer:
    hand, flow = _current(ref, req)
    seat = req.seat(hand.game, "seat") if req.get("seat") is not None else None
    view = flow.view(seat)  # type: ignore[attr-defined]  # a FilkoFlow's view
    step = view.step
    return {
        "ok": True, "seat": seat, "hand": [c.code for c in view.hand],
        "legal": [c.code for c in view.legal], "trump": view.trump,
        "old_man": view.old_man,
        "called": view.called.code if view.called is not None else None,
        "step": {"kind": step.kind, "seat": step.seat},
        "trick": [[s, c.code] for s, c in view.trick],
        "seat_points": list(view.seat_points), "teams": list(view.teams),
        "team_points": list(view.team_points) if view.team_points is not None else None,
    }


OPS = {
    "new_hand": op_new_hand,
    "call": op_call,
    "play": op_play,
    "undo": op_undo,
    "servant": op_servant,
    "settle": op_settle,
    "view": op_view,
}


# ----- export: a hand the table recorded, as these ops ------------------------------------

def export_hand(hand: RecordedHand) -> list[dict[str, Any]]:
    """The requests that replay a hand of the Filkó family as the table
    recorded it: `new_hand` with the cut's `shown` cards (five players: with
    `old_man` when the hands were not known), the Old Man's `call`, every
    `play`, and the masters' `servant` choice."""
    flow = hand.flow
    if isinstance(hand.game, Filko5):
        return _export_five(hand)
    if flow.deal is None:
        return []   # the cut is still being shown
    head = hand.new_hand(shown=[c.code for c in flow.shown]) if flow.shown \
        else hand.new_hand(trump=flow.trump)
    out = [head]
    for a in hand.actions:
        if a.played:
            out.append({"op": "play", "seat": a.seat, "card": a.code})
        elif a.prompt == "filko_choose_servant":
            out.append(hand.op("servant", servant=int(a.choice)))
    return out


def _export_five(hand: RecordedHand) -> list[dict[str, Any]]:
    flow = hand.flow
    fields: dict[str, Any] = {}
    if getattr(hand.state, "masters", None) is None and flow.hands is None:
        old_man = getattr(flow, "old_man", None)
        if old_man is None:
            return []   # the Old Man has not shown his card yet
        fields["old_man"] = old_man
    out = [hand.new_hand(**fields)]
    for a in hand.actions:
        if a.played:
            out.append({"op": "play", "seat": a.seat, "card": a.code})
        elif a.prompt == "filko5_name_trump":
            # the trump suit alone is the call under Rich and Poor by Overs;
            # otherwise the called card (next) names it
            if not hand.game.uses_call:  # type: ignore[attr-defined]  # a Filko5 game
                out.append(hand.op("call", seat=a.seat, trump=a.choice))
        elif a.prompt == "filko5_call_card":
            out.append(hand.op("call", seat=a.seat, card=a.choice))
    return out


EXPORT = export_hand
