"""Display benchmark: bytes sent to the OLED per typical update, for the real
display adapter (table/drivers/display.py) on luma's real SSD1306 and SH1106
classes; the time render() takes to draw a play screen; and the real
`cardtable run`'s start-up (its first frame, ready) and memory at rest.

    python bench/display_bench.py

Bytes are counted on the I2C bus as luma's own I2C interface sends them
(bench/i2c_bus.py: command and data bytes, after the address and control
byte of each transaction); the I2C time is computed per transaction, with
the address, control byte, ACKs, START and STOP each transaction costs. The frames are the
table's own screens (table.screens) when they are installed, else simple
frames drawn here with Pillow. Targets: a card played sends under a quarter
of a full frame; resident memory at rest under 60 MB; render() of a play
screen at most 0.2 ms; the first frame ("Starting…") at most 3 times and
ready at most 5 times a bare `python -c pass`, for `cardtable run
--hardware pi` on gpiozero's mock pins and for `--hardware mock`, measured
in the same run.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image, ImageDraw  # noqa: E402

from table.config import DisplayConfig  # noqa: E402
from table.drivers.display import open_display  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from i2c_bus import bus_ms, recording_smbus  # noqa: E402

SUITS = "GBHSd"
RANKS = ["7", "8", "9", "T", "U", "O", "K", "A"]


def screens_frames(rng, views=None):
    """A hand of Filicău as the table's screens draw it: one frame per card
    played, plus an error shown and cleared after some plays (the play
    screens' views are added to `views`)."""
    from engine.games import get_game
    from table.screens.render import render
    from table.screens.view import CardFace, ErrorView, Header, PlayView, SeatCell, TeamLine

    names = ("1", "4", "3", "2")
    deck = [c.code if hasattr(c, "code") else str(c) for c in get_game("filicau").pack.cards]
    rng.shuffle(deck)
    points = [0, 0]
    plays, errors = [], []
    leader = 0
    for trick in range(8):
        cards: list[str | None] = [None] * 4
        for k in range(4):
            seat = (leader + k) % 4
            header = Header("Filicău", trump="a", family="german", detail=f"{trick + 1}/8")

            def view(cards=cards, turn=seat, prompt="Joacă", header=header):
                return PlayView(
                    header, tuple(SeatCell(names[s], CardFace.of(cards[s], "german")
                                           if cards[s] else None, turn=s == turn)
                                  for s in range(4)),
                    TeamLine(("Noi", "Voi"), tuple(points), "egal"), f"{prompt} {names[turn]}")

            before = render(view())
            if views is not None:
                views.append(view())
            cards[seat] = deck.pop()
            after = render(view(turn=(seat + 1) % 4))
            plays.append((before, after))
            if k == 2 and trick % 3 == 1:
                err = render(ErrorView(f"Locul {names[seat]}", "Trebuie să răspunzi la culoare"))
                errors.append((after, err))
                errors.append((err, after))
        points[trick % 2] += rng.randrange(0, 40)
        leader = rng.randrange(4)
    return plays, errors, "table.screens (the controller's own screens)"


def pillow_frames(rng):
    """Representative frames drawn here: header, four seat cells with a
    card each, team points, a prompt line; an error in inverse video."""
    def frame(cards, turn, points):
        img = Image.new("1", (128, 64), 0)
        d = ImageDraw.Draw(img)
        d.text((0, 0), "Filicau  trump H", fill=1)
        d.line((0, 11, 127, 11), fill=1)
        for s in range(4):
            x = s * 32
            d.text((x + 2, 14), f"{s + 1}{'*' if s == turn else ''}", fill=1)
            if cards[s]:
                d.rectangle((x + 2, 26, x + 26, 44), outline=1)
                d.text((x + 6, 30), cards[s], fill=1)
        d.text((0, 52), f"Noi {points[0]}  Voi {points[1]}", fill=1)
        return img

    plays, errors = [], []
    for trick in range(8):
        cards = [None] * 4
        points = [trick * 7, trick * 5]
        for k in range(4):
            before = frame(cards, k, points)
            cards[k] = rng.choice(RANKS) + rng.choice(SUITS)
            after = frame(cards, (k + 1) % 4, points)
            plays.append((before, after))
            if k == 2 and trick % 3 == 1:
                err = Image.new("1", (128, 64), 1)
                ImageDraw.Draw(err).text((4, 20), "Seat 3: must follow", fill=0)
                errors.append((after, err))
                errors.append((err, after))
    return plays, errors, "frames drawn with Pillow (the controller's screens were not found)"


def measure(chip, pairs):
    """(bytes, I2C transactions) of each update from `before` to `after`, on
    luma's own I2C interface as `cardtable run` opens it (bench/i2c_bus.py)."""
    sizes = []
    with recording_smbus() as buses:
        display = open_display(DisplayConfig(driver=chip))
    bus = buses[0]
    for before, after in pairs:
        display.show(before)
        bus.take()
        display.show(after)
        sent = bus.take()
        sizes.append((sum(sent), sent))
    return sizes


def full_frame(chip):
    """What luma's own display() sends for any frame (the whole panel):
    (bytes, I2C transactions)."""
    with recording_smbus() as buses:
        display = open_display(DisplayConfig(driver=chip))
    buses[0].take()
    display.device.display(Image.new("1", (128, 64), 1))
    sent = buses[0].take()
    return sum(sent), sent


# The real `cardtable run`, in its own interpreter, with a probe on the display
# port: the time (from the launch of the interpreter) of the first frame
# ("Starting…") and of ready. argv: root, launch time, pi|mock, state dir,
# config file.
STARTUP = r"""
import os, sys, time     # json, signal: loaded once ready (the table loads them later)
sys.path.insert(0, sys.argv[1])
launched = float(sys.argv[2])
kind = sys.argv[3]
times = []
cpu = []
out = {}

def at_rest():
    time.sleep(1.0)                                 # at rest: the table waits for OK
    status = dict(l.split(":", 1) for l in open("/proc/self/status") if ":" in l)
    out["rss_kb"] = int(status["VmRSS"].split()[0])
    out["peak_kb"] = int(status["VmHWM"].split()[0])

def probe(cls):
    show = cls.show
    def timed(self, image):
        result = show(self, image)
        times.append(time.time() - launched)
        cpu.append(time.process_time())
        return result
    cls.show = timed

# CPU time when each phase of the start begins: the first import of the
# module that opens it or of one of its modules (an audit hook sees every
# import statement; importlib.import_module's own import goes unseen).
PHASES = ("luma.oled.device", "gpiozero", "table.controller")
began = {}
def audit(event, args):
    if event == "import":
        for phase in PHASES:
            if phase not in began and (args[0] == phase or args[0].startswith(phase + ".")):
                began[phase] = time.process_time()
sys.addaudithook(audit)

made = None
if sys.argv[6:] == ["dataclasses"]:
    # the classes @dataclass makes before ready, and the CPU time it takes
    # (it compiles each method it writes); for `where_ready_goes` only
    import dataclasses
    made = [0, 0.0]
    process = dataclasses._process_class
    def counted(*a, **kw):
        t = time.process_time()
        try:
            return process(*a, **kw)
        finally:
            made[0] += 1
            made[1] += time.process_time() - t
    dataclasses._process_class = counted

if kind == "pi":
    # `cardtable run --hardware pi` as on the Pi, with gpiozero's mock pins
    # (the configuration), an SMBus that takes every byte (luma's own I2C
    # interface and SSD1306 class send the frames) and readers that read nothing
    # The first frame is on the panel when the panel is switched on (0xAF)
    # with something drawn in its RAM (luma's own clear does not count).
    import types
    smbus2 = types.ModuleType("smbus2")
    panel = {"drawn": False, "on": False}
    def seen():
        if panel["drawn"] and panel["on"] and not times:
            times.append(time.time() - launched)
            cpu.append(time.process_time())
    class SMBus:
        def __init__(self, port): pass
        def write_i2c_block_data(self, addr, mode, data):
            if 0xAF in data:
                panel["on"] = True
            if 0xAE in data:
                panel["on"] = False
            seen()
        def i2c_rdwr(self, *msgs):
            if any(any(m[1:]) for m in msgs):
                panel["drawn"] = True
            seen()
        def close(self): pass
    class i2c_msg:
        @staticmethod
        def write(addr, data): return bytes(data)
    smbus2.SMBus, smbus2.i2c_msg = SMBus, i2c_msg
    sys.modules["smbus2"] = smbus2
    import table.drivers
    class Readers:
        def start(self, post): pass
        def stop(self): pass
    table.drivers.open_readers = lambda config, factory: Readers()
    import table.commands.run as run
    say = run.say
    def said(text, **kw):
        say(text, **kw)
        if text.startswith("cardtable run: ready"):
            out["ready"] = time.time() - launched  # the controller's thread answers
            out["ready_cpu"] = time.process_time()
            print("cardtable-bench: ready", file=sys.stderr, flush=True)  # -X importtime's cut
            if made is not None:
                out["dataclasses"] = made
            at_rest()
            import signal
            os.kill(os.getpid(), signal.SIGTERM)  # as systemd stops the service
    run.say = said
    argv = ["run", "--hardware", "pi", "--config", sys.argv[5], "--state", sys.argv[4]]
else:
    from hw_mocks.display import FakeDisplay
    probe(FakeDisplay)
    argv = ["run", "--hardware", "mock", "--quiet", "--state", sys.argv[4]]
from table.cli import main
with open(os.devnull, "w") as quiet:
    sys.stdout, stdout = quiet, sys.stdout
    status = main(argv)
    sys.stdout = stdout
if kind == "mock":
    out["ready"] = times[1]           # the controller's first frame: events are taken
    out["ready_cpu"] = cpu[1]
out.update(status=status, first=times[0], first_cpu=cpu[0], frames=len(times), began=began)
import json
print(json.dumps(out))
"""

BASELINE = ("import sys, time; "
            "print(time.time() - float(sys.argv[1]), time.process_time())")
#: The floor of ready: an interpreter importing only the libraries the table
#: cannot answer without (gpiozero for the buttons and LEDs, luma for the
#: display, Pillow under it; the fakes use gpiozero's mock pins and luma's
#: dummy device), as the table imports them (gpiozero without
#: importlib.metadata, table/drivers/lazy_metadata.py), and doing nothing else.
_GPIOZERO = ("from table.drivers.lazy_metadata import import_quietly; "
             "import_quietly('gpiozero.pins.mock'); ")
FLOORS = {
    "pi": _GPIOZERO + "import luma.oled.device, PIL.Image",
    "mock": _GPIOZERO + "import luma.core.device, PIL.Image",
}
FLOOR_NAMES = {
    "pi": "import gpiozero (mock pins, without importlib.metadata), luma.oled, Pillow",
    "mock": "import gpiozero (mock pins, without importlib.metadata), luma.core, Pillow",
}


def startup(runs=7):
    """Seconds from launching the interpreter, each run's own: `python -c`
    reaching its first statement (the baseline), and for `cardtable run
    --hardware pi` (mock pins) and `--hardware mock` the first frame and
    ready (also in CPU time of the process); runs interleaved so that the
    machine's load falls on all alike."""
    import tempfile

    config = Path(tempfile.mkdtemp(prefix="cardtable-bench-")) / "config.toml"
    config.write_text('[gpio]\npin_factory = "mock"\n')
    # As an installed table runs: modules compiled once (pip compiles those it
    # installs; a checkout's are cached in __pycache__ by the first, uncounted, run).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    got: dict = {"pass": [], "pass_cpu": [], "pi": [], "mock": [],
                 "floor_pi": [], "floor_mock": []}
    for n in range(runs + 1):
        launch = time.time()
        base = [float(x) for x in subprocess.run(
            [sys.executable, "-c", BASELINE, repr(launch)], capture_output=True, text=True,
            check=True, env=env).stdout.split()]
        for kind, imports in FLOORS.items():
            launch = time.time()
            floor = [float(x) for x in subprocess.run(
                [sys.executable, "-c", imports + "; " + BASELINE, repr(launch)],
                capture_output=True, text=True, check=True, env=env).stdout.split()]
            if n:
                got["floor_" + kind].append(floor)
        for kind in ("pi", "mock"):
            state = tempfile.mkdtemp(prefix="cardtable-bench-")
            launch = time.time()
            out = subprocess.run([sys.executable, "-c", STARTUP, str(ROOT), repr(launch), kind,
                                  state, str(config)], capture_output=True, text=True, env=env)
            if out.returncode != 0:
                raise SystemExit(f"cardtable run --hardware {kind} failed:\n{out.stderr}")
            if n:
                got[kind].append(json.loads(out.stdout.splitlines()[-1]))
        if n:
            got["pass"].append(base[0])
            got["pass_cpu"].append(base[1])
    return got


