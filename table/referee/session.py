"""The referee protocol (`shared/spec/referee.md`): one JSON request in, one
JSON answer out, never stopping on bad input.

The generic ops work for every game through the engine's `Game` interface.
A game with more to say (binding, melds, calls, ...) adds or overrides ops in
`table.referee.extras.<module>`; see `table/referee/extras/__init__.py`.

A hand in play is the game's `HandFlow`, the object the table drives: an op
on it maps to one flow call and shapes the flow's answer. No rule is checked
here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine import BadRequest, Card, Deal, EngineError, Game, MatchState
from engine.deal import PlayOutcome
from engine.flow import HandFlow
from engine.messages import render
from table.referee.extras import extra_ops
from table.referee.request import Request

Answer = dict[str, Any]
Handler = Callable[["Referee", Request], Answer]


@dataclass
class HandSession:
    """The hand started by the last `new_hand`: its flow (the one the table
    drives) and the match state after the answers so far (None: the hand was
    started without one)."""

    game: Game
    flow: HandFlow
    state: MatchState | None
    lang: str = "en"
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def deal(self) -> Deal | None:
        """The flow's deal (None until the flow has dealt: five-player Filkó
        before the call)."""
        return self.flow.deal


def refusal(err: EngineError, lang: str) -> Answer:
    return {"ok": False, "reason": err.reason, "message": err.message(lang)}


def bad_request(detail: str, lang: str = "en") -> Answer:
    return {"ok": False, "reason": "bad_request",
            "message": render("bad_request", lang, detail=detail)}


class Referee:
    """Holds at most one hand in play; `answer_line` is the whole protocol."""

    def __init__(self) -> None:
        self.hand: HandSession | None = None

    # ----- the line protocol ---------------------------------------------------

    def answer_line(self, line: str | bytes) -> str:
        """One line in, one line of JSON out (without the newline)."""
        return json.dumps(self.answer_raw(line), ensure_ascii=False, separators=(", ", ": "))

    def answer_raw(self, line: str | bytes) -> Answer:
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError:
                return bad_request("the line is not UTF-8 text")
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError):
            return bad_request("the line is not a JSON object")
        if not isinstance(obj, dict):
            return bad_request("the line is not a JSON object")
        return self.answer(obj)

    def answer(self, obj: dict[str, Any]) -> Answer:
        req = Request(obj)
        lang = obj.get("lang") if obj.get("lang") in ("en", "ro", "hu") else self._lang()
        try:
            lang = req.lang if "lang" in obj else lang
            handler = self._handler(req)
            return handler(self, req)
        except EngineError as err:
            return refusal(err, str(lang))
        except (TypeError, ValueError, KeyError, IndexError, RecursionError) as err:
            # A request shaped in a way no check foresaw: still one answer.
            return bad_request(f"the request could not be read ({type(err).__name__})",
                               str(lang))

    def _lang(self) -> str:
        return self.hand.lang if self.hand is not None else "en"

    def _handler(self, req: Request) -> Handler:
        op = req.op
        if "game" not in req:
            # An op on the hand in play (play, undo, and a game's own ops such
            # as call, bind or draw) may leave out the game: it is the hand's.
            game_id = self.hand.game.id if self.hand is not None else None
        else:
            game_id = req.get("game")
        if isinstance(game_id, str):
            extras = extra_ops(game_id)
            if op in extras:
                extra: Handler = extras[op]
                return extra
        handler = OPS.get(op)
        if handler is None:
            raise BadRequest(f'unknown op "{op}"')
        return handler

    # ----- helpers for op handlers -----------------------------------------------

    def require_hand(self, req: Request) -> HandSession:
        """The hand in play, for a request that acts on it. A request that
        names a game names the hand's: one naming another game is refused
        (it was meant for another table, or another hand)."""
        if self.hand is None:
            raise EngineError("no_hand")
        if "game" in req and req.get("game") != self.hand.game.id:
            raise BadRequest(f"the hand being played is {self.hand.game.id}, "
                             f"not {req.get('game')}")
        return self.hand


# ----- the generic ops -----------------------------------------------------------

def op_legal(ref: Referee, req: Request) -> Answer:
    game = req.game()
    trump = _trump(game, req)
    trick = req.cards(game, "trick", [])
    hand = req.cards(game, "hand")
    context = _context(req)
    seat = req.seat(game, "seat") if "seat" in req else None
    legal = game.legal_subset(trump, trick, hand, **context)
    out: Answer = {"ok": True, "legal": [c.code for c in legal]}
    if "card" in req:
        c = req.card(game, "card")
        refused = game.verdict(trump, trick, hand, c, seat, **context)
        if refused is None:
            out["verdict"] = {"legal": True}
        else:
            out["verdict"] = {"legal": False, "reason": refused.reason,
                              "message": refused.message(req.lang)}
    return out


def op_trick(ref: Referee, req: Request) -> Answer:
    game = req.game()
    trump = _trump(game, req)
    cards = req.cards(game, "cards")
    winner = game.trick_winner(cards, trump)
    return {"ok": True, "winner": winner, "points": game.trick_points(cards, trump)}


def op_trump(ref: Referee, req: Request) -> Answer:
    game = req.game()
    shown = req.cards(game, "shown")
    trump, used = game.trump_from_shown(shown)
    return {"ok": True, "trump": trump, "used": used}


def op_settle(ref: Referee, req: Request) -> Answer:
    game = req.game()
    state = game.state_from_json(req.require("state"))
    points = req.require("points")
    if not isinstance(points, list):
        raise BadRequest('"points" must be a list of integers, one per team')
    tricks = req.get("tricks")
    after = game.settle(state, points, tricks)
    return {"ok": True, "state": after.to_json()}


def read_hands(game: Game, req: Request) -> list[list[Card]] | None:
    """The request's `hands` (None when it has none)."""
    if "hands" not in req:
        return None
    raw = req.require("hands")
    if not isinstance(raw, list):
        raise BadRequest('"hands" must be a list of hands, one per seat')
    hands = []
    for i, h in enumerate(raw):
        if not isinstance(h, list):
            raise BadRequest(f'"hands"[{i}] must be a list of card codes')
        hands.append([game.pack.parse(c) for c in h])
    return hands


