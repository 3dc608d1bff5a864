# The reader hub: polls up to 8 MFRC522 readers and reports on USB serial
# with the line protocol of PROTOCOL.md. `main()` runs it on a Pico;
# `Hub` takes its readers, port and clock functions from outside, so the same
# code runs under CPython in the tests.

import wire
from rc522 import Fault, Rc522, Tracker

NAME = "cardtable-hub"
VERSION = "1.2.0"
PROTOCOL = 1
MIN_RATE = 1
MAX_RATE = 200
#: Poll cycles after boot before the hub reports every card it holds (CARDS).
SETTLE_CYCLES = 3
#: The file that makes the next boot hand the REPL over instead of running
#: the hub (written when the host sends UPDATE, removed at that boot).
UPDATE_FLAG = "hub_update"


class Hub:
    def __init__(self, chips, port, ticks_ms, ticks_diff, sleep_ms, rate=50,
                 heartbeat_ms=1000, reset_cause="power", misses_to_leave=3):
        self.chips = list(chips)
        self.trackers = [Tracker(c, misses_to_leave, self.chips) for c in self.chips]
        self.online = [False] * len(self.chips)
        # channels polled (USE): the others have their antenna off
        self.used = [True] * len(self.chips)
        self.port = port
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff
        self.sleep_ms = sleep_ms
        self.rate = rate
        self.heartbeat_ms = heartbeat_ms
        self.reset_cause = reset_cause
        self.seq = 0
        self.cycles = 0
        self.running = True  # False once the host asked for UPDATE
        self.inbuf = bytearray()
        self.discarding = False
        self.started = ticks_ms()
        self.last_heartbeat = self.started
        self.retry_at = [self.started] * len(self.chips)

    # ----- output ----------------------------------------------------------------

    def send(self, kind, *fields):
        self.port.write(wire.frame(self.seq, kind, fields).encode())
        self.seq = (self.seq + 1) & 0xFFFF

    def cards_line(self):
        fields = []
        for i in range(len(self.chips)):
            if not self.online[i]:
                fields.append("!")
            else:
                fields.append("+".join(wire.uid_hex(u) for u in self.trackers[i].misses))
        self.send("CARDS", *fields)

    def online_mask(self):
        mask = 0
        for i in range(len(self.chips)):
            if self.online[i]:
                mask |= 1 << i
        return "%02X" % mask

    # ----- start -----------------------------------------------------------------

    def boot(self):
        self.send("BOOT", NAME, VERSION, len(self.chips), self.reset_cause)
        for i in range(len(self.chips)):
            self._bring_up(i, report=True)

    def _bring_up(self, i, report):
        try:
            self.chips[i].init()
        except Fault as exc:
            if report:
                self.send("ERR", i, "OFFLINE", str(exc))
            self.online[i] = False
            self.retry_at[i] = self.ticks_ms() + 1000
            return False
        was = self.online[i]
        self.online[i] = True
        if not was and not report:
            self.send("BACK", i)
        return True

    # ----- one cycle -------------------------------------------------------------

    def step(self):
        self.read_commands()
        if not self.running:
            return  # UPDATE was answered: no poll after it
        now = self.ticks_ms()
        for i in range(len(self.chips)):
            if not self.used[i]:
                continue
            if not self.online[i]:
                if self.ticks_diff(now, self.retry_at[i]) >= 0:
                    self._bring_up(i, report=False)
                    if not self.online[i]:
                        self.retry_at[i] = now + 1000
                continue
            try:
                arrived, left = self.trackers[i].poll()
            except Fault as exc:
                if self._bring_up(i, report=False):
                    continue
                self.send("ERR", i, "OFFLINE", str(exc))
                continue
            for uid in arrived:
                self.send("ON", i, wire.uid_hex(uid))
            for uid in left:
                self.send("OFF", i, wire.uid_hex(uid))
        self.cycles += 1
        if self.cycles == SETTLE_CYCLES:
            self.cards_line()
        now = self.ticks_ms()
        if self.ticks_diff(now, self.last_heartbeat) >= self.heartbeat_ms:
            self.last_heartbeat = now
            uptime = self.ticks_diff(now, self.started) // 1000
            self.send("HB", uptime, self.online_mask(), self.rate)

    def use(self, mask):
        """Poll only the channels of `mask` (bit n = channel n): the others'
        antennas go off, their cards are forgotten (no OFF lines) and they
        are not looked at. A channel back in use is initialised again."""
        for i in range(len(self.chips)):
            want = bool(mask >> i & 1)
            if want == self.used[i]:
                continue
            self.used[i] = want
            if not want:
                self.trackers[i].misses = {}
                if self.online[i]:
                    self.chips[i].antenna_off()
            elif self.online[i]:
                self._bring_up(i, report=True)  # antenna on; ERR OFFLINE if it fails
            else:
                self.retry_at[i] = self.ticks_ms()  # tried again at the next cycle
        return mask & ((1 << len(self.chips)) - 1)

    def run(self, keep_going=None, feed=None):
        """Boot, then poll until `keep_going()` says no or the host sends
        UPDATE (then every antenna is switched off and it returns)."""
        self.boot()
        while self.running and (keep_going is None or keep_going()):
            start = self.ticks_ms()
            self.step()
            if feed is not None:
                feed()
            rest = 1000 // self.rate - self.ticks_diff(self.ticks_ms(), start)
            if rest > 0:
                self.sleep_ms(rest)
        if not self.running:
            self.antennas_off()

    def antennas_off(self):
        for i in range(len(self.chips)):
            if self.online[i]:
                try:
                    self.chips[i].antenna_off()
                except Fault:
                    pass

    # ----- commands from the host ------------------------------------------------

    def read_commands(self):
        data = self.port.read()
        if not data:
            return
        for byte in data:
            if byte in (10, 13):
                if self.discarding:
                    self.discarding = False
                    self.send("ERR", "-", "LONG")
                elif self.inbuf:
                    line = bytes(self.inbuf)
                    self.inbuf = bytearray()
                    self.command(line)
                continue
            if self.discarding or byte < 32 or byte == 127:
                continue  # control characters (a 0x03 from a terminal) are no part of it
            if len(self.inbuf) >= wire.MAX_COMMAND:
                self.inbuf = bytearray()
                self.discarding = True
                continue
            self.inbuf.append(byte)

    def command(self, line):
        try:
            kind, fields = wire.parse_command(line)
        except wire.BadCommand as exc:
            if exc.detail:
                self.send("ERR", "-", exc.code, exc.detail)
            else:
                self.send("ERR", "-", exc.code)
            return
        if kind == "VER":
            self.send("VER", NAME, VERSION, PROTOCOL)
        elif kind == "CARDS":
            if self.cycles >= SETTLE_CYCLES:
                self.cards_line()  # before that, the settle-time CARDS line answers
        elif kind == "RATE":
            try:
                rate = int(fields[0])
            except (IndexError, ValueError):
                rate = 0
            if not MIN_RATE <= rate <= MAX_RATE:
                self.send("ERR", "-", "BADARG", "RATE")
                return
            self.rate = rate
            self.send("OK", "RATE", rate)
        elif kind == "USE":
            text = fields[0] if len(fields) == 1 else ""
            if len(text) != 2 or not all(c in "0123456789ABCDEFabcdef" for c in text):
                self.send("ERR", "-", "BADARG", "USE")
                return
            self.send("OK", "USE", "%02X" % self.use(int(text, 16)))
        elif kind == "UPDATE":
            # the loop ends after this cycle; main() restarts into update mode
            self.send("OK", "UPDATE")
            self.running = False
        else:
            self.send("ERR", "-", "BADCMD", kind[:12])