def _import_tree(stderr):
    """(depth, module, self µs) of each import `python -X importtime` wrote
    before ready, in its order (a module's imports come before it)."""
    rows = []
    for line in stderr.splitlines():
        if line == "cardtable-bench: ready":
            break        # what is loaded after ready is not waited for
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, _, name = line[len("import time:"):].split("|")
        rows.append(((len(name) - len(name.lstrip()) - 1) // 2, name.strip(), int(own)))
    return rows


def _owner(rows, i):
    """Who a module is loaded for: the outermost module not of the standard
    library among those whose import led to it (itself if none), as a
    package (table.* and engine: their first two names)."""
    depth, name, _ = rows[i]
    owner = name
    for d, n, _ in rows[i + 1:]:
        if d < depth:
            depth = d
            if n.split(".")[0] not in sys.stdlib_module_names:
                owner = n
    parts = owner.split(".")
    if parts[0] in ("table", "hw_mocks"):
        return ".".join(parts[:2])
    if parts[0] == "engine":
        return "engine"
    if parts[0] in sys.stdlib_module_names:
        return "(the standard library, loaded from inside functions)"
    return {"PIL": "luma", "colorzero": "gpiozero", "smbus2": "luma"}.get(parts[0], parts[0])


def where_ready_goes(runs=3):
    """Where `cardtable run --hardware pi`'s CPU time before ready goes, by
    who each module is loaded for (`python -X importtime`, the least of
    `runs` launches for each module; importtime's own cost is in the times),
    less what a bare `python -c pass` loads; and the classes @dataclass makes
    before ready with the time that takes (another launch)."""
    import tempfile

    config = Path(tempfile.mkdtemp(prefix="cardtable-bench-")) / "config.toml"
    config.write_text('[gpio]\npin_factory = "mock"\n')
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def launch(*extra):
        state = tempfile.mkdtemp(prefix="cardtable-bench-")
        out = subprocess.run([sys.executable, "-X", "importtime", "-c", STARTUP, str(ROOT),
                              repr(time.time()), "pi", state, str(config), *extra],
                             capture_output=True, text=True, env=env)
        if out.returncode != 0:
            raise SystemExit(f"cardtable run --hardware pi failed:\n{out.stderr}")
        return json.loads(out.stdout.splitlines()[-1]), _import_tree(out.stderr)

    bare = {n for _, n, _ in _import_tree(subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "pass"], capture_output=True, text=True,
        env=env).stderr)}
    least: dict = {}
    owners: dict = {}
    for _ in range(runs):
        _, rows = launch()
        for i, (_, name, own) in enumerate(rows):
            if name not in bare:
                least[name] = min(least.get(name, own), own)
                owners[name] = _owner(rows, i)
    by_owner: dict = {}
    for name, own in least.items():
        by_owner[owners[name]] = by_owner.get(owners[name], 0) + own
    made = launch("dataclasses")[0]["dataclasses"]
    return by_owner, made


