"""The card registry: which sticker (UID) is which card of which pack.

A table may have several packs enrolled, of any of the engine's pack types
(two copies of every card for the double pack). A pack is enrolled by tapping
its cards in a fixed order (the pack's own order, shown on the screen); each
UID is stored the moment it is tapped, so an interrupted enrollment resumes
where it stopped. A UID can belong to one card only. The registry is kept in
SQLite and can be exported to, and imported from, a JSON file.

Members' badges live in the same registry: a badge is any RFID tag that is not
a card, enrolled with a member number (and a name given later with `cardtable
badges`). Tapped on a seat's reader between matches it sits that member there
(docs/table.md). Everywhere outside the table a member is known by
`member_id`, derived from the badge's UID, so that the same badge is the same
player at every table of a club while the UID itself is never published.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from engine.cards import Card
from engine.packs import PACKS, Pack
from table import storemark

T = TypeVar("T")

EXPORT_FORMAT = "cardtable-registry"
EXPORT_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS packs (
    number INTEGER PRIMARY KEY,
    type   TEXT NOT NULL,
    name   TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS cards (
    uid      TEXT PRIMARY KEY,
    pack     INTEGER NOT NULL REFERENCES packs(number),
    position INTEGER NOT NULL,
    UNIQUE (pack, position)
);
CREATE TABLE IF NOT EXISTS badges (
    number INTEGER PRIMARY KEY,
    uid    TEXT NOT NULL UNIQUE,
    name   TEXT NOT NULL
);
"""


class RegistryError(ValueError):
    """A registry request that cannot be done; nothing was changed."""


RECOVERY = ("To recover: stop the table and put back the latest backup of the state folder "
            "(registry.sqlite with its registry.sqlite-wal), or a registry export "
            "(`cardtable enroll --import FILE` into a new state folder). Nothing was changed.")


class RegistryDamaged(RegistryError):
    """The registry's file cannot be read or written (damaged, missing, a full disk)."""


class RegistryBehind(RegistryDamaged):
    """The registry holds an older state than the table had (its mark)."""


class AlreadyEnrolled(RegistryError):
    def __init__(self, uid: str, existing: Enrolled) -> None:
        self.uid = uid
        self.existing = existing
        super().__init__(f"UID {uid} is already enrolled as {existing.card.code} "
                         f"of pack {existing.pack}")


class BadgeInUse(RegistryError):
    """A UID that is already a member's badge (when enrolling a card or a badge)."""

    def __init__(self, uid: str, badge: Badge) -> None:
        self.uid = uid
        self.badge = badge
        super().__init__(f"UID {uid} is already the badge of member {badge.number} "
                         f"({badge.name})")


#: The longest member name (the table's screen shows a few letters of it).
NAME_MAX = 40


def member_id(uid: str) -> str:
    """A member's identity outside the table: 12 hex digits of a hash of the
    badge's UID (the same badge gives the same id at every table)."""
    return hashlib.sha256(f"cardtable-badge:{uid}".encode()).hexdigest()[:12]


def check_member_name(name: object) -> str:
    """A member's name, trimmed; `RegistryError` for an empty or too long one."""
    if not isinstance(name, str) or not name.strip():
        raise RegistryError("a member's name must be some text")
    text = " ".join(name.split())
    if len(text) > NAME_MAX:
        raise RegistryError(f"a member's name has at most {NAME_MAX} characters "
                            f"({text[:20]}… has {len(text)})")
    return text


def normalise_uid(uid: object) -> str:
    """Upper-case hex without separators, 4 to 10 bytes; `RegistryError` otherwise."""
    if not isinstance(uid, str):
        raise RegistryError(f"a UID must be text, not {type(uid).__name__}")
    text = uid.replace(":", "").replace(" ", "").upper()
    if (not 8 <= len(text) <= 20 or len(text) % 2
            or any(c not in "0123456789ABCDEF" for c in text)):
        raise RegistryError(f"{uid!r} is not a card UID (4 to 10 bytes in hexadecimal)")
    return text


def is_uid(text: str) -> bool:
    try:
        normalise_uid(text)
    except RegistryError:
        return False
    return True


