"""The [club] section, broker addresses and the messages: every mistake is
named, nothing half-read is used."""

from __future__ import annotations

import pytest

from table import config
from table.club.config import ClubConfigError, parse_broker
from table.club.topics import BadMessage, Entry, decode_ack, encode_ack, table_of


def problems(text: str) -> list[str]:
    with pytest.raises(config.ConfigError) as err:
        config.loads(text)
    return [str(p) for p in err.value.problems]


def test_a_club_section_is_read_with_its_credentials_and_tls(tmp_path):
    ca = tmp_path / "ca.pem"
    ca.write_text("x")
    c = config.loads(f'[club]\nbroker = "mqtts://club.example"\ntable = "table-3"\n'
                     f'username = "table-3"\npassword = "s3cret"\nca_file = "{ca}"\n').club
    assert c is not None
    assert (c.table, c.broker.host, c.broker.port, c.broker.tls) == \
        ("table-3", "club.example", 8883, True)
    assert (c.broker.username, c.broker.password, c.broker.ca_file) == ("table-3", "s3cret", ca)


def test_the_dump_of_a_configuration_keeps_its_club(tmp_path):
    ca = tmp_path / "ca.pem"
    ca.write_text("x")
    c = config.loads(f'[club]\nbroker = "mqtts://u:p@club.example:8884"\ntable = "t-1"\n'
                     f'ca_file = "{ca}"\nkeepalive = 30\n')
    assert config.loads(config.dump(c)) == c
    assert "[club]" not in config.dump(config.loads(""))


def test_no_club_section_means_no_club():
    assert config.loads("").club is None


@pytest.mark.parametrize("text, key, words", [
    ('[club]\ntable = "t1"\n', "club.broker", "is missing"),
    ('[club]\nbroker = "mqtt://h"\n', "club.table", "is missing"),
    ('[club]\nbroker = "http://h"\ntable = "t1"\n', "club.broker", "mqtt:// or mqtts://"),
    ('[club]\nbroker = "h:1883"\ntable = "t1"\n', "club.broker", "a URL like"),
    ('[club]\nbroker = "mqtt://h:99999"\ntable = "t1"\n', "club.broker", "port"),
    ('[club]\nbroker = "mqtt://h"\ntable = "table 3"\n', "club.table", "letters, digits"),
    ('[club]\nbroker = "mqtt://h"\ntable = "t/1"\n', "club.table", "letters, digits"),
    ('[club]\nbroker = "mqtt://h"\ntable = 3\n', "club.table", "text in quotes"),
    ('[club]\nbroker = "mqtt://h"\ntable = "t1"\nkeepalive = 1\n', "club.keepalive", "5..600"),
    ('[club]\nbroker = "mqtt://h"\ntable = "t1"\nport = 1\n', "club.port", "unknown key"),
    ('[club]\nbroker = "mqtt://h"\ntable = "t1"\nca_file = "/x.pem"\n', "club.ca_file",
     "TLS"),
    ('[club]\nbroker = "mqtts://h"\ntable = "t1"\nca_file = "/nonexistent.pem"\n',
     "club.ca_file", "no such file"),
    ('club = 3\n', "club", "must be a table"),
])
def test_every_mistake_in_the_club_section_is_named(text, key, words):
    found = problems(text)
    assert any(p.startswith(f"{key}:") and words in p for p in found), found


def test_credentials_in_the_url_and_given_apart():
    b = parse_broker("mqtt://hub:p%40ss@10.0.0.2")
    assert (b.host, b.port, b.username, b.password, b.tls) == ("10.0.0.2", 1883, "hub", "p@ss",
                                                                False)
    b = parse_broker("mqtt://hub:x@h:1999", username="other", password="y")
    assert (b.port, b.username, b.password) == (1999, "other", "y")
    with pytest.raises(ClubConfigError, match="no host"):
        parse_broker("mqtt://:1883")
    with pytest.raises(ClubConfigError, match="path"):
        parse_broker("mqtt://h/room")


def test_an_entry_goes_and_comes_back_the_same():
    e = Entry("t1", 7, "card", {"seat": 1, "card": "AS", "uid": None})
    assert Entry.decode("cardtable/table/t1/journal", e.encode()) == e
    assert decode_ack(encode_ack(42)) == 42


@pytest.mark.parametrize("topic, payload, words", [
    ("cardtable/table/t1/journal", b"{", "not JSON"),
    ("cardtable/table/t1/journal", b"[]", "not a JSON object"),
    ("cardtable/table/t1/journal", b'{"table":"t2","seq":1,"kind":"x","data":{}}', "says table"),
    ("cardtable/table/t1/journal", b'{"table":"t1","seq":0,"kind":"x","data":{}}', "seq"),
    ("cardtable/table/t1/journal", b'{"table":"t1","seq":true,"kind":"x","data":{}}', "seq"),
    ("cardtable/table/t1/journal", b'{"table":"t1","seq":1,"kind":"x","data":[]}', "data"),
    ("cardtable/table/t1/journal", b"\xff", "not JSON"),
    ("cardtable/table/t 1/journal", b"{}", "not a journal topic"),
    ("cardtable/t1/journal", b"{}", "not a journal topic"),
])
def test_a_bad_entry_is_refused_with_its_reason(topic, payload, words):
    with pytest.raises(BadMessage, match=words):
        Entry.decode(topic, payload)


def test_a_bad_ack_is_refused():
    for payload in (b"online", b"-1", b"\xff", b""):
        with pytest.raises(BadMessage):
            decode_ack(payload)
    assert table_of("cardtable/table/t-1_x/ack", "ack") == "t-1_x"
