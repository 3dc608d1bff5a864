"""Up at once (issue 15): `cardtable run` puts "Starting…" on the screen
before it loads what that frame does not need. Each run is a real
`cardtable run` in its own interpreter; a probe notes the modules loaded
when the first frame reaches the screen, and the frame itself: on the fake
display when it is shown there; on the Pi, on an SSD1306 panel model behind
the I2C bus (tests/drivers/panel_bus.py) the moment the panel is switched
on with a picture in its RAM.

The import budget: before the first frame, nothing but the standard
library and the modules named below; never the configuration's checks,
the rules, the controller, the state machine, SQLite, the GPIO library,
`importlib.metadata` or dataclasses (and on the Pi not luma or Pillow
either: the frame was drawn ahead of time, table/first_frame.py).

At ready (the controller answers cards and buttons), on the Pi and on the
fakes: never `importlib.metadata`, the club's modules without a [club]
section, the other games' rules, or what only a mistake needs (NOT_BEFORE_READY)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from PIL import Image

from table.screens.render import render
from table.screens.starting import starting_view

ROOT = Path(__file__).resolve().parents[2]

#: What `cardtable run` itself may load before its first frame, besides the
#: standard library (and the probe's own modules).
FIRST_FRAME_MODULES = {
    "table", "table.cli", "table.commands", "table.commands.run", "table.backends",
    "table.choices", "table.first_frame",
}
#: ... on the fakes: the fake display (luma's dummy device, Pillow)
MOCK_MODULES = {"hw_mocks", "hw_mocks.backend", "hw_mocks.display"}
MOCK_LIBRARIES = ("luma", "PIL")
#: ... on the Pi: the early frame's driver and smbus2
PI_MODULES = {"table.drivers", "table.drivers.early_frame", "smbus2"}
#: Standard library modules too slow for the first frame.
SLOW_STDLIB = ("dataclasses", "importlib.metadata", "sqlite3", "_sqlite3", "asyncio",
               "inspect", "email", "zipfile", "shutil")

PROBE = r"""
import json, sys
interpreter = set(sys.modules)        # the interpreter's own start (site, .pth files)
sys.path.insert(0, sys.argv[1])
seen = {}

def note(picture):
    if "modules" not in seen:
        seen["modules"] = sorted(set(sys.modules) - interpreter)
        seen["frame"] = picture

if sys.argv[2] == "mock":
    from hw_mocks.display import FakeDisplay
    show = FakeDisplay.show
    def first(self, image):
        px = image.load()
        note([[1 if px[x, y] else 0 for x in range(image.size[0])]
              for y in range(image.size[1])])
        return show(self, image)
    FakeDisplay.show = first
else:
    # the I2C bus with an SSD1306 panel on it (a PC has no /dev/i2c-1)
    import types
    from tests.drivers.oled_panel import CapturePanel
    from tests.drivers.panel_bus import PanelBus
    panel = CapturePanel("ssd1306")
    def written():
        if panel.on and any(any(page) for page in panel.ram):
            note(panel.pixels())
    class Message:
        def __init__(self, addr, data):
            self.addr, self.data = addr, bytes(data)
            self.len = len(self.data)
        def __bytes__(self):
            return self.data
    smbus2 = types.ModuleType("smbus2")
    smbus2.SMBus = lambda port: PanelBus(panel, 0x3C, on_write=written)
    smbus2.i2c_msg = types.SimpleNamespace(write=Message)
    sys.modules["smbus2"] = smbus2

