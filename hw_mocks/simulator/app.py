"""The interactive simulator: the table on a PC, in a terminal (Textual).

The OLED panel shows the very frames the controller sent to the display fake;
the LEDs and the buzzer are read from the gpiozero mock pins' devices; the
three buttons press the fake buttons; a card is played by clicking it or by
its number key. Bots play the other seats through the same fake readers, at
a human pace on the table's clock (`Pace`), thinking in a worker thread when
they think long; the hint key asks the sampled analysis, in a worker too.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DataTable, Footer, Header, Markdown, RichLog, Static

from engine.cards import Card
from engine.games import game_class
from hw_mocks.simulator.config import SimConfig, new_seed
from hw_mocks.simulator.driver import SimTable
from hw_mocks.simulator.halfblock import frame_text
from hw_mocks.simulator.hint import Advice, advise
from hw_mocks.simulator.prompt import prompt_line
from hw_mocks.simulator.rules_help import rules_markdown
from hw_mocks.simulator.setup import SetupScreen, show_value
from hw_mocks.simulator.suits import card_label, card_text, legend
from table.ports import DEALER


def led_text(pattern: str, blink_on: bool) -> Text:
    if pattern == "on":
        return Text("●", style="bold green")
    if pattern in ("blink", "fast_blink"):
        return Text("●" if blink_on else "○", style="bold red")
    return Text("○", style="grey42")


class CardButton(Button):
    """One card of a person's hand; clicking it plays (or shows) the card."""

    def __init__(self, c: Card, index: int, generation: int, family: str) -> None:
        super().__init__(card_label(c, family), id=f"card-g{generation}-{index}",
                         classes="card")
        self.card = c
        self.index = index


class HelpScreen(ModalScreen[None]):
    """The rules of the game in play (from its docs page) and its options."""

    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "close")]

    def __init__(self, game: str, options: dict[str, Any]) -> None:
        super().__init__()
        self.game = game
        self.options = options

    def compose(self) -> ComposeResult:
        cls = game_class(self.game)
        lines = [rules_markdown(self.game), "## Options at this table", ""]
        for spec in cls.option_specs:
            value = self.options.get(spec.name, spec.default)
            lines.append(f"* `{spec.name}` = **{show_value(value)}**: {spec.doc}")
        with VerticalScroll(id="help-box"):
            yield Markdown("\n".join(lines), id="help")
        yield Static("ESC or ? closes the rules", id="help-foot")


class HandsScreen(ModalScreen[None]):
    """The current match's hands so far: points and the match after each."""

    BINDINGS = [Binding("escape,s,q", "dismiss", "close")]

    def __init__(self, sim: SimTable) -> None:
        super().__init__()
        self.sim = sim

    def compose(self) -> ComposeResult:
        records = self.sim.hands_played
        with Vertical(id="hands-box"):
            yield Static(Text("The hands of this match so far", style="bold"))
            table: DataTable[str] = DataTable(id="hands", zebra_stripes=True)
            # the widest hand names the columns (teams can change from hand
            # to hand in some games: a row names its own when they differ)
            widest = max(records, key=lambda r: len(r.names), default=None)
            names = widest.names if widest is not None else ()
            table.add_columns("hand", *names, "the match after it")
            for r in records:
                cells = [str(p) if r.names == names else f"{n}: {p}"
                         for n, p in zip(r.names, r.points, strict=True)]
                cells += [""] * (len(names) - len(cells))
                table.add_row(str(r.number), *cells, r.after)
            yield table
            yield Static("No hand finished yet." if not records else
                         "Points each team (or player) took in the hand.", id="hands-note")
            yield Static("ESC or s closes this", id="hands-foot")


