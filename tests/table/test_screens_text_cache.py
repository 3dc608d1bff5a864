"""The screens draw each text once and paste it afterwards
(`table.screens.render.rendered_text`): the pasted pixels must be exactly
those FreeType draws, wherever the text lands (also partly off the screen),
in every face and size the layouts use, with every zero slashed; and a
frame drawn again must not ask FreeType for any text a second time."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw

from table.screens import render as r
from table.screens.view import CardFace, ErrorView, Header, PlayView, SeatCell, TeamLine

SIZES = r.SIZES
# letters the players' languages need, digits (zeros are slashed), signs, spaces
ALPHABET = "aăâbcdeéfghiîjklmnoóöőpqrsștțuúüűvwxyzAĂÂBDEIÎOÖŐSȘTȚUÜŰ0123456789 :/-…!?.,()"


def drawn_by_freetype(size, inverse, x, y, text, ink):
    """The frame as `Canvas.text` drew it before the cache: FreeType every
    time (`ImageDraw.text`), then the slashes of the zeros."""
    c = r.Canvas(size, inverse=inverse)
    fill = c.ink if ink is None else ink
    draw = ImageDraw.Draw(c.image)
    draw.fontmode = "1"
    draw.text((x, y), text, font=c.font, fill=fill)
    if "0" in text and c._slash:
        zero = c.font.getlength("0")
        for i, ch in enumerate(text):
            if ch == "0":
                left = round(x + c.font.getlength(text[:i + 1]) - zero)
                draw.point([(left + dx, y + dy) for dx, dy in c._slash], fill=fill)
    return c.image


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is None


@settings(max_examples=150, deadline=None)
@given(size=st.sampled_from(SIZES), inverse=st.booleans(),
       x=st.integers(-40, 130), y=st.integers(-12, 130),
       text=st.text(alphabet=ALPHABET, max_size=24),
       ink=st.sampled_from([None, 0, 255]))
def test_a_pasted_text_has_the_pixels_freetype_draws(size, inverse, x, y, text, ink):
    c = r.Canvas(size, inverse=inverse)
    after = c.text(x, y, text, ink)
    assert same(c.image, drawn_by_freetype(size, inverse, x, y, text, ink)), (size, x, y, text)
    assert after == x + c.text_width(text)


def test_texts_without_ink_paste_nothing():
    assert r.rendered_text(9, "") is None
    assert r.rendered_text(9, "   ") is None
    c = r.Canvas((128, 64))
    assert c.text(3, 3, "  ") == 3 + c.text_width("  ")
    assert c.image.getbbox() is None


def play_view(card: str | None) -> PlayView:
    header = Header("Filicău", trump="a", family="german", detail="3/8")
    seats = tuple(SeatCell(name, CardFace.of(code, "german") if code else None, turn=i == 2)
                  for i, (name, code) in enumerate([("Ana", "Aa"), ("Dan", "Tl"),
                                                    ("Ion", card), ("Eva", None)]))
    return PlayView(header, seats, TeamLine(("Noi", "Voi"), (10, 23), "egal"), "Joacă Ion")


def test_a_frame_drawn_again_asks_freetype_for_nothing():
    first = r.render(play_view(None))
    before = r.rendered_text.cache_info()
    again = r.render(play_view(None))
    after = r.rendered_text.cache_info()
    assert after.misses == before.misses
    assert after.hits > before.hits
    assert same(first, again)
    # a card played: only its new text is drawn by FreeType
    r.render(play_view("Ka"))
    assert r.rendered_text.cache_info().misses - after.misses <= 1


def test_error_screens_in_inverse_video_reuse_the_texts_too():
    view = ErrorView("Locul 3", "Trebuie să răspunzi la culoare: 10 puncte")
    first = r.render(view)
    misses = r.rendered_text.cache_info().misses
    assert same(r.render(view), first)
    assert r.rendered_text.cache_info().misses == misses
