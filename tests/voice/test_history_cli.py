"""`cardtable history`, `--version` everywhere, headers on every list, and
unknown names answered with the valid ones."""

from __future__ import annotations

import pytest

from table.cli import __version__, build_parser, main
from tests.table.test_run import match_events


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A finished three-hand Filicău match and a second one just started."""
    tmp = tmp_path_factory.mktemp("history")
    text, hands = match_events(8, match_length=3)
    events = tmp / "match.txt"
    events.write_text(text)
    state = tmp / "state"
    args = ["run", "--hardware", "mock", "--events", str(events), "--state", str(state),
            "--game", "filicau", "--option", "match_length=3", "--knowledge", "scan",
            "--seed", "8", "--quiet"]
    assert main(args) == 0
    (tmp / "start.txt").write_text("press ok\n")
    assert main(["run", "--hardware", "mock", "--events", str(tmp / "start.txt"), "--state",
                 str(state), "--quiet"]) == 0
    return state, hands


def test_history_lists_the_matches_with_a_header(played, capsys):
    state, hands = played
    capsys.readouterr()
    assert main(["history", "--state", str(state)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["match", "started", "game", "seats", "hands", "result"]
    assert set(lines[1]) <= {"-", " "}
    first, second = lines[2], lines[3]
    assert first.split()[0] == "1" and "Filicău" in first and "1+3 v 2+4" in first
    assert first.split()[-3:] == ["3", "2+4", "won"]     # three hands; 2+4 won 2 of them
    assert second.split()[0] == "2" and second.rstrip().endswith("0  playing (even)")


def test_history_shows_one_match_hand_by_hand(played, capsys):
    state, hands = played
    capsys.readouterr()
    assert main(["history", "1", "--state", str(state)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Match 1: Filicău, started ")
    assert "hands scanned" in out[0] and "match length 3" in out[0]
    assert out[1].startswith("Seats: 1+3 v 2+4. Result: 2+4 won.")
    table = out[3:]
    assert table[0].split() == ["hand", "dealer", "1+3", "2+4", "after", "the", "hand"]
    rows = [ln.split() for ln in table[2:]]
    assert [[int(x) for x in r[2:4]] for r in rows] == hands       # each hand's points
    assert [r[0] for r in rows] == ["1", "2", "3"]
    assert all(1 <= int(r[1]) <= 4 for r in rows)                   # dealers as seats 1..4
    assert rows[-1][4:] == ["2+4", "masters"]


def test_history_of_a_match_that_does_not_exist(played, capsys):
    state, _ = played
    assert main(["history", "9", "--state", str(state)]) == 2
    assert capsys.readouterr().err == ("cardtable history: there is no match 9; the matches "
                                       "are 1 to 2 (`cardtable history` lists them)\n")


def test_history_without_a_journal(tmp_path, capsys):
    assert main(["history", "--state", str(tmp_path)]) == 2
    assert "there is no journal in" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--version"], ["run", "--version"], ["history", "--version"],
                                  ["config", "check", "--version"], ["sim", "--version"],
                                  ["journal", "check", "--version"]])
def test_version_on_every_command(argv, capsys):
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 0
    assert capsys.readouterr().out == f"cardtable {__version__()}\n"
    assert __version__()[0].isdigit()


def test_every_command_has_version():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    for name, p in sub.choices.items():
        assert any("--version" in a.option_strings for a in p._actions), name


@pytest.mark.parametrize(("argv", "expected"), [
    (["--game", "nosuch"], "cardtable run: There is no game called 'nosuch'. The games are: "
                           "filicau, filko, filko_hats, filko5, filko6, filcau20, sueca, "
                           "fildinsky (docs/games.md).\n"),
    (["--option", "nosuch=1"], "cardtable run: The game filicau has no option 'nosuch'. "
                               "Its options are: early_stop_when_decided, match_length.\n"),
])
def test_unknown_names_list_the_valid_ones(argv, expected, capsys, tmp_path):
    assert main(["run", "--hardware", "mock", "--state", str(tmp_path), *argv]) == 2
    assert capsys.readouterr().err == expected


def test_an_unknown_game_in_the_simulator_lists_the_games(capsys):
    assert main(["sim", "--game", "nosuch", "--demo", "--headless"]) == 2
    err = capsys.readouterr().err
    assert "There is no game called 'nosuch'. The games are: filicau, filko" in err


def test_the_history_shown_in_table_md_is_what_the_command_prints(played, capsys):
    """The examples of docs/table.md, dates and journal ids aside."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "table.md").read_text()
    section = text[text.index("## Past matches"):text.index("## Power cuts")]
    blocks = [b for b in section.split("\n\n") if b.startswith("    ")]
    listed, one = blocks[1], blocks[2] + "\n\n" + blocks[3]
    state, _ = played
    date = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d")

    def same(doc: str, out: str) -> None:
        doc = "\n".join(ln[4:] for ln in doc.splitlines())
        out = re.sub(r"match \d+, `cardtable export --match \d+`", "match 1, `cardtable "
                     "export --match 1`", out)
        assert date.sub("DATE", doc).strip() == date.sub("DATE", out).strip()

    capsys.readouterr()
    main(["history", "--state", str(state)])
    same(listed, capsys.readouterr().out)
    main(["history", "1", "--state", str(state)])
    same(one, capsys.readouterr().out)
