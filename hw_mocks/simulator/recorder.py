"""Write OLED frames to a folder: every frame as a PNG, and the whole match as
an animated GIF (scaled up so that it reads well in a README)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image


class FrameRecorder:
    """Collects frames; `frame_0001.png` ... and `match.gif` in `folder`.

    Identical consecutive frames are kept once (their time adds up), so the
    GIF shows each change for as long as it stayed on the screen.
    """

    def __init__(self, folder: Path, scale: int = 3, gif_name: str = "match.gif") -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.scale = scale
        self.gif_name = gif_name
        self.frames: list[Image.Image] = []
        self.durations: list[int] = []

    def add(self, image: Image.Image, duration_ms: int = 600) -> None:
        frame = image.convert("1").copy()
        if self.frames and frame.tobytes() == self.frames[-1].tobytes():
            self.durations[-1] += duration_ms
            return
        self.frames.append(frame)
        self.durations.append(duration_ms)
        frame.save(self.folder / f"frame_{len(self.frames):04d}.png")

    @property
    def gif_path(self) -> Path:
        return self.folder / self.gif_name

    def close(self) -> Path | None:
        """Write the GIF; returns its path (None when no frame was seen)."""
        if not self.frames:
            return None
        big = [f.convert("L").resize((f.width * self.scale, f.height * self.scale),
                                     Image.Resampling.NEAREST) for f in self.frames]
        big[0].save(self.gif_path, save_all=True, append_images=big[1:],
                    duration=self.durations, loop=0, optimize=True)
        return self.gif_path
