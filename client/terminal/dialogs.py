"""Questions put to the player over the room."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

NAME_LENGTH = 32
"""Characters in a name, as the server takes them."""
NAMES = 12
"""The width of the commands' names in the F1 list: a longer name (Let the computer play
Black) runs into its own line's description rather than pushing every line to wrap."""


class ProposalScreen(ModalScreen[bool]):
    """Another person asks something of the game (an undo, a new game or rematch, a draw, a
    hand-over): agree or not. It comes unasked, perhaps while this player types, so no
    letter answers it and Enter declines, whatever it asks: Tab to Agree and Enter, or a
    click, agrees."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(False)", "Decline")]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="question"):
            yield Static(self.question, id="words")
            with Horizontal():
                yield Button("Agree (Tab, Enter)", id="agree", variant="success")
                yield Button("Decline (Enter, Esc)", id="decline", variant="error")

    def on_mount(self) -> None:
        self.query_one("#decline", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "agree")


class SeatScreen(ModalScreen[tuple[str, str | None] | None]):
    """Who is to hold a seat: a person at this screen, the computer at a level, or nobody;
    as the originals' Human/Computer menu for each piece. Answers (holder, level)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h,H", "choose('human')", "Human"),
        Binding("c,C", "choose('bot')", "Computer"),
        Binding("o,O", "choose('open')", "Open"),
        Binding("escape", "dismiss(None)", "Cancel"),
    ]

    def __init__(self, seat: str, now: str, levels: Sequence[str], level: str) -> None:
        super().__init__()
        self.seat = seat
        self.now = now
        self.levels = list(levels)
        self.level = level

    def compose(self) -> ComposeResult:
        with Vertical(id="question"):
            yield Label(f"{self.seat}: {self.now}", classes="heading")
            yield Select(
                [(f"level {level}", level) for level in self.levels],
                value=self.level,
                allow_blank=False,
                id="seat-level",
            )
            with Horizontal():
                yield Button("Human (H)", id="human", variant="primary")
                yield Button("Computer (C)", id="bot", variant="success")
                yield Button("Open (O)", id="open")
                yield Button("Cancel (Esc)", id="cancel")

    def on_select_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self.level = event.value

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "cancel":
            self.dismiss(None)
        elif event.button.id is not None:
            self.action_choose(event.button.id)

    def action_choose(self, holder: str) -> None:
        self.dismiss((holder, self.level if holder == "bot" else None))


class QuitScreen(ModalScreen[str | None]):
    """Leaving asks first, and says how to come back: `leave` keeps the seats, `give_up`
    hands them back to the room for good; None stays. Stay has the focus and no letter
    leaves, so that a sentence typed on the board ("Quit it, you!") leaves nobody: Tab
    to Leave and Enter, or a click, does."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Stay")]

    def __init__(self, words: str, *, may_give_up: bool) -> None:
        super().__init__()
        self.words = words
        self.may_give_up = may_give_up

    def compose(self) -> ComposeResult:
        with Vertical(id="question"):
            yield Static(self.words, id="words")
            with Horizontal():
                yield Button("Leave (Tab, Enter)", id="leave", variant="primary")
                if self.may_give_up:
                    yield Button("Give up my seats", id="give_up", variant="error")
                yield Button("Stay (Enter, Esc)", id="stay")

    def on_mount(self) -> None:
        self.query_one("#stay", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None if event.button.id == "stay" else event.button.id)


class CoinScreen(ModalScreen[str | None]):
    """Heads or tails for who moves first, as Doublolo asked; None leaves it to the board."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h,H", "dismiss('heads')", "Heads"),
        Binding("t,T", "dismiss('tails')", "Tails"),
        Binding("escape", "dismiss(None)", "Let the board decide"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="question"):
            yield Label("Call the coin: whoever wins it moves first.")
            with Horizontal():
                yield Button("Heads (H)", id="heads", variant="primary")
                yield Button("Tails (T)", id="tails", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)


