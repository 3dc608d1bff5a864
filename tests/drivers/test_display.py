"""The OLED adapter on luma's real SSD1306 and SH1106 classes, writing into a
model of the panel's RAM: the bytes are checked, and what the panel ends up
showing is compared with the picture."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from table.config import DisplayConfig
from table.drivers.display import (
    NoDisplay,
    OledDisplay,
    Window,
    changed_runs,
    open_display,
    page_bytes,
    plan_windows,
)
from tests.drivers.oled_panel import CapturePanel

COL_OFFSET = {"ssd1306": 0, "sh1106": 2}


def make(chip: str, width: int = 128, height: int = 64, rotate: int = 0):
    panel = CapturePanel(chip, width, height)
    display = open_display(DisplayConfig(driver=chip, width=width, height=height,
                                         rotate=rotate, contrast=99), serial=panel)
    return display, panel


def blank(size=(128, 64)):
    return Image.new("1", size, 0)


def as_rows(image):
    w, h = image.size
    px = image.load()
    return [[1 if px[x, y] else 0 for x in range(w)] for y in range(h)]


def random_frame(rng, size=(128, 64)):
    img = blank(size)
    d = ImageDraw.Draw(img)
    for _ in range(rng.randrange(1, 6)):
        x0, y0 = rng.randrange(size[0]), rng.randrange(size[1])
        x1, y1 = rng.randrange(x0, size[0]), rng.randrange(y0, size[1])
        if rng.random() < 0.5:
            d.rectangle((x0, y0, x1, y1), fill=1)
        else:
            d.text((x0, y0), rng.choice(["7♣", "A", "Sueca", "10"]), fill=1)
    return img


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_set_up_clears_the_panel_and_sets_the_contrast(chip):
    display, panel = make(chip)
    assert display.size == (128, 64)
    assert panel.contrast == 99
    assert panel.on
    assert panel.pixels(COL_OFFSET[chip]) == as_rows(blank())


def test_page_bytes_are_what_luma_itself_sends_for_a_full_frame():
    rng = random.Random(3)
    for chip in ("ssd1306", "sh1106"):
        for _ in range(5):
            img = random_frame(rng)
            display, _ = make(chip)
            reference = CapturePanel(chip)
            # luma's own full-frame display(), through the same device
            _with_serial(display.device, reference).display(img)
            sent = b"".join(b for kind, b in reference.calls if kind == "data")
            assert page_bytes(img) == sent


def _with_serial(device, serial):
    device._serial_interface = serial
    return device


def test_one_pixel_on_an_ssd1306_sends_one_window_of_one_byte():
    display, panel = make("ssd1306")
    panel.reset_count()
    img = blank()
    img.putpixel((10, 20), 1)              # column 10, page 2 (rows 16..23), bit 4
    display.show(img)
    assert panel.calls == [("command", bytes([0x21, 10, 10, 0x22, 2, 2])),
                           ("data", bytes([0x10]))]
    assert display.bytes_sent == 7


def test_one_pixel_on_an_sh1106_addresses_the_page_and_shifted_column():
    display, panel = make("sh1106")
    panel.reset_count()
    img = blank()
    img.putpixel((10, 20), 1)
    display.show(img)
    # page 2; RAM column 10 + 2 = 12 -> low nibble 0x0C, high nibble 0x10
    assert panel.calls == [("command", bytes([0xB2, 0x0C, 0x10])), ("data", bytes([0x10]))]
    assert panel.pixels(2) == as_rows(img)


def test_a_block_over_two_pages_is_one_ssd1306_window():
    display, panel = make("ssd1306")
    panel.reset_count()
    img = blank()
    ImageDraw.Draw(img).rectangle((40, 8, 47, 23), fill=1)   # pages 1 and 2, 8 columns
    display.show(img)
    assert panel.calls == [("command", bytes([0x21, 40, 47, 0x22, 1, 2])),
                           ("data", bytes([0xFF] * 16))]


def test_an_unchanged_frame_sends_nothing():
    display, panel = make("ssd1306")
    img = random_frame(random.Random(1))
    display.show(img)
    panel.reset_count()
    display.show(img.copy())
    assert panel.calls == []


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_any_sequence_of_frames_leaves_the_panel_showing_the_last(chip):
    rng = random.Random(chip)
    display, panel = make(chip)
    for _ in range(25):
        img = random_frame(rng)
        display.show(img)
        assert panel.pixels(COL_OFFSET[chip]) == as_rows(img)


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_a_small_change_sends_far_less_than_a_full_frame(chip):
    display, panel = make(chip)
    img = random_frame(random.Random(7))
    display.show(img)
    panel.reset_count()
    changed = img.copy()
    ImageDraw.Draw(changed).text((100, 40), "K", fill=1)
    display.show(changed)
    assert 0 < panel.sent() < 1024 // 8
    assert panel.pixels(COL_OFFSET[chip]) == as_rows(changed)


def test_rotation_is_luma_s_upside_down_panel():
    display, panel = make("ssd1306", rotate=2)
    img = blank()
    img.putpixel((0, 0), 1)
    display.show(img)
    rows = panel.pixels()
    assert rows[63][127] == 1 and sum(map(sum, rows)) == 1


def test_quarter_turn_takes_tall_pictures():
    display, panel = make("sh1106", width=128, height=128, rotate=1)
    assert display.size == (128, 128)
    display, panel = make("ssd1306", width=128, height=32, rotate=1)
    assert display.size == (32, 128)
    img = blank((32, 128))
    img.putpixel((0, 0), 1)            # top left of the tall picture
    display.show(img)
    rows = panel.pixels()
    # luma turns the picture back a quarter: top-left lands at the panel's top-right
    assert rows[0][127] == 1 and sum(map(sum, rows)) == 1


def test_a_failed_write_is_survived_and_the_next_frame_sent_whole():
    display, panel = make("ssd1306")
    first = random_frame(random.Random(2))
    panel.fail_next = 1
    display.show(first)                     # the bus fails: no exception for the table
    assert not display.healthy and display.failures == 1
    assert "Remote I/O error" in display.last_error
    panel.reset_count()
    second = first.copy()
    second.putpixel((0, 0), 1)
    display.show(second)
    assert display.healthy
    # luma's set-up again (the panel may have lost its power: display off
    # first), the contrast, the whole frame, the flag "normal video"
    assert panel.calls[0][1][0] == 0xAE
    assert ("command", bytes([0x81, 99])) in panel.calls
    window = panel.calls.index(("command", bytes([0x21, 0, 127, 0x22, 0, 7])),
                               panel.calls.index(("command", bytes([0x81, 99]))))
    assert len(panel.calls[window + 1][1]) == 1024
    assert panel.calls[window + 2:] == [("command", bytes([0xA6]))]
    assert panel.pixels() == as_rows(second)


def test_wrong_pictures_are_refused_clearly():
    display, _ = make("ssd1306")
    with pytest.raises(ValueError, match='mode "1" images, not mode "L"'):
        display.show(Image.new("L", (128, 64)))
    with pytest.raises(ValueError, match="128x64 images, not 128x32"):
        display.show(blank((128, 32)))


def test_no_display_keeps_the_frame():
    d = open_display(DisplayConfig(driver="none", height=32))
    assert isinstance(d, NoDisplay) and d.size == (128, 32)
    d.show(blank((128, 32)))
    assert d.image is not None
    with pytest.raises(ValueError):
        d.show(blank())


def test_close_blanks_the_panel_and_releases_the_bus():
    display, panel = make("ssd1306")
    display.show(random_frame(random.Random(5)))
    display.close()
    assert not panel.on
    assert panel.pixels() == as_rows(blank())
    assert panel.calls[-1] == ("cleanup", b"")


def test_changed_runs_merge_close_gaps():
    old = bytes(16)
    new = bytearray(16)
    new[1] = new[3] = new[12] = 1
    assert changed_runs(old, bytes(new), 16, gap=3) == [[(1, 3), (12, 12)]]
    assert changed_runs(old, bytes(new), 16, gap=1) == [[(1, 1), (3, 3), (12, 12)]]


def test_windows_merge_pages_only_when_cheaper():
    assert plan_windows([[(0, 9)], [(0, 9)]], 6, True) == [Window(0, 1, 0, 9)]
    # far apart columns on neighbouring pages: separate windows are cheaper
    assert plan_windows([[(0, 3)], [(100, 103)]], 6, True) == [Window(0, 0, 0, 3),
                                                              Window(1, 1, 100, 103)]
    assert plan_windows([[(0, 9)], [(0, 9)]], 3, False) == [Window(0, 0, 0, 9),
                                                           Window(1, 1, 0, 9)]


class FakeSMBus:
    """An smbus2-like bus: records every block write."""

    def __init__(self):
        self.writes = []

    def write_i2c_block_data(self, addr, mode, data):
        self.writes.append((addr, mode, list(data)))


def test_i2c_goes_through_luma_s_i2c_interface_at_the_configured_address():
    bus = FakeSMBus()
    display = open_display(DisplayConfig(i2c_address=0x3D), i2c_bus=bus)
    assert isinstance(display, OledDisplay)
    bus.writes.clear()
    img = blank()
    img.putpixel((5, 0), 1)
    display.show(img)
    assert bus.writes == [(0x3D, 0x00, [0x21, 5, 5, 0x22, 0, 0]), (0x3D, 0x40, [0x01])]


class FakeSpiDev:
    """A spidev-like device that notes the D/C line's level at each transfer."""

    def __init__(self, dc_pin):
        self.dc_pin = dc_pin
        self.transfers = []
        self.opened = None
        self.max_speed_hz = None
        self.closed = False

    def open(self, port, device):
        self.opened = (port, device)

    def writebytes(self, data):
        self.transfers.append((self.dc_pin.state, list(data)))

    def close(self):
        self.closed = True


