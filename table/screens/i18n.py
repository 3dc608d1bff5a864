"""The screens' texts in English, Romanian and Hungarian through gettext.

The catalogs are the `.po` files under `table/screens/locale/<lang>/LC_MESSAGES/`
(English is the source language and needs none). They are compiled at run
time by `compile_po`, a small pure-Python `msgfmt`, into the standard `.mo`
format and loaded with `gettext.GNUTranslations`, so no build step and no
generated file is needed; `cardtable` never writes into its package.
"""

from __future__ import annotations

import ast
import gettext
import io
import struct
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

DOMAIN = "cardtable"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = ("en", "ro", "hu")

Translate = Callable[[str], str]


class PoError(ValueError):
    """A `.po` file this compiler cannot read; the message names the line."""


def parse_po(text: str, name: str = "<po>") -> dict[str, str]:
    """The translations of a `.po` file: {msgid: msgstr}. Fuzzy entries and
    untranslated ones (empty msgstr) are left out, as msgfmt does."""
    out: dict[str, str] = {}
    msgid: list[str] | None = None
    msgstr: list[str] | None = None
    current: list[str] | None = None
    fuzzy = False
    entry_fuzzy = False

    def finish() -> None:
        nonlocal msgid, msgstr, entry_fuzzy
        if msgid is not None and msgstr is not None:
            key, value = "".join(msgid), "".join(msgstr)
            if value and not entry_fuzzy:
                out[key] = value
        msgid = msgstr = None
        entry_fuzzy = False

    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            continue
        if line.startswith("msgid "):
            finish()
            entry_fuzzy, fuzzy = fuzzy, False
            msgid = [_string(line[6:], name, lineno)]
            current = msgid
        elif line.startswith("msgstr "):
            if msgid is None:
                raise PoError(f"{name}:{lineno}: msgstr without msgid")
            msgstr = [_string(line[7:], name, lineno)]
            current = msgstr
        elif line.startswith('"'):
            if current is None:
                raise PoError(f"{name}:{lineno}: a string outside an entry")
            current.append(_string(line, name, lineno))
        else:
            raise PoError(f"{name}:{lineno}: cannot read {line[:30]!r} "
                          "(plural forms and contexts are not used here)")
    finish()
    return out


def _string(token: str, name: str, lineno: int) -> str:
    token = token.strip()
    if len(token) < 2 or not token.startswith('"') or not token.endswith('"'):
        raise PoError(f"{name}:{lineno}: expected a quoted string, got {token[:30]!r}")
    try:
        value = ast.literal_eval(token)
    except (ValueError, SyntaxError):
        raise PoError(f"{name}:{lineno}: bad string {token[:30]!r}") from None
    if not isinstance(value, str):
        raise PoError(f"{name}:{lineno}: bad string {token[:30]!r}")
    return value


def compile_po(catalog: dict[str, str]) -> bytes:
    """The GNU `.mo` bytes of a catalog (little-endian, no hash table)."""
    if "" not in catalog:
        catalog = {"": "Content-Type: text/plain; charset=UTF-8\n", **catalog}
    keys = sorted(catalog)
    ids = [k.encode("utf-8") for k in keys]
    strs = [catalog[k].encode("utf-8") for k in keys]
    n = len(keys)
    header = 7 * 4
    orig_table = header
    trans_table = orig_table + 8 * n
    data_start = trans_table + 8 * n
    offsets_o: list[tuple[int, int]] = []
    offsets_t: list[tuple[int, int]] = []
    blob = io.BytesIO()
    for s in ids:
        offsets_o.append((len(s), data_start + blob.tell()))
        blob.write(s + b"\0")
    for s in strs:
        offsets_t.append((len(s), data_start + blob.tell()))
        blob.write(s + b"\0")
    out = io.BytesIO()
    out.write(struct.pack("<7I", 0x950412DE, 0, n, orig_table, trans_table, 0, data_start))
    for length, off in offsets_o:
        out.write(struct.pack("<2I", length, off))
    for length, off in offsets_t:
        out.write(struct.pack("<2I", length, off))
    out.write(blob.getvalue())
    return out.getvalue()


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@lru_cache(maxsize=8)
def translations(lang: str) -> gettext.NullTranslations:
    """The gettext translations of `lang` (English: the texts as written)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: {', '.join(LANGUAGES)}")
    if lang == "en":
        return gettext.NullTranslations()
    path = po_path(lang)
    catalog = parse_po(path.read_text(encoding="utf-8"), str(path))
    return gettext.GNUTranslations(io.BytesIO(compile_po(catalog)))


def translator(lang: str) -> Translate:
    """`_` for `lang`: `translator("ro")("Trick {n}")` -> "Mâna {n}"."""
    return translations(lang).gettext
