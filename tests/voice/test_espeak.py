"""The real voice: espeak-ng speaks, the sound goes to files or through aplay
(ALSA). The audio files are checked: length, loudness, language."""

from __future__ import annotations

import logging
import subprocess
import threading
from pathlib import Path

import pytest

from table.drivers.voice import AlsaOutput, EspeakSpeaker, FolderOutput, VoiceError, open_speaker
from table.voice import Utterance
from tests.system_programs import require_program
from tests.voice.audio import duration, rms, samples

SAID = {"en": "Seat 2 has no hearts and must play a trump.",
        "ro": "Locul 2 nu are roșu și trebuie să taie cu atu.",
        "hu": "A 2. helynek nincs piros, ezért adut kell tennie."}


@pytest.fixture
def espeak():
    return require_program("espeak-ng")


def reference(espeak: str, tmp_path: Path, lang: str, text: str) -> Path:
    """What espeak-ng itself writes for `text` in `lang`'s voice."""
    out = tmp_path / f"ref-{lang}.wav"
    subprocess.run([espeak, "-v", lang, "-s", "160", "-a", "100", "-w", str(out), text],
                   check=True)
    return out


def test_each_language_is_said_with_its_own_voice_and_is_not_silent(espeak, tmp_path):
    folder = tmp_path / "said"
    speaker = open_speaker(folder=folder)
    try:
        for lang, text in SAID.items():
            speaker.say(Utterance(text, lang, kind="refused"))
        assert speaker.wait()
    finally:
        speaker.close()
    files = sorted(folder.glob("*.wav"))
    assert [f.name for f in files] == ["0001-refused-en.wav", "0002-refused-ro.wav",
                                       "0003-refused-hu.wav"]
    for f, (lang, text) in zip(files, SAID.items(), strict=True):
        assert 1.5 < duration(f) < 8.0, f
        assert rms(f) > 0.02, f          # speech, not silence
        # exactly the sound espeak-ng makes with that language's voice...
        assert samples(f) == samples(reference(espeak, tmp_path, lang, text))
    # ...and each language's voice sounds different from the others'
    en_voice_on_ro = reference(espeak, tmp_path, "en", SAID["ro"])
    assert samples(files[1]) != samples(en_voice_on_ro)


def test_the_sound_goes_through_alsa_to_the_named_device(espeak, tmp_path, monkeypatch):
    """aplay -D <device>: here an ALSA `file` device (defined in ~/.asoundrc,
    as a USB speaker's name would be) that keeps what it is given."""
    require_program("aplay")
    captured = tmp_path / "alsa.wav"
    (tmp_path / ".asoundrc").write_text(
        f'pcm.tap {{\n type file\n slave.pcm "null"\n file "{captured}"\n format "wav"\n}}\n')
    monkeypatch.setenv("HOME", str(tmp_path))
    heard: list[Utterance] = []
    speaker = EspeakSpeaker(AlsaOutput("tap"), on_sound=lambda u, *_: heard.append(u))
    try:
        speaker.say(Utterance("Trumps are acorns.", "en"))
        assert speaker.wait()
    finally:
        speaker.close()
    assert speaker.errors == 0 and [u.text for u in heard] == ["Trumps are acorns."]
    assert duration(captured) > 0.8 and rms(captured) > 0.02


def test_a_device_that_does_not_exist_is_logged_and_the_voice_goes_on(espeak, caplog):
    require_program("aplay")
    speaker = EspeakSpeaker(AlsaOutput("nosuchdevice"))
    try:
        with caplog.at_level(logging.WARNING, logger="cardtable.voice"):
            speaker.say(Utterance("one", "en"))
            speaker.say(Utterance("two", "en"))
            assert speaker.wait()
    finally:
        speaker.close()
    assert speaker.errors == 2
    # once in the log (not for every sentence), with aplay's own reason
    (line,) = [r.getMessage() for r in caplog.records]
    assert "aplay -D nosuchdevice failed (1): " in line and "audio open error" in line
    assert "\n" not in line


def test_an_urgent_announcement_cuts_what_is_being_said(espeak, tmp_path):
    folder = tmp_path / "said"
    started = threading.Event()
    speaker = open_speaker(folder=folder, on_sound=lambda u, *_: started.set())
    long_text = "The first card of the trick is the Ace of acorns. " * 6
    try:
        speaker.say(Utterance(long_text, "en", kind="long"))
        speaker.say(Utterance("Waiting its turn.", "en", kind="waiting"))
        assert started.wait(10)
        speaker.say(Utterance("Seat 3 must follow suit: hearts.", "en", urgent=True,
                              kind="refused"))
        assert speaker.wait()
    finally:
        speaker.close()
    files = sorted(folder.glob("*.wav"))
    assert [f.name.split("-")[1] for f in files] == ["long", "refused"]   # one was dropped
    assert duration(files[0]) < 10.0       # cut: said in full it lasts about 20 s
    assert duration(files[1]) > 1.0 and rms(files[1]) > 0.02


def test_without_espeak_ng_the_voice_says_what_to_install(tmp_path):
    with pytest.raises(VoiceError, match=r"no-such-espeak is not installed \(sudo apt install "
                                         r"espeak-ng\)"):
        EspeakSpeaker(FolderOutput(tmp_path), espeak="no-such-espeak")
    with pytest.raises(VoiceError, match=r"alsa-utils"):
        AlsaOutput(aplay="no-such-aplay")


class _GatedOutput(FolderOutput):
    """Files, but each utterance's sound waits for `gate` before it is kept."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder)
        self.gate = threading.Event()
        self.closed = 0

    def open(self, utterance, fmt, header):
        sink = super().open(utterance, fmt, header)
        output = self

        class Gated:
            def write(self, samples: bytes) -> None:
                output.gate.wait(10)
                sink.write(samples)

            def close(self) -> None:
                sink.close()
                output.closed += 1

            def cut(self) -> None:
                sink.cut()

        return Gated()


def test_wait_returns_only_when_the_last_sentence_is_said_in_full(espeak, tmp_path):
    """`cardtable run` waits for the voice before it stops: a sentence still
    being said (or just queued as the voice fell silent) is not cut."""
    output = _GatedOutput(tmp_path / "said")
    speaker = EspeakSpeaker(output)
    try:
        for round_ in range(1, 4):
            output.gate.clear()
            speaker.say(Utterance("A new match of Filicau.", "en", kind="match"))
            assert not speaker.wait(timeout=0.3)      # still being said
            output.gate.set()
            assert speaker.wait()
            assert output.closed == round_             # said to the end, not cut
    finally:
        speaker.close()
    assert all(duration(f) > 1.0 for f in output.files)
