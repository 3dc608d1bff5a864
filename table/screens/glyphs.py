"""Text drawn glyph by glyph from a cache: the pixels FreeType draws for a
whole string, without asking FreeType to draw it.

Pillow draws a string in mode "1" (`ImageDraw.text`, `fontmode = "1"`) by
laying it out (Raqm/HarfBuzz, or its basic layout), then, for each glyph,
rendering the glyph's hinted 1-bit bitmap (the same bitmap wherever the
glyph lands: the pen's position is rounded to a whole pixel first,
`PIXEL(pen + x_offset)`) and OR-ing it into the mask at that pixel plus the
glyph's bearing. So a string is the union of its characters' bitmaps, each
at the rounded pen position, the pen moving by each character's advance plus
the kerning of each pair (26.6 fixed point, as Pillow adds them up).

That holds when each character is one glyph whose advance depends only on
its neighbour (pair kerning). It does not hold for combining marks (placed
by offsets), ligatures, other scripts' shaping or right-to-left text: a text
with any character outside `COMPOSABLE` is drawn by FreeType, and so is a
text whose modelled advance differs from the one FreeType lays out (a check
that costs one layout, no drawing). The tests compare the composed pixels
with FreeType's for every text the screens draw in whole sessions of every
game and language, and for random strings over the screens' alphabets.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

#: (dx, dy, mask): the lit pixels of a text and where their box's corner
#: lies relative to the point the text is drawn at (its top left).
Rendered = tuple[int, int, Image.Image]


def freetype_text(f: ImageFont.FreeTypeFont, text: str) -> Rendered | None:
    """`text` drawn by FreeType as `ImageDraw.text` draws it in mode "1";
    None when nothing is lit (spaces, an empty string)."""
    size = int(f.size)
    # FreeType renders the same glyph pixels wherever an integer origin lies:
    # draw on a margin wide enough for any bearing, then keep the lit box.
    margin = 2 * size
    width = int(f.getlength(text)) + 2 * margin
    canvas = Image.new("1", (width, 4 * size + 2 * margin), 0)
    draw = ImageDraw.Draw(canvas)
    draw.fontmode = "1"
    draw.text((margin, margin), text, font=f, fill=255)
    box = canvas.getbbox()
    if box is None:
        return None
    return box[0] - margin, box[1] - margin, canvas.crop(box)


def _composable(ch: str) -> bool:
    """A character that is always one glyph, laid out left to right, placed
    by its advance and pair kerning only: Latin letters (with their
    precomposed diacritics: ă â î ș ț ő ű …), digits, punctuation and signs
    of Latin-1, Latin Extended-A/B and General Punctuation (… – — „ ” ·)."""
    o = ord(ch)
    if not (0x20 <= o < 0x7F or 0xA0 <= o < 0x250 or 0x2010 <= o < 0x2050):
        return False
    category = unicodedata.category(ch)
    # no marks, controls, format characters or invisible joiners
    return category[0] in "LNPS" or ch in " \u00a0"


COMPOSABLE = frozenset(ch for ch in map(chr, range(0x20, 0x2050)) if _composable(ch))


#: The ligatures the bundled faces form from composable characters (their
#: GSUB "liga" feature; a test reads the fonts to keep this complete), the
#: longest first as HarfBuzz picks them: each is composed as one glyph.
LIGATURES = ("ffi", "ffl", "ff", "fi", "fl")


def units(text: str) -> list[str]:
    """`text` cut into the glyphs FreeType lays out: ligatures and single
    characters."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] == "f":
            for lig in LIGATURES:
                if text.startswith(lig, i):
                    out.append(lig)
                    i += len(lig)
                    break
            else:
                out.append("f")
                i += 1
        else:
            out.append(text[i])
            i += 1
    return out


#: Glyphs a text may teach the cache while it is drawn (see `Glyphs.compose`):
#: none, so that a frame never costs more than FreeType drawing its new
#: texts whole; the table learns them in idle time (`learn_pending`).
LEARN = 0

