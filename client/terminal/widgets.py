"""The room screen's pieces: the board, and the seats with the host's controls."""

from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Label, ListItem, ListView, Select, Static

from .boards import board_for
from .boards.base import Board, Marks, Observation, Step
from .clocks import ClockFace
from .colours import clock_style
from .conduct import seated_person
from .ratings import change_of, counts_words, rating_text, seat_rating
from .room import RoomModel, describe_holder, title

BLINK_SECONDS = 0.5


class BoardView(Widget, can_focus=True):
    """The board: drawn from the latest observation, clicked or steered with the keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "step('up')", "Up", show=False),
        Binding("down", "step('down')", "Down", show=False),
        Binding("left", "step('left')", "Left", show=False),
        Binding("right", "step('right')", "Right", show=False),
        Binding("enter", "choose", "Play here", show=False),
        Binding("escape", "clear", "Clear", show=False),
        Binding("tab", "screen.chat", "Chat", show=False),
    ]

    class Chosen(Message):
        """A square clicked or chosen with Enter."""

        def __init__(self, square: str) -> None:
            super().__init__()
            self.square = square

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.board: Board | None = None
        self.problem = ""
        """Why the observation could not be drawn, if it could not."""
        self.marks = Marks()
        self.compact = False
        """Drawn in as few rows as the game's drawing allows, for a short terminal."""
        self.shown: tuple[Observation | None, str | None] = (None, None)

    def on_mount(self) -> None:
        self.set_interval(BLINK_SECONDS, self._blink)

    def show(self, observation: Observation | None, seat: str | None) -> None:
        """Draw a new observation; the cursor stays, picks and hints go."""
        self.problem = ""
        self.shown = (observation, seat)
        try:
            self.board = (
                None if observation is None else board_for(observation, compact=self.compact)
            )
        except (KeyError, TypeError, ValueError, IndexError) as error:
            self.board, self.problem = None, f"The board cannot be drawn: {error}"
        self.marks = Marks(cursor=self.marks.cursor, blink=self.marks.blink, seat=seat)
        self._resize()
        self.refresh()

    def set_compact(self, compact: bool) -> None:
        """Draw the board anew, in fewer rows or not."""
        if compact != self.compact:
            self.compact = compact
            self.show(*self.shown)

    def mark(
        self,
        *,
        hints: Sequence[str] | None = None,
        picked: tuple[str, ...] | None = None,
        changed: Sequence[str] | None = None,
    ) -> None:
        """Light up the squares of these moves, show the squares picked so far, or (in a
        replay) the cells the last move changed."""
        if self.board is None:
            return
        marks = self.marks
        if hints is not None:
            marks = replace(marks, hints=self.board.hint_squares(hints))
        if picked is not None:
            marks = replace(marks, picked=picked)
        if changed is not None:
            marks = replace(marks, changed=frozenset(changed))
        self.marks = marks
        self.refresh()

    def render(self) -> Text:
        if self.board is None:
            return Text(self.problem or "The board appears when the game starts.", style="dim")
        return self.board.render(self.marks)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if self.board is None or offset is None:
            return
        square = self.board.cell_at(offset.x, offset.y)
        if square is not None:
            self.marks = replace(self.marks, cursor=square)
            self.post_message(self.Chosen(square))

    def action_step(self, direction: Step) -> None:
        if self.board is not None:
            self.marks = replace(self.marks, cursor=self.board.step(self.marks.cursor, direction))
            self.refresh()

    def action_choose(self) -> None:
        if self.marks.cursor is not None:
            self.post_message(self.Chosen(self.marks.cursor))

    def action_clear(self) -> None:
        self.mark(hints=(), picked=())

    def _blink(self) -> None:
        self.marks = replace(self.marks, blink=not self.marks.blink)
        self.refresh()

    def _resize(self) -> None:
        if self.board is not None:
            width, height = self.board.size()
            self.styles.width = width
            self.styles.height = height


