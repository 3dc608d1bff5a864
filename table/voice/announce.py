"""What the table says, and when.

`Announcer` follows the controller: `notice(n)` for each thing that happened
(a card accepted, refused, a trick won, a revoke, an undo) and `settle()`
after each event, once the state machine has moved (the trump now known,
whose turn it is, a hand's result, the match over). Both return the
`Utterance`s to say, in the table's language, built from message codes and
parameters (`table.voice.words`). A refusal and a new trump are urgent: they
cut what is being said. Nothing here makes a sound (`table.voice.Speaker`).

`attach(controller, speaker)` hooks an announcer to a running controller.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.errors import EngineError
from table.voice import Speaker, Utterance
from table.voice.words import VOICE, clean, say, seat_list

if TYPE_CHECKING:
    from engine.match import Standing
    from table.controller.loop import Controller
    from table.controller.model import Notice, TableModel

log = logging.getLogger("cardtable.voice")

#: The screens that have something to say when the table comes to them.
_READY_STATES = ("ready",)


class Announcer:
    """See the module docstring. `cards=False` leaves out each card played
    and whose turn it is (the trump, refusals, tricks and scores remain)."""

    def __init__(self, model: TableModel, *, language: str | None = None,
                 cards: bool = True) -> None:
        self.m = model
        self.language = language
        self.cards = cards
        self._said: dict[str, Any] = {}

    # ----- helpers ----------------------------------------------------------------------

    @property
    def lang(self) -> str:
        return self.language or self.m.lang

    def family(self) -> str:
        match = self.m.session.match
        if match is not None:
            return str(match.game.pack.family)
        return str(self.m.session.selection.make_game().pack.family)

    def seat(self, s: int | None) -> str:
        return self.m.seat_name(s)

    def text(self, reason: str, **params: Any) -> str:
        """A code of the game's, the table's or the voice's catalogue, spoken;
        seats given as numbers are said as the table names them."""
        values = dict(params)
        for key in ("seat", "turn", "owner"):
            if isinstance(values.get(key), int):
                values[key] = self.seat(values[key])
        values.setdefault("family", self.family())
        return say(self.m.catalogue() | VOICE, reason, self.lang, **values)

    def _u(self, text: str, kind: str, urgent: bool = False) -> Utterance:
        return Utterance(text, self.lang, urgent, kind)

    # ----- what happened ----------------------------------------------------------------

    def notice(self, n: Notice) -> list[Utterance]:
        d = n.data
        if n.kind == "refused":
            reason = str(d.get("reason", ""))
            params = dict(d.get("params") or {})
            if not reason:
                return []
            return [self._u(self.text(reason, **params), "refused", urgent=True)]
        if n.kind == "revoke":
            return [self._u(self.text("table_revoke", seat=d.get("seat"), trick=d.get("trick"),
                                      suit=d.get("suit")), "revoke", urgent=True)]
        if n.kind == "accepted" and self.cards and n.text == "played" and d.get("card"):
            return [self._u(self.text("voice_played", seat=d.get("seat"), card=d["card"]),
                            "played")]
        if n.kind == "trick":
            points = d.get("points", 0)
            code = "voice_trick_one" if points == 1 else "voice_trick"
            return [self._u(self.text(code, seat=d.get("winner"), points=points), "trick")]
        if n.kind == "undone" and d.get("seat") is not None:
            if n.text:
                return [self._u(self.text("voice_undone", seat=d.get("seat"), card=n.text),
                                "undone", urgent=True)]
        if n.kind == "reader" and n.text == "offline" and isinstance(d.get("place"), int) \
                and d["place"] >= 0:
            return [self._u(self.text("table_reader_offline", seat=d["place"]), "reader",
                            urgent=True)]
        if n.kind == "match" and n.text == "start":
            game = self.m.session.match.game.title if self.m.session.match else ""
            return [self._u(self.text("voice_match_start", game=game, seat=d.get("dealer")),
                            "match", urgent=True)]
        return []

    # ----- where the table is now ----------------------------------------------------------

    def settle(self) -> list[Utterance]:
        """What became true with the last event: said once each."""
        out: list[Utterance] = []
        state = str(self.m.state)
        hand = self.m.hand_or_none()
        key_hand = self._key_hand()
        trump = hand.flow.trump if hand is not None and hand.flow is not None else None
        if trump is not None and self._changed("trump", (key_hand, trump)):
            out.append(self._u(self.text("voice_trump", suit=trump), "trump", urgent=True))
        if state == "match_result":
            if self._changed("result", key_hand):
                out.extend(self.result())
            return out
        if state == "match_over":
            if self._changed("over", key_hand[0]):
                out.append(self._u(self.match_over(), "over"))
            return out
        if state in _READY_STATES:
            if self._changed("ready", (state, key_hand)):
                out.append(self._u(self.text("table_no_match"), "ready"))
            return out
        step = hand.step() if hand is not None and state.startswith("match_hand") else None
        if step is not None and step.prompt and (self.cards or step.kind != "play"):
            seen = len(hand.actions) if hand is not None else 0
            if self._changed("prompt", (key_hand, step.prompt, step.seat, seen)):
                out.append(self._u(self.text(step.prompt, seat=step.seat), "prompt"))
                if step.choices and step.kind == "choose":
                    out.append(self._u(self.choice_hint(), "prompt"))
        elif state == "match_deal_scan" and self._changed("scan", key_hand):
            from table.screens.i18n import translator

            line = translator(self.lang)("Each player taps their cards on their own reader")
            out.append(self._u(clean(line, self.lang), "prompt"))
        return out

    def _key_hand(self) -> tuple[int | None, int | None]:
        match = self.m.session.match
        hand = self.m.hand_or_none()
        return (match.id if match is not None else None,
                hand.number if hand is not None else None)

    def _changed(self, what: str, value: Any) -> bool:
        if self._said.get(what) == value:
            return False
        self._said[what] = value
        return True

    def choice_hint(self) -> str:
        from table.controller.present import Presenter

        hand = self.m.session.hand()
        step = hand.step()
        assert step is not None
        choice = step.choices[self.m.choice_cursor() % len(step.choices)]
        label = Presenter(self.m).choice_label(hand, step.prompt, choice)
        return self.text("voice_choice", choice=clean(label, self.lang))

    def result(self) -> list[Utterance]:
        """A hand's points per team, the match's standing, what to press."""
        from table.controller.present import Presenter

        p = Presenter(self.m)
        hand = self.m.session.hand()
        flow = hand.flow
        assert flow is not None
        game = hand.game
        points = flow.result().points
        names = p.team_names(game)
        if len(names) != len(points):
            names = [str(i + 1) for i in range(len(points))]
        parts = [self.text("voice_team_points", team=seat_list(nm.split("+"), self.lang),
                           points=pt) for nm, pt in zip(names, points, strict=False)]
        said = ", ".join(parts)
        text = self.text("voice_hand_over", number=hand.number,
                         points=said[:1].upper() + said[1:])
        settled = flow.settled()
        status = self.standing(names, settled.standing())
        out = [self._u(text, "hand")]
        if status:
            out.append(self._u(status, "score"))
        if settled.to_json().get("over"):
            out.append(self._u(self.text("voice_match_over", winner=self.winner(
                settled.to_json())), "over"))
            out.append(self._u(self.text("voice_press_ok_end"), "prompt"))
            self._said["over"] = self._key_hand()[0]
        else:
            out.append(self._u(self.text("voice_press_ok"), "prompt"))
        return out

    def standing(self, names: list[str], standing: Standing) -> str:
        """The match's standing said: masters and slaves (or even), the score."""
        parts = []
        teams = [seat_list(nm.split("+"), self.lang) for nm in names]
        if standing.has_status and standing.masters is None:
            parts.append(self.text("voice_even"))
        elif standing.has_status and standing.masters is not None and len(teams) == 2:
            t = standing.masters
            parts.append(self.text("voice_masters", masters=teams[t], slaves=teams[1 - t]))
        if standing.score:
            to = {"en": " to ", "ro": " la ", "hu": " "}.get(self.lang, " ")
            parts.append(self.text("voice_score", score=to.join(str(x) for x in standing.score)))
        return " ".join(parts)

    def winner(self, state_json: dict[str, Any]) -> str:
        from table.controller.present import Presenter

        match = self.m.session.match
        assert match is not None
        names = Presenter(self.m).team_names(match.game)
        w = state_json.get("winner")
        if isinstance(w, int) and 0 <= w < len(names):
            return self.text("voice_team_wins", team=seat_list(names[w].split("+"), self.lang))
        return self.text("voice_draw")

    def match_over(self) -> str:
        match = self.m.session.match
        assert match is not None
        return self.text("voice_match_over", winner=self.winner(match.state.to_json()))


