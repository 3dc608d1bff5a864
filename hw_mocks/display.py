"""The display fake: luma.core's own `dummy` device behind the `Display` port.

`dummy` keeps the last frame as a PIL image, as a real device would show it
(after luma's preprocessing), so tests compare it with golden PNGs and the
simulator shows it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL.Image import Image

FrameListener = Callable[["Image"], None]


class FakeDisplay:
    """Implements `table.ports.Display` on `luma.core.device.dummy`."""

    def __init__(self, size: tuple[int, int] = (128, 64), keep: int = 0) -> None:
        from luma.core.device import dummy

        width, height = size
        self.device = dummy(width=width, height=height, mode="1")
        self.frames = 0
        #: The last `keep` frames shown, oldest first (0: keep none).
        self.history: list[Image] = []
        self._keep = keep
        self._listeners: list[FrameListener] = []

    @property
    def size(self) -> tuple[int, int]:
        return (self.device.width, self.device.height)

    @property
    def image(self) -> Image | None:
        """The frame on the screen now (None before the first)."""
        image: Image | None = self.device.image   # luma's dummy device keeps it
        return image

    def show(self, image: Image) -> None:
        if image.mode != "1":
            raise ValueError(f"the display takes mode '1' images, not {image.mode!r}")
        if image.size != self.size:
            raise ValueError(f"the display is {self.size}, the image {image.size}")
        self.device.display(image)
        self.frames += 1
        if self._keep:
            self.history.append(self.device.image)
            del self.history[:-self._keep]
        for listener in list(self._listeners):
            listener(self.device.image)

    def on_frame(self, listener: FrameListener) -> None:
        """Call `listener(image)` after every frame (the simulator's window)."""
        self._listeners.append(listener)

    def ascii(self) -> str:
        """The frame as text, `#` for a lit pixel: for logs and failing tests."""
        img = self.device.image
        if img is None:
            return ""
        w, h = img.size
        px = img.load()
        return "\n".join("".join("#" if px[x, y] else "." for x in range(w)) for y in range(h))
