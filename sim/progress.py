"""Progress of long work: one typed callback, ``progress(stage, done, total)``.

Every long computation (playing runs, the bid tables' parts, the advisor's playouts, the report's
sections) reports to a ``Progress``: what it is doing (``stage``, a few words), how much of it is
done and how much there is, in the stage's own units (deals, games, parts, samples). It is called
from the calling thread. A caller that wants nothing passes None; the command line draws bars with
``StageBars``; a notebook or a report follows the numbers, never a sentence.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from tqdm import tqdm

__all__ = ["Progress", "StageBars", "OneBar"]

Progress = Callable[[str, int, int], None]


class StageBars:
    """A ``Progress`` drawn on stderr: one bar a stage, redrawn at most twice a second (its elapsed
    time keeps moving while one long item is worked on). ``unit`` names what a bar counts; counts
    are whole (``1234/200000``: what a reader, or a test waiting for a count, reads), or with
    ``scaled`` in k and M (``1.5k/3k games``, the played runs' bars)."""

    def __init__(self, unit: str = "deal", *, scaled: bool = False) -> None:
        self.unit, self.scaled = unit, scaled
        self.stage: str | None = None
        self.bar = None
        self.drawn = 0.0

    def __call__(self, stage: str, done: int, total: int) -> None:
        if self.stage != stage:
            self.close()
            self.bar = tqdm(total=total, initial=done, desc=stage, unit=self.unit, unit_scale=self.scaled,
                            file=sys.stderr, leave=False, dynamic_ncols=True, mininterval=0.5)
            self.stage = stage
            self.drawn = time.monotonic()
            return
        now = time.monotonic()
        if done >= total or now - self.drawn >= 0.5:
            self.bar.n = done
            self.bar.refresh()
            self.drawn = now

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
            self.stage = None


class OneBar:
    """A ``Progress`` drawn on stderr as one bar for every stage, the stage named after it: for work
    counted in one unit across its stages (the report's estimated seconds). ``close()`` ends it."""

    def __init__(self, desc: str, unit: str, bar_format: str | None = None) -> None:
        self.desc, self.unit, self.bar_format = desc, unit, bar_format
        self.bar = None

    def __call__(self, stage: str, done: int, total: int) -> None:
        if self.bar is None:
            self.bar = tqdm(total=total, desc=self.desc, unit=self.unit, file=sys.stderr, dynamic_ncols=True,
                            bar_format=self.bar_format)
        self.bar.set_postfix_str(stage, refresh=False)
        self.bar.n = min(done, total)
        self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