class VoiceHook:
    """An announcer hooked to a controller, speaking through `speaker`."""

    def __init__(self, controller: Controller, speaker: Speaker, announcer: Announcer) -> None:
        self.controller = controller
        self.speaker = speaker
        self.announcer = announcer

    def _say(self, utterances: list[Utterance]) -> None:
        for u in utterances:
            self.speaker.say(u)

    def on_notice(self, n: Notice) -> None:
        self._guard(lambda: self.announcer.notice(n))

    def on_event(self, _seq: int = 0) -> None:
        self._guard(self.announcer.settle)

    def _guard(self, make: Callable[[], list[Utterance]]) -> None:
        # the voice never stops the table: a sentence that cannot be made is logged
        try:
            utterances = make()
        except (EngineError, ValueError, KeyError, AssertionError) as exc:
            log.warning("voice: nothing said (%s: %s)", type(exc).__name__, exc)
            return
        self._say(utterances)


def attach(controller: Controller, speaker: Speaker, *, language: str | None = None,
           cards: bool = True) -> VoiceHook:
    """Speak what happens at `controller`'s table through `speaker`: each
    notice as it comes, and the new state after each event that reached the
    journal (and after a refusal, which does not)."""
    hook = VoiceHook(controller, speaker, Announcer(controller.model, language=language,
                                                    cards=cards))
    controller.on_notice(hook.on_notice)
    controller.journal_listeners.append(hook.on_event)
    hook.on_event()
    return hook
