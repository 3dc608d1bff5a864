"""Display benchmark: bytes sent to the OLED per typical update, for the real
display adapter (table/drivers/display.py) on luma's real SSD1306 and SH1106
classes; and start-up time to ready and memory at rest of the real program
(configuration, `build_ports`, `Controller.open`, the controller's thread).

    python bench/display_bench.py

Bytes are counted on the I2C bus as luma's own I2C interface sends them
(bench/i2c_bus.py: command and data bytes, after the address and control
byte of each transaction); the I2C time is computed per transaction, with
the address, control byte, ACKs, START and STOP each transaction costs. The frames are the
table's own screens (table.screens) when they are installed, else simple
frames drawn here with Pillow. Targets: a card played sends under a quarter
of a full frame; resident memory at rest under 60 MB.
"""

from __future__ import annotations

import json
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


def screens_frames(rng):
    """A hand of Filicău as the table's screens draw it: one frame per card
    played, plus an error shown and cleared after some plays."""
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


STARTUP = r"""
import os, sys, tempfile, time, json
t0 = time.perf_counter()
sys.path.insert(0, sys.argv[1])
from table.config import load
from table.controller import Controller
from table.drivers import build_ports, close_ports, make_pin_factory
from table.drivers.display import open_display

class Bus:
    def write_i2c_block_data(self, addr, mode, data): pass

class Readers:
    def start(self, post): pass
    def stop(self): pass

# what `cardtable run --hardware pi` does, on mock pins, an I2C bus that takes
# every byte, and readers that read nothing
config = load(sys.argv[2])
ports = build_ports(config, pin_factory=make_pin_factory("mock"), readers=Readers(),
                    display=open_display(config.display, i2c_bus=Bus()))
state = tempfile.mkdtemp(prefix="cardtable-bench-")
ctl = Controller.open(config.table, ports, state)   # journal, registry, first frame
ctl.start()
assert ctl.wait_idle(5.0)
ready = time.perf_counter() - t0
since_launch = time.time() - float(sys.argv[3])
time.sleep(1.0)                                     # at rest: the table waits for OK
status = dict(l.split(":", 1) for l in open("/proc/self/status") if ":" in l)
rss = int(status["VmRSS"].split()[0])
hwm = int(status["VmHWM"].split()[0])
ctl.close()
close_ports(ports)
print(json.dumps({"ready_s": ready, "wall_s": since_launch, "rss_kb": rss, "peak_kb": hwm,
                  "state": ctl.state}))
"""


def startup():
    runs = []
    for _ in range(5):
        out = subprocess.run([sys.executable, "-c", STARTUP, str(ROOT),
                              str(ROOT / "examples" / "config.toml"), repr(time.time())],
                             capture_output=True, text=True, check=True).stdout
        runs.append(json.loads(out))   # wall_s: from launching the interpreter to ready
    return runs


def main():
    rng = random.Random(2024)
    try:
        plays, errors, source = screens_frames(rng)
    except ImportError:
        plays, errors, source = pillow_frames(rng)
    print(f"Frames: {source}; {len(plays)} cards played, {len(errors)} error screens "
          "shown or cleared.\n")
    print("| chip | full frame | card played: mean | max | share of full | "
          "error shown/cleared: mean | I2C 400 kHz: card / full |")
    print("|---|---|---|---|---|---|---|")
    verdicts = []
    for chip in ("ssd1306", "sh1106"):
        full, full_sent = full_frame(chip)
        card_sizes = measure(chip, plays)
        card = [b for b, _ in card_sizes]
        err = [b for b, _ in measure(chip, errors)]
        mean = statistics.mean(card)
        card_ms = statistics.mean(bus_ms(sent) for _, sent in card_sizes)
        share = mean / full
        print(f"| {chip} | {full} B | {mean:.0f} B | {max(card)} B | {share:.1%} | "
              f"{statistics.mean(err):.0f} B | {card_ms:.2f} ms / "
              f"{bus_ms(full_sent):.2f} ms ({len(full_sent)} transactions) |")
        verdicts.append((chip, share))
    runs = startup()
    ready = statistics.median(r["ready_s"] for r in runs)
    wall = statistics.median(r["wall_s"] for r in runs)
    rss = statistics.median(r["rss_kb"] for r in runs) / 1024
    peak = max(r["peak_kb"] for r in runs) / 1024
    print(f"\nStart-up to ready (imports, configuration, build_ports on mock pins, "
          f"Controller.open with a new journal and registry, first frame, controller thread "
          f"started; state {runs[0]['state']}): {ready * 1000:.0f} ms in-process, "
          f"{wall * 1000:.0f} ms with the interpreter (median of 5)")
    print(f"Memory at rest (the controller running, 1 s after ready): {rss:.1f} MB resident "
          f"(peak {peak:.1f} MB)")
    ok = all(share < 0.25 for _, share in verdicts) and rss < 60 and wall < 1
    print("\nTargets: card played < 25% of a full frame: "
          + ", ".join(f"{chip} {'met' if s < 0.25 else 'MISSED'}" for chip, s in verdicts)
          + f"; RSS < 60 MB: {'met' if rss < 60 else 'MISSED'}"
          + f"; ready < 1 s: {'met' if wall < 1 else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    from pinning import one_core

    one_core()
    sys.exit(main())
