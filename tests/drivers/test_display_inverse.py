"""Inverse video by the panel's own command (0xA6 normal / 0xA7 inverse).

The adapter may show a frame as the inverse of its bytes with the panel's
flag flipped: what the panel model (its RAM and flag, fed the bytes luma's
real SSD1306 and SH1106 classes send) shows must be the frame, pixel for
pixel, whatever came before: bus failures, a panel that lost its power,
contrast changes, closing."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw

from table.config import DisplayConfig
from table.drivers.display import INVERSE_DISPLAY, NORMAL_DISPLAY, OledDisplay, open_display
from tests.drivers.oled_panel import CapturePanel

COL_OFFSET = {"ssd1306": 0, "sh1106": 2}
FULL = {"ssd1306": 1030, "sh1106": 8 * (3 + 128)}


def make(chip: str, panel: CapturePanel | None = None) -> tuple[OledDisplay, CapturePanel]:
    panel = panel or CapturePanel(chip)
    display = open_display(DisplayConfig(driver=chip, contrast=99), serial=panel)
    assert isinstance(display, OledDisplay)
    return display, panel


def as_rows(image: Image.Image) -> list[list[int]]:
    w, h = image.size
    px = image.load()
    return [[1 if px[x, y] else 0 for x in range(w)] for y in range(h)]


def screen(seed: int, inverse: bool) -> Image.Image:
    """A frame with a few texts and boxes; `inverse`: drawn in inverse video
    (as the error screens are)."""
    rng = random.Random(seed)
    img = Image.new("1", (128, 64), 0)
    d = ImageDraw.Draw(img)
    for _ in range(rng.randrange(1, 6)):
        x0, y0 = rng.randrange(128), rng.randrange(64)
        if rng.random() < 0.3:
            d.rectangle((x0, y0, rng.randrange(x0, 128), rng.randrange(y0, 64)), fill=1)
        else:
            d.text((x0, y0), rng.choice(["7♣", "A", "Sueca", "10", "Not your turn"]), fill=1)
    return ImageChops.invert(img.convert("L")).convert("1") if inverse else img


def shown(panel: CapturePanel) -> list[list[int]]:
    return panel.pixels(COL_OFFSET[panel.chip])


def play_and_error(chip: str) -> tuple[OledDisplay, CapturePanel, Image.Image, Image.Image]:
    """A play screen on the panel, and an error screen: the same layout's
    text changed, drawn in inverse video."""
    display, panel = make(chip)
    play = Image.new("1", (128, 64), 0)
    d = ImageDraw.Draw(play)
    d.text((2, 2), "Trump: hearts", fill=1)
    d.text((2, 20), "Seat 2 to play", fill=1)
    d.text((2, 40), "7 - 3", fill=1)
    display.show(play)
    error = Image.new("1", (128, 64), 1)
    d = ImageDraw.Draw(error)
    d.text((2, 2), "Trump: hearts", fill=0)
    d.text((2, 20), "Follow suit!", fill=0)
    d.text((2, 40), "7 - 3", fill=0)
    return display, panel, play, error


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_an_error_screen_in_inverse_video_flips_the_flag_instead_of_the_frame(chip):
    display, panel, play, error = play_and_error(chip)
    panel.reset_count()
    display.show(error)
    assert shown(panel) == as_rows(error)
    assert panel.inverse
    # the text that changed, and one command for the flag: not a whole frame
    assert panel.sent() < FULL[chip] // 4
    assert panel.calls[-1] == ("command", bytes([INVERSE_DISPLAY]))
    panel.reset_count()
    display.show(play)                          # the play that clears it
    assert shown(panel) == as_rows(play)
    assert not panel.inverse
    assert panel.sent() < FULL[chip] // 4
    assert panel.calls[-1] == ("command", bytes([NORMAL_DISPLAY]))


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_the_flag_is_set_to_normal_when_the_display_is_opened(chip):
    panel = CapturePanel(chip)
    panel.inverse = True                        # left inverted by a program before
    display, panel = make(chip, panel)
    assert not panel.inverse
    assert shown(panel) == as_rows(Image.new("1", (128, 64), 0))
    assert not display.inverse


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_a_panel_that_lost_its_power_is_set_up_again_with_its_contrast_and_flag(chip):
    display, panel, play, error = play_and_error(chip)
    display.show(error)
    assert panel.inverse
    panel.power_cut(seed=3)
    panel.fail_next = 1                         # the write during the outage fails
    display.show(play)
    assert not display.healthy
    panel.reset_count()
    display.show(error)
    assert display.healthy
    assert panel.on and panel.contrast == 99
    assert shown(panel) == as_rows(error)
    # the flag is sent, not assumed: a panel left inverted is set right too
    assert ("command", bytes([NORMAL_DISPLAY])) in panel.calls
    panel.inverse = True
    panel.fail_next = 1
    display.show(play)
    display.show(play)
    assert shown(panel) == as_rows(play)


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_closing_an_inverted_panel_leaves_it_dark(chip):
    display, panel, play, error = play_and_error(chip)
    display.show(error)
    display.close()
    assert not panel.on and not panel.inverse
    assert shown(panel) == as_rows(Image.new("1", (128, 64), 0))


Step = st.one_of(
    st.tuples(st.just("show"), st.integers(0, 2**16), st.booleans()),
    st.tuples(st.just("contrast"), st.integers(0, 255), st.just(False)),
    st.tuples(st.just("fail"), st.integers(1, 2), st.just(False)),
    st.tuples(st.just("power_cut"), st.integers(0, 2**16), st.just(False)),
)


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
@settings(max_examples=40, deadline=None)
@given(steps=st.lists(Step, min_size=1, max_size=12))
def test_the_panel_shows_every_frame_pixel_for_pixel(chip, steps):
    display, panel = make(chip)
    contrast = 99
    last: Image.Image | None = None
    for kind, arg, inverse in steps:
        if kind == "show":
            last = screen(arg, inverse)
            display.show(last)
            if display.healthy and not panel.fail_next:   # (an unchanged frame sends nothing)
                assert shown(panel) == as_rows(last)
                assert panel.contrast == contrast and panel.on
        elif kind == "contrast":
            if display.healthy and not panel.fail_next:
                display.contrast(arg)
                contrast = arg
        elif kind == "fail":
            panel.fail_next = arg
        else:
            # the panel loses its power; the next write to it fails
            panel.power_cut(seed=arg)
            panel.fail_next = max(panel.fail_next, 1)
    # whatever happened, once the bus works again, a frame is shown exactly
    for seed in (100, 101, 102):        # each one sent: failures left are used up
        display.show(screen(seed, False))
    final = screen(7, True)
    display.show(final)
    assert display.healthy and not panel.fail_next
    assert shown(panel) == as_rows(final)
    assert panel.contrast == contrast and panel.on


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_switching_between_inverse_and_normal_never_sends_more_than_a_frame(chip):
    display, panel = make(chip)
    rng = random.Random(chip)
    for i in range(30):
        img = screen(rng.randrange(2**16), inverse=i % 2 == 1)
        panel.reset_count()
        display.show(img)
        assert panel.sent() <= FULL[chip] + 1
        assert shown(panel) == as_rows(img)
