"""The first frame drawn ahead of time (table/first_frame.py) and sent to an
I2C OLED before luma loads (table/drivers/early_frame.py): the frames
shipped are what the screens draw, the chip is set up with luma's own
commands, and a table that will not start leaves no "Starting…" behind."""

from __future__ import annotations

import json

import pytest
from luma.oled.device import sh1106, ssd1306
from PIL import Image

from table.choices import DISPLAY_DEFAULTS
from table.cli import main
from table.commands.run import early_starting
from table.config import DISPLAY_SIZES, DisplayConfig
from table.drivers.display import page_bytes
from table.drivers.early_frame import frame_messages, setup_commands, show_early_frame
from table.first_frame import (
    FRAMES_FILE,
    panel_pages,
    peek,
    peek_config,
    peek_data,
    starting_rows,
)
from table.screens.render import render
from table.screens.starting import drawn_frames, starting_view
from tests.drivers.oled_panel import CapturePanel
from tests.drivers.panel_bus import panel_on_bus

CHIP_SIZES = [(chip, size) for chip, sizes in DISPLAY_SIZES.items() if chip != "none"
              for size in sizes]


def picture(image: Image.Image) -> list[list[int]]:
    w, h = image.size
    px = image.load()
    return [[1 if px[x, y] else 0 for x in range(w)] for y in range(h)]


def visible(panel: CapturePanel) -> list[list[int]]:
    return panel.pixels(2 if panel.chip == "sh1106" else 0)


def test_the_frames_shipped_are_what_the_screens_draw_today():
    """Redraw with `python -m table.screens.starting` after changing the
    starting screen, its texts or the font."""
    with open(FRAMES_FILE, encoding="utf-8") as f:
        shipped = json.load(f)["frames"]
    assert shipped == drawn_frames()
    for key, text in shipped.items():             # each found on its own line
        language, size = key.split()
        width, height = (int(n) for n in size.split("x"))
        assert starting_rows(language, (width, height)) == bytes.fromhex(text)
    assert starting_rows("ro", (128, 64)) == render(starting_view("ro")).tobytes()
    assert starting_rows("ro", (100, 64)) is None     # no such screen: drawn when shown


@pytest.mark.parametrize("rotate", [0, 2])
@pytest.mark.parametrize("size", [(128, 64), (128, 32), (128, 128)])
def test_the_panel_bytes_are_those_of_the_display_adapter(size, rotate):
    image = render(starting_view("hu"), size)
    turned = image.rotate(180) if rotate else image     # as luma's rotate=2
    assert panel_pages(image.tobytes(), *size, rotate) == page_bytes(turned)
    with pytest.raises(ValueError, match="only rotations 0 and 2"):
        panel_pages(image.tobytes(), *size, 1)
    with pytest.raises(ValueError, match="not a 128x8 mode 1 image"):
        panel_pages(image.tobytes(), 128, 8)


@pytest.mark.parametrize(("chip", "size"), CHIP_SIZES)
def test_the_chip_is_set_up_as_luma_sets_it_up_and_shows_the_frame_as_luma_would(chip, size):
    cls = ssd1306 if chip == "ssd1306" else sh1106
    lumas = CapturePanel(chip, *size)
    device = cls(lumas, width=size[0], height=size[1])
    assert lumas.calls[0] == ("command", bytes(setup_commands(chip, *size)))
    image = render(starting_view("en"), size)
    device.display(image)
    ours = CapturePanel(chip, *size)
    ours.command(*setup_commands(chip, *size))
    for control, payload in frame_messages(chip, *size, panel_pages(image.tobytes(), *size)):
        (ours.command if control == 0x00 else ours.data)(*(
            payload if control == 0x00 else (payload,)))
    assert visible(ours) == visible(lumas) == picture(image)
    with pytest.raises(ValueError, match="no set-up known for a 64x48 ssd1306"):
        setup_commands("ssd1306", 64, 48)


def test_the_early_frame_reaches_the_panel_through_the_bus_and_switches_it_on(monkeypatch):
    image = render(starting_view("ro"), (128, 32))
    with panel_on_bus(monkeypatch, "sh1106", 128, 32, address=0x3D) as (panel, buses):
        show_early_frame("sh1106", 1, 0x3D, 128, 32, 0x40,
                         panel_pages(image.tobytes(), 128, 32))
    assert panel.on and panel.contrast == 0x40
    assert visible(panel) == picture(image)
    assert [bus.closed for bus in buses] == [True]    # the bus is luma's to open next
    with panel_on_bus(monkeypatch) as (panel, _), pytest.raises(OSError):
        show_early_frame("ssd1306", 1, 0x3D, 128, 64, 0xCF, bytes(1024))  # nobody at 0x3D