# ----- on the Pico ---------------------------------------------------------------

class UsbPort:
    """USB serial through MicroPython's stdin/stdout, never blocking."""

    def __init__(self, sys, select):
        self.sys = sys
        self.poll = select.poll()
        self.poll.register(sys.stdin, select.POLLIN)

    def read(self):
        out = bytearray()
        while len(out) < 256 and self.poll.poll(0):
            out += self.sys.stdin.buffer.read(1)
        return bytes(out)

    def write(self, data):
        self.sys.stdout.buffer.write(data)


def build(machine, time, config, port):
    """The hub from `config` (hubconfig) on `machine`'s SPI and pins."""
    spi = machine.SPI(config.SPI_ID, baudrate=config.SPI_BAUD, polarity=0, phase=0,
                      sck=machine.Pin(config.SCK_PIN), mosi=machine.Pin(config.MOSI_PIN),
                      miso=machine.Pin(config.MISO_PIN))
    rst = machine.Pin(config.RST_PIN, machine.Pin.OUT, value=0)
    time.sleep_ms(1)
    rst.value(1)
    time.sleep_ms(1)
    chips = [Rc522(spi, machine.Pin(cs, machine.Pin.OUT, value=1), time.sleep_us)
             for cs in config.CS_PINS]
    cause = {getattr(machine, "PWRON_RESET", 1): "power",
             getattr(machine, "WDT_RESET", 3): "watchdog"}.get(machine.reset_cause(), "other")
    return Hub(chips, port, time.ticks_ms, time.ticks_diff, time.sleep_ms,
               rate=config.POLL_RATE, heartbeat_ms=config.HEARTBEAT_MS, reset_cause=cause)


def update_requested(os):
    """Whether this boot is the one after UPDATE (the flag is removed: only
    this boot, so a power cut in update mode brings the hub back)."""
    try:
        os.remove(UPDATE_FLAG)
    except OSError:
        return False
    return True


def main():
    import machine
    import micropython
    import os
    import select
    import sys
    import time

    import hubconfig

    if update_requested(os):
        # No watchdog, Ctrl-C works: the REPL (and mpremote) get the Pico.
        sys.stdout.write("cardtable-hub %s: update mode, the hub is stopped. Copy the "
                         "firmware (mpremote cp firmware/*.py :), then mpremote reset.\r\n"
                         % VERSION)
        return
    micropython.kbd_intr(-1)  # a 0x03 from the host is data, not Ctrl-C
    hub = build(machine, time, hubconfig, UsbPort(sys, select))
    wdt = machine.WDT(timeout=hubconfig.WATCHDOG_MS)  # once started, it cannot be stopped
    hub.run(feed=wdt.feed)
    # The host sent UPDATE: restart without the watchdog, into update mode.
    try:
        with open(UPDATE_FLAG, "w") as flag:
            flag.write("update\n")
    except OSError:
        pass  # no flash to write: the hub restarts as usual (BOOT again)
    time.sleep_ms(100)  # OK,UPDATE leaves the USB buffer before the reset
    machine.reset()
