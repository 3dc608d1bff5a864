"""The configuration file: defaults, the example, and every kind of mistake,
each named by its key, all reported at once."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest

import table.config as cfg
from table.config import ConfigError, HubReader, SpiReader, load, loads
from table.settings import TableSettings

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "config.toml"


def problems(text: str) -> dict[str, str]:
    with pytest.raises(ConfigError) as info:
        loads(text, "t.toml")
    return {p.key: p.message for p in info.value.problems}


def one_problem(text: str) -> tuple[str, str]:
    found = problems(text)
    assert len(found) == 1, found
    return next(iter(found.items()))


FOUR_HUB_SEATS = "".join(
    f'[[seats]]\nreader = {{ type = "hub", channel = {i} }}\n' for i in range(4))


# ----- defaults and the example -----------------------------------------------------

def test_empty_file_is_the_reference_table_of_the_docs():
    c = loads("")
    # Listed clockwise 1,2,3,4; anticlockwise play from seat 1 goes 1 -> 4 -> 3 -> 2.
    assert [s.name for s in c.seats] == ["1", "4", "3", "2"]
    assert c.table.seat_names == ("1", "4", "3", "2")
    assert c.seats[0].reader == SpiReader(0, 0, None, 25)
    assert c.seats[1].reader == SpiReader(1, 1, None, 25)   # seat "4"
    assert [s.led for s in c.seats] == [4, 23, 22, 27]
    assert c.dealer == SpiReader(1, 2, None, 25)
    assert c.table.has_dealer_reader
    assert c.display.driver == "ssd1306" and c.display.i2c_address == 0x3C
    assert (c.buttons.ok, c.buttons.undo, c.buttons.menu) == (5, 6, 13)
    assert c.leds.status == 26 and c.buzzer.pin == 12
    assert c.state_dir == Path("/var/lib/cardtable")
    assert c.table.game == "filicau" and c.table.language == "en"
    assert c.table.options == {"early_stop_when_decided": False, "match_length": 0}


def test_clockwise_play_keeps_the_order_of_the_file():
    c = loads('[table]\ndirection = "clockwise"\n')
    assert [s.name for s in c.seats] == ["1", "2", "3", "4"]
    assert [s.position for s in c.seats] == [0, 1, 2, 3]


def test_the_example_file_is_valid_and_writes_out_the_defaults():
    example = load(EXAMPLE)
    defaults = loads("")
    assert dataclasses.replace(example, source=None) == defaults


def test_the_example_documents_every_key():
    data = tomllib.loads(EXAMPLE.read_text())
    sections = {"readers": cfg.ReadersConfig, "hub": cfg.HubConfig,
                "display": cfg.DisplayConfig, "buttons": cfg.ButtonsConfig,
                "leds": cfg.LedsConfig, "buzzer": cfg.BuzzerConfig, "gpio": cfg.GpioConfig,
                "voice": cfg.VoiceConfig}
    for name, cls in sections.items():
        assert {f.name for f in dataclasses.fields(cls)} == set(data[name]), name
    settings = {f.name for f in dataclasses.fields(TableSettings)}
    derived = {"seat_names", "screen", "has_dealer_reader"}
    assert settings - derived <= set(data["table"])
    assert "direction" in data["table"] and "state_dir" in data


def test_dump_round_trips_a_configuration_with_everything_changed():
    text = """
