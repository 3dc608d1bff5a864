"""Touch -> verdict: from a card put down on a reader to its verdict sent to
the OLED, for accepted and for refused cards, with an estimate for a
Raspberry Pi Zero 2 W (not part of the test suite).

    python bench/touch_bench.py [--hands 12] [--samples 120] [--gap 1.0] [--dir /var/tmp]

The whole path, every part the table's own code; only the chips are emulated
and the kernel devices recorded:

1. **Reader cycle.** The MFRC522 emulator (hw_mocks/mfrc522) behind the
   fake spidev, under the real direct-SPI driver (table/drivers/spi_readers.py
   and the mfrc522 package's register access), at the configured SPI clock
   (1 MHz), on the emulator's virtual clock: five readers (four seats and the
   dealer's) polled every 10 ms as the driver's thread does; the card is put
   down at a random moment, with the trick's earlier cards lying on the other
   seats' readers (settled: each costs its presence check at one poll in
   three); the driver posts a reader's events as soon as that reader has
   been polled, and that moment is the one timed. The driver's
   own CPU per poll (measured here, the emulator's excluded) x 13 is added to
   the virtual time, as a Zero 2 W would spend it.
2. **Controller.** The `CardArrived` handled as on the controller's thread:
   read hygiene (read at once), the state machine, the journal (SQLite in
   WAL mode on this machine's disk, `--dir`), the frame rendered and handed
   to the real display adapter on luma's SSD1306 over luma's own I2C
   interface, its SMBus recorded per transaction; then the journal's sync
   (real fsyncs): a card's entries are written before its verdict is shown
   and synced after it (`Journal.defer_sync`; docs/controller.md), so the
   sync's waits are printed apart, not in the verdict (its CPU is).
3. **I2C.** Those transactions at 400 kHz, each with its START, address,
   control byte, ACKs and STOP (bench/i2c_bus.py). A refusal's error screen
   is inverse video: the adapter flips the panel's own flag (0xA7) and sends
   the bytes that differ from the inverse of the screen before.
4. **Idle time.** Between two events (a card, a button) a real table's
   controller thread has an empty queue for as long as the players take
   (seconds per card), and spends it on `Controller.idle()` (the very hook
   its thread calls: the screens' glyphs learned one at a time). The bench
   calls that hook after each event for `--gap` seconds of a Zero 2 W
   (default 1.0 s: a quick player; CPU here x 13), piece by piece as the
   thread does; a piece still under way when the gap ends delays the next
   event (Zero 2 W time), and that wait is part of the next verdict.
   `--gap 0`: no idle time at all (the worst case: every card put down at
   once after the one before).

Zero 2 W estimate = reader (virtual time, driver CPU x 13 in it) + the wait
for idle work under way + controller CPU x 13 + the journal's waits before
the frame (fsyncs inside the journal's appends, wall minus CPU, as measured
on this disk: a card's entries are synced after the frame, so only a
checkpoint's) + I2C time + debounce (none: these reads are taken at once).
The factor 13: single-thread CPython on a Zero 2 W is 12-15 times slower
than one core of the development machines (sysbench single-thread, Pi 3B+
cores at 1 GHz ~ 490 events/s). Target: p99 under 100 ms, accepted and
refused.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from i2c_bus import bus_ms, recording_smbus  # noqa: E402
from refusals import refusal_for  # noqa: E402

from hw_mocks import fake_rpi  # noqa: E402
from hw_mocks.bot import Bot, Move  # noqa: E402
from hw_mocks.mfrc522 import Board, Ntag213  # noqa: E402
from hw_mocks.table import MockTable  # noqa: E402
from table.config import DisplayConfig  # noqa: E402
from table.controller import Controller  # noqa: E402
from table.drivers.display import open_display  # noqa: E402
from table.events_script import Player  # noqa: E402
from table.ports import CardArrived, CardLeft, Tick  # noqa: E402
from table.screens.view import ErrorView  # noqa: E402
from table.settings import TableSettings  # noqa: E402

ZERO_2W = 13            # single-thread CPython, a Zero 2 W against one core here
TARGET_MS = 100.0
REFUSALS = 0.25         # the share of plays tried first with a card the table refuses
GAP_S = 1.0             # idle time between two events on a Zero 2 W (a quick player)
SPI_HZ = 1_000_000      # [readers] spi_speed_hz, the default
CYCLE_S = 0.01          # the driver's poll cycle (SpiReaders.cycle_s)
#: four seats on SPI0 CE0/CE1 and SPI1 CE0/CE1, the dealer's reader on SPI1 CE2
WIRING = [(0, 0, None), (0, 1, None), (1, 0, None), (1, 1, None), (1, 2, None)]


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    k = (len(values) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


# ----- 1. the reader cycle ---------------------------------------------------------------------

class TimedBoard(Board):
    """The emulator, keeping the CPU it spends (so that the driver's own can
    be told apart) and putting a card down at a given virtual time."""

    def __init__(self) -> None:
        super().__init__()
        self.emulator_cpu = 0.0
        self.drop: tuple[Any, Any, float] | None = None

    def transfer(self, bus: int, ce: int | None, mosi: list[int], speed_hz: int) -> list[int]:
        t = time.thread_time()
        try:
            if self.drop is not None and self.clock.now() >= self.drop[2]:
                card, reader, _ = self.drop
                self.drop = None
                self.place(card, reader)
            return super().transfer(bus, ce, mosi, speed_hz)
        finally:
            self.emulator_cpu += time.thread_time() - t


@dataclasses.dataclass
class ReaderFigures:
    latency_ms: dict[int, list[float]]        # cards lying -> placed-to-posted, ms
    cycle_ms: dict[int, float]                # cards lying -> one poll of every reader, ms
    bus_ms: dict[int, float]                  # cards lying -> SPI bus time per cycle, ms
    transfers: dict[int, float]               # cards lying -> SPI transfers per cycle
    driver_cpu_ms: dict[int, float]           # cards lying -> driver CPU per cycle here, ms


def reader_cycle(samples: int, rng: random.Random) -> ReaderFigures:
    from table.drivers.mfrc522_cards import YOUNG_POLLS
    from table.drivers.spi_readers import SpiReaders, Wiring

    board = TimedBoard()
    for bus, ce, cs in WIRING:
        board.add_reader(bus, ce, cs_pin=cs, rst_pin=25)
    fake_rpi.install(board)
    clock = board.clock
    try:
        places = {i: Wiring(bus, ce, cs, 25) for i, (bus, ce, cs) in enumerate(WIRING)}
        driver = SpiReaders(places, speed_hz=SPI_HZ, clock=clock, sleep=clock.sleep,
                            cycle_s=CYCLE_S)
        cpu_per_cycle: list[float] = []

        posted: list[tuple[Any, float]] = []

        def cycle() -> list[tuple[Any, float]]:
            """One turn of the driver's thread (SpiReaders._run), the driver's
            CPU x ZERO_2W added to the virtual time: each event with the
            (virtual) time the driver posted it, as soon as its reader was
            polled."""
            started = clock.now()
            t, emu = time.thread_time(), board.emulator_cpu
            posted.clear()

            def post(event: Any) -> None:
                so_far = (time.thread_time() - t) - (board.emulator_cpu - emu)
                posted.append((event, clock.now() + so_far * ZERO_2W))

            driver.poll_once(post)
            events = list(posted)
            cpu = (time.thread_time() - t) - (board.emulator_cpu - emu)
            cpu_per_cycle.append(cpu)
            clock.advance(cpu * ZERO_2W)
            rest = CYCLE_S - (clock.now() - started)
            if rest > 0:
                clock.sleep(rest)
            return events

        for _ in range(5):
            cycle()
        figures = ReaderFigures({}, {}, {}, {}, {})
        for lying in range(4):
            seats = board.readers[:4]
            target = seats[lying]
            still = [Ntag213(f"04{i:02X}11223344{lying:02X}") for i in range(lying)]
            for card, chip in zip(still, seats[:lying], strict=True):
                board.place(card, chip)
            # the trick's cards were put down a second or more apart: settled
            for _ in range(YOUNG_POLLS + 5):
                cycle()
            # a steady cycle with these cards lying
            before, t0, n0 = board.counters(), clock.now(), len(cpu_per_cycle)
            for _ in range(20):
                cycle()
            spent = board.counters() - before
            figures.cycle_ms[lying] = (clock.now() - t0) / 20 * 1000
            figures.bus_ms[lying] = spent.bus_time / 20 * 1000
            figures.transfers[lying] = spent.transfers / 20
            figures.driver_cpu_ms[lying] = statistics.mean(cpu_per_cycle[n0:]) * 1000
            out = figures.latency_ms.setdefault(lying, [])
            for k in range(samples):
                card = Ntag213(f"04{lying:02X}{k:04X}AABBCC")
                uid = card.uid.hex().upper()
                at = clock.now() + rng.uniform(0, CYCLE_S * 1.5)
                board.drop = (card, target, at)
                for _ in range(200):
                    when = [t for e, t in cycle() if isinstance(e, CardArrived)
                            and e.seat == lying and e.uid == uid]
                    if when:
                        out.append((when[0] - at) * 1000)
                        break
                else:
                    raise RuntimeError("the card put down was never reported")
                board.remove(card)
                for _ in range(200):
                    if any(isinstance(e, CardLeft) for e, _ in cycle()):
                        break
                for _ in range(8):      # the fields reset after a departure: settle
                    cycle()
            for card in still:
                board.remove(card)
            for _ in range(20):
                cycle()
        driver.close()
        return figures
    finally:
        fake_rpi.uninstall()


# ----- 2. the controller, 3. the I2C bus -------------------------------------------------------

@dataclasses.dataclass
class Verdict:
    kind: str            # "accepted" or "refused"
    lying: int           # cards already on the table in this trick
    cpu_ms: float
    io_ms: float          # the journal's waits (its fsyncs on this disk)
    i2c_bytes: int
    i2c_transactions: int
    i2c_ms: float
    wait_ms: float = 0.0  # idle work under way when the card came (Zero 2 W ms)
    sync_ms: float = 0.0  # the journal's sync after the verdict was shown (fsync waits)


def idle(ctl: Controller, gap_s: float) -> float:
    """The controller thread's idle time between two events, `gap_s` seconds
    on a Zero 2 W: `Controller.idle()` called piece by piece (CPU here x 13)
    while the gap lasts and work waits, as the thread does while its queue is
    empty. Returns how long (Zero 2 W seconds) the next event waits for the
    piece under way when the gap ends."""
    spent = 0.0
    while spent < gap_s:
        t = time.thread_time()
        more = ctl.idle()
        spent += (time.thread_time() - t) * ZERO_2W
        if not more:
            return 0.0
    return spent - gap_s


def controller_path(hands: int, rng: random.Random, state_dir: Path,
                    gap_s: float = GAP_S) -> list[Verdict]:
    settings = TableSettings(game="filicau", knowledge="scan")
    debounce = settings.debounce_ms / 1000
    mock = MockTable(seats=4)
    with recording_smbus() as buses:
        display = open_display(DisplayConfig())
    bus = buses[0]
    ports = dataclasses.replace(mock.ports, display=display)
    seeds = random.Random(1)
    ctl = Controller.open(settings, ports, state_dir, seed_source=lambda: seeds.randrange(2**62))
    ctl.registry.enroll_virtual("german32")
    player = Player(ctl, mock, ctl.registry)
    late = [0.0]      # Zero 2 W seconds the next event waits for idle work under way

    def gap() -> None:
        late[0] = idle(ctl, gap_s) if gap_s > 0 else 0.0

    def tap(place: int, uid: str) -> None:
        player.tap(place, uid)
        gap()

    def press(button: str) -> None:
        player.press(button)
        gap()

    gap()             # ready: the players sit down
    press("ok")
    match = ctl.session.match
    assert match is not None
    game = match.game
    bot = Bot(game, random.Random(2), lambda c, k: ctl.registry.uid_for(c, game.pack.family, k))
    out: list[Verdict] = []
    refusals = [0]
    ctl.on_notice(lambda n: refusals.__setitem__(0, refusals[0] + (n.kind == "refused")))
    journal = ctl.journal
    assert journal is not None
    append = journal.append
    io = [0.0]

    def timed_append(kind: str, data: Any) -> int:
        """The journal's append; its waits (wall minus CPU: the fsyncs) kept."""
        t, w = time.thread_time(), time.perf_counter()
        try:
            return append(kind, data)
        finally:
            io[0] += max(0.0, (time.perf_counter() - w) - (time.thread_time() - t))

    journal.append = timed_append  # type: ignore[method-assign]  # the bench's probe
    sync = journal.sync
    after = [0.0]

    def timed_sync() -> None:
        """The journal's sync of a card's entries, after its verdict is shown:
        its waits kept apart (not part of the verdict)."""
        t, w = time.thread_time(), time.perf_counter()
        try:
            sync()
        finally:
            after[0] += max(0.0, (time.perf_counter() - w) - (time.thread_time() - t))

    journal.sync = timed_sync  # type: ignore[method-assign]  # the bench's probe

    def timed(move: Move, kind: str, lying: int) -> None:
        bus.take()
        io[0] = after[0] = 0.0
        t = time.thread_time()
        ctl.handle(CardArrived(move.place, move.uid))
        cpu = time.thread_time() - t
        sent = bus.take()
        out.append(Verdict(kind, lying, cpu * 1000, io[0] * 1000, sum(sent), len(sent),
                           bus_ms(sent), late[0] * 1000, after[0] * 1000))
        # the card lies there past its debounce time (its read is kept), then goes
        mock.clock.advance(debounce + 0.05)
        ctl.handle(Tick(mock.clock.now()))
        ctl.handle(CardLeft(move.place, move.uid))
        gap()

    for _ in range(hands):
        hand = ctl.session.hand()
        bot.new_hand(hand.state, "scan")
        for m in bot.scan_moves():
            tap(m.place, m.uid)
        while True:
            wrong = refusal_for(bot, rng) if rng.random() < REFUSALS else None
            lying = _lying(ctl)
            if wrong is not None:
                refused = refusals[0]
                timed(wrong, "refused", lying)
                if refusals[0] != refused + 1 or not isinstance(ctl.view, ErrorView):
                    raise RuntimeError(f"the table did not refuse {wrong}")
            move = bot.next_move()
            if move is None:
                break
            if move.kind != "tap":
                press(move.button)
                continue
            before = len(ctl.session.hand().actions)
            timed(move, "accepted", lying)
            if len(ctl.session.hand().actions) != before + 1:
                raise RuntimeError(f"the table did not take {move}: {list(ctl.notices)[-2:]}")
        if ctl.model.overlay is not None:   # a message first: OK takes it away
            press("ok")
        press("ok")
    ctl.close()
    mock.close()
    return out