def op_new_hand(ref: Referee, req: Request) -> Answer:
    game = req.game()
    state = game.state_from_json(req.require("state")) if "state" in req else None
    out: Answer = {"ok": True}
    shown: list[Card] = []
    if "trump" in req:
        trump = req.suit(game, "trump")
    elif "shown" in req:
        shown = req.cards(game, "shown")
        trump, used = game.trump_from_shown(shown)
        shown = shown[:used]
        out.update(trump=trump, used=used)
    else:
        raise BadRequest('new_hand needs "trump" or "shown"')
    leader: int | None = None
    if state is None:
        if "leader" not in req:
            raise BadRequest('new_hand needs "state" (or at least "leader")')
        leader = req.seat(game, "leader")
    hands = read_hands(game, req)
    flow = game.flow_with_trump(state, hands, trump, shown=shown, leader=leader)
    ref.hand = HandSession(game, flow, state, req.lang)
    assert flow.deal is not None   # trumps are known: the flow has dealt
    out["leader"] = flow.deal.leader
    return out


def outcome_answer(hand: HandSession, outcome: PlayOutcome) -> Answer:
    """A play's answer: what it did and, when it ended the play, the hand's
    points and (with a match state) the match state after it."""
    out: Answer = {"ok": True, **outcome.to_json()}
    if outcome.hand_over:
        result: Answer = {"points": list(hand.flow.result().points)}
        if hand.state is not None:
            hand.state = hand.flow.settled()
            result["state"] = hand.state.to_json()
        out["hand"] = result
    return out


def op_play(ref: Referee, req: Request) -> Answer:
    hand = ref.require_hand(req)
    seat = req.seat(hand.game, "seat")
    card = req.card(hand.game, "card")
    outcome = hand.flow.play(seat, card).outcome
    assert outcome is not None
    return outcome_answer(hand, outcome)


def op_undo(ref: Referee, req: Request) -> Answer:
    """Extension: take back the last accepted play of the current hand."""
    hand = ref.require_hand(req)
    undone = hand.flow.undo_play()
    assert undone.card is not None
    return {"ok": True, "seat": undone.seat, "card": undone.card.code}


def op_games(ref: Referee, req: Request) -> Answer:
    """Extension: the game ids this referee knows, with their options."""
    from engine.games import game_class, game_ids

    games = []
    for gid in game_ids():
        cls = game_class(gid)
        games.append({"id": gid, "title": cls.title, "players": cls.players,
                      "options": {s.name: s.default for s in cls.option_specs}})
    return {"ok": True, "games": games}


def _trump(game: Game, req: Request) -> str | None:
    if "trump" not in req or req.get("trump") is None:
        return None
    return req.suit(game, "trump")


def _context(req: Request) -> dict[str, Any]:
    known = {"op", "game", "options", "lang", "trump", "trick", "hand", "card", "seat"}
    return {k: v for k, v in req.obj.items() if k not in known}


OPS: dict[str, Handler] = {
    "legal": op_legal,
    "trick": op_trick,
    "trump": op_trump,
    "settle": op_settle,
    "new_hand": op_new_hand,
    "play": op_play,
    "undo": op_undo,
    "games": op_games,
}
