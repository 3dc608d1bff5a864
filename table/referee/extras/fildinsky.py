"""Referee ops for Fildinsky (documented with examples in docs/games/fildinsky.md).

* `new_hand`: needs `shown` (the turned-up card); `hands` and `stock` optional.
* `play`: as the generic op; a trick's answer also tells its deece and
  last-trick points, the hand points so far and what comes `next`. A play
  while melds may still be declared closes the declarations; draws not yet
  reported are recorded as unknown cards.
* `draw`: a seat draws from the stock, `card` when the table saw it.
* `meld`: the winner of the last trick declares all of this trick's melds at
  once (`melds`, at most two) and may make the deece `exchange`.
* `melds`: stateless question: the melds a won pile allows and the best choice.
* `trick`: as the generic op, with `stock_empty` (identical cards in the stock
  phase, option `tie_rule_phase1`).
* `undo`: takes back the last `play`, `draw` or `meld` request.

`legal` and `settle` are the generic ops (`legal` takes `stock_empty`).
`EXPORT` writes a hand the table recorded with these ops (`cardtable export`).

The hand is the table's `FildinskyFlow` with draws made by request: `play`,
`draw`, `meld` and `undo` are its `play`, `draw`, `declare_all` and `undo`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from engine import BadRequest
from engine.flow import FlowEvent
from engine.games.fildinsky import Fildinsky
from engine.games.fildinsky.deal import (
    Declared,
    Drawn,
    Exchanged,
    FildinskyDeal,
    Forfeit,
    TrickScore,
    TurnedSeven,
)
from engine.games.fildinsky.flow import FildinskyFlow
from engine.games.fildinsky.melds import best_melds, legal_melds
from table.referee.request import Request
from table.referee.session import HandSession, Referee, read_hands

if TYPE_CHECKING:
    from table.export import RecordedHand

Answer = dict[str, Any]


def _game(req: Request) -> Fildinsky:
    game = req.game()
    assert isinstance(game, Fildinsky)
    return game


def _flow(ref: Referee, req: Request) -> tuple[HandSession, FildinskyFlow, FildinskyDeal]:
    hand = ref.require_hand(req)
    if not isinstance(hand.flow, FildinskyFlow) or not isinstance(hand.deal, FildinskyDeal):
        raise BadRequest("the hand in play is not a Fildinsky hand")
    return hand, hand.flow, hand.deal


def _codes(cards: Any) -> list[str]:
    return [c.code for c in cards]


def _next(deal: FildinskyDeal) -> Answer:
    stage, seat = deal.pending()
    out: Answer = {"step": stage, "seat": seat}
    if stage == "meld":
        out["melds"] = [k.name for k in deal.legal_melds()]
        out["exchange"] = deal.can_exchange()
    return out


def _report(hand: HandSession, deal: FildinskyDeal, events: Sequence[object],
            out: Answer) -> Answer:
    """Add what the hand did (`events`), and what comes next."""
    scored = False
    for e in events:
        if isinstance(e, TrickScore):
            trick: Answer = {"winner": e.trick.winner, "points": e.brisques}
            if e.deece:
                trick["deece"] = e.deece
            if e.last:
                trick["last"] = e.last
            if e.credited != e.trick.winner:
                trick["credited"] = e.credited
            out["trick"] = trick
            scored = True
        elif isinstance(e, Forfeit):
            out["forfeit"] = {"seat": e.seat, "points": e.points}
            scored = True
        elif isinstance(e, Exchanged):
            out["exchange"] = {"took": e.took.code, "gave": e.gave.code}
        elif isinstance(e, Declared):
            out.setdefault("melds", []).append(
                {"meld": e.meld.name, "cards": e.meld.codes, "points": e.meld.points})
            scored = True
        elif isinstance(e, Drawn):
            out.setdefault("draws", []).append(
                {"seat": e.seat, "card": e.card.code if e.card is not None else None})
        elif isinstance(e, TurnedSeven):
            out["turned_seven"] = {"seat": e.seat, "points": e.points}
            scored = True
    if scored:
        out["hand_points"] = list(deal.points)
    if deal.finished:
        result: Answer = {"points": list(deal.points), "brisques": list(deal.brisques),
                          "melds": list(deal.meld_points), "bonus": list(deal.bonus_points)}
        if hand.state is not None:
            hand.state = hand.flow.settled()
            result["state"] = hand.state.to_json()
        out["hand"] = result
    else:
        out["next"] = _next(deal)
    return out


# ----- ops -------------------------------------------------------------------------

def op_new_hand(ref: Referee, req: Request) -> Answer:
    game = _game(req)
    state = game.state_from_json(req.require("state")) if "state" in req else None
    if "shown" not in req:
        raise BadRequest('a Fildinsky hand needs "shown": ["…"], the turned-up card')
    shown = req.cards(game, "shown")
    if len(shown) != 1:
        raise BadRequest('"shown" is the one turned-up card')
    turn_up = shown[0]
    trump, used = game.trump_from_shown(shown)
    if "trump" in req and req.suit(game, "trump") != trump:
        raise BadRequest(f'the turned-up {turn_up} makes {trump} trumps, not {req.get("trump")}')
    hands = read_hands(game, req)
    stock = req.cards(game, "stock") if "stock" in req else None
    leader = None
    if state is None:
        if "leader" not in req:
            raise BadRequest('new_hand needs "state" (or at least "leader")')
        leader = req.seat(game, "leader")
    flow = game.referee_flow(state, turn_up, hands, stock, leader)
    hand = HandSession(game, flow, state, req.lang)
    ref.hand = hand
    deal = hand.deal
    assert isinstance(deal, FildinskyDeal)
    out: Answer = {"ok": True, "trump": trump, "used": used, "leader": deal.turn}
    if deal.events:
        _report(hand, deal, deal.events, out)
    return out


def _answer(ref: Referee, req: Request, act: Callable[[FildinskyFlow], FlowEvent], out: Answer
            ) -> tuple[FlowEvent, Answer]:
    """Run one act of the flow (all of it or, refused, none of it) and report
    what the hand did meanwhile and what comes next."""
    hand, flow, deal = _flow(ref, req)
    event = act(flow)
    return event, _report(hand, deal, event.data["events"], out)


def op_play(ref: Referee, req: Request) -> Answer:
    hand, _, _ = _flow(ref, req)
    seat = req.seat(hand.game, "seat")
    card = req.card(hand.game, "card")
    event, out = _answer(ref, req, lambda flow: flow.play(seat, card), {"ok": True})
    if event.outcome is not None and event.outcome.revoke is not None:
        out = {"ok": True, "revoke": event.outcome.revoke.to_json(),
               **{k: v for k, v in out.items() if k != "ok"}}
    if "trick" not in out and "hand" not in out:
        out.pop("next", None)
    return out


def op_draw(ref: Referee, req: Request) -> Answer:
    hand, _, deal = _flow(ref, req)
    seat = req.seat(hand.game, "seat")
    card = req.card(hand.game, "card") if "card" in req else None
    out: Answer = {"ok": True}
    event, _ = _answer(ref, req, lambda flow: flow.draw(seat, card), out)
    # The answer's `card` and `stock` come before what the draw set off.
    head: Answer = {"ok": True}
    if event.card is not None:
        head["card"] = event.card.code
    head["stock"] = deal.stock_left
    out = {**head, **{k: v for k, v in out.items() if k != "ok"}}
    # The seat's own draw is the answer's `card`; list only the draws it set off.
    draws = out.pop("draws", [])[1:]
    if draws:
        out["draws"] = draws
    return out


def op_meld(ref: Referee, req: Request) -> Answer:
    hand, _, _ = _flow(ref, req)
    seat = req.seat(hand.game, "seat")
    names = req.get("melds", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise BadRequest('"melds" must be a list of meld names')
    exchange = req.boolean("exchange", False)
    _, out = _answer(ref, req, lambda flow: flow.declare_all(seat, names, exchange), {"ok": True})
    return out


def op_melds(ref: Referee, req: Request) -> Answer:
    """Stateless: the melds a won pile allows, and the best choice of at most two."""
    game = _game(req)
    trump = req.suit(game, "trump")
    pile = Counter(req.cards(game, "pile"))
    trick = None
    if game.options["meld_needs_current_trick_card"]:
        if "trick" not in req:
            raise BadRequest('"trick" (the trick just won) is needed: every meld must contain '
                             'one of its cards')
        trick = Counter(req.cards(game, "trick"))
        if any(n > pile[c] for c, n in trick.items()):
            raise BadRequest('the cards of "trick" must be among the "pile"')
    pair = game.options["bezique_pair"]
    legal = legal_melds(pile, trump, trick=trick, bezique_pair=pair)
    best = best_melds(pile, trump, trick=trick, bezique_pair=pair)
    return {"ok": True, "legal": [k.name for k in legal], "best": [k.name for k in best],
            "points": sum(k.points for k in best)}


def op_trick(ref: Referee, req: Request) -> Answer:
    game = _game(req)
    trump = req.suit(game, "trump") if req.get("trump") is not None else None
    cards = req.cards(game, "cards")
    context = {"stock_empty": req.get("stock_empty")} if "stock_empty" in req else {}
    winner = game.trick_winner(cards, trump, **context)
    return {"ok": True, "winner": winner, "points": game.trick_points(cards, trump)}


def op_undo(ref: Referee, req: Request) -> Answer:
    _, flow, deal = _flow(ref, req)
    event = flow.undo_play()
    out: Answer = {"ok": True, "undone": event.data["action"], "seat": event.seat}
    if event.card is not None:
        out["card"] = event.card.code
    out["next"] = _next(deal)
    return out


OPS: dict[str, Callable[[Referee, Request], Answer]] = {
    "new_hand": op_new_hand,
    "play": op_play,
    "draw": op_draw,
    "meld": op_meld,
    "melds": op_melds,
    "trick": op_trick,
    "undo": op_undo,
}


# ----- export: a hand the table recorded, as these ops ------------------------------------

def export_hand(hand: RecordedHand) -> list[dict[str, Any]]:
    """The requests that replay a Fildinsky hand as the table recorded it:
    `new_hand` with the turned-up card (`shown`) and the hands when known,
    every `play`, the declarations after a trick as one `meld` (the melds
    picked, `exchange` when the Seven was exchanged; a pass alone is an empty
    `meld`), and each `draw` the table asked for (with the card tapped, or
    without for `unknown`). Draws the table made by itself (hands unknown)
    the referee makes by itself too."""
    flow = hand.flow
    if flow.deal is None:
        return []   # the turned-up card is not shown yet
    out = [hand.new_hand(shown=[c.code for c in flow.shown])]
    meld: dict[str, Any] | None = None
    for a in hand.actions:
        if meld is not None and a.prompt != "fildinsky_declare":
            out.append(meld)
            meld = None
        if a.played:
            out.append({"op": "play", "seat": a.seat, "card": a.code})
        elif a.prompt == "fildinsky_declare":
            if meld is None:
                meld = hand.op("meld", seat=a.seat, melds=[])
            if a.choice == "exchange":
                meld["exchange"] = True
            elif a.choice != "pass":
                meld["melds"].append(a.choice)
        elif a.prompt == "fildinsky_draw":
            out.append(hand.op("draw", seat=a.seat, card=a.code) if a.kind == "card"
                       else hand.op("draw", seat=a.seat))
    if meld is not None:
        out.append(meld)
    return out


EXPORT = export_hand
