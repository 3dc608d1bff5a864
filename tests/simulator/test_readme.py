"""The README's quick start: the main command is the simulator's demo, and the
GIF it shows was made by the headless mode."""

from __future__ import annotations

import re
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[2]


def quick_start_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section)


def test_the_first_command_installs_and_runs_the_simulator_demo():
    first, second = quick_start_commands()[:2]
    assert first.startswith("python3 -m venv .venv && .venv/bin/pip install . ")
    assert first.endswith("cardtable sim --demo")
    assert "pip install '.[test]'" in second and second.endswith("python -m pytest -n 2")


def test_the_ci_script_runs_the_readme_test_command():
    second = quick_start_commands()[1]
    assert second in (ROOT / ".ci" / "run").read_text()


def test_the_readme_gif_is_an_oled_recording():
    gif = ROOT / "docs" / "images" / "demo.gif"
    assert "docs/images/demo.gif" in (ROOT / "README.md").read_text()
    with Image.open(gif) as anim:
        assert anim.size == (384, 192)  # the 128x64 OLED, scaled 3 times
        assert anim.n_frames > 50


def test_the_readme_gif_is_the_documented_demo(tmp_path):
    """`cardtable sim --demo --headless --fast --seed 7 --frames DIR` (see
    docs/simulator.md) records the frames the committed GIF shows."""
    from hw_mocks.simulator.headless import demo_settings, run_demo

    sim = run_demo(demo_settings("filicau"), seed=7, frames=tmp_path)
    sim.close()
    recorded = [Image.open(p).convert("1") for p in sorted(tmp_path.glob("frame_*.png"))]
    with Image.open(ROOT / "docs" / "images" / "demo.gif") as anim:
        shown = []
        for i in range(anim.n_frames):
            anim.seek(i)
            frame = anim.convert("L").resize((128, 64), Image.NEAREST).point(
                lambda v: 255 if v > 127 else 0).convert("1")
            shown.append(frame.tobytes())
    assert shown == [f.tobytes() for f in recorded], \
        "docs/images/demo.gif is stale: regenerate it with the command in docs/simulator.md"
