"""`cardtable sim --voice`: the simulated table speaks as a real one does
(espeak-ng through the PC's sound output; docs/simulator.md)."""

from __future__ import annotations

from typing import Any

from hw_mocks.simulator.driver import LogLine, SimTable


def start_voice(sim: SimTable, device: str = "default") -> Any:
    """Hook the real voice to the simulated table: the speaker (close it at
    the end), or None when espeak-ng or aplay is missing (said in the log)."""
    from table.drivers.voice import VoiceError, open_speaker
    from table.voice.announce import attach

    try:
        speaker = open_speaker(device)
    except VoiceError as exc:
        sim.log.append(LogLine(f"No voice: {exc}", "error"))
        return None
    attach(sim.rig.ctl, speaker)
    return speaker