#: Kerning pairs laid out in one piece of idle work (about what one glyph costs).
PAIRS_PER_PIECE = 16


class Glyphs:
    """The glyph cache of one font (face and size): each character's lit
    pixels, bearings and advance, each pair's kerning, drawn or laid out by
    FreeType once."""

    def __init__(self, f: ImageFont.FreeTypeFont) -> None:
        self.font = f
        self._glyph: dict[str, Glyph] = {}
        self._advance: dict[str, int] = {}
        self._kern: dict[tuple[str, str], int] = {}
        self._under: tuple[int, int, Image.Image, int] | None = None
        self._drawn: dict[str, Rendered | None] = {}
        #: glyphs met in texts drawn whole, to learn in idle time (in order)
        self.pending: dict[str, None] = {}
        #: pairs of glyphs whose kerning to lay out in idle time (in order)
        self.pending_pairs: dict[tuple[str, str], None] = {}

    def length(self, text: str) -> int:
        """FreeType's layout advance of `text` in 26.6 fixed point."""
        return round(self.font.getlength(text, mode="1") * 64)

    def advance(self, ch: str) -> int:
        a = self._advance.get(ch)
        if a is None:
            a = self._advance[ch] = self.length(ch)
        return a

    def kern(self, a: str, b: str) -> int:
        k = self._kern.get((a, b))
        if k is None:
            k = self._kern[a, b] = self.length(a + b) - self.advance(a) - self.advance(b)
        return k

    def glyph(self, ch: str) -> Glyph:
        g = self._glyph.get(ch)
        if g is None:
            self._drawn = {}
            g = self._glyph[ch] = self._measure(ch)
            if g.composable and not self._checks(ch):
                g = self._glyph[ch] = Glyph(0, 0, None, 0, 0, 0, 0, composable=False)
            self._drawn = {}
        return g

    def queue(self, units: Iterable[str], pairs: Iterable[tuple[str, str]] = ()) -> int:
        """Queue glyphs (characters or ligatures) to learn, and pairs of them
        whose kerning to lay out, in idle time; returns how many of either
        were not known yet."""
        new = [u for u in units if u not in self._glyph]
        self.pending.update(dict.fromkeys(new))
        kerns = [p for p in pairs if p not in self._kern]
        self.pending_pairs.update(dict.fromkeys(kerns))
        return len(new) + len(kerns)

    def knows_glyph(self, unit: str) -> bool:
        """Whether the glyph of `unit` (a character or ligature) is learned."""
        return unit in self._glyph

    def knows_pair(self, a: str, b: str) -> bool:
        """Whether the kerning of the pair `a`, `b` is laid out."""
        return (a, b) in self._kern

    @property
    def waiting(self) -> bool:
        """Whether glyphs or pairs wait to be learned."""
        return bool(self.pending or self.pending_pairs)

    def learn_pending(self, n: int = 1) -> bool:
        """Learn up to `n` pieces waiting: a piece is a glyph of `pending`
        (three short texts drawn by FreeType), or when none waits,
        `PAIRS_PER_PIECE` pairs' kerning (each one layout, no drawing);
        whether more wait. (Taking a piece is safe against another thread
        queueing or learning at the same time.)"""
        while self.pending and n > 0:
            try:
                u = next(iter(self.pending))
            except (StopIteration, RuntimeError):   # emptied or changed meanwhile
                break
            try:
                if u not in self._glyph:
                    self.glyph(u)
                    n -= 1
            finally:
                # taken off only once learned: whoever sees `pending` empty
                # (a test, another thread) finds every glyph that waited learned
                self.pending.pop(u, None)
        while self.pending_pairs and n > 0:
            for _ in range(PAIRS_PER_PIECE):
                try:
                    (a, b), _ = self.pending_pairs.popitem()
                except KeyError:
                    break
                self.kern(a, b)
            n -= 1
        return self.waiting

    def _draw(self, text: str) -> Rendered | None:
        """FreeType's drawing of `text`, kept while a glyph is measured."""
        if text not in self._drawn:
            self._drawn[text] = freetype_text(self.font, text)
        return self._drawn[text]

    def _checks(self, ch: str) -> bool:
        """Whether the glyph composes, alone and in the probes it was
        measured by, to what FreeType drew (those drawings are cached)."""
        for text in (ch, "   " + ch, ch + "   _"):
            want = self._draw(text)
            got = self.compose(text, learn=len(text))
            if (got is None or want is None) and got is not want:
                return False
            if got is not None and want is not None and (
                    got[:2] != want[:2] or got[2].tobytes() != want[2].tobytes()
                    or got[2].size != want[2].size):
                return False
        return True

    def _measure(self, ch: str) -> Glyph:
        """A character drawn by FreeType alone, after three spaces (where no
        bearing reaches the text's left edge) and before three spaces and an
        underscore (a glyph wholly below the baseline, which Pillow places
        where it belongs whatever its neighbours), to learn where its lit
        pixels lie from the pen and from the top (`left`, `top`), and the
        edges Pillow aligns a text by: the glyph's outline box (`box_left`,
        `box_top`: what it measures) and its bitmap box (`ink_left`,
        `ink_top`: where it draws), counted only beyond the pen and the
        baseline."""
        f = self.font
        alone = self._draw(ch)
        x, y, _, _ = f.getbbox(ch, mode="1")
        box_left, box_top = min(0, int(x)), f.getmetrics()[0] - int(y)
        if alone is None:
            return Glyph(0, 0, None, box_left, 0, box_top, 0)
        after = self._draw("   " + ch)
        under = self._underscore()
        before = self._draw(ch + "   _")
        if after is None or under is None or under[3] or before is None:
            # clipped by Pillow in context (a collapsed outline box): drawn whole
            return Glyph(0, 0, None, 0, 0, 0, 0, composable=False)
        pen = self.length("   " + ch) - self.advance(ch)
        left = after[0] - (pen + 32) // 64
        # alone, Pillow shifts the glyph by box_left - ink_left across ...
        ink_left = min(0, left + box_left - alone[0])
        # ... and up by box_top - ink_top, as it does the underscore after it
        rise = under[1] - (before[1] + before[2].height - under[2].height)
        return Glyph(left, alone[1] + rise, alone[2], box_left, ink_left,
                     box_top, box_top - rise)

    def _underscore(self) -> tuple[int, int, Image.Image, int] | None:
        """The underscore drawn alone and its outline box's top (0 when it
        lies wholly below the baseline, as it must for `_measure`)."""
        if self._under is None:
            under = freetype_text(self.font, "_")
            if under is None:
                return None
            top = self.font.getmetrics()[0] - int(self.font.getbbox("_", mode="1")[1])
            self._under = (*under, top)
        return self._under

    def compose(self, text: str, length: int | None = None, learn: int = LEARN) -> Rendered | None:
        """`text` composed from its glyphs: FreeType's pixels (see the module
        notes); drawn by FreeType instead when the model does not apply.

        `length`: FreeType's advance of the whole text in 26.6, when the
        caller has it (else it is laid out here). Learning a glyph costs
        about what drawing a short text does, so a text with more than
        `learn` glyphs not yet learned is drawn by FreeType whole, and its
        new glyphs wait in `pending` for `learn_pending` (idle time)."""
        if not COMPOSABLE.issuperset(text):
            return freetype_text(self.font, text)
        new = [u for u in dict.fromkeys(units(text)) if u not in self._glyph]
        if len(new) > learn:
            self.pending.update(dict.fromkeys(new))
            return freetype_text(self.font, text)
        pen = box_top = ink_top = box_min = ink_min = 0
        x0 = y0 = 1 << 30
        x1 = y1 = -x0
        placed: list[tuple[int, Glyph]] = []
        glyph, advance, kern = self._glyph, self._advance, self._kern
        prev = ""
        for u in units(text):
            g = glyph.get(u) or self.glyph(u)
            if prev:
                pen += (advance.get(prev) or self.advance(prev)) + (
                    kern[prev, u] if (prev, u) in kern else self.kern(prev, u))
            prev = u
            px = (pen + 32) // 64        # Pillow's PIXEL(): round half up
            if not g.composable or px < 0:
                return freetype_text(self.font, text)
            box_min = min(box_min, px + g.box_left)
            ink_min = min(ink_min, px + g.ink_left)
            box_top = max(box_top, g.box_top)
            ink_top = max(ink_top, g.ink_top)
            if g.rows:
                left = px + g.left
                x0, x1 = min(x0, left), max(x1, left + g.width)
                y0, y1 = min(y0, g.top), max(y1, g.top + g.height)
                placed.append((left, g))
        if prev:
            pen += advance.get(prev) or self.advance(prev)
        if pen != (self.length(text) if length is None else length):
            return freetype_text(self.font, text)     # laid out otherwise
        if not placed:
            return None
        shift = box_min - ink_min
        # OR the glyphs' rows as integers, leftmost pixel in the top bit, and
        # pack them as a mode "1" image's rows (whole bytes, MSB first)
        stride = (x1 - x0 + 7) // 8
        end = 8 * stride
        rows = [0] * (y1 - y0)
        for left, g in placed:
            at = end - (left - x0) - g.width
            r = g.top - y0
            for bits in g.rows:
                rows[r] |= bits << at
                r += 1
        data = b"".join(row.to_bytes(stride, "big") for row in rows)
        return x0 + shift, y0 - box_top + ink_top, Image.frombytes("1", (x1 - x0, y1 - y0), data)


