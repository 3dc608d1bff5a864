"""What docs/hardware.md and docs/setup.md show is what the program does."""

from __future__ import annotations

from pathlib import Path

from table.cli import main
from table.config import loads

DOCS = Path(__file__).resolve().parents[2] / "docs"
INSTALL = Path(__file__).resolve().parents[2] / "systemd" / "install.sh"


def blocks(text, lang):
    """The fenced code blocks of a markdown text with this language tag."""
    out, current, tag = [], None, ""
    for line in text.splitlines(keepends=True):
        if line.startswith("```"):
            if current is None:
                current, tag = [], line[3:].strip()
            else:
                if tag == lang:
                    out.append("".join(current))
                current = None
        elif current is not None:
            current.append(line)
    return out


def test_the_six_seat_configuration_of_the_hardware_page_is_valid():
    (six,) = blocks((DOCS / "hardware.md").read_text(), "toml")
    config = loads(six)
    assert len(config.seats) == 6 and config.dealer is not None
    assert config.leds.status is None
    # five seats: without the sixth seat and the [leds] lines
    five = six.replace("[leds]\nstatus = false\n", "")
    five = five[:five.rindex("[[seats]]")] + five[five.index("[dealer]"):]
    assert len(loads(five).seats) == 5


def test_the_wiring_tables_match_the_default_configuration():
    text = (DOCS / "hardware.md").read_text()
    config = loads("")
    listed = sorted(config.seats, key=lambda s: s.position)
    for seat in listed:
        r = seat.reader
        row = next(line for line in text.splitlines() if line.startswith(f"| seat {seat.name} |"))
        assert f"SPI{r.bus} CE{r.device}" in row
        assert f"GPIO {seat.led} " in row
        assert f'{{ type = "spi", bus = {r.bus}, device = {r.device} }}' in row
    for name, pin in (("OK", 5), ("UNDO", 6), ("MENU", 13)):
        row = next(line for line in text.splitlines() if line.startswith(f"| {name} button"))
        assert f"GPIO {pin} " in row
    assert config.buttons.ok == 5 and config.readers.reset_pin == 25
    assert "GPIO 25 (pin 22)" in text and "GPIO 12 (pin 32)" in text


def test_config_txt_lines_are_the_ones_install_sh_adds():
    (lines,) = [b for b in blocks((DOCS / "hardware.md").read_text(), "")
                if "dtparam=spi=on" in b]
    script = INSTALL.read_text()
    begin = script.index("# cardtable: begin (")
    added = script[begin:script.index("# cardtable: end", begin)]
    assert [ln for ln in lines.splitlines() if ln] == [
        ln for ln in added.splitlines()[1:] if ln]


def test_the_mistakes_shown_in_setup_are_real(tmp_path, capsys):
    text = (DOCS / "setup.md").read_text()
    shown = next(b for b in blocks(text, "") if "mistakes:" in b)
    f = tmp_path / "config.toml"
    f.write_text('[table]\nlanguage = "fr"\n[buttons]\nok = 6\n')
    assert main(["config", "check", str(f)]) == 1
    err = capsys.readouterr().err
    assert err.replace(str(f), "/etc/cardtable/config.toml") == shown
