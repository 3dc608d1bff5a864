"""The presenter: from the model (machine state, session, overlay) to the
view model the screens draw, in the players' language.

Only generic facts of the engine are used (`Game.title`, `team_of`,
`HandFlow.pending()`, the `Deal`'s trick and points, the match state's JSON
`status` / `score` / `winner` fields), so every game gets the same screens.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Literal

from engine import messages
from engine.cards import Card
from engine.errors import EngineError
from engine.flow import Step
from engine.game import Game
from engine.match import Standing
from engine.packs import PACKS
from table.controller.hint import Hints
from table.controller.session import Action, Hand, Read
from table.screens.i18n import Translate, parse_po, po_path, translator
from table.screens.starting import starting_view
from table.screens.view import (
    CardFace,
    ChoiceView,
    EnrollView,
    ErrorView,
    Header,
    MenuView,
    PlayView,
    ProgressView,
    SeatCell,
    Sign,
    TeamLine,
    TextView,
    View,
)

if TYPE_CHECKING:
    from table.controller.model import TableModel

LANGUAGE_NAMES = {"en": "English", "ro": "Română", "hu": "Magyar"}


def face(c: Card, family: str) -> CardFace:
    return CardFace.of(c.code, family)


#: The printable ASCII characters (space to tilde).
ASCII_PRINTABLE = "".join(map(chr, range(0x20, 0x7F)))


class Presenter:
    """Builds the view for the model's current state (`view()`)."""

    def __init__(self, model: TableModel) -> None:
        self.m = model
        self.hints = Hints()
        # Texts every frame of a hand repeats, made once and kept while what
        # they are made of stays the same (each: what it was made from, the
        # text; a tuple's == tries `is` first, so the check is cheap).
        self._teams: tuple[tuple[Any, ...], list[str]] = ((), [])
        self._status: tuple[tuple[Any, ...], str] = ((), "")
        self._prompt: tuple[tuple[Any, ...], str] = ((), "")

    # ----- helpers ----------------------------------------------------------------------------

    @property
    def _(self) -> Translate:
        return translator(self.m.lang)

    def seat(self, s: int | None) -> str:
        return self.m.seat_name(s)

    def texts(self) -> Iterator[str]:
        """Every text the screens may show in the current language, as text
        or as a template whose `{name}` holes other texts fill: the printable
        ASCII (digits, signs, seat names typed in the configuration), the
        seats' names and labels, every sentence of the game's and the table's
        catalogue, every suit's and card's name and the screens' own texts (for
        `render.prepare_glyphs`, in idle time: read as they are asked for)."""
        lang = self.m.lang
        yield from ASCII_PRINTABLE.partition("{")[::2]    # braces apart: not a hole
        yield "{"
        yield from self.m.settings.seat_names
        yield from (messages.seat_label(s, lang) for s in range(6))
        catalogue = self.m.catalogue()
        yield from (catalogue[code][lang] for code in catalogue)
        for family, signs in messages.SUIT_SIGNS.items():
            yield from (messages.suit_name(suit, family, lang) for suit in [*signs, "trump"])
        for pack in PACKS.values():
            yield from (messages.card_name(c.code, pack.family, lang) for c in pack.cards)
        if lang != "en":
            path = po_path(lang)
            yield from parse_po(path.read_text(encoding="utf-8"), str(path)).values()

    def knowledge_label(self, mode: str) -> str:
        _ = self._
        return {"scan": _("hands scanned"), "dealt": _("read while dealing"),
                "open": _("open play")}.get(mode, mode)

    def pack_label(self, pack_type: str) -> str:
        _ = self._
        pack = PACKS[pack_type]
        if pack.copies > 1:
            return _("French 2×{n}").format(n=pack.size // 2)
        label = _("German {n}") if pack.family == "german" else _("French {n}")
        text = label.format(n=pack.size)
        if pack.variant:
            text += " " + pack.variant
        return str(text)

    def team_names(self, game: Game) -> list[str]:
        """"1+3", "2+4": the seats of each fixed team (every seat alone when
        the game has no fixed teams)."""
        key = (game, self.m.settings.seat_names)
        if key != self._teams[0]:
            self._teams = (key, self._team_names(game))
        return list(self._teams[1])

    def _team_names(self, game: Game) -> list[str]:
        groups: dict[int, list[str]] = {}
        try:
            for s in range(game.players):
                groups.setdefault(game.team_of(s), []).append(self.seat(s))
        except EngineError:
            return [self.seat(s) for s in range(game.players)]
        return ["+".join(groups[t]) for t in sorted(groups)]

    def team_line(self, game: Game, deal: Any, hand: Hand) -> TeamLine:
        """Points so far per team (per seat when teams are not fixed or known)."""
        status = self.status_text(game, hand.state.standing())
        try:
            points = tuple(deal.team_points())
            names = tuple(self.team_names(game))
            if len(names) == len(points):
                return TeamLine(names, points, status)
        except EngineError:
            pass
        return TeamLine(tuple(self.seat(s) for s in range(game.players)), tuple(deal.points),
                        status)

    def status_text(self, game: Game, standing: Standing) -> str:
        """The match status in words: masters / slaves / even, score."""
        key = (game, self.m.settings.seat_names, self.m.lang, standing)
        if key != self._status[0]:
            self._status = (key, self._status_text(game, standing))
        return self._status[1]

    def _status_text(self, game: Game, standing: Standing) -> str:
        _ = self._
        names = self.team_names(game)
        parts: list[str] = []
        if standing.has_status and standing.masters is None:
            parts.append(_("even"))
        elif standing.has_status and standing.masters is not None:
            t = standing.masters
            parts.append(_("{masters} masters, {slaves} slaves").format(
                masters=names[t], slaves=names[1 - t]))
        if standing.score:
            parts.append(_("score") + " " + ":".join(str(x) for x in standing.score))
        return ", ".join(parts)

    def winner_text(self, game: Game, state_json: dict[str, Any]) -> str:
        _ = self._
        w = state_json.get("winner")
        names = self.team_names(game)
        if isinstance(w, int) and 0 <= w < len(names):
            return str(_("{team} win the match").format(team=names[w]))
        return str(_("No winner: a draw"))

    def match_words(self, match: Any) -> str:
        """A match in one line of words, in the table's language, for a log or
        a summary: "Match over: 1+3 win the match. 1+3 masters, 2+4 slaves.
        Hands: 3." (the JSON state numbers seats and teams from 0; this line
        names the teams by their seats, from 1)."""
        _ = self._
        state = match.state.to_json()
        game = match.game
        parts = [self.status_text(game, match.state.standing())]
        if state.get("over"):
            parts.insert(0, self.winner_text(game, state))
        if isinstance(state.get("dealer"), int) and not state.get("over"):
            parts.append(str(_("Next dealer: {seat}").format(seat=self.seat(state["dealer"]))))
        if isinstance(state.get("hands"), int):
            parts.append(str(_("Hands played: {n}").format(n=state["hands"])))
        head = str(_("Match over") if state.get("over") else _("Match"))
        return f"{head}: " + "; ".join(p for p in parts if p) + "."

    def header(self, hand: Hand | None = None, detail: str = "") -> Header:
        if self.m.club_offline:  # the club room cannot be reached: a small mark
            detail = f"\u2298 {detail}".rstrip()
        match = self.m.session.match
        if match is None:
            game = self.m.session.selection.make_game()
            return Header(game.title, None, game.pack.family, detail)
        game = match.game
        trump = None
        if hand is not None and hand.flow is not None:
            trump = hand.flow.trump
        return Header(game.title, trump, game.pack.family, detail)

    def banner(self) -> str:
        off = sorted(self.m.offline)
        if off:
            return str(self._("Reader {seat} offline").format(seat=self.seat(off[0])))
        return ""

    # ----- the view -----------------------------------------------------------------------------

    def view(self) -> View:
        ov = self.m.overlay
        if ov is not None and ov.kind in ("error", "revoke"):
            _ = self._
            if ov.kind == "revoke":
                title = _("Revoke")
            elif ov.title:
                title = _("Seat {seat}").format(seat=ov.title)
            else:
                title = _("Not accepted")
            card = CardFace.of(ov.card, ov.family) if ov.card and len(ov.card) == 2 else None
            return ErrorView(str(title), ov.message, sign_parts(ov.rule, ov.family), card)
        if ov is not None and ov.kind == "notice":
            return TextView(Header(ov.title), (ov.message,))
        state = self.m.state
        build = getattr(self, "v_" + state, None)
        if build is None:
            build = self.v_match_hand_play if state.startswith("match_hand") else self.v_boot
        return build()

    def v_boot(self) -> View:
        return starting_view(self.m.lang)

    def v_ready(self) -> View:
        _ = self._
        sel = self.m.session.selection
        game = sel.make_game()
        lines = [_("Hands: {mode}").format(mode=self.knowledge_label(sel.knowledge))]
        changed = [f"{k.replace('_', ' ')} {_value(v)}" for k, v in sel.options.items()
                   if any(s.name == k and s.default != v for s in game.option_specs)]
        if changed:
            lines.append(", ".join(changed))
        players = self.m.session.players
        if players:
            names = ", ".join(f"{self.seat(seat)} {p.name}" for seat, p in sorted(players.items()))
            lines.append(_("Players: {names}").format(names=names))
        return TextView(Header(game.title, None, game.pack.family, str(_("ready"))),
                        tuple(str(x) for x in lines), str(_("OK start · MENU change")))

    # setup

    def v_setup_game(self) -> View:
        from engine.games import game_class

        d = self.m.draft
        assert d is not None
        items = tuple(game_class(g).title for g in d.games)
        return MenuView(str(self._("Game")), items, d.games.index(d.game)
                        if d.game in d.games else 0, str(self._("MENU next · OK choose")))

    def v_setup_options(self) -> View:
        from table.controller.model import option_values

        d = self.m.draft
        assert d is not None
        spec = d.current_spec()
        if spec is None:
            return self.v_setup_knowledge()
        values = option_values(spec)
        current = d.options.get(spec.name, spec.default)
        cursor = next((i for i, v in enumerate(values)
                       if v == current and type(v) is type(current)), 0)
        return MenuView(spec.name.replace("_", " "), tuple(_value(v) for v in values), cursor,
                        str(self._("MENU next · OK choose")))

    def v_setup_knowledge(self) -> View:
        from table.settings import KNOWLEDGE_MODES

        d = self.m.draft
        assert d is not None
        return MenuView(str(self._("How hands are known")),
                        tuple(self.knowledge_label(k) for k in KNOWLEDGE_MODES),
                        list(KNOWLEDGE_MODES).index(d.knowledge),
                        str(self._("MENU next · OK choose")))

    def v_setup_language(self) -> View:
        from table.settings import LANGUAGES

        d = self.m.draft
        assert d is not None
        return MenuView(str(self._("Language")), tuple(LANGUAGE_NAMES[x] for x in LANGUAGES),
                        list(LANGUAGES).index(d.language), str(self._("MENU next · OK choose")))

    # learning the hands

    def v_match_deal_scan(self) -> View:
        _ = self._
        hand = self.m.session.hand()
        g = hand.game
        seats = tuple((self.seat(s), len(hand.cards_of(s)), g.hand_size)
                      for s in range(g.players))
        return ProgressView(self.header(hand, str(_("Hand {n}").format(n=hand.number))),
                            str(_("Each player taps their cards on their own reader")), seats,
                            None, self.banner())

    def v_match_deal_dealt(self) -> View:
        _ = self._
        hand = self.m.session.hand()
        g = hand.game
        seats = tuple((self.seat(s), len(hand.cards_of(s)), g.hand_size)
                      for s in range(g.players))
        prompt = _("Dealer {seat}: deal every card over the dealer's reader").format(
            seat=self.seat(hand.dealer))
        return ProgressView(self.header(hand, f"{len(hand.reads)}/{len(hand.order)}"),
                            str(prompt), seats, hand.next_dealt_seat(), self.banner())

    # the hand

    def prompt(self, hand: Hand, step: Step | None | Literal["ask"] = "ask") -> str:
        """The pending step's sentence (`step`: that step, when the caller has it)."""
        if isinstance(step, str):
            step = hand.step()
        if step is None or not step.prompt:
            return ""
        family = hand.game.pack.family
        catalogue = self.m.catalogue()
        key = (catalogue, self.m.settings.seat_names, self.m.lang, step.prompt, step.seat,
               family)
        if key != self._prompt[0]:
            self._prompt = (key, self.m.message(step.prompt, seat=step.seat, family=family))
        return self._prompt[1]

    def v_match_hand_show(self) -> View:
        _ = self._
        hand = self.m.session.hand()
        flow = hand.flow
        assert flow is not None
        family = hand.game.pack.family
        cards = tuple(face(c, family) for c in flow.shown)
        lines = [self.prompt(hand)]
        step = hand.step()
        if step is not None and step.choices and step.kind != "choose":
            choice = step.choices[self.m.choice_cursor() % len(step.choices)]
            lines.append(self.choice_help(hand, step.prompt, choice))
        return TextView(self.header(hand, str(_("Hand {n}").format(n=hand.number))),
                        tuple(x for x in lines if x),
                        self.banner() or self.current_choice(hand), cards)

    def v_match_hand_card(self) -> View:
        return self.v_match_hand_show()

    def v_match_hand_choose(self) -> View:
        _ = self._
        hand = self.m.session.hand()
        step = hand.step()
        assert step is not None
        labels = tuple(self.choice_label(hand, step.prompt, c) for c in step.choices)
        who = str(_("Seat {seat}").format(seat=self.seat(step.seat))) \
            if step.seat is not None else ""
        cursor = self.m.choice_cursor()
        help_ = self.choice_help(hand, step.prompt, step.choices[cursor % len(step.choices)]) \
            if step.choices else ""
        return ChoiceView(self.header(hand, who), self.prompt(hand), labels,
                          cursor, str(_("MENU next · OK choose")), help_)

    def choice_help(self, hand: Hand, prompt: str, choice: str) -> str:
        """What `choice` does, in one line (the game's `<prompt>_<word>.help`),
        or "" when the game says nothing more than the choice's label."""
        key = f"{prompt}_{choice.partition(':')[0]}.help"
        if key not in self.m.catalogue():
            return ""
        return self.m.message(key, family=hand.game.pack.family)

    def choice_label(self, hand: Hand, prompt: str, choice: str) -> str:
        """A choice in words: a seat number as the seat's name, a word the
        game registered as a message (`<prompt>_<choice>` or `choice_<choice>`)
        in the players' language, "claim:2" as the word and the seat's name."""
        players = hand.game.players
        if choice.isdigit() and int(choice) < players:
            return str(self._("Seat {seat}").format(seat=self.seat(int(choice))))
        word, sep, target = choice.partition(":")
        label = word
        known = self.m.catalogue()
        for key in (f"{prompt}_{word}", f"choice_{word}", word):
            if key in known:
                label = self.m.message(key, family=hand.game.pack.family)
                break
        if sep and target.isdigit() and int(target) < players:
            return f"{label} {self.seat(int(target))}"
        return label + (sep + target if sep else "")

    def current_choice(self, hand: Hand, step: Step | None | Literal["ask"] = "ask") -> str:
        """"OK: <choice>" for a step that also takes a choice (empty if none);
        `step`: the hand's pending step, when the caller has it already."""
        if isinstance(step, str):
            step = hand.step()
        if step is None or not step.choices or step.kind == "choose":
            return ""
        choice = step.choices[self.m.choice_cursor() % len(step.choices)]
        label = self.choice_label(hand, step.prompt, choice)
        if len(step.choices) > 1:      # MENU shows the other choices
            return str(self._("MENU next · OK: {choice}").format(choice=label))
        return str(self._("OK: {choice}").format(choice=label))

    def v_match_hand_play(self) -> View:
        _ = self._
        hand = self.m.session.hand()
        flow = hand.flow
        if flow is None or flow.deal is None:
            return self.v_match_hand_show()
        deal = flow.deal
        game = hand.game
        family = game.pack.family
        n = game.players
        step = hand.step()
        turn = step.seat if step is not None and step.kind == "play" else None
        trick = deal.current_trick
        leader = deal.leader
        winner = None
        banner = self.banner()
        banner = banner or self.current_choice(hand, step)
        if not trick and deal.tricks:
            last = deal.tricks[-1]
            trick, leader, winner = list(last.cards), last.leader, last.winner
            if not banner:
                banner = str(_("Seat {seat} takes the trick (+{points})").format(
                    seat=self.seat(last.winner), points=last.points))
        cells = []
        for s in range(n):
            i = (s - leader) % n
            c = trick[i] if i < len(trick) else None
            cells.append(SeatCell(self.seat(s), face(c, family) if c else None, s == turn,
                                  s == winner))
        teams = self.team_line(game, deal, hand)
        number = min(deal.trick_number, game.tricks_per_hand)
        return PlayView(self.header(hand, str(_("T{n}").format(n=number))), tuple(cells),
                        teams, self.prompt(hand, step), banner)

    def v_match_result(self) -> View:
        _ = self._
        hand = self.m.session.hand()
        flow = hand.flow
        assert flow is not None
        game = hand.game
        result = flow.result()
        settled = flow.settled()
        after = settled.to_json()
        names = self.team_names(game)
        if len(names) != len(result.points):
            names = [str(_("Team {n}").format(n=i + 1)) for i in range(len(result.points))]
        points = " · ".join(f"{nm}: {p}" for nm, p in zip(names, result.points, strict=False))
        lines = [points, self.status_text(game, settled.standing())]
        if after.get("over"):
            lines.append(self.winner_text(game, after))
        elif isinstance(after.get("dealer"), int):
            lines.append(str(_("Next dealer: {seat}").format(seat=self.seat(after["dealer"]))))
        return TextView(self.header(hand, str(_("Hand {n}").format(n=hand.number))),
                        tuple(lines), str(_("OK next · UNDO take back")))

    # confirmations and information

    def v_match_undo(self) -> View:
        _ = self._
        last = self.m.last_action()
        hand = self.m.session.hand()
        family = hand.game.pack.family
        cards: tuple[CardFace, ...] = ()
        if isinstance(last, Action) and last.card is not None:
            cards = (face(last.card, family),)
            what = _("Seat {seat}: {card}").format(
                seat=self.seat(last.seat),
                card=messages.card_name(last.card.code, family, self.m.lang))
        elif isinstance(last, Action):
            what = _("Seat {seat}: {card}").format(seat=self.seat(last.seat),
                                                  card=last.choice or "")
        elif isinstance(last, Read):
            cards = (face(last.card, family),)
            what = _("Seat {seat}: {card}").format(
                seat=self.seat(last.seat),
                card=messages.card_name(last.card.code, family, self.m.lang))
        else:
            what = ""
        return TextView(Header(str(_("Take back?"))), (str(what),), str(_("OK yes · UNDO no")),
                        cards)

    def v_match_abort(self) -> View:
        _ = self._
        return TextView(Header(str(_("Deal again?"))),
                        (str(_("This hand is thrown away; the same dealer deals again.")),),
                        str(_("OK yes · UNDO no")))

    def v_match_end(self) -> View:
        _ = self._
        match = self.m.session.match
        assert match is not None
        return TextView(Header(str(_("End the match?"))),
                        (self.status_text(match.game, match.state.standing()),),
                        str(_("OK yes · UNDO no")))

    def v_match_info(self) -> View:
        _ = self._
        match = self.m.session.match
        assert match is not None
        hand = match.hand
        lines = [self.status_text(match.game, match.state.standing()),
                 _("Dealer: {seat}").format(seat=self.seat(match.state.dealer)),
                 _("Hands: {mode}").format(mode=self.knowledge_label(match.selection.knowledge))]
        if match.finished:   # the hands so far, newest last: "So far (1+3:2+4): 1:7, 6:2"
            names = self.team_names(match.game)
            teams = ":".join(names) if all(len(p) == len(names) for _n, p in match.finished) \
                else ""
            # the last four fit on the small screen's line
            shown = match.finished[-4:]
            hands = ("…, " if len(match.finished) > len(shown) else "") + ", ".join(
                ":".join(str(x) for x in p) for _n, p in shown)
            lines.insert(1, _("So far ({teams}): {hands}").format(teams=teams, hands=hands)
                         if teams else _("So far: {hands}").format(hands=hands))
        if self.m.settings.practice_hint and hand is not None:
            # right under the status: the small screen shows three lines
            lines.insert(1, self.hint_line(hand, match.seed))
        detail = _("Hand {n}").format(n=hand.number) if hand is not None else ""
        return TextView(self.header(hand, str(detail)), tuple(str(x) for x in lines),
                        str(_("OK back")))

    def hint_line(self, hand: Hand, seed: int) -> str:
        """Practice mode: the card the sampled analysis prefers (table.controller.hint)."""
        _ = self._
        found = self.hints.for_hand(hand, seed)
        if found is None or found.card is None:
            return str(_("No hint here"))
        return str(_("Hint for {seat}: {card}").format(
            seat=self.seat(found.seat),
            card=messages.card_name(found.card.code, hand.game.pack.family, self.m.lang)))

    def v_match_over(self) -> View:
        _ = self._
        match = self.m.session.match
        assert match is not None
        state = match.state.to_json()
        return TextView(Header(str(_("Match over"))),
                        (self.winner_text(match.game, state),
                         self.status_text(match.game, match.state.standing())),
                        str(_("OK new match")))

    # admin

    def admin_label(self, item: Any) -> str:
        _ = self._
        reg = self.m.registry
        if item.kind == "continue":
            rec = reg.pack(item.arg)
            return str(_("Continue {pack} ({n}/{total})").format(
                pack=self.pack_label(rec.type), n=rec.enrolled, total=rec.size))
        if item.kind == "enroll":
            return str(_("Enroll a pack: {pack}").format(pack=self.pack_label(item.arg)))
        if item.kind == "badges":
            return str(_("Enroll members' badges"))
        if item.kind == "reset":
            return str(_("Reset the match"))
        return str(_("Back"))

    def v_admin_menu(self) -> View:
        items = self.m.admin_items()
        return MenuView(str(self._("Admin")), tuple(self.admin_label(i) for i in items),
                        min(self.m.admin_cursor, len(items) - 1),
                        str(self._("MENU next · OK choose")))

    def v_admin_enroll(self) -> View:
        _ = self._
        number = self.m.enroll_pack
        assert number is not None
        rec = self.m.registry.pack(number)
        nxt = self.m.registry.expected(number)
        title = f"{number}: {self.pack_label(rec.type)}"
        if nxt is None:
            return EnrollView(title, None, "", rec.enrolled, rec.size,
                              str(_("Pack complete")), str(_("OK done")))
        _pos, c = nxt
        family = rec.pack.family
        message = (str(_("Enrolled: {card}").format(card=self.m.enroll_message))
                   if self.m.enroll_message else str(_("Tap this card on any reader")))
        return EnrollView(title, face(c, family), messages.card_name(c.code, family, self.m.lang),
                          rec.enrolled, rec.size, message, str(_("UNDO take back · MENU pause")))

    def v_admin_badges(self) -> View:
        _ = self._
        done = self.m.badges_enrolled
        lines = [str(_("Tap a member's badge on any reader"))]
        if self.m.badge_message:
            last = done[-1]
            lines.append(str(_("Enrolled: member {n}").format(n=last.number)))
        else:
            lines.append(str(_("Members: {n}").format(n=len(self.m.registry.badges()))))
        return TextView(Header(str(_("Members' badges"))), tuple(lines),
                        str(_("UNDO take back · OK done")))

    def v_admin_reset(self) -> View:
        _ = self._
        return TextView(Header(str(_("Reset the match?"))),
                        (str(_("The match is closed; the journal keeps it.")),),
                        str(_("OK yes · UNDO no")))


def sign_parts(text: str, family: str) -> tuple[str | Sign, ...]:
    """A line of text with the suits' signs (`engine.messages.suit_sign`) as
    `Sign`s, which the screens draw as the suits' icons."""
    signs = {ch: suit for suit, ch in messages.SUIT_SIGNS.get(family, {}).items()}
    parts: list[str | Sign] = []
    run = ""
    for ch in text:
        if ch in signs:
            if run:
                parts.append(run)
            parts.append(Sign(signs[ch], family))
            run = ""
        else:
            run += ch
    if run:
        parts.append(run)
    return tuple(parts)


def legal_cards(hand: Hand, seat: int, held: Iterable[Card] | None = None) -> frozenset[Card]:
    """The cards `seat` may play now, for highlighting a player's hand (the
    simulator): of `held` (the cards in the player's hand, when the table
    does not know the hands), or of the seat's hand as the table knows it.
    Empty when it is not `seat`'s turn to play a card to the trick."""
    flow = hand.flow
    step = hand.step()
    if flow is None or flow.deal is None or step is None or step.kind != "play" \
            or step.seat != seat:
        return frozenset()
    deal = flow.deal
    if held is None:
        if not deal.hands_known:
            return frozenset()
        return frozenset(deal.legal_cards(seat))
    cards = list(held)
    if deal.hands_known:
        return frozenset(c for c in cards if deal.is_legal(seat, c))
    return frozenset(hand.game.legal_subset(deal.trump, deal.current_trick, cards,
                                            **deal.context()))


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "on" if v else "off"
    return str(v)

