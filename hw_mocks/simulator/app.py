"""The interactive simulator: the table on a PC, in a terminal (Textual).

The OLED panel shows the very frames the controller sent to the display fake;
the LEDs and the buzzer are read from the gpiozero mock pins' devices; the
three buttons press the fake buttons; a card is played by clicking it or by
its number key. Bots play the other seats through the same fake readers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, RichLog, Select, Static

from engine.cards import Card
from engine.games import game_class, game_ids
from hw_mocks.simulator.driver import DEFAULT_PACE, SimTable
from hw_mocks.simulator.halfblock import frame_text
from table.ports import DEALER
from table.settings import KNOWLEDGE_MODES, LANGUAGES, TableSettings, knowledge_mode, language_code

_SUIT_SIGNS = {
    # German suits shown with their usual French counterparts
    "a": ("♣", "green"), "l": ("♠", "green"), "h": ("♥", "red"), "b": ("♦", "yellow"),
    "c": ("♣", "white"), "s": ("♠", "white"), "d": ("♦", "red"),
}
_RANKS = {"T": "10"}


def card_label(c: Card) -> Text:
    sign, colour = _SUIT_SIGNS.get(c.suit, (c.suit, "white"))
    if c.suit == "h" and c.code in ("Oh",):
        colour = "red"
    return Text.assemble((_RANKS.get(c.rank, c.rank), "bold"), (sign, colour))


def led_text(pattern: str, blink_on: bool) -> Text:
    if pattern == "on":
        return Text("●", style="bold green")
    if pattern in ("blink", "fast_blink"):
        return Text("●" if blink_on else "○", style="bold red")
    return Text("○", style="grey42")


@dataclass
class SimConfig:
    """What the simulator starts with (from the command line or the setup screen)."""

    game: str = "filicau"
    options: dict[str, Any] = field(default_factory=dict)
    knowledge: str = "open"
    language: str = "en"
    humans: tuple[int, ...] = (0,)
    bot: str = "simple"
    seed: int = 1
    pace: float = DEFAULT_PACE
    show_all_hands: bool = False
    state_dir: str | None = None
    #: the table speaks (`--voice`, hw_mocks.simulator.voice)
    voice: bool = False

    def settings(self) -> TableSettings:
        from hw_mocks.simulator.headless import demo_settings

        if not self.humans:
            return demo_settings(self.game, self.options, self.knowledge, self.language)
        return TableSettings(game=self.game, options=dict(self.options),
                             knowledge=knowledge_mode(self.knowledge),
                             language=language_code(self.language))


class CardButton(Button):
    """One card of a person's hand; clicking it plays (or shows) the card."""

    def __init__(self, c: Card, index: int, generation: int) -> None:
        super().__init__(card_label(c), id=f"card-g{generation}-{index}", classes="card")
        self.card = c
        self.index = index


class SetupScreen(Screen[SimConfig]):
    """Choose game, options, knowledge mode, language and seats."""

    def __init__(self, config: SimConfig) -> None:
        super().__init__()
        self.config = config

    def compose(self) -> ComposeResult:
        c = self.config
        yield Header(show_clock=False)
        with Vertical(id="setup"):
            yield Label("Game")
            yield Select([(f"{game_class(g).title} ({g})", g) for g in game_ids()],
                         value=c.game, id="game", allow_blank=False)
            yield Label("Options (JSON, e.g. {\"match_length\": 4}); see docs/games.md")
            yield Input(json.dumps(c.options), id="options")
            yield Label("How the table knows the hands")
            yield Select([(k, k) for k in KNOWLEDGE_MODES], value=c.knowledge, id="knowledge",
                         allow_blank=False)
            yield Label("Language of the table")
            yield Select([(lang, lang) for lang in LANGUAGES], value=c.language, id="language",
                         allow_blank=False)
            yield Label("You play seat (or watch bots play)")
            yield Select([("watch a bot match", -1)] + [(f"seat {i + 1}", i) for i in range(6)],
                         value=c.humans[0] if c.humans else -1, id="seat", allow_blank=False)
            yield Label("", id="problem")
            yield Button("Start", id="start", variant="primary")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id != "start":
            return
        problem = self.query_one("#problem", Label)
        try:
            options = json.loads(self.query_one("#options", Input).value or "{}")
            if not isinstance(options, dict):
                raise ValueError("the options must be a JSON object")
            game = str(self.query_one("#game", Select).value)
            game_class(game)(options)  # a clear error for a bad option
            seat = int(str(self.query_one("#seat", Select).value))
            players = game_class(game).players
            if seat >= players:
                raise ValueError(f"{game} has seats 1..{players}")
        except Exception as err:  # noqa: BLE001 - any mistake is shown, nothing breaks
            problem.update(Text(str(err), style="bold red"))
            return
        self.config.game = game
        self.config.options = options
        self.config.knowledge = str(self.query_one("#knowledge", Select).value)
        self.config.language = str(self.query_one("#language", Select).value)
        self.config.humans = () if seat < 0 else (seat,)
        self.dismiss(self.config)


