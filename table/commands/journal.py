"""`cardtable journal check|backup|accept`: the table's stored state.

    cardtable journal check  --state /var/lib/cardtable
    cardtable journal backup --state /var/lib/cardtable --to /media/usb/cardtable-2026-11-24
    cardtable journal accept --state /var/lib/cardtable --yes

`check` reads the journal and the card registry without changing anything:
SQLite's `integrity_check`, each file against its mark (the number the table
last acknowledged), every journal entry decoded, every enrolled card read.
`backup` writes a consistent copy with SQLite's backup API, safe while the
table runs, with marks that match the copy. `accept` is the way back after
a loss the club has decided to live with: it rewrites the marks to what the
files hold now, saying how much is given up. docs/setup.md, "Back up and
restore".
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

#: Exit status of `check` when something is wrong.
PROBLEMS = 1


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "journal",
        help="check, back up, or accept the table's journal and card registry",
        description="The state folder holds the journal (journal.sqlite) and the card "
                    "registry (registry.sqlite), each with a mark file saying how far the "
                    "table got. See docs/setup.md, \"Back up and restore\".",
    )
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)
    c = verbs.add_parser("check", help="verify a state folder (changes nothing)",
                         description="SQLite integrity_check, the marks, every journal "
                                     "entry and every enrolled card. Exit status 0 when "
                                     "all is well, 1 when something is wrong, 2 when "
                                     "there is no state folder.")
    c.add_argument("--state", type=Path, required=True, metavar="DIR")
    c.set_defaults(handler=run_check)
    b = verbs.add_parser("backup", help="write a consistent copy of a state folder",
                         description="Copies the journal and the card registry with "
                                     "SQLite's backup API (safe while the table runs) into "
                                     "a new folder, with marks that match the copy. The "
                                     "folder must not exist yet or be empty: nothing is "
                                     "overwritten.")
    b.add_argument("--state", type=Path, required=True, metavar="DIR")
    b.add_argument("--to", type=Path, required=True, metavar="DEST",
                   help="the new folder for the copy")
    b.set_defaults(handler=run_backup)
    a = verbs.add_parser("accept", help="accept what the files hold now (rewrite the marks)",
                         description="After a loss the club has decided to live with (an "
                                     "older journal put back, a damaged mark file), make "
                                     "the marks say what the files hold now, so that the "
                                     "table plays again. Without --yes it only says what "
                                     "would be given up.")
    a.add_argument("--state", type=Path, required=True, metavar="DIR")
    a.add_argument("--yes", action="store_true", help="really rewrite the marks")
    a.set_defaults(handler=run_accept)


def _err(verb: str, text: str) -> None:
    print(f"cardtable journal {verb}: {text}", file=sys.stderr)


# ----- check --------------------------------------------------------------------------------

def _integrity(path: Path) -> list[str]:
    """SQLite's integrity_check of a file, read-only: [] when it is sound."""
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            rows = [str(r[0]) for r in db.execute("PRAGMA integrity_check").fetchall()]
        finally:
            db.close()
    except sqlite3.Error as exc:
        return [str(exc)]
    return [] if rows == ["ok"] else rows


def _mark_line(kind: str, mark_file: Path, store_id: str | None, have: int,
               unit: str) -> tuple[str, bool]:
    from table import storemark

    try:
        mark = storemark.read(mark_file)
    except storemark.MarkError as exc:
        return f"{kind}: {exc}", False
    if mark is None:
        return f"{kind}: no mark file ({mark_file.name}); the table writes one when it starts", True
    if store_id is not None and mark.store_id != store_id:
        return (f"{kind}: the mark is for another file ({mark.store_id}, this one is "
                f"{store_id})"), False
    if have < mark.value:
        return (f"{kind}: BEHIND its mark: holds {unit} {have}, the table had reached "
                f"{mark.value} ({mark.value - have} missing)"), False
    return f"{kind}: mark {mark.value}, holds {have}: nothing missing", True


