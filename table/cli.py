"""The `cardtable` command line.

Each subcommand lives in its own module; `COMMANDS` maps its name to
"module:function", where the function adds its parser to the subparsers and
sets `handler` (a function of the parsed arguments returning an exit status).
Commands that only exist with another package (`sim`, from `hw_mocks`) are
registered by it through the entry-point group `cardtable.commands`
(`table.backends.extra_commands`).

Start-up is what a player waits for: a command named in `COMMANDS` builds
only its own parser (imports only its own module); the whole parser, with
the installed packages' entry points read, is built for everything else
(help, a mistyped name, `sim`).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

COMMANDS: dict[str, str] = {
    "referee": "table.commands.referee:add_parser",
    "config": "table.commands.config:add_parser",
    "doctor": "table.commands.doctor:add_parser",
    "run": "table.commands.run:add_parser",
    "export": "table.commands.export:add_parser",
    "enroll": "table.commands.enroll:add_parser",
    "badges": "table.commands.badges:add_parser",
    "journal": "table.commands.journal:add_parser",
    "hub-update": "table.commands.hub_update:add_parser",
    "hub": "table.commands.hub:add_parser",
    "review": "table.commands.review:add_parser",
    "history": "table.commands.history:add_parser",
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: every command, or with `only` (a name in
    `COMMANDS`) just that one, as the whole parser would parse it."""
    parser = _Parser(
        prog="cardtable",
        description="A referee for real card tables (Filicău, Filkó, Filcău, Sueca, Fildinsky).",
    )
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")   # of _Parser, all down
    if only is None:
        from table.backends import extra_commands

        for _, add_extra in extra_commands():
            add_extra(sub)
    for name, target in COMMANDS.items():
        if only is not None and name != only:
            continue
        module, func = target.split(":")
        try:
            add = getattr(importlib.import_module(module), func)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            if only is not None:   # not in this installation: say so as the whole parser does
                return build_parser()
            continue
        add(sub)
    # `cardtable run --version` too, and every subcommand's own subcommands
    _add_version(sub)
    return parser


def terminal_columns(fallback: int = 80) -> int:
    """The terminal's width as `shutil.get_terminal_size` finds it ($COLUMNS,
    else the terminal on standard output, else `fallback`), without loading
    `shutil` (with zlib, bz2 and lzma)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    stdout = sys.__stdout__
    try:
        if stdout is None:
            return fallback
        return os.get_terminal_size(stdout.fileno()).columns or fallback
    except (AttributeError, ValueError, OSError):   # closed, detached, not a terminal
        return fallback


class _Formatter(argparse.HelpFormatter):
    """argparse's own help, as wide as argparse would make it: argparse makes
    a formatter for every argument added (to check its metavar), and the
    width the first one looks up loads `shutil`, which the first frame does
    not need (≈ 4 ms here, ≈ 50 ms on a Pi Zero 2 W)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None, **kwargs: Any) -> None:
        if width is None:
            width = terminal_columns() - 2      # as argparse does
        super().__init__(prog, indent_increment, max_help_position, width, **kwargs)


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose help is written by `_Formatter`; its
    subcommands' parsers are of this class too (argparse's default)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)


def __version__() -> str:
    """The installed distribution's version (a checkout not installed: its pyproject's)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("cardtable")
    except PackageNotFoundError:
        import tomllib
        from pathlib import Path

        pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
        try:
            return str(tomllib.loads(pyproject.read_text())["project"]["version"])
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return "unknown"


class _Version(argparse.Action):
    """`--version`: the version is looked up only when asked for (reading the
    installed metadata costs a noticeable part of a Pi Zero's start)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: Any = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings=option_strings, dest=dest, default=default,
                         nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        print(f"cardtable {__version__()}")       # on standard output, as argparse's own
        parser.exit()


def _add_version(sub: Any) -> None:
    for p in set(sub.choices.values()):
        if not any("--version" in a.option_strings for a in p._actions):
            p.add_argument("--version", action=_Version, help="print the version and exit")
        for a in p._actions:
            if isinstance(a, argparse._SubParsersAction):
                _add_version(a)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        status = _main(argv)
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader of standard output went away (`cardtable export ... | head`):
        # what it wanted it has; end quietly, without a traceback
        _stdout_gone()
        return 0
    return status


def _main(argv: Sequence[str] | None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    # the command is the first word (the parser itself has no option but --help)
    parser = build_parser(words[0] if words and words[0] in COMMANDS else None)
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    return int(handler(args) or 0)


def _stdout_gone() -> None:
    """Point standard output at /dev/null, so that the interpreter's last
    flush of what is still buffered does not fail again at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (tests)
        pass
    finally:
        os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
