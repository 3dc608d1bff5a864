"""`cardtable run`: the table controller, on real hardware or on the fakes.

    cardtable run --hardware mock --events game.txt --state ./state
    cardtable run --hardware pi --config /etc/cardtable/config.toml

The hardware is a backend found by name (`table.backends`: `pi` in
`table.drivers`, `mock` in `hw_mocks`). With `--hardware mock` the
controller runs on the fakes, driven
by a timed events file (docs/events.md), in table time (no waiting), and
prints what the table does. The journal goes to `--state DIR`; run again on
the same folder and the table resumes where it stopped.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from table.choices import KNOWLEDGE_MODES, LANGUAGES

if TYPE_CHECKING:
    from table.backends import Backend


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "run",
        help="run the table controller (on the Pi, or on fake hardware from an events file)",
        description="Runs the table controller. --hardware pi drives the real table "
                    "(readers, OLED, LEDs, buzzer, buttons) as the configuration file "
                    "describes; --hardware mock drives the same controller on fakes, from "
                    "an events file (docs/events.md). The journal is kept in --state DIR; "
                    "on start the table resumes from it.",
    )
    p.add_argument("--hardware", default=None, metavar="{mock,pi}",
                   help="pi: the real table; mock: fake hardware (default: pi on a "
                        "Raspberry Pi, mock elsewhere; a backend by name, see "
                        "table.backends)")
    p.add_argument("--events", type=Path, metavar="FILE",
                   help="timed reader and button events to play (mock only)")
    p.add_argument("--state", type=Path, metavar="DIR",
                   help="folder for the journal and card registry (default: the "
                        "configuration's state_dir; with mock and no config, a temporary "
                        "folder that is deleted afterwards)")
    p.add_argument("--config", type=Path, metavar="PATH",
                   help="configuration file (default: /etc/cardtable/config.toml or "
                        "$CARDTABLE_CONFIG; needed for pi)")
    p.add_argument("--game", help="game for a new match (mock; overrides the configuration)")
    p.add_argument("--knowledge", choices=KNOWLEDGE_MODES,
                   help="how hands are known (mock; overrides the configuration)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a game option for a new match, e.g. match_length=3 (mock; "
                        "repeatable; docs/games.md lists them)")
    p.add_argument("--language", choices=LANGUAGES, help="language of the screen (mock)")
    p.add_argument("--seed", type=int,
                   help="seed for the first dealers of new matches (mock; reproducible runs)")
    p.add_argument("--frames", type=Path, metavar="DIR",
                   help="save every frame the display shows as a PNG in DIR (mock)")
    p.add_argument("--pace", type=float, default=0.0, metavar="SECONDS",
                   help="really wait this long after each event (mock; default 0)")
    p.add_argument("--voice", action="store_true",
                   help="the table speaks, as with [voice] enabled = true in the "
                        "configuration (espeak-ng; docs/setup.md)")
    p.add_argument("--quiet", action="store_true", help="print only the final summary")
    p.set_defaults(handler=run)


def on_a_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text(
            errors="replace").lower()
    except OSError:
        return False


def fail(text: str, status: int = 2) -> int:
    print(f"cardtable run: {text}", file=sys.stderr)
    return status


def say(text: str, *, flush: bool = False) -> None:
    """Print a line on stdout; when its reader has gone (`cardtable run ... |
    head`), stop printing quietly and let the table finish its work."""
    global _stdout_gone
    if _stdout_gone:
        return
    try:
        print(text, flush=flush)
    except BrokenPipeError:
        _stdout_gone = True
        # Later writes, and the interpreter's last flush, go nowhere instead of failing.
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):  # a stdout that is not a file (tests)
            pass
        finally:
            os.close(devnull)


_stdout_gone = False


def run(args: argparse.Namespace) -> int:
    from table.backends import BackendNotInstalled, load_backend

    hardware = args.hardware or ("pi" if on_a_pi() else "mock")
    if hardware == "pi":
        return run_pi(args)
    try:
        backend = load_backend(hardware)
    except BackendNotInstalled as exc:
        return fail(str(exc))
    return run_mock(args, backend)


def _load_config(path: Path | None, required: bool) -> Any:
    """The configuration, or None when none is asked for and the default is absent."""
    try:
        from table import config as config_module
    except ModuleNotFoundError:
        if required:
            raise RuntimeError("this version has no configuration support (table.config)"
                               ) from None
        return None
    command = "run" + (f" --config {path}" if path else "")
    _, explicit = config_module.resolve_path(path)
    if not explicit and not required and not config_module.exists(path, command=command):
        return None
    return config_module.load(path, command=command)


# ----- the real table -------------------------------------------------------------------

class EarlyPanel:
    """An I2C panel showing the first frame sent before the table loaded
    (`table.drivers.early_frame`): switched off again if the table then
    refuses to start before the display is opened for real."""

    def __init__(self, port: int, address: int) -> None:
        self.port, self.address = port, address

    def off(self) -> None:
        from table.drivers.early_frame import panel_off

        try:
            panel_off(self.port, self.address)
        except OSError:
            pass   # the bus is gone: nothing shows on the panel either


def early_starting(config_path: Path | None) -> EarlyPanel | None:
    """ "Starting…" on an I2C OLED the moment the table starts, before the
    configuration is checked and anything else is loaded (see
    `table.first_frame`): from the [display] and [table] language of the
    configuration file, read but not yet checked. None when the panel cannot
    be reached this way (SPI, no display, a rotation by 90°, a file the full
    check will refuse, no such bus): then the first frame comes once the
    display is open, as for every other frame."""
    from table.first_frame import panel_pages, peek_config, starting_rows

    seen = peek_config(config_path)
    d = seen.display if seen is not None else None
    if seen is None or d is None or d["interface"] != "i2c" or d["rotate"] not in (0, 2) \
            or d["driver"] not in ("ssd1306", "sh1106"):
        return None
    width, height = int(d["width"]), int(d["height"])
    rows = starting_rows(seen.language, seen.size)
    if rows is None:
        return None
    try:
        from table.drivers.early_frame import show_early_frame

        show_early_frame(str(d["driver"]), int(d["i2c_port"]), int(d["i2c_address"]),
                         width, height, int(d["contrast"]),
                         panel_pages(rows, width, height, int(d["rotate"])))
    except (ImportError, OSError, ValueError):
        return None   # smbus2 missing, no bus, no panel: said when the display opens
    return EarlyPanel(int(d["i2c_port"]), int(d["i2c_address"]))


def run_pi(args: argparse.Namespace) -> int:
    if args.events is not None:
        return fail("--events plays fake hardware: use it with --hardware mock")
    # the first frame, before the configuration is checked and the table loads
    return _run_pi(args, early_starting(args.config))


def _run_pi(args: argparse.Namespace, early: EarlyPanel | None) -> int:
    def refuse(text: str, status: int = 2) -> int:
        if early is not None:
            early.off()
        return fail(text, status)

    try:
        from table.config import ConfigError
    except ModuleNotFoundError:
        return refuse("this version has no configuration support (table.config); "
                      "use --hardware mock")
    try:
        config = _load_config(args.config, required=True)
    except ConfigError as exc:
        return refuse(str(exc))
    from table.backends import BackendNotInstalled, load_backend

    try:
        backend = load_backend("pi")
    except BackendNotInstalled as exc:
        return refuse(f"the hardware drivers are not available ({exc}); "
                      "use --hardware mock, or install cardtable[pi] on the Pi")
    state = args.state or Path(config.state_dir)
    try:
        # luma sets the panel up again and clears it: "Starting…" is shown once more
        ports = backend.open_ports(config, announce=lambda text: print(
            f"cardtable run: {text}", file=sys.stderr, flush=True),
            first_frame=lambda display: show_starting_frame(display, config.table.language))
    except ModuleNotFoundError as exc:
        return refuse(f"the hardware drivers are not available ({exc}); "
                      "use --hardware mock, or install cardtable[pi] on the Pi")
    except Exception as exc:  # the drivers' own errors name the part that failed
        return refuse(f"cannot start the hardware: {exc}", 1)
    # "Starting…" is on the screen: now the controller, the rules and the journal
    from table.controller import Controller
    from table.journal import JournalError
    from table.registry import RegistryError

    try:
        ctl = Controller.open(config.table, ports, state)
    except (JournalError, RegistryError) as exc:
        return _refuse(exc, ports.display, lambda: _close_pi_ports(ports))
    publisher = _join_club(config, ctl, state)
    voice = start_voice(config, ctl, args.voice)
    import signal
    import threading

    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    ctl.start()
    status = f"{len(config.seats)} seats, {ctl.session.selection.game}, {ctl.state}"
    say(f"cardtable run: ready ({status}); journal in {state}", flush=True)
    try:
        from table.sd_notify import supervise
    except ModuleNotFoundError:
        stop.wait()
    else:
        # READY=1 for systemd, then the watchdog fed only while the controller answers
        supervise(ctl.wait_idle, stop, status=status)
    _leave_club(publisher, ctl)
    ctl.close()
    if voice is not None:
        voice.close()
    backend.close_ports(ports)
    return 0


def start_voice(config: Any, ctl: Any, asked: bool = False) -> Any:
    """With `[voice] enabled = true` (or `--voice`: `asked`), the table speaks
    (docs/setup.md): the speaker, to close at the end; None without a voice,
    or when espeak-ng or aplay is missing (said, and the table plays on
    without it)."""
    voice = getattr(config, "voice", None)
    if voice is None:
        if not asked:
            return None      # no configuration: no voice, and its checks not loaded for it
        from table.config import VoiceConfig

        voice = VoiceConfig()
    if not (voice.enabled or asked):
        return None
    from table.drivers.voice import VoiceError, open_speaker
    from table.voice.announce import attach

    try:
        speaker = open_speaker(voice.device, rate=voice.rate, volume=voice.volume)
    except VoiceError as exc:
        say(f"cardtable run: [voice]: {exc}; playing without the voice", flush=True)
        return None
    attach(ctl, speaker, language=None if voice.language == "table" else voice.language,
           cards=voice.cards)
    say(f"cardtable run: the table speaks through ALSA device {voice.device}", flush=True)
    return speaker


def _close_pi_ports(ports: Any) -> None:
    from table.drivers import close_ports

    close_ports(ports)


def _refuse(exc: Exception, display: Any, close: Any) -> int:
    """The stored state cannot be trusted: say so (screen, log), change
    nothing, exit with the status that stops the service restarting."""
    from table.controller.refusal import EXIT_REFUSED, show_refusal

    try:
        show_refusal(display, exc)  # type: ignore[arg-type]  # any display port will do
    except Exception as shown:  # a display that fails must not hide the reason
        print(f"cardtable run: (the screen could not show this: {shown})", file=sys.stderr)
    text = str(exc)
    if "Nothing was changed" not in text:
        text += (" Nothing was changed; `cardtable journal check --state DIR` says what the "
                 "state folder holds, docs/setup.md how to restore a backup.")
    status = fail(f"refusing to start: {text}", EXIT_REFUSED)
    try:
        close()
    except Exception as closing:
        print(f"cardtable run: (closing the hardware: {closing})", file=sys.stderr)
    return status


def _join_club(config: Any, ctl: Any, state: Path) -> Any:
    """With a [club] section, publish the journal to the club's broker
    (docs/club.md); None without one, or without the club extra."""
    club = getattr(config, "club", None)
    if club is None:
        return None
    from table.controller.loop import JOURNAL_FILE

    try:
        from table.club.publisher import attach

        publisher = attach(ctl, club, state / JOURNAL_FILE)
    except ModuleNotFoundError as exc:
        say(f"cardtable run: [club] needs the club extra ({exc.name} is missing): "
            "pip install 'cardtable[club]'; playing without the club", flush=True)
        return None
    say(f"cardtable run: publishing to the club at {club.broker.url} as {club.table}",
        flush=True)
    return publisher


def _leave_club(publisher: Any, ctl: Any, wait: float = 0.0) -> None:
    """Stop publishing (after waiting up to `wait` s for the hub to hold everything)."""
    if publisher is None:
        return
    if wait and not publisher.wait_confirmed(ctl.session.seq, wait):
        say(f"cardtable run: the club hub holds entries up to {publisher.confirmed} of "
            f"{ctl.session.seq}; the table sends the rest when it next runs")
    publisher.stop()


# ----- the fake table -------------------------------------------------------------------

def mock_settings(args: argparse.Namespace) -> tuple[Any, Any]:
    """(TableSettings, config or None) for a mock run."""
    from table.settings import TableSettings

    config = _load_config(args.config, required=False) if args.config else None
    settings = config.table if config is not None else TableSettings(seat_names=())
    changes: dict[str, Any] = {}
    if args.game:
        changes["game"] = args.game
        changes["options"] = {}
    if args.option:
        options = dict(changes.get("options", settings.options))
        for item in args.option:
            name, sep, value = item.partition("=")
            if not sep or not name:
                raise ValueError(f"--option {item!r}: write NAME=VALUE, e.g. match_length=3")
            options[name.strip()] = _option_value(value.strip())
        changes["options"] = options
    if args.knowledge:
        changes["knowledge"] = args.knowledge
    if args.language:
        changes["language"] = args.language
    if changes:
        import dataclasses

        settings = dataclasses.replace(settings, **changes)
    return settings, config


def _option_value(text: str) -> Any:
    """An option's value as written: true/false, an integer, or text."""
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return int(text)
    except ValueError:
        return text


