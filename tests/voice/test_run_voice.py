"""`cardtable run` speaks with [voice] enabled (or --voice): through aplay to
the configured ALSA device; without espeak-ng it says so and plays on."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.system_programs import require_program
from tests.voice.audio import duration, rms

ROOT = Path(__file__).resolve().parents[2]


def cardtable(*args: object, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "table.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)


def test_the_configured_device_hears_the_table(tmp_path):
    require_program("espeak-ng")
    require_program("aplay")
    captured = tmp_path / "heard.wav"
    (tmp_path / ".asoundrc").write_text(
        f'pcm.tap {{\n type file\n slave.pcm "null"\n file "{captured}"\n format "wav"\n}}\n')
    config = tmp_path / "config.toml"
    config.write_text('[table]\ngame = "filicau"\n[voice]\nenabled = true\ndevice = "tap"\n'
                      'language = "ro"\n')
    events = tmp_path / "events.txt"
    events.write_text("press ok\n")        # a match starts: "Un meci nou de Filicău..."
    env = {**os.environ, "HOME": str(tmp_path)}
    out = cardtable("run", "--hardware", "mock", "--config", config, "--events", events,
                    "--state", tmp_path / "state", env=env)
    assert out.returncode == 0, out.stderr
    assert "the table speaks through ALSA device tap" in out.stdout
    # the last sentence said (each one opens the device anew)
    assert duration(captured) > 1.0 and rms(captured) > 0.02


def test_without_espeak_ng_the_table_plays_on_and_says_why(tmp_path):
    events = tmp_path / "events.txt"
    events.write_text("press ok\n")
    env = {**os.environ, "PATH": str(tmp_path)}   # no espeak-ng to be found
    out = cardtable("run", "--hardware", "mock", "--voice", "--events", events, "--state",
                    tmp_path / "state", "--quiet", env=env)
    assert out.returncode == 0, out.stderr
    assert ("cardtable run: [voice]: espeak-ng is not installed (sudo apt install espeak-ng); "
            "playing without the voice") in out.stdout
    assert "Traceback" not in out.stderr
    # espeak-ng there, aplay missing
    (tmp_path / "espeak-ng").symlink_to(require_program("espeak-ng"))
    out = cardtable("run", "--hardware", "mock", "--voice", "--events", events, "--state",
                    tmp_path / "state2", "--quiet", env=env)
    assert out.returncode == 0, out.stderr
    assert ("cardtable run: [voice]: aplay is not installed (sudo apt install alsa-utils); "
            "playing without the voice") in out.stdout