def where_report(by_owner, made, got):
    """The table of `where_ready_goes`: each owner's share of the import time
    (importtime's clock is the wall's, swayed by the machine's load: the
    shares are steadier than the times), and that share of the CPU time
    `--hardware pi` spends before ready beyond `python -c pass` (most of
    which is imports), as a ratio to `python -c pass`."""
    base = statistics.median(got["pass_cpu"])
    beyond = statistics.median(r["ready_cpu"] for r in got["pi"]) - base
    total = sum(by_owner.values())
    print("\nWhere `--hardware pi`'s time before ready goes, by who each module is loaded "
          "for (the outermost module not of the standard library whose import led to it; "
          "`python -X importtime`, the least of 3 launches for each module, less what "
          "`python -c pass` loads), as shares of the import time; the CPU column is that "
          f"share of the {beyond * 1000:.0f} ms of CPU ready takes beyond `python -c pass`:\n")
    print("| loaded for | share of the imports | CPU (share) | ratio to `python -c pass` |")
    print("|---|---|---|---|")
    for owner, us in sorted(by_owner.items(), key=lambda kv: -kv[1]):
        share = us / total
        if share >= 0.005:
            print(f"| {owner} | {share:.0%} | {share * beyond * 1000:.0f} ms | "
                  f"{share * beyond / base:.2f}x |")
    print(f"\n@dataclass makes {made[0]} classes before ready: {made[1] * 1000:.0f} ms of CPU "
          f"({made[1] / base:.1f}x `python -c pass`), inside the shares above (it compiles "
          "each method it writes).")


