"""The simulated table: the real controller on the fakes, bots at some seats,
people at the others, and faults on demand.

`SimTable` adds no game logic of its own: it deals real cards with the engine,
makes the moves of the bot seats (each seat its own bot: `bots`), passes a
person's cards and button presses to the fake readers and buttons, and reads
back what the table shows (the OLED frame, the LEDs, the buzzer). The
controller decides everything, exactly as on a Pi.

Time: `advance` makes the next bot move at once (the headless demo and the
tests); `tick(seconds)` lets table time pass (the table's clock, so an error
screen times out as on a Pi) and moves a bot only when its time has come
(`Pace`: about a second a card, a finished trick stays visible). A bot that
thinks long (the sampled bot) can think off the caller's thread (`think`).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.bots import Bot, SimpleBot, bot_action
from engine.cards import TRUMP, Card
from engine.errors import EngineError
from engine.games.base import DealtHands
from hw_mocks.rig import Rig
from hw_mocks.simulator.pace import Pace
from hw_mocks.simulator.players import make_player, slow
from hw_mocks.simulator.suits import card_text
from hw_mocks.simulator.teach import legal_cards, seat_label
from table.ports import DEALER
from table.settings import TableSettings

#: Runs `work` off the caller's thread and hands its result to `done` back on
#: the caller's thread (the window's workers); None thinks on the spot.
Think = Callable[[Callable[[], Any], Callable[[Any], None]], None]


@dataclass
class LogLine:
    """Something the simulator shows in its log: a table notice or a fault."""

    text: str
    kind: str = "info"  # info, error, fault


@dataclass
class Faults:
    """Faults injected so far (for the status line and the tests)."""

    misreads: int = 0
    crosstalk: int = 0
    power_cuts: int = 0
    offline: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class Refusal:
    """The last card or press the table (or the simulator) refused: the
    whole sentence, the seat, and the cards that seat may play now."""

    text: str
    seat: int | None
    legal: tuple[Card, ...] = ()


@dataclass(frozen=True)
class HandRecord:
    """A finished hand of the match, as the table wrote it: each team's (or
    seat's) name and points, and the match after it in words."""

    number: int
    names: tuple[str, ...]
    points: tuple[int, ...]
    after: str


@dataclass
class BotJob:
    """A bot's next move, to be worked out (`decide`), possibly on another
    thread (then everything it reads is a copy). `key` says which moment of
    the hand it was for; a job whose moment has passed (an undo) is dropped."""

    key: tuple[Any, ...]
    flow: Any
    hands: list[list[Card]]
    bot: Bot
    rng: random.Random
    shown: tuple[Card, ...]

    def decide(self) -> tuple[str, int | None, Card | str | None]:
        return bot_action(self.flow, self.hands, self.bot, self.rng, self.shown)


