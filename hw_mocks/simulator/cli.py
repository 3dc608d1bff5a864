"""`cardtable sim`: parse the command line and run the simulator, in a terminal
window (Textual) or headless."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--demo", action="store_true",
                   help="bots play a whole match hands-free (at a watchable pace)")
    p.add_argument("--fast", action="store_true",
                   help="bots move at once, with no pause after a trick (the old speed)")
    p.add_argument("--voice", action="store_true",
                   help="the table speaks (espeak-ng through the sound output), as a real "
                        "table with [voice] on")
    p.add_argument("--headless", action="store_true",
                   help="no window: play the demo (or replay --script) and print a summary")
    p.add_argument("--script", type=Path, metavar="FILE",
                   help="replay a recorded match (the format of `cardtable export`); "
                        "exit status 0 when the replay matches it")
    p.add_argument("--frames", type=Path, metavar="DIR",
                   help="write every OLED frame as PNG, and match.gif, into DIR")
    p.add_argument("--expect-frames", type=Path, metavar="DIR",
                   help="with --script: the replay matches only if its OLED frames are "
                        "the ones recorded in DIR, frame for frame")
    p.add_argument("--export", type=Path, metavar="FILE",
                   help="after a headless demo, write the match as `cardtable export` would")
    p.add_argument("--game", help="game id (see docs/games.md); without it you choose at start")
    p.add_argument("--options", default="{}", help='variant options as JSON, e.g. '
                   '\'{"match_length": 4}\'')
    p.add_argument("--knowledge", choices=("scan", "dealt", "open"), default=None,
                   help="how the table learns the hands (default: open; for --script, "
                        "scan when the file holds the hands, else open)")
    p.add_argument("--lang", choices=("en", "ro", "hu"), default="en",
                   help="language of the table's screen")
    p.add_argument("--seat", type=int, default=1,
                   help="the seat you play, counted from 1 (default 1); the others are bots")
    p.add_argument("--bot", default="simple",
                   help="how the bots play: simple (the default), random, or the sampled "
                        "bot's levels easy, good, strong, reading, careful (see docs/simulator.md)")
    p.add_argument("--seed", type=int, default=None,
                   help="shuffle seed: the same seed deals the same cards (default: a new "
                        "random deal each run, its seed shown on the screen)")
    p.add_argument("--state", type=Path, metavar="DIR",
                   help="keep the table's journal here (a power cut resumes from it)")
    p.add_argument("--club", metavar="URL",
                   help="publish the table's journal to a club hub's broker, e.g. "
                        "mqtt://127.0.0.1:1883 (see docs/club.md)")
    p.add_argument("--table-name", default="sim",
                   help="the table's name in the club room (default: sim)")


def run(args: argparse.Namespace) -> int:
    try:
        options = json.loads(args.options)
        if not isinstance(options, dict):
            raise ValueError
    except ValueError:
        print(f"cardtable sim: --options must be a JSON object, not {args.options!r}",
              file=sys.stderr)
        return 2
    if args.script is not None:
        return _replay(args)
    args.knowledge = args.knowledge or "open"
    game = args.game or "filicau"
    try:
        _check(game, options, args.seat, args.demo)
        _check_bot(args.bot)
        args.seed = seed_for(args.seed, args.state)
    except (ValueError, OSError) as err:
        print(f"cardtable sim: {err}", file=sys.stderr)
        return 2
    club = None
    if args.club:
        from hw_mocks.simulator.club import club_config

        try:
            club = club_config(args.club, args.table_name)
        except ValueError as err:
            print(f"cardtable sim: {err}", file=sys.stderr)
            return 2
    if club is not None and args.demo and args.headless:
        return _club_demo(args, game, options, club)
    if args.demo and (args.headless or args.frames or args.export):
        return _headless_demo(args, game, options)
    if args.headless or args.frames or args.export:
        print("cardtable sim: --headless, --frames and --export go with --demo or --script",
              file=sys.stderr)
        return 2
    if not sys.stdout.isatty():
        print("cardtable sim: the simulator needs a terminal window; for a run without "
              "one, use --demo --headless (or --script FILE)", file=sys.stderr)
        return 2
    from hw_mocks.simulator.app import SimApp, SimConfig
    from hw_mocks.simulator.pace import Pace

    config = SimConfig(game=game, options=options, knowledge=args.knowledge,
                       language=args.lang, humans=() if args.demo else (args.seat - 1,),
                       bot=args.bot, seed=args.seed,
                       pace=Pace.fast() if args.fast else Pace.human(),
                       show_all_hands=args.demo,
                       state_dir=str(args.state) if args.state else None,
                       voice=args.voice)
    if club is not None:
        from hw_mocks.simulator.club_app import ClubSimApp

        ClubSimApp(config, club, ask_setup=not args.demo and args.game is None).run()
        return 0
    SimApp(config, ask_setup=not args.demo and args.game is None).run()
    return 0


def _club_demo(args: argparse.Namespace, game: str, options: dict[str, Any],
               club: Any) -> int:
    from hw_mocks.simulator.club import club_demo
    from hw_mocks.simulator.headless import demo_settings

    settings = demo_settings(game, options, args.knowledge, args.lang)
    sim, confirmed = club_demo(settings, club, seed=args.seed, state_dir=args.state)
    try:
        print(f"{game}: {sim.state}; {sim.rig.session.seq} journal entries published as "
              f"table {club.table} to {club.broker.url}: "
              + ("the hub holds them all" if confirmed else "the hub did not confirm them all"))
        return 0 if sim.state == "match_over" and confirmed else 1
    finally:
        sim.close()


#: The file in a --state folder that keeps the seed of its match.
SEED_FILE = "sim-seed"


def seed_for(given: int | None, state: Path | None) -> int:
    """The seed to deal with: the one given; else the one a --state folder
    keeps (a restarted simulator deals the same cards); else a new one (kept
    in the --state folder when there is one)."""
    from hw_mocks.simulator.config import new_seed

    kept = state / SEED_FILE if state is not None else None
    if given is not None:
        seed = given
    elif kept is not None and kept.is_file():
        try:
            return int(kept.read_text().strip())
        except ValueError:
            raise ValueError(f"{kept} should hold a seed (a whole number); remove it or "
                             f"pass --seed") from None
    else:
        seed = new_seed()
    if kept is not None:
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_text(f"{seed}\n")
    return seed


def _check_bot(name: str) -> None:
    from hw_mocks.simulator.players import bot_names

    if name not in bot_names():
        raise ValueError(f"no bot called {name!r}; there are: {', '.join(bot_names())}")


def _check(game: str, options: dict[str, Any], seat: int, demo: bool) -> None:
    from engine.errors import EngineError
    from engine.games import game_class

    try:
        cls = game_class(game)
        cls(options)
    except EngineError as err:
        from table.commands.names import explain

        raise ValueError(explain(err)) from None
    if not demo and not 1 <= seat <= cls.players:
        raise ValueError(f"{game} has seats 1..{cls.players}, not {seat}")


def _headless_demo(args: argparse.Namespace, game: str, options: dict[str, Any]) -> int:
    from hw_mocks.simulator.headless import demo_settings, run_demo

    settings = demo_settings(game, options, args.knowledge, args.lang)
    sim = run_demo(settings, seed=args.seed, frames=args.frames, export=args.export,
                   bot=args.bot, state_dir=args.state)
    try:
        match = sim.match
        state = match.state.to_json() if match is not None else {}
        print(f"{game}: {sim.state}; final state {json.dumps(state)}; seed {args.seed}")
        if match is not None:     # the same in words: seats and teams as people count them
            print("  " + sim.rig.ctl.presenter.match_words(match))
        for line in sim.log:
            if line.kind == "error":
                print(f"  refused: {line.text}")
        if args.frames:
            print(f"frames and match.gif written to {args.frames}")
        return 0 if sim.state == "match_over" else 1
    finally:
        sim.close()


def _replay(args: argparse.Namespace) -> int:
    from hw_mocks.simulator.headless import ScriptError, replay

    try:
        result = replay(args.script, frames=args.frames, knowledge=args.knowledge,
                        language=args.lang, expect_frames=args.expect_frames)
    except (ScriptError, OSError) as err:
        print(f"cardtable sim: {err}", file=sys.stderr)
        return 2
    if result.matched:
        print(f"replay matched: {len(result.expected)} requests"
              + (f", {result.frames} frames in {args.frames}" if args.frames else ""))
        return 0
    print("replay did NOT match:", file=sys.stderr)
    for p in result.problems:
        print(f"  {p}", file=sys.stderr)
    return 1