def startup_report(got):
    """The start-up lines of the README; True when both targets are met."""
    base = statistics.median(got["pass"])
    ok = True
    print(f"\nStart-up, median of {len(got['pass'])} launches, from launching the interpreter; "
          f"`python -c pass` (to its first statement) {base * 1000:.0f} ms here, "
          "Zero 2 W estimate x13:\n")
    print("| `cardtable run` | first frame (Starting…) | ratio | target | ready | ratio | "
          "target | Zero 2 W: first / ready |")
    print("|---|---|---|---|---|---|---|---|")
    for kind, name in (("pi", "--hardware pi (mock pins)"), ("mock", "--hardware mock")):
        first = statistics.median(r["first"] for r in got[kind])
        ready = statistics.median(r["ready"] for r in got[kind])
        r1, r2 = first / base, ready / base
        ok = ok and r1 <= 3 and r2 <= 5
        print(f"| {name} | {first * 1000:.0f} ms | {r1:.1f}x | <= 3x "
              f"{'met' if r1 <= 3 else 'MISSED'} | {ready * 1000:.0f} ms | {r2:.1f}x | <= 5x "
              f"{'met' if r2 <= 5 else 'MISSED'} | {first * 13:.1f} s / {ready * 13:.1f} s |")
    for kind, name in (("pi", "--hardware pi"), ("mock", "--hardware mock")):
        floor = statistics.median(f[0] for f in got["floor_" + kind])
        print(f"| floor of {name}: {FLOOR_NAMES[kind]} | | | | "
              f"{floor * 1000:.0f} ms | {floor / base:.1f}x | | - / {floor * 13:.1f} s |")
    base_cpu = statistics.median(got["pass_cpu"])
    print(f"\nThe same launches in CPU time of the process (less swayed by other work on "
          f"the machine); `python -c pass` {base_cpu * 1000:.0f} ms:\n")
    print("| `cardtable run` | first frame: CPU | ratio | ready: CPU | ratio |")
    print("|---|---|---|---|---|")
    for kind, name in (("pi", "--hardware pi (mock pins)"), ("mock", "--hardware mock")):
        first = statistics.median(r["first_cpu"] for r in got[kind])
        ready = statistics.median(r["ready_cpu"] for r in got[kind])
        print(f"| {name} | {first * 1000:.0f} ms | {first / base_cpu:.1f}x | "
              f"{ready * 1000:.0f} ms | {ready / base_cpu:.1f}x |")
    for kind, name in (("pi", "--hardware pi"), ("mock", "--hardware mock")):
        floor = statistics.median(f[1] for f in got["floor_" + kind])
        print(f"| floor of {name} (the libraries alone) | | | {floor * 1000:.0f} ms | "
              f"{floor / base_cpu:.1f}x |")
    print("\nWhere the CPU time of `--hardware pi` goes (each phase from the first import "
          "of the module that begins it):\n")
    print("| phase | CPU | ratio to `python -c pass` |")
    print("|---|---|---|")
    marks = [("the first frame, from the launch", None, "first_cpu"),
             ("the configuration checked whole, the backend found", "first_cpu",
              "luma.oled.device"),
             ("luma and Pillow loaded, the display opened, Starting… again",
              "luma.oled.device", "gpiozero"),
             ("gpiozero loaded, LEDs, buzzer, buttons, readers opened", "gpiozero",
              "table.controller"),
             ("the controller, rules, state machine, journal: to ready", "table.controller",
              "ready_cpu")]

    def mark(r, name):
        return 0.0 if name is None else r[name] if name in r else r["began"][name]

    for label, a, b in marks:
        spent = statistics.median(mark(r, b) - mark(r, a) for r in got["pi"])
        print(f"| {label} | {spent * 1000:.0f} ms | {spent / base_cpu:.1f}x |")
    rss = statistics.median(r["rss_kb"] for r in got["pi"]) / 1024
    peak = max(r["peak_kb"] for r in got["pi"]) / 1024
    print(f"\nMemory at rest (`--hardware pi`, the controller running, 1 s after ready): "
          f"{rss:.1f} MB resident (peak {peak:.1f} MB)")
    return ok, rss