def _mock_first_frame(args: argparse.Namespace, backend: Backend) -> Any:
    """The fake display with "Starting…" on it, before the settings are
    checked and the rest of the fake table loads; None if the backend has
    no fake display."""
    from table.backends import BackendError
    from table.choices import DEFAULT_LANGUAGE, DEFAULT_SCREEN
    from table.first_frame import peek

    seen = peek(args.config) if args.config else None
    language = args.language or (seen.language if seen is not None else DEFAULT_LANGUAGE)
    size = seen.size if seen is not None else DEFAULT_SCREEN
    try:
        display = backend.fake_display(size)
    except BackendError:
        return None
    show_starting_frame(display, language)
    return display


def show_starting_frame(display: Any, language: str) -> None:
    """ "Starting…" on a display that takes images: the frame drawn ahead of
    time (`table.first_frame`) if there is one for its size, else drawn now."""
    from table.first_frame import starting_rows

    rows = starting_rows(language, display.size)
    if rows is None:
        from table.screens.starting import show_starting

        show_starting(display, language)
        return
    from PIL import Image

    display.show(Image.frombytes("1", display.size, rows))


def run_mock(args: argparse.Namespace, backend: Backend) -> int:
    from table.backends import BackendError

    # the first frame, before the settings, the controller, the rules and the journal load
    display = _mock_first_frame(args, backend)
    try:
        settings, config = mock_settings(args)
    except Exception as exc:  # ConfigError: every mistake, with its key
        return fail(str(exc))
    seats = len(config.seats) if config is not None else 6
    dealer = (config.dealer is not None) if config is not None else settings.has_dealer_reader
    if display is not None and display.size != tuple(settings.screen):
        display = None
    try:
        mock = backend.fake_table(seats, dealer, settings.screen, display=display)
    except BackendError as exc:
        return fail(str(exc))
    if display is None:
        show_starting_frame(mock.ports.display, settings.language)
    try:
        return _run_mock_table(args, settings, config, seats, dealer, mock)
    finally:
        mock.close()


