"""Up at once (issue 15): `cardtable run` puts "Starting…" on the screen
before it loads what that frame does not need. Each run is a real
`cardtable run` in its own interpreter; a probe on the display port notes
the modules loaded when the first frame arrives, and the frame itself.

The heavy parts (the state machine library, SQLite, the rules of the games,
the controller, the journal; for the real table also the GPIO library) come
after it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from PIL import Image

from table.screens.render import render
from table.screens.starting import starting_view

ROOT = Path(__file__).resolve().parents[2]

#: Never loaded before the first frame (the module or any of its submodules).
HEAVY = ("transitions", "sqlite3", "_sqlite3", "asyncio", "engine", "table.controller",
         "table.journal", "table.registry", "table.events_script")

PROBE = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
seen = {}

def probe(cls):
    show = cls.show
    def first(self, image):
        if "modules" not in seen:
            seen["modules"] = sorted(sys.modules)
            seen["frame"] = [image.mode, list(image.size), image.tobytes().hex()]
        return show(self, image)
    cls.show = first

if sys.argv[2] == "mock":
    from hw_mocks.display import FakeDisplay
    probe(FakeDisplay)
else:
    # the real display adapter on luma's real I2C interface, over an SMBus
    # that takes every byte (a PC has no /dev/i2c-1)
    import types
    smbus2 = types.ModuleType("smbus2")
    class SMBus:
        def __init__(self, port): pass
        def write_i2c_block_data(self, addr, mode, data): pass
        def i2c_rdwr(self, *msgs): pass
        def close(self): pass
    class i2c_msg:
        @staticmethod
        def write(addr, data): return bytes(data)
    smbus2.SMBus, smbus2.i2c_msg = SMBus, i2c_msg
    sys.modules["smbus2"] = smbus2
    from table.drivers.display import OledDisplay
    probe(OledDisplay)

from table.cli import main
status = main(sys.argv[3:])
print("PROBE " + json.dumps({"status": status, **seen}))
"""


def first_frame(kind: str, *args: str) -> dict:
    out = subprocess.run([sys.executable, "-c", PROBE, str(ROOT), kind, "run", *args],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    line = [ln for ln in out.stdout.splitlines() if ln.startswith("PROBE ")]
    assert line, out.stdout + out.stderr
    return json.loads(line[-1][len("PROBE "):])


def heavy(modules: list[str], extra: tuple[str, ...] = ()) -> list[str]:
    return [m for m in modules
            if any(m == h or m.startswith(h + ".") for h in HEAVY + extra)]


def starting(language: str, size: tuple[int, int] = (128, 64)) -> list:
    image = render(starting_view(language), size)
    return [image.mode, list(image.size), image.tobytes().hex()]


def test_the_fake_table_shows_starting_before_the_controller_and_the_rules_load(tmp_path):
    got = first_frame("mock", "--hardware", "mock", "--quiet", "--language", "ro",
                      "--state", str(tmp_path / "state"))
    assert got["status"] == 0
    assert got["frame"] == starting("ro")      # "Pornire…", as the table boots
    assert heavy(got["modules"]) == []


def test_the_real_table_shows_starting_before_the_gpio_library_and_the_controller_load(
        tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[table]\nlanguage = "hu"\n[gpio]\npin_factory = "mock"\n')
    got = first_frame("pi", "--hardware", "pi", "--config", str(config),
                      "--state", str(tmp_path / "state"))
    # the frame went through luma's SSD1306 and I2C interface; the run then
    # stops at the card readers (a PC has no SPI), after the first frame
    assert got["frame"] == starting("hu")
    assert got["status"] == 1
    # The configuration is checked whole before any part is opened, its game
    # and options by the rules engine's registry: the engine may come first.
    early = [m for m in heavy(got["modules"], ("gpiozero", "lgpio", "RPi", "spidev", "mfrc522"))
             if not m.startswith("engine")]
    assert early == []


def test_the_starting_screen_is_the_boot_screen_of_the_controller():
    image = render(starting_view("en"))
    assert isinstance(image, Image.Image) and image.getbbox() is not None
    assert starting_view("ro").lines == ("Pornire…",)
    assert starting_view("hu").lines == ("Indul…",)


def _commands(parser):
    import argparse

    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices


def test_a_command_builds_only_its_own_parser_which_parses_as_the_whole_one(capsys):
    import pytest

    from table.cli import COMMANDS, build_parser

    whole = _commands(build_parser())
    for name in COMMANDS:
        only = _commands(build_parser(name))
        assert list(only) == [name]
        assert only[name].format_help() == whole[name].format_help()
    for parser in (build_parser(), build_parser("run")):
        with pytest.raises(SystemExit):
            parser.parse_args(["run", "--knowledge", "psychic"])
    first, second = capsys.readouterr().err.split("usage:")[1:]
    assert first == second and "invalid choice: 'psychic'" in first


def test_the_command_line_loads_no_entry_points_for_a_command_of_its_own():
    code = ("import sys\n"
            "from table.cli import main\n"
            "main(['config', 'check', '/nonexistent/config.toml'])\n"
            "print('importlib.metadata' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert out.stdout.strip().splitlines()[-1] == "False", out.stdout + out.stderr
