"""`cardtable sim --voice`: the simulator's table speaks through the PC's
sound output (here an ALSA `file` device standing in as the default one)."""

from __future__ import annotations

import asyncio

from hw_mocks.simulator.app import SimApp, SimConfig
from hw_mocks.simulator.cli import add_arguments
from tests.system_programs import require_program
from tests.voice.audio import duration, rms


def test_sim_voice_speaks_through_the_default_sound_output(tmp_path, monkeypatch):
    require_program("espeak-ng")
    require_program("aplay")
    captured = tmp_path / "heard.wav"
    (tmp_path / ".asoundrc").write_text(
        f'pcm.!default {{\n type file\n slave.pcm "null"\n file "{captured}"\n'
        f' format "wav"\n}}\n')
    monkeypatch.setenv("HOME", str(tmp_path))

    async def scenario() -> None:
        app = SimApp(SimConfig(game="filicau", knowledge="scan", humans=(0,), pace=0.05,
                               seed=4, voice=True), ask_setup=False)
        async with app.run_test(size=(200, 60)) as pilot:
            assert app.voice is not None
            for _ in range(200):
                if captured.exists() and captured.stat().st_size > 20_000:
                    break
                await pilot.pause(0.05)
            app.voice.wait()
    asyncio.run(scenario())
    assert duration(captured) > 0.5 and rms(captured) > 0.02


def test_the_voice_option_of_sim():
    import argparse

    p = argparse.ArgumentParser()
    add_arguments(p)
    assert p.parse_args(["--voice"]).voice and not p.parse_args([]).voice


def test_without_espeak_ng_the_simulator_says_so_in_its_log(monkeypatch, tmp_path):
    from hw_mocks.simulator.driver import SimTable
    from hw_mocks.simulator.voice import start_voice
    from table.settings import TableSettings

    monkeypatch.setenv("PATH", str(tmp_path))
    sim = SimTable(TableSettings(game="filicau"), humans=[0])
    try:
        assert start_voice(sim) is None
        assert sim.log[-1].text == ("No voice: espeak-ng is not installed "
                                    "(sudo apt install espeak-ng)")
        assert sim.log[-1].kind == "error"
    finally:
        sim.close()