@dataclass(frozen=True)
class PackRecord:
    """An enrolled (or partly enrolled) pack. `number` counts from 1."""

    number: int
    type: str
    name: str
    enrolled: int

    @property
    def pack(self) -> Pack:
        return PACKS[self.type]

    @property
    def size(self) -> int:
        return self.pack.size

    @property
    def complete(self) -> bool:
        return self.enrolled >= self.size

    def card_at(self, position: int) -> Card:
        return self.pack.cards[position]

    def copy_at(self, position: int) -> int:
        """1 for the first copy of a card in the pack's order, 2 for the second."""
        c = self.pack.cards[position]
        return self.pack.cards[:position + 1].count(c)


@dataclass(frozen=True)
class Enrolled:
    """What a UID is: `card` (copy `copy`) of pack number `pack`."""

    uid: str
    pack: int
    pack_type: str
    position: int
    card: Card
    copy: int

    @property
    def family(self) -> str:
        return PACKS[self.pack_type].family


@dataclass(frozen=True)
class Badge:
    """A member's badge: `number` counts from 1 at this table."""

    number: int
    uid: str
    name: str

    @property
    def member(self) -> str:
        return member_id(self.uid)


def default_member_name(number: int) -> str:
    """A new badge's name until `cardtable badges --name` gives the member's
    own: "#3" reads the same in every language and fits the screen."""
    return f"#{number}"


def virtual_uid(pack_number: int, position: int, card: Card, copy: int = 1) -> str:
    """A made-up 7-byte UID for a card of a virtual (simulated) pack:
    `F0CA`, the pack number, the position, the card code in ASCII, the copy."""
    return (f"F0CA{pack_number % 256:02X}{position % 256:02X}"
            f"{card.code.encode('ascii').hex().upper()}{copy % 256:02X}")


