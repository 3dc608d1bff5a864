"""The setup screen: the game, each of its options, how the table learns the
hands, the language, and who sits at each seat (you or a bot, and which).

Every option of the chosen game gets its own picker with the option's
one-line description and its default, from the game's own declarations
(`engine.options.OptionSpec`, found through the registry).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Footer, Header, Input, Label, Select

from engine.errors import EngineError
from engine.games import game_class, game_ids
from engine.options import OptionSpec
from hw_mocks.simulator.config import SimConfig
from hw_mocks.simulator.players import bot_names, describe
from table.settings import KNOWLEDGE_MODES, LANGUAGES

YOU = "you"
_KNOWLEDGE = {"open": "open: the table learns each hand as it is played",
              "scan": "scan: every player scans their cards before play",
              "dealt": "dealt: the dealer deals every card over a reader"}
_LANGUAGE_NAMES = {"en": "English", "ro": "Română", "hu": "Magyar"}


def show_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def option_picker(spec: OptionSpec, value: Any) -> Widget:
    """A Select for an option with choices, an integer box otherwise."""
    wid = f"opt-{spec.name}"
    if spec.choices:
        items = [(show_value(c) + ("  (default)" if c == spec.default else ""), i)
                 for i, c in enumerate(spec.choices)]
        current = spec.choices.index(value) if value in spec.choices else 0
        return Select(items, value=current, id=wid, allow_blank=False, classes="option")
    return Input(str(value), id=wid, type="integer", classes="option",
                 placeholder=f"{spec.minimum}..{spec.maximum}")


class SetupScreen(Screen[SimConfig]):
    """Choose game, options, knowledge mode, language and seats."""

    def __init__(self, config: SimConfig) -> None:
        super().__init__()
        self.config = config
        self._shown = ""

    def compose(self) -> ComposeResult:
        c = self.config
        yield Header(show_clock=False)
        with VerticalScroll(id="setup"):
            yield Label("Game", classes="head")
            yield Select([(f"{game_class(g).title}", g) for g in game_ids()],
                         value=c.game, id="game", allow_blank=False)
            yield Label("Options of this game (see docs/games.md)", classes="head")
            yield Vertical(id="options")
            yield Label("How the table learns the hands", classes="head")
            yield Select([(_KNOWLEDGE.get(k, k), k) for k in KNOWLEDGE_MODES],
                         value=c.knowledge, id="knowledge", allow_blank=False)
            yield Label("Language of the table", classes="head")
            yield Select([(_LANGUAGE_NAMES.get(lang, lang), lang) for lang in LANGUAGES],
                         value=c.language, id="language", allow_blank=False)
            yield Label("Who sits where (no seat for you: watch the bots play)",
                        classes="head")
            yield Horizontal(Label("All bots play  "),
                             Select([(f"{n}: {describe(n)}", n) for n in bot_names()],
                                    value=c.bot_for(-1), id="all-bots", allow_blank=False),
                             id="all-bots-row")
            yield Vertical(id="seats")
            yield Label("Seed (empty: a new random deal; the table shows the seed it "
                        "used, and the same seed deals the same cards)", classes="head")
            yield Input("" if c.seed is None else str(c.seed), id="seed", type="integer",
                        placeholder="a new random deal")
            yield Label("", id="problem")
            yield Button("Start", id="start", variant="primary")
        yield Footer()

    async def on_mount(self) -> None:
        self.title = "cardtable simulator: setup"
        await self._fill(self.config.game)

    # ----- the parts that depend on the game ------------------------------------------------

    async def _fill(self, game: str) -> None:
        if game == self._shown:
            return
        self._shown = game
        cls = game_class(game)
        options = self.query_one("#options", Vertical)
        await options.remove_children()
        given = self.config.options if game == self.config.game else {}
        rows: list[Widget] = []
        for spec in cls.option_specs:
            value = given.get(spec.name, spec.default)
            rows.append(Label(Text.assemble((spec.name, "bold"), f": {spec.doc} ",
                                            (f"(default {show_value(spec.default)})",
                                             "grey62")), classes="doc"))
            rows.append(option_picker(spec, value))
        if not rows:
            rows.append(Label("This game has no options."))
        await options.mount_all(rows)
        seats = self.query_one("#seats", Vertical)
        await seats.remove_children()
        choices = [("you", YOU), *[(f"bot: {n}", n) for n in bot_names()]]
        humans = self.config.humans if game == self.config.game else (0,)
        rows = []
        for s in range(cls.players):
            value = YOU if s in humans else self.config.bot_for(s)
            rows.append(Horizontal(Label(f"Seat {s + 1}  "),
                                   Select(choices, value=value, id=f"seat-{s}",
                                          allow_blank=False), classes="seat-row"))
        await seats.mount_all(rows)

    @on(Select.Changed, "#game")
    async def _game_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            await self._fill(event.value)

    @on(Select.Changed, "#all-bots")
    def _all_bots(self, event: Select.Changed) -> None:
        for sel in self.query("#seats Select").results(Select):
            if sel.value != YOU:
                sel.value = event.value

    # ----- start ------------------------------------------------------------------------------

    def read_options(self, game: str) -> dict[str, Any]:
        """The options as picked (only those that differ from the default);
        a clear error for an integer out of range."""
        out: dict[str, Any] = {}
        for spec in game_class(game).option_specs:
            if spec.choices:
                index = self.query_one(f"#opt-{spec.name}", Select).value
                value: Any = spec.choices[int(str(index))]
            else:
                text = self.query_one(f"#opt-{spec.name}", Input).value.strip()
                try:
                    value = int(text)
                except ValueError:
                    raise ValueError(f"{spec.name}: write a whole number "
                                     f"({spec.allowed()})") from None
            if value != spec.default:
                out[spec.name] = value
        try:
            game_class(game)(out)
        except EngineError as err:
            raise ValueError(err.message()) from None
        return out

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id != "start":
            return
        problem = self.query_one("#problem", Label)
        game = str(self.query_one("#game", Select).value)
        try:
            options = self.read_options(game)
        except ValueError as err:
            problem.update(Text(str(err), style="bold red"))
            return
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            problem.update(Text("The seed is a whole number (or empty for a new deal).",
                                style="bold red"))
            return
        humans: list[int] = []
        bots: dict[int, str] = {}
        for s in range(game_class(game).players):
            who = str(self.query_one(f"#seat-{s}", Select).value)
            if who == YOU:
                humans.append(s)
            else:
                bots[s] = who
        c = self.config
        c.game = game
        c.options = options
        c.knowledge = str(self.query_one("#knowledge", Select).value)
        c.language = str(self.query_one("#language", Select).value)
        c.humans = tuple(humans)
        c.bot = bots
        c.show_all_hands = not humans
        c.seed = seed
        self.dismiss(c)
