"""The wiring picture of docs/hardware.md: the Pi's 40-pin header with what
each pin is wired to, drawn from a configuration with the same pin table
`cardtable config check` checks (`table.config`: `iter_pins`, `BUS_PINS`).

    python -m table.wiring docs/images/wiring.svg             # the defaults
    python -m table.wiring --config my.toml my-wiring.svg     # your table

The SVG is plain text written by hand (no drawing library), the same bytes
for the same configuration, so a test can keep docs/images/wiring.svg current.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

from table.config import BUS_PINS, Config, ConfigError, HubReader, SpiReader, iter_pins, load, loads

#: Physical pin (1..40) -> BCM GPIO number, or the supply it carries.
HEADER: dict[int, int | str] = {
    1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15,
    11: 17, 12: 18, 13: 27, 14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10, 20: "GND",
    21: 9, 22: 25, 23: 11, 24: 8, 25: "GND", 26: 7, 27: "ID_SD", 28: "ID_SC", 29: 5, 30: "GND",
    31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20, 39: "GND", 40: 21,
}
PHYSICAL: dict[int, int] = {gpio: pin for pin, gpio in HEADER.items() if isinstance(gpio, int)}

#: The buses' own pins, by function (BUS_PINS of table.config, named).
SPI_LINES: dict[int, dict[str, int]] = {
    0: {"SCLK": 11, "MOSI": 10, "MISO": 9},
    1: {"SCLK": 21, "MOSI": 20, "MISO": 19},
}
#: Hardware chip enables: (bus, device) -> GPIO (SPI1 with dtoverlay=spi1-3cs).
CHIP_ENABLES: dict[tuple[int, int], int] = {(0, 0): 8, (0, 1): 7, (1, 0): 18, (1, 1): 17,
                                            (1, 2): 16}
I2C_LINES: dict[str, int] = {"SDA": 2, "SCL": 3}

#: Which ground pin each part's ground wire goes to: one wire per pin, each
#: next to the part's signal pin where the header allows.
GROUNDS: dict[str, int] = {
    "readers' 3.3 V supply": 6,
    "OLED": 9,
    "seat and status LEDs (common)": 14,
    "spare": 20,
    "UNDO button": 25,
    "OK button": 30,
    "buzzer \u2212": 34,
    "MENU button": 39,
}

KINDS: dict[str, str] = {
    "spi0": "#1f77b4", "spi1": "#9467bd", "i2c": "#2ca02c", "button": "#ff7f0e",
    "led": "#d62728", "buzzer": "#8c564b", "cs": "#17becf", "power": "#e377c2",
    "ground": "#333333", "free": "#bbbbbb",
}
LEGEND: tuple[tuple[str, str], ...] = (
    ("spi0", "SPI0 (readers)"), ("spi1", "SPI1 (readers)"), ("cs", "chip select / reset"),
    ("i2c", "I2C (OLED)"), ("button", "buttons"), ("led", "LEDs"), ("buzzer", "buzzer"),
    ("power", "power"), ("ground", "ground"), ("free", "not used"))


@dataclass(frozen=True)
class Use:
    kind: str
    text: str


def pin_uses(config: Config) -> dict[int, list[Use]]:
    """Physical pin -> what is wired to it, for `config`."""
    uses: dict[int, list[Use]] = {}

    def add(gpio: int, kind: str, text: str) -> None:
        uses.setdefault(PHYSICAL[gpio], []).append(Use(kind, text))

    places = config.readers_by_place()
    spi = {p: r for p, r in places.items() if isinstance(r, SpiReader)}
    names = {i: f"seat {s.name}" for i, s in enumerate(config.seats)}
    buses = sorted({r.bus for r in spi.values()})
    for bus in buses:
        for line, gpio in SPI_LINES[bus].items():
            add(gpio, f"spi{bus}", f"SPI{bus} {line}: every SPI{bus} reader")
    resets = sorted({r.reset_pin for r in spi.values() if r.reset_pin is not None})
    for gpio in resets:
        add(gpio, "cs", "RST of every reader")
    for place, r in sorted(spi.items(), key=lambda item: (item[0] < 0, item[0])):
        who = names.get(place, "the dealer")
        if r.device is not None:
            add(CHIP_ENABLES[(r.bus, r.device)], "cs",
                f"SPI{r.bus} CE{r.device}: SDA of {who}'s reader")
    d = config.display
    if d.driver != "none" and d.interface == "i2c":
        for line, gpio in I2C_LINES.items():
            add(gpio, "i2c", f"OLED {line}")
    for what, gpio in iter_pins(config):
        if "chip select" in what:
            add(gpio, "cs", f"SDA of {what.split(' of ', 1)[1].removesuffix(' reader')}"
                f" reader (GPIO chip select)")
        elif "button" in what:
            add(gpio, "button", f"{what} (other leg to GND)")
        elif "LED" in what:
            add(gpio, "led", f"{what} + (through 330 \u03a9)")
        elif what == "buzzer":
            add(gpio, "buzzer", "buzzer +")
        else:
            add(gpio, "cs", what)
    uses.setdefault(1, []).append(Use("power", "3.3 V: OLED VCC (readers: see Power)"))
    uses.setdefault(2, []).append(Use("power", "5 V in from the supply; the readers' 3.3 V "
                                      "converter"))
    for part, pin in GROUNDS.items():
        if part != "spare":
            uses.setdefault(pin, []).append(Use("ground", f"GND: {part}"))
    return uses


def bus_pins_match() -> bool:
    """The named bus lines here are exactly config.BUS_PINS (a test checks it)."""
    spi0 = set(SPI_LINES[0].values()) | {CHIP_ENABLES[(0, 0)], CHIP_ENABLES[(0, 1)]}
    spi1 = set(SPI_LINES[1].values()) | {g for (b, _), g in CHIP_ENABLES.items() if b == 1}
    return (spi0 == set(BUS_PINS["spi0"]) and spi1 == set(BUS_PINS["spi1"])
            and set(I2C_LINES.values()) == set(BUS_PINS["i2c1"]))


def _label(pin: int) -> str:
    what = HEADER[pin]
    return f"GPIO{what}" if isinstance(what, int) else what


def svg(config: Config, title: str = "cardtable: the Pi's 40-pin header") -> str:
    """The picture, as SVG text."""
    uses = pin_uses(config)
    row_h, top, mid = 24, 70, 470
    width, height = 940, top + 20 * row_h + 140
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif" '
           'font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width // 2}" y="28" font-size="18" text-anchor="middle" '
           f'font-weight="bold">{escape(title)}</text>',
           f'<text x="{width // 2}" y="48" text-anchor="middle" fill="#555">pin 1 (square) '
           'is nearest the SD card end; odd pins on the left, even pins on the right; '
           'seen from above</text>',
           f'<rect x="{mid - 44}" y="{top - 14}" width="88" height="{20 * row_h + 4}" rx="6" '
           'fill="#222"/>']
    for row in range(20):
        y = top + row * row_h
        for side, pin in ((0, 2 * row + 1), (1, 2 * row + 2)):
            pin_uses_here = uses.get(pin, [])
            kind = pin_uses_here[0].kind if pin_uses_here else (
                "ground" if HEADER[pin] == "GND" else
                "power" if HEADER[pin] in ("3V3", "5V") else "free")
            colour = KINDS[kind]
            cx = mid - 12 if side == 0 else mid + 12
            if pin == 1:
                out.append(f'<rect x="{cx - 7}" y="{y - 7}" width="14" height="14" '
                           f'fill="{colour}" stroke="white"/>')
            else:
                out.append(f'<circle cx="{cx}" cy="{y}" r="7" fill="{colour}" '
                           'stroke="white"/>')
            num_x = mid - 24 if side == 0 else mid + 24
            anchor = "end" if side == 0 else "start"
            out.append(f'<text x="{num_x}" y="{y + 4}" text-anchor="{anchor}" fill="white" '
                       f'font-size="10">{pin}</text>')
            name_x = mid - 56 if side == 0 else mid + 56
            out.append(f'<text x="{name_x}" y="{y + 4}" text-anchor="{anchor}" '
                       f'font-weight="bold" fill="{colour}">{_label(pin)}</text>')
            text = "; ".join(u.text for u in pin_uses_here)
            if text:
                text_x = mid - 112 if side == 0 else mid + 112
                out.append(f'<text x="{text_x}" y="{y + 4}" text-anchor="{anchor}">'
                           f'{escape(text)}</text>')
    y = top + 20 * row_h + 20
    for i, (kind, name) in enumerate(LEGEND):
        x = 40 + (i % 5) * 180
        yy = y + (i // 5) * 22
        out.append(f'<circle cx="{x}" cy="{yy}" r="6" fill="{KINDS[kind]}"/>')
        out.append(f'<text x="{x + 12}" y="{yy + 4}">{escape(name)}</text>')
    hub = [r for r in config.readers_by_place().values() if isinstance(r, HubReader)]
    notes = ["Every reader: 3.3 V (never 5 V) and GND from the readers' supply (see Power in",
             "docs/hardware.md), SCK, MOSI, MISO of its bus, RST, and its own chip select "
             "(SDA on the board).",
             "Boards that do not let go of MISO need a 74HC125 buffer (Shared MISO in "
             "docs/hardware.md)."]
    if hub:
        notes.append(f"{len(hub)} reader(s) on the USB reader hub: see firmware/PROTOCOL.md.")
    for i, note in enumerate(notes):
        out.append(f'<text x="40" y="{y + 56 + i * 18}" fill="#333">{escape(note)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m table.wiring",
                                description="Draw the Pi's header as a configuration wires it.")
    p.add_argument("output", help="the SVG file to write (- for standard output)")
    p.add_argument("--config", metavar="PATH",
                   help="a configuration file (default: the built-in defaults, as "
                        "docs/images/wiring.svg shows)")
    args = p.parse_args(argv)
    try:
        config = load(args.config) if args.config else loads("")
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 1
    text = svg(config)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