class CardRegistry:
    """The registry in an SQLite file (`":memory:"` for a throwaway one)."""

    def __init__(self, path: str | Path = ":memory:") -> None:
        self.path = str(path)
        self.id = ""
        self.generation = 0
        self._marks: storemark.MarkFile | None = None
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(_SCHEMA)
            meta = dict(self.db.execute("SELECT key, value FROM meta").fetchall())
            if "id" not in meta:
                meta["id"] = uuid.uuid4().hex
                self.db.execute("INSERT INTO meta (key, value) VALUES ('id', ?)", (meta["id"],))
            self.id = str(meta["id"])
            self.generation = int(meta.get("generation", 0))
            self._load()
        except (sqlite3.Error, TypeError, ValueError, KeyError, IndexError) as exc:
            if isinstance(exc, RegistryError):
                raise
            raise RegistryDamaged(f"the card registry {self.path} cannot be read ({exc}). "
                                  f"{RECOVERY}") from None

    @classmethod
    def verify(cls, path: str | Path) -> storemark.Mark | None:
        """Compare a registry file with its mark (`registry.mark`) without
        changing anything: `RegistryBehind` when it holds an older state than
        the table had. Returns the mark (None when there is none yet)."""
        p = Path(path)
        mpath = p.with_suffix(".mark")
        try:
            mark = storemark.read(mpath)
        except storemark.MarkError as exc:
            raise RegistryDamaged(f"{exc}. If the registry is sound, `cardtable journal "
                                  "accept` writes a new mark. Nothing was changed.") from None
        reg_id, generation = inspect_registry(p) if p.is_file() else (None, 0)
        if mark is not None:
            if reg_id is not None and reg_id != mark.store_id:
                raise RegistryBehind(f"the card registry {p} is not the one the table was "
                                     f"using (that was registry {mark.store_id}, change "
                                     f"{mark.value}; this one is {reg_id}). {RECOVERY}")
            if generation < mark.value:
                raise RegistryBehind(
                    f"the card registry {p} holds change {generation}, but the table had "
                    f"made {mark.value} changes ({mpath.name}): the last "
                    f"{mark.value - generation} enrollment changes are missing (a lost or "
                    f"damaged registry.sqlite-wal, or an older copy). {RECOVERY}")
        return mark

    @classmethod
    def open_checked(cls, path: str | Path) -> CardRegistry:
        """Open the table's registry after `verify`; afterwards every change
        updates the mark."""
        p = Path(path)
        mpath = p.with_suffix(".mark")
        mark = cls.verify(p)
        reg = cls(p)
        try:
            reg._check()
            reg._marks = storemark.MarkFile(mpath)
            if mark is None or mark.store_id != reg.id:
                reg._marks.create(storemark.Mark(reg.id, reg.generation))
            elif reg.generation > mark.value:
                reg._marks.write(storemark.Mark(reg.id, reg.generation))
        except storemark.MarkError as exc:
            reg.close()
            raise RegistryDamaged(str(exc)) from None
        except BaseException:
            reg.close()
            raise
        return reg

    def _check(self) -> None:
        try:
            rows = [str(r[0]) for r in self.db.execute("PRAGMA quick_check").fetchall()]
        except sqlite3.Error as exc:
            rows = [str(exc)]
        if rows != ["ok"]:
            raise RegistryDamaged(f"the card registry {self.path} is damaged "
                                  f"({'; '.join(rows[:3])}). {RECOVERY}")

    def _change(self, work: Callable[[], T]) -> T:
        """Run `work` (SQL statements) in one transaction that also counts a
        new generation; then record the generation in the mark. Any SQLite
        error rolls back and becomes `RegistryDamaged`; the registry in
        memory is changed by the caller only after this returns."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                result = work()
                self.db.execute("INSERT OR REPLACE INTO meta (key, value) "
                                "VALUES ('generation', ?)", (str(self.generation + 1),))
                self.db.execute("COMMIT")
            except BaseException:
                try:
                    self.db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                raise
        except sqlite3.Error as exc:
            raise RegistryDamaged(f"cannot write to the card registry {self.path}: {exc}. "
                                  "Nothing was changed.") from None
        self.generation += 1
        if self._marks is not None:
            try:
                self._marks.write(storemark.Mark(self.id, self.generation))
            except storemark.MarkError as exc:
                raise RegistryDamaged(str(exc)) from None
        return result

    def _load(self) -> None:
        packs = self.db.execute("SELECT number, type, name FROM packs").fetchall()
        self._packs: dict[int, tuple[str, str]] = {
            int(n): (str(t), str(name)) for n, t, name in packs}
        for n, (t, _) in self._packs.items():
            if t not in PACKS:
                raise RegistryError(f"pack {n} has an unknown pack type {t!r}")
        self._by_uid: dict[str, Enrolled] = {}
        self._by_card: dict[tuple[str, Card, int], tuple[int, str]] | None = None
        self._count: dict[int, int] = {n: 0 for n in self._packs}
        for uid, pack, position in self.db.execute("SELECT uid, pack, position FROM cards"):
            self._by_uid[str(uid)] = self._make(str(uid), int(pack), int(position))
            self._count[pack] += 1
        self._badges: dict[str, Badge] = {
            str(uid): Badge(int(n), str(uid), str(name))
            for n, uid, name in self.db.execute("SELECT number, uid, name FROM badges")}

    def _make(self, uid: str, pack: int, position: int) -> Enrolled:
        ptype = self._packs[pack][0]
        rec = PackRecord(pack, ptype, self._packs[pack][1], 0)
        return Enrolled(uid, pack, ptype, position, rec.card_at(position), rec.copy_at(position))

    def close(self) -> None:
        if self._marks is not None:
            self._marks.close()
        try:
            self.db.close()
        except sqlite3.Error:
            pass

    # ----- questions -------------------------------------------------------------

    def lookup(self, uid: str) -> Enrolled | None:
        """What this UID is, or None when it is not enrolled."""
        return self._by_uid.get(uid)

    def __len__(self) -> int:
        return len(self._by_uid)

    def packs(self) -> list[PackRecord]:
        return [self.pack(n) for n in sorted(self._packs)]

    def pack(self, number: int) -> PackRecord:
        if number not in self._packs:
            raise RegistryError(f"there is no pack number {number}")
        t, name = self._packs[number]
        return PackRecord(number, t, name, self._count[number])

    def unfinished(self) -> PackRecord | None:
        """The last pack whose enrollment was not finished."""
        for rec in reversed(self.packs()):
            if not rec.complete:
                return rec
        return None

    def expected(self, number: int) -> tuple[int, Card] | None:
        """The next card to tap for pack `number` (position, card), or None when complete."""
        rec = self.pack(number)
        if rec.complete:
            return None
        return rec.enrolled, rec.card_at(rec.enrolled)

    def uids_of(self, number: int) -> list[str]:
        """The UIDs of a pack in enrollment order."""
        try:
            return [str(u) for (u,) in self.db.execute(
                "SELECT uid FROM cards WHERE pack = ? ORDER BY position", (number,))]
        except sqlite3.Error as exc:
            raise RegistryDamaged(f"cannot read the card registry {self.path}: {exc}. "
                                  f"{RECOVERY}") from None

    def uid_for(self, card: Card, family: str, copy: int = 1) -> str | None:
        """A UID enrolled for this card code (copy `copy`) in a pack of `family`;
        the first pack wins. None when there is none."""
        if self._by_card is None:
            index: dict[tuple[str, Card, int], tuple[int, str]] = {}
            for e in self._by_uid.values():
                key = (e.family, e.card, e.copy)
                if key not in index or e.pack < index[key][0]:
                    index[key] = (e.pack, e.uid)
            self._by_card = index
        found = self._by_card.get((family, card, copy))
        return found[1] if found else None

    # ----- enrollment --------------------------------------------------------------

    def new_pack(self, pack_type: str, name: str | None = None) -> PackRecord:
        if pack_type not in PACKS:
            raise RegistryError(f"unknown pack type {pack_type!r}; "
                                f"pack types: {', '.join(PACKS)}")
        number = max(self._packs, default=0) + 1
        name = name or f"{pack_type} #{number}"
        label = name
        self._change(lambda: self.db.execute(
            "INSERT INTO packs (number, type, name) VALUES (?, ?, ?)",
            (number, pack_type, label)))
        self._packs[number] = (pack_type, name)
        self._count[number] = 0
        return self.pack(number)

    def enroll(self, number: int, uid: str) -> Enrolled:
        """Give the next card of pack `number` this UID. `AlreadyEnrolled` if
        the UID belongs to a card already; `RegistryError` if the pack is complete."""
        uid = normalise_uid(uid)
        nxt = self.expected(number)
        if nxt is None:
            raise RegistryError(f"pack {number} is complete")
        existing = self._by_uid.get(uid)
        if existing is not None:
            raise AlreadyEnrolled(uid, existing)
        if uid in self._badges:
            raise BadgeInUse(uid, self._badges[uid])
        position, _ = nxt
        self._change(lambda: self.db.execute(
            "INSERT INTO cards (uid, pack, position) VALUES (?, ?, ?)", (uid, number, position)))
        e = self._make(uid, number, position)
        self._by_uid[uid] = e
        self._by_card = None
        self._count[number] += 1
        return e

    def unenroll_last(self, number: int) -> Enrolled | None:
        """Take back the last card enrolled in pack `number` (None if it has none)."""
        rec = self.pack(number)
        if rec.enrolled == 0:
            return None
        uid = next(u for u, e in self._by_uid.items()
                   if e.pack == number and e.position == rec.enrolled - 1)
        self._change(lambda: self.db.execute("DELETE FROM cards WHERE uid = ?", (uid,)))
        self._count[number] -= 1
        self._by_card = None
        return self._by_uid.pop(uid)

    def remove_pack(self, number: int) -> None:
        self.pack(number)

        def work() -> None:
            self.db.execute("DELETE FROM cards WHERE pack = ?", (number,))
            self.db.execute("DELETE FROM packs WHERE number = ?", (number,))

        self._change(work)
        self._reload()

    def enroll_virtual(self, pack_type: str) -> PackRecord:
        """Enroll a whole pack with made-up UIDs (`virtual_uid`): for the
        simulator and `cardtable run --hardware mock`, never for a real table."""
        rec = self.new_pack(pack_type, f"virtual {pack_type}")
        for pos, c in enumerate(rec.pack.cards):
            self.enroll(rec.number, virtual_uid(rec.number, pos, c, rec.copy_at(pos)))
        return self.pack(rec.number)

    # ----- members' badges -------------------------------------------------------------

    def badge(self, uid: str) -> Badge | None:
        """The member's badge with this UID, or None."""
        return self._badges.get(uid)

    def badges(self) -> list[Badge]:
        return sorted(self._badges.values(), key=lambda b: b.number)

    def badge_number(self, number: int) -> Badge:
        for b in self._badges.values():
            if b.number == number:
                return b
        raise RegistryError(f"there is no member number {number}")

    def enroll_badge(self, uid: str, name: str | None = None) -> Badge:
        """Enroll a member's badge with the next member number. `AlreadyEnrolled`
        for a card's sticker, `BadgeInUse` for a badge already enrolled."""
        uid = normalise_uid(uid)
        if uid in self._by_uid:
            raise AlreadyEnrolled(uid, self._by_uid[uid])
        if uid in self._badges:
            raise BadgeInUse(uid, self._badges[uid])
        number = max((b.number for b in self._badges.values()), default=0) + 1
        label = check_member_name(name) if name is not None else default_member_name(number)
        self._change(lambda: self.db.execute(
            "INSERT INTO badges (number, uid, name) VALUES (?, ?, ?)", (number, uid, label)))
        badge = self._badges[uid] = Badge(number, uid, label)
        return badge

    def name_badge(self, number: int, name: str) -> Badge:
        """Give member `number` a name (shown on the screens and the club's pages)."""
        old = self.badge_number(number)
        label = check_member_name(name)
        self._change(lambda: self.db.execute(
            "UPDATE badges SET name = ? WHERE number = ?", (label, number)))
        badge = self._badges[old.uid] = Badge(number, old.uid, label)
        return badge

    def remove_badge(self, number: int) -> Badge:
        old = self.badge_number(number)
        self._change(lambda: self.db.execute("DELETE FROM badges WHERE number = ?", (number,)))
        del self._badges[old.uid]
        return old

        # ----- export and import ---------------------------------------------------------

    def export_data(self) -> dict[str, Any]:
        packs = []
        for rec in self.packs():
            uids = self.uids_of(rec.number)
            packs.append({
                "number": rec.number, "type": rec.type, "name": rec.name,
                "cards": [{"uid": u, "card": rec.card_at(i).code, "copy": rec.copy_at(i)}
                          for i, u in enumerate(uids)],
            })
        badges = [{"uid": b.uid, "name": b.name} for b in self.badges()]
        return {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "packs": packs,
                "badges": badges}

    def export_file(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.export_data(), indent=1, ensure_ascii=False) + "\n",
                              encoding="utf-8")

    def import_data(self, data: object) -> list[PackRecord]:
        """Add the packs of an export to this registry, as new pack numbers.
        Everything is checked first: on any mistake (a bad file, a UID this
        registry or the file already has) nothing is added."""
        packs = _check_export(data)
        badges = _check_badges(data)
        seen: dict[str, str] = {}
        for i, b in enumerate(badges, 1):
            where = f"badge {i} of the file"
            if b["uid"] in self._by_uid or b["uid"] in self._badges:
                raise RegistryError(f"UID {b['uid']} ({where}) is already enrolled here; "
                                    "nothing was imported")
            if b["uid"] in seen:
                raise RegistryError(f"UID {b['uid']} appears twice in the file ({seen[b['uid']]} "
                                    f"and {where}); nothing was imported")
            seen[b["uid"]] = where
        for i, p in enumerate(packs, 1):
            for c in p["uids"]:
                where = f"pack {i} of the file"
                if c in self._badges:
                    raise RegistryError(f"UID {c} ({where}) is a member's badge here; "
                                        "nothing was imported")
                if c in self._by_uid:
                    e = self._by_uid[c]
                    raise RegistryError(f"UID {c} ({where}) is already enrolled here as "
                                        f"{e.card.code} of pack {e.pack}; nothing was imported")
                if c in seen:
                    raise RegistryError(f"UID {c} appears twice in the file ({seen[c]} and "
                                        f"{where}); nothing was imported")
                seen[c] = where
        added: list[int] = []

        def work() -> None:
            number = max(self._packs, default=0)
            for p in packs:
                number += 1
                self.db.execute("INSERT INTO packs (number, type, name) VALUES (?, ?, ?)",
                                (number, p["type"], p["name"]))
                self.db.executemany("INSERT INTO cards (uid, pack, position) VALUES (?, ?, ?)",
                                    [(u, number, pos) for pos, u in enumerate(p["uids"])])
                added.append(number)
            member = max((b.number for b in self._badges.values()), default=0)
            for b in badges:
                member += 1
                self.db.execute("INSERT INTO badges (number, uid, name) VALUES (?, ?, ?)",
                                (member, b["uid"], b["name"]))

        try:
            self._change(work)
        finally:
            self._reload()
        return [self.pack(n) for n in added]

    def _reload(self) -> None:
        try:
            self._load()
        except (sqlite3.Error, TypeError, ValueError, KeyError, IndexError) as exc:
            if isinstance(exc, RegistryError):
                raise
            raise RegistryDamaged(f"cannot read the card registry {self.path} ({exc}). "
                                  f"{RECOVERY}") from None

    def import_file(self, path: str | Path) -> list[PackRecord]:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RegistryError(f"cannot read {path}: {exc.strerror or exc}") from None
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise RegistryError(f"{path} is not a registry export (not JSON: {exc})") from None
        return self.import_data(data)


