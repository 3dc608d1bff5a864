"""The simulator without a window: a bot match played out, or an exported
match replayed, with every OLED frame written to a folder.

A replay makes at the fake table exactly the moves the export records: the
cards that fixed trumps shown on the dealer's reader, each hand's cards tapped
(when the export holds the hands, as a `scan` table learns them), every play
on its seat's reader, OK between hands. It then exports what the table
recorded and compares: the replay matched when the two are the same.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import get_game
from engine.cards import Card
from hw_mocks.simulator.driver import SimTable
from hw_mocks.simulator.recorder import FrameRecorder
from table.controller.rig import Rig
from table.export import export_match
from table.ports import DEALER
from table.settings import TableSettings

#: Hands a demo of a game with no end of its own plays (Filicău has none).
DEMO_HANDS = 3


def demo_settings(game: str, options: dict[str, Any] | None = None, knowledge: str = "open",
                  language: str = "en") -> TableSettings:
    """Settings for a demo: a game with no end of its own gets `DEMO_HANDS` hands."""
    opts = dict(options or {})
    specs = {s.name for s in get_game(game, opts).option_specs}
    if "match_length" in specs and not opts.get("match_length"):
        opts["match_length"] = DEMO_HANDS
    return TableSettings(game=game, options=opts, knowledge=knowledge,  # type: ignore[arg-type]
                         language=language)  # type: ignore[arg-type]


def attach_recorder(sim_or_rig: SimTable | Rig, recorder: FrameRecorder,
                    duration_ms: Callable[[], int] = lambda: 600) -> None:
    rig = sim_or_rig.rig if isinstance(sim_or_rig, SimTable) else sim_or_rig
    rig.display.on_frame(lambda img: recorder.add(img, duration_ms()))


def run_demo(settings: TableSettings, seed: int = 1, frames: Path | None = None,
             export: Path | None = None, bot: str = "simple",
             state_dir: Path | None = None, max_moves: int = 20_000) -> SimTable:
    """Bots play a whole match. Returns the finished simulator (close it)."""
    sim = SimTable(settings, humans=(), bot=bot, seed=seed, state_dir=state_dir)
    recorder = FrameRecorder(frames) if frames is not None else None
    if recorder is not None:
        attach_recorder(sim, recorder)
    sim.start()
    sim.run_bots(limit=max_moves)
    if recorder is not None:
        recorder.close()
    if export is not None:
        write_export(sim.rig, export)
    return sim


def write_export(rig: Rig, path: Path) -> list[dict[str, Any]]:
    lines = list(export_match(rig.ctl.journal))
    Path(path).write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines),
                          encoding="utf-8")
    return lines


@dataclass
class ReplayResult:
    matched: bool
    expected: list[dict[str, Any]]
    got: list[dict[str, Any]]
    problems: list[str] = field(default_factory=list)
    frames: int = 0


class ScriptError(ValueError):
    """An export file that cannot be replayed; says which line and why."""


def read_script(path: Path) -> list[dict[str, Any]]:
    out = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            raise ScriptError(f"{path}:{n}: not a JSON object") from None
        if not isinstance(obj, dict) or obj.get("op") not in ("new_hand", "play"):
            raise ScriptError(f"{path}:{n}: expected a new_hand or play request "
                              f"(the format of `cardtable export`)")
        out.append(obj)
    if not out or out[0]["op"] != "new_hand":
        raise ScriptError(f"{path}: the first request must be a new_hand")
    return out


def _seed_for_dealer(game_id: str, options: dict[str, Any], dealer: int) -> int:
    """A match seed whose first dealer is `dealer` (the replay starts where
    the recorded match started)."""
    game = get_game(game_id, options)
    for seed in range(10_000):
        if game.new_match(random.Random(seed)).dealer == dealer:
            return seed
    raise ScriptError(f"no seed gives dealer {dealer}")


def replay(script: Path, frames: Path | None = None, knowledge: str | None = None,
           language: str = "en") -> ReplayResult:
    """Replay an exported match at a fake table; see the module docstring."""
    requests = read_script(script)
    first = requests[0]
    game_id = str(first["game"])
    options = dict(first.get("options") or {})
    if knowledge is None:
        knowledge = "scan" if "hands" in first else "open"
    settings = TableSettings(game=game_id, options=options, knowledge=knowledge,  # type: ignore[arg-type]
                             language=language)  # type: ignore[arg-type]
    seed = _seed_for_dealer(game_id, options, int(first["state"]["dealer"]))
    game = get_game(game_id, options)
    rig = Rig(settings, seats=game.players, seed=0, seed_source=lambda: seed)
    recorder = FrameRecorder(frames) if frames is not None else None
    if recorder is not None:
        attach_recorder(rig, recorder)
    problems: list[str] = []
    try:
        rig.press("ok")
        for hand_reqs in _hands(requests):
            problems += _replay_hand(rig, game.pack.copies, knowledge, hand_reqs)
            if problems:
                break
            if rig.state == "match_result":
                rig.press("ok")
        got = list(export_match(rig.ctl.journal))
    finally:
        if recorder is not None:
            recorder.close()
        rig.close()
    if not problems and got != requests:
        for i, (a, b) in enumerate(zip(requests, got, strict=False)):
            if a != b:
                problems.append(f"request {i + 1} differs: recorded {a}, replayed {b}")
                break
        else:
            problems.append(f"recorded {len(requests)} requests, replayed {len(got)}")
    return ReplayResult(not problems, requests, got, problems,
                        len(recorder.frames) if recorder else 0)


def _hands(requests: list[dict[str, Any]]) -> Iterable[list[dict[str, Any]]]:
    hand: list[dict[str, Any]] = []
    for r in requests:
        if r["op"] == "new_hand" and hand:
            yield hand
            hand = []
        hand.append(r)
    if hand:
        yield hand


def _replay_hand(rig: Rig, copies: int, knowledge: str, reqs: list[dict[str, Any]]
                 ) -> list[str]:
    head, plays = reqs[0], reqs[1:]
    game = rig.ctl.session.match.game
    pack = game.pack
    used: dict[Card, int] = {}

    def uid(c: Card) -> str:
        used[c] = used.get(c, 0) + 1
        return rig.uid_of(c, min(used[c], copies))

    stickers: dict[tuple[int, Card], list[str]] = {}
    if "hands" in head:
        hands = [[pack.parse(c) for c in h] for h in head["hands"]]
        for seat, h in enumerate(hands):
            for c in h:
                stickers.setdefault((seat, c), []).append(uid(c))
        hand = rig.ctl.session.hand()
        if knowledge == "scan":
            for seat, h in enumerate(hands):
                for c in h:
                    rig.player.tap(seat, stickers[(seat, c)][0])
        elif knowledge == "dealt":
            given = [0] * game.players
            place = DEALER if rig.settings.has_dealer_reader else hand.dealer
            for seat in hand.order:
                c = hands[seat][given[seat]]
                given[seat] += 1
                rig.player.tap(place, stickers[(seat, c)][0])

    def sticker(seat: int | None, c: Card) -> str:
        for key in ([(seat, c)] if seat is not None else []) + \
                [(s, c) for s in range(game.players)]:
            if stickers.get(key):
                return stickers[key][0]
        found = uid(c)
        if seat is not None:
            stickers.setdefault((seat, c), []).append(found)
        return found

    shown = [pack.parse(c) for c in head.get("shown", [])]
    place = DEALER if rig.settings.has_dealer_reader else rig.ctl.session.hand().dealer
    hand = rig.ctl.session.hand()
    if hand.flow is not None and hand.flow.pending().kind == "show":
        for c in shown:
            rig.player.tap(place, sticker(None, c))
    for n, p in enumerate(plays, 1):
        c = pack.parse(p["card"])
        seat = int(p["seat"])
        hand = rig.ctl.session.hand()
        before = len(hand.actions)
        s = sticker(seat, c)
        rig.player.tap(seat, s)
        hand = rig.ctl.session.hand()
        if hand is None or len(hand.actions) == before:
            notes = [getattr(x, "text", str(x)) for x in list(rig.ctl.notices)[-2:]]
            return [f"play {n} of the hand (seat {seat}, {c}) was refused: {notes}"]
        for key in [(seat, c)]:
            if stickers.get(key):
                stickers[key].pop(0)
    return []