class TableScreen(Screen[None]):
    """The table from above: seats, the OLED, LEDs, buzzer, buttons, log."""

    BINDINGS = [
        Binding("o", "button('ok')", "OK"),
        Binding("u", "undo", "UNDO"),
        Binding("U", "button('undo', True)", "UNDO held"),
        Binding("m", "button('menu')", "MENU"),
        *[Binding(str(k % 10), f"play_nth({k - 1})", show=False) for k in range(1, 11)],
        Binding("h", "hint", "hint"),
        Binding("question_mark", "rules", "rules"),
        Binding("s", "hands", "hands so far"),
        Binding("x", "fault('misread')", "misread", show=False),
        Binding("c", "fault('crosstalk')", "crosstalk", show=False),
        Binding("f", "fault('offline')", "reader off/on", show=False),
        Binding("p", "fault('power')", "power cut", show=False),
        Binding("space", "pause", "pause"),
        Binding("plus", "speed(0.5)", "faster", show=False),
        Binding("minus", "speed(2.0)", "slower", show=False),
        Binding("v", "reveal", "show hands", show=False),
        Binding("q", "app.quit", "quit"),
    ]

    #: seconds between two looks at the clock
    TICK = 0.1

    def __init__(self, sim: SimTable, config: SimConfig,
                 wall: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.sim = sim
        self.config = config
        self.wall = wall
        self.paused = False
        self.blink = False
        self.cell = "half"
        self._last = wall()
        self._hand_key: tuple[Any, ...] = ()
        self._generation = 0
        self._log_seen = 0
        self._buzz_seen = 0
        self._buzz_until = 0
        self.advice: Advice | None = None
        self.hint_note = ""
        self._hint_key: tuple[Any, ...] = ()
        self._seen: tuple[Any, ...] = ()

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="seats"):
            for seat in range(self.sim.players):
                yield Static(id=f"seat-{seat}", classes="seat")
        with Horizontal(id="middle"):
            with Vertical(id="oled-box"):
                yield Static(id="oled")
                with Horizontal(id="controls"):
                    yield Button("OK", id="btn-ok", variant="success")
                    yield Button("UNDO", id="btn-undo", variant="warning")
                    yield Button("MENU", id="btn-menu")
                yield Static(id="indicators")
            yield RichLog(id="log", wrap=True, markup=False, min_width=10)
        yield Static("", id="prompt")
        yield Static("", id="refusal")
        yield Static("", id="hint")
        yield Static("", id="hand-title")
        yield Horizontal(id="hand")
        yield Static("", id="legend")
        yield Static(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"cardtable simulator: {game_class(self.sim.settings.game).title}"
        self.sub_title = (f"{self.sim.settings.knowledge} table, "
                          f"language {self.sim.settings.language}, seed {self.sim.seed}")
        self.sim.think = self._think
        self.sim.start()
        self._last = self.wall()
        self.set_interval(self.TICK, self.tick)
        self.set_interval(0.4, self._blink)
        self._fit(self.app.size.width, self.app.size.height)
        self.refresh_table()

    # ----- the size of the terminal ------------------------------------------------------------

    #: Below this many columns or rows the OLED is drawn with 2x2-pixel cells.
    FULL_SIZE = (170, 56)

    def _fit(self, width: int, height: int) -> None:
        small = width < self.FULL_SIZE[0] or height < self.FULL_SIZE[1]
        self.cell = "quad" if small else "half"
        self.set_class(small, "small")

    def on_resize(self, event: Any) -> None:
        self._fit(event.size.width, event.size.height)
        self.refresh_table()

    # ----- the clock of the simulation --------------------------------------------------------

    def tick(self) -> None:
        """Table time moves with the wall clock (not while paused): error
        screens time out, and each bot moves when its pace says."""
        now = self.wall()
        elapsed, self._last = max(0.0, now - self._last), now
        if not self.paused:
            self.sim.tick(elapsed)
        key = self._look()
        if key != self._seen:
            self.refresh_table()

    def _look(self) -> tuple[Any, ...]:
        """What the window shows, cheaply: it is redrawn when this changes."""
        frame = self.sim.frame
        sim = self.sim
        return (frame.tobytes() if frame is not None else b"", len(sim.log), sim.state,
                sim.waiting_for(), sim.buzz_count, sim.refusal, sim.thinking, self.paused,
                self.advice, self.hint_note, len(sim.hands_played), self.cell,
                tuple(c.code for c in sim.hand_of(self._human_seat() or 0)))

    def _think(self, work: Callable[[], Any], done: Callable[[Any], None]) -> None:
        """A slow bot thinks in a worker thread; its move is made back here."""
        def finish(result: Any) -> None:
            done(result)
            self.refresh_table()

        def run() -> None:
            self.app.call_from_thread(finish, work())

        self.run_worker(run, thread=True, exclusive=False, group="bots")

    def _blink(self) -> None:
        self.blink = not self.blink
        self.refresh_leds()

    # ----- drawing ------------------------------------------------------------------------------

    def refresh_table(self) -> None:
        self._seen = self._look()
        frame = self.sim.frame
        if frame is not None:
            self.query_one("#oled", Static).update(
                Text(frame_text(frame, self.cell), style="white on black"))
        self.refresh_leds()
        self.refresh_hands()
        log = self.query_one("#log", RichLog)
        for line in self.sim.log[self._log_seen:]:
            style = {"error": "bold red", "fault": "bold magenta"}.get(line.kind, "")
            log.write(Text(line.text, style=style))
        self._log_seen = len(self.sim.log)
        self.query_one("#prompt", Static).update(prompt_line(self.sim, self.sim.thinking))
        refusal = self.sim.refusal
        shown = self.query_one("#refusal", Static)
        shown.display = refusal is not None
        if refusal is not None:
            shown.update(Text.assemble(
                ("Refused: ", "bold red"), (refusal.text, "red"),
                ("   (your cards that may be played are marked green)"
                 if refusal.legal else "", "grey62")))
        hint = self._hint_text()
        self.query_one("#hint", Static).display = bool(hint.plain)
        self.query_one("#hint", Static).update(hint)
        st = self.sim.state
        waiting = self.sim.waiting_for()
        who = "" if waiting is None else f", waiting for seat {waiting + 1}"
        faults = self.sim.faults
        tight = self.app.size.width < 100 or self.app.size.height < 34
        self.query_one("#status", Static).update(
            ("enlarge the window (at least 100x34)  |  " if tight else "") +
            f"seed {self.sim.seed}  |  {st}{who}  |  faults: {faults.misreads} misreads, "
            f"{faults.crosstalk} crosstalk, {faults.power_cuts} power cuts, readers off: "
            f"{sorted(s + 1 for s in faults.offline) or '-'}"
            f"{'  |  PAUSED' if self.paused else ''}")

    def refresh_leds(self) -> None:
        family = self.sim.family
        for seat in range(self.sim.players):
            panel = self.query_one(f"#seat-{seat}", Static)
            who = "you" if seat in self.sim.humans else f"bot ({self.sim.bots.get(seat)})"
            text = Text.assemble(led_text(self.sim.seat_led(seat), self.blink),
                                 f" Seat {seat + 1}  ", (who, "italic"), "\n")
            cards = self.sim.hand_of(seat)
            if seat in self.sim.humans or self.config.show_all_hands:
                for c in cards:
                    text.append_text(card_label(c, family))
                    text.append(" ")
            else:
                text.append("🂠 " * len(cards) if cards else "")
            if self.sim.waiting_for() == seat:
                panel.add_class("turn")
            else:
                panel.remove_class("turn")
            panel.update(text)
        buzz = self.sim.buzz_count
        if buzz != self._buzz_seen:
            self._buzz_seen = buzz
            self._buzz_until = 4
        buzzing = self._buzz_until > 0
        self._buzz_until = max(0, self._buzz_until - 1)
        self.query_one("#indicators", Static).update(Text.assemble(
            "status ", led_text(self.sim.status_led, self.blink), "   buzzer ",
            ((f"♪ {self.sim.buzzer}", "bold red") if buzzing else ("·", "grey42"))))

    def refresh_hands(self) -> None:
        seat = self._human_seat()
        box = self.query_one("#hand", Horizontal)
        title = self.query_one("#hand-title", Static)
        match = self.sim.match
        if match is not None:
            pack = match.game.pack
            self.query_one("#legend", Static).update(
                legend(pack.suits, pack.family, self.sim.settings.language)
                + Text("   gold background: a trump now", style="dark_goldenrod"))
        title.display = seat is None   # a person's hand: the prompt line says it all
        if seat is None:
            title.update("Watching a bot match: SPACE pauses, + and - change the pace, "
                         "? shows the rules, s the hands so far.")
            if self._hand_key:
                box.remove_children()
                self._hand_key = ()
            return
        cards = self.sim.hand_of(seat)
        key = (seat, tuple(c.code for c in cards))
        if key != self._hand_key:
            self._hand_key = key
            self._generation += 1
            box.remove_children()
            box.mount_all([CardButton(c, i, self._generation, self.sim.family)
                           for i, c in enumerate(cards)])
        self._mark_cards(seat)

    def _mark_cards(self, seat: int) -> None:
        """Trumps in gold; after a refusal, the cards that may be played green
        and the others dimmed; the hinted card outlined."""
        refusal = self.sim.refusal
        legal = set(refusal.legal) if refusal is not None and refusal.seat == seat else set()
        trumps = self.sim.trumps()
        hinted = self.advice.card if self.advice is not None else None
        for b in self.query_one("#hand", Horizontal).query(CardButton):
            b.set_class(b.card in trumps, "trump")
            b.set_class(bool(legal) and b.card in legal, "legal")
            b.set_class(bool(legal) and b.card not in legal, "not-legal")
            b.set_class(b.card == hinted, "hinted")

    def _hint_text(self) -> Text:
        if self._hint_key and self._hint_key != self._moment():
            self.advice, self.hint_note, self._hint_key = None, "", ()
        if self.advice is not None:
            a = self.advice
            family = self.sim.family
            others = sorted(a.averages.items(), key=lambda kv: -kv[1])
            return Text.assemble(
                ("Hint: ", "bold cyan"), card_label(a.card, family),
                f"  ({a.average:.1f} points for your side on average over {a.samples} "
                f"deals weighed in {a.seconds:.1f} s; ",
                ", ".join(f"{card_text(c, family)} {v:.1f}" for c, v in others), ")")
        return Text(self.hint_note, style="cyan")

    def _human_seat(self) -> int | None:
        if not self.sim.humans:
            return None
        waiting = self.sim.waiting_for()
        if waiting in self.sim.humans:
            return waiting
        return min(self.sim.humans)

    def _moment(self) -> tuple[Any, ...]:
        hand = self.sim._hand()
        return (self.sim._hand_key, len(hand.actions) if hand is not None else -1)

    # ----- actions ------------------------------------------------------------------------------

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id or ""
        if isinstance(event.button, CardButton):
            self.action_play_nth(event.button.index)
        elif bid == "btn-undo":
            self.action_undo()
        elif bid.startswith("btn-"):
            self.action_button(bid[4:])

    def action_button(self, name: str, long: bool = False) -> None:
        self.sim.press(name, long=long)
        self.refresh_table()

    def action_undo(self) -> None:
        """UNDO: take back your last card (see `SimTable.take_back`)."""
        if self.sim.state == "match_undo":
            self.sim.press("undo")   # a second UNDO keeps the card
        else:
            self.sim.take_back()
        self.refresh_table()

    def action_play_nth(self, index: int) -> None:
        seat = self._human_seat()
        if seat is None:
            return
        cards = self.sim.hand_of(seat)
        if 0 <= index < len(cards):
            self.sim.play(seat, cards[index])
        self.refresh_table()

    def action_hint(self) -> None:
        """Ask the sampled analysis for the card it prefers (in a worker)."""
        seat = self.sim.waiting_for()
        step = self.sim.step()
        hand = self.sim._hand()
        if seat not in self.sim.humans or step is None or step.kind != "play" \
                or hand is None or hand.flow is None or hand.flow.deal is None:
            self.hint_note = "A hint is for your turn to play a card."
            self.refresh_table()
            return
        import copy

        deal = copy.deepcopy(hand.flow.deal)
        cards = list(self.sim.hand_of(seat))
        shown = list(getattr(hand.flow, "shown", ()))
        public = {hand.flow.dealer: shown} if shown and hasattr(hand.flow, "dealer") else None
        rng = random.Random(self.sim.rng.randrange(2**62))
        self._hint_key = self._moment()
        self.advice, self.hint_note = None, "Thinking about a hint…"
        key = self._hint_key

        def run() -> None:
            found = advise(deal, seat, cards, rng, public)
            self.app.call_from_thread(self._hint_ready, key, found)

        self.run_worker(run, thread=True, exclusive=True, group="hint")
        self.refresh_table()

    def _hint_ready(self, key: tuple[Any, ...], found: Advice | None) -> None:
        if key != self._moment():
            return   # the hand moved on meanwhile
        self.advice = found
        self.hint_note = "" if found is not None else \
            "No hint here: the analysis does not search this part of the hand, " \
            "or not one deal fits in the hint's budget yet."
        self.refresh_table()

    def action_rules(self) -> None:
        self.app.push_screen(HelpScreen(self.sim.settings.game,
                                        dict(self.sim.settings.options)))

    def action_hands(self) -> None:
        self.app.push_screen(HandsScreen(self.sim))

    def action_fault(self, kind: str) -> None:
        waiting = self.sim.waiting_for()
        seat = waiting if waiting is not None else 0
        if kind == "misread":
            self.sim.misread(seat)
        elif kind == "crosstalk":
            self.sim.crosstalk((seat + 1) % self.sim.players)
        elif kind == "offline":
            self.sim.set_offline(seat, seat not in self.sim.faults.offline)
        elif kind == "power":
            self.sim.power_cut()
        self.refresh_table()

    def action_pause(self) -> None:
        self.paused = not self.paused
        self.refresh_table()

    def action_speed(self, factor: float) -> None:
        """`+` halves the bots' waits, `-` doubles them."""
        self.sim.pace = self.sim.pace.scaled(factor)
        self.config.pace = self.sim.pace

    def action_reveal(self) -> None:
        self.config.show_all_hands = not self.config.show_all_hands
        self.refresh_table()


class SimApp(App[None]):
    """`cardtable sim`: see the module docstring."""

    TITLE = "cardtable"
    SUB_TITLE = "the table on a PC"

    CSS = """
    #setup { padding: 1 2; width: 110; }
    #setup .head { margin-top: 1; text-style: bold; }
    #setup .doc { color: $text-muted; }
    #setup Select.option, #setup Input.option { width: 60; }
    .seat-row, #all-bots-row { height: 3; }
    .seat-row Select, #all-bots-row Select { width: 70; }
    #seats { height: 4; }
    .seat { width: 1fr; border: round $panel; padding: 0 1; }
    .seat.turn { border: heavy $success; }
    #middle { height: 1fr; min-height: 20; }
    #oled-box { width: 134; }
    #oled { width: 130; height: 34; border: heavy $primary; }
    TableScreen.small #middle { height: 1fr; }
    TableScreen.small #oled-box { width: 70; }
    TableScreen.small #oled { width: 66; height: 18; }
    #controls { height: 3; }
    #indicators { height: 1; }
    #log { width: 1fr; border: round $panel; }
    #prompt { height: auto; max-height: 2; padding: 0 1; }
    #refusal { height: auto; max-height: 3; padding: 0 1; }
    #hint { height: auto; max-height: 2; padding: 0 1; }
    #hand { height: 3; }
    .card { min-width: 6; width: 8; }
    .card.trump { background: $warning-darken-3; }
    .card.legal { border: tall $success; }
    .card.not-legal { opacity: 50%; }
    .card.hinted { border: tall cyan; }
    #legend { height: auto; padding: 0 1; }
    #status { height: 1; background: $panel; }
    HelpScreen, HandsScreen { align: center middle; }
    #help-box { width: 100; height: 90%; border: round $primary; background: $surface; }
    #help-foot, #hands-foot { dock: bottom; width: 100%; text-align: center; }
    #hands-box { width: 100; height: auto; max-height: 80%; border: round $primary;
                 background: $surface; padding: 1 2; }
    #hands { height: auto; max-height: 30; }
    """

    def __init__(self, config: SimConfig, ask_setup: bool = True,
                 wall: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.config = config
        self.ask_setup = ask_setup
        self.wall = wall
        self.sim: SimTable | None = None
        self.voice: Any = None

    def on_mount(self) -> None:
        if self.ask_setup:
            self.push_screen(SetupScreen(self.config), self._start)
        else:
            self._start(self.config)

    def make_table(self, config: SimConfig) -> SimTable:
        return SimTable(config.settings(), humans=config.humans, bot=config.bot,
                        seed=config.seed if config.seed is not None else new_seed(),
                        state_dir=config.state_dir, pace=config.pace)

    def _start(self, config: SimConfig | None) -> None:
        if config is None:
            self.exit()
            return
        self.sim = self.make_table(config)
        if config.voice:
            from hw_mocks.simulator.voice import start_voice

            self.voice = start_voice(self.sim)
        self.push_screen(TableScreen(self.sim, config, self.wall))

    def on_unmount(self) -> None:
        if self.voice is not None:
            self.voice.close()
        if self.sim is not None:
            self.sim.close()


__all__ = ["DEALER", "CardButton", "SimApp", "SimConfig", "card_label"]
