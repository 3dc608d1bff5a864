# One MFRC522 on the hub's SPI bus, and which cards lie on it.
#
# The same method as the Pi's direct driver (table/drivers/mfrc522_*.py):
# waits driven by the chip's timer (TimerIRq 0.5 ms after a frame nobody
# answers), register bursts, full cascade for 7-byte UIDs, VersionReg checked
# at every interrupt check; every command started from Idle; after a soft
# reset, up to 25 ms for the oscillator to start; ATQA checked (16 bits, no
# error but a collision); in anticollision CollErr wins over the parity and
# protocol errors a clash also raises, and ValuesAfterColl is cleared.
# Presence: known cards lie in HALT, all others in IDLE; REQA finds new ones,
# each known card is looked for by WUPA + SELECT with its UID + HLTA (the
# HLTA also sends any card the WUPA woke back to IDLE for the next REQA);
# after a card has left, the field is reset so that every card restarts in
# IDLE. See table/drivers/mfrc522_cards.py for the reasoning. MicroPython and
# CPython alike: `spi` needs write_readinto, `cs` is a Pin (or a callable
# taking 0/1), `sleep_us` waits.

COMMAND = 0x01
COM_IRQ = 0x04
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_CONTROL = 0x14
TX_ASK = 0x15
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

IDLE = 0x00
TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F
POWER_DOWN = 0x10
RX_IRQ = 0x20
TIMER_IRQ = 0x01
COLL_ERR = 0x08

REQA = 0x26
WUPA = 0x52
SELECT_CODES = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88

PRESCALER = 67   # 13.56 MHz / 135 = 100.4 kHz
RELOAD = 49      # 50 ticks = 0.498 ms
TIMEOUT_US = 498
ETU_US = 9.44    # one bit at 106 kbit/s
FDT_US = 91
STARTUP_STEPS = 50  # after a soft reset: up to 50 x 0.5 ms for the chip to answer
RF_RESET_US = 5000

# what a REQA or WUPA heard
SILENT = 0
ANSWERED = 1
GARBLED = 2


class Fault(Exception):
    pass


def crc_a(data):
    crc = 0x6363
    for value in data:
        value ^= crc & 0xFF
        value = (value ^ (value << 4)) & 0xFF
        crc = (crc >> 8) ^ (value << 8) ^ (value << 3) ^ (value >> 4)
    return bytes((crc & 0xFF, (crc >> 8) & 0xFF))