from table.cli import main
status = main(sys.argv[3:])
print("PROBE " + json.dumps({"status": status, **seen}))
"""


def run_probe(probe: str, kind: str, *args: str) -> dict:
    """`cardtable run ARGS` in a new interpreter under `probe`; what it saw."""
    out = subprocess.run([sys.executable, "-c", probe, str(ROOT), kind, "run", *args],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    line = [ln for ln in out.stdout.splitlines() if ln.startswith("PROBE ")]
    assert line, out.stdout + out.stderr
    return json.loads(line[-1][len("PROBE "):])


def first_frame(kind: str, *args: str) -> dict:
    return run_probe(PROBE, kind, *args)


def over_budget(modules: list[str], allowed: set[str], libraries: tuple[str, ...] = ()
                ) -> list[str]:
    """The modules loaded that the first frame may not wait for."""
    def ok(m: str) -> bool:
        top = m.split(".")[0]
        if any(m == s or m.startswith(s + ".") for s in SLOW_STDLIB):
            return False
        return (top in sys.stdlib_module_names or m in allowed or top in libraries
                or top == "tests" or m == "__mp_main__")   # multiprocessing's name of __main__
    return [m for m in modules if not ok(m)]


def starting(language: str, size: tuple[int, int] = (128, 64)) -> list[list[int]]:
    image = render(starting_view(language), size)
    px = image.load()
    return [[1 if px[x, y] else 0 for x in range(size[0])] for y in range(size[1])]


def test_the_fake_table_shows_starting_before_anything_it_does_not_need_loads(tmp_path):
    got = first_frame("mock", "--hardware", "mock", "--quiet", "--language", "ro",
                      "--state", str(tmp_path / "state"))
    assert got["status"] == 0
    assert got["frame"] == starting("ro")      # "Pornire…", as the table boots
    assert over_budget(got["modules"], FIRST_FRAME_MODULES | MOCK_MODULES,
                       MOCK_LIBRARIES) == []


def test_the_fake_table_reads_the_language_and_screen_of_its_configuration_first(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[table]\nlanguage = "hu"\n[display]\nheight = 32\n')
    got = first_frame("mock", "--hardware", "mock", "--quiet", "--config", str(config),
                      "--state", str(tmp_path / "state"))
    assert got["status"] == 0
    assert got["frame"] == starting("hu", (128, 32))
    assert over_budget(got["modules"], FIRST_FRAME_MODULES | MOCK_MODULES,
                       MOCK_LIBRARIES) == []


def test_the_real_table_shows_starting_on_the_panel_before_luma_and_the_rest_load(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[table]\nlanguage = "hu"\n[gpio]\npin_factory = "mock"\n')
    got = first_frame("pi", "--hardware", "pi", "--config", str(config),
                      "--state", str(tmp_path / "state"))
    # on the panel through the I2C bus; the run then stops at the card
    # readers (a PC has no SPI), long after the first frame
    assert got["frame"] == starting("hu")
    assert got["status"] == 1
    assert over_budget(got["modules"], FIRST_FRAME_MODULES | PI_MODULES) == []


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


def _parsers(parser):
    yield parser
    for action in parser._actions:
        if action.choices is not None and hasattr(action, "_name_parser_map"):
            for child in set(action.choices.values()):
                yield from _parsers(child)


def test_the_help_is_as_wide_as_argparse_would_make_it(monkeypatch):
    # the command line's formatter finds the width without shutil: its help is
    # argparse's own help, line for line, with $COLUMNS and without (not a terminal)
    import argparse

    from table.cli import build_parser

    lines = {}
    for columns in ("60", "131", None):
        if columns is None:
            monkeypatch.delenv("COLUMNS", raising=False)
        else:
            monkeypatch.setenv("COLUMNS", columns)
        ours = list(_parsers(build_parser()))
        assert len(ours) > 10
        texts = [p.format_help() for p in ours]
        for p in ours:
            p.formatter_class = argparse.HelpFormatter
        assert [p.format_help() for p in ours] == texts, columns
        lines[columns] = sum(len(text.splitlines()) for text in texts)
    assert lines["60"] > lines[None] > lines["131"]      # the width is really used


def test_the_command_line_loads_no_entry_points_for_a_command_of_its_own():
    code = ("import sys\n"
            "from table.cli import main\n"
            "main(['config', 'check', '/nonexistent/config.toml'])\n"
            "print('importlib.metadata' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert out.stdout.strip().splitlines()[-1] == "False", out.stdout + out.stderr


# ----- ready: what the table loads before it answers cards and buttons -----------------

#: What ready never waits for: the package metadata (gpiozero is imported
#: without it, table/drivers/lazy_metadata.py), what only a mistake needs
#: (difflib's "did you mean"), the club's publisher and its configuration
#: (no [club] section), the other games' rules, and the network and archive
#: libraries the table does not use.
NOT_BEFORE_READY = ("importlib.metadata", "importlib_metadata", "email", "zipfile", "csv",
                    "difflib", "asyncio", "ssl", "http", "urllib.request", "xml",
                    "table.club", "table.commands.names", "table.doctor")

READY_PROBE = r"""
import json, os, sys
interpreter = set(sys.modules)
sys.path.insert(0, sys.argv[1])
seen = {}