class SimTable:
    """See the module docstring.

    `humans` are the seats people play (empty for a demo); `bot` names the
    bot of every other seat (`hw_mocks.simulator.players.bot_names`), or maps
    seats to bot names (a seat not named gets `simple`). `state_dir` keeps the
    journal (a temporary folder when None), so a power cut resumes from it.
    `pace` is how long bots wait in `tick`.
    """

    def __init__(self, settings: TableSettings, humans: Iterable[int] = (),
                 bot: str | Mapping[int, str] = "simple", seed: int = 1,
                 state_dir: str | Path | None = None, pace: Pace | None = None
                 ) -> None:
        from engine import get_game

        game = get_game(settings.game, settings.options)
        self.players = game.players
        self.settings = settings
        self.humans = set(humans)
        bad = [h for h in self.humans if not 0 <= h < self.players]
        if bad:
            raise ValueError(f"{settings.game} has seats 0..{self.players - 1}, not {bad}")
        names = {s: bot for s in range(self.players)} if isinstance(bot, str) else \
            {s: bot.get(s, "simple") for s in range(self.players)}
        #: the bot at each seat that is not a person's, by name
        self.bots = {s: name for s, name in names.items() if s not in self.humans}
        self._players = {s: make_player(name) for s, name in self.bots.items()}
        self.pace = pace or Pace.fast()
        #: runs a slow bot's thinking off the caller's thread (set by the window)
        self.think: Think | None = None
        self.thinking = False
        self._wait = 0.0
        self._tricks_seen = 0
        #: the last refusal, until the next card is taken
        self.refusal: Refusal | None = None
        #: the hands of this match so far
        self.hands_played: list[HandRecord] = []
        self._teams_now: tuple[str, ...] = ()
        self.seed = seed
        self.rng = random.Random(seed)
        self.rig = Rig(settings, state_dir, seats=self.players, seed=seed)
        self.log: list[LogLine] = []
        self.faults = Faults()
        #: the cards dealt for the hand in play, as the engine dealt them
        self.dealt: DealtHands | None = None
        #: the cards each seat really holds now, each with its sticker's UID
        self.held: list[list[tuple[Card, str]]] = []
        self._stock: list[tuple[Card, str]] = []
        self._bottom: tuple[Card, str] | None = None
        self._seen_actions = 0
        self._hand_key: tuple[int, int] | None = None
        self.rig.ctl.on_notice(self._on_notice)
        self.listeners: list[Callable[[], None]] = []

    # ----- what the table shows ---------------------------------------------------------

    @property
    def state(self) -> str:
        return self.rig.state

    @property
    def frame(self) -> Any:
        return self.rig.display.image

    def seat_led(self, seat: int) -> str:
        return str(self.rig.mock.indicators.seat_patterns[seat])

    @property
    def status_led(self) -> str:
        return str(self.rig.mock.indicators.status_pattern)

    @property
    def buzzer(self) -> str:
        """The last buzzer pattern sounded ("" when none)."""
        buzzes = self.rig.mock.indicators.buzzes
        return str(buzzes[-1]) if buzzes else ""

    @property
    def buzz_count(self) -> int:
        return len(self.rig.mock.indicators.buzzes)

    @property
    def match(self) -> Any:
        return self.rig.session.match

    @property
    def real(self) -> list[list[Card]]:
        """Every seat's real cards now."""
        return [[c for c, _ in h] for h in self.held]

    def hand_of(self, seat: int) -> list[Card]:
        """The seat's real cards now (what the player holds)."""
        self._follow()
        return [c for c, _ in self.held[seat]] if seat < len(self.held) else []

    def step(self) -> Any:
        """The table's current step of the hand (None outside a hand)."""
        hand = self._hand()
        if hand is None or hand.flow is None:
            return None
        return hand.flow.pending()

    def waiting_for(self) -> int | None:
        """The seat the hand waits for, if any."""
        step = self.step()
        return None if step is None else step.seat

    def is_human_turn(self) -> bool:
        seat = self.waiting_for()
        return seat is not None and seat in self.humans and self.state.startswith("match_hand")

    # ----- driving ------------------------------------------------------------------------

    def start(self) -> None:
        """Start a match unless the journal already holds one (after a power cut)."""
        if self.match is None:
            self.rig.press("ok")
        self._follow()

    def advance(self) -> bool:
        """Make the next move that is not a person's. Returns False when the
        table waits for a person, or when the match is over."""
        st = self.state
        if st in ("match_over", "ready"):
            return False
        if st == "match_result":
            if self.humans:
                return False  # a person presses OK to go on
            self.rig.press("ok")
            self._follow()
            return True
        if not st.startswith(("match_deal", "match_hand")):
            return False
        self._follow()
        hand = self._hand()
        if hand is None:
            return False
        if st.startswith("match_deal"):
            for place, uid in self._learning_taps(hand)[len(hand.reads):]:
                self.rig.tap(place, uid)
            self._follow()
            return True
        if self.is_human_turn():
            return False
        job = self._bot_job(hand, elsewhere=False)
        return self.carry_out(job, job.decide())

    def _moment(self) -> tuple[Any, ...]:
        hand = self._hand()
        return (self.state, self._hand_key, len(hand.actions) if hand is not None else -1,
                len(hand.reads) if hand is not None else -1)

    def _bot_job(self, hand: Any, elsewhere: bool = True) -> BotJob:
        """The next bot move's work. Worked out `elsewhere` (another thread),
        it reads copies (see `BotJob`) and has its own random numbers; on the
        spot it reads the hand itself and draws from the table's random
        numbers (so a seed replays the same match)."""
        assert hand.flow is not None
        shown = self.dealt.shown if self.dealt is not None else ()
        hands = self.real
        step = hand.flow.pending()
        if step.kind == "card" and step.seat is not None and \
                (draw := self._next_draw()) is not None:
            # a draw the table reads: the card on top of the stock is the one to tap
            hands[step.seat] = [draw]
        elif step.kind == "card":
            # a card to show: one the table has not seen yet
            seen = hand.used_uids() | hand.played_uids()
            hands = [[c for c, uid in h if uid not in seen] for h in self.held]
        seat = step.seat if step.seat is not None else 0
        bot = self._players.get(seat) or SimpleBot()
        if not elsewhere:
            return BotJob(self._moment(), hand.flow, hands, bot, self.rng, tuple(shown))
        return BotJob(self._moment(), copy.deepcopy(hand.flow), hands, bot,
                      random.Random(self.rng.randrange(2**62)), tuple(shown))

    def carry_out(self, job: BotJob, decision: tuple[str, int | None, Card | str | None]
                  ) -> bool:
        """Make a bot's decided move at the table, unless the hand has moved
        on since the job was made. True if the table changed."""
        kind, seat, what = decision
        if kind == "done" or seat is None or job.key != self._moment():
            return False
        st = self.state
        hand = self._hand()
        before = len(hand.actions)
        if kind == "card":
            assert isinstance(what, Card)
            self._tap_card(hand.flow.pending().kind, seat, what)
        else:
            self._take_choice(str(what))
        self._follow()
        hand = self._hand()
        return hand is None or len(hand.actions) != before or self.state != st

    # ----- time at the table ------------------------------------------------------------------

    def tick(self, seconds: float) -> bool:
        """Let `seconds` of table time pass, then make the next bot move if
        its time has come (see `Pace`). True if a bot moved."""
        if seconds > 0:
            self.rig.player.pause(seconds)
            self._wait -= seconds
        if self._wait > 0 or self.thinking:
            return False
        if self.think is not None and self._slow_bot_to_move():
            hand = self._hand()
            job = self._bot_job(hand)
            self.thinking = True

            def done(decision: tuple[str, int | None, Card | str | None]) -> None:
                self.thinking = False
                if self.carry_out(job, decision):
                    self._rest()

            self.think(job.decide, done)
            return False
        if self.advance():
            self._rest()
            return True
        return False

    def _slow_bot_to_move(self) -> bool:
        if not self.state.startswith("match_hand") or self.is_human_turn():
            return False
        seat = self.waiting_for()
        step = self.step()
        return seat is not None and step is not None and step.kind == "play" \
            and slow(self.bots.get(seat, ""))

    def _rest(self) -> None:
        """The bots wait their pace from now; longer after a finished trick."""
        tricks = self._tricks_seen
        self._tricks_seen = self._trick_count()
        done = self._tricks_seen > tricks
        self._wait = self.pace.trick if done else self.pace.card

    def _trick_count(self) -> int:
        hand = self._hand()
        deal = hand.flow.deal if hand is not None and hand.flow is not None else None
        return len(deal.tricks) if deal is not None else 0

    def run_bots(self, limit: int = 10_000, each: Callable[[], None] | None = None) -> int:
        """Advance until a person is needed or the match is over (or nothing
        moves three times running: a bot's choice the table refused is tried
        again with another)."""
        n = stuck = 0
        while n < limit and stuck < 3:
            if self.advance():
                n += 1
                stuck = 0
                if each is not None:
                    each()
            elif self.is_human_turn() or self.state in ("match_over", "ready") \
                    or (self.state == "match_result" and self.humans):
                break
            else:
                stuck += 1
        return n

    # ----- a person at the table ------------------------------------------------------------

    def play(self, seat: int, c: Card) -> bool:
        """A person puts card `c` on the reader of `seat` (or on the dealer's
        reader when the hand asks for cards to be shown). True if the table
        took it; otherwise the table shows why."""
        self._follow()
        hand = self._hand()
        if hand is None or hand.flow is None:
            return False
        step = hand.flow.pending()
        if self.settings.knowledge == "open" and step.kind == "play" \
                and not self._legal_for_real(seat, c):
            text = (f"{seat_label(seat)}: the {card_text(c, self.family)} would be a revoke. "
                    f"With hands unknown the table only finds out later; the simulator "
                    f"keeps the game honest.")
            self.log.append(LogLine(text, "error"))
            self.refusal = Refusal(text, seat, self.legal_now(seat))
            return False
        before = len(hand.actions)
        self._tap_card(step.kind, seat, c)
        self._follow()
        hand = self._hand()
        self._rest()
        return hand is None or len(hand.actions) > before

    @property
    def family(self) -> str:
        """The pack's family (`german` or `french`): how cards are written."""
        match = self.match
        return str(match.game.pack.family) if match is not None else "german"

    def legal_now(self, seat: int) -> tuple[Card, ...]:
        """The cards of the seat's real hand it may play now."""
        hand = self._hand()
        return tuple(legal_cards(hand.flow if hand is not None else None, seat,
                                 self.hand_of(seat)))

    def take_back(self) -> None:
        """UNDO at the keyboard: take back the last card (or choice) of the
        person at the keyboard, with every bot move made after it. The bots'
        moves go at once (UNDO and OK for each); for the person's own card the
        table asks, as it always does, and OK takes it back. With no move of
        theirs in this hand, UNDO is the table's own: its last move."""
        hand = self._hand()
        actions = list(hand.actions) if hand is not None else []
        mine = [i for i, a in enumerate(actions) if a.seat in self.humans]
        if mine and self.state.startswith(("match_hand", "match_result")):
            for _ in range(len(actions) - 1 - mine[-1]):
                self.rig.press("undo")
                if self.state != "match_undo":
                    break
                self.rig.press("ok")
        self.rig.press("undo")
        self._follow()
        self._rest()

    def press(self, button: str, long: bool = False) -> None:
        """A person presses OK, UNDO or MENU (long: held)."""
        if long:
            self.rig.hold(button)
        else:
            self.rig.press(button)
        self._follow()
        self._rest()

    def choose(self, choice: str) -> None:
        """A person picks `choice` of the current step with MENU and OK."""
        self._take_choice(choice)
        self._follow()
        self._rest()

    # ----- faults ---------------------------------------------------------------------------

    def misread(self, place: int) -> None:
        """A sticker the table has never seen is read (a bad read, a stray tag)."""
        uid = "".join(self.rng.choice("0123456789ABCDEF") for _ in range(14))
        self.faults.misreads += 1
        self.log.append(LogLine(f"Fault: misread on {_place(place)} ({uid})", "fault"))
        self.rig.tap(place, uid)

    def crosstalk(self, place: int) -> None:
        """The last card played at another seat, lying on the cloth, is picked
        up by the reader at `place` too."""
        hand = self._hand()
        played = [a for a in (hand.actions if hand else []) if a.uid and a.place is not None
                  and a.place != place]
        if not played:
            self.log.append(LogLine("Fault: no card on the table to cause crosstalk", "fault"))
            return
        last = played[-1]
        self.faults.crosstalk += 1
        self.log.append(LogLine(
            f"Fault: {_place(place)} also sees the {card_text(last.card, self.family)} "
            f"lying at {_place(last.place)}", "fault"))
        self.rig.tap(place, last.uid)

    def set_offline(self, place: int, offline: bool) -> None:
        if offline:
            self.faults.offline.add(place)
            self.log.append(LogLine(f"Fault: {_place(place)} goes offline", "fault"))
            self.rig.player.offline(place, "simulated fault")
        else:
            self.faults.offline.discard(place)
            self.log.append(LogLine(f"{_place(place)} is back", "fault"))
            self.rig.player.back(place)

    def power_cut(self) -> None:
        """Pull the plug: drop the controller without any cleanup and start a
        new one on the same journal."""
        self.faults.power_cuts += 1
        self.log.append(LogLine("Fault: power cut; the table restarts from its journal",
                                "fault"))
        self.rig = self.rig.restart()
        self.rig.ctl.on_notice(self._on_notice)
        self.faults.offline.clear()

    def close(self) -> None:
        self.rig.close()

    # ----- moves at the table -----------------------------------------------------------------

    def _next_draw(self) -> Card | None:
        if self._stock:
            return self._stock[0][0]
        return self._bottom[0] if self._bottom is not None else None

    def _learning_taps(self, hand: Any) -> list[tuple[int, str]]:
        """(place, uid) of every card the table reads to learn the hands:
        each seat taps its cards (scan), or the dealer passes every card over
        his reader in dealing order (dealt)."""
        if hand.knowledge == "scan":
            return [(seat, uid) for seat, h in enumerate(self.held) for _, uid in h]
        place = DEALER if self.rig.settings.has_dealer_reader else hand.dealer
        given = [0] * self.players
        out = []
        for seat in hand.order:
            out.append((place, self.held[seat][given[seat]][1]))
            given[seat] += 1
        return out

    def _tap_card(self, step_kind: str, seat: int, c: Card) -> None:
        place = seat
        step = self.step()
        anyone = step is not None and step.seat is None
        # Shown cards go on the dealer's reader, except in a step any seat may
        # take (the Old Man shows his Over): there the reader says who it is.
        if step_kind in ("show", "card") and self.rig.settings.has_dealer_reader and not anyone:
            place = DEALER
        uid = self._draw_uid(c) if step_kind == "card" else None
        self.rig.tap(place, uid or self._uid(seat, c))

    def _uid(self, seat: int, c: Card) -> str:
        """The sticker of the copy of `c` the seat holds (or wherever it is)."""
        for owner in [seat, *range(self.players)]:
            held: list[tuple[Card, str]] = self.held[owner] if owner < len(self.held) else []
            for card, uid in held:
                if card == c:
                    return uid
        # the turned-up card under the stock before the face-down ones
        stock: list[tuple[Card, str]] = [*([self._bottom] if self._bottom else []),
                                         *self._stock]
        for card, uid in stock:
            if card == c:
                return uid
        return self.rig.uid_of(c, 1)

    def _draw_uid(self, c: Card) -> str | None:
        nxt = self._stock[0] if self._stock else self._bottom
        return nxt[1] if nxt is not None and nxt[0] == c else None

    def _take_choice(self, choice: str) -> None:
        """Move the table's choice cursor to `choice` with MENU, then press OK."""
        step = self.step()
        if step is None or choice not in step.choices:
            self.rig.press("ok")
            return
        model = self.rig.ctl.model
        for _ in range(len(step.choices)):
            if step.choices[model.choice_cursor()] == choice:
                break
            self.rig.press("menu")
        self.rig.press("ok")

    # ----- following the table ------------------------------------------------------------

    def _hand(self) -> Any:
        match = self.rig.session.match
        return match.hand if match is not None else None

    def _follow(self) -> None:
        """Keep the real hands in step with what the table accepted: deal the
        real cards of a new hand, remove played cards, add drawn ones."""
        match = self.rig.session.match
        hand = match.hand if match is not None else None
        if hand is None:
            return
        key = (match.id, hand.number)
        if key != self._hand_key:
            self._hand_key = key
            self._tricks_seen = 0
            # The real cards of a hand depend only on the seed, the match and
            # the hand number, so a simulator restarted on the same journal
            # (after a power cut or a kill) deals the very same cards.
            deck = random.Random(f"{self.seed}:{match.id}:{hand.number}")
            self.dealt = match.game.deal(deck, hand.state.dealer)
            self._rebuild([])
        actions = hand.actions
        if len(actions) < self._seen_actions:
            self._rebuild(actions)
            return
        for a in actions[self._seen_actions:]:
            self._apply(a)
        self._seen_actions = len(actions)

    def _rebuild(self, actions: list[Any]) -> None:
        """Start again from the dealt cards and apply the actions taken so far."""
        assert self.dealt is not None
        copies: dict[Card, int] = {}

        def sticker(c: Card) -> tuple[Card, str]:
            copies[c] = copies.get(c, 0) + 1
            return (c, self.rig.uid_of(c, copies[c]))

        self.held = [[sticker(c) for c in h] for h in self.dealt.hands]
        self._stock = [sticker(c) for c in self.dealt.extra.get("stock", ())]
        turn_up = self.dealt.extra.get("turn_up")
        self._bottom = sticker(turn_up) if isinstance(turn_up, Card) else None
        for a in actions:
            self._apply(a)
        self._seen_actions = len(actions)

    def _apply(self, action: Any) -> None:
        ev = action.event
        if ev.kind == "played" and action.card is not None:
            held = self.held[action.seat]
            for i, (c, uid) in enumerate(held):
                if c == action.card and (action.uid is None or uid == action.uid):
                    del held[i]
                    break
            else:
                for i, (c, _) in enumerate(held):
                    if c == action.card:
                        del held[i]
                        break
        for item in ev.data.get("events", ()) if isinstance(ev.data, dict) else ():
            name = type(item).__name__
            if name == "Exchanged" and self._bottom is not None:
                # The Seven of trumps takes the turn-up's place under the stock;
                # the turn-up goes to the won cards, or to the hand (option).
                gave = (item.gave, self._uid(item.seat, item.gave))
                if self.rig.session.match.game.options.get("deece_exchange_to") == "hand":
                    mine = self.held[item.seat]
                    self.held[item.seat] = [h for h in mine if h[1] != gave[1]]
                    self.held[item.seat].append(self._bottom)
                self._bottom = gave
            elif name == "Drawn":
                if self._stock:
                    self.held[item.seat].append(self._stock.pop(0))
                elif self._bottom is not None:
                    self.held[item.seat].append(self._bottom)
                    self._bottom = None

    def _legal_for_real(self, seat: int, c: Card) -> bool:
        """Would `c` be legal from the seat's real hand? (for open tables)"""
        hand = self._hand()
        if hand is None or hand.flow is None or hand.flow.deal is None:
            return True
        deal = hand.flow.deal
        mine = self.hand_of(seat)
        if c not in mine:
            return False
        try:
            legal = deal.game.legal_subset(deal.trump, deal.current_trick, mine,
                                           **deal.context())
        except (EngineError, ValueError):
            return True
        return c in legal

    def _on_notice(self, notice: Any) -> None:
        kind = "error" if notice.kind in ("refused", "revoke") else "info"
        data = getattr(notice, "data", {}) or {}
        seat = data.get("seat")
        if notice.kind in ("refused", "revoke"):
            who = seat if isinstance(seat, int) and seat >= 0 else None
            legal = self.legal_now(who) if who is not None and who in self.humans else ()
            self.refusal = Refusal(str(notice.text or ""), who, legal)
        elif notice.kind in ("accepted", "undone"):
            self.refusal = None
        elif notice.kind == "trick":
            self._teams_now = self._team_names()
        elif notice.kind == "hand" and str(notice.text).isdigit():
            self._record_hand(int(notice.text), data)
        elif notice.kind == "match" and notice.text == "start":
            self.hands_played = []
        self.log.append(LogLine(describe_notice(notice, self.family, self._secret(notice)),
                                kind))
        for listener in self.listeners:
            listener()

    def _record_hand(self, number: int, data: dict[str, Any]) -> None:
        match = self.match
        if match is None:
            return
        present = self.rig.ctl.presenter
        game = match.game
        points = tuple(int(p) for p in data.get("points", ()))
        names = self._teams_now
        if len(names) != len(points):
            names = tuple(present.team_names(game))
        if len(names) != len(points):
            names = tuple(f"team {t + 1}" for t in range(len(points)))
        after = present.status_text(game, match.state.standing())
        if match.state.over:
            after = ", ".join(x for x in (present.winner_text(game, match.state.to_json()),
                                          after) if x)
        self.hands_played.append(HandRecord(number, names, points, after))

    def _team_names(self) -> tuple[str, ...]:
        """The teams of the hand in play as players say them ("1+3"), where
        the deal knows them (teams that change from hand to hand); else ()."""
        hand = self._hand()
        deal = hand.flow.deal if hand is not None and hand.flow is not None else None
        teams = getattr(deal, "teams", None)
        found = teams() if callable(teams) else teams
        if not isinstance(found, tuple):
            return ()
        groups: dict[int, list[str]] = {}
        for seat, team in enumerate(found):
            groups.setdefault(int(team), []).append(str(seat + 1))
        return tuple("+".join(groups[t]) for t in sorted(groups))

    def trumps(self) -> frozenset[Card]:
        """The cards that are trumps in the hand now (none before trumps are fixed)."""
        hand = self._hand()
        deal = hand.flow.deal if hand is not None and hand.flow is not None else None
        if deal is None:
            return frozenset()
        t = deal.tables
        return frozenset(c for c in deal.pack.cards if t.eff[deal.pack.slot(c)] == TRUMP)

    def _secret(self, notice: Any) -> bool:
        """Is this a card read while the table learns a bot's hand? (the log
        must not show it: nobody sees a bot's cards)"""
        data = getattr(notice, "data", {}) or {}
        seat = data.get("seat")
        return notice.kind == "accepted" and notice.text == data.get("card") \
            and not (isinstance(seat, int) and seat in self.humans)