def test_the_configuration_is_peeked_leniently(tmp_path, monkeypatch):
    seen = peek_data({})
    assert (seen.language, seen.size) == ("en", (128, 64))
    assert seen.display is not None
    defaults = DisplayConfig()
    assert {k: getattr(defaults, k) for k in seen.display} == seen.display
    seen = peek_data({"table": {"language": "hu"},
                      "display": {"driver": "sh1106", "height": 128, "rotate": 1}})
    assert (seen.language, seen.size) == ("hu", (128, 128))
    assert DisplayConfig(width=128, height=32, rotate=3).size == \
        peek_data({"display": {"height": 32, "rotate": 3}}).size == (32, 128)
    # what the full check will refuse is not used: the defaults, or no display
    assert peek_data({"table": {"language": "fr"}}).language == "en"
    assert peek_data({"display": {"rotate": "2"}}).display is None
    assert peek_data({"display": {"contrast": True}}).display is None
    assert peek_data({"display": "oled"}).display is None
    bad = tmp_path / "bad.toml"
    bad.write_text("[display\n")
    assert peek(bad) is None
    assert peek(tmp_path / "absent.toml") is None
    assert peek_config(tmp_path / "absent.toml", {}) is None     # named: the check says so
    named = peek_config(None, {"CARDTABLE_CONFIG": str(bad)})
    assert named is None
    monkeypatch.setattr("table.choices.CONFIG_PATH", str(tmp_path / "etc.toml"))
    default = peek_config(None, {})                # none named, none there: the defaults
    assert default is not None and default.display == DISPLAY_DEFAULTS
    (tmp_path / "etc.toml").write_text('[table]\nlanguage = "ro"\n')
    assert peek_config(None, {}).language == "ro"


def _config(tmp_path, text: str):
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_no_early_frame_where_the_panel_cannot_be_reached_so(monkeypatch, tmp_path):
    for text in ('[display]\ninterface = "spi"\n', '[display]\nrotate = 1\n',
                 '[display]\ndriver = "none"\n', '[display]\nwidth = 96\nheight = 16\n',
                 "[display\n"):
        with panel_on_bus(monkeypatch) as (panel, buses):
            assert early_starting(_config(tmp_path, text)) is None
        assert buses == [] and not panel.on
    import smbus2

    def no_bus(port: int) -> None:
        raise FileNotFoundError(2, "No such file or directory", f"/dev/i2c-{port}")

    monkeypatch.setattr(smbus2, "SMBus", no_bus)
    assert early_starting(_config(tmp_path, "")) is None    # said when luma opens it


def test_a_table_that_will_not_start_switches_the_early_frame_off(monkeypatch, tmp_path,
                                                                     capsys):
    config = _config(tmp_path, '[table]\nlanguage = "ro"\ngame = "whist"\n'
                               '[display]\nrotate = 2\n')
    shown = []
    with panel_on_bus(monkeypatch) as (panel, _):
        def note() -> None:
            if panel.on and not shown:
                shown.append(visible(panel))

        import smbus2

        opened = smbus2.SMBus

        def watched(port: int):
            bus = opened(port)
            bus.on_write = note
            return bus

        monkeypatch.setattr(smbus2, "SMBus", watched)
        status = main(["run", "--hardware", "pi", "--config", str(config),
                       "--state", str(tmp_path / "state")])
    assert status == 2
    err = capsys.readouterr().err
    assert 'table.game: unknown game "whist"' in err and "Traceback" not in err
    assert shown == [picture(render(starting_view("ro")).rotate(180))]   # Pornire…, turned
    assert not panel.on                    # and off again: nothing stale on the table
    assert not (tmp_path / "state").exists()


def test_without_a_frame_drawn_ahead_of_time_starting_is_drawn_when_shown(monkeypatch,
                                                                          tmp_path):
    from hw_mocks.display import FakeDisplay
    from table.commands.run import show_starting_frame

    shown = FakeDisplay((128, 32))
    show_starting_frame(shown, "hu")
    want = render(starting_view("hu"), (128, 32))
    assert picture(shown.image) == picture(want)
    (tmp_path / "frames.json").write_text("{not json")
    (tmp_path / "cut.json").write_text('{\n"hu 128x32": "00ff\n')
    (tmp_path / "short.json").write_text('{\n"hu 128x32": "00ff",\n')
    (tmp_path / "bad.json").write_text('{\n"hu 128x32": "0g",\n')
    for missing in ("gone.json", "frames.json", "cut.json", "short.json", "bad.json"):
        monkeypatch.setattr("table.first_frame.FRAMES_FILE", str(tmp_path / missing))
        assert starting_rows("hu", (128, 32)) is None
        drawn = FakeDisplay((128, 32))
        show_starting_frame(drawn, "hu")
        assert picture(drawn.image) == picture(want)


def test_starting_is_shown_again_by_luma_and_gone_when_a_part_fails(monkeypatch, tmp_path,
                                                                    capsys):
    """The early frame, then luma's own opening of the panel (set-up, clear)
    and "Starting…" once more through the display adapter; the card readers
    then fail (a PC has no SPI): the panel is left switched off."""
    config = _config(tmp_path, '[table]\nlanguage = "hu"\n[gpio]\npin_factory = "mock"\n')
    frames = []
    with panel_on_bus(monkeypatch) as (panel, buses):
        import smbus2

        opened = smbus2.SMBus

        def watched(port: int):
            bus = opened(port)

            def note() -> None:
                picture_now = visible(panel)
                if panel.on and (not frames or frames[-1] != picture_now):
                    frames.append(picture_now)
            bus.on_write = note
            return bus

        monkeypatch.setattr(smbus2, "SMBus", watched)
        status = main(["run", "--hardware", "pi", "--config", str(config),
                       "--state", str(tmp_path / "state")])
    err = capsys.readouterr().err
    assert status == 1 and "cannot start the hardware: the card readers" in err
    starting = picture(render(starting_view("hu")))
    blank = [[0] * 128 for _ in range(64)]
    # Indul… at once; dark while luma clears and switches on; Indul… again
    assert frames[0] == starting and blank in frames and frames[-1] == starting
    assert len(buses) == 3 and all(bus.closed for bus in buses)  # early, luma, off
    assert not panel.on