@dataclass(frozen=True)
class Glyph:
    """One character's (or ligature's) lit pixels (`mask`, None for a blank)
    with their corner `left` pixels right of the pen and `top` below the
    text's top; the left edges (never right of the pen) and top edges (never
    below the baseline) of its outline box and of its bitmap box, as Pillow
    lines a text up by them; `rows`: the mask's rows as integers, the
    leftmost pixel in the top bit."""

    left: int
    top: int
    mask: Image.Image | None
    box_left: int
    ink_left: int
    box_top: int
    ink_top: int
    composable: bool = True
    rows: tuple[int, ...] = field(init=False)
    width: int = field(init=False)
    height: int = field(init=False)

    def __post_init__(self) -> None:
        m = self.mask
        object.__setattr__(self, "rows", () if m is None else _rows(m))
        object.__setattr__(self, "width", 0 if m is None else m.width)
        object.__setattr__(self, "height", 0 if m is None else m.height)


def _rows(mask: Image.Image) -> tuple[int, ...]:
    stride = (mask.width + 7) // 8
    data = mask.tobytes()
    pad = 8 * stride - mask.width
    return tuple(int.from_bytes(data[i:i + stride], "big") >> pad
                 for i in range(0, len(data), stride))


_CACHES: list[Glyphs] = []


@lru_cache(maxsize=16)
def glyphs(f: ImageFont.FreeTypeFont) -> Glyphs:
    """The glyph cache of a font (one per font object)."""
    cache = Glyphs(f)
    _CACHES.append(cache)
    del _CACHES[:-16]
    return cache


def learn_pending(n: int = 1) -> bool:
    """Learn up to `n` pieces waiting in the fonts' caches (glyphs first, in
    every font, then kerning pairs); whether more wait."""
    caches = list(_CACHES)
    for cache in caches:
        while n > 0 and cache.pending:
            cache.learn_pending(1)
            n -= 1
    for cache in caches:
        while n > 0 and cache.waiting:
            cache.learn_pending(1)
            n -= 1
    return any(cache.waiting for cache in caches)