def clock_part(face: ClockFace | None, width: int) -> tuple[Text, ...]:
    """A seat's clock as its line starts, right-aligned to `width` so that the seats' names
    line up: in the low-time colour when low or out of time."""
    if face is None:
        return ()
    style = clock_style(low=face.low, running=face.running)
    return (Text(f" {face.text:>{width}} ", style), Text(" "))


class SeatsPanel(Vertical):
    """Who holds each seat (pick one to change who plays it, or to mute, block or report
    another's person), marked where this player mutes or blocks its person; for the host
    of a waiting room, computer players and Start."""

    class SeatClicked(Message):
        def __init__(self, colour: str) -> None:
            super().__init__()
            self.colour = colour

    def __init__(self, levels: Sequence[str], level: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.levels = list(levels)
        self.level = level
        self.shown: list[tuple[str, Text]] = []
        self.labels: list[Label] = []
        """The label of each seat's line, in the order of `shown`."""
        self.heading = "Seats"

    def compose(self) -> ComposeResult:
        yield Label("Seats", classes="heading", id="seats-heading")
        yield ListView(id="seat-list")
        yield Static("", id="rated")
        with Horizontal(id="host-controls"):
            yield Select(
                [(f"level {level}", level) for level in self.levels],
                value=self.level,
                allow_blank=False,
                id="level",
            )
            yield Button("Fill", id="fill", tooltip="computer players in the open seats")
            yield Button("Start", id="start", variant="success")

    def show(self, room: RoomModel, now: float) -> None:
        """Redraw the seats, each with its clock at `now` where the room has clocks, and
        show the host's controls while the room waits."""
        lines = []
        changes = room.view.get("rating_changes") or {}
        faces = room.clock_faces(now)
        width = max((len(face.text) for face in faces.values() if not face.held), default=0)
        for seat in room.seats:
            colour = seat["colour"]
            mover = "▶ " if room.to_move == colour and room.status == "playing" else "  "
            holder = describe_holder(seat["holder"], mine=colour in room.playing)
            person = seated_person(seat["holder"])
            mark = "" if person is None else room.standing.mark(person)
            if mark and colour not in room.yours:
                holder += f" ({mark})"
            rating = rating_text(seat_rating(seat))
            change = change_of(changes.get(colour)) if isinstance(changes, dict) else ""
            after = "".join(f"  {part}" for part in (rating, change) if part)
            clock = clock_part(faces.get(colour), width)
            line = Text.assemble(mover, *clock, f"{title(colour)}: {holder}{after}")
            lines.append((colour, line))
        heading = f"Seats, clock {room.time_control}" if room.time_control else "Seats"
        if heading != self.heading:
            self.heading = heading
            self.query_one("#seats-heading", Label).update(heading)
        if lines != self.shown:
            seats = self.query_one("#seat-list", ListView)
            if [colour for colour, _ in lines] == [colour for colour, _ in self.shown]:
                for label, (_, line) in zip(self.labels, lines, strict=True):
                    label.update(line)  # kept, not queried: it may not be mounted yet
            else:
                seats.clear()
                self.labels = [Label(line) for _, line in lines]
                seats.extend(
                    ListItem(label, name=colour)
                    for label, (colour, _) in zip(self.labels, lines, strict=True)
                )
            self.shown = lines
        rated = self.query_one("#rated", Static)
        rated.update(counts_words(room.view))
        rated.display = bool(counts_words(room.view))
        controls = self.query_one("#host-controls")
        controls.display = room.host and room.status == "waiting"

    def line_of(self, colour: str) -> Text | None:
        """The line shown for `colour`'s seat, with its clock."""
        return next((line for shown, line in self.shown if shown == colour), None)

    def on_list_view_selected(self, event: ListView.Selected) -> None:
        if event.item.name is not None:
            self.post_message(self.SeatClicked(event.item.name))

    def on_select_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self.level = event.value
