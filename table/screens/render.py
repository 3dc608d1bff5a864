"""Pure functions from a view model (`table.screens.view`) to a 1-bit frame.

`render(view, size)` gives a mode "1" image of `size` (128×64, 128×32 or
128×128; other sizes work with the nearest layout). Nothing here reads the
clock, the controller or the disk except the bundled fonts (DejaVu Sans and
DejaVu Sans Condensed, which have every Romanian and Hungarian letter).

Legibility at a few pixels a letter: the small screens use DejaVu Sans at 8
and 9 px, whose O is round where the condensed face's O at 10 px looks like
a D ("OK" read "DK"); and every digit zero gets a slash across its hole, so
a score of 0 is never taken for the rank O (Over) of the German pack, nor
for a D.
"""

from __future__ import annotations

import copy
import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from table.screens.glyphs import COMPOSABLE, LIGATURES, glyphs, learn_pending
from table.screens.glyphs import units as glyph_units
from table.screens.suits import SIGN_SIZE, suit_sign
from table.screens.view import (
    CardFace,
    ChoiceView,
    EnrollView,
    ErrorView,
    Header,
    MenuView,
    PlayView,
    ProgressView,
    SeatCell,
    Sign,
    TextView,
    View,
)

FONTS = Path(__file__).parent / "fonts"
#: The faces: "sans" for the small screens, "condensed" for the tall one.
FACES: dict[str, str] = {"sans": "DejaVuSans.ttf", "condensed": "DejaVuSansCondensed.ttf"}
FONT_PATH = FONTS / FACES["condensed"]
SIZES: tuple[tuple[int, int], ...] = ((128, 64), (128, 32), (128, 128))