def note():
    if "modules" not in seen:
        seen["modules"] = sorted(set(sys.modules) - interpreter)

if sys.argv[2] == "pi":
    # an SMBus that takes every byte, readers that read nothing (a PC has no SPI)
    import types
    smbus2 = types.ModuleType("smbus2")
    class SMBus:
        def __init__(self, port): pass
        def write_i2c_block_data(self, addr, mode, data): pass
        def i2c_rdwr(self, *msgs): pass
        def close(self): pass
    smbus2.SMBus = SMBus
    smbus2.i2c_msg = types.SimpleNamespace(write=lambda addr, data: bytes(data))
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
            note()
            import signal
            os.kill(os.getpid(), signal.SIGTERM)     # as systemd stops the service
    run.say = said
else:
    from hw_mocks.display import FakeDisplay
    show = FakeDisplay.show
    def shown(self, image):
        if self.frames == 1:     # the controller's first frame: it takes events
            note()
        return show(self, image)
    FakeDisplay.show = shown

from table.cli import main
status = main(sys.argv[3:])
print("PROBE " + json.dumps({"status": status, **seen}))
"""


def at_ready(kind: str, *args: str) -> dict:
    return run_probe(READY_PROBE, kind, *args)


def needless(modules: list[str], game: str) -> list[str]:
    """The modules loaded at ready that the table does not need to answer."""
    def bad(m: str) -> bool:
        if any(m == s or m.startswith(s + ".") for s in NOT_BEFORE_READY):
            return True
        parts = m.split(".")
        return parts[:2] == ["engine", "games"] and len(parts) > 2 \
            and parts[2] not in (game, "base")
    return [m for m in modules if bad(m)]


def test_the_real_table_is_ready_without_loading_what_it_does_not_need(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[table]\ngame = "sueca"\n[gpio]\npin_factory = "mock"\n')
    got = at_ready("pi", "--hardware", "pi", "--config", str(config),
                   "--state", str(tmp_path / "state"))
    assert got["status"] == 0
    modules = got["modules"]
    assert "table.controller" in modules and "gpiozero" in modules   # ready, truly
    assert "engine.games.sueca" in modules
    assert needless(modules, "sueca") == []


def test_the_fake_table_is_ready_without_loading_what_it_does_not_need(tmp_path):
    got = at_ready("mock", "--hardware", "mock", "--quiet", "--game", "filko",
                   "--state", str(tmp_path / "state"))
    assert got["status"] == 0
    modules = got["modules"]
    assert "table.controller" in modules and "gpiozero" in modules
    assert needless(modules, "filko") == []


def test_a_fake_table_without_a_configuration_never_loads_the_configurations_checks(tmp_path):
    # no --config, no --voice: no voice, and no table.config loaded to find that out
    code = ("import sys\n"
            "from table.cli import main\n"
            f"status = main(['run', '--hardware', 'mock', '--quiet', '--state', "
            f"{str(tmp_path / 'state')!r}])\n"
            "print(status, 'table.config' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert out.stdout.strip().splitlines()[-1] == "0 False", out.stdout + out.stderr
