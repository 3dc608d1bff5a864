"""Who may do what on the club's broker: the users (the hub and one per
table), their passwords kept hashed, the client id each user must connect
with, and the topics each may write and read.

The password file is Mosquitto's own format (`user:$7$iterations$salt$hash`,
PBKDF2-SHA512), so the file `cardtable hub add-table` writes serves the
embedded broker and Mosquitto alike. The rules are those of the ACL in
docs/club.md:

* the hub (user `hub`, client id `cardtable-hub`) reads and writes every
  club topic; it is the only one that writes a table's mark;
* a table (user = its name, client id `cardtable-table-<name>`) writes only
  its own journal and status and reads only its own mark;
* nobody else gets in.

Stdlib only.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from table.club.config import TABLE_NAME

#: The hub's password file, by default (beside the hub's database).
USERS_FILE = "hub.passwd"
HUB_USER = "hub"
HUB_CLIENT_ID = "cardtable-hub"
PREFIX = "cardtable/table"
#: PBKDF2 rounds of a new hash: about 10 ms on a Raspberry Pi 4 core, once per connection.
ITERATIONS = 10_000
SALT_BYTES = 12


class CredentialError(ValueError):
    """A password file or a user name that cannot be used."""


def client_id_of(user: str) -> str:
    """The only client id `user` may connect with."""
    return HUB_CLIENT_ID if user == HUB_USER else f"cardtable-table-{user}"


def new_secret() -> str:
    """A new password: 24 characters of letters, digits, - and _ (144 bits)."""
    return secrets.token_urlsafe(18)


def hash_password(secret: str, *, iterations: int = ITERATIONS,
                  salt: bytes | None = None) -> str:
    """`$7$...`: Mosquitto's PBKDF2-SHA512 form of `secret`."""
    salt = os.urandom(SALT_BYTES) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha512", secret.encode("utf-8"), salt, iterations)
    return f"$7${iterations}${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def verify_password(secret: str, hashed: str) -> bool:
    """Whether `secret` is the password of `hashed` (`$7$` only; anything
    else never matches)."""
    parts = hashed.split("$")
    if len(parts) != 5 or parts[1] != "7":
        return False
    try:
        iterations = int(parts[2])
        salt = base64.b64decode(parts[3], validate=True)
        want = base64.b64decode(parts[4], validate=True)
    except ValueError:
        return False
    if not 1 <= iterations <= 10_000_000:
        return False
    got = hashlib.pbkdf2_hmac("sha512", secret.encode("utf-8"), salt, iterations)
    return hmac.compare_digest(got, want)


def check_user(name: str) -> None:
    """A table's user name is its table name: letters, digits, - and _."""
    if name == HUB_USER:
        raise CredentialError(f"{HUB_USER!r} is the hub's own user: give the table "
                              "another name")
    if not TABLE_NAME.match(name):
        raise CredentialError(f"a table's name is 1..40 letters, digits, - or _, not {name!r}")


# ----- the ACL --------------------------------------------------------------------------------


def _own(user: str, topic: str, *leaves: str) -> bool:
    parts = topic.split("/")
    return len(parts) == 4 and parts[0] + "/" + parts[1] == PREFIX and parts[2] == user \
        and parts[3] in leaves


def may_publish(user: str, topic: str) -> bool:
    """The hub writes every club topic; a table its own journal and status."""
    if user == HUB_USER:
        return topic.startswith("cardtable/")
    return _own(user, topic, "journal", "status")


def may_subscribe(user: str, topic_filter: str) -> bool:
    """The hub reads every club topic; a table only its own mark (no wildcards)."""
    if user == HUB_USER:
        return topic_filter.startswith("cardtable/") or topic_filter == "cardtable/#"
    return _own(user, topic_filter, "ack")


def may_receive(user: str, topic: str) -> bool:
    """What a client is sent: the hub everything of the club, a table its mark."""
    if user == HUB_USER:
        return topic.startswith("cardtable/")
    return _own(user, topic, "ack")


# ----- the password file ------------------------------------------------------------------------


@dataclass
class PasswordFile:
    """`user:$7$...` lines (Mosquitto's password file). Read again whenever
    it changes, so a table added while the hub runs can connect at once."""

    path: Path

    def __post_init__(self) -> None:
        self.path = Path(self.path)
        self._stamp: tuple[int, int] | None = None
        self._users: dict[str, str] = {}

    def users(self) -> dict[str, str]:
        """user -> hash, as the file says now ({} when there is no file)."""
        try:
            st = self.path.stat()
        except FileNotFoundError:
            self._stamp, self._users = None, {}
            return {}
        except OSError as exc:
            raise CredentialError(f"cannot read {self.path}: {exc.strerror}") from None
        stamp = (st.st_mtime_ns, st.st_size)
        if stamp != self._stamp:
            self._users = self._read()
            self._stamp = stamp
        return dict(self._users)

    def _read(self) -> dict[str, str]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CredentialError(f"cannot read {self.path}: {exc}") from None
        users: dict[str, str] = {}
        for number, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            user, sep, hashed = line.partition(":")
            if not sep or not user or not hashed:
                raise CredentialError(f"{self.path}, line {number}: not user:hash")
            users[user] = hashed
        return users

    def add(self, user: str, secret: str | None = None) -> str:
        """Give `user` a new password (any old one stops working); the
        password, in clear, for the one who asked (it is never kept)."""
        secret = new_secret() if secret is None else secret
        users = self.users()
        users[user] = hash_password(secret)
        self._write(users)
        return secret

    def remove(self, user: str) -> bool:
        """Take `user`'s credential away; False when it had none."""
        users = self.users()
        if users.pop(user, None) is None:
            return False
        self._write(users)
        return True

    def _write(self, users: dict[str, str]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".new")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("".join(f"{u}:{h}\n" for u, h in sorted(users.items())))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        self._stamp = None
