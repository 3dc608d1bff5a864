"""[voice] in the configuration file: declared like every section, checked
with clear messages, written back by `dump`."""

from __future__ import annotations

import pytest

from table import config as cfg
from table.cli import main
from table.config import ConfigError, loads


def problems(text: str) -> list[tuple[str, str]]:
    with pytest.raises(ConfigError) as err:
        loads(text)
    return [(p.key, p.message) for p in err.value.problems]


def test_the_voice_is_off_by_default_and_speaks_the_tables_language():
    v = loads("").voice
    assert not v.enabled
    assert v.language == "table" and v.device == "default"
    assert (v.rate, v.volume, v.cards) == (160, 100, True)


def test_a_voice_section_is_read_and_written_back():
    c = loads('[voice]\nenabled = true\nlanguage = "hu"\ndevice = "plughw:1,0"\n'
              'rate = 200\nvolume = 150\ncards = false\n')
    assert c.voice == cfg.VoiceConfig(True, "hu", "plughw:1,0", 200, 150, False)
    assert loads(cfg.dump(c)) == c
    assert "voice: on, hu, ALSA device plughw:1,0, rate 200, volume 150" in cfg.summary(c)
    assert "voice: off" in cfg.summary(loads(""))


@pytest.mark.parametrize(("text", "key", "message"), [
    ('enabled = "yes"', "voice.enabled", 'must be true or false, not text "yes"'),
    ('language = "fr"', "voice.language",
     'must be one of "table", "en", "ro", "hu", not "fr"'),
    ("rate = 1000", "voice.rate", "must be 80..450, not 1000"),
    ("volume = -1", "voice.volume", "must be 0..200, not -1"),
    ('device = "my speaker"', "voice.device",
     'must be an ALSA device name without spaces, like "default" or "plughw:1,0" '
     '(see `aplay -L`), not "my speaker"'),
    ('device = ""', "voice.device", "must not be empty"),
    ("speed = 3", "voice.speed", "unknown key; the keys here are: cards, device, enabled, "
                                 "language, rate, volume"),
])
def test_every_mistake_in_voice_is_named_with_its_key(text, key, message):
    assert problems(f"[voice]\n{text}\n") == [(key, message)]


def test_config_check_reports_a_voice_mistake(tmp_path, capsys):
    f = tmp_path / "config.toml"
    f.write_text("[voice]\nrate = 10\n")
    assert main(["config", "check", str(f)]) == 1
    assert "voice.rate: must be 80..450, not 10" in capsys.readouterr().err
