"""The model the state machine drives: its guards and actions.

`TableModel` holds what the table shows besides the durable session (the
error or notice on the screen, the menus' cursors, the enrollment in
progress, readers offline) and turns machine triggers into `Session`
operations. It never draws, lights or beeps by itself: it leaves what should
be shown in its fields (`overlay`, `buzzes`, ...) and the controller's loop
shows it after the journal entry is written. The machine
(`table.controller.machine.build`) adds the triggers (`read`, `ok`, `step`,
...) and `state` to it.
"""

from __future__ import annotations

import logging
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine import messages
from engine.cards import Card
from engine.errors import EngineError, IllegalPlay, UnknownCard
from engine.flow import Step
from engine.games import game_class, game_ids
from engine.options import OptionSpec
from engine.packs import PACKS
from engine.registry import catalogue
from table.controller.hygiene import Debouncer, is_crosstalk, takes_at_once
from table.controller.messages import TABLE
from table.controller.session import Action, Hand, Player, Read, Selection, Session
from table.ports import DEALER, BuzzPattern, Clock, LedPattern
from table.registry import (
    AlreadyEnrolled,
    Badge,
    BadgeInUse,
    CardRegistry,
    Enrolled,
    RegistryDamaged,
    RegistryError,
)
from table.settings import KNOWLEDGE_MODES, LANGUAGES, TableSettings

log = logging.getLogger("cardtable.controller")


@dataclass(frozen=True)
class Overlay:
    """Something shown over the current screen for a while.

    `kind`: `error` (a refusal: inverse video, the seat's LED blinks),
    `revoke` (a proven revoke), `notice` (a passing message). `until` is a
    clock time (None: until the next accepted action or button press)."""

    kind: str
    title: str
    message: str
    seat: int | None = None
    until: float | None = None
    reason: str = ""
    #: The rule in one short line (`Catalogue.rule`), with suit signs.
    rule: str = ""
    #: The card refused (a code), and its pack's family.
    card: str | None = None
    family: str = "german"


@dataclass(frozen=True)
class Notice:
    """What happened, for observers (log, simulator): `kind` is `accepted`,
    `refused`, `ignored`, `undone`, `withdrawn` (a card read at once was
    swept past, see `hygiene`), `trick`, `hand`, `match`, `revoke`,
    `enrolled`, `setup`; `text` is in the table's language."""

    kind: str
    text: str = ""
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class SetupDraft:
    """The game, options, knowledge and language being chosen with MENU/OK."""

    games: list[str]
    game: str
    options: dict[str, Any]
    knowledge: str
    language: str
    option_index: int = 0

    def specs(self) -> tuple[OptionSpec, ...]:
        return game_class(self.game).option_specs

    def current_spec(self) -> OptionSpec | None:
        specs = self.specs()
        return specs[self.option_index] if self.option_index < len(specs) else None


def option_values(spec: OptionSpec) -> list[Any]:
    """The values MENU cycles through for an option."""
    if spec.choices:
        return list(spec.choices)
    lo = spec.minimum if spec.minimum is not None else 0
    hi = spec.maximum if spec.maximum is not None else lo + 100
    values = {spec.default, *range(lo, min(hi, lo + 12) + 1)}
    values |= {v for v in (16, 20, 24, 32, 50, 100) if lo <= v <= hi}
    return sorted(values)


def _next(values: list[Any], current: Any) -> Any:
    for i, v in enumerate(values):
        if v == current and type(v) is type(current):
            return values[(i + 1) % len(values)]
    return values[0]


@dataclass(frozen=True)
class AdminItem:
    kind: str          # "continue", "enroll", "reset", "back"
    arg: Any = None