@dataclass(frozen=True)
class Layout:
    """Font face and size, line pitch and suit-sign scale for a screen height."""

    font_size: int
    pitch: int
    scale: int
    lines: int
    face: str = "sans"

    @classmethod
    def for_size(cls, size: tuple[int, int]) -> Layout:
        h = size[1]
        if h < 48:
            return cls(8, 11, 1, max(1, h // 11))
        if h < 96:
            return cls(9, 12, 1, h // 12)
        return cls(14, 16, 2, h // 16, "condensed")

    @property
    def compact(self) -> bool:
        return self.lines <= 3


@lru_cache(maxsize=8)
def font(size: int, face: str = "sans") -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / FACES[face]), size)


@lru_cache(maxsize=4096)
def text_width(size: int, text: str, face: str = "sans") -> int:
    """Pixels `text` takes in the font at `size` (cached: screens repeat their texts)."""
    return int(text_length(size, text, face) + 0.5)


@lru_cache(maxsize=4096)
def text_length(size: int, text: str, face: str = "sans") -> float:
    """FreeType's advance of `text` in the font at `size`, unrounded (cached)."""
    return float(font(size, face).getlength(text))


#: Rendered texts kept for reuse (a screen redraws the same few dozen texts).
TEXT_CACHE_SIZE = 1024


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def rendered_text(size: int, text: str, face: str = "sans"
                  ) -> tuple[int, int, Image.Image] | None:
    """`text` drawn once in the font at `size`, as FreeType draws it for a
    mode "1" image: (dx, dy, mask), where `mask` holds exactly the lit pixels
    and (dx, dy) is where its corner goes relative to the point the text is
    drawn at (its top left, as `ImageDraw.text` takes it); None when nothing
    is lit (spaces, an empty string). Pasting the mask with `ImageDraw.bitmap`
    gives the same pixels as drawing the text there, without FreeType.

    A text never drawn before is composed from its glyphs, each drawn by
    FreeType once (`table.screens.glyphs`: the very pixels FreeType gives
    the whole string; a text the glyph model does not cover, FreeType draws
    whole)."""
    f = font(size, face)
    # with Raqm the layout does not depend on the mode: reuse the cached one
    length = (round(text_length(size, text, face) * 64)
              if f.layout_engine == ImageFont.Layout.RAQM else None)
    return glyphs(f).compose(text, length)


def learn_glyphs(n: int = 1) -> bool:
    """Learn up to `n` glyphs that texts drawn whole met (for idle time: each
    costs about one short text drawn by FreeType); whether more wait."""
    return learn_pending(n)


def screen_fonts(size: tuple[int, int]) -> tuple[Layout, ...]:
    """The layouts (font face and size) the screens of `size` draw text
    with: the screen's own and the error screen's large one for its rule."""
    layout = Layout.for_size(size)
    return layout, _rule_layout(layout)


def prepare_glyphs(size: tuple[int, int], texts: Iterable[str],
                   chunk: int = 16) -> Iterator[None]:
    """Queue for idle time (`learn_glyphs`), in every font the screens of
    `size` use, the glyphs of `texts` (and the ligatures) and the kerning of
    every pair of neighbours in them, so that a text first shown later, such
    as a refusal's sentence, is composed from what is cached instead of laid
    out and drawn by FreeType; the fonts' slashed zeros are made too.

    `texts` are texts as shown or templates whose `{name}` holes other texts
    fill: a hole's neighbours are paired with the digits and with the first
    and last characters of every text. A generator: each step is one piece
    of idle work (a slashed zero, or `chunk` texts read or queued), about
    what learning one glyph costs."""
    layouts = screen_fonts(size)
    caches = [glyphs(font(layout.font_size, layout.face)) for layout in layouts]
    for layout in layouts:
        zero_slash(layout.font_size, layout.face)
        yield
    pieces: list[list[str]] = []
    fills = set("0123456789")
    for i, text in enumerate(texts, 1):
        parts = _HOLE.split(text)
        pieces.append(parts)
        fills.update(c for part in parts if part for c in (part[0], part[-1]))
        if i % chunk == 0:
            yield
    around = sorted(c for c in fills if c in COMPOSABLE)
    for cache in caches:
        cache.queue(LIGATURES)
    for i, parts in enumerate(pieces, 1):
        units: list[str] = []
        pairs: list[tuple[str, str]] = []
        for k, part in enumerate(parts):
            us = [u for u in glyph_units(part) if COMPOSABLE.issuperset(u)]
            if not us:
                continue
            units.extend(us)
            pairs.extend(itertools.pairwise(us))
            if k:
                pairs.extend((f, us[0]) for f in around)
            if k < len(parts) - 1:
                pairs.extend((us[-1], f) for f in around)
        for cache in caches:
            cache.queue(units, pairs)
        if i % chunk == 0:
            yield


#: A hole in a template ("{seat}"), which another text fills.
_HOLE = re.compile(r"\{[^{}]*\}")


@lru_cache(maxsize=8)
def zero_slash(size: int, face: str = "sans") -> tuple[tuple[int, int], ...]:
    """The pixels, relative to where a "0" is drawn, of a stroke from the top
    right to the bottom left of the zero's hole: the slashed zero that tells
    the digit from the letters O and D."""
    f = font(size, face)
    w, h = int(f.getlength("0")) + 4, size * 2
    img = Image.new("1", (w, h), 0)
    draw = ImageDraw.Draw(img)
    draw.fontmode = "1"
    draw.text((0, 0), "0", font=f, fill=1)
    # the hole: dark pixels not reachable from the border
    px = img.load()
    assert px is not None  # an image made in memory is loaded
    outside = {(x, y) for x in range(w) for y in (0, h - 1)} | {
        (x, y) for y in range(h) for x in (0, w - 1)}
    todo = [p for p in outside if not px[p]]
    seen = set(todo)
    while todo:
        x, y = todo.pop()
        for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= q[0] < w and 0 <= q[1] < h and q not in seen and not px[q]:
                seen.add(q)
                todo.append(q)
    hole = [(x, y) for x in range(w) for y in range(h) if not px[x, y] and (x, y) not in seen]
    if not hole:
        return ()
    x0, x1 = min(x for x, _ in hole), max(x for x, _ in hole)
    y0, y1 = min(y for _, y in hole), max(y for _, y in hole)
    stroke = Image.new("1", (w, h), 0)
    ImageDraw.Draw(stroke).line((x1, y0 + 1, x0, y1 - 1), fill=1)
    sp = stroke.load()
    assert sp is not None  # an image made in memory is loaded
    return tuple((x, y) for x, y in hole if sp[x, y])


class Canvas:
    """A frame being drawn: text, suit signs, cards, inverse bars."""

    def __init__(self, size: tuple[int, int], inverse: bool = False) -> None:
        self.size = size
        self.layout = Layout.for_size(size)
        self.font = font(self.layout.font_size, self.layout.face)
        self._slash = zero_slash(self.layout.font_size, self.layout.face)
        # lit pixels are 255, as in an image read back from a PNG
        self.ink = 0 if inverse else 255
        self.paper = 255 - self.ink
        self.image = Image.new("1", size, self.paper)
        self.draw = ImageDraw.Draw(self.image)
        self.draw.fontmode = "1"

    @property
    def width(self) -> int:
        return self.size[0]

    def text_width(self, text: str) -> int:
        return text_width(self.layout.font_size, text, self.layout.face)

    def text(self, x: int, y: int, text: str, ink: int | None = None) -> int:
        """Draw `text` with its top at `y` (every zero slashed); returns the x after it.

        The glyphs come from `rendered_text`, drawn once per text, size and
        face and pasted from then on (the same pixels as drawing the text)."""
        fill = self.ink if ink is None else ink
        size, face = self.layout.font_size, self.layout.face
        glyphs = rendered_text(size, text, face)
        if glyphs is not None:
            dx, dy, mask = glyphs
            self.draw.bitmap((x + dx, y + dy), mask, fill=fill)
        if "0" in text and self._slash:
            zero = text_length(size, "0", face)
            for i, ch in enumerate(text):
                if ch == "0":
                    left = round(x + text_length(size, text[:i + 1], face) - zero)
                    self.draw.point([(left + dx, y + dy) for dx, dy in self._slash], fill=fill)
        return x + self.text_width(text)

    def sign(self, x: int, y: int, suit: str, family: str, ink: int | None = None) -> int:
        """Draw a suit sign, vertically centred on a text line at `y`."""
        s = self.layout.scale
        img = suit_sign(suit, family, s)
        top = y + max(0, (self.layout.pitch - SIGN_SIZE * s) // 2)
        self.draw.bitmap((x, top), img, fill=self.ink if ink is None else ink)
        return x + SIGN_SIZE * s + 1

    def card(self, x: int, y: int, face: CardFace, ink: int | None = None) -> int:
        x = self.text(x, y, face.rank, ink)
        return self.sign(x + 1, y, face.suit, face.family, ink)

    def card_width(self, face: CardFace) -> int:
        return self.text_width(face.rank) + 2 + SIGN_SIZE * self.layout.scale

    def bar(self, y: int, height: int | None = None) -> None:
        """An inverse bar a line high at `y` (for a cursor or a banner)."""
        h = self.layout.pitch if height is None else height
        self.draw.rectangle((0, y, self.width - 1, y + h - 1), fill=self.ink)

    def fit(self, text: str, width: int) -> str:
        """`text` cut (with "…") to fit `width` pixels."""
        if self.text_width(text) <= width:
            return text
        while text and self.text_width(text + "…") > width:
            text = text[:-1]
        return text + "…"

    def wrap(self, text: str, width: int | None = None) -> list[str]:
        """Greedy word wrap to `width` pixels (the screen's width by default)."""
        width = self.width - 2 if width is None else width
        lines: list[str] = []
        for para in text.split("\n"):
            line = ""
            for word in para.split():
                trial = f"{line} {word}" if line else word
                if self.text_width(trial) <= width:
                    line = trial
                    continue
                if line:
                    lines.append(line)
                while self.text_width(word) > width:
                    cut = len(word)
                    while cut > 1 and self.text_width(word[:cut]) > width:
                        cut -= 1
                    lines.append(word[:cut])
                    word = word[cut:]
                line = word
            lines.append(line)
        return lines

    def header(self, h: Header) -> int:
        """The title line with the trump sign and detail; returns the next y."""
        right = self.width
        if h.detail:
            right -= self.text_width(h.detail) + 1
            self.text(right, 0, h.detail)
        if h.trump:
            right -= SIGN_SIZE * self.layout.scale + 3
            self.sign(right, 0, h.trump, h.family)
        self.text(0, 0, self.fit(h.title, right - 3))
        y = self.layout.pitch - 1
        self.draw.line((0, y, self.width - 1, y), fill=self.ink)
        return self.layout.pitch + 1

    def lines(self, y: int, lines: list[str], bottom: int) -> int:
        for line in lines:
            if y + self.layout.pitch > bottom + 2:
                break
            self.text(1, y, line)
            y += self.layout.pitch
        return y

    def hint(self, text: str) -> int:
        """A hint on the last line; returns the y above it."""
        if not text:
            return self.size[1]
        y = self.size[1] - self.layout.pitch
        self.text(1, y, self.fit(text, self.width - 2))
        return y


def render(view: View, size: tuple[int, int] = (128, 64)) -> Image.Image:
    """The frame for `view` at `size` (a mode "1" image)."""
    if isinstance(view, PlayView):
        return render_play(view, size)
    if isinstance(view, ProgressView):
        return render_progress(view, size)
    if isinstance(view, ChoiceView):
        return render_choice(view, size)
    if isinstance(view, TextView):
        return render_text(view, size)
    if isinstance(view, MenuView):
        return render_menu(view, size)
    if isinstance(view, EnrollView):
        return render_enroll(view, size)
    if isinstance(view, ErrorView):
        return render_error(view, size)
    raise TypeError(f"no screen for {type(view).__name__}")


def _columns(n: int) -> int:
    return n if n <= 2 else (n + 1) // 2


def _seat_cell(c: Canvas, x: int, y: int, width: int, cell: SeatCell) -> None:
    if cell.turn:
        # a small arrow in front of the seat whose turn it is
        p = c.layout.pitch
        mid = y + p // 2
        c.draw.polygon([(x, mid - 3), (x, mid + 3), (x + 3, mid)], fill=c.ink)
    x += 5
    card_w = c.card_width(cell.card) if cell.card else c.text_width("-")
    name = c.fit(cell.name, max(6, width - card_w - 10))
    x = c.text(x, y, name + ":")
    if cell.card is not None:
        if cell.winner:
            w = c.card_width(cell.card) + 2
            c.draw.rectangle((x + 1, y + 1, x + w, y + c.layout.pitch - 1), fill=c.ink)
            c.card(x + 2, y, cell.card, ink=c.paper)
        else:
            c.card(x + 2, y, cell.card)
    else:
        c.text(x + 2, y, "-")


def _compact_cell(c: Canvas, x: int, y: int, width: int, cell: SeatCell) -> None:
    """A seat in one narrow cell: the turn arrow, the name if there is room, the card."""
    if cell.turn:
        mid = y + c.layout.pitch // 2
        c.draw.polygon([(x, mid - 3), (x, mid + 3), (x + 3, mid)], fill=c.ink)
    x += 4
    card_w = c.card_width(cell.card) if cell.card else c.text_width("-")
    if width - 4 - card_w >= c.text_width(cell.name[:2]) + 2:
        x = c.text(x, y, c.fit(cell.name, width - 6 - card_w)) + 2
    if cell.card is None:
        c.text(x, y, "-")
    elif cell.winner:
        c.draw.rectangle((x - 1, y + 1, x + card_w, y + c.layout.pitch - 1), fill=c.ink)
        c.card(x, y, cell.card, ink=c.paper)
    else:
        c.card(x, y, cell.card)


def render_play(v: PlayView, size: tuple[int, int]) -> Image.Image:
    c = Canvas(size)
    y = c.header(v.header)
    p = c.layout.pitch
    if c.layout.compact:
        # one line of the trick, then the points
        per = c.width // max(1, len(v.seats))
        for i, cell in enumerate(v.seats):
            _compact_cell(c, i * per, y, per, cell)
        y += p
        if v.banner:
            c.bar(y)
            c.text(1, y, c.fit(v.banner, c.width - 2), ink=c.paper)
        elif v.teams is not None:
            c.text(1, y, c.fit(_teams_text(v), c.width - 2))
        return c.image
    cols = 2 if c.layout.lines > 6 else _columns(len(v.seats))
    per = c.width // cols
    for i, cell in enumerate(v.seats):
        row, col = divmod(i, cols)
        _seat_cell(c, col * per, y + row * p, per, cell)
    y += p * ((len(v.seats) + cols - 1) // cols)
    bottom = size[1]
    if v.teams is not None:
        c.text(1, y, c.fit(_teams_points(v), c.width - 2))
        y += p
    rest: list[str] = []
    if v.teams is not None and v.teams.status:
        rest.append(v.teams.status)
    if c.layout.lines > 6 and v.prompt:
        rest.extend(c.wrap(v.prompt))
    for line in rest:
        if y + p > bottom - (p if v.banner else 0) + 2:
            break
        c.text(1, y, c.fit(line, c.width - 2))
        y += p
    if v.banner:
        yb = bottom - p
        c.bar(yb)
        c.text(1, yb, c.fit(v.banner, c.width - 2), ink=c.paper)
    return c.image


def _teams_points(v: PlayView) -> str:
    assert v.teams is not None
    return "  ".join(f"{n}: {pts}" for n, pts in zip(v.teams.names, v.teams.points,
                                                       strict=False))


def _teams_text(v: PlayView) -> str:
    assert v.teams is not None
    text = _teams_points(v)
    return f"{text}  {v.teams.status}" if v.teams.status else text


def render_progress(v: ProgressView, size: tuple[int, int]) -> Image.Image:
    c = Canvas(size)
    y = c.header(v.header)
    p = c.layout.pitch
    cols = len(v.seats) if c.layout.compact else _columns(len(v.seats))
    per = c.width // max(1, cols)
    for i, (name, have, total) in enumerate(v.seats):
        row, col = divmod(i, cols)
        x, yy = col * per, y + row * p
        done = have >= total
        label = c.fit(f"{name}:", per - c.text_width(f"{have}/{total}") - 8)
        text = f"{label}{have}/{total}" if c.layout.compact else f"{label} {have}/{total}"
        if i == v.active and not done:
            c.draw.polygon([(x, yy + p // 2 - 3), (x, yy + p // 2 + 3), (x + 3, yy + p // 2)],
                           fill=c.ink)
        if done:
            w = c.text_width(text) + 2
            c.draw.rectangle((x + 4, yy + 1, x + 5 + w, yy + p - 1), fill=c.ink)
            c.text(x + 5, yy, text, ink=c.paper)
        else:
            c.text(x + 5, yy, text)
    y += p * ((len(v.seats) + cols - 1) // cols)
    bottom = size[1]
    if v.banner:
        bottom -= p
        c.bar(bottom)
        c.text(1, bottom, c.fit(v.banner, c.width - 2), ink=c.paper)
    c.lines(y, c.wrap(v.prompt), bottom - p)
    return c.image


def render_choice(v: ChoiceView, size: tuple[int, int]) -> Image.Image:
    c = Canvas(size)
    y = c.header(v.header)
    p = c.layout.pitch
    bottom = c.hint(v.hint)
    room = (bottom - y) // p
    prompt = c.wrap(v.prompt)
    if v.help:       # what the highlighted choice does: under the prompt, or instead of it
        helps = c.wrap(v.help)
        prompt = prompt + helps if room >= len(prompt) + len(helps) + 2 else helps
    n_prompt = min(len(prompt), max(1, room - 1)) if room > 1 else 0
    y = c.lines(y, prompt[:n_prompt], bottom)
    _list(c, y, bottom, v.choices, v.cursor)
    return c.image


def _list(c: Canvas, y: int, bottom: int, items: tuple[str, ...], cursor: int) -> None:
    """Items one a line; the cursor's item in inverse video; scrolls to it."""
    p = c.layout.pitch
    room = max(1, (bottom - y) // p)
    first = 0 if cursor < room else cursor - room + 1
    for i, item in enumerate(items[first:first + room], first):
        if i == cursor:
            c.bar(y)
            c.text(2, y, c.fit(item, c.width - 4), ink=c.paper)
        else:
            c.text(2, y, c.fit(item, c.width - 4))
        y += p


def render_text(v: TextView, size: tuple[int, int]) -> Image.Image:
    c = Canvas(size, inverse=v.inverse)
    y = c.header(v.header)
    p = c.layout.pitch
    bottom = c.hint(v.hint)
    if v.cards:
        x = 1
        for face in v.cards:
            x = c.card(x, y, face) + 4
        y += p
    lines: list[str] = []
    for line in v.lines:
        lines.extend(c.wrap(line))
    c.lines(y, lines, bottom)
    return c.image


def render_menu(v: MenuView, size: tuple[int, int]) -> Image.Image:
    c = Canvas(size)
    y = c.header(Header(v.title))
    bottom = c.hint(v.hint)
    _list(c, y, bottom, v.items, v.cursor)
    return c.image


def render_enroll(v: EnrollView, size: tuple[int, int]) -> Image.Image:
    c = Canvas(size)
    y = c.header(Header(v.title, detail=f"{v.position}/{v.total}"))
    p = c.layout.pitch
    bottom = c.hint(v.hint)
    if v.card is not None:
        x = c.card(1, y, v.card)
        c.text(x + 3, y, c.fit(v.card_name, c.width - x - 4))
        y += p
    if v.message:
        c.lines(y, c.wrap(v.message), bottom)
    return c.image


#: The error screen's large font for its rule, per screen layout's font size.
_RULE_FONT: dict[int, Layout] = {8: Layout(12, 14, 1, 1), 9: Layout(12, 14, 1, 3),
                                 14: Layout(18, 20, 2, 5, "condensed")}


def _rule_layout(layout: Layout) -> Layout:
    """The error screen's large font for a screen `layout`."""
    return _RULE_FONT.get(layout.font_size, Layout(12, 14, 1, 3))


def _with_layout(c: Canvas, layout: Layout) -> Canvas:
    """A canvas drawing on `c`'s frame with another layout (a larger font)."""
    other = copy.copy(c)
    other.layout = layout
    other.font = font(layout.font_size, layout.face)
    other._slash = zero_slash(layout.font_size, layout.face)
    return other


Piece = str | Sign


def _words(parts: tuple[Piece, ...]) -> list[list[Piece]]:
    """Words of a line of text and suit signs: a sign is part of the word it
    touches ("10" and a sign stay together), spaces separate words."""
    words: list[list[Piece]] = []
    open_word = False
    for part in parts:
        if isinstance(part, Sign):
            if open_word:
                words[-1].append(part)
            else:
                words.append([part])
            open_word = True
            continue
        chunks = part.split(" ")
        for i, chunk in enumerate(chunks):
            if i > 0:
                open_word = False
            if not chunk:
                continue
            if open_word:
                words[-1].append(chunk)
            else:
                words.append([chunk])
            open_word = True
    return words


def _word_width(c: Canvas, word: list[Piece]) -> int:
    return sum(SIGN_SIZE * c.layout.scale + 1 if isinstance(p, Sign) else c.text_width(p)
               for p in word)


def _wrap_rich(c: Canvas, parts: tuple[Piece, ...], width: int) -> list[list[list[Piece]]]:
    """Greedy word wrap of text and signs; a word wider than a line is its own line."""
    space = c.text_width(" ") + 1       # a pixel more: words apart at a glance
    lines: list[list[list[Piece]]] = []
    used = 0
    for word in _words(parts):
        w = _word_width(c, word)
        if lines and used + space + w <= width:
            lines[-1].append(word)
            used += space + w
        else:
            lines.append([word])
            used = w
    return lines


def _draw_rich(c: Canvas, x: int, y: int, line: list[list[Piece]]) -> int:
    space = c.text_width(" ") + 1       # a pixel more: words apart at a glance
    for i, word in enumerate(line):
        if i:
            x += space
        for piece in word:
            if isinstance(piece, Sign):
                x = c.sign(x, y, piece.suit, piece.family)
            else:
                x = c.text(x, y, piece)
    return x


def render_error(v: ErrorView, size: tuple[int, int]) -> Image.Image:
    """The title (who) with the card refused on the right; the rule in a
    large font, its suit signs drawn as the suits' icons; under it, as much of
    the whole sentence as the screen holds. Without a rule, the sentence in
    the large font when it fits, else in the small one."""
    c = Canvas(size, inverse=True)
    p = c.layout.pitch
    right = c.width - 1
    if v.card is not None:
        right -= c.card_width(v.card)
        c.card(right, 0, v.card)
        right -= 3
    c.text(1, 0, c.fit(v.title, right - 1))
    c.draw.line((0, p - 1, c.width - 1, p - 1), fill=c.ink)
    y = p + 1
    big = _with_layout(c, _rule_layout(c.layout))
    room = (size[1] - y) // big.layout.pitch
    rule = v.rule
    rest = v.message
    if not rule:
        rule, rest = (v.message,), ""
    lines = _wrap_rich(big, rule, c.width - 2)
    if not lines or len(lines) > room:
        if v.rule:              # the rule in the small font, then the sentence
            lines = _wrap_rich(c, v.rule, c.width - 2)
            for line in lines:
                _draw_rich(c, 1, y, line)
                y += p
        c.lines(y, c.wrap(v.message), size[1])
        return c.image
    for line in lines:
        _draw_rich(big, 1, y, line)
        y += big.layout.pitch
    if rest and y + p <= size[1] + 1:
        small = c.wrap(rest)
        fits = (size[1] + 1 - y) // p
        if len(small) > fits:
            small = small[:fits]
            small[-1] = c.fit(small[-1] + " …", c.width - 2)
        c.lines(y, small, size[1])
    return c.image