state_dir = "/srv/table"
[table]
direction = "clockwise"
knowledge = "scan"
language = "hu"
debounce_ms = 80
admin_uids = ["04a1b2c3d4e5f6"]
options = { match_length = 12 }
[readers]
reset_pin = false
[[seats]]
name = "North"
reader = { type = "hub", channel = 0 }
[[seats]]
name = "East"
reader = { type = "spi", bus = 0, cs_pin = 14, reset_pin = 25 }
led = 4
[[seats]]
name = "South"
reader = { type = "hub", channel = 7 }
[[seats]]
name = "West"
reader = { type = "spi", bus = 1, device = 2 }
[display]
driver = "sh1106"
interface = "spi"
spi_port = 0
spi_device = 1
reset_pin = 22
rotate = 1
height = 128
[buzzer]
pin = false
[leds]
status = false
"""
    c = loads(text)
    assert c.table.admin_uids == ("04A1B2C3D4E5F6",)
    assert c.seats[1].reader == SpiReader(0, None, 14, 25)
    assert c.seats[2].reader == HubReader(7)
    assert c.dealer is None and not c.table.has_dealer_reader
    assert c.table.screen == (128, 128)
    assert c.buzzer.pin is None and c.leds.status is None
    again = loads(cfg.dump(c))
    assert again == c


def test_missing_default_file_means_the_defaults(tmp_path, monkeypatch):
    monkeypatch.setattr(cfg, "DEFAULT_PATH", tmp_path / "absent.toml")
    assert load(None, env={}) == loads("")


def test_the_environment_names_the_file(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text('[table]\nlanguage = "ro"\n')
    assert load(None, env={"CARDTABLE_CONFIG": str(f)}).table.language == "ro"
    # An explicit path wins over the environment.
    g = tmp_path / "d.toml"
    g.write_text('[table]\nlanguage = "hu"\n')
    assert load(g, env={"CARDTABLE_CONFIG": str(f)}).table.language == "hu"


def test_a_file_asked_for_must_exist(tmp_path):
    with pytest.raises(ConfigError) as info:
        load(None, env={"CARDTABLE_CONFIG": str(tmp_path / "nope.toml")})
    assert str(info.value).endswith("(file): no such file")


def test_a_folder_or_binary_file_is_a_clear_mistake(tmp_path):
    with pytest.raises(ConfigError, match="is a folder"):
        load(tmp_path)
    f = tmp_path / "bin.toml"
    f.write_bytes(b"\xff\xfe\x00game")
    with pytest.raises(ConfigError, match="not UTF-8"):
        load(f)


def test_syntax_error_gives_the_line():
    key, message = one_problem('[table]\ngame = "filicau\n')
    assert key == "(syntax)" and "line 2" in message


def test_new_table_settings_fields_are_read_with_their_default_type(monkeypatch):
    Extended = dataclasses.make_dataclass(
        "Extended", [("volume", int, 3)], bases=(TableSettings,), frozen=True)
    monkeypatch.setattr(cfg, "TableSettings", Extended)
    assert loads("").table.volume == 3
    assert loads("[table]\nvolume = 7\n").table.volume == 7
    assert one_problem('[table]\nvolume = "loud"\n') == (
        "table.volume", 'must be a whole number, not text "loud"')


# ----- every kind of mistake ------------------------------------------------------------

@pytest.mark.parametrize("text, key, words", [
    # unknown keys, with a suggestion when one is close
    ('[table]\nlangage = "ro"\n', "table.langage", 'unknown key (did you mean "language"?)'),
    ('[dispaly]\n', "dispaly", 'did you mean "display"?'),
    ("[gpio]\nfactory = 'lgpio'\n", "gpio.factory", "unknown key"),
    # wrong types
    ('[table]\ndebounce_ms = "150"\n', "table.debounce_ms", 'not text "150"'),
    ("[buttons]\npull_up = 1\n", "buttons.pull_up", "must be true or false"),
    ("[buttons]\nhold_s = true\n", "buttons.hold_s", "must be seconds"),
    ("state_dir = 5\n", "state_dir", "must be a folder path"),
    ("display = 3\n", "display", "must be a table"),
    ("[table]\noptions = 3\n", "table.options", "must be a table"),
    # out of range
    ("[table]\ndebounce_ms = -1\n", "table.debounce_ms", "must be 0..5000, not -1"),
    ("[display]\ncontrast = 300\n", "display.contrast", "must be 0..255, not 300"),
    ("[buttons]\nhold_s = 20\n", "buttons.hold_s", "0.2..10 seconds"),
    ("[readers]\nspi_speed_hz = 50_000_000\n", "readers.spi_speed_hz", "100000..10000000"),
    # not one of the choices
    ('[table]\nknowledge = "peek"\n', "table.knowledge", '"scan", "dealt", "open", not "peek"'),
    ('[table]\nlanguage = "de"\n', "table.language", 'one of "en", "ro", "hu"'),
    ('[table]\ndirection = "left"\n', "table.direction", '"anticlockwise", "clockwise"'),
    ('[display]\ndriver = "ssd1305"\n', "display.driver", 'not "ssd1305"'),
    ("[display]\nrotate = 90\n", "display.rotate", "one of 0, 1, 2, 3, not 90"),
    ("[display]\nspi_speed_hz = 3_000_000\n", "display.spi_speed_hz", "not 3000000"),
    ('[buzzer]\nkind = "piezo"\n', "buzzer.kind", '"active", "passive"'),
    ('[gpio]\npin_factory = "wiringpi"\n', "gpio.pin_factory", '"lgpio"'),
    ("[hub]\nbaud = 1234\n", "hub.baud", "not 1234"),
    ('[hub]\nusb_id = "2e8a0005"\n', "hub.usb_id", '"vvvv:pppp"'),
    # a screen size the chip does not have
    ("[display]\nheight = 128\n", "display.height", "ssd1306 screens are 128x64, 128x32"),
    # pins
    ("[buttons]\nok = 40\n", "buttons.ok", "not 40 (use BCM numbers, not physical pins)"),
    ("[buttons]\nok = 1\n", "buttons.ok", "reserved for the HAT EEPROM"),
    ("[buttons]\nok = false\n", "buttons.ok", "must be a GPIO number"),
    ('[leds]\nstatus = "26"\n', "leds.status", "(or false if not wired)"),
    # the game side
    ('[table]\ngame = "whist"\n', "table.game", 'unknown game "whist"; the games are: filicau'),
    ("[table.options]\nmatch_lenght = 3\n", "table.options.match_lenght",
     'filicau has no such option (did you mean "match_length"?)'),
    ("[table.options]\nmatch_length = 5000\n", "table.options.match_length",
     "must be an integer 0..1000, not 5000"),
    ('[table.options]\nearly_stop_when_decided = "yes"\n',
     "table.options.early_stop_when_decided", 'must be false, true, not "yes"'),
    ('[table]\nadmin_uids = "04A1B2C3"\n', "table.admin_uids", "must be a list of card UIDs"),
    ('[table]\nadmin_uids = ["04A1B2C"]\n', "table.admin_uids", "is not a card UID"),
    ('[table]\nadmin_uids = [4]\n', "table.admin_uids", "must be text in quotes"),
    ('state_dir = "var/lib/cardtable"\n', "state_dir", "must be an absolute path"),
    ('[table]\nseat_names = ["a"]\n', "table.seat_names", "comes from the names in [[seats]]"),
    ("[table]\nscreen = [128, 32]\n", "table.screen", "comes from [display]"),
])
def test_each_mistake_names_its_key_and_the_problem(text, key, words):
    found = problems(text)
    assert key in found, found
    assert words in found[key], found[key]
    assert len(found) == 1, found


def test_reader_mistakes():
    text = FOUR_HUB_SEATS.replace('channel = 1', 'channel = 9').replace(
        '{ type = "hub", channel = 2 }', '{ type = "usb" }').replace(
        '[[seats]]\nreader = { type = "hub", channel = 3 }', '[[seats]]\nname = "x"')
    text += '[[seats]]\nreader = 3\n[[seats]]\nreader = { bus = 0 }\n'
    text += '[[seats]]\nreader = { type = "spi", bus = 0, device = 0, cs_pin = 24 }\n'
    text += '[[seats]]\nreader = { type = "spi", bus = 0, device = 2, speed = 1 }\n'
    found = problems(text)
    assert found == {
        "seats[2].reader.channel": "must be 0..7, not 9",
        "seats[3].reader.type": 'must be "spi" or "hub", not "usb"',
        "seats[4].reader": 'missing: say where its reader is, e.g. '
                           'reader = { type = "spi", bus = 0, device = 0 }',
        "seats[5].reader": 'must be a table like { type = "spi", bus = 0, device = 0 }, '
                           'not a whole number 3',
        "seats[6].reader.type": 'missing: "spi" (wired to the Pi) or "hub" (on the USB hub)',
        "seats[7].reader.cs_pin": "give either device (a CE line of the bus) or cs_pin "
                                  "(a GPIO as chip select), not both",
        "seats[8].reader.device": "must be 0..1, not 2",
        "seats[8].reader.speed": "unknown key; the keys here are: bus, cs_pin, device, "
                                 "reset_pin, type",
    }


def test_two_seats_on_one_reader():
    text = FOUR_HUB_SEATS.replace("channel = 3", "channel = 1")
    assert one_problem(text) == ("seats[4].reader", "hub channel 1 is also the reader of "
                                                    "seats[2].reader")
    text = FOUR_HUB_SEATS + '[dealer]\nreader = { type = "hub", channel = 0 }\n'
    assert one_problem(text) == ("dealer.reader",
                                 "hub channel 0 is also the reader of seats[1].reader")


def test_too_many_or_too_few_seats():
    two = "".join(f'[[seats]]\nreader = {{ type = "hub", channel = {i} }}\n' for i in range(2))
    assert one_problem(two) == ("seats", "filicau needs 4 seats; 2 are configured")
    nine = "[[seats]]\n" * 9
    assert problems(nine)["seats"] == "a table has 2 to 8 seats, not 9"
    assert problems('seats = "four"\n')["seats"] == "must be a list of [[seats]] tables"


def test_more_seats_than_players_is_allowed_and_named():
    six = "".join(f'[[seats]]\nname = "S{i}"\nreader = {{ type = "hub", channel = {i} }}\n'
                  for i in range(6))
    c = loads(six + '[table]\ndirection = "clockwise"\n')
    assert c.table.seat_names == ("S0", "S1", "S2", "S3", "S4", "S5")


def test_seat_names_must_differ_and_be_short():
    text = FOUR_HUB_SEATS.replace('[[seats]]\nreader = { type = "hub", channel = 1 }',
                                  '[[seats]]\nname = "1"\nreader = { type = "hub", channel = 1 }')
    assert one_problem(text) == ("seats[2].name", '"1" is also the name of seats[1]')
    long = FOUR_HUB_SEATS.replace('[[seats]]\nreader = { type = "hub", channel = 0 }',
                                  '[[seats]]\nname = "Nord-Vest-Est!"\n'
                                  'reader = { type = "hub", channel = 0 }', 1)
    assert one_problem(long) == ("seats[1].name", "is too long (14 characters; at most 12)")


def test_dealt_needs_a_dealers_reader():
    key, message = one_problem(FOUR_HUB_SEATS + '[table]\nknowledge = "dealt"\n')
    assert key == "table.knowledge" and "needs a dealer's reader" in message
    ok = loads(FOUR_HUB_SEATS + '[table]\nknowledge = "dealt"\n'
               '[dealer]\nreader = { type = "hub", channel = 7 }\n')
    assert ok.dealer == HubReader(7)


def test_a_pin_used_twice_is_named_on_both_sides():
    found = problems("[buttons]\nok = 6\n")
    # OK now on GPIO 6, which the default UNDO button still uses.
    assert found == {"buttons.ok": "GPIO 6 is also used by buttons.undo (default)"}
    found = problems("[buttons]\nok = 12\n[leds]\nstatus = 12\n")
    assert found["buttons.ok"] == ("GPIO 12 is also used by leds.status, "
                                   "buzzer.pin (default)")
    assert found["leds.status"] == ("GPIO 12 is also used by buttons.ok, "
                                    "buzzer.pin (default)")


def test_a_pin_of_a_bus_in_use_is_refused():
    key, message = one_problem("[buttons]\nmenu = 10\n")
    assert key == "buttons.menu"
    assert message == ("GPIO 10 belongs to SPI0, which seats[1].reader uses; "
                       "choose another pin")
    key, message = one_problem("[leds]\nstatus = 3\n")
    assert message.startswith("GPIO 3 belongs to I2C1, which display uses")
    # With every reader on the hub and no display SPI0 and I2C pins are free.
    c = loads(FOUR_HUB_SEATS + '[display]\ndriver = "none"\n[buttons]\nmenu = 10\n'
                               "[leds]\nstatus = 3\n")
    assert c.buttons.menu == 10 and c.leds.status == 3


def test_readers_share_their_reset_line_but_nothing_else_may():
    c = loads("")
    assert {s.reader.reset_pin for s in c.seats} == {25}
    key, message = one_problem("[leds]\nstatus = 25\n")
    assert (key, message) == ("leds.status", "GPIO 25 is also used by readers.reset_pin "
                                             "(default)")
    # A hub-only table has no reset line, so GPIO 25 is free.
    assert loads(FOUR_HUB_SEATS + "[leds]\nstatus = 25\n").leds.status == 25
    # RST tied to 3.3 V frees it on an SPI table too.
    assert loads("[readers]\nreset_pin = false\n[leds]\nstatus = 25\n").leds.status == 25


def test_gpio_chip_select_clashes():
    text = FOUR_HUB_SEATS.replace('{ type = "hub", channel = 3 }',
                                  '{ type = "spi", bus = 0, cs_pin = 5 }')
    found = problems(text)
    assert found == {"seats[4].reader.cs_pin": "GPIO 5 is also used by buttons.ok (default)"}


def test_display_on_spi_must_not_take_a_readers_chip_select():
    found = problems('[display]\ninterface = "spi"\nspi_device = 1\n')
    assert found == {"display.spi_device": "SPI0 CE1 is also the reader of seats[2].reader"}


def test_display_dc_pin_counts_only_on_spi():
    # On I2C the SPI keys are checked but claim no pin.
    assert loads("[display]\ndc_pin = 5\n").buttons.ok == 5
    assert one_problem('[display]\ninterface = "spi"\ndc_pin = 5\nspi_device = 1\n'
                       "[[seats]]\nreader = { type = \"hub\", channel = 0 }\n"
                       "[[seats]]\nreader = { type = \"hub\", channel = 1 }\n"
                       "[[seats]]\nreader = { type = \"hub\", channel = 2 }\n"
                       "[[seats]]\nreader = { type = \"hub\", channel = 3 }\n"
                       )[0] == "display.dc_pin"


def test_every_mistake_at_once_in_file_order():
    text = """