def _check_export(data: object) -> list[dict[str, Any]]:
    """The packs of an export, each as {type, name, uids}, or `RegistryError`."""
    if not isinstance(data, Mapping) or data.get("format") != EXPORT_FORMAT:
        raise RegistryError(f'not a registry export (needs "format": "{EXPORT_FORMAT}")')
    if data.get("version") != EXPORT_VERSION:
        raise RegistryError(f"registry export version {data.get('version')!r} is not "
                            f"supported (this version reads {EXPORT_VERSION})")
    raw = data.get("packs")
    if not isinstance(raw, list):
        raise RegistryError('"packs" must be a list')
    out = []
    for i, p in enumerate(raw, 1):
        if not isinstance(p, Mapping):
            raise RegistryError(f"pack {i} of the file is not an object")
        ptype = p.get("type")
        if ptype not in PACKS:
            raise RegistryError(f"pack {i} of the file has an unknown type {ptype!r}")
        pack = PACKS[str(ptype)]
        cards = p.get("cards")
        if not isinstance(cards, list) or len(cards) > pack.size:
            raise RegistryError(f"pack {i} of the file: \"cards\" must be a list of at most "
                                f"{pack.size} cards")
        uids = []
        for pos, c in enumerate(cards):
            if not isinstance(c, Mapping):
                raise RegistryError(f"pack {i}, card {pos + 1} of the file is not an object")
            if c.get("card") != pack.cards[pos].code:
                raise RegistryError(
                    f"pack {i}, card {pos + 1} of the file should be {pack.cards[pos].code} "
                    f"(the {ptype} order), not {c.get('card')!r}")
            uids.append(normalise_uid(c.get("uid")))
        name = p.get("name")
        out.append({"type": str(ptype), "name": str(name) if name else f"{ptype} (imported)",
                    "uids": uids})
    return out