def _missing(what: str, name: str, mark_file: Path) -> tuple[list[str], bool]:
    """No such file: fine for a new table, a loss if its mark is still there."""
    ok = not mark_file.exists()
    why = "" if ok else f" but there is a mark: the {what} was moved or deleted"
    return [f"{what}: no {name}{why}"], ok


def _integrity_lines(what: str, path: Path) -> tuple[list[str], bool]:
    problems = _integrity(path)
    if problems:
        return [f"{what}: integrity_check: {'; '.join(problems[:5])}"], False
    return [f"{what}: integrity_check ok"], True


def check_journal(state: Path) -> tuple[list[str], bool]:
    from table.controller.loop import JOURNAL_FILE
    from table.journal import Journal, JournalError, inspect, mark_path

    path = state / JOURNAL_FILE
    if not path.is_file():
        return _missing("journal", JOURNAL_FILE, mark_path(path))
    lines, good = _integrity_lines("journal", path)
    try:
        journal_id, have = inspect(path)
    except JournalError as exc:
        return [*lines, f"journal: {exc}"], False
    text, ok = _mark_line("journal", mark_path(path), journal_id, have, "entry")
    lines.append(text)
    good = good and ok
    try:
        journal = Journal(path, readonly=True)
        try:
            n = sum(1 for _ in journal.entries())
        finally:
            journal.close()
        lines.append(f"journal: {n} entries, every one decodes (last {have})")
    except JournalError as exc:
        lines.append(f"journal: {exc}")
        good = False
    return lines, good


def check_registry(state: Path) -> tuple[list[str], bool]:
    from table.controller.loop import REGISTRY_FILE
    from table.registry import CardRegistry, RegistryError, inspect_registry

    path = state / REGISTRY_FILE
    mark_file = path.with_suffix(".mark")
    if not path.is_file():
        return _missing("registry", REGISTRY_FILE, mark_file)
    lines, good = _integrity_lines("registry", path)
    try:
        reg_id, generation = inspect_registry(path)
    except RegistryError as exc:
        return [*lines, f"registry: {exc}"], False
    text, ok = _mark_line("registry", mark_file, reg_id, generation, "change")
    lines.append(text)
    good = good and ok
    # read every card through a copy, so that nothing is written to the original
    with tempfile.TemporaryDirectory(prefix="cardtable-check-") as tmp:
        try:
            copy = Path(tmp) / REGISTRY_FILE
            _copy_db(path, copy)
            reg = CardRegistry(copy)
            try:
                packs = reg.packs()
                lines.append(f"registry: {len(packs)} packs, {len(reg)} cards, every one reads")
            finally:
                reg.close()
        except (RegistryError, sqlite3.Error) as exc:
            lines.append(f"registry: {exc}")
            good = False
    return lines, good


def run_check(args: argparse.Namespace) -> int:
    if not args.state.is_dir():
        _err("check", f"there is no state folder {args.state}")
        return 2
    good = True
    for part in (check_journal, check_registry):
        lines, ok = part(args.state)
        for line in lines:
            print(line)
        good = good and ok
    print("all well" if good else "PROBLEMS: see above; docs/setup.md, \"Back up and restore\"")
    return 0 if good else PROBLEMS


# ----- backup -------------------------------------------------------------------------------

def _copy_db(src: Path, dest: Path) -> None:
    """A consistent copy of an SQLite file (and what its write-ahead log
    holds) with the backup API; the source is opened read-only."""
    source = sqlite3.connect(f"{src.resolve().as_uri()}?mode=ro", uri=True)
    try:
        target = sqlite3.connect(dest)
        try:
            source.backup(target)
            # one self-contained file (the table turns WAL on again when it opens it)
            target.execute("PRAGMA journal_mode=DELETE").fetchall()
        finally:
            target.close()
    finally:
        source.close()