[display]
contrast = -5
[table]
language = "fr"
game = "filicau"
[buttons]
ok = 99
undo = "six"
"""
    with pytest.raises(ConfigError) as info:
        loads(text, "/etc/cardtable/config.toml")
    assert str(info.value) == (
        "/etc/cardtable/config.toml: 4 mistakes:\n"
        "  display.contrast: must be 0..255, not -5\n"
        '  table.language: must be one of "en", "ro", "hu", not "fr"\n'
        "  buttons.ok: must be a GPIO number (BCM) 2..27, not 99 "
        "(use BCM numbers, not physical pins)\n"
        "  buttons.undo: must be a GPIO number (BCM) 2..27, not text \"six\"")


# ----- every number has a range; nothing the parser cannot take is a traceback -------------

@pytest.mark.parametrize("key, value, words", [
    ("notice_s", "inf", "must be 0.5..60 seconds, not inf"),
    ("notice_s", "nan", "must be 0.5..60 seconds, not nan"),
    ("notice_s", "-2.5", "must be 0.5..60 seconds, not -2.5"),
    ("notice_s", "0", "must be 0.5..60 seconds, not 0"),
    ("error_s", "-inf", "must be 1..600 seconds, not -inf"),
    ("error_s", "-1", "must be 1..600 seconds, not -1"),
    ("error_s", "1e9", "must be 1..600 seconds, not 1000000000.0"),
    ("error_s", '"8"', 'must be seconds (a number 1..600), not text "8"'),
])
def test_screen_times_out_of_range_are_refused_with_their_range(key, value, words):
    assert one_problem(f"[table]\n{key} = {value}\n") == (f"table.{key}", words)


def test_screen_times_in_range_are_kept_as_seconds():
    table = loads("[table]\nnotice_s = 1\nerror_s = 12.5\n").table
    assert (table.notice_s, table.error_s) == (1.0, 12.5)
    assert isinstance(table.notice_s, float)


@pytest.mark.parametrize("text, key, words", [
    ("[buttons]\nhold_s = nan\n", "buttons.hold_s", "must be 0.2..10 seconds, not nan"),
    ("[buttons]\nhold_s = inf\n", "buttons.hold_s", "must be 0.2..10 seconds, not inf"),
    ("[buttons]\nbounce_ms = -1\n", "buttons.bounce_ms", "must be 0..500, not -1"),
    ("[table]\ndebounce_ms = 1e3\n", "table.debounce_ms",
     "must be a whole number 0..5000, not a number with a decimal point 1000.0"),
    ("[display]\ni2c_address = 0x78\n", "display.i2c_address", "must be 3..119, not 120"),
    ("[readers]\nspi_speed_hz = -1\n", "readers.spi_speed_hz",
     "must be 100000..10000000, not -1"),
])
def test_other_numbers_out_of_range_are_refused_with_their_range(text, key, words):
    assert one_problem(text) == (key, words)


def test_every_number_of_the_configuration_is_declared_with_a_range():
    """A numeric field added without a range (a Whole, Seconds, a choice or a
    pin) would take inf, nan or a negative number: each one is declared here."""
    from table.fields import OneOf, Pin, Seconds, Whole, check_of

    sections = [TableSettings, cfg.Config, cfg.ReadersConfig, cfg.HubConfig,
                cfg.DisplayConfig, cfg.ButtonsConfig, cfg.LedsConfig, cfg.BuzzerConfig,
                cfg.GpioConfig, cfg.VoiceConfig]
    numeric = 0
    for cls in sections:
        for f in dataclasses.fields(cls):
            default = cfg._default(f)
            if isinstance(default, bool) or not isinstance(default, int | float | None):
                continue
            if default is None and not isinstance(check_of(f), Pin):
                continue
            numeric += 1
            assert isinstance(check_of(f), Whole | Seconds | OneOf | Pin), \
                f"{cls.__name__}.{f.name} has no range"
    assert numeric >= 20


def test_every_key_of_a_section_is_declared_once_with_its_check():
    """The sections' fields are the keys: each has its check in its declaration
    (table.fields), and the defaults the checker uses are the dataclasses'."""
    from table.fields import check_of

    for cls in (cfg.ReadersConfig, cfg.HubConfig, cfg.DisplayConfig, cfg.ButtonsConfig,
                cfg.LedsConfig, cfg.BuzzerConfig, cfg.GpioConfig, cfg.VoiceConfig,
                TableSettings):
        for f in dataclasses.fields(cls):
            if f.name != "options":
                assert check_of(f) is not None, f"{cls.__name__}.{f.name}"


