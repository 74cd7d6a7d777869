"""Stepping through a game (protocol.md 2.10 `replay`), as lichess's analysis board: the
board at the ply chosen, drawn by the room's own board widgets, with the cells the move
changed lit; the move list; a chart of the scores and one of the judge's chances, each seat
in its colour, the worst moves marked and a cursor at the ply shown.

Left and Right step, Home and End go to the ends, digits jump to a move, W to the next
worst move, G shows the charts large in place of the board (and back); a click on a chart
goes to the ply under the mouse, one in the move list to that move. The layout follows the
terminal: the charts below the board, or beside a tall board; below a board too wide for
anything beside it, the move list and the title give way, down to 80x24.
"""

import time
from typing import ClassVar, Final, Literal

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from parlour.protocol import messages as m

from ..connection import Connection
from .charts import ChartData, PlyChart, line_style
from .colours import label_style
from .replaymodel import SHARE_WHOLE, ReplayModel, score_ticks
from .room import title
from .widgets import BoardView

SHORT: Final = 30
"""Rows under which boards are drawn in as few rows as they can (as the room does)."""
CHART_LEAST: Final = 8
"""Rows the charts need below the board; with fewer, they go beside it."""
SIDE_LEAST: Final = 24
"""Columns the move list needs beside the board."""
SIDE_ROWS: Final = 12
"""Rows the move's words and the move list take beside a small board, where the charts
below keep enough."""
CHARTS_BESIDE_LEAST: Final = 30
"""Columns the charts need beside a tall board."""
TYPED_FOR: Final = 1.5
"""Seconds within which digits typed make one number."""
LINE_SAMPLE: Final = "━━"
"""A stroke of a seat's line on the charts, before its name."""
SHARE_TICKS: Final = ((0.0, "0%"), (SHARE_WHOLE / 2, "50%"), (float(SHARE_WHOLE), "100%"))

Layout = Literal["below", "beside", "narrow", "charts"]


class ReplayBoard(BoardView, can_focus=False):
    """The room's board widget, for looking only: the replay's keys are the screen's."""


class MoveList(OptionList, can_focus=False):
    """The moves, the one shown highlighted; a click goes to a move. The keys are the
    screen's, so that the list never moves on its own."""