def _check_badges(data: Any) -> list[dict[str, str]]:
    """The members' badges of an export (an export without any has none)."""
    raw = data.get("badges", [])
    if not isinstance(raw, list):
        raise RegistryError('"badges" must be a list')
    out = []
    for i, b in enumerate(raw, 1):
        if not isinstance(b, Mapping):
            raise RegistryError(f"badge {i} of the file is not an object")
        try:
            out.append({"uid": normalise_uid(b.get("uid")),
                        "name": check_member_name(b.get("name"))})
        except RegistryError as exc:
            raise RegistryError(f"badge {i} of the file: {exc}") from None
    return out


def inspect_registry(path: Path) -> tuple[str | None, int]:
    """(registry id, generation) of a registry file, read without changing it."""
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise RegistryDamaged(f"the card registry {path} cannot be read ({exc}). "
                              f"{RECOVERY}") from None
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "meta" not in tables:
            return None, 0
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        reg_id = meta.get("id")
        return (str(reg_id) if reg_id is not None else None), int(meta.get("generation", 0))
    except (sqlite3.Error, TypeError, ValueError) as exc:
        raise RegistryDamaged(f"the card registry {path} cannot be read ({exc}). "
                              f"{RECOVERY}") from None
    finally:
        db.close()


def pack_types() -> Iterable[str]:
    return PACKS.keys()