class TableScreen(Screen[None]):
    """The table from above: seats, the OLED, LEDs, buzzer, buttons, log."""

    BINDINGS = [
        Binding("o", "button('ok')", "OK"),
        Binding("u", "button('undo')", "UNDO"),
        Binding("U", "button('undo', True)", "UNDO held"),
        Binding("m", "button('menu')", "MENU"),
        *[Binding(str(k % 10), f"play_nth({k - 1})", show=False) for k in range(1, 11)],
        Binding("x", "fault('misread')", "misread"),
        Binding("c", "fault('crosstalk')", "crosstalk"),
        Binding("f", "fault('offline')", "reader off/on"),
        Binding("p", "fault('power')", "power cut"),
        Binding("space", "pause", "pause"),
        Binding("plus", "speed(0.5)", "faster", show=False),
        Binding("minus", "speed(2.0)", "slower", show=False),
        Binding("v", "reveal", "show hands"),
        Binding("q", "app.quit", "quit"),
    ]

    def __init__(self, sim: SimTable, config: SimConfig) -> None:
        super().__init__()
        self.sim = sim
        self.config = config
        self.paused = False
        self.blink = False
        self.cell = "half"
        self._hand_key: tuple[Any, ...] = ()
        self._generation = 0
        self._log_seen = 0
        self._buzz_seen = 0
        self._buzz_until = 0

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
            yield RichLog(id="log", wrap=True, markup=False)
        yield Static("", id="hand-title")
        yield Horizontal(id="hand")
        yield Static(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"cardtable simulator: {game_class(self.sim.settings.game).title}"
        self.sub_title = (f"{self.sim.settings.knowledge} table, "
                          f"language {self.sim.settings.language}")
        self.sim.start()
        self._timer = self.set_interval(max(self.config.pace, 0.05), self.tick)
        self.set_interval(0.4, self._blink)
        self._fit(self.app.size.width, self.app.size.height)
        self.refresh_table()

    # ----- the size of the terminal ------------------------------------------------------------

    #: Below this many columns or rows the OLED is drawn with 2x2-pixel cells.
    FULL_SIZE = (150, 52)

    def _fit(self, width: int, height: int) -> None:
        small = width < self.FULL_SIZE[0] or height < self.FULL_SIZE[1]
        self.cell = "quad" if small else "half"
        self.set_class(small, "small")

    def on_resize(self, event: Any) -> None:
        self._fit(event.size.width, event.size.height)
        self.refresh_table()

    # ----- the clock of the simulation --------------------------------------------------------

    def tick(self) -> None:
        if not self.paused:
            self.sim.advance()
        self.refresh_table()

    def _blink(self) -> None:
        self.blink = not self.blink
        self.refresh_leds()

    # ----- drawing ------------------------------------------------------------------------------

    def refresh_table(self) -> None:
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
        st = self.sim.state
        waiting = self.sim.waiting_for()
        who = "" if waiting is None else f", waiting for seat {waiting + 1}"
        faults = self.sim.faults
        tight = self.app.size.width < 100 or self.app.size.height < 34
        self.query_one("#status", Static).update(
            ("enlarge the window (at least 100x34)  |  " if tight else "") +
            f"{st}{who}  |  faults: {faults.misreads} misreads, {faults.crosstalk} crosstalk, "
            f"{faults.power_cuts} power cuts, readers off: "
            f"{sorted(s + 1 for s in faults.offline) or '-'}"
            f"{'  |  PAUSED' if self.paused else ''}")

    def refresh_leds(self) -> None:
        for seat in range(self.sim.players):
            panel = self.query_one(f"#seat-{seat}", Static)
            who = "you" if seat in self.sim.humans else f"bot ({self.config.bot})"
            text = Text.assemble(led_text(self.sim.seat_led(seat), self.blink),
                                 f" Seat {seat + 1}  ", (who, "italic"), "\n")
            cards = self.sim.hand_of(seat)
            if seat in self.sim.humans or self.config.show_all_hands:
                for c in cards:
                    text.append_text(card_label(c))
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
        if seat is None:
            title.update("Watching a bot match: SPACE pauses, + and - change the pace.")
            if self._hand_key:
                box.remove_children()
                self._hand_key = ()
            return
        cards = self.sim.hand_of(seat)
        key = (seat, tuple(c.code for c in cards))
        title.update(f"Your hand, seat {seat + 1}: click a card or press its number "
                     f"(it goes on your reader; shown cards go on the dealer's).")
        if key == self._hand_key:
            return
        self._hand_key = key
        self._generation += 1
        box.remove_children()
        box.mount_all([CardButton(c, i, self._generation) for i, c in enumerate(cards)])

    def _human_seat(self) -> int | None:
        if not self.sim.humans:
            return None
        waiting = self.sim.waiting_for()
        if waiting in self.sim.humans:
            return waiting
        return min(self.sim.humans)

    # ----- actions ------------------------------------------------------------------------------

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id or ""
        if isinstance(event.button, CardButton):
            self.action_play_nth(event.button.index)
        elif bid.startswith("btn-"):
            self.action_button(bid[4:])

    def action_button(self, name: str, long: bool = False) -> None:
        self.sim.press(name, long=long)
        self.refresh_table()

    def action_play_nth(self, index: int) -> None:
        seat = self._human_seat()
        if seat is None:
            return
        cards = self.sim.hand_of(seat)
        if 0 <= index < len(cards):
            self.sim.play(seat, cards[index])
        self.refresh_table()

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
        """`+` halves the time between moves, `-` doubles it."""
        self.config.pace = min(5.0, max(0.05, self.config.pace * factor))
        self._timer.stop()
        self._timer = self.set_interval(self.config.pace, self.tick)

    def action_reveal(self) -> None:
        self.config.show_all_hands = not self.config.show_all_hands
        self.refresh_table()


class SimApp(App[None]):
    """`cardtable sim`: see the module docstring."""

    CSS = """
    #setup { padding: 1 2; width: 90; }
    #seats { height: 4; }
    .seat { width: 1fr; border: round $panel; padding: 0 1; }
    .seat.turn { border: heavy $success; }
    #middle { height: 40; }
    #oled-box { width: 134; }
    #oled { width: 130; height: 34; border: heavy $primary; }
    TableScreen.small #middle { height: 1fr; }
    TableScreen.small #oled-box { width: 70; }
    TableScreen.small #oled { width: 66; height: 18; }
    #controls { height: 3; }
    #indicators { height: 1; }
    #log { width: 1fr; border: round $panel; }
    #hand { height: 3; }
    .card { min-width: 6; width: 7; }
    #status { height: 1; background: $panel; }
    """

    def __init__(self, config: SimConfig, ask_setup: bool = True) -> None:
        super().__init__()
        self.config = config
        self.ask_setup = ask_setup
        self.sim: SimTable | None = None
        self.voice: Any = None

    def on_mount(self) -> None:
        if self.ask_setup:
            self.push_screen(SetupScreen(self.config), self._start)
        else:
            self._start(self.config)

    def _start(self, config: SimConfig | None) -> None:
        if config is None:
            self.exit()
            return
        self.sim = SimTable(config.settings(), humans=config.humans, bot=config.bot,
                            seed=config.seed, state_dir=config.state_dir)
        if config.voice:
            from hw_mocks.simulator.voice import start_voice

            self.voice = start_voice(self.sim)
        self.push_screen(TableScreen(self.sim, config))

    def on_unmount(self) -> None:
        if self.voice is not None:
            self.voice.close()
        if self.sim is not None:
            self.sim.close()


__all__ = ["DEALER", "CardButton", "SimApp", "SimConfig", "card_label"]