def test_a_changed_declaration_changes_the_check(monkeypatch):
    """The checker reads the declaration: a narrower range declared is the
    range held to (there is no second copy of it)."""
    from table.fields import CHECK, Whole

    field = next(f for f in dataclasses.fields(cfg.ButtonsConfig) if f.name == "bounce_ms")
    monkeypatch.setattr(field, "metadata", {CHECK: Whole(0, 99)})
    assert one_problem("[buttons]\nbounce_ms = 100\n") == (
        "buttons.bounce_ms", "must be 0..99, not 100")


def nested(depth: int) -> str:
    return "[" * depth + "1" + "]" * depth


@pytest.mark.parametrize("text", [
    f"a = {nested(5000)}\n",                               # RecursionError in the parser
    "a = " + "{ b = " * 3000 + "1" + " }" * 3000 + "\n",   # inline tables
])
def test_a_file_nested_too_deeply_is_a_clear_mistake(text):
    assert one_problem(text) == ("(syntax)", "nested too deeply for a configuration file "
                                             "(lists or tables inside each other hundreds "
                                             "of times)")


def test_deep_or_huge_values_the_parser_takes_are_reported_shortly():
    found = problems(f"state_dir = {nested(450)}\n[table]\nnotice_s = {nested(450)}\n"
                     "admin_uids = [" + ", ".join(['"04A1B2C3"'] * 50_000) + ", 5]\n")
    assert found == {
        "state_dir": "must be a folder path in quotes, not a list [[[[...]]]]",
        "table.notice_s": "must be seconds (a number 0.5..60), not a list [[[[...]]]]",
        "table.admin_uids": "every UID must be text in quotes, not a whole number 5"}