class InitialsScreen(ModalScreen[str | None]):
    """A new best score: the player types their initials for the score card, as Tribolo
    asked; Escape leaves the ones taken from the name. It sits in a corner, the final
    position in full view."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Skip")]

    def __init__(self, words: str) -> None:
        super().__init__()
        self.words = words

    def compose(self) -> ComposeResult:
        with Vertical(id="question"):
            yield Static(self.words, id="words")
            yield Input(placeholder="ABC", max_length=3, id="initials")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        typed = event.value.strip()
        if typed.isalnum():
            self.dismiss(typed.upper())


class ConfirmScreen(ModalScreen[bool]):
    """A yes-or-no question about something that cannot be taken back; Enter does it,
    unless `careful`: then Enter keeps things as they are, and only Tab to the first
    button then Enter (or a click) does it, so that a sentence typed on the board that
    asked it by accident, letters and Enter, answers no."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(False)", "No")]

    def __init__(self, words: str, doing: str, *, careful: bool = False) -> None:
        super().__init__()
        self.words = words
        self.doing = doing
        self.careful = careful

    def compose(self) -> ComposeResult:
        with Vertical(id="question"):
            yield Static(self.words, id="words")
            with Horizontal():
                keys = "Tab, Enter" if self.careful else "Enter"
                yield Button(f"{self.doing} ({keys})", id="yes", variant="primary")
                yield Button("No (Enter, Esc)" if self.careful else "No (Esc)", id="no")

    def on_mount(self) -> None:
        self.query_one("#no" if self.careful else "#yes", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


@dataclass(frozen=True)
class Command:
    """One command of the room as the F1 list shows it: its key (empty when it has none),
    name, what it does, and the screen action it runs."""

    key: str
    name: str
    does: str
    action: str


class CommandsScreen(ModalScreen[str | None]):
    """Every command the room offers now, with its key: arrows and Enter (or a click) run
    one, so a terminal whose function keys are taken still reaches them all. Answers the
    action to run, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,ctrl+p", "dismiss(None)", "Close"),
    ]
    BOARD_KEYS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("arrows", "move the cursor on the board"),
        ("Enter", "play there, as a click does (or pick a piece, then where it goes)"),
        ("typing", "goes to the chat line: Enter sends it, Escape goes back to the board"),
        ("Tab", "the chat line"),
    )

    def __init__(self, commands: Sequence[Command]) -> None:
        super().__init__()
        self.commands = list(commands)

    def compose(self) -> ComposeResult:
        width = max((len(command.key) for command in self.commands), default=0)
        named = min(max((len(command.name) for command in self.commands), default=0), NAMES)
        options = [
            Option(
                Text.assemble(
                    (f"{c.key:<{width}}  {c.name:<{named}}  ", "bold"),
                    c.does,
                    no_wrap=True,
                    overflow="ellipsis",
                ),
                id=c.action,
            )
            for c in self.commands
        ]
        table = Table(box=None, show_header=False, padding=(0, 2, 0, 0), expand=True)
        table.add_column(style="bold", no_wrap=True)
        table.add_column(ratio=1)
        for key, does in self.BOARD_KEYS:
            table.add_row(key, does)
        with Vertical(classes="dialog", id="commands-dialog"):
            yield Label("Commands (Enter runs the one chosen)", classes="heading")
            yield OptionList(*options, id="commands")
            yield Label("On the board", classes="heading")
            yield Static(table, id="keys")
            yield Label("Escape closes this.")

    def on_mount(self) -> None:
        self.query_one("#commands", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)


class NameScreen(ModalScreen[str | None]):
    """The server said the name is another player's: another name to say hello with, or
    None (Escape) to stop trying."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Stop")]

    def __init__(self, taken: str) -> None:
        super().__init__()
        self.taken = taken

    def compose(self) -> ComposeResult:
        with Vertical(id="question"):
            yield Static(
                f"The name {self.taken} belongs to another player on this server."
                " Which name will you play under? (Enter; Escape stops)",
                id="words",
            )
            yield Input(placeholder="another name", max_length=NAME_LENGTH, id="new-name")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        name = event.value.strip()
        if name and name.casefold() != self.taken.casefold():
            self.dismiss(name)


class PeopleScreen(ModalScreen[int | None]):
    """Whom a per-person command is about: the people in the room but this screen's
    (seated, watching, heard in its chat), to choose one with the arrows and Enter. Answers
    the index of the one chosen, or None (Escape). Choosing only asks what next."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Close")]

    def __init__(self, people: Sequence[str]) -> None:
        super().__init__()
        self.people = list(people)

    def compose(self) -> ComposeResult:
        with Vertical(id="question"):
            yield Static("Who? (arrows and Enter choose; Escape closes)", id="words")
            yield OptionList(
                *(Option(line, id=str(index)) for index, line in enumerate(self.people)),
                id="people",
            )

    def on_mount(self) -> None:
        self.query_one("#people", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))


class PersonScreen(ModalScreen[str | None]):
    """What to do about one person: `choices` are (answer, name, what it does), listed under
    "Nothing", which has the focus, so Enter alone changes nothing; arrows down to another
    and Enter choose it. Answers the choice, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Nothing")]
    NOTHING = "nothing"

    def __init__(self, words: str, choices: Sequence[tuple[str, str, str]]) -> None:
        super().__init__()
        self.words = words
        self.choices = [(self.NOTHING, "Nothing", "close this (Enter, Esc)"), *choices]

    def compose(self) -> ComposeResult:
        named = max(len(name) for _, name, _ in self.choices)
        with Vertical(id="question"):
            yield Static(self.words, id="words")
            yield OptionList(
                *(
                    Option(
                        Text.assemble(
                            (f"{name:<{named}}  ", "bold"),
                            does,
                            no_wrap=True,
                            overflow="ellipsis",
                        ),
                        id=answer,
                    )
                    for answer, name, does in self.choices
                ),
                id="choices",
            )

    def on_mount(self) -> None:
        choices = self.query_one("#choices", OptionList)
        choices.highlighted = 0
        choices.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        chosen = event.option.id
        self.dismiss(None if chosen in (None, self.NOTHING) else chosen)


class ReportScreen(ModalScreen[str | None]):
    """Why a person is reported, typed into a field: Enter sends what is typed (nothing is
    sent while it is empty), Escape sends nothing. Answers the reason as typed."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, name: str, most: int) -> None:
        super().__init__()
        self.person = name
        self.most = most

    def compose(self) -> ComposeResult:
        with Vertical(id="question"):
            yield Static(
                f"Report {self.person} to this server's operators. Why? They read your reason"
                " with the game and the room's recent chat. (Enter sends it; Escape does not)",
                id="words",
            )
            yield Input(placeholder="the reason", max_length=self.most, id="reason")

    def on_mount(self) -> None:
        self.query_one("#reason", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self.dismiss(event.value)
