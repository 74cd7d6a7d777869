"""The terminal client: a lobby of public rooms and a room screen to play or watch in.

The connection's events are read by a worker, and every request runs in a worker of its
own, so the screen never waits on the network. Nothing here knows a game's rules: the
board is drawn from the server's observations and moves are checked by the server.
"""

import asyncio
import itertools
import re
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Button, Footer, Header, Input, Label, RichLog, Static

from parlour.protocol import ErrorCode
from parlour.protocol import messages as m
from parlour.protocol.messages import MAX_CHAT

from ..connection import (
    Connection,
    ConnectionLostError,
    Dropped,
    Event,
    Reconnected,
    RefusedError,
    invitation,
    join_command,
)
from ..seatbook import SeatBook, SeatBookError
from .account import AccountScreen
from .accountwords import sentence
from .cards import ScoreCardScreen
from .conduct import (
    BLOCK_WORDS,
    REASON_MOST,
    REMOVED_WORDS,
    Person,
    Present,
    Standing,
    changed_words,
    clean_reason,
    people_in,
    refused_words,
    seated_person,
    standing_words,
)
from .dialogs import (
    CoinScreen,
    Command,
    CommandsScreen,
    ConfirmScreen,
    InitialsScreen,
    NameScreen,
    PeopleScreen,
    PersonScreen,
    ProposalScreen,
    QuitScreen,
    ReportScreen,
    SeatScreen,
)
from .files import ImportScreen, LoadScreen, SaveScreen, export_path
from .history import history_lines
from .leaderboard import you
from .lobby import LobbyScreen
from .mygames import MyGamesScreen, your_turn_words
from .ratings import changes_words
from .replay import ReplayScreen, ask_replay
from .room import (
    RoomModel,
    chat_words,
    coin_words,
    default_level_in,
    describe_holder,
    describe_search,
    levels_in,
    title,
)
from .rules_page import RulesScreen
from .widgets import BoardView, SeatsPanel

SUGGEST_MS = 2000
"""How long "Suggest a move" lets the search think."""
SIDE_LEAST = 32
"""Columns the side panel needs beside the board; with fewer, it goes below."""
SHORT = 30
"""Rows under which the room is drawn tight: no title bar, small margins, short tiles."""
REJOIN_ATTEMPTS = 30
REJOIN_PAUSE = 1.0
"""Seconds between asking again for a room that is moving between a cluster's servers."""
UNCLAIMED_KEPT = 64
YOUR_TURN_SECONDS = 30.0
"""How long the notice that a room waits on this player's move stays up."""
WATCHING_WORDS = "You are watching this game, not playing: what you type goes to the watchers."
WATCHERS_HEADING = "You are watching, not playing. The watchers' chat:"
HOST_PEOPLE = "mute, block, report or send out someone here"
"""What People does for the host, who may also send a watcher out or open a seat."""
SAY = "Say something (Enter sends)"
SAY_WATCHING = "Say something to the watchers (Enter sends)"


def hand_over_refused(colour: str) -> Callable[[RefusedError], str]:
    """Why the computer may not play `colour` now, as the server's refusal says."""

    def words(refused: RefusedError) -> str:
        if refused.code == ErrorCode.NOT_AWAY:
            return f"{title(colour)}'s player is not away now: nothing was handed over."
        if refused.code == ErrorCode.GAME_OVER:
            return "The game is over: nothing was handed over."
        return sentence(refused.error.message)

    return words


def server_words(refused: RefusedError) -> str:
    """A refusal as the server words it, as a sentence."""
    return refused_words(refused.code, refused.error.message) or sentence(refused.error.message)


def plain_words(refused: RefusedError) -> str:
    """A refusal as the server words it, but those about who may be in a room (blocked, sent
    out), which read as plain sentences."""
    return refused_words(refused.code, refused.error.message) or refused.error.message


def dropped_words(dropped: Dropped) -> str:
    """Why the connection dropped, and whether the client is dialling again."""
    if dropped.final:
        return f"Connection lost: {dropped.reason}."
    return f"Connection lost ({dropped.reason}); reconnecting..."


