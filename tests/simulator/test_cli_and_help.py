"""`cardtable sim`'s command line (bots, seeds) and the rules on the help
screen, found in a checkout or an installed cardtable."""

from __future__ import annotations

import argparse
import tomllib
from pathlib import Path

import pytest

from engine.games import game_ids
from hw_mocks.simulator import cli
from hw_mocks.simulator.players import bot_names, describe, make_player
from hw_mocks.simulator.rules_help import page_path, rules_markdown, rules_section

ROOT = Path(__file__).resolve().parents[2]


def sim_args(*argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    cli.add_arguments(p)
    return p.parse_args(list(argv))


def test_the_help_names_every_bot_and_each_can_be_made():
    p = argparse.ArgumentParser()
    cli.add_arguments(p)
    text = " ".join(p.format_help().split())
    for name in bot_names():
        assert name in text
        assert make_player(name) is not None and describe(name)
    assert bot_names()[0] == "simple"


def test_an_unknown_bot_is_refused_with_the_choices(capsys):
    assert cli.run(sim_args("--demo", "--headless", "--bot", "clever")) == 2
    err = capsys.readouterr().err
    assert "no bot called 'clever'" in err and all(n in err for n in bot_names())
    with pytest.raises(ValueError, match="there are: simple"):
        make_player("clever")


def test_a_state_folder_keeps_its_seed(tmp_path):
    state = tmp_path / "state"
    first = cli.seed_for(None, state)
    assert (state / cli.SEED_FILE).read_text().strip() == str(first)
    assert cli.seed_for(None, state) == first          # a restart deals the same cards
    assert cli.seed_for(77, state) == 77                 # a seed given wins, and is kept
    assert cli.seed_for(None, state) == 77
    (state / cli.SEED_FILE).write_text("not a number\n")
    with pytest.raises(ValueError, match="should hold a seed"):
        cli.seed_for(None, state)


def test_a_bad_seed_file_is_a_clear_error(tmp_path, capsys):
    (tmp_path / cli.SEED_FILE).write_text("x")
    assert cli.run(sim_args("--demo", "--headless", "--state", str(tmp_path))) == 2
    assert "should hold a seed" in capsys.readouterr().err


def test_new_seeds_differ_from_run_to_run():
    seeds = {cli.seed_for(None, None) for _ in range(5)}
    assert len(seeds) > 1


def test_the_headless_demo_prints_its_seed(capsys):
    assert cli.run(sim_args("--demo", "--headless", "--fast", "--seed", "7", "--options",
                            '{"match_length": 1}')) == 0
    assert "match_over" in capsys.readouterr().out.split("; seed 7")[0]


@pytest.mark.parametrize("game", game_ids())
def test_every_game_has_rules_for_the_help_screen(game):
    text = rules_markdown(game)
    assert text.startswith("# ") and len(text.splitlines()) > 8
    assert "## Options" not in text and "| option |" not in text
    assert "](" not in text   # links are plain text: the help screen opens no file


def test_the_rules_stop_before_the_developers_sections():
    page = ("# G\n\nintro [a link](x.md)\n\n## At the table\n\nplay\n\n## The referee\n\n"
            "ops\n\n## Options\n\n| option |\n")
    assert rules_section(page) == "# G\n\nintro a link\n\n## At the table\n\nplay\n"


def test_an_installed_cardtable_finds_the_pages_in_its_share_folder(tmp_path):
    share = tmp_path / "share" / "cardtable" / "docs" / "games"
    share.mkdir(parents=True)
    (share / "filicau.md").write_text("# Filicău\n\nThe rules.\n\n## Options\n", "utf-8")
    assert page_path("filicau", [tmp_path / "nowhere", share]) == share / "filicau.md"
    assert rules_markdown("filicau", [share]) == "# Filicău\n\nThe rules.\n"
    missing = rules_markdown("sueca", [share])
    assert "docs/games/sueca.md" in missing   # says where the rules are, no traceback


def test_the_package_installs_every_game_page():
    """pyproject's data-files put docs/games/*.md where an installed
    simulator looks (`share/cardtable/docs/games`)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    files = project["tool"]["setuptools"]["data-files"]["share/cardtable/docs/games"]
    matched = {p.name for pattern in files for p in ROOT.glob(pattern)}
    assert {f"{g}.md" for g in game_ids()} <= matched