def test_spi_drives_dc_and_reset_through_gpiozero(mock_factory):
    dc = mock_factory.pin(24)
    rst = mock_factory.pin(17)
    spi = FakeSpiDev(dc)
    cfg = DisplayConfig(driver="sh1106", interface="spi", spi_port=1, spi_device=2,
                        spi_speed_hz=4_000_000, dc_pin=24, reset_pin=17)
    display = open_display(cfg, mock_factory, spi_device=spi)
    assert spi.opened == (1, 2) and spi.max_speed_hz == 4_000_000
    assert [s.state for s in rst.states][-2:] == [False, True]    # reset pulse, then high
    spi.transfers.clear()
    img = blank()
    img.putpixel((0, 63), 1)
    display.show(img)
    # commands with D/C low, data with D/C high
    assert spi.transfers == [(False, [0xB7, 0x02, 0x10]), (True, [0x80])]
    display.close()
    assert spi.closed
    assert dc.function == "input" and rst.function == "input"    # pins released


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_never_more_than_a_whole_frame(chip):
    display, panel = make(chip)
    img = blank()
    px = img.load()
    for x in range(0, 128, 7):               # one column in seven: many small runs
        for y in range(64):
            px[x, y] = 1
    panel.reset_count()
    display.show(img)
    full = 1030 if chip == "ssd1306" else 8 * (3 + 128)
    assert panel.sent() <= full
    assert panel.pixels(COL_OFFSET[chip]) == as_rows(img)


def _runs_one_by_one(old, new, width, gap):
    """changed_runs written the plain way: column by column."""
    out = []
    for p in range(len(new) // width):
        runs = []
        for x in range(width):
            if old[p * width + x] != new[p * width + x]:
                if runs and (x == runs[-1][1] + 1 or x - runs[-1][1] - 1 < gap):
                    runs[-1] = (runs[-1][0], x)
                else:
                    runs.append((x, x))
        out.append(runs)
    return out


@settings(max_examples=200, deadline=None)
@given(data=st.data(), width=st.integers(1, 20), pages=st.integers(1, 4), gap=st.integers(0, 7))
def test_changed_runs_are_the_columns_that_differ(data, width, pages, gap):
    size = width * pages
    old = data.draw(st.binary(min_size=size, max_size=size))
    flips = data.draw(st.lists(st.integers(0, size - 1), max_size=size))
    new = bytearray(old)
    for i in flips:
        new[i] ^= 1 + i % 255
    assert changed_runs(old, bytes(new), width, gap) == _runs_one_by_one(old, new, width, gap)
