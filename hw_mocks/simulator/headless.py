"""The simulator without a window: a bot match played out, or an exported
match replayed, with every OLED frame written to a folder.

A replay makes at the fake table exactly the moves the export records: the
cards that fixed trumps shown on the dealer's reader, each hand's cards tapped
(when the export holds the hands, as a `scan` or `dealt` table learns them),
every play on its seat's reader, each game's own steps as players make them
(a called card or a binding chosen with MENU and OK, an Over or a proof
tapped on the seat's reader: `_STEP_OPS`), OK between hands. It then exports
what the table recorded and compares: the replay matched when the two are the
same.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PIL import Image

from engine import get_game
from engine.cards import Card
from engine.errors import EngineError
from hw_mocks.rig import Rig
from hw_mocks.simulator.driver import SimTable
from hw_mocks.simulator.recorder import FrameRecorder
from table.export import export_match
from table.ports import DEALER
from table.settings import TableSettings, knowledge_mode, language_code

if TYPE_CHECKING:
    from table.controller.session import Match
    from table.journal import Journal

#: Hands a demo of a game with no end of its own plays (Filicău has none).
DEMO_HANDS = 3


def demo_settings(game: str, options: dict[str, Any] | None = None, knowledge: str = "open",
                  language: str = "en") -> TableSettings:
    """Settings for a demo: a game with no end of its own gets `DEMO_HANDS` hands."""
    opts = dict(options or {})
    specs = {s.name for s in get_game(game, opts).option_specs}
    if "match_length" in specs and not opts.get("match_length"):
        opts["match_length"] = DEMO_HANDS
    return TableSettings(game=game, options=opts, knowledge=knowledge_mode(knowledge),
                         language=language_code(language))


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


def _journal(rig: Rig) -> Journal:
    journal = rig.ctl.journal
    if journal is None:   # a Rig always keeps one, in its state folder
        raise ScriptError("the table keeps no journal")
    return journal


def _match(rig: Rig) -> Match:
    """The match going at the table; a script that expects one where the
    table has none does not match what the table does."""
    match = rig.ctl.session.match
    if match is None:
        raise Refused(f"the table has no match going (it is in {rig.state})")
    return match


def write_export(rig: Rig, path: Path) -> list[dict[str, Any]]:
    lines = list(export_match(_journal(rig)))
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


#: The requests `cardtable export` writes: a hand's `new_hand`, its plays, and
#: the games' own steps (table.referee.extras), each replayed by `_STEP_OPS`.
SCRIPT_OPS = ("new_hand", "play", "servant", "call", "fris", "bind", "redeal", "denounce",
              "meld", "draw")


def read_script(path: Path) -> list[dict[str, Any]]:
    out = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            raise ScriptError(f"{path}:{n}: not a JSON object") from None
        if not isinstance(obj, dict) or obj.get("op") not in SCRIPT_OPS:
            raise ScriptError(f"{path}:{n}: expected a new_hand or play request, or a "
                              f"game's step ({', '.join(SCRIPT_OPS[2:])}): the format of "
                              f"`cardtable export`")
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
           language: str = "en", expect_frames: Path | None = None) -> ReplayResult:
    """Replay an exported match at a fake table; see the module docstring.

    With `expect_frames` (a folder of `frame_*.png` recorded when the match
    was played) the replay matches only if its frames are the same, frame for
    frame. The export does not hold refused taps, nor the knowledge mode and
    language: pass the same `knowledge` and `language` as when it was played."""
    requests = read_script(script)
    if expect_frames is not None and frames is None:
        import tempfile

        frames = Path(tempfile.mkdtemp(prefix="cardtable-replay-"))
    first = requests[0]
    game_id = str(first["game"])
    options = dict(first.get("options") or {})
    if knowledge is None:
        knowledge = "scan" if "hands" in first else "open"
    try:
        game = get_game(game_id, options)
        settings = TableSettings(game=game_id, options=options,
                                 knowledge=knowledge_mode(knowledge),
                                 language=language_code(language))
    except (EngineError, ValueError) as exc:
        raise ScriptError(f"{script}: {exc}") from None
    seed = _seed_for_dealer(game_id, options, int(first["state"]["dealer"]))
    rig = Rig(settings, seats=game.players, seed=0, seed_source=lambda: seed)
    recorder = FrameRecorder(frames) if frames is not None else None
    if recorder is not None:
        attach_recorder(rig, recorder)
    problems: list[str] = []
    try:
        rig.press("ok")
        for hand_reqs in _hands(requests):
            problems += _replay_hand(rig, knowledge, hand_reqs)
            if problems:
                break
            if rig.state == "match_result":
                rig.press("ok")
        got = list(export_match(_journal(rig)))
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
    if not problems and expect_frames is not None and frames is not None:
        problems += compare_frames(Path(expect_frames), Path(frames))
    return ReplayResult(not problems, requests, got, problems,
                        len(recorder.frames) if recorder else 0)


def compare_frames(expected: Path, got: Path) -> list[str]:
    """The first difference between two folders of recorded frames, if any."""
    want = sorted(expected.glob("frame_*.png"))
    have = sorted(got.glob("frame_*.png"))
    if not want:
        return [f"{expected} holds no frame_*.png to compare with"]
    for a, b in zip(want, have, strict=False):
        with Image.open(a) as x, Image.open(b) as y:
            if x.size != y.size or x.convert("1").tobytes() != y.convert("1").tobytes():
                return [f"frame {a.name} differs from the replay's {b.name}"]
    if len(want) != len(have):
        return [f"recorded {len(want)} frames, replayed {len(have)}"]
    return []


def _hands(requests: list[dict[str, Any]]) -> Iterable[list[dict[str, Any]]]:
    hand: list[dict[str, Any]] = []
    for r in requests:
        if r["op"] == "new_hand" and hand:
            yield hand
            hand = []
        hand.append(r)
    if hand:
        yield hand


class Refused(Exception):
    """The table did not take a move of the replay."""


class _Hands:
    """The moves of one hand at the fake table: cards tapped on readers (each
    with a sticker the table will take), choices made with MENU and OK."""

    def __init__(self, rig: Rig) -> None:
        self.rig = rig
        self.game = _match(rig).game
        self.pack = self.game.pack

    @property
    def hand(self) -> Any:
        return self.rig.ctl.session.hand()

    def step(self) -> Any:
        return self.hand.step()

    def card(self, code: str) -> Card:
        return self.pack.parse(code)

    def sticker(self, seat: int | None, c: Card, kind: str) -> str:
        """A sticker of `c` the table takes for a step of `kind`: the one read
        for `seat` while learning the hands, else one not on the table (and,
        to show or tap a card, not already shown), cards nobody holds first."""
        hand = self.hand
        stickers = [self.rig.uid_of(c, k) for k in range(1, self.pack.copies + 1)]
        used = hand.used_uids() if kind in ("show", "card") else set()
        free = [u for u in stickers if u not in used and not hand.on_the_table(u, c)]
        mine: list[str] = [r.uid for r in hand.reads if r.card == c and r.seat == seat]
        held = hand.read_uids()
        for u in [*mine, *(u for u in free if u not in held), *free]:
            if u in free:
                return u
        return stickers[0]

    def _moved(self, what: str, move: Any) -> None:
        hand = self.hand
        before = len(hand.actions)
        move()
        if self.rig.ctl.session.match is None or self.hand is not hand \
                or len(hand.actions) == before:
            notes = [getattr(x, "text", str(x)) for x in list(self.rig.ctl.notices)[-2:]]
            raise Refused(f"{what} was not taken: {notes}")

    def tap(self, seat: int | None, code: str, place: int | None = None) -> None:
        """`seat` taps a card on its reader (`place`: another reader)."""
        c = self.card(code)
        step = self.step()
        if step is None:
            raise Refused(f"the table takes no card now (it is in {self.rig.state})")
        kind = step.kind
        uid = self.sticker(seat, c, kind)
        where = place if place is not None else seat
        assert where is not None
        self._moved(f"{c} at reader {where}", lambda: self.rig.player.tap(where, uid))

    def choose(self, choice: str) -> None:
        """Move the choice cursor to `choice` with MENU, then press OK."""
        step = self.step()
        if choice not in step.choices:
            raise Refused(f"the table does not offer {choice!r} now (it offers "
                          f"{', '.join(step.choices) or 'nothing'})")

        def take() -> None:
            model = self.rig.ctl.model
            if model.overlay is not None:
                self.rig.press("ok")       # the first OK only takes the message away
            for _ in range(len(step.choices)):
                if step.choices[model.choice_cursor()] == choice:
                    break
                self.rig.press("menu")
            self.rig.press("ok")

        self._moved(f"the choice {choice!r}", take)

    def show(self, codes: list[str]) -> None:
        """The cards that fix trumps, shown while the hand waits for them."""
        for code in codes:
            step = self.step()
            if step is None or step.kind != "show":
                return
            place = DEALER if self.rig.settings.has_dealer_reader else step.seat
            self.tap(step.seat, code, place)


def _learn(rig: Rig, knowledge: str, head: dict[str, Any]) -> None:
    """A scan or dealt table reads the hands of the `new_hand`."""
    if "hands" not in head:
        return
    game = _match(rig).game
    pack = game.pack
    hands = [[pack.parse(c) for c in h] for h in head["hands"]]
    copies: dict[Card, int] = {}
    stickers: list[list[str]] = []
    for h in hands:
        stickers.append([])
        for c in h:
            copies[c] = copies.get(c, 0) + 1
            stickers[-1].append(rig.uid_of(c, min(copies[c], pack.copies)))
    hand = rig.ctl.session.hand()
    if knowledge == "scan":
        for seat, uids in enumerate(stickers):
            for uid in uids:
                rig.player.tap(seat, uid)
    elif knowledge == "dealt":
        given = [0] * game.players
        place = DEALER if rig.settings.has_dealer_reader else hand.dealer
        for seat in hand.order:
            rig.player.tap(place, stickers[seat][given[seat]])
            given[seat] += 1


# ----- each request's moves at the table ---------------------------------------------------

def _play(t: _Hands, r: dict[str, Any]) -> None:
    t.tap(int(r["seat"]), r["card"])


def _servant(t: _Hands, r: dict[str, Any]) -> None:
    t.choose(str(r["servant"]))


def _call(t: _Hands, r: dict[str, Any]) -> None:
    if "card" in r:
        t.choose(t.card(r["card"]).suit)
        t.choose(t.card(r["card"]).code)
    else:
        t.choose(str(r["trump"]))


def _fris(t: _Hands, r: dict[str, Any]) -> None:
    seat = int(r["seat"])
    if "card" in r:
        t.tap(seat, r["card"])
    elif "turn" in r:
        t.choose("turn")
        for code in r["turn"]:
            t.tap(t.step().seat, code)
    elif "trump" in r:
        t.choose(str(r["trump"]))
    else:
        t.choose("deal" if r.get("deal") else "pass")


def _bind(t: _Hands, r: dict[str, Any]) -> None:
    seat = int(r["seat"])
    if "call" in r:
        call = str(r["call"])
        t.choose(call if call in ("pass", "closed") else f"bind:{call}")
    elif "hand" in r:
        for code in r["hand"]:
            t.tap(seat, code)
    elif "trump" in r:
        t.choose(str(r["trump"]))
    else:
        t.choose("withdraw")


def _redeal(t: _Hands, r: dict[str, Any]) -> None:
    seat = int(r["seat"])
    t.choose(f"redeal:{seat}")
    for code in r.get("hand", ()):
        t.tap(seat, code)


def _denounce(t: _Hands, r: dict[str, Any]) -> None:
    t.choose(f"denounce:{int(r['accused'])}")


def _meld(t: _Hands, r: dict[str, Any]) -> None:
    if r.get("exchange"):
        t.choose("exchange")
    for name in r.get("melds", ()):
        t.choose(str(name))
    step = t.step()
    if step is not None and step.prompt == "fildinsky_declare":
        t.choose("pass")


def _draw(t: _Hands, r: dict[str, Any]) -> None:
    seat = int(r["seat"])
    if "card" in r:
        t.tap(seat, r["card"])
    else:
        t.choose("unknown")


_STEP_OPS: dict[str, Callable[[_Hands, dict[str, Any]], None]] = {
    "play": _play, "servant": _servant, "call": _call, "fris": _fris, "bind": _bind,
    "redeal": _redeal, "denounce": _denounce, "meld": _meld, "draw": _draw,
}


def _replay_hand(rig: Rig, knowledge: str, reqs: list[dict[str, Any]]) -> list[str]:
    head, steps = reqs[0], reqs[1:]
    try:
        _learn(rig, knowledge, head)
        t = _Hands(rig)
        if "cut" in head:
            t.choose("cut" if head["cut"] else "knock")
        if "old_man" in head:
            step = t.step()
            if step is None:
                raise Refused(f"the table asks for no old man (it is in {rig.state})")
            t.tap(int(head["old_man"]), step.choices[0])
        t.show(list(head.get("shown", ())))
        for n, r in enumerate(steps, 1):
            try:
                _STEP_OPS[r["op"]](t, r)
            except Refused as exc:
                return [f"request {n} of the hand ({r}): {exc}"]
        # accepting the hand after the last trick is not written: it is the default
        if t.rig.ctl.session.match is not None and t.rig.state != "match_result":
            step = t.step()
            if step is not None and step.kind == "choose" and "accept" in step.choices:
                t.choose("accept")
    except Refused as exc:
        return [f"the start of the hand ({head['op']}): {exc}"]
    return []
