"""A chart of each seat over the plies of a game (textual-plotext): a line a seat in its
colour, marked moves, a cursor at the ply shown, and a click that names the ply under it.

The chart has a dark background of its own, whatever the terminal's theme, and draws each
seat in a light enough form of its colour (`CHART_INK`) to read on it at every colour depth:
black as a mid grey, as charts on a dark background draw it.

A click is mapped back through the drawing itself: plotext frames the plot's canvas with
`└` and `┘` on its bottom axis, and places ply `x` of `lo..hi` at canvas column
`floor(0.5 + (width - 1) * (x - lo) / (hi - lo))`; the click's column is turned back into
the nearest ply the same way.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from plotext._dict import themes as plotext_themes  # type: ignore[import-untyped]
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import RenderResult
from textual.message import Message
from textual_plotext import PlotextPlot

from .colours import CHART_BACKGROUND, CHART_INK, CURSOR_YELLOW, rgb_colour

CURSOR_RGB: Final = CURSOR_YELLOW
AXES_RGB: Final = "#a0a4ab"
UNKNOWN_RGB: Final = "#b8bec7"
THEME: Final = "parlour-chart"
"""The plotext theme the charts draw with: our background and axes on every terminal,
registered in plotext's table of themes as textual-plotext registers its own."""
MARK: Final = "x"
"""The marker of a marked move (a worst move) on its seat's line."""
X_TICKS: Final = 5
"""Ply labels along the bottom, at most."""

Series = Mapping[str, Sequence[float | None]]
"""Each seat's values, one a ply from 0; None where there is none."""


def rgb(colour: str) -> tuple[int, int, int]:
    """A seat's line colour as plotext takes it; light grey for a seat this client does not
    know."""
    return hex_rgb(CHART_INK.get(colour, UNKNOWN_RGB))


def line_style(colour: str) -> Style:
    """A seat's line as the charts draw it, on their background: for a legend."""
    ink = CHART_INK.get(colour, UNKNOWN_RGB)
    return Style(color=rgb_colour(ink), bgcolor=rgb_colour(CHART_BACKGROUND), bold=True)


def hex_rgb(text: str) -> tuple[int, int, int]:
    value = int(text.removeprefix("#"), 16)
    return (value >> 16, (value >> 8) & 0xFF, value & 0xFF)


plotext_themes[THEME] = [
    hex_rgb(CHART_BACKGROUND),
    hex_rgb(CHART_BACKGROUND),
    hex_rgb(AXES_RGB),
    "default",
    [hex_rgb(ink) for ink in CHART_INK.values()],
]


def ply_ticks(last: int, most: int = X_TICKS) -> list[int]:
    """Whole plies to label the x axis with, evenly apart, the first and last included
    where they fit."""
    if last <= 0:
        return [0]
    step = max(1, -(-last // max(1, most - 1)))
    for nice in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if nice >= step:
            step = nice
            break
    return list(range(0, last + 1, step))


def ply_at_column(column: int, start: int, width: int, last: int) -> int | None:
    """The ply drawn at canvas `column` of a canvas `width` columns wide from column
    `start`, for plies 0..`last`: the nearest one; None off the canvas."""
    if width <= 0 or not start <= column < start + width:
        return None
    if last <= 0 or width == 1:
        return 0
    return min(last, max(0, round((column - start) * last / (width - 1))))


@dataclass(frozen=True)
class ChartData:
    """What a chart draws."""

    series: Series
    last: int
    """The last ply: the x axis runs from 0 to it."""
    cursor: int = 0
    marks: Sequence[tuple[int, str]] = ()
    """(ply, colour): moves to mark on that seat's line."""
    low: float | None = None
    high: float | None = None
    y_ticks: Sequence[tuple[float, str]] = ()
    caption: str = ""
    short_caption: str = ""
    """The caption where the whole one does not fit above the plot."""
    colours: Sequence[str] = field(default_factory=tuple)
    """The seats in the order to draw them (the last on top)."""


class PlyChart(PlotextPlot):
    """A chart over the plies; a click posts `Clicked` with the ply under the mouse."""

    class Clicked(Message):
        """The chart was clicked at the column of `ply`."""

        def __init__(self, chart: "PlyChart", ply: int) -> None:
            super().__init__()
            self.chart = chart
            self.ply = ply

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.data: ChartData | None = None
        self.canvas: tuple[int, int] = (0, 0)
        """The plot's canvas as last drawn: its first column and its width."""

    def _get_plotext_theme_name(self, app_theme_name: str) -> str:
        """Our theme, whatever the app's."""
        return THEME

    def show(self, data: ChartData) -> None:
        """Draw `data` from now on."""
        self.data = data
        self.refresh()

    def render(self) -> RenderResult:
        """The chart, drawn anew for the widget's size; the canvas is noted for clicks."""
        self._plot_data()
        drawn = super().render()
        if isinstance(drawn, Text):
            self.canvas = canvas_of(drawn.plain)
        return drawn

    def _plot_data(self) -> None:
        plt = self.plt
        plt.clear_figure()
        data = self.data
        if data is None:
            return
        fits = len(data.caption) <= self.size.width - 8 or not data.short_caption
        plt.title(data.caption if fits else data.short_caption)
        last = max(1, data.last)
        plt.xlim(0, last)
        ticks = ply_ticks(data.last)
        plt.xticks([float(tick) for tick in ticks], [str(tick) for tick in ticks])
        if data.low is not None and data.high is not None:
            plt.ylim(data.low, data.high)
        if data.y_ticks:
            plt.yticks([value for value, _ in data.y_ticks], [label for _, label in data.y_ticks])
        plt.vline(data.cursor, hex_rgb(CURSOR_RGB))
        for colour in data.colours or list(data.series):
            values = data.series.get(colour, ())
            points = [(ply, v) for ply, v in enumerate(values) if v is not None]
            if not points:
                continue
            xs, ys = [ply for ply, _ in points], [value for _, value in points]
            plt.plot(xs, ys, color=rgb(colour), marker="braille")
        for ply, colour in data.marks:
            values = data.series.get(colour, ())
            value = values[ply] if 0 <= ply < len(values) else None
            if value is not None:
                plt.scatter([ply], [value], color=rgb(colour), marker=MARK)

    def ply_at(self, x: int) -> int | None:
        """The ply under column `x` of the chart's content, if it is on the plot."""
        if self.data is None:
            return None
        start, width = self.canvas
        return ply_at_column(x, start, width, max(1, self.data.last))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        ply = self.ply_at(offset.x)
        if ply is not None and self.data is not None:
            self.post_message(self.Clicked(self, min(ply, self.data.last)))


def canvas_of(drawing: str) -> tuple[int, int]:
    """The canvas of a plotext drawing: its first column and width, read off the bottom
    axis between its corners `└` and `┘`; (0, 0) if the drawing has no frame."""
    for line in reversed(drawing.split("\n")):
        left, right = line.find("└"), line.find("┘")
        if 0 <= left < right:
            return left + 1, right - left - 1
    return 0, 0
