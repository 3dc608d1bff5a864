"""docs/table.md and docs/setup.md say what the voice really says and reads."""

from __future__ import annotations

import re
import string
from pathlib import Path

from engine.registry import all_messages
from table.config import loads
from table.controller.messages import TABLE
from table.voice.words import VOICE
from tests.table.test_config_docs import blocks

DOCS = Path(__file__).resolve().parents[2] / "docs"
EVERY = all_messages() | TABLE | VOICE


def template_pattern(template: str) -> str:
    out = []
    for literal, field, _, _ in string.Formatter().parse(template):
        out.append(re.escape(literal.replace("A(z) ", "A ")))
        if field is not None:
            out.append(".+")
    return "".join(out)


#: the screen's own line while hands are scanned (table.screens, gettext) is said too
SCREEN = ["Each player taps their cards on their own reader"]
ONE = "(?:" + "|".join([*(template_pattern(EVERY[code]["en"]) for code in EVERY),
                        *map(re.escape, SCREEN)]) + ")"
#: one sentence of a catalogue, or several said one after the other
SAID = re.compile(f"{ONE}(?: {ONE})*")


def test_every_sentence_in_the_voice_table_is_one_the_voice_says():
    text = (DOCS / "table.md").read_text()
    section = text[text.index("## The voice"):text.index("## Power cuts")]
    rows = [ln.split("|")[2].strip() for ln in section.splitlines()
            if ln.startswith("| ") and not ln.startswith(("| when", "|---"))]
    assert len(rows) == 10
    for row in rows:
        assert SAID.fullmatch(row), row
    assert not SAID.fullmatch("Seat 1 plays the Ace of hearts.")


def test_the_voice_section_of_setup_is_a_valid_configuration():
    text = (DOCS / "setup.md").read_text()
    (voice,) = [b for b in blocks(text, "toml") if "[voice]" in b]
    config = loads(voice)
    assert config.voice.enabled and config.voice.language == "table"
    assert "`voice.rate: must be\n80..450, not 1000`" in text
    from table.config import ConfigError

    try:
        loads("[voice]\nrate = 1000\n")
    except ConfigError as exc:
        assert "voice.rate: must be 80..450, not 1000" in str(exc)
    else:
        raise AssertionError("rate 1000 was taken")