def _run_mock_table(args: argparse.Namespace, settings: Any, config: Any, seats: int,
                    dealer: bool, mock: Any) -> int:
    from engine.errors import EngineError
    from table.controller import Controller
    from table.controller.session import Selection
    from table.events_script import EventsError, Player, load
    from table.journal import JournalError
    from table.registry import RegistryError

    try:
        Selection(settings.game, settings.options, settings.knowledge, settings.language).check()
    except (EngineError, ValueError) as exc:
        from table.commands.names import explain

        return fail(explain(exc))
    state = args.state
    if state is None and config is not None:
        state = Path(config.state_dir)
    events = []
    if args.events is not None:
        try:
            limits = _events_limits(settings, state, seats, dealer)
            events = load(args.events, seats, limits=limits)
        except EventsError as exc:
            return fail(str(exc))
    temp = None
    if state is None:
        import tempfile

        temp = tempfile.TemporaryDirectory(prefix="cardtable-")
        state = Path(temp.name)
        if not args.quiet:
            say(f"(no --state: the journal is kept in {state} until the end of this run)")
    import dataclasses
    import random

    settings = dataclasses.replace(settings, has_dealer_reader=dealer)
    seeds = random.Random(args.seed) if args.seed is not None else None
    try:
        ctl = Controller.open(settings, mock.ports, state,
                              seed_source=(lambda: seeds.randrange(2**62)) if seeds else None)
    except (JournalError, RegistryError) as exc:
        status = _refuse(exc, mock.display, lambda: None)
        if not args.quiet:
            say(mock.display.ascii())
        if temp is not None:
            temp.cleanup()
        return status
    publisher = _join_club(config, ctl, state)
    voice = start_voice(config, ctl, args.voice)
    resumed = ctl.session.seq
    if not args.quiet:
        if resumed:
            say(f"resumed from the journal (entry {resumed}): {ctl.state}")
        ctl.on_notice(lambda n: _print_notice(n, ctl))
    frames = _frame_saver(args.frames, mock) if args.frames else None
    player = Player(ctl, mock, ctl.registry)
    status = 0
    try:
        play(player, events, str(args.events), args.pace)
    except ImpossibleEvent as exc:
        status = fail(str(exc), 1)
    except JournalError as exc:
        status = fail(str(exc), 1)
    if ctl.failed:
        status = fail(ctl.failed, 1)
    say(f"state: {ctl.state}; journal: {ctl.session.seq} entries in {state}")
    if not args.quiet:
        say(mock.display.ascii())
    if frames is not None:
        say(f"{frames()} frames saved in {args.frames}")
    _leave_club(publisher, ctl, wait=10.0)
    ctl.close()
    if voice is not None:
        voice.wait()
        voice.close()
    if temp is not None:
        temp.cleanup()
    return status