def freetype_text(self, x, y, text, ink=None):
    """`Canvas.text` as it was before the texts were cached: FreeType draws
    every text of every frame (the baseline of render_times)."""
    fill = self.ink if ink is None else ink
    self.draw.text((x, y), text, font=self.font, fill=fill)
    if "0" in text and self._slash:
        zero = self.font.getlength("0")
        for i, ch in enumerate(text):
            if ch == "0":
                left = round(x + self.font.getlength(text[:i + 1]) - zero)
                self.draw.point([(left + dx, y + dy) for dx, dy in self._slash], fill=fill)
    return x + self.text_width(text)


def render_times(views, rounds=20):
    """Best mean ms of render() over `views`: as the table draws them (each
    text drawn once, pasted after), and with FreeType drawing every text;
    the frames of both are checked to be the same."""
    from PIL import ImageChops

    from table.screens import render as r

    def best():
        means = []
        for _ in range(rounds):
            t0 = time.perf_counter()
            for v in views:
                r.render(v)
            means.append((time.perf_counter() - t0) / len(views))
        return min(means) * 1000

    cached_frames = [r.render(v) for v in views]
    cached = best()
    table_text = r.Canvas.text
    r.Canvas.text = freetype_text
    try:
        fresh_frames = [r.render(v) for v in views]
        fresh = best()
    finally:
        r.Canvas.text = table_text
    for a, b in zip(cached_frames, fresh_frames, strict=True):
        assert ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is None
    return cached, fresh


