"""The player's own place: who they are on this server, the address "your turn" mail goes
to with its code and the hours between digests (protocol.md 2.13, on a server that sends
mail), and their vacation (2.12). What is typed is checked here first, so that nothing the
server would refuse for its shape is sent; what only the server can judge (the code, the
codes an hour, the days left) comes back in its words beside the field that asked.
"""

import time
from collections.abc import Callable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Static

from parlour.protocol import messages as m
from parlour.protocol.fields import CODE_DIGITS

from ..connection import Connection, ConnectionLostError, RefusedError
from ..invocation import parlour_command
from .accountwords import (
    EXAMPLE_ADDRESS,
    AccountInputError,
    email_words,
    read_address,
    read_code,
    read_days,
    read_hours,
    refusal_words,
    sentence,
    take_question,
    vacation_words,
)
from .clocks import date_words
from .dialogs import ConfirmScreen


class AccountScreen(Screen[None]):
    """The player's account: name and id, email (where the server sends mail) and vacation.
    Escape goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back"),
    ]
    DEFAULT_CSS = """
    AccountScreen #account { padding: 0 1; }
    AccountScreen .heading { margin-top: 1; }
    AccountScreen Horizontal { height: auto; }
    AccountScreen .name { width: 10; padding: 1 1 0 0; }
    AccountScreen .unit { width: auto; padding: 1 1 0 1; }
    AccountScreen #address { width: 40; }
    AccountScreen #code, AccountScreen #hours, AccountScreen #days { width: 20; }
    AccountScreen Button { margin-left: 1; min-width: 8; }
    AccountScreen .said { color: $text-error; height: auto; }
    AccountScreen .said.-done { color: $text-success; }
    """

    def __init__(self, connection: Connection, now: Callable[[], float] = time.time) -> None:
        super().__init__()
        self.connection = connection
        self.now = now
        """The wall clock dates are said from (Unix seconds)."""
        self.email: m.EmailReply | None = None
        self.vacation: m.VacationReply | None = None

    @property
    def player(self) -> dict[str, object] | None:
        welcome = self.connection.welcome
        return welcome.player if welcome is not None else None

    @property
    def mails(self) -> bool:
        """Whether email is offered: the server sends mail, and this is a player."""
        welcome = self.connection.welcome
        return welcome is not None and welcome.email and self.player is not None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="account"):
            yield Label("Your account", classes="heading")
            yield Static(self._who(), id="who")
            yield Label("Email", classes="heading")
            yield Static("", id="email-state")
            with Vertical(id="email-rows"):
                with Horizontal():
                    yield Label("Address", classes="name")
                    yield Input(placeholder=EXAMPLE_ADDRESS, id="address", max_length=254)
                    yield Button("Send code", id="send-code", variant="primary")
                    yield Button("Remove", id="remove")
                yield Static("", id="address-said", classes="said")
                with Horizontal():
                    yield Label("Code", classes="name")
                    yield Input(placeholder="6 digits", id="code", max_length=40)
                    yield Button("Confirm", id="confirm", variant="primary")
                yield Static("", id="code-said", classes="said")
                with Horizontal():
                    yield Label("Digests", classes="name")
                    yield Input(placeholder="24", id="hours", max_length=20)
                    yield Label("hours apart at least", classes="unit")
                    yield Button("Set", id="set-hours")
                yield Static("", id="hours-said", classes="said")
            yield Label("Vacation", classes="heading")
            yield Static("", id="vacation-state")
            with Vertical(id="vacation-rows"):
                with Horizontal():
                    yield Label("Take", classes="name")
                    yield Input(placeholder="days", id="days", max_length=20)
                    yield Label("days", classes="unit")
                    yield Button("Take", id="take", variant="primary")
                    yield Button("End it now", id="end")
                yield Static("", id="days-said", classes="said")
        yield Footer(compact=True)

    def _who(self) -> str:
        player = self.player
        if player is None:
            return (
                "You play as a guest here: no name or games are kept as yours, and email and"
                f" vacations are a player's. Start {parlour_command()} without --guest to play"
                " with your player key."
            )
        return (
            f"{player.get('name')}, player id {player.get('id')}. Your player key proves it:"
            f" `{parlour_command()} key` shows it, to play as you on another machine."
        )

    def on_mount(self) -> None:
        welcome = self.connection.welcome
        email_state = self.query_one("#email-state", Static)
        self.query_one("#email-rows").display = self.mails
        self.query_one("#vacation-rows").display = self.player is not None
        if welcome is None or not welcome.email:
            email_state.update("This server sends no mail: its operator has not set it up.")
        elif self.player is None:
            email_state.update(
                "This server can mail a player when games wait on their move; a guest has no"
                " address: a player key is needed."
            )
        else:
            email_state.update("Asking the server...")
            self._ask(m.GetEmail(), "#email-state", self._got_email)
        if self.player is None:
            self.query_one("#vacation-state", Static).update(
                "A vacation stops the clocks of a player's games of days per move: a player"
                " key is needed."
            )
        else:
            self.query_one("#vacation-state", Static).update("Asking the server...")
            self._ask(m.GetVacation(), "#vacation-state", self._got_vacation)
        if self.mails:
            self.query_one("#address", Input).focus()
        elif self.player is not None:
            self.query_one("#days", Input).focus()

    def _ask(
        self,
        request: m.ClientMessage,
        said: str,
        then: Callable[[m.ServerMessage], None],
    ) -> None:
        """Send `request` in a worker; its answer to `then`, a refusal (or a lost
        connection) in words at `said`, the place beside the field that asked."""

        async def exchange() -> None:
            try:
                answer = await self.connection.request(request)
            except RefusedError as refused:
                self.tell(said, refusal_words(refused))
                return
            except ConnectionLostError as lost:
                self.tell(said, f"{sentence(str(lost))} That may not have reached the server.")
                return
            then(answer)

        self.run_worker(exchange(), group="account")

    def tell(self, said: str, words: str, *, done: bool = False) -> None:
        """Words at `said`: a refusal (in the error colour), or what was done."""
        if not self.is_mounted:
            return
        place = self.query_one(said, Static)
        place.update(words)
        place.set_class(done, "-done")

    def _got_email(self, answer: m.ServerMessage) -> None:
        if isinstance(answer, m.EmailReply):
            self.email = answer
            self.query_one("#email-state", Static).update(email_words(answer))
            address = self.query_one("#address", Input)
            if not address.value and answer.address is not None:
                address.value = answer.address
            hours = self.query_one("#hours", Input)
            if not hours.value:
                hours.value = str(answer.digest_hours)

    def _got_vacation(self, answer: m.ServerMessage) -> None:
        if isinstance(answer, m.VacationReply):
            self.vacation = answer
            words = vacation_words(answer, self.now())
            self.query_one("#vacation-state", Static).update(words)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        actions: dict[str | None, Callable[[], None]] = {
            "address": self.action_send_code,
            "code": self.action_confirm,
            "hours": self.action_set_hours,
            "days": self.action_take,
        }
        action = actions.get(event.input.id)
        if action is not None:
            action()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions: dict[str | None, Callable[[], None]] = {
            "send-code": self.action_send_code,
            "remove": self.action_remove,
            "confirm": self.action_confirm,
            "set-hours": self.action_set_hours,
            "take": self.action_take,
            "end": self.action_end,
        }
        action = actions.get(event.button.id)
        if action is not None:
            action()

    def _typed(self, field: str, said: str, read: Callable[[str], object]) -> object | None:
        """What `field` holds, read by `read`; None (and why, at `said`) if it is not that."""
        try:
            return read(self.query_one(field, Input).value)
        except AccountInputError as error:
            self.tell(said, str(error))
            self.query_one(field, Input).focus()
            return None

    def action_send_code(self) -> None:
        """The address typed, kept by the server, which mails it a code."""
        address = self._typed("#address", "#address-said", read_address)
        if not isinstance(address, str):
            return
        email = self.email
        if email is not None and email.verified and email.address == address:
            self.tell("#address-said", f"Mail goes to {address} already: it is confirmed.")
            return

        def sent(answer: m.ServerMessage) -> None:
            self._got_email(answer)
            self.tell(
                "#address-said",
                f"A code was mailed to {address}: type its {CODE_DIGITS} digits below (it"
                " works for an hour).",
                done=True,
            )
            self.tell("#code-said", "")
            self.query_one("#code", Input).focus()

        self.tell("#address-said", "Asking the server to mail a code...", done=True)
        self._ask(m.SetEmail(address=address), "#address-said", sent)

    def action_remove(self) -> None:
        """No address: no more mail. Asked first."""
        email = self.email
        if email is None or email.address is None:
            self.tell("#address-said", "There is no address to remove.")
            return

        def removed(answer: m.ServerMessage) -> None:
            self._got_email(answer)
            self.query_one("#address", Input).value = ""
            self.tell("#address-said", f"{email.address} is removed: no more mail.", done=True)

        def answered(sure: bool | None) -> None:
            if sure:
                self._ask(m.SetEmail(), "#address-said", removed)

        words = f"Remove {email.address}? No more mail goes to it."
        self.app.push_screen(ConfirmScreen(words, "Remove"), answered)

    def action_confirm(self) -> None:
        """The code mailed, sent back to confirm the address."""
        email = self.email
        if email is None or email.address is None:
            self.tell("#code-said", "Give your address first: the code is mailed to it.")
            return
        if email.verified:
            self.tell("#code-said", f"{email.address} is confirmed already: no code is needed.")
            return
        code = self._typed("#code", "#code-said", read_code)
        if not isinstance(code, str):
            return

        def confirmed(answer: m.ServerMessage) -> None:
            self._got_email(answer)
            self.query_one("#code", Input).value = ""
            if isinstance(answer, m.EmailReply) and answer.verified:
                self.tell("#address-said", "")
                self.tell("#code-said", f"Confirmed: mail goes to {answer.address}.", done=True)

        self._ask(m.VerifyEmail(code=code), "#code-said", confirmed)

    def action_set_hours(self) -> None:
        """The least hours between two digests, kept with the address as it is."""
        hours = self._typed("#hours", "#hours-said", read_hours)
        if not isinstance(hours, int):
            return
        email = self.email
        if email is not None and email.address is not None and not email.verified:
            self.tell(
                "#hours-said",
                "Confirm your address first: set now, the hours would mail you another code.",
            )
            return
        address = email.address if email is not None else None

        def set_hours(answer: m.ServerMessage) -> None:
            self._got_email(answer)
            self.tell("#hours-said", f"Digests at most every {hours} hours.", done=True)

        self._ask(m.SetEmail(address=address, digest_hours=hours), "#hours-said", set_hours)

    def action_take(self) -> None:
        """Days of vacation from now, once the player says so."""
        now = self.now()
        vacation = self.vacation
        available = m.MAX_VACATION_DAYS
        if vacation is not None and vacation.until is None:
            available = vacation.days_left

        def read(typed: str) -> int:
            return read_days(typed, available)

        days = self._typed("#days", "#days-said", read)
        if not isinstance(days, int):
            return

        def answered(sure: bool | None) -> None:
            if sure:
                self._vacation(m.TakeVacation(days=days))
            else:
                self.tell("#days-said", "No vacation taken.")

        self.tell("#days-said", "")
        question = ConfirmScreen(take_question(days, vacation, now), "Take it")
        self.app.push_screen(question, answered)

    def action_end(self) -> None:
        """The vacation on ended now, its whole days not begun given back."""
        vacation = self.vacation
        if vacation is None or vacation.until is None:
            self.tell("#days-said", "You are not on vacation.")
            return

        def answered(sure: bool | None) -> None:
            if sure:
                self._vacation(m.TakeVacation(days=0))

        words = "End your vacation now? Your clocks run again; its whole days not begun come back."
        self.app.push_screen(ConfirmScreen(words, "End it"), answered)

    def _vacation(self, request: m.TakeVacation) -> None:
        def taken(answer: m.ServerMessage) -> None:
            self._got_vacation(answer)
            if not isinstance(answer, m.VacationReply):
                return
            self.query_one("#days", Input).value = ""
            if answer.until is None:
                self.tell("#days-said", "Your vacation is over: your clocks run again.", done=True)
            else:
                until = date_words(answer.until, since_s=self.now())
                self.tell("#days-said", f"Taken: your clocks stand still till {until}.", done=True)

        self._ask(request, "#days-said", taken)