def describe_notice(notice: Any, family: str = "german", secret: bool = False) -> str:
    """A table notice as a line of the simulator's log, seats counted from 1
    (`secret`: a bot's card read while learning the hands, not named)."""
    data = getattr(notice, "data", {}) or {}
    raw = data.get("seat")
    seat = raw if isinstance(raw, int) and raw >= 0 else -1
    named = seat >= 0
    who = f"{seat_label(seat)}: " if named else ""
    text = str(notice.text or "")
    code = data.get("card")
    if notice.kind == "accepted" and isinstance(code, str) and named:
        shown = _code_text(code, family)
        if text == code:   # a card read while the table learns the hands
            return f"{seat_label(seat)} gets a card" if secret else \
                f"{seat_label(seat)} gets {shown}"
        if text == "trump":
            return f"{seat_label(seat)} shows {shown}: trumps are fixed"
        verb = {"played": "plays", "shown": "shows"}.get(text, text)
        return f"{seat_label(seat)} {verb} {shown}"
    if notice.kind == "accepted" and named and data.get("choice"):
        return f"{seat_label(seat)} chooses {data['choice']}"
    if notice.kind in ("refused", "revoke", "ignored", "enrolled", "setup"):
        return f"{notice.kind}: {who}{text}".rstrip(": ")
    if notice.kind == "trick":
        w = data.get("winner")
        return f"trick {text}: {seat_label(w)} takes {data.get('points', 0)}" \
            if isinstance(w, int) else f"trick {text}"
    if notice.kind == "undone" and named:
        shown = _code_text(text, family)
        return f"undone: {seat_label(seat)}'s {shown}".rstrip("' ")
    return f"{notice.kind}: {who}{text}".rstrip(": ")


def _code_text(code: str, family: str) -> str:
    """A card code as the hand panel writes it (anything else as it is)."""
    try:
        return card_text(Card.parse(code), family)
    except EngineError:
        return code


def _place(place: int) -> str:
    return "the dealer's reader" if place == DEALER else f"{seat_label(place)}'s reader"


__all__ = ["BotJob", "HandRecord", "Refusal", "SimTable", "SimpleBot"]