def _lying(ctl: Controller) -> int:
    """Cards of the current trick already on the table (0 to 3)."""
    flow = ctl.session.hand().flow
    deal = flow.deal if flow is not None else None
    return min(len(deal.current_trick), 3) if deal is not None else 0


# ----- the indicators on a refusal ------------------------------------------------------------

def indicator_costs(rounds: int = 200) -> dict[str, float]:
    """CPU (us, best of 5) of what a refusal and the play after it ask of the
    LEDs and the buzzer, on gpiozero's MockFactory: the table's adapter (one
    blinker thread, one player thread) and gpiozero's own `blink` (a thread
    started and stopped each time), as the adapter did before."""
    from gpiozero import LED

    from hw_mocks.gpio import mock_factory
    from table.drivers.gpio import GpioIndicators

    factory = mock_factory()
    ind = GpioIndicators(factory, [4, 27], status_pin=26, buzzer_pin=12)
    led = LED(5, pin_factory=factory)

    def best(step: Any) -> float:
        out = []
        for _ in range(5):
            t = time.thread_time()
            for _ in range(rounds):
                step()
            out.append((time.thread_time() - t) / rounds * 1e6)
        return min(out)

    def ours() -> None:
        ind.seat_led(0, "fast_blink")
        ind.seat_led(0, "on")

    def gpiozero_blink() -> None:
        led.blink(on_time=0.1, off_time=0.1, background=True)
        led.on()

    try:
        return {"blink": best(ours), "gpiozero blink": best(gpiozero_blink),
                "beep": best(lambda: ind.buzz("error"))}
    finally:
        led.close()
        ind.close()