class RoomScreen(Screen[None]):
    """One room: board, seats, thoughts, what happened, and whose turn it is."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "f1,ctrl+p",
            "commands",
            "Commands",
            key_display="F1",
            tooltip="every command, to choose one (Ctrl+P too)",
        ),
        Binding("f2", "hint('possible')", "Possible", tooltip="the moves you may play, marked"),
        Binding(
            "f3",
            "hint('best')",
            "Best",
            tooltip="the greediest move now (not always the best), marked",
        ),
        Binding("f4", "suggest", "Suggest", tooltip="the strongest computer player suggests"),
        Binding("f5", "undo", "Undo", tooltip="take back your last move (others are asked)"),
        Binding("f6", "new_game", "New", tooltip="a new game (others are asked)"),
        Binding("f7", "score_card", "Card", tooltip="the score card"),
        Binding(
            "f8",
            "replay",
            "Replay",
            tooltip="step through the game just played, with charts (once it is over)",
        ),
        Binding("f9", "start", "Start", tooltip="start the game (the host)"),
        Binding(
            "f9",
            "rematch",
            "Rematch",
            tooltip="play again, everyone one seat on, so another moves first",
        ),
        Binding("f10", "leave", "Quit", tooltip="leave the room (asks first)"),
        Binding("f11", "fill", "Fill", tooltip="computer players in the open seats (the host)"),
        Binding("f12", "rules", "Rules", tooltip="how to play this game"),
        Binding("escape", "board", "Board", show=False),
    ]
    """Commands are on keys that type nothing, so that no sentence typed anywhere runs one:
    the function keys, and F1 (or Ctrl+P, where the terminal takes the function keys) for
    the list of every command. Text typed on the board goes to the chat."""
    MENU_ONLY: ClassVar[tuple[tuple[str, str, str], ...]] = (
        ("offer_draw", "Offer draw", "ask the others to end the game as it stands"),
        ("resign", "Resign", "give up this game (asks first)"),
        ("abort", "Abort", "end the game for nobody, before everyone has moved"),
        ("claim", "Claim", "win the game: everyone else is away (asks first)"),
        ("people", "People", "mute, block or report someone here"),
        ("watchers_chat", "Watchers", "show or hide the watchers' chat, kept apart"),
        ("thinking", "Thinking", "show or hide the computer's thinking"),
        ("save", "Save", "save the game on the server"),
        ("load", "Load", "load a saved game"),
        ("export", "Export", "write the game to a file here"),
        ("import_file", "Import", "play on from a game file"),
        ("invite", "Join info", "how friends join: the command and the link"),
        ("sound", "Sound", "the bell on or off"),
        ("account", "Account", "your email and your vacation"),
    )
    """Commands used seldom enough to live in the F1 list alone: (action, name, what). No
    key runs them, so no sentence typed on the board can: it goes to the chat line."""
    SEATED_ONLY: ClassVar[frozenset[str]] = frozenset(
        {"hint", "suggest", "undo", "new_game", "rematch", "load", "import_file"}
    )
    """What only a seated person may ask, so not offered to watchers."""

    def __init__(self, connection: Connection, room: RoomModel, *, start: bool = False) -> None:
        super().__init__()
        self.connection = connection
        self.room = room
        self.start_now = start
        """Start the game as the screen comes up (`parlour play`), calling the coin first."""
        self.show_thinking = False
        self.show_invite = False
        """Whether Join info asked for the join command once the game has started."""
        self.previewed: tuple[tuple[object, ...] | None, dict[str, Any] | None] = (None, None)
        """The waiting room's set-up last shown, and the board it deals."""
        self.flash = ""
        """A message about the player's own last action (an error, a reconnection)."""
        self.composed = False
        """Whether the widgets are up to be drawn on; until then only the room is kept."""
        self.held: list[tuple[ModalScreen[Any], Callable[[Any], None]]] = []
        self.asking: str | None = None
        """The proposal this screen asks its person about and awaits the answer to: one
        sent again (to a connection coming back into the room) is not asked twice."""
        """Questions that came while a chat line was being written (`_ask_unbidden`)."""
        self.ratings_told: tuple[int, str] | None = None
        """The rating changes last written to the log, so each is written once."""
        self.ticking: Timer | None = None
        """When the running clock is drawn again: as its figure next changes."""
        self.watchers_seen = 0
        """How many of the watchers' lines (`RoomModel.watchers_said`) this player has seen:
        those after came while their chat was hidden."""

    @property
    def parlour(self) -> "ParlourApp":
        app = self.app
        assert isinstance(app, ParlourApp)
        return app

    @property
    def levels(self) -> list[str]:
        return levels_in(self.connection.welcome, self.room.game) or ["easy"]

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            yield BoardView(id="board")
            with Vertical(id="side"):
                levels = self.levels
                level = default_level_in(self.connection.welcome, self.room.game, levels)
                yield SeatsPanel(levels, level, id="seats")
                yield Static("", id="watchers")
                yield Static("", id="thoughts")
                # Wrapped at the panel's width: RichLog's own least is 78 columns, and a
                # long line beside a wide board ran off the screen.
                yield RichLog(id="log", max_lines=200, wrap=True, min_width=20)
                with Vertical(id="watch-pane"):
                    yield Label("", classes="heading", id="watch-heading")
                    yield RichLog(id="watch-log", max_lines=200, wrap=True, min_width=20)
                yield Input(placeholder=SAY, id="chat", max_length=MAX_CHAT, select_on_focus=False)
        # The whole width, a line each: a command that wrapped would not paste whole.
        yield Static("", id="invite")
        yield Static("", id="status")
        yield Footer(compact=True)

    def on_unmount(self) -> None:
        self.composed = False

    @property
    def drawable(self) -> bool:
        """Whether the widgets are up: not before mounting, nor while being taken down."""
        return self.composed and bool(self.query("#status"))

    def on_mount(self) -> None:
        self.composed = True
        self._tell_history()
        if self.room.watcher:
            self.flash = WATCHING_WORDS
            self.log_line(WATCHING_WORDS)
        self.redraw(board=True)
        self._arrange()
        if self.start_now:
            self.action_start()
        self.query_one(BoardView).focus()
        if self.room.my_turn:
            self.app.bell()
        self.query_one("#invite", Static).update(self.invite_words())

    def invite_words(self) -> str:
        """How friends come into this room: the command, and the page's link, at the
        address other machines reach the server by."""
        return invitation(self.connection, self.room.ref)

    def redraw(self, *, board: bool) -> None:
        """Show the room as it now is; before the screen is up, mounting will, and once it
        is being taken down there is nothing to draw on."""
        if not self.drawable:
            return
        room = self.room
        playing = " and ".join(title(colour) for colour in room.playing)
        watching = f"playing {playing}" if playing else "watching"
        self.sub_title = f"{room.game.capitalize()}, {watching}"
        if board:
            had_board = self.query_one(BoardView).board is not None
            self.query_one(BoardView).show(room.observation or self._preview(), room.seat)
            if not had_board:
                self._arrange()
        self._draw_clocks()
        thoughts = self.query_one("#thoughts", Static)
        if room.thinking is not None:
            thoughts.update(f"{room.thinking_of}: {describe_search(room.game, room.thinking)}")
        else:
            thoughts.update("")
        status = room.status_line()
        self.query_one("#status", Static).update(f"{self.flash or room.news}\n{status}")
        self._draw_watchers()
        self.query_one("#invite", Static).display = room.status == "waiting" or self.show_invite
        self.refresh_bindings()

    @property
    def watchers_shown(self) -> bool:
        """Whether the watchers' chat is on screen: always for a watcher; for anyone else
        once they chose to see it (remembered for as long as the client runs)."""
        return self.room.watcher or self.parlour.show_watchers

    def _draw_watchers(self) -> None:
        """Who watches, marked where muted or blocked, with how many of their lines this
        player has not seen; their chat apart from the players', where it is shown."""
        room = self.room
        names, me = [], self.me
        for person in room.watchers:
            mark = "you" if person.among(me) else room.standing.mark(person)
            names.append(f"{person.name} ({mark})" if mark else person.name)
        parts = [f"Watching: {', '.join(names)}."] if names else []
        shown = self.watchers_shown
        unseen = self.unseen
        if unseen and not shown:
            lines = "A line" if unseen == 1 else f"{unseen} lines"
            hidden = "is" if unseen == 1 else "are"
            parts.append(f"{lines} from the watchers {hidden} hidden: F1, Watchers.")
        watchers = self.query_one("#watchers", Static)
        watchers.update(" ".join(parts))
        watchers.display = bool(parts)
        self.query_one("#watch-pane").display = shown
        heading = WATCHERS_HEADING if room.watcher else "The watchers' chat:"
        self.query_one("#watch-heading", Label).update(heading)
        self.query_one("#chat", Input).placeholder = SAY_WATCHING if room.watcher else SAY

    @property
    def unseen(self) -> int:
        """The watchers' lines not seen, but those of people muted or blocked since."""
        said = self.room.watchers_said[self.watchers_seen :]
        return sum(1 for person, _ in said if not self.room.standing.hides(person))

    def _watcher_said(self, words: str) -> None:
        """A watcher's line: in their chat where it is shown, else left to be counted."""
        if self.watchers_shown:
            self.query_one("#watch-log", RichLog).write(words)
            self.watchers_seen = len(self.room.watchers_said)

    def action_watchers_chat(self) -> None:
        """Show the watchers' chat beside the players', with what they said so far, or hide
        it again; the choice holds for every room till the client quits."""
        app = self.parlour
        app.show_watchers = not app.show_watchers
        if app.show_watchers:
            self._fill_watchers_chat()
            self.say("Showing what the watchers say, apart from the players' chat.")
        else:
            self.say("The watchers' chat is hidden.")

    def _fill_watchers_chat(self) -> None:
        watched = self.query_one("#watch-log", RichLog)
        watched.clear()
        for line in self.room.watchers_lines():
            watched.write(line)
        self.watchers_seen = len(self.room.watchers_said)

    def _draw_clocks(self) -> None:
        """The seats with their clocks as they are now, and again as soon as the running
        one's figure changes: ten times a second below ten seconds, else once a second or
        less; corrected from each message that carries a clock (the room's model)."""
        if self.ticking is not None:
            self.ticking.stop()
            self.ticking = None
        if not self.drawable:
            return
        now = self.room.now()
        self.query_one(SeatsPanel).show(self.room, now)
        clocks = self.room.clocks
        wait = clocks.next_change(now) if clocks is not None else None
        if wait is not None:
            self.ticking = self.set_timer(max(wait, 0.01), self._draw_clocks)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Watchers are not offered what only a seated person may ask (the host may still
        load a game); a game is replayed, or played again, once it is over; it is resigned,
        aborted or offered drawn by a person playing it, while the room allows it."""
        if action == "replay":
            return self.room.status == "finished"
        if action == "rematch":
            return self.room.status == "finished" and bool(self.room.playing)
        if action in ("fill", "start"):
            return self.room.host and self.room.status == "waiting"
        if action == "resign":
            return self.room.may_resign
        if action == "abort":
            return self.room.may_abort
        if action == "offer_draw":
            return self.room.may_offer_draw
        if action == "claim":
            return self.room.may_claim
        if action == "watchers_chat":
            return not self.room.watcher
        if action not in self.SEATED_ONLY or self.room.playing:
            return True
        return self.room.host and action in ("load", "import_file")

    def take(self, event: Event) -> None:
        """A message or connection event from the app's reader."""
        if isinstance(event, Dropped):
            self.say(dropped_words(event), error=event.final)
            return
        if isinstance(event, Reconnected):
            self.run_worker(self._rejoin(), group="rejoin", exclusive=True)
            return
        if isinstance(event, m.Removed):
            if event.room == self.room.room_id:
                self.parlour.sent_out()
            return
        could_claim = self.room.may_claim
        was_my_turn = self.room.my_turn
        was_waiting = self.room.status == "waiting"
        was_playing = self.room.status == "playing"
        before = self.room.version
        coin = self.room.view.get("coin")
        out = self.room.out
        try:
            if not self.room.apply(event):
                return
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            self.say(f"The server sent {event.TYPE!r} that this client cannot read: {error}")
            return
        self.parlour.keep_seats(self.room)
        tossed = self.room.view.get("coin")
        if tossed and tossed != coin:
            self.log_line(coin_words(tossed))
        moved = self.room.version != before
        if moved:
            self.flash = ""
            self.log_line(self.room.news)
        for line in self.room.out_words(out):
            self.flash = ""
            self.log_line(line)
        if was_waiting and self.room.status == "playing":
            first = title(str((self.room.observation or {}).get("to_move", "")))
            self.flash = f"The game has started: {first} moves first."
            self.log_line(self.flash)
        self._follow(event)
        if self.room.stale:
            self.run_worker(self._refresh(), group="refresh", exclusive=True)
        self.redraw(board=moved or isinstance(event, m.RoomView))
        if self.room.my_turn and not was_my_turn:
            self.app.bell()
            self._board_to_the_fore()
        if self.room.may_claim and not could_claim:
            self.app.bell()
            self.log_line(self._claimable_words())
        if was_playing and self.room.status == "finished":
            self._answer_moot()
            self.log_line(self.room.result())
            again = "F9 plays again, everyone one seat on."
            aborted = self.room.view.get("ended") == "aborted"
            self.log_line(again if aborted else f"F8 replays it, with charts; {again}")
            self._ask_initials()
        self._tell_ratings()

    def _tell_ratings(self) -> None:
        """Once the server has kept a rated game's ratings, each seat's change, once."""
        room = self.room
        changes = room.view.get("rating_changes")
        told = (room.version, repr(changes))
        if not changes or told == self.ratings_told:
            return
        self.ratings_told = told
        names = {str(seat["colour"]): describe_holder(seat["holder"]) for seat in room.seats}
        lines = changes_words(room.view, names, [str(seat["colour"]) for seat in room.seats])
        if lines:
            self.log_line("Ratings: " + "; ".join(lines))

    def action_replay(self) -> None:
        """The game of this room, to step through with charts."""
        if self.room.status != "finished":
            self.say("The replay opens once the game is over.", error=True)
            return

        async def open_replay() -> None:
            try:
                replay = await ask_replay(self.connection, m.Replay(room=self.room.ref))
            except RefusedError as refused:
                self.say(refused.error.message, error=True)
                return
            except (ConnectionLostError, ValueError) as error:
                self.say(f"Cannot replay the game: {error}", error=True)
                return
            self.app.push_screen(ReplayScreen(replay))

        self.say("Asking the server for the replay...")
        self.run_worker(open_replay(), group="requests")

    def _preview(self) -> dict[str, Any] | None:
        """Before the start, the board the room will deal (asked of the server once for
        each set-up), so that the waiting room shows what will be played."""
        room = self.room
        if room.status != "waiting":
            return None
        view = room.view
        setup = (view.get("board"), view.get("position"), repr(view.get("options")))
        if setup != self.previewed[0]:
            self.previewed = (setup, None)
            see = m.See(
                game=room.game,
                options=view.get("options"),
                board=view.get("board"),
                position=view.get("position"),
            )
            self._request(see, self._seen(setup))
        return self.previewed[1]

    def _seen(self, setup: tuple[object, ...]) -> Callable[[m.ServerMessage], None]:
        def show(answer: m.ServerMessage) -> None:
            if isinstance(answer, m.Seen) and self.previewed[0] == setup:
                self.previewed = (setup, answer.state)
                first = title(str(answer.state.get("to_move")))
                if self.room.watcher:
                    self.log_line(
                        f"The board to be played: board {answer.board}; {first} moves first."
                    )
                else:
                    self.flash = (
                        f"The board you will play: board {answer.board}; {first} moves first."
                    )
                self.redraw(board=True)

        return show

    def on_resize(self) -> None:
        self._arrange()

    def _arrange(self) -> None:
        """Board and side panel as the terminal allows: side by side, or the panel below;
        in a short terminal, no title bar, small margins and the board in fewer rows."""
        if not self.drawable:
            return
        width, height = self.size
        short = height < SHORT
        self.set_class(short, "-short")
        view = self.query_one(BoardView)
        view.set_compact(short)
        board_width = view.board.size()[0] if view.board is not None else 0
        margin = 2 if short else 4
        self.set_class(width - board_width - margin < SIDE_LEAST, "-below")
        self.query_one("#chat", Input).compact = short

    def _board_to_the_fore(self) -> None:
        """The board takes the keys for this seat's turn, unless a chat line is being
        written."""
        if self.drawable and not self.query_one("#chat", Input).value:
            self.query_one(BoardView).focus()

    def on_key(self, event: events.Key) -> None:
        """Text typed anywhere in the room but the chat line (the board, a seat's button)
        goes to the chat line, whatever its case: no command is on a key that types."""
        if event.is_printable and event.character and self.drawable:
            event.stop()
            event.prevent_default()
            chat = self.query_one("#chat", Input)
            chat.focus()
            chat.insert_text_at_cursor(event.character)

    def action_chat(self) -> None:
        self.query_one("#chat", Input).focus()

    def action_board(self) -> None:
        self.query_one(BoardView).focus()
        self._ask_held()

    def action_invite(self) -> None:
        self.show_invite = not self.show_invite
        self.redraw(board=False)

    def action_commands(self) -> None:
        """The list of every command offered now; the one chosen runs."""

        def chosen(action: str | None) -> None:
            if action:
                self.call_later(self.run_action, action)

        self.app.push_screen(CommandsScreen(self.commands), chosen)

    @property
    def commands(self) -> list[Command]:
        """The commands offered now, those with keys first, as the F1 list shows them."""
        listed: dict[str, Command] = {}
        for active in self.active_bindings.values():
            binding = active.binding
            if active.enabled and binding.tooltip and binding.action not in listed:
                key = self.app.get_key_display(binding)
                listed[binding.action] = Command(
                    key, binding.description, binding.tooltip, binding.action
                )
        if not self.room.yours:  # a watcher: the open seats first
            for seat in self.room.seats:
                if seat["holder"].get("kind") == "open":
                    colour = str(seat["colour"])
                    action = f"sit({colour!r})"
                    listed[action] = Command(
                        "", f"Sit in {title(colour)}", "take it and play", action
                    )
        for action, name, does in self.MENU_ONLY:
            if self.check_action(action, ()):
                hosting = action == "people" and self.room.host
                listed[action] = Command("", name, HOST_PEOPLE if hosting else does, action)
        for colour in self.room.away_seats():
            action = f"hand_over({colour!r})"
            who = self.room.holder(colour).get("name") or "its player"
            does = f"{who} is away; the others seated are asked first"
            listed[action] = Command("", f"Let the computer play {title(colour)}", does, action)
        listed.pop("commands", None)
        return list(listed.values())

    def _ask_initials(self) -> None:
        """If a person at this screen just made the best score on this board's card, ask
        their initials for it, as Tribolo did: of a game played to its end, not one
        resigned, agreed or lost on time with the board half full."""
        room = self.room
        if room.view.get("ended") not in (None, "played"):
            return
        scores = (room.observation or {}).get("scores", {})
        changed = {change["seat"] for change in room.view.get("seat_changes", [])}

        def check(answer: m.ServerMessage) -> None:
            best = answer.best if isinstance(answer, m.ScoreCardReply) else None
            if not best or best.get("typed"):
                return
            for colour in room.playing:
                name = room.holder(colour).get("name")
                if colour in changed or (name, scores.get(colour)) != (
                    best["name"],
                    best["score"],
                ):
                    continue
                words = (
                    f"{name}: {best['score']} is the best score yet on this board!"
                    " Your initials? (Escape skips)"
                )
                self._ask_unbidden(InitialsScreen(words), self._send_initials(colour))
                return

        self._request(m.ScoreCard(game=room.game, preset=room.preset), check)

    def _send_initials(self, colour: str) -> Callable[[str | None], None]:
        def send(typed: str | None) -> None:
            if typed:
                initials = m.SetInitials(room=self.room.ref, seat=colour, initials=typed)
                self._request(initials, lambda _: self.say(f"Kept on the score card: {typed}."))

        return send

    def _claimable_words(self) -> str:
        """That the game may be claimed now, and why."""
        names = [str(self.room.holder(colour).get("name")) for colour in self.room.claim_away()]
        away = f"{' and '.join(names)} {'is' if len(names) == 1 else 'are'} away"
        return f"{away} and the computer stands in: you may claim the game (F1, Claim)."

    def _follow(self, event: m.ServerMessage) -> None:
        """What a message asks of the screen beyond redrawing: chat, proposals."""
        if isinstance(event, m.ChatLine):
            if self.room.standing.hides(Person(event.name, event.player)):
                return
            if event.watching:
                self._watcher_said(chat_words(event))
            else:
                self.log_line(chat_words(event))
        elif isinstance(event, m.SeatSet):
            self.log_line(self.room.news)

        elif isinstance(event, m.Proposal):
            self.flash = ""
            self.log_line(self.room.news)
            if self.room.asks_me and self.asking != event.proposal:
                self.asking = event.proposal
                self.app.bell()
                self._ask_unbidden(ProposalScreen(self.room.news), self._answer(event))
        elif isinstance(event, m.ProposalEnded):
            self.flash = ""
            self.asking = None
            self.log_line(self.room.news)
            self.held = [held for held in self.held if not isinstance(held[0], ProposalScreen)]
            if isinstance(self.app.screen, ProposalScreen):
                self.app.pop_screen()

    def _answer(self, proposal: m.Proposal) -> Callable[[bool | None], None]:
        def send(accept: bool | None) -> None:
            self.asking = None
            if self.room.proposal is not None and self.room.proposal.proposal == proposal.proposal:
                answer = m.Answer(
                    room=self.room.ref, proposal=proposal.proposal, accept=bool(accept)
                )
                self._request(answer, lambda _: None)

        return send

    def _answer_moot(self) -> None:
        """The game ended with an undo, a draw or a hand-over still asked of this screen:
        it is answered no, which ends it at the server (protocol.md 2.7), so that nobody
        is left with a question that no longer matters, nor a rematch refused as busy."""
        proposal = self.room.proposal
        if proposal is None or proposal.kind == "new_game" or not self.room.asks_me:
            return
        self.held = [held for held in self.held if not isinstance(held[0], ProposalScreen)]
        if isinstance(self.app.screen, ProposalScreen):
            self.app.pop_screen()
        self._answer(proposal)(False)

    def _tell_history(self) -> None:
        """The log anew from the room's history: what happened before this connection came
        in, or while it was away."""
        if not self.drawable:
            return
        log = self.query_one("#log", RichLog)
        log.clear()
        for line in history_lines(self.room.players_history(), seats=len(self.room.seats)):
            log.write(line)
        self.watchers_seen = 0
        if self.watchers_shown:
            self._fill_watchers_chat()

    def log_line(self, text: str) -> None:
        if self.drawable and text:
            self.query_one("#log", RichLog).write(text)

    def say(self, text: str, *, error: bool = False) -> None:
        self.flash = text
        if error:
            self.app.bell()
        self.redraw(board=False)

    def on_board_view_chosen(self, event: BoardView.Chosen) -> None:
        view = self.query_one(BoardView)
        if view.board is None:
            return
        pick = view.board.pick(view.marks.picked, event.square)
        view.mark(picked=pick.picked if pick.move is None else ())
        if pick.problem is not None:
            self.say(pick.problem)
        if pick.move is not None:
            move = m.Move(room=self.room.ref, version=self.room.version, move=pick.move)
            self._request(move, lambda _: None)

    def on_seats_panel_seat_clicked(self, event: SeatsPanel.SeatClicked) -> None:
        """A seat picked: who is to hold it, for the host or the seat's own person; for
        another, the seat of a person away in a game on a clock is offered to the computer."""
        room, colour = self.room, event.colour
        if colour in room.away_seats() and not room.host:
            self.action_hand_over(colour)
            return
        if not room.may_change(colour):
            person = self._person_at(colour)
            if person is not None:
                self._about(person)
            else:
                self.say(f"Only the host may change {title(colour)}.", error=True)
            return
        holder = room.holder(colour)
        level = str(holder.get("level") or self.query_one(SeatsPanel).level)

        def change(chosen: tuple[str, str | None] | None) -> None:
            if chosen is None:
                return
            kind, level = chosen
            request = m.SetSeat(room=room.ref, seat=colour, holder=kind, level=level)
            self._unrating(
                f"{title(colour)} changing hands", lambda: self._request(request, lambda _: None)
            )

        now = describe_holder(holder, mine=colour in room.playing)
        self.app.push_screen(SeatScreen(title(colour), now, self.levels, level), change)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "fill":
            self.action_fill()
        elif event.button.id == "start":
            self.action_start()

    def action_fill(self) -> None:
        """Computer players in the open seats, at the level chosen beside the button."""
        level = self.query_one(SeatsPanel).level
        self._request(m.FillBots(room=self.room.ref, level=level), lambda _: None)

    def action_start(self) -> None:
        """Start the game; where a coin decides who moves first, call it first."""
        room = self.room

        def start(call: str | None) -> None:
            self._request(m.Start(room=room.ref, call=call), lambda _: None)

        self._with_call(start)

    def _with_call(self, then: Callable[[str | None], None]) -> None:
        """`then` with the coin called by this screen's person, where a coin is tossed."""
        if self.room.calls_coin(self.connection.welcome):
            self.app.push_screen(CoinScreen(), then)
        else:
            then(None)

    def _unrating(self, help_asked: str, then: Callable[[], None]) -> None:
        """Do `then`, which makes a rated game unrated for everyone, once the person says so
        (once a game: after that it is unrated); Enter alone says no."""
        room = self.room
        if not (room.view.get("rated") and room.status == "playing"):
            then()
            return
        people = [
            describe_holder(seat["holder"])
            for seat in room.seats
            if seat["holder"].get("kind") == "human"
        ]
        everyone = f"all {len(people)} players" if len(people) > 1 else "its player"
        words = (
            f"{help_asked} makes this game unrated for {everyone} ({', '.join(people)}):"
            " it will count for nobody's rating. Go on?"
        )

        def answered(sure: bool | None) -> None:
            if sure:
                then()

        self.app.push_screen(ConfirmScreen(words, "Unrate it", careful=True), answered)

    def action_hint(self, kind: str) -> None:
        if kind == "best":
            self._unrating("The best move", lambda: self._hint(kind))
        else:
            self._hint(kind)

    def _hint(self, kind: str) -> None:
        asked_at = self.room.version

        def show(answer: m.ServerMessage) -> None:
            if isinstance(answer, m.HintReply) and self.room.version == asked_at:
                self.query_one(BoardView).mark(hints=answer.moves)
                moves = ", ".join(answer.moves) or "none"
                self.say(f"{'Possible moves' if kind == 'possible' else 'Best'}: {moves}")

        self._request(m.Hint(room=self.room.ref, kind=kind), show)

    def action_suggest(self) -> None:
        self._unrating("A suggestion from the computer", self._suggest)

    def _suggest(self) -> None:
        def show(answer: m.ServerMessage) -> None:
            if isinstance(answer, m.Suggestion) and answer.version == self.room.version:
                self.room.apply(answer)
                self.query_one(BoardView).mark(hints=[answer.search["move"]])
                self.say(f"Suggested: {answer.search['move']}")

        self.say(f"Thinking for {SUGGEST_MS / 1000:g} seconds about a move for you...")
        wait = SUGGEST_MS / 1000
        self._request(m.Suggest(room=self.room.ref, think_ms=SUGGEST_MS), show, wait=wait)

    def action_thinking(self) -> None:
        on = not self.show_thinking

        def done(_: m.ServerMessage) -> None:
            self.show_thinking = on
            self.say("Showing the computer's thinking." if on else "Thinking hidden.")

        self._request(m.ShowThinking(room=self.room.ref, on=on), done)

    def action_score_card(self, preset: str | None = "") -> None:
        """The score card of this room's board preset (as Tribolo's boards each had their
        own); from it, A shows the card of every board together."""
        asked = self.room.preset if preset == "" else preset

        def show(answer: m.ServerMessage) -> None:
            if isinstance(answer, m.ScoreCardReply):
                card = ScoreCardScreen(answer, you(self.connection.welcome))
                self.app.push_screen(card, self._other_card)

        self._request(m.ScoreCard(game=self.room.game, preset=asked), show)

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.room.game))

    def _other_card(self, every_board: bool | None) -> None:
        if every_board:
            self.action_score_card(None)

    def action_save(self) -> None:
        def save(chosen: tuple[str, bool] | None) -> None:
            if chosen is not None:
                name, replace = chosen
                request = m.SaveGame(room=self.room.ref, name=name, replace=replace)
                self._request(request, lambda _: self.say(f"Saved as {name!r}."))

        self.app.push_screen(SaveScreen(), save)

    def action_load(self) -> None:
        def load(name: str | None) -> None:
            if name is not None:
                request = m.LoadGame(room=self.room.ref, name=name)
                self._request(request, lambda _: self.say(f"Loaded {name!r}."))

        def choose(answer: m.ServerMessage) -> None:
            if isinstance(answer, m.Saves):
                self.app.push_screen(LoadScreen(answer.saves), load)

        self._request(m.ListSaves(game=self.room.game), choose)

    def action_export(self) -> None:
        def write(answer: m.ServerMessage) -> None:
            if isinstance(answer, m.GameFileText):
                path = export_path(Path.cwd(), self.room.game, self.room.room_id)
                try:
                    path.write_text(answer.text, encoding="utf-8")
                except OSError as error:
                    self.say(f"Could not write {path}: {error}", error=True)
                    return
                self.say(f"The game is written to {path}.")

        self._request(m.ExportGame(room=self.room.ref), write)

    def action_import_file(self) -> None:
        def send(text: str | None) -> None:
            if text is not None:
                request = m.ImportGame(room=self.room.ref, text=text)
                self._request(request, lambda _: self.say("Imported."))

        self.app.push_screen(ImportScreen(), send)

    def action_leave(self) -> None:
        """Quit, once the player says so, knowing how to come back (or giving seats up)."""
        room = self.room
        app = self.parlour
        own_server = app.book is None
        if own_server:
            words = "Quit? The game ends with this window: it runs on a server of its own."
        elif room.yours or room.host:
            words = f"Leave the room? Your seats stay yours: come back with\n{app.come_back(room)}"
        else:
            words = "Stop watching and quit?"

        def chosen(answer: str | None) -> None:
            if answer == "give_up":
                self._request(m.Leave(room=room.ref, give_up=True), lambda _: self._gave_up())
            elif answer == "leave":
                app.exit()

        may_give_up = not own_server and bool(room.yours)
        app.push_screen(QuitScreen(words, may_give_up=may_give_up), chosen)

    def _gave_up(self) -> None:
        self.parlour.forget_seats(self.room)
        self.app.exit()

    def action_undo(self) -> None:
        undo = m.Undo(room=self.room.ref, version=self.room.version)
        self._unrating("Taking back a move", lambda: self._request(undo, lambda _: None))

    def action_new_game(self) -> None:
        """A new game; one in play is ended only once the player says so."""
        room = self.room

        def again(call: str | None) -> None:
            room.new_game_coming = True
            request = m.NewGame(room=room.ref, call=call, version=room.version)
            self._request(request, lambda _: None)

        def confirmed(sure: bool | None) -> None:
            if sure:
                self._with_call(again)

        if room.status == "playing":
            words = "Start a new game? The game in play ends (people at other screens are asked)."
            self.app.push_screen(ConfirmScreen(words, "New game", careful=True), confirmed)
        else:
            self._with_call(again)

    def action_resign(self) -> None:
        """Give up the game for the seat played now, once the person says so, knowing what
        follows; Enter alone keeps playing."""
        room = self.room
        if not room.may_resign:
            self.say("There is no game of yours to resign now.", error=True)
            return
        seat, version = room.seat, room.version

        def send(sure: bool | None) -> None:
            if sure:
                request = m.Resign(room=room.ref, version=version, seat=seat)
                self._request(request, lambda _: None, words=server_words)

        self.app.push_screen(ConfirmScreen(room.resign_question(), "Resign", careful=True), send)

    def action_abort(self) -> None:
        """End the game before everyone has moved, once the person says so; Enter alone
        keeps playing."""
        room = self.room
        if not room.may_abort:
            self.say("The game can no longer be aborted: everyone has moved.", error=True)
            return
        version = room.version

        def send(sure: bool | None) -> None:
            if sure:
                request = m.Abort(room=room.ref, version=version)
                self._request(request, lambda _: None, words=server_words)

        words = "Abort this game? The game ends now and counts for nobody."
        self.app.push_screen(ConfirmScreen(words, "Abort", careful=True), send)

    def action_claim(self) -> None:
        """End the game won, while everyone else seated is away with the computer standing
        in for them, once the person says so; Enter alone keeps playing."""
        room = self.room
        if not room.may_claim:
            self.say(
                "The game can be claimed only while everyone else seated is away, the computer"
                " standing in for them.",
                error=True,
            )
            return
        version = room.version

        def send(sure: bool | None) -> None:
            if sure:
                request = m.Claim(room=room.ref, version=version)
                self._request(request, lambda _: None, words=server_words)

        self.app.push_screen(ConfirmScreen(room.claim_question(), "Claim", careful=True), send)

    @property
    def me(self) -> list[Person]:
        """The people at this screen: its connection's, and those it plays seats for."""
        welcome = self.connection.welcome
        player = welcome.player if welcome is not None else None
        known = player.get("id") if isinstance(player, dict) else None
        mine = [Person(self.connection.name, known if isinstance(known, str) else None)]
        for colour in self.room.yours:
            person = seated_person(self.room.holder(colour))
            if person is not None:
                mine.append(person)
        return mine

    def _people(self) -> list[Present]:
        return people_in(self.room.view, self.room.heard, self.me)

    def _person_at(self, colour: str) -> Present | None:
        """The person whose seat `colour` is, unless it is this screen's."""
        return next((each for each in self._people() if colour in each.seats), None)

    def action_people(self) -> None:
        """Whom to mute, block, report or (the host) send out or unseat: the people in the
        room, then what to do about the one chosen."""
        people = self._people()
        if not people:
            self.say("Nobody else is in this room, nor was heard in its chat.")
            return

        def chosen(index: int | None) -> None:
            if index is not None and 0 <= index < len(people):
                self._about(people[index])

        lines = [each.line(self.room.standing) for each in people]
        self.app.push_screen(PeopleScreen(lines), chosen)

    def _about(self, present: Present) -> None:
        """What to do about one person, each choice as the person stands with this player
        and the room allows; "Nothing" in focus."""
        room, person = self.room, present.person
        standing = room.standing
        choices = [
            ("unmute", "Unmute", "see their chat again")
            if standing.mutes(person)
            else ("mute", "Mute", "hide their chat from you, in every room"),
            ("unblock", "Unblock", "let them sit at your tables again")
            if standing.blocks(person)
            else ("block", "Block", "off your tables and out of your chat (asks first)"),
            ("report", "Report", "tell this server's operators why, in your words"),
        ]
        if room.host and present.watching:
            out = ("send_out", "Send out", "out of this room while it lasts (asks first)")
            choices.append(out)
        if room.host and room.status == "waiting":
            does = "their seat, for anyone to take (asks first)"
            for colour in present.seats:
                choices.append((f"open:{colour}", f"Open {title(colour)}", does))
        said = standing_words(person, standing)
        words = " ".join(part for part in (present.where(), said, "What now?") if part)

        def chosen(choice: str | None) -> None:
            if choice is not None:
                self._do_about(present, choice)

        self.app.push_screen(PersonScreen(words, choices), chosen)

    def _do_about(self, present: Present, choice: str) -> None:
        person = present.person
        name = person.name
        if choice in ("mute", "unmute"):
            self._stand("mute", person, on=choice == "mute")
        elif choice == "unblock":
            self._stand("block", person, on=False)
        elif choice == "block":
            words = f"Block {name}? {BLOCK_WORDS[0].upper()}{BLOCK_WORDS[1:]}."
            self._asked(words, "Block", lambda: self._stand("block", person, on=True))
        elif choice == "report":
            self.app.push_screen(ReportScreen(name, REASON_MOST), self._report(person))
        elif choice == "send_out":
            words = (
                f"Send {name} out of this room? They may not watch it or sit in it again for as"
                " long as it lasts."
            )
            self._asked(words, "Send out", lambda: self._send_out(person))
        elif choice.startswith("open:"):
            colour = choice.removeprefix("open:")
            words = (
                f"Open {title(colour)}, {name}'s seat, for someone else to take? {name} watches"
                " from then on, and may sit again."
            )
            request = m.SetSeat(room=self.room.ref, seat=colour, holder="open")
            self._asked(words, "Open it", lambda: self._request(request, lambda _: None))

    def _asked(self, words: str, doing: str, then: Callable[[], None]) -> None:
        """Do `then` once the person says so; Enter alone says no."""

        def answered(sure: bool | None) -> None:
            if sure:
                then()

        self.app.push_screen(ConfirmScreen(words, doing, careful=True), answered)

    def _stand(self, kind: str, person: Person, *, on: bool) -> None:
        """Mute or block `person` (`kind`), or no longer; the lists are changed as the server
        says `ok`."""
        request: m.Mute | m.Block = (
            m.Mute(name=person.name, player=person.player, on=on)
            if kind == "mute"
            else m.Block(name=person.name, player=person.player, on=on)
        )

        def done(_: m.ServerMessage) -> None:
            self.room.standing.change(kind, person, on=on)
            self.say(changed_words(kind, person, on=on))

        self._request(request, done, words=server_words)

    def _report(self, person: Person) -> Callable[[str | None], None]:
        def send(typed: str | None) -> None:
            reason = clean_reason(typed or "")
            if not reason:
                return
            request = m.Report(
                room=self.room.ref, name=person.name, player=person.player, reason=reason
            )
            told = f"Your report of {person.name} went to this server's operators."
            self._request(request, lambda _: self.say(told), words=server_words)

        return send

    def _send_out(self, person: Person) -> None:
        request = m.RemoveWatcher(room=self.room.ref, name=person.name)
        told = f"{person.name} was sent out of this room, for as long as it lasts."
        self._request(request, lambda _: self.say(told), words=server_words)

    def action_offer_draw(self) -> None:
        """Offer the others seated to end the game as it stands; they are asked, and the
        proposal that comes back says so."""
        offer = m.OfferDraw(room=self.room.ref, version=self.room.version)
        self._request(offer, lambda _: None, words=server_words)

    def action_rematch(self) -> None:
        """The finished game again from a new deal, every holder one seat on."""
        self.room.new_game_coming = True
        rematch = m.NewGame(room=self.room.ref, rotate=True, version=self.room.version)
        self._request(rematch, lambda _: None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.clear()
        if text:
            self._request(m.Chat(room=self.room.ref, text=text), lambda _: None)
        self.query_one(BoardView).focus()
        self._ask_held()

    def _ask_unbidden(self, screen: ModalScreen[Any], then: Callable[[Any], None]) -> None:
        """A question nobody at this screen asked for (another's proposal, initials for the
        score card) waits while a chat line is being written, so that the rest of the
        sentence and its Enter do not answer it."""
        if self.drawable and self.query_one("#chat", Input).value:
            self.held.append((screen, then))
        else:
            self.app.push_screen(screen, then)

    def _ask_held(self) -> None:
        """The questions that waited for the chat line, now that it is sent or left."""
        held, self.held = self.held, []
        for screen, then in held:
            self.app.push_screen(screen, then)

    def action_sit(self, colour: str) -> None:
        """Take the open seat `colour` as a person: a watcher sitting down, or one whose seat
        the host opened sitting again. Refused plainly where the host sent them out or a
        person here blocks them."""
        room = self.room

        def seated(answer: m.ServerMessage) -> None:
            if isinstance(answer, m.Joined):
                room.rejoined(answer)
                self.parlour.keep_seats(room)
                self._tell_history()
                self.watchers_seen = len(room.watchers_said)  # seen while watching
                self.say(f"You took {title(colour)}.")
                self.redraw(board=True)

        self._request(m.Join(room=room.ref, seat=colour), seated, words=server_words)

    def action_hand_over(self, colour: str) -> None:
        """The computer plays `colour` while its person is away, once the others seated
        agree (protocol.md 2.7); only offered for such a seat (`RoomModel.away_seats`)."""
        room = self.room
        if colour not in room.away_seats():
            self.say(f"{title(colour)} is not a seat the computer can be asked to play now.")
            return
        others = room.others_asked(colour)

        def asked(_: m.ServerMessage) -> None:
            if others:
                self.say(f"Asked the others to let the computer play {title(colour)}.")

        def send(sure: bool | None) -> None:
            if sure:
                request = m.HandOver(room=room.ref, seat=colour, version=room.version)
                self._request(request, asked, words=hand_over_refused(colour))

        words = (
            f"Let the computer play {title(colour)} while its player is away? They take the"
            " seat back when they come back. The game stays rated: if they are still away"
            " at the end, they finish last."
            + (" The others seated are asked first." if others else "")
        )
        self.app.push_screen(ConfirmScreen(words, "Let it play", careful=True), send)

    def action_account(self) -> None:
        self.app.push_screen(AccountScreen(self.connection))

    def action_sound(self) -> None:
        app = self.app
        if isinstance(app, ParlourApp):
            app.sound = not app.sound
            self.say("Sound on." if app.sound else "Sound off.")

    def _request(
        self,
        message: m.ClientMessage,
        then: Callable[[m.ServerMessage], None],
        wait: float = 0.0,
        *,
        words: Callable[[RefusedError], str] | None = None,
    ) -> None:
        """Send `message` in a worker and hand its answer to `then`; errors are said, in
        `words` where given."""

        async def exchange() -> None:
            try:
                answer = await self.connection.request(message, wait)
            except RefusedError as refused:
                self.say((words or plain_words)(refused), error=True)
                return
            except ConnectionLostError as lost:
                self.say(f"{lost}: that may not have reached the server; catching up.")
                return
            try:
                then(answer)
            except (KeyError, TypeError, ValueError, AttributeError) as error:
                self.say(f"The server's {answer.TYPE!r} could not be read: {error}")

        self.run_worker(exchange(), group="requests")

    async def _refresh(self) -> None:
        try:
            answer = await self.connection.request(m.GetRoom(room=self.room.ref))
        except (RefusedError, ConnectionLostError):
            return
        self.take(answer)

    async def _rejoin(self) -> None:
        """Back into the room after a reconnection: the seat by its token, or watching.
        While the room moves to another server of a cluster, it is asked again."""
        room = self.room
        asking: m.Join | m.Spectate = (
            m.Spectate(room=room.ref)
            if room.token is None
            else m.Join(room=room.ref, token=room.token)
        )
        for attempt in itertools.count():
            try:
                answer = await self.connection.request(asking)
                break
            except RefusedError as error:
                if error.code != ErrorCode.UNAVAILABLE or attempt >= REJOIN_ATTEMPTS:
                    why = plain_words(error)
                    self.say(f"Reconnected, but could not rejoin the room: {why}", error=True)
                    return
            except ConnectionLostError as error:
                self.say(f"Reconnected, but could not rejoin the room: {error}", error=True)
                return
            await asyncio.sleep(REJOIN_PAUSE)
        if not isinstance(answer, m.Joined | m.Watching):
            return
        room.rejoined(answer)
        self._tell_history()
        seat = f" to your seat ({title(room.seat)})" if room.seat else "; watching"
        self.say(f"Reconnected{seat}.")
        if self.show_thinking:
            self.show_thinking = False
            self.action_thinking()
        self.redraw(board=True)


class ParlourApp(App[None]):
    """The client: a room to play in, or the lobby to find one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit_asking", "Quit", show=False, priority=True),
    ]
    ENABLE_COMMAND_PALETTE = False

    def get_key_display(self, binding: Binding) -> str:
        """Function keys as their caps print them: F7, not f7."""
        shown = super().get_key_display(binding)
        return shown.upper() if re.fullmatch(r"f\d+", shown) else shown

    CSS = """
    #main { height: 1fr; }
    #board { margin: 1 2; width: auto; height: auto; }
    #side { width: 1fr; }
    RoomScreen.-below #main { layout: vertical; }
    RoomScreen.-below #side { width: 100%; height: 1fr; }
    RoomScreen.-short Header { display: none; }
    RoomScreen.-short #board { margin: 0 1; }
    RoomScreen.-short #seat-list { max-height: 4; }
    RoomScreen.-short #thoughts { min-height: 0; }
    RoomScreen.-short #chat { height: 1; }
    #seats { height: auto; }
    #seat-list { height: auto; max-height: 8; }
    #host-controls { height: auto; }
    #host-controls Select { width: 22; }
    #host-controls Button { min-width: 10; width: auto; }
    #invite { height: auto; padding: 0 1; text-wrap: nowrap; text-overflow: clip; }
    #thoughts { height: auto; min-height: 2; }
    #log { height: 1fr; }
    #watchers { height: auto; }
    #watch-pane { height: 1fr; display: none; }
    #watch-log { height: 1fr; }
    #status { height: 2; background: $panel; padding: 0 1; }
    #chat { height: 3; }
    ProposalScreen, SeatScreen, ScoreCardScreen, SaveScreen, LoadScreen, ImportScreen,
    QuitScreen, CoinScreen, RulesScreen, InitialsScreen, ConfirmScreen, CommandsScreen,
    NameScreen, PeopleScreen, PersonScreen, ReportScreen {
        align: center middle;
    }
    .dialog {
        width: 64; max-width: 100%; height: auto; max-height: 100%; padding: 1 2;
        border: thick $accent; background: $panel;
    }
    .dialog DataTable { height: auto; max-height: 16; }
    #commands-dialog { width: 80; padding: 0 1; }
    InitialsScreen { align: right bottom; background: $background 0%; }
    InitialsScreen #question { width: 44; }
    #commands-dialog OptionList { height: auto; max-height: 1fr; margin: 1 0; }
    #card, #question {
        height: auto; padding: 1 2; border: thick $accent; background: $panel;
    }
    #card { width: 72; max-width: 100%; max-height: 100%; overflow-y: auto; }
    #rules {
        width: 84; max-width: 100%; height: 90%; padding: 1 2;
        border: thick $accent; background: $panel;
    }
    #card DataTable { height: auto; max-height: 12; margin-bottom: 1; }
    #question { width: 68; max-width: 100%; max-height: 100%; }
    #question Button { min-width: 0; width: auto; margin-right: 1; }
    #question Horizontal { height: auto; margin-top: 1; }
    #question Select { width: 24; margin-top: 1; }
    #question OptionList { height: auto; max-height: 12; margin-top: 1; }
    PersonScreen #question { width: 80; }
    #question #reason { margin-top: 1; }
    .heading { text-style: bold; }
    """

    def __init__(
        self,
        connection: Connection,
        room: RoomModel | None = None,
        *,
        book: SeatBook | None = None,
        start: bool = False,
    ) -> None:
        super().__init__()
        self.start_now = start
        self.title = "Parlour"
        self.connection = connection
        self.book = book
        """Where the seats' tokens are kept between runs; None for a server of our own."""
        self.kept: dict[str, tuple[str | None, tuple[str, ...], bool]] = {}
        """What was last written of each room, so that only changes are written."""
        self.left: RoomModel | None = None
        """The room last shown, for the words printed after quitting."""
        self.start_room = room
        self.sound = True
        self.room_screen: RoomScreen | None = None
        """The room this client is in, given every event even while a dialog is open."""
        self.unclaimed: deque[Event] = deque(maxlen=UNCLAIMED_KEPT)
        """Events that came before there was a room to take them."""
        self.standing = Standing.of(connection.welcome)
        """Whom this player mutes and blocks, for every room entered."""
        self.show_watchers = False
        """Whether a person playing chose to see the watchers' chat, for every room."""

    def on_mount(self) -> None:
        self.connection.ask_name = self.ask_name
        if self.start_room is not None:
            self.push_screen(self.enter(self.start_room))
        else:
            self.push_screen(LobbyScreen(self.connection, self.enter))
        self.run_worker(self._listen(), group="connection", exclusive=True)

    def sent_out(self) -> None:
        """The host sent this screen's person out of the room they watched: to the lobby,
        told so, every question about the room closed."""
        room_screen = self.room_screen
        self.room_screen = None
        self.unclaimed.clear()
        if room_screen in self.screen_stack:
            while self.screen is not room_screen:
                self.pop_screen()
        self.bell()
        self.switch_screen(LobbyScreen(self.connection, self.enter, notice=REMOVED_WORDS))

    def enter(self, room: RoomModel) -> RoomScreen:
        """The screen of the room just entered, given what came while entering."""
        room.standing = self.standing
        screen = RoomScreen(self.connection, room, start=self.start_now)
        self.start_now = False
        self.room_screen = screen
        self.keep_seats(room)
        while self.unclaimed:
            screen.take(self.unclaimed.popleft())
        return screen

    async def ask_name(self, taken: str) -> str | None:
        """Another name, asked in a dialog when the server refuses the one this connection
        said hello with as another player's (coming back after a drop); None to stop."""
        answer: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()

        def answered(name: str | None) -> None:
            if not answer.done():
                answer.set_result(name)

        self.call_later(self.push_screen, NameScreen(taken), answered)
        return await answer

    def action_quit_asking(self) -> None:
        """Ctrl+Q in a room asks first, as Q does; elsewhere it quits."""
        if isinstance(self.screen, RoomScreen):
            self.screen.action_leave()
        elif self.room_screen is None:
            self.exit()

    def bell(self) -> None:
        if self.sound:
            super().bell()

    def your_turn(self, told: m.YourTurn) -> None:
        """A room this client is not in waits on this player's move: the bell, and a notice
        naming the game and the room, with the way there from where the player is."""
        screen = self.screen
        if self.room_screen is not None:
            command = join_command(self.connection.url, told.ref, self.connection.ca)
            where = f"{command} goes back to it"
        elif isinstance(screen, MyGamesScreen):
            where = "it is first in the list, Enter goes back to it"
            screen.action_refresh()
        else:
            where = "in the lobby, M opens My games, where Enter goes back to it"
        self.bell()
        words = your_turn_words(told, where)
        self.notify(words, title="Your turn", markup=False, timeout=YOUR_TURN_SECONDS)

    def come_back(self, room: RoomModel) -> str:
        """The command that brings this user back into `room`."""
        return join_command(self.connection.url, room.ref, self.connection.ca)

    def keep_seats(self, room: RoomModel) -> None:
        """Write down the token of the seats (or hosting) held in `room`, when it changed."""
        self.left = room
        if self.book is None or room.token is None:
            return
        kept = (room.token, tuple(room.yours), room.host)
        if self.kept.get(room.ref) == kept:
            return
        self.kept[room.ref] = kept
        try:
            self.book.keep(
                self.connection.url,
                room.ref,
                room.token,
                room.game,
                room.yours,
                host=room.host,
                name=self.connection.name,
                ca=self.connection.ca,
            )
        except SeatBookError as error:
            self.notify(f"Your seat could not be written down: {error}", severity="error")

    def forget_seats(self, room: RoomModel) -> None:
        if self.book is None:
            return
        try:
            self.book.forget(self.connection.url, room.ref)
        except SeatBookError as error:
            self.notify(str(error), severity="error")

    async def _listen(self) -> None:
        """Hand every event of the connection to the screen showing a room; tell the player
        of a room elsewhere that waits on them."""
        while True:
            event = await self.connection.events.get()
            if isinstance(event, Reconnected):
                self.standing.welcomed(event.welcome)
            if isinstance(event, m.YourTurn):
                self.your_turn(event)
                continue
            if self.room_screen is not None:
                self.room_screen.take(event)
                continue
            self.unclaimed.append(event)
            if isinstance(event, Dropped):
                self.notify(dropped_words(event))
