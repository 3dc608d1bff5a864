"""The wiring picture (docs/images/wiring.svg) is drawn from the configuration's
pin table and kept current; docs/hardware.md's pins, grounds and power
figures agree with it and with table.power."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from table.config import loads
from table.fields import USABLE_PINS
from table.power import budget
from table.wiring import GROUNDS, HEADER, PHYSICAL, bus_pins_match, main, pin_uses, svg

ROOT = Path(__file__).resolve().parents[2]
PICTURE = ROOT / "docs/images/wiring.svg"
HARDWARE = ROOT / "docs/hardware.md"


def test_the_picture_in_the_docs_is_current():
    assert PICTURE.read_text(encoding="utf-8") == svg(loads("")), (
        "docs/images/wiring.svg is out of date: .venv/bin/python -m table.wiring "
        "docs/images/wiring.svg")
    assert "![The Pi's 40-pin header as the default configuration wires it]" \
        "(images/wiring.svg)" in HARDWARE.read_text()
    assert "python -m table.wiring docs/images/wiring.svg" in HARDWARE.read_text()


def test_the_picture_follows_the_configuration():
    moved = loads("[buttons]\nok = 24\n")              # OK on GPIO 24, physical pin 18
    texts = {pin: [u.text for u in uses] for pin, uses in pin_uses(moved).items()}
    assert texts[18] == ["OK button (other leg to GND)"]
    assert 29 not in texts                              # GPIO 5 is free now
    assert "OK button (other leg to GND)" in svg(moved)
    six = loads("[leds]\nstatus = false\n" + "".join(
        f"[[seats]]\nreader = {{ type = \"spi\", bus = {b}, {k} = {v} }}\nled = {led}\n"
        for b, k, v, led in ((0, "device", 0, 4), (0, "device", 1, 27), (1, "device", 0, 22),
                             (1, "device", 1, 23), (0, "cs_pin", 24, 14),
                             (0, "cs_pin", 15, 26))))
    texts = {pin: [u.text for u in uses] for pin, uses in pin_uses(six).items()}
    assert texts[PHYSICAL[24]] == ["SDA of seat 5's reader (GPIO chip select)"]
    assert texts[PHYSICAL[26]] == ["LED of seat 6 + (through 330 Ω)"]


def test_the_header_and_the_config_s_bus_pins_agree():
    assert bus_pins_match()
    assert sorted(PHYSICAL) == list(USABLE_PINS)        # every usable GPIO once
    assert sorted(HEADER) == list(range(1, 41))


def test_no_pin_carries_two_parts_in_the_default_wiring():
    uses = pin_uses(loads(""))
    assert all(len(u) == 1 for u in uses.values()), {p: u for p, u in uses.items() if len(u) > 1}
    grounds = [p for p in GROUNDS.values()]
    assert len(grounds) == len(set(grounds)) and all(HEADER[p] == "GND" for p in grounds)


def test_every_pin_in_the_hardware_doc_is_the_right_physical_pin():
    text = HARDWARE.read_text()
    pairs = re.findall(r"GPIO (\d+)(?: / [A-Z]+)? \(pin (\d+)\)", text)
    assert len(pairs) > 20
    for gpio, pin in pairs:
        assert HEADER[int(pin)] == int(gpio), f"GPIO {gpio} is not physical pin {pin}"
    for pin in re.findall(r"GND \(pin (\d+)\)", text):
        assert HEADER[int(pin)] == "GND", pin
    # each ground wire of the screen/buttons table has its own pin, as in the picture
    table = text[text.index("### Screen, buttons, LEDs, buzzer"):text.index("Every ground wire")]
    for part, pin in (("OLED", 9), ("OK button", 30), ("UNDO button", 25),
                      ("MENU button", 39), ("buzzer", 34)):
        row = next(line for line in table.splitlines() if line.startswith(f"| {part} "))
        if part == "OLED":
            row = table[table.index("| OLED |"):table.index("| OK button")]
        assert f"GND (pin {pin})" in row, part
        assert pin in GROUNDS.values()


@pytest.mark.parametrize("readers", range(1, 8))
def test_the_power_table_in_the_docs_is_table_power_s(readers):
    b = budget(readers)
    row = next(line for line in HARDWARE.read_text().splitlines()
               if line.startswith(f"| {readers} | {b.current_ma} mA |"))
    assert f"{b.ldo_w:.2f} W" in row
    assert f"| {b.buck_rating_ma} mA |" in row and f"+{b.buck_input_ma} mA" in row
    assert ("yes" in row.split("|")[3]) == b.fits("pi")


def test_the_command_writes_the_picture_and_refuses_a_bad_configuration(tmp_path, capsys):
    out = tmp_path / "w.svg"
    assert main([str(out)]) == 0
    assert out.read_text(encoding="utf-8") == svg(loads(""))
    bad = tmp_path / "bad.toml"
    bad.write_text("[buttons]\nok = 99\n")
    assert main(["--config", str(bad), str(tmp_path / "x.svg")]) == 1
    assert "buttons.ok" in capsys.readouterr().err
    assert not (tmp_path / "x.svg").exists()