# ----- the report ------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=12, help="hands played (default 12)")
    parser.add_argument("--samples", type=int, default=120,
                        help="cards put down per reader situation (default 120)")
    parser.add_argument("--gap", type=float, default=GAP_S,
                        help="idle time between two events on a Zero 2 W, seconds, for the "
                             f"controller's idle work (default {GAP_S:g}; 0: none)")
    parser.add_argument("--dir", default=None,
                        help="folder for the journal (default: a temporary folder in "
                             "/var/tmp, on disk: real fsyncs)")
    args = parser.parse_args(argv)
    if args.hands < 1 or args.samples < 1:
        parser.error("--hands and --samples need 1 or more")
    if not args.gap >= 0:
        parser.error("--gap needs 0 or more seconds")
    rng = random.Random(15)
    logging.disable(logging.CRITICAL)
    try:
        readers = reader_cycle(args.samples, rng)
        where = args.dir or ("/var/tmp" if os.access("/var/tmp", os.W_OK) else None)
        with tempfile.TemporaryDirectory(prefix="cardtable-touch-", dir=where) as tmp:
            verdicts = controller_path(args.hands, rng, Path(tmp), args.gap)
    finally:
        logging.disable(logging.NOTSET)

    print(f"Touch -> verdict on {platform.machine()} ({platform.processor() or 'cpu'}, "
          f"{os.cpu_count()} cores), Python {platform.python_version()}; Filicău, hands "
          f"scanned, {args.hands} hands; Zero 2 W estimate: CPU x {ZERO_2W}; idle time "
          f"between two events {args.gap:g} s (Zero 2 W).\n")
    print(f"Reader cycle (5 readers at {SPI_HZ / 1e6:g} MHz, polled every "
          f"{CYCLE_S * 1000:g} ms; emulator's virtual time with the driver's CPU x {ZERO_2W}):\n")
    print("| cards lying on other readers | SPI transfers per cycle | SPI bus ms per cycle | "
          "driver CPU ms per cycle here | cycle ms (Zero 2 W) | put down -> reported "
          "p50 / p99 ms (Zero 2 W) |")
    print("|---|---|---|---|---|---|")
    for lying in sorted(readers.latency_ms):
        lat = readers.latency_ms[lying]
        print(f"| {lying} | {readers.transfers[lying]:.0f} | {readers.bus_ms[lying]:.2f} | "
              f"{readers.driver_cpu_ms[lying]:.2f} | {readers.cycle_ms[lying]:.1f} | "
              f"{percentile(lat, 50):.1f} / {percentile(lat, 99):.1f} |")
    print()
    sample = random.Random(7)
    ok = True
    print("| verdict | cards | controller CPU here p50 / p99 | journal fsync waits before the "
          "verdict p50 / p99 (after it, not in it: p50 / p99) | "
          "I2C per verdict: bytes, transactions, ms (p50 / p99) | here, reader excluded "
          "p50 / p99 | waits for idle work (Zero 2 W): share, max | Zero 2 W estimate "
          "p50 / p99 | target p99 < 100 ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    for kind in ("accepted", "refused"):
        vs = [v for v in verdicts if v.kind == kind]
        if not vs:
            continue
        cpu = [v.cpu_ms for v in vs]
        waits = [v.io_ms for v in vs]
        synced = [v.sync_ms for v in vs]
        here = [v.cpu_ms + v.io_ms + v.i2c_ms for v in vs]
        zero = [sample.choice(readers.latency_ms[v.lying]) + v.wait_ms + v.cpu_ms * ZERO_2W
                + v.io_ms + v.i2c_ms for v in vs]
        p99 = percentile(zero, 99)
        met = p99 < TARGET_MS
        ok = ok and met
        print(f"| {kind} | {len(vs)} | {percentile(cpu, 50):.2f} / {percentile(cpu, 99):.2f} ms"
              f" | {percentile(waits, 50):.2f} / {percentile(waits, 99):.2f} ms "
              f"({percentile(synced, 50):.2f} / {percentile(synced, 99):.2f} ms) | "
              f"{statistics.mean(v.i2c_bytes for v in vs):.0f} B, "
              f"{statistics.mean(v.i2c_transactions for v in vs):.1f}, "
              f"{percentile([v.i2c_ms for v in vs], 50):.1f} / "
              f"{percentile([v.i2c_ms for v in vs], 99):.1f} ms | "
              f"{percentile(here, 50):.1f} / {percentile(here, 99):.1f} ms | "
              f"{sum(v.wait_ms > 0 for v in vs) / len(vs):.1%}, "
              f"{max(v.wait_ms for v in vs):.1f} ms | "
              f"{percentile(zero, 50):.1f} / {p99:.1f} ms "
              f"({p99 / TARGET_MS:.2f} of the budget) | {'met' if met else 'MISSED'} |")
    leds = indicator_costs()
    print(f"\nIndicators (CPU here per refusal and the play after it): an LED set blinking "
          f"and back {leds['blink']:.1f} us (gpiozero's blink, a thread each time: "
          f"{leds['gpiozero blink']:.1f} us); the error beep {leds['beep']:.1f} us.")
    print(f"\nDebounce: none on these paths (a card read where it makes sense is taken at "
          f"once); before, every verdict waited debounce_ms = "
          f"{TableSettings().debounce_ms} ms first.")
    return 0 if ok else 1


if __name__ == "__main__":
    from pinning import one_core

    one_core()
    sys.exit(main())
