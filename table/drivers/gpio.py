"""Buttons, LEDs and the buzzer on the Pi's GPIO, through gpiozero.

Every device is given its pin factory explicitly (lgpio on a Pi 5 and on
any current Raspberry Pi OS, RPi.GPIO where lgpio is missing, gpiozero's
MockFactory in tests): no hidden default factory.

Buttons post `ButtonPressed` on the controller's queue: a short press when
the button is released, a long press as soon as it has been held `hold_s`
(gpiozero's `when_held`), so MENU reacts while still held. Blinking LEDs
are all driven by one long-lived thread (`Blinker`), and the buzzer's
patterns by another: gpiozero's `blink` would start a thread for every LED
switched to blinking (on every refused card) and stop one for every LED
switched back. Contact bounce is
filtered twice: gpiozero's `bounce_time` where the pin factory implements
it, and here, with the table's clock, for a press shorter than the bounce
time or one that starts within it after a release.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

from table.ports import DEALER, ButtonName, ButtonPressed, BuzzPattern, Clock, LedPattern, Post

log = logging.getLogger(__name__)

#: (seconds on, seconds off) of the blinking LED patterns.
LED_TIMINGS: dict[str, tuple[float, float]] = {"blink": (0.5, 0.5), "fast_blink": (0.1, 0.1)}
LED_PATTERNS: tuple[str, ...] = ("off", "on", "blink", "fast_blink")

#: Each buzzer pattern as (tone in Hz, milliseconds) steps; tone 0 is silence.
#: An active buzzer sounds its own tone whenever the step's tone is not 0.
BUZZ_PATTERNS: dict[str, tuple[tuple[int, int], ...]] = {
    "ok": ((2000, 60),),
    "turn": ((2500, 25),),
    "error": ((440, 120), (0, 60), (440, 120), (0, 60), (440, 120)),
    "match_end": ((1047, 150), (0, 50), (1319, 150), (0, 50), (1568, 400)),
}


class GpioIndicators:
    """The `Indicators` port: one LED per seat (None where a seat has none),
    a status LED and a buzzer ("active" or "passive"), any of them absent.

    `seat_patterns` and `status_pattern` are the patterns last asked for
    (also for a seat without an LED): what the table means to show, which
    the simulator draws and tests read. `time_scale` shortens the buzzer
    patterns (tests)."""

    def __init__(self, pin_factory: Any, seat_pins: Sequence[int | None],
                 status_pin: int | None = None, buzzer_pin: int | None = None, *,
                 buzzer_kind: str = "active", active_high: bool = True,
                 buzzer_active_high: bool = True, time_scale: float = 1.0) -> None:
        from gpiozero import LED, DigitalOutputDevice, PWMOutputDevice

        if buzzer_kind not in ("active", "passive"):
            raise ValueError(f"buzzer kind must be active or passive, not {buzzer_kind!r}")
        self.factory = pin_factory
        self._devices: list[Any] = []
        try:
            self.seat_leds: list[Any | None] = []
            for pin in seat_pins:
                led = None if pin is None else LED(pin, active_high=active_high,
                                                   pin_factory=pin_factory)
                self.seat_leds.append(led)
                self._devices.append(led)
            self.status = None if status_pin is None else LED(
                status_pin, active_high=active_high, pin_factory=pin_factory)
            self._devices.append(self.status)
            self.buzzer_kind = buzzer_kind
            if buzzer_pin is None:
                self.buzzer = None
            elif buzzer_kind == "active":
                self.buzzer = DigitalOutputDevice(buzzer_pin, active_high=buzzer_active_high,
                                                  pin_factory=pin_factory)
            else:
                self.buzzer = PWMOutputDevice(buzzer_pin, active_high=buzzer_active_high,
                                              frequency=440, pin_factory=pin_factory)
            self._devices.append(self.buzzer)
        except Exception:
            self.close()
            raise
        self.time_scale = time_scale
        self.seat_patterns: dict[int, LedPattern] = dict.fromkeys(range(len(seat_pins)), "off")
        self.status_pattern: LedPattern = "off"
        self._lock = threading.Lock()
        self.blinker = Blinker(self._lock)
        #: The buzzer's player thread waits on this for a pattern (`_song`).
        self._tune = threading.Condition(self._lock)
        self._song: Sequence[tuple[int, int]] | None = None
        self._idle = threading.Event()
        self._idle.set()
        self._closing = False
        self._player: threading.Thread | None = None

    # ----- LEDs ---------------------------------------------------------------------

    def seat_led(self, seat: int, pattern: LedPattern) -> None:
        _check_pattern(pattern)
        if seat == DEALER:
            return
        if not 0 <= seat < len(self.seat_leds):
            raise ValueError(f"there is no seat {seat} (seats 0..{len(self.seat_leds) - 1})")
        led = self.seat_leds[seat]
        with self._lock:
            self.seat_patterns[seat] = pattern
            if led is not None:
                self.blinker.drive(led, pattern)

    def status_led(self, pattern: LedPattern) -> None:
        _check_pattern(pattern)
        with self._lock:
            self.status_pattern = pattern
            if self.status is not None:
                self.blinker.drive(self.status, pattern)

    # ----- buzzer -------------------------------------------------------------------

    def buzz(self, pattern: BuzzPattern) -> None:
        """Play `pattern`, cutting short the one playing (one long-lived
        player thread, started at the first beep)."""
        steps = BUZZ_PATTERNS.get(pattern)
        if steps is None:
            raise ValueError(f"unknown buzzer pattern {pattern!r}; the patterns are: "
                             + ", ".join(BUZZ_PATTERNS))
        if self.buzzer is None:
            return
        with self._lock:
            if self._closing:
                return
            self._song = steps
            self._idle.clear()
            if self._player is None:
                self._player = threading.Thread(target=self._play, name="buzzer",
                                                daemon=True)
                self._player.start()
            self._tune.notify()

    def wait_buzzer(self, timeout: float | None = None) -> bool:
        """Wait until the pattern playing now has ended (tests, doctor)."""
        return self._idle.wait(timeout)

    def _play(self) -> None:
        """The player thread: each pattern asked for, step by step; a new
        one cuts the one playing short (silence between them)."""
        buzzer = self.buzzer
        with self._tune:
            while not self._closing:
                steps, self._song = self._song, None
                if steps is None:
                    self._idle.set()
                    self._tune.wait()
                    continue
                try:
                    for tone, ms in steps:
                        self._sound(buzzer, tone)
                        end = time.monotonic() + ms / 1000 * self.time_scale
                        while self._song is None and not self._closing:
                            left = end - time.monotonic()
                            if left <= 0:
                                break
                            self._tune.wait(left)
                        if self._song is not None or self._closing:
                            break
                except Exception as exc:  # noqa: BLE001 - a closed device must not kill the table
                    log.warning("buzzer pattern stopped: %s", exc)
                try:
                    self._sound(buzzer, 0)
                except Exception:  # noqa: BLE001, S110 - already closed
                    pass
            self._idle.set()

    def _sound(self, buzzer: Any, tone: int) -> None:
        if tone and self.buzzer_kind == "passive":
            buzzer.frequency = tone
            buzzer.value = 0.5
        elif tone:
            buzzer.on()
        else:
            buzzer.off()

    def _stop_player(self) -> None:
        with self._lock:
            self._closing = True
            self._tune.notify()
        player, self._player = self._player, None
        if player is not None and player is not threading.current_thread():
            player.join(1.0)

    def close(self) -> None:
        if hasattr(self, "_lock"):
            self._stop_player()
            self.blinker.close()
        for dev in getattr(self, "_devices", []):
            if dev is not None:
                dev.close()


def _check_pattern(pattern: str) -> None:
    if pattern not in LED_PATTERNS:
        raise ValueError(f"unknown LED pattern {pattern!r}; the patterns are: "
                         + ", ".join(LED_PATTERNS))


class Blinker:
    """Every blinking LED of the table on one thread, started at the first
    blink and kept until `close`. An LED switched to blinking lights at once
    and then goes off and on at its pattern's times, counted from that
    moment (as gpiozero's `blink` does, without a thread per LED).

    `lock` is the indicators' lock: `drive` is called holding it, and the
    thread holds it while it switches LEDs, so a pattern changed meanwhile
    is never overwritten."""

    def __init__(self, lock: threading.Lock) -> None:
        self._wake = threading.Condition(lock)
        #: id(led) -> [led, seconds on, seconds off, started, lit now]
        self._leds: dict[int, list[Any]] = {}
        self._thread: threading.Thread | None = None
        self._closing = False

    def drive(self, led: Any, pattern: str) -> None:
        """Show `pattern` on `led` (the lock held)."""
        if pattern in ("on", "off"):
            self._leds.pop(id(led), None)
            led.on() if pattern == "on" else led.off()
            return
        on, off = LED_TIMINGS[pattern]
        current = self._leds.get(id(led))
        if current is not None and (current[1], current[2]) == (on, off):
            return                              # already blinking so
        led.on()
        self._leds[id(led)] = [led, on, off, time.monotonic(), True]
        if self._thread is None and not self._closing:
            self._thread = threading.Thread(target=self._run, name="led-blinker",
                                            daemon=True)
            self._thread.start()
        self._wake.notify()

    @property
    def blinking(self) -> int:
        return len(self._leds)

    def _run(self) -> None:
        with self._wake:
            while not self._closing:
                now = time.monotonic()
                wait: float | None = None
                for entry in list(self._leds.values()):
                    led, on, off, started, lit = entry
                    phase = (now - started) % (on + off)
                    want = phase < on
                    if want != lit:
                        try:
                            led.on() if want else led.off()
                        except Exception as exc:  # noqa: BLE001 - a closed LED: forget it
                            log.warning("LED blinking stopped: %s", exc)
                            self._leds.pop(id(led), None)
                            continue
                        entry[4] = want
                    edge = (on - phase) if want else (on + off - phase)
                    wait = edge if wait is None else min(wait, edge)
                self._wake.wait(wait)

    def close(self) -> None:
        """Stop the thread (the lock not held)."""
        with self._wake:
            self._closing = True
            self._leds.clear()
            self._wake.notify()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(1.0)


class GpioButtons:
    """The `Buttons` port: OK, UNDO and MENU on gpiozero `Button`s (see the
    module docstring for press, long press and bounce)."""

    NAMES: tuple[str, ...] = ("ok", "undo", "menu")

    def __init__(self, pin_factory: Any, pins: Mapping[str, int], clock: Clock, *,
                 hold_s: float = 1.0, bounce_ms: int = 30, pull_up: bool = True) -> None:
        from gpiozero import Button

        unknown = set(pins) - set(self.NAMES)
        if unknown:
            raise ValueError(f"unknown button {sorted(unknown)[0]!r}: the buttons are "
                             "ok, undo, menu")
        self.factory = pin_factory
        self.clock = clock
        self.hold_s = hold_s
        self.bounce_s = bounce_ms / 1000
        self.pull_up = pull_up
        self._lock = threading.Lock()
        self._post: Post | None = None
        self._pressed_at: dict[str, float] = {}
        self._released_at: dict[str, float] = {}
        self._long_sent: set[str] = set()
        self._ignoring: set[str] = set()
        self.buttons: dict[str, Any] = {}
        try:
            for name, pin in pins.items():
                b = Button(pin, pull_up=pull_up, bounce_time=self.bounce_s or None,
                           hold_time=hold_s, pin_factory=pin_factory)
                b.when_pressed = self._handler(self._pressed, name)
                b.when_released = self._handler(self._released, name)
                b.when_held = self._handler(self._held, name)
                self.buttons[name] = b
        except Exception:
            self.close()
            raise

    @staticmethod
    def _handler(method: Any, name: str) -> Any:
        def handle() -> None:
            method(name)
        return handle

    def start(self, post: Post) -> None:
        self._post = post

    def stop(self) -> None:
        self._post = None

    def _emit(self, name: str, long: bool) -> None:
        post = self._post
        if post is not None:
            button: ButtonName = name  # type: ignore[assignment]  # the names given are buttons'
            post(ButtonPressed(button, long=long))

    def _pressed(self, name: str) -> None:
        now = self.clock.now()
        with self._lock:
            last = self._released_at.get(name)
            if last is not None and now - last < self.bounce_s:
                self._ignoring.add(name)       # the contact bouncing after a release
                return
            self._ignoring.discard(name)
            self._pressed_at[name] = now
            self._long_sent.discard(name)

    def _held(self, name: str) -> None:
        with self._lock:
            if name not in self._pressed_at or name in self._long_sent or name in self._ignoring:
                return
            self._long_sent.add(name)
        self._emit(name, True)

    def _released(self, name: str) -> None:
        now = self.clock.now()
        with self._lock:
            if name in self._ignoring:
                self._ignoring.discard(name)
                return
            t0 = self._pressed_at.pop(name, None)
            self._released_at[name] = now
            if t0 is None or name in self._long_sent:
                self._long_sent.discard(name)
                return
            held = now - t0
            if held < self.bounce_s:
                return                          # a glitch, not a press
        self._emit(name, held >= self.hold_s)

    def pin(self, name: str) -> Any:
        """The gpiozero pin behind a button."""
        return self.buttons[name].pin

    def close(self) -> None:
        self.stop()
        # gpiozero's hold thread of each Button looks for a stop only every
        # 0.1 s: wake them all at once, so closing does not wait for each in turn.
        for b in self.buttons.values():
            thread = getattr(b, "_hold_thread", None)
            if thread is not None:
                thread.stopping.set()
                thread.holding.set()
        for b in self.buttons.values():
            b.close()