def main(argv=None):
    import argparse

    parser = argparse.ArgumentParser(description="Bytes and I2C time per display update, "
                                     "render() time, start-up and memory.")
    parser.add_argument("--i2c-only", action="store_true",
                        help="only the bytes and I2C table (no render times, no start-up)")
    args = parser.parse_args(argv)
    rng = random.Random(2024)
    views = []
    try:
        plays, errors, source = screens_frames(rng, views)
    except ImportError:
        plays, errors, source = pillow_frames(rng)
    print(f"Frames: {source}; {len(plays)} cards played, {len(errors)} error screens "
          "shown or cleared.\n")
    print("| chip | full frame | card played: mean | max | share of full | "
          "error shown/cleared: mean | max | I2C 400 kHz: card / error shown or cleared "
          "(mean, max) / full |")
    print("|---|---|---|---|---|---|---|---|")
    verdicts = []
    for chip in ("ssd1306", "sh1106"):
        full, full_sent = full_frame(chip)
        card_sizes = measure(chip, plays)
        card = [b for b, _ in card_sizes]
        err_sizes = measure(chip, errors)
        err = [b for b, _ in err_sizes]
        err_ms = [bus_ms(sent) for _, sent in err_sizes]
        mean = statistics.mean(card)
        card_ms = statistics.mean(bus_ms(sent) for _, sent in card_sizes)
        share = mean / full
        print(f"| {chip} | {full} B | {mean:.0f} B | {max(card)} B | {share:.1%} | "
              f"{statistics.mean(err):.0f} B | {max(err)} B | {card_ms:.2f} ms / "
              f"{statistics.mean(err_ms):.2f}, {max(err_ms):.2f} ms / "
              f"{bus_ms(full_sent):.2f} ms ({len(full_sent)} transactions) |")
        verdicts.append((chip, share))
    if args.i2c_only:
        return 0 if all(share < 0.25 for _, share in verdicts) else 1
    drawn = True
    if views:
        cached, fresh = render_times(views)
        drawn = cached <= 0.2
        print(f"\nrender() of a play screen ({len(views)} of the hand, best mean of 20 "
              f"rounds): {cached:.3f} ms with each text drawn once and pasted after, "
              f"{fresh:.3f} ms with FreeType drawing every text ({fresh / cached:.1f}x); "
              f"Zero 2 W estimate x13: {cached * 13:.1f} ms; target <= 0.2 ms here: "
              f"{'met' if drawn else 'MISSED'}")
    got = startup()
    started, rss = startup_report(got)
    where_report(*where_ready_goes(), got)
    ok = all(share < 0.25 for _, share in verdicts) and rss < 60 and started and drawn
    print("\nTargets: card played < 25% of a full frame: "
          + ", ".join(f"{chip} {'met' if s < 0.25 else 'MISSED'}" for chip, s in verdicts)
          + f"; RSS < 60 MB: {'met' if rss < 60 else 'MISSED'}"
          + "; first frame <= 3x and ready <= 5x python -c pass: "
          + ("met" if started else "MISSED"))
    return 0 if ok else 1


if __name__ == "__main__":
    from pinning import one_core

    one_core()
    sys.exit(main())