class TableModel:
    """See the module docstring. Guards are `is_*`, `has_*`, `needs_*`,
    `can_*`; actions are verbs."""

    state: str  # set by the machine

    def __init__(self, settings: TableSettings, session: Session, registry: CardRegistry,
                 clock: Clock, debouncer: Debouncer,
                 seed_source: Callable[[], int] | None = None) -> None:
        self.settings = settings
        self.session = session
        self.registry = registry
        self.clock = clock
        self.debouncer = debouncer
        self.seed_source = seed_source or (lambda: random.SystemRandom().randrange(2**62))
        self.overlay: Overlay | None = None
        self.buzzes: list[BuzzPattern] = []
        self.notices: deque[Notice] = deque(maxlen=200)
        self.listeners: list[Callable[[Notice], None]] = []
        self.draft: SetupDraft | None = None
        self.admin_cursor = 0
        self._catalogue: tuple[str, messages.Catalogue] | None = None
        self.enroll_pack: int | None = None
        self.enroll_message = ""
        self.last_enrolled: Enrolled | None = None
        #: The badges enrolled since the admin opened "Enroll badges" (UNDO takes them back).
        self.badges_enrolled: list[Badge] = []
        self.badge_message = ""
        self.offline: set[int] = set()
        #: The club broker cannot be reached (table.club.publisher): a mark on the screen.
        self.club_offline = False
        self._choice: tuple[tuple[int, int, int], int] = ((0, 0, 0), 0)

    # ----- small helpers -----------------------------------------------------------------

    @property
    def lang(self) -> str:
        if self.draft is not None and self.state == "setup_language":
            return self.draft.language
        return self.session.selection.language

    def seat_name(self, seat: int | None) -> str:
        if seat is None:
            return "?"
        if seat == DEALER:
            return "D"
        names = self.settings.seat_names
        return names[seat] if 0 <= seat < len(names) else str(seat + 1)

    def hand_or_none(self) -> Hand | None:
        m = self.session.match
        return m.hand if m is not None else None

    def step_now(self) -> Step | None:
        hand = self.hand_or_none()
        return hand.step() if hand is not None else None

    def notify(self, kind: str, text: str = "", **data: Any) -> None:
        n = Notice(kind, text, data)
        self.notices.append(n)
        for listener in list(self.listeners):
            listener(n)

    def _seat_names(self, params: dict[str, Any]) -> dict[str, Any]:
        values = dict(params)
        for key in messages.SEAT_PARAMS:
            if isinstance(values.get(key), int) and not isinstance(values[key], bool):
                values[key] = self.seat_name(values[key])
        if isinstance(values.get("seats"), (list, tuple)):
            values["seats"] = ", ".join(self.seat_name(s) for s in values["seats"])
        if "seat" in values:
            values["seat_label"] = values["seat"]
        return values

    def message(self, reason: str, **params: Any) -> str:
        """A message in the table's language, with seats written as the table names them."""
        return self.catalogue().render(reason, self.lang, **self._seat_names(params))

    def rule(self, reason: str, **params: Any) -> str:
        """The rule of a refusal in one short line (`Catalogue.rule`), in the
        table's language, with seats written as the table names them; empty
        (the screen shows the whole sentence) if its parameters are missing."""
        try:
            return self.catalogue().rule(reason, self.lang, **self._seat_names(params))
        except ValueError as err:     # a refusal raised without a rule's parameter: a bug
            log.warning("no short rule for %s: %s", reason, err)
            return ""

    def catalogue(self) -> messages.Catalogue:
        """The sentences the table shows: the chosen game's and the table's own."""
        game = self.session.selection.game
        if self._catalogue is None or self._catalogue[0] != game:
            self._catalogue = (game, catalogue(game) | TABLE)
        return self._catalogue[1]

    def refuse(self, who: int | None, reason: str, **params: Any) -> None:
        """Show a refusal: the error screen names the seat (`who`) and the
        rule, the seat's LED blinks, the buzzer sounds. Nothing else changes."""
        seat = who
        if seat is not None and "seat" not in params:
            params["seat"] = seat
        hand = self.hand_or_none()
        family = str(params.get("family") or (
            hand.game.pack.family if hand is not None else "german"))
        if hand is not None and hand.flow is not None and "trump" not in params:
            params["trump"] = hand.flow.trump      # a rule names the trump's suit
        text = self.message(reason, **params)
        rule = self.rule(reason, **params)
        title = self.seat_name(seat) if seat is not None else ""
        until = self.clock.now() + self.settings.error_s
        card = params.get("card")
        self.overlay = Overlay("error", title, text, seat, until, reason, rule,
                               str(card) if card is not None else None, family)
        self.buzzes.append("error")
        # `params`: for another medium (a voice) to say the same refusal its own way
        self.notify("refused", text, seat=seat, reason=reason, rule=rule,
                    card=str(card) if card is not None else None, params=dict(params))

    def refuse_error(self, seat: int | None, err: EngineError) -> None:
        params = dict(err.params)
        self.refuse(seat if seat is not None else params.get("seat"), err.reason, **params)

    def ignore(self, why: str, **data: Any) -> None:
        self.notify("ignored", why, **data)

    def clear_error(self) -> None:
        if self.overlay is not None and self.overlay.kind in ("error", "notice"):
            self.overlay = None

    def expire(self, now: float) -> bool:
        """Drop an overlay whose time is up; True if one was dropped."""
        if self.overlay is not None and self.overlay.until is not None \
                and now >= self.overlay.until:
            self.overlay = None
            return True
        return False

    def card_of(self, enrolled: Enrolled, seat: int | None) -> Card | None:
        """The enrolled card if it belongs to this game's pack; else a refusal."""
        match = self.session.match
        assert match is not None
        pack = match.game.pack
        if enrolled.family != pack.family or enrolled.card not in pack:
            self.refuse(seat, "table_not_in_pack", code=enrolled.card.code, pack=enrolled.pack)
            return None
        return enrolled.card

    def lookup(self, uid: str, seat: int | None) -> Enrolled | None:
        enrolled = self.registry.lookup(uid)
        if enrolled is None:
            self.refuse(seat, "table_unknown_uid", uid=uid)
        return enrolled

    # ----- guards: where `step` leads --------------------------------------------------------

    def has_no_match(self) -> bool:
        return self.session.match is None

    def is_match_finished(self) -> bool:
        return self.session.match is not None and self.session.match.over

    def needs_scan(self) -> bool:
        hand = self.hand_or_none()
        return hand is not None and hand.phase == "scan"

    def needs_dealt(self) -> bool:
        hand = self.hand_or_none()
        return hand is not None and hand.phase == "dealt"

    def _step_is(self, kind: str) -> bool:
        step = self.step_now()
        return step is not None and step.kind == kind

    def is_step_show(self) -> bool:
        return self._step_is("show")

    def is_step_choose(self) -> bool:
        return self._step_is("choose")

    def is_step_card(self) -> bool:
        return self._step_is("card")

    def is_step_play(self) -> bool:
        return self._step_is("play")

    def is_hand_done(self) -> bool:
        return self._step_is("done")

    def can_undo(self) -> bool:
        hand = self.hand_or_none()
        return hand is not None and hand.can_undo()

    def is_admin_tag(self, place: int, uid: str) -> bool:
        return uid in self.settings.admin_uids

    # ----- no match: identify a card, start a match ---------------------------------------

    def identify_card(self, place: int, uid: str) -> None:
        enrolled = self.registry.lookup(uid)
        if enrolled is None:
            self.refuse(None, "table_unknown_uid", uid=uid)
            return
        name = messages.card_name(enrolled.card.code, enrolled.family, self.lang)
        pack = self.registry.pack(enrolled.pack).name
        self.overlay = Overlay("notice", pack, name, None,
                               self.clock.now() + self.settings.notice_s * 2)
        self.notify("info", name, uid=uid, card=enrolled.card.code, pack=enrolled.pack)

    # ----- members' badges: sitting down between matches --------------------------------

    def is_badge(self, place: int, uid: str) -> bool:
        return self.registry.badge(uid) is not None

    def seat_member(self, place: int, uid: str) -> None:
        """A member's badge on a seat's reader: the member sits there (and
        leaves any other seat); the same badge again: the seat is free."""
        badge = self.registry.badge(uid)
        assert badge is not None
        if place == DEALER or place < 0:
            self.refuse(None, "table_badge_at_dealer", name=badge.name)
            return
        if self.debouncer.earlier_elsewhere(place, uid):
            self.ignore("crosstalk", place=place, uid=uid)
            return
        sitting = self.session.players.get(place)
        player = Player(badge.member, badge.name)
        leaving = sitting is not None and sitting.member == player.member
        self.session.sit(place, None if leaving else player)
        reason = "table_member_left" if leaving else "table_member_sits"
        text = self.message(reason, name=badge.name, seat=place)
        self.overlay = Overlay("notice", self.seat_name(place), text, None,
                               self.clock.now() + self.settings.notice_s)
        self.buzzes.append("ok")
        self.notify("seat", text, seat=place, member=None if leaving else player.member,
                    name=badge.name)

    def refuse_badge(self, place: int, uid: str) -> None:
        badge = self.registry.badge(uid)
        name = badge.name if badge is not None else "?"
        self.refuse(None, "table_badge_between_matches", name=name)

    def start_match(self) -> None:
        self.overlay = None
        match = self.session.start_match(self.seed_source())
        self.notify("match", "start", match=match.id, dealer=match.state.dealer)
        self.step()  # type: ignore[attr-defined]  # a trigger the machine adds

    # ----- setup (MENU) -------------------------------------------------------------------

    def begin_setup(self) -> None:
        sel = self.session.selection
        self.overlay = None
        self.draft = SetupDraft(game_ids(), sel.game, dict(sel.options), sel.knowledge,
                                sel.language)

    def next_value(self) -> None:
        d = self.draft
        assert d is not None
        if self.state == "setup_game":
            d.game = _next(d.games, d.game)
        elif self.state == "setup_options":
            spec = d.current_spec()
            if spec is not None:
                d.options[spec.name] = _next(option_values(spec),
                                             d.options.get(spec.name, spec.default))
        elif self.state == "setup_knowledge":
            d.knowledge = _next(list(KNOWLEDGE_MODES), d.knowledge)
        elif self.state == "setup_language":
            d.language = _next(list(LANGUAGES), d.language)

    def has_options(self) -> bool:
        return self.draft is not None and bool(self.draft.specs())

    def pick_game(self) -> None:
        d = self.draft
        assert d is not None
        if d.game != self.session.selection.game:
            d.options = {s.name: s.default for s in d.specs()}
        d.option_index = 0

    def has_more_options(self) -> bool:
        d = self.draft
        return d is not None and d.option_index + 1 < len(d.specs())

    def next_option(self) -> None:
        assert self.draft is not None
        self.draft.option_index += 1

    def commit_setup(self) -> None:
        d = self.draft
        assert d is not None
        self.session.select(Selection(d.game, d.options, d.knowledge, d.language))
        self.draft = None
        self.notify("setup", d.game, **self.session.selection.to_json())

    def cancel_setup(self) -> None:
        self.draft = None

    # ----- learning the hands ----------------------------------------------------------

    def take_scan(self, place: int, uid: str) -> None:
        hand = self.session.hand()
        if place == DEALER or not 0 <= place < hand.game.players:
            self.ignore("not a seat in play", place=place, uid=uid)
            return
        if uid in hand.read_uids():
            self.ignore("already read", place=place, uid=uid)
            return
        if self.debouncer.earlier_elsewhere(place, uid):
            self.ignore("crosstalk", place=place, uid=uid)
            return
        enrolled = self.lookup(uid, place)
        if enrolled is None:
            return
        c = self.card_of(enrolled, place)
        if c is None:
            return
        try:
            read = self.session.scan(place, uid, c)
        except (IllegalPlay, UnknownCard) as err:
            self.refuse_error(place, err)
            return
        self._accepted_read(read)

    def dealer_place(self) -> int:
        hand = self.session.hand()
        return DEALER if self.settings.has_dealer_reader else hand.dealer

    def take_dealt(self, place: int, uid: str) -> None:
        hand = self.session.hand()
        if place != self.dealer_place():
            self.ignore("not the dealer's reader", place=place, uid=uid)
            return
        if uid in hand.read_uids():
            self.ignore("already read", place=place, uid=uid)
            return
        enrolled = self.lookup(uid, hand.dealer)
        if enrolled is None:
            return
        c = self.card_of(enrolled, hand.dealer)
        if c is None:
            return
        try:
            read = self.session.deal_card(uid, c)
        except (IllegalPlay, UnknownCard) as err:
            self.refuse_error(hand.dealer, err)
            return
        self._accepted_read(read)

    def _accepted_read(self, read: Read) -> None:
        self.clear_error()
        self.notify("accepted", read.card.code, seat=read.seat, uid=read.uid,
                    card=read.card.code)
        self.step()  # type: ignore[attr-defined]  # a trigger the machine adds

    # ----- the hand's steps ---------------------------------------------------------------

    def owner_of(self, hand: Hand, c: Card) -> int | None:
        """The seat known to hold `c` (hands read while scanning or dealing)."""
        code = c.code      # cards are equal when their codes are (engine.cards.Card)
        holders = [r.seat for r in hand.reads if r.card.code == code]
        return holders[0] if len(holders) == 1 else None

    @staticmethod
    def expected_places(hand: Hand, step: Step) -> set[int]:
        """The readers a step waits for: the step's seat (a step without a
        seat: any seat's), and for a shown or tapped card the dealer's too."""
        players = hand.game.players
        expected = {step.seat} if step.seat is not None else set(range(players))
        if step.kind in ("show", "card"):
            expected.add(DEALER)
        return expected

    def is_read_at_once(self, place: int, uid: str) -> bool:
        """May the card that just arrived at `place` be read at once, before
        its debounce time (`hygiene.takes_at_once`)? Only while a hand is
        being learnt or played; admin tags and the menus wait."""
        hand = self.hand_or_none()
        if hand is None or uid in self.settings.admin_uids or place in self.offline:
            return False
        state = self.state
        owner = None
        enrolled = self.registry.lookup(uid)
        if state == "match_deal_scan":
            expected = set(range(hand.game.players))
        elif state == "match_deal_dealt":
            expected = {self.dealer_place()}
        elif state.startswith("match_hand"):
            step = hand.step()
            if step is None:
                return False
            expected = self.expected_places(hand, step)
            if enrolled is not None and hand.reads:
                owner = self.owner_of(hand, enrolled.card)
        else:
            return False
        return takes_at_once(place, enrolled is not None, expected,
                             self.debouncer.present_at(uid), owner)

    def withdraw(self, taken: Action | Read) -> bool:
        """A card read at once left its reader before its debounce time: it
        was swept past, not put down. Take its play (or read) back while it is
        still the hand's last one; True if it was taken back."""
        if taken is not self.last_action():
            return False
        self.session.undo()
        self.overlay = None
        card = taken.card
        self.notify("withdrawn", card.code if card else "", seat=taken.seat, uid=taken.uid)
        self.step()  # type: ignore[attr-defined]  # a trigger the machine adds
        return True

    def take_card(self, place: int, uid: str) -> None:
        hand = self.session.hand()
        step = hand.step()
        assert step is not None
        players = hand.game.players
        known = self.registry.lookup(uid)
        if known is not None and hand.on_the_table(uid, known.card):
            self.ignore("already on the table", place=place, uid=uid)
            return
        if step.kind in ("show", "card") and uid in hand.used_uids():
            self.ignore("already shown", place=place, uid=uid)
            return
        if place == DEALER:
            if step.kind not in ("show", "card"):
                self.ignore("the dealer's reader only takes shown cards", place=place, uid=uid)
                return
            seat = step.seat if step.seat is not None else hand.dealer
        elif 0 <= place < players:
            seat = place
        else:
            self.ignore("not a seat in play", place=place, uid=uid)
            return
        expected = self.expected_places(hand, step)
        enrolled = self.registry.lookup(uid)
        owner = None
        if enrolled is not None and hand.reads:
            owner = self.owner_of(hand, enrolled.card)
        if is_crosstalk(place, uid, expected, self.debouncer.present_at(uid), owner):
            self.ignore("crosstalk", place=place, uid=uid)
            return
        if enrolled is None:
            self.refuse(seat, "table_unknown_uid", uid=uid)
            return
        c = self.card_of(enrolled, seat)
        if c is None:
            return
        try:
            action = self.session.card(seat, c, uid, place)
        except (IllegalPlay, UnknownCard) as err:
            self.refuse_error(seat, err)
            return
        self._accepted(action)

    def _accepted(self, action: Action) -> None:
        self.clear_error()
        ev = action.event
        self.notify("accepted", ev.kind, seat=action.seat, card=action.card.code
                    if action.card else None, choice=action.choice, uid=action.uid)
        outcome = ev.outcome
        if outcome is not None and outcome.revoke is not None:
            r = outcome.revoke
            game = self.session.hand().game
            params: dict[str, Any] = {"seat": r.seat, "trick": r.trick, "suit": r.suit,
                                      "family": game.pack.family}
            text = self.message("table_revoke", **params)
            rule = self.rule("table_revoke", **params)
            self.overlay = Overlay("revoke", self.seat_name(r.seat), text, r.seat,
                                   self.clock.now() + self.settings.error_s, "revoke", rule,
                                   action.card.code if action.card else None,
                                   game.pack.family)
            self.buzzes.append("error")
            self.notify("revoke", text, seat=r.seat, trick=r.trick, suit=r.suit, rule=rule)
        if outcome is not None and outcome.trick is not None:
            t = outcome.trick
            self.notify("trick", f"{t.number}", winner=t.winner, points=t.points,
                        cards=[c.code for c in t.cards])
        self.step()  # type: ignore[attr-defined]  # a trigger the machine adds

    def choice_cursor(self) -> int:
        hand = self.hand_or_none()
        key = (0, 0, 0) if hand is None else (self.session.match.id if self.session.match
                                              else 0, hand.number, len(hand.actions))
        if self._choice[0] != key:
            self._choice = (key, 0)
        return self._choice[1]

    def has_choices(self) -> bool:
        step = self.step_now()
        return step is not None and bool(step.choices)

    def next_choice(self) -> None:
        step = self.step_now()
        if step is None or not step.choices:
            return
        cur = self.choice_cursor()
        self._choice = (self._choice[0], (cur + 1) % len(step.choices))

    def take_choice(self) -> None:
        hand = self.session.hand()
        step = hand.step()
        if step is None or not step.choices or hand.flow is None:
            return
        choice = step.choices[self.choice_cursor()]
        seat = hand.flow.chooser(choice)
        if seat is None:
            seat = step.seat if step.seat is not None else hand.dealer
        try:
            action = self.session.choose(seat, choice)
        except (IllegalPlay, UnknownCard) as err:
            self.refuse_error(seat, err)
            return
        self._accepted(action)

    def dismiss(self) -> None:
        self.overlay = None

    # ----- undo, abort, next hand, end --------------------------------------------------------

    def last_action(self) -> Action | Read | None:
        hand = self.hand_or_none()
        if hand is None:
            return None
        if hand.actions:
            return hand.actions[-1]
        return hand.reads[-1] if hand.reads else None

    def refuse_undo(self) -> None:
        self.refuse(None, "nothing_to_undo")

    def take_undo(self) -> None:
        try:
            taken = self.session.undo()
        except IllegalPlay as err:
            self.refuse_error(None, err)
        else:
            self.overlay = None
            card = getattr(taken, "card", None)
            self.notify("undone", card.code if card else "", seat=taken.seat)
        self.step()  # type: ignore[attr-defined]  # a trigger the machine adds

    def take_abort(self) -> None:
        self.session.abort()
        self.overlay = None
        self.notify("hand", "aborted")
        self.step()  # type: ignore[attr-defined]  # a trigger the machine adds

    def take_next_hand(self) -> None:
        summary = self.session.next_hand()
        self.overlay = None
        self.notify("hand", f"{summary.number}", points=list(summary.result.points),
                    state=summary.after.to_json())
        match = self.session.match
        if match is not None and match.over:
            self.buzzes.append("match_end")
            self.notify("match", "over", state=summary.after.to_json())
        self.step()  # type: ignore[attr-defined]  # a trigger the machine adds

    def take_end(self) -> None:
        self.session.end_match("players")
        self.overlay = None
        self.notify("match", "ended")

    def close_match(self) -> None:
        self.session.end_match("over")
        self.notify("match", "closed")

    def go_back(self) -> None:
        self.step()  # type: ignore[attr-defined]  # a trigger the machine adds

    # ----- admin ----------------------------------------------------------------------------

    def admin_items(self) -> list[AdminItem]:
        items: list[AdminItem] = []
        unfinished = self.registry.unfinished()
        if unfinished is not None:
            items.append(AdminItem("continue", unfinished.number))
        match = self.session.match
        first = match.game.pack.name if match else self.session.selection.make_game().pack.name
        for name in [first, *(p for p in PACKS if p != first)]:
            items.append(AdminItem("enroll", name))
        items.append(AdminItem("badges"))
        if match is not None:
            items.append(AdminItem("reset"))
        items.append(AdminItem("back"))
        return items

    def admin_item(self) -> AdminItem:
        items = self.admin_items()
        return items[min(self.admin_cursor, len(items) - 1)]

    def open_admin(self, place: int, uid: str) -> None:
        self.admin_cursor = 0
        self.overlay = None
        self.draft = None
        self.buzzes.append("ok")

    def leave_admin(self, *args: Any) -> None:
        self.enroll_pack = None
        self.overlay = None
        self.step()  # type: ignore[attr-defined]  # a trigger the machine adds

    def next_item(self) -> None:
        self.admin_cursor = (self.admin_cursor + 1) % len(self.admin_items())

    def is_item_enroll(self) -> bool:
        return self.admin_item().kind in ("continue", "enroll")

    def is_item_badges(self) -> bool:
        return self.admin_item().kind == "badges"

    def begin_badges(self) -> None:
        self.badges_enrolled = []
        self.badge_message = ""

    def take_badge(self, place: int, uid: str) -> None:
        """A tag tapped while enrolling badges: the next member's badge."""
        if self.is_admin_tag(place, uid):     # never a badge (the machine closes the menu)
            self.ignore("the admin tag", place=place, uid=uid)
            return
        if self.badges_enrolled and self.badges_enrolled[-1].uid == uid:
            self.ignore("already read", place=place, uid=uid)
            return
        try:
            badge = self.registry.enroll_badge(uid)
        except AlreadyEnrolled as err:
            ex = err.existing
            self.refuse(None, "table_already_enrolled", card=ex.card.code, pack=ex.pack,
                        family=ex.family)
            return
        except BadgeInUse as err:
            self.refuse(None, "table_badge_enrolled", number=err.badge.number,
                        name=err.badge.name)
            return
        except RegistryError as err:
            self.registry_failed(err)
            return
        self.clear_error()
        self.badges_enrolled.append(badge)
        self.badge_message = badge.name
        self.buzzes.append("ok")
        self.notify("enrolled", badge.name, uid=badge.uid, member=badge.number)

    def unenroll_badge(self) -> None:
        if not self.badges_enrolled:
            self.refuse(None, "nothing_to_undo")
            return
        badge = self.badges_enrolled[-1]
        try:
            self.registry.remove_badge(badge.number)
        except RegistryError as err:
            self.registry_failed(err)
            return
        self.badges_enrolled.pop()
        self.badge_message = ""
        self.notify("undone", badge.name, uid=badge.uid, member=badge.number)

    def is_item_reset(self) -> bool:
        return self.admin_item().kind == "reset"

    def begin_enroll(self) -> None:
        item = self.admin_item()
        if item.kind == "continue":
            self.enroll_pack = int(item.arg)
        else:
            try:
                self.enroll_pack = self.registry.new_pack(str(item.arg)).number
            except RegistryError as err:
                self.registry_failed(err)
                # back to the admin menu (a trigger the machine adds)
                self.menu()  # type: ignore[attr-defined]  # added by the machine
                return
        self.enroll_message = ""
        self.last_enrolled = None

    def registry_failed(self, err: RegistryError) -> None:
        """The registry could not do it (a damaged file, a full disk): say so on
        the screen and, for a storage error, in the log. Nothing was changed."""
        if isinstance(err, RegistryDamaged):
            log.error("card registry: %s", err)
        self.overlay = Overlay("error", "", str(err), None,
                               self.clock.now() + self.settings.error_s, "registry")
        self.buzzes.append("error")

    def take_enroll(self, place: int, uid: str) -> None:
        if self.enroll_pack is None:
            return
        if self.is_admin_tag(place, uid):     # never a card (the machine closes the menu)
            self.ignore("the admin tag", place=place, uid=uid)
            return
        if self.last_enrolled is not None and self.last_enrolled.uid == uid:
            self.ignore("already read", place=place, uid=uid)
            return
        try:
            e = self.registry.enroll(self.enroll_pack, uid)
        except AlreadyEnrolled as err:
            ex = err.existing
            self.refuse(None, "table_already_enrolled", card=ex.card.code, pack=ex.pack,
                        family=ex.family)
            return
        except RegistryError as err:
            self.registry_failed(err)
            return
        self.clear_error()
        self.last_enrolled = e
        self.enroll_message = messages.card_name(e.card.code, e.family, self.lang)
        self.buzzes.append("ok")
        self.notify("enrolled", e.card.code, uid=uid, pack=e.pack, position=e.position)

    def unenroll_last(self) -> None:
        if self.enroll_pack is None:
            return
        try:
            taken = self.registry.unenroll_last(self.enroll_pack)
        except RegistryError as err:
            self.registry_failed(err)
            return
        if taken is None:
            self.refuse(None, "nothing_to_undo")
            return
        self.last_enrolled = None
        self.enroll_message = ""
        self.notify("undone", taken.card.code, uid=taken.uid, pack=taken.pack)

    def is_enroll_complete(self) -> bool:
        return self.enroll_pack is not None and self.registry.pack(self.enroll_pack).complete

    def take_reset(self) -> None:
        if self.session.match is not None:
            self.session.end_match("reset")
            self.notify("match", "reset")
        self.leave_admin()

    # ----- readers --------------------------------------------------------------------------

    def mark_offline(self, place: int, detail: str = "") -> None:
        self.offline.add(place)
        self.debouncer.forget_place(place)
        self.notify("reader", "offline", place=place, detail=detail)

    def mark_back(self, place: int) -> None:
        self.offline.discard(place)
        self.notify("reader", "back", place=place)

    # ----- lights ---------------------------------------------------------------------------

    def led_patterns(self, seats: int) -> dict[int, LedPattern]:
        """What each seat's LED should show now."""
        out: dict[int, LedPattern] = {s: "off" for s in range(seats)}
        hand = self.hand_or_none()
        state = self.state
        if hand is not None and state.startswith("match_"):
            if state == "match_deal_scan":
                for s in range(min(seats, hand.game.players)):
                    if len(hand.cards_of(s)) < hand.game.hand_size:
                        out[s] = "on"
            elif state == "match_deal_dealt":
                nxt = hand.next_dealt_seat()
                if nxt is not None and nxt < seats:
                    out[nxt] = "on"
            elif state.startswith("match_hand"):
                step = hand.step()
                if step is not None and step.seat is not None and 0 <= step.seat < seats:
                    out[step.seat] = "on"
        ov = self.overlay
        if ov is not None and ov.seat is not None and 0 <= ov.seat < seats:
            out[ov.seat] = "fast_blink" if ov.kind == "error" else "blink"
        return out

    def status_pattern(self) -> LedPattern:
        if self.offline:
            return "fast_blink"
        if self.state.startswith("admin"):
            return "blink"
        return "on"