def _events_limits(settings: Any, state: Path | None, seats: int, dealer: bool) -> Any:
    """What an events file is checked against: the table's readers, and the
    game the table plays when the file starts (the match or the game chosen
    in the state folder's journal, else the settings' game)."""
    from table.controller.loop import JOURNAL_FILE
    from table.controller.session import Selection
    from table.events_script import Limits
    from table.journal import Journal, JournalError

    selection = Selection(settings.game, settings.options, settings.knowledge,
                          settings.language)
    path = state / JOURNAL_FILE if state is not None else None
    if path is not None and path.is_file():
        try:
            journal = Journal(path, readonly=True)
            try:
                last = journal.last(("start", "select"))
            finally:
                journal.close()
            if last is not None:
                selection = Selection.from_json(last.data)
        except (JournalError, KeyError, TypeError, ValueError):
            pass  # the table itself says what is wrong with the journal
    try:
        game = selection.make_game()
    except Exception:  # an unknown game: checked and reported elsewhere
        return Limits(seats, dealer)
    return Limits(seats, dealer, game.players, game.pack, selection.game)


class ImpossibleEvent(ValueError):
    """An event of the file that cannot happen on the table as it is then."""


def play(player: Any, events: list[Any], source: str, pace: float = 0.0) -> None:
    """Play the events in order; stop at the first that cannot happen (a card
    arriving twice, leaving a reader it never reached), naming its line."""
    from table.events_script import describe

    for ev in events:
        try:
            player.play(ev)
        except ValueError as exc:
            raise ImpossibleEvent(
                f"{source}, line {ev.line}: `{describe(ev)}` cannot happen: "
                f"{str(exc).rstrip('.')}. "
                "The events before it were played (and kept in the journal); "
                "nothing after it was.") from None
        if pace:
            import time

            time.sleep(pace)


