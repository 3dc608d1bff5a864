"""Sueca's referee ops (documented with examples in docs/games/sueca.md).

* `settle` also takes `tricks` (to tell a flag from 120 points), `redeal` and
  `penalty`; its state is `score`, `carry`, `dealer` and `winner`.
* `new_hand`, `play` and `undo` are the generic ones: the hand is the
  table's `SuecaFlow`, whose match state before the hand stays with it, so
  that a denounce after the last card can still change the result.
* `redeal`: a seat shows a weak hand before the first lead and asks for a new
  deal (the flow's `claim_redeal`).
* `denounce`: with a `denounce_*` revoke mode, an opponent says a seat revoked
  (the flow's `denounce`).

`EXPORT` writes a hand the table recorded with these ops (`cardtable export`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import BadRequest, Card
from engine.games.base import check_seat
from engine.games.sueca import Sueca
from engine.games.sueca.deal import Penalty, SuecaDeal
from engine.games.sueca.flow import SuecaFlow
from table.referee.request import Request
from table.referee.session import HandSession, Referee

if TYPE_CHECKING:
    from table.export import RecordedHand

Answer = dict[str, Any]


def _sueca(game: object) -> Sueca:
    if not isinstance(game, Sueca):
        raise BadRequest("this op is for sueca")
    return game


def op_settle(ref: Referee, req: Request) -> Answer:
    game = _sueca(req.game())
    state = game.state_from_json(req.require("state"))
    if req.boolean("redeal"):
        after = game.settle(state, None, redeal=True)
        return {"ok": True, "state": after.to_json()}
    if "penalty" in req:
        raw = req.get("penalty")
        if not isinstance(raw, dict) or raw.get("team") not in (0, 1) or isinstance(
                raw.get("team"), bool):
            raise BadRequest('"penalty" must be {"team": 0 or 1}, the team that pays')
        reason = raw.get("reason", "revoke")
        if reason not in ("revoke", "false_denounce"):
            raise BadRequest('penalty "reason" must be "revoke" or "false_denounce"')
        after = game.settle(state, None, penalty=Penalty(raw["team"], reason, -1, -1))
        return {"ok": True, "state": after.to_json()}
    points = req.require("points")
    tricks = req.get("tricks")
    after = game.settle(state, points, tricks)
    return {"ok": True, "state": after.to_json()}


def _session(ref: Referee, req: Request) -> tuple[HandSession, Sueca, SuecaFlow]:
    hand = ref.require_hand(req)
    game = _sueca(hand.game)
    flow = hand.flow
    assert isinstance(flow, SuecaFlow)
    return hand, game, flow


def op_redeal(ref: Referee, req: Request) -> Answer:
    hand, game, flow = _session(ref, req)
    seat = req.seat(game, "seat")

    def shown() -> list[Card]:
        return req.cards(game, "hand")

    event = flow.claim_redeal(seat, shown if flow.hands is None or "hand" in req else None)
    result: Answer = {"redeal": seat, "points": event.data["points"]}
    if hand.state is not None:
        hand.state = flow.settled()
        result["state"] = hand.state.to_json()
    return {"ok": True, "hand": result}


def op_denounce(ref: Referee, req: Request) -> Answer:
    hand, game, flow = _session(ref, req)
    seat = req.seat(game, "seat")
    accused = check_seat(game, req.require("accused"), "accused")
    event = flow.denounce(seat, accused)
    deal = hand.deal
    assert isinstance(deal, SuecaDeal)
    result: Answer = {"points": deal.team_points()}
    if flow.state is not None:
        hand.state = flow.settled()
        result["state"] = hand.state.to_json()
    return {"ok": True, "penalty": event.data["penalty"], "hand": result}


OPS = {
    "settle": op_settle,
    "redeal": op_redeal,
    "denounce": op_denounce,
}


# ----- export: a hand the table recorded, as these ops ------------------------------------

def export_hand(hand: RecordedHand) -> list[dict[str, Any]]:
    """The requests that replay a Sueca hand as the table recorded it:
    `new_hand` with the turned-up card (`shown`), every `play`, a granted
    `redeal` claim (with the ten cards the seat showed when the table did not
    know the hands) and a `denounce`. A claim the table refused changed
    nothing the referee needs, and accepting the hand after the last trick
    is the referee's default: neither is written."""
    flow = hand.flow
    if flow.deal is None:
        return []   # the turned-up card is not shown yet
    out = [hand.new_hand(shown=[c.code for c in flow.shown]) if flow.shown
           else hand.new_hand(trump=flow.trump)]
    showing: list[str] = []
    for a in hand.actions:
        event = a.action.event
        if a.played:
            out.append({"op": "play", "seat": a.seat, "card": a.code})
        elif a.prompt == "sueca_show_hand":
            showing.append(a.code)
            if event.data.get("redeal") is True:
                out.append(hand.op("redeal", seat=a.seat, hand=showing))
            if "redeal" in event.data:
                showing = []
        elif a.kind == "choose" and a.choice.startswith("redeal:") \
                and event.data.get("redeal") is True:
            out.append(hand.op("redeal", seat=int(a.choice.partition(":")[2])))
        elif a.kind == "choose" and a.choice.startswith("denounce:"):
            penalty = event.data["penalty"]
            out.append(hand.op("denounce", seat=penalty["accuser"],
                               accused=penalty["accused"]))
    return out


EXPORT = export_hand
