# The hub's line protocol (see PROTOCOL.md): framing, checksum, commands.
# MicroPython and CPython alike: no typing, no dataclasses.

MAX_COMMAND = 80


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): "123456789" -> 0x29B1."""
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
        crc &= 0xFFFF
    return crc


def frame(seq, kind, fields):
    """One line from the hub: $<seq>,<KIND>[,<field>...]*<CRC>\\n"""
    body = "%d,%s" % (seq, kind)
    for field in fields:
        body += "," + str(field)
    return "$%s*%04X\n" % (body, crc16(body.encode()))


class BadCommand(Exception):
    # super().__init__: MicroPython's Exception has no __init__ attribute to call
    def __init__(self, code, detail=""):
        super().__init__(code)
        self.code = code
        self.detail = detail


def parse_command(line):
    """A line from the host, without its end of line: `$KIND[,f...]*CRC`, or
    a bare `KIND[,f...]` typed by a person. Returns (KIND, [fields])."""
    if len(line) > MAX_COMMAND:
        raise BadCommand("LONG")
    for byte in line:
        if byte >= 0x80:  # not ASCII (UTF-8 letters would pass isalpha below)
            raise BadCommand("BADCHAR")
    text = line.decode()
    text = text.strip()
    if text.startswith("$"):
        star = text.rfind("*")
        if star < 0 or len(text) - star != 5:
            raise BadCommand("BADCRC")
        body = text[1:star]
        try:
            crc = int(text[star + 1:], 16)
        except ValueError:
            raise BadCommand("BADCRC")
        if crc != crc16(body.encode()):
            raise BadCommand("BADCRC")
    else:
        body = text
    parts = body.split(",")
    kind = parts[0].upper()
    if not kind or not kind.isalpha():
        # echoed in the ERR line: only letters and digits, never ',' '*' '$'
        raise BadCommand("BADCMD", "".join(c for c in kind if c.isalpha() or c.isdigit())[:12])
    return kind, parts[1:]


def uid_hex(uid):
    return "".join("%02X" % b for b in uid)
