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
    assert "pip install '.[test]'" in second and second.endswith("python -m pytest")


def test_the_ci_script_runs_the_readme_test_command():
    second = quick_start_commands()[1]
    assert second in (ROOT / ".ci" / "run").read_text()


def test_the_readme_gif_is_an_oled_recording():
    gif = ROOT / "docs" / "images" / "demo.gif"
    assert "docs/images/demo.gif" in (ROOT / "README.md").read_text()
    with Image.open(gif) as anim:
        assert anim.size == (384, 192)  # the 128x64 OLED, scaled 3 times
        assert anim.n_frames > 50