def run_backup(args: argparse.Namespace) -> int:
    from table import storemark
    from table.controller.loop import JOURNAL_FILE, REGISTRY_FILE
    from table.journal import JournalError, inspect, mark_path
    from table.registry import RegistryError, inspect_registry

    state: Path = args.state
    dest: Path = args.to
    if not state.is_dir():
        _err("backup", f"there is no state folder {state}")
        return 2
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        _err("backup", f"{dest} already exists and is not an empty folder; nothing was "
                       "written (a backup never overwrites anything)")
        return 2
    names = [n for n in (JOURNAL_FILE, REGISTRY_FILE) if (state / n).is_file()]
    if not names:
        _err("backup", f"{state} holds no journal and no card registry")
        return 2
    try:
        dest.mkdir(parents=True, exist_ok=True)
        for name in names:
            src, copy = state / name, dest / name
            _copy_db(src, copy)
            problems = _integrity(copy)
            if problems:
                _err("backup", f"the copy of {name} is not sound ({'; '.join(problems[:3])}); "
                               "the original may be damaged: run `cardtable journal check`")
                return 1
            if name == JOURNAL_FILE:
                store_id, value = inspect(copy)
                what = f"{value} entries"
            else:
                store_id, value = inspect_registry(copy)
                what = f"registry change {value}"
            if store_id is not None:
                storemark.MarkFile(mark_path(copy)).create(storemark.Mark(store_id, value))
            print(f"{name}: {what} copied to {copy}")
    except (OSError, sqlite3.Error, storemark.MarkError, JournalError, RegistryError) as exc:
        _err("backup", f"cannot write the backup in {dest}: "
                       f"{getattr(exc, 'strerror', None) or exc}")
        return 1
    print(f"backup complete in {dest}; restore it as docs/setup.md says")
    return 0


# ----- accept -------------------------------------------------------------------------------

def run_accept(args: argparse.Namespace) -> int:
    from table import storemark
    from table.controller.loop import JOURNAL_FILE, REGISTRY_FILE
    from table.journal import JournalError, inspect, mark_path
    from table.registry import RegistryError, inspect_registry

    state: Path = args.state
    if not state.is_dir():
        _err("accept", f"there is no state folder {state}")
        return 2
    plans: list[tuple[Path, storemark.Mark, str]] = []
    for name, reader, unit in ((JOURNAL_FILE, inspect, "entries"),
                               (REGISTRY_FILE, inspect_registry, "registry changes")):
        path = state / name
        if not path.is_file():
            continue
        problems = _integrity(path)
        if problems:
            _err("accept", f"{name} is damaged ({'; '.join(problems[:3])}): accepting it "
                           "would not help; put back a backup (docs/setup.md)")
            return 1
        try:
            store_id, have = reader(path)
        except (JournalError, RegistryError) as exc:
            _err("accept", str(exc))
            return 1
        if store_id is None:
            continue
        try:
            old = storemark.read(mark_path(path))
        except storemark.MarkError:
            old = None
            print(f"{name}: its mark file is damaged")
        if old is not None and old.store_id == store_id and old.value <= have:
            print(f"{name}: nothing to accept (holds {have}, mark {old.value})")
            continue
        lost = ""
        if old is not None and old.store_id == store_id:
            lost = f"; {old.value - have} {unit} after {have} are given up"
        elif old is not None:
            lost = (f"; the mark was for another file ({old.store_id}, up to {old.value}), "
                    "which is given up")
        print(f"{name}: holds {have} {unit}{lost}")
        plans.append((mark_path(path), storemark.Mark(store_id, have), name))
    if not plans:
        print("nothing to accept")
        return 0
    if not args.yes:
        print("nothing was changed; run again with --yes to accept this")
        return 1
    for path, mark, name in plans:
        try:
            storemark.MarkFile(path).create(mark)
        except storemark.MarkError as exc:
            _err("accept", str(exc))
            return 1
        print(f"{name}: accepted; the table will play on from here")
    return 0
