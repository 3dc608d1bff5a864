"""Frames are written as PNGs and an animated GIF with every change."""

from __future__ import annotations

from PIL import Image, ImageDraw

from hw_mocks.simulator.recorder import FrameRecorder


def frame(text: str) -> Image.Image:
    img = Image.new("1", (128, 64), 0)
    ImageDraw.Draw(img).text((2, 2), text, fill=1)
    return img


def test_frames_and_gif(tmp_path):
    rec = FrameRecorder(tmp_path, scale=2)
    rec.add(frame("one"), 100)
    rec.add(frame("one"), 100)  # unchanged: one frame shown twice as long
    rec.add(frame("two"), 300)
    gif = rec.close()
    pngs = sorted(tmp_path.glob("frame_*.png"))
    assert [p.name for p in pngs] == ["frame_0001.png", "frame_0002.png"]
    assert Image.open(pngs[0]).tobytes() == frame("one").tobytes()
    assert gif is not None
    with Image.open(gif) as anim:
        assert anim.size == (256, 128)
        assert anim.n_frames == 2
        anim.seek(0)
        assert anim.info["duration"] == 200


def test_no_frames_no_gif(tmp_path):
    assert FrameRecorder(tmp_path).close() is None