def _frame_saver(folder: Path, mock: Any) -> Any:
    folder.mkdir(parents=True, exist_ok=True)
    count = [0]

    def save(image: Any) -> None:
        count[0] += 1
        image.save(folder / f"frame-{count[0]:05d}.png")

    mock.display.on_frame(save)
    return lambda: count[0]


def _hand_words(ctl: Any, points: list[int]) -> str:
    """ "1+3: 5, 2+4: 3; 1+3 masters, 2+4 slaves": the teams by their seats,
    counted from 1 as the screen names them, and the match in words."""
    match = ctl.model.session.match
    if match is None:
        return f"points {points}"
    presenter = ctl.presenter
    names = presenter.team_names(match.game)
    if len(names) != len(points):
        names = [f"team {i + 1}" for i in range(len(points))]
    text = "points " + ", ".join(f"{nm}: {p}" for nm, p in zip(names, points, strict=False))
    status = presenter.status_text(match.game, match.state.standing())
    if match.over:
        status = ", ".join(x for x in (presenter.winner_text(match.game, match.state.to_json()),
                                       status) if x)
    return f"{text}; {status}" if status else text


def _print_notice(n: Any, ctl: Any) -> None:
    """One log line a person reads: seats as the screen names them (from 1)."""
    d = n.data
    if n.kind == "ignored":
        return
    seat = ctl.model.seat_name
    if n.kind == "accepted":
        what = d.get("card") or d.get("choice") or n.text
        say(f"seat {seat(d.get('seat'))}: {what} accepted")
    elif n.kind == "refused":
        say(f"refused: {n.text}")
    elif n.kind == "revoke":
        say(f"revoke: {n.text}")
    elif n.kind == "trick":
        say(f"trick {n.text}: seat {seat(d['winner'])} takes {d['points']} "
              f"({' '.join(d['cards'])})")
    elif n.kind == "hand":
        if "points" in d:
            say(f"hand {n.text}: {_hand_words(ctl, d['points'])}")
        else:
            say(f"hand {n.text}")
    elif n.kind == "undone":
        say(f"taken back: {n.text}")
    elif n.kind == "match" and n.text == "start":
        say(f"match {d.get('match')} starts: seat {seat(d.get('dealer'))} deals")
    elif n.kind == "match" and n.text == "over":
        say("match over")
    elif n.kind == "reader":
        from table.ports import DEALER

        place = d.get("place")
        where = ("the dealer's reader" if place == DEALER
                 else f"the reader of seat {seat(place)}")
        say(f"{where}: {n.text} {d.get('detail', '')}".rstrip())
    else:
        extra = " ".join(f"{k}={v}" for k, v in d.items())
        say(f"{n.kind} {n.text} {extra}".rstrip())