def air_us(bits):
    return int((bits + bits // 8 + 2) * ETU_US) + 1


def bits_of(data, count):
    return [(data[i // 8] >> (i % 8)) & 1 for i in range(count)]


def pack(bits):
    out = bytearray((len(bits) + 7) // 8)
    for i in range(len(bits)):
        if bits[i]:
            out[i // 8] |= 1 << (i % 8)
    return bytes(out)


def bcc(part):
    return part[0] ^ part[1] ^ part[2] ^ part[3]


class Rc522:
    def __init__(self, spi, cs, sleep_us):
        self.spi = spi
        self.cs = cs
        self.sleep_us = sleep_us
        self.version = None

    def _xfer(self, out):
        back = bytearray(len(out))
        self.cs(0)
        try:
            self.spi.write_readinto(out, back)
        finally:
            self.cs(1)
        return back

    def write(self, reg, value):
        self._xfer(bytes(((reg << 1) & 0x7E, value)))

    def read_many(self, regs):
        out = bytearray(len(regs) + 1)
        for i in range(len(regs)):
            out[i] = ((regs[i] << 1) & 0x7E) | 0x80
        return self._xfer(out)[1:]

    def read(self, reg):
        return self.read_many((reg,))[0]

    def init(self):
        self.version = None
        self.write(COMMAND, SOFT_RESET)
        version = 0
        for _ in range(STARTUP_STEPS):
            self.sleep_us(500)
            command, version = self.read_many((COMMAND, VERSION))
            if version not in (0x00, 0xFF) and not command & POWER_DOWN:
                break
        if version in (0x00, 0xFF):
            raise Fault("VersionReg 0x%02X" % version)
        self.write(T_MODE, 0x80)
        self.write(T_PRESCALER, PRESCALER)
        self.write(T_RELOAD_H, 0)
        self.write(T_RELOAD_L, RELOAD)
        self.write(TX_ASK, 0x40)
        self.write(MODE, 0x3D)
        if self.read(T_PRESCALER) != PRESCALER:
            raise Fault("registers do not hold")
        self.antenna_on()
        self.version = version
        return version

    def antenna_off(self):
        self.write(TX_CONTROL, self.read(TX_CONTROL) & 0xFC)

    def antenna_on(self):
        self.write(TX_CONTROL, self.read(TX_CONTROL) | 0x03)

    def antenna_is_on(self):
        return self.read(TX_CONTROL) & 0x03 == 0x03

    def transceive(self, data, last_bits=0, align=0, reply_bits=0):
        """(data, bits, errors, collision) or None when nobody answered."""
        self.write(COMMAND, IDLE)  # a Transceive still listening stops
        self.write(COM_IRQ, 0x7F)
        self.write(FIFO_LEVEL, 0x80)
        self._xfer(bytes(((FIFO_DATA << 1) & 0x7E,)) + bytes(data))
        self.write(COMMAND, TRANSCEIVE)
        self.write(BIT_FRAMING, 0x80 | (align << 4) | last_bits)
        sent = len(data) * 8 - ((8 - last_bits) if last_bits else 0)
        if not reply_bits:
            self.sleep_us(air_us(sent) + 30)
            return None
        self.sleep_us(air_us(sent) + max(TIMEOUT_US, FDT_US + air_us(reply_bits)) + 30)
        for _ in range(4):
            irq, version = self.read_many((COM_IRQ, VERSION))
            if version != self.version:
                raise Fault("VersionReg 0x%02X" % version)
            if irq & RX_IRQ:
                break
            if irq & TIMER_IRQ:
                return None
            self.sleep_us(TIMEOUT_US)
        else:
            raise Fault("no interrupt")
        errors, level, control, coll = self.read_many((ERROR, FIFO_LEVEL, CONTROL, COLL))
        level = min(level & 0x7F, 64)
        got = bytes(self.read_many((FIFO_DATA,) * level)) if level else b""
        last = control & 0x07
        bits = max(0, level * 8 - ((8 - last) if last else 0) - align)
        collision = None
        if errors & COLL_ERR:
            collision = 0 if coll & 0x20 else ((coll & 0x1F) or 32)
        return got, bits, errors, collision

    # ----- ISO/IEC 14443-3 A ---------------------------------------------------

    def request(self, code):
        """SILENT, ANSWERED (16 bits, no error but a collision) or GARBLED."""
        reply = self.transceive(bytes((code,)), 7, 0, 16)
        if reply is None:
            return SILENT
        if reply[1] == 16 and (reply[3] is not None or not reply[2]):
            return ANSWERED
        return GARBLED

    def halt(self):
        self.transceive(b"\x50\x00" + crc_a(b"\x50\x00"))

    def _select(self, code, part):
        frame = bytes((code, 0x70)) + part
        reply = self.transceive(frame + crc_a(frame), 0, 0, 24)
        if reply is None or reply[2] or reply[1] != 24 or crc_a(reply[0][:1]) != reply[0][1:3]:
            return None
        return reply[0][0]

    def _anticollision(self, code):
        self.write(COLL, 0)  # ValuesAfterColl = 0
        known = []
        while len(known) < 40:
            count = len(known)
            frame = bytes((code, ((2 + count // 8) << 4) | (count % 8))) + pack(known)
            align = count % 8
            reply = self.transceive(frame, align, align, 40 - count)
            if reply is None:
                return None
            received = bits_of(reply[0], align + reply[1])[align:]
            if reply[3] is None:  # no CollErr: any other error spoils it
                if reply[2]:
                    return None
                known += received
                if len(known) != 40:
                    return None
                break
            if reply[3] == 0:
                return None
            position = (count // 8) * 8 + reply[3] - 1
            if position < count or position >= 40:
                return None
            known += received[:position - count] + [1]
        part = pack(known)
        return part if bcc(part) == part[4] else None

    def identify(self):
        uid = b""
        for code in SELECT_CODES:
            part = self._anticollision(code)
            if part is None:
                return None
            sak = self._select(code, part)
            if sak is None:
                return None
            if sak & 0x04:
                if part[0] != CASCADE_TAG:
                    return None
                uid += part[1:4]
                continue
            return uid + part[:4]
        return None

    def select_uid(self, uid):
        levels = {4: 1, 7: 2, 10: 3}[len(uid)]
        for level in range(levels):
            if level < levels - 1:
                part = bytes((CASCADE_TAG,)) + uid[3 * level:3 * level + 3]
            else:
                part = uid[3 * level:3 * level + 4]
            sak = self._select(SELECT_CODES[level], part + bytes((bcc(part),)))
            if sak is None or bool(sak & 0x04) != (level < levels - 1):
                return False
        return True


class Tracker:
    """The cards on one reader: `poll()` -> (arrived, left) UID lists.
    `group`: the chips whose fields are reset with this one's when a card
    has left (all the hub's readers: a card slid from one to the next was
    halted by the first and would never answer the second's REQA)."""

    def __init__(self, chip, misses_to_leave=3, group=None):
        self.chip = chip
        self.misses_to_leave = misses_to_leave
        self.misses = {}
        self.group = group if group is not None else [chip]

    def poll(self):
        chip = self.chip
        arrived = []
        identified = []
        retries = 2
        for _ in range(6):
            heard = chip.request(REQA)
            if heard == SILENT:
                break
            uid = chip.identify() if heard == ANSWERED else None
            if uid is None:
                chip.request(REQA)  # back to IDLE for the next try
                if not retries:
                    break
                retries -= 1
                continue
            chip.halt()
            identified.append(uid)
            if uid not in self.misses:
                arrived.append(uid)
            self.misses[uid] = 0
        left = []
        for uid in [u for u in self.misses if u not in identified]:
            if self._still_here(uid):
                self.misses[uid] = 0
                continue
            self.misses[uid] += 1
            if self.misses[uid] >= self.misses_to_leave:
                del self.misses[uid]
                left.append(uid)
        if left:
            self.rf_reset()
        return arrived, left

    def rf_reset(self):
        """The fields of the group that are on, off and on again."""
        switched = []
        for other in self.group + [self.chip]:
            if other in switched:
                continue
            try:
                if other.antenna_is_on():
                    other.antenna_off()
                    switched.append(other)
            except Fault:
                if other is self.chip:
                    raise
        self.chip.sleep_us(RF_RESET_US)
        for other in switched:
            other.antenna_on()

    def _still_here(self, uid):
        chip = self.chip
        for _ in range(2):
            chip.request(WUPA)  # wakes it; any card's answer proves nothing
            here = chip.select_uid(uid)
            chip.halt()  # it to HALT, any other card woken back to IDLE
            if here:
                return True
        return False