@pytest.mark.parametrize("raw, words", [
    (b'a = "\x00"\n', "not valid TOML"),                       # a control character
    (b"[table]\ngame = \"filicau\"\n\xff\xfe\n", "is not UTF-8 text"),
    (b"\xef\xbb\xbf[table\n", "not valid TOML"),               # a BOM, then a broken header
])
def test_bytes_the_parser_cannot_take_are_a_clear_mistake(tmp_path, raw, words):
    f = tmp_path / "config.toml"
    f.write_bytes(raw)
    with pytest.raises(ConfigError) as info:
        load(f)
    assert words in str(info.value)


def test_config_check_of_a_hostile_file_prints_the_mistake_and_no_traceback(tmp_path):
    import subprocess
    import sys

    f = tmp_path / "config.toml"
    f.write_text(f"a = {nested(100_000)}\n")
    out = subprocess.run([sys.executable, "-m", "table.cli", "config", "check", str(f)],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 1
    assert "Traceback" not in out.stdout + out.stderr
    assert "(syntax): nested too deeply" in out.stdout + out.stderr


def test_the_readers_reset_pin_reaches_the_reference_seats_and_the_dealer():
    for text, reset in (("", 25), ("[readers]\nreset_pin = 14\n", 14),
                        ("[readers]\nreset_pin = false\n", None)):
        config = loads(text)
        readers = [s.reader for s in config.seats] + [config.dealer]
        assert all(isinstance(r, SpiReader) and r.reset_pin == reset for r in readers)