class ReplayScreen(Screen[None]):
    """One game to step through; Escape goes back to where it came from."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Back", key_display="←", priority=True),
        Binding("right", "step(1)", "Forward", key_display="→", priority=True),
        Binding("home", "go(0)", "Start", priority=True),
        Binding("end", "go_end", "End", priority=True),
        Binding("w,W", "worst", "Worst"),
        Binding("g,G", "charts", "Charts"),
        *(
            Binding(str(digit), f"digit({digit})", "Go to", show=False, priority=True)
            for digit in range(10)
        ),
        Binding("escape,q,Q", "close", "Close"),
    ]
    DEFAULT_CSS = """
    ReplayScreen #replay-title { height: auto; max-height: 2; padding: 0 1; }
    ReplayScreen #replay-body { layout: grid; grid-size: 2 2; height: 1fr; }
    ReplayScreen #replay-board { margin: 0 1; width: auto; height: auto; }
    ReplayScreen #replay-now { height: auto; padding: 0 1 0 0; }
    ReplayScreen #replay-moves { height: 1fr; min-height: 3; }
    ReplayScreen #replay-charts { layout: horizontal; }
    ReplayScreen.-stacked #replay-charts { layout: vertical; }
    ReplayScreen PlyChart { width: 1fr; height: 1fr; }
    ReplayScreen.-narrow #replay-moves, ReplayScreen.-charts #replay-moves { display: none; }
    ReplayScreen.-narrow #replay-title, ReplayScreen.-charts #replay-board { display: none; }
    ReplayScreen.-narrow #replay-now, ReplayScreen.-charts #replay-now { padding: 0 1; }
    """

    def __init__(self, replay: ReplayModel, *, ply: int | None = None) -> None:
        super().__init__()
        self.replay = replay
        self.ply = replay.last if ply is None else max(0, min(ply, replay.last))
        self.arranged: Layout | None = None
        self.charts_only = False
        """Whether G put the charts in place of the board."""
        self.typed = ""
        """Digits typed towards a move number."""
        self.typed_at = 0.0

    def compose(self) -> ComposeResult:
        replay = self.replay
        yield Static(self._title(), id="replay-title")
        with Container(id="replay-body"):
            yield ReplayBoard(id="replay-board")
            with Vertical(id="replay-side"):
                yield Static("", id="replay-now")
                yield MoveList(
                    *(
                        Option(replay.move_line(ply), id=str(ply))
                        for ply in range(replay.last + 1)
                    ),
                    id="replay-moves",
                )
            with Container(id="replay-charts"):
                yield PlyChart(id="score-chart")
                yield PlyChart(id="eval-chart")
        yield Footer(compact=True)

    def _title(self) -> Text:
        replay = self.replay
        text = Text(f"Replay: {replay.game.capitalize()}  ", style="bold")
        for colour in replay.seats:
            text.append(f" {title(colour)} ", label_style(colour))
            text.append(f" {replay.name_of(colour)}  ")
        text.append(replay.result_words(), style="italic")
        return text

    def on_mount(self) -> None:
        self._arrange()
        self.show_ply(self.ply)

    def on_resize(self) -> None:
        self._arrange()

    def show_ply(self, ply: int) -> None:
        """Show the game at `ply`: the board, the words, the list and the charts' cursor."""
        replay = self.replay
        self.ply = max(0, min(ply, replay.last))
        frame = replay.frames[self.ply]
        board = self.query_one(ReplayBoard)
        board.show(frame.state, None)
        board.mark(changed=frame.changed)
        self._arrange()
        now = Text(replay.frame_words(self.ply))
        now.append("\n" if self.arranged != "narrow" else "  ")
        now.append_text(self._standing())
        if self.typed:
            now.append(f"\nGo to move {self.typed}", style="bold")
        self.query_one("#replay-now", Static).update(now)
        moves = self.query_one(MoveList)
        if moves.highlighted != self.ply:
            moves.highlighted = self.ply
        self._chart()

    def _standing(self) -> Text:
        """Each seat's score and chances at this ply, after its name on its colour and a
        stroke of its line on the charts, so that the lines tell whose they are."""
        text = Text()
        for colour, standing in self.replay.standing(self.ply):
            text.append(LINE_SAMPLE, line_style(colour))
            text.append(f" {title(colour)} ", label_style(colour))
            text.append(f" {standing}  ")
        text.rstrip()
        return text

    def _chart(self) -> None:
        replay = self.replay
        marks = [(slip.ply, slip.colour) for slip in replay.worst]
        series = replay.scores()
        ticks = score_ticks(series)
        scores = ChartData(
            series=series,
            last=replay.last,
            cursor=self.ply,
            marks=marks,
            low=0.0,
            high=ticks[-1][0],
            y_ticks=ticks,
            caption=replay.score_caption,
            colours=replay.seats,
        )
        self.query_one("#score-chart", PlyChart).show(scores)
        judge = f" ({replay.evaluator})" if replay.evaluator else ""
        caption = f"Chances{judge}" if replay.judged else "Chances: no judge for this game"
        shares = ChartData(
            series=replay.shares(),
            last=replay.last,
            cursor=self.ply,
            marks=marks,
            low=0.0,
            high=float(SHARE_WHOLE),
            y_ticks=SHARE_TICKS,
            caption=caption,
            short_caption="Chances" if replay.judged else "No judge",
            colours=replay.seats,
        )
        self.query_one("#eval-chart", PlyChart).show(shares)

    def _arrange(self) -> None:
        """The charts below the board where there is room, else beside it; a board too wide
        for anything beside it and too tall for the charts below keeps the move's words and
        the charts below, in the rows left (G shows them large)."""
        if not self.is_mounted:
            return
        width, height = self.size
        board = self.query_one(ReplayBoard)
        board.set_compact(height < SHORT)
        board_width, board_height = board.board.size() if board.board is not None else (0, 0)
        board_width += 2
        title_rows = 1 if self._title().cell_len <= width - 2 else 2
        body_height = height - title_rows - 1
        free_width, free_height = width - board_width, body_height - board_height
        layout: Layout
        if self.charts_only:
            layout = "charts"
        elif free_height >= CHART_LEAST and free_width >= SIDE_LEAST:
            layout = "below"
        elif free_width >= CHARTS_BESIDE_LEAST:
            layout = "beside"
        else:
            layout = "narrow"
        body = self.query_one("#replay-body").styles
        charts = self.query_one("#replay-charts").styles
        if layout == "below":
            body.grid_size_columns, body.grid_size_rows = 2, 2
            body.grid_columns = f"{board_width} 1fr"
            top = max(board_height, min(SIDE_ROWS, body_height - CHART_LEAST))
            body.grid_rows = f"{top} 1fr"
            board.styles.row_span, charts.column_span = 1, 2
        elif layout == "beside":
            body.grid_size_columns, body.grid_size_rows = 2, 2
            body.grid_columns = f"{board_width} 1fr"
            body.grid_rows = f"{min(9, max(4, body_height // 3))} 1fr"
            board.styles.row_span, charts.column_span = 2, 1
        elif layout == "narrow":
            body.grid_size_columns, body.grid_size_rows = 1, 3
            body.grid_columns = "1fr"
            body.grid_rows = f"{board_height} 2 1fr"
            board.styles.row_span, charts.column_span = 1, 1
        else:
            body.grid_size_columns, body.grid_size_rows = 1, 2
            body.grid_columns = "1fr"
            body.grid_rows = "3 1fr"
            board.styles.row_span, charts.column_span = 1, 1
        stacked = layout == "beside" or (layout == "charts" and body_height >= 2 * CHART_LEAST)
        self.set_class(stacked, "-stacked")
        self.set_class(layout == "narrow", "-narrow")
        self.set_class(layout == "charts", "-charts")
        self.arranged = layout

    def action_step(self, step: int) -> None:
        self.typed = ""
        self.show_ply(self.ply + step)

    def action_go(self, ply: int) -> None:
        self.typed = ""
        self.show_ply(ply)

    def action_go_end(self) -> None:
        self.action_go(self.replay.last)

    def action_worst(self) -> None:
        """The next worst move after this one, round to the first."""
        ply = self.replay.next_worst(self.ply)
        if ply is None:
            self.notify("No move was marked as a worst one.")
        else:
            self.action_go(ply)

    def action_digit(self, digit: int) -> None:
        """Digits typed within a moment of each other make a move number, gone to at once;
        a digit that makes no move of this game is refused."""
        now = time.monotonic()
        if now - self.typed_at > TYPED_FOR:
            self.typed = ""
        self.typed_at = now
        typed = (self.typed + str(digit)).lstrip("0") or "0"
        if int(typed) > self.replay.last:
            typed = str(digit)
        if int(typed) > self.replay.last:
            self.app.bell()
            return
        self.typed = typed
        self.show_ply(int(typed))
        self.set_timer(TYPED_FOR, self._typed_done)

    def _typed_done(self) -> None:
        """A moment after the last digit: the number typed is done with."""
        if self.typed and time.monotonic() - self.typed_at >= TYPED_FOR:
            self.typed = ""
            self.show_ply(self.ply)

    def action_charts(self) -> None:
        """The charts large in place of the board, or the board back."""
        self.charts_only = not self.charts_only
        self._arrange()

    def action_close(self) -> None:
        self.dismiss(None)

    def on_ply_chart_clicked(self, event: PlyChart.Clicked) -> None:
        self.typed = ""
        self.show_ply(event.ply)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A move clicked in the list is gone to."""
        self.typed = ""
        self.show_ply(event.option_index)


async def ask_replay(connection: Connection, request: m.Replay) -> ReplayModel:
    """The replay the server sends for `request`; RefusedError, ConnectionLostError, or
    ValueError for an answer that cannot be read."""
    answer = await connection.request(request)
    if not isinstance(answer, m.ReplayReply):
        raise ValueError(f"the server answered {answer.TYPE!r}, not a replay")
    return ReplayModel.from_reply(answer)


class ReplayApp(App[None]):
    """`parlour replay`: one replay, and nothing else; closing it quits."""

    ENABLE_COMMAND_PALETTE = False

    def __init__(self, replay: ReplayModel) -> None:
        super().__init__()
        self.replay = replay
        self.title = "Parlour replay"

    def on_mount(self) -> None:
        self.push_screen(ReplayScreen(self.replay), lambda _: self.exit())
