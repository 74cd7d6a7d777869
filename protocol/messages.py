"""Every message of protocol.md as a frozen dataclass, read from and written to wire maps.

Each field names its `FieldSpec`; one generic reader checks every field of every message,
so a message's class is the whole of its validation.
"""

from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, Final, Self

from .errors import ErrorCode, ProtocolError, bad_field
from .fields import (
    BOARD_NUMBER,
    COLOUR,
    GAME_NAME,
    LEVEL,
    MOVE_TEXT,
    NAME,
    ROOM_REF,
    TOKEN,
    VERSION,
    Anything,
    Choice,
    Colour,
    EchoedId,
    EmailAddress,
    EmailCode,
    FieldSpec,
    Flag,
    Initials,
    Integer,
    OptionValues,
    PlayerKey,
    RequestId,
    Shape,
    Text,
    TimeControlMap,
    Word,
)
from .timecontrol import KINDS as SPEEDS
from .wire import Message as WireMessage

PROTOCOL_VERSION: Final = 1
MAX_STANDIN_AFTER: Final = 3600
MAX_VACATION_DAYS: Final = 30
DEFAULT_STANDIN_AFTER: Final = 60
HINT_KINDS: Final = ("possible", "best")
MIN_THINK_MS: Final = 100
MAX_THINK_MS: Final = 10_000
DEFAULT_THINK_MS: Final = 1000
THINKING_FOR: Final = ("bot", "suggestion")
HOLDER_CHOICES: Final = ("open", "bot", "human")
LEFT_SEATS: Final = ("bot", "open")
COIN_SIDES: Final = ("heads", "tails")
MAX_CHAT: Final = 300
MAX_REASON: Final = 500
"""The longest reason a report may give."""
PLAYER_REF: Final = Text(1, 32)
"""A player's public id, as seats and chat lines carry it."""
"""Characters in one chat message."""
PROPOSAL_KINDS: Final = ("undo", "new_game", "hand_over", "draw")
PROPOSAL_OUTCOMES: Final = ("accepted", "declined", "expired")
PROPOSAL_ID: Final = Text(1, 32)
MAX_GAME_FILE: Final = 60_000
"""Characters in a game file sent as text: well inside a 64 KiB frame."""
GAME_FILE: Final = Text(1, MAX_GAME_FILE, lines=True)
SAVE_NAME: Final = Text(1, 40)
RECORD_ID: Final = Text(1, 64)
MIN_DIGEST_HOURS: Final = 1
MAX_DIGEST_HOURS: Final = 7 * 24
DEFAULT_DIGEST_HOURS: Final = 24
MAX_POSITION: Final = 4096

ANY: Final = Anything()
STR: Final = Text(0, 1 << 20)
INT: Final = Integer()
BOOL: Final = Flag()
SEAT: Final = Colour()
"""A colour in what the server sends (a client's colours are `COLOUR`, any text)."""
SEATS: Final = Shape("colour", many=True)
TEXTS: Final = Shape("text", many=True)


def spec(field_spec: FieldSpec, default: Any = MISSING) -> Any:
    """A dataclass field checked by `field_spec`; with a default, it may be left out."""
    return field(default=default, metadata={"spec": field_spec})


@dataclass(frozen=True, kw_only=True, slots=True)
class Message:
    """A protocol message; `TYPE` is its `type` on the wire."""

    TYPE: ClassVar[str]
    id: str | int | None = spec(RequestId(), None)

    def to_wire(self) -> WireMessage:
        """The message as a map for a codec, leaving out fields that are None."""
        wire: WireMessage = {"type": self.TYPE}
        for item in fields(self):
            value = getattr(self, item.name)
            if value is not None:
                wire[item.name] = value
        return wire

    @classmethod
    def from_wire(cls, wire: WireMessage) -> Self:
        """The message read from a decoded map; ProtocolError `bad_field` if a field is off."""
        values: dict[str, Any] = {}
        for item in fields(cls):
            raw = wire.get(item.name)
            if raw is None:
                if item.default is MISSING:
                    raise bad_field(item.name, f"'{cls.TYPE}' needs the field '{item.name}'")
                continue
            values[item.name] = item.metadata["spec"].read(item.name, raw)
        return cls(**values)


# Client to server.


@dataclass(frozen=True, kw_only=True, slots=True)
class Hello(Message):
    TYPE = "hello"
    version: int = spec(INT)
    name: str = spec(NAME)
    client: str | None = spec(Text(0, 64), None)
    key: str | None = spec(PlayerKey(), None)


@dataclass(frozen=True, kw_only=True, slots=True)
class ListRooms(Message):
    TYPE = "list_rooms"


@dataclass(frozen=True, kw_only=True, slots=True)
class CreateRoom(Message):
    TYPE = "create_room"
    game: str = spec(GAME_NAME)
    options: dict[str, int | str] | None = spec(OptionValues(), None)
    board: int | None = spec(BOARD_NUMBER, None)
    public: bool = spec(BOOL, True)
    seat: str | None = spec(COLOUR, None)
    standin_after: int = spec(Integer(0, MAX_STANDIN_AFTER), DEFAULT_STANDIN_AFTER)
    bot_think_ms: int = spec(Integer(MIN_THINK_MS, MAX_THINK_MS), DEFAULT_THINK_MS)
    position: str | None = spec(Text(1, MAX_POSITION), None)
    left_seats: str = spec(Choice(LEFT_SEATS), "bot")
    rated: bool = spec(BOOL, True)
    time_control: dict[str, Any] | None = spec(TimeControlMap(), None)


@dataclass(frozen=True, kw_only=True, slots=True)
class See(Message):
    TYPE = "see"
    game: str = spec(GAME_NAME)
    options: dict[str, int | str] | None = spec(OptionValues(), None)
    board: int | None = spec(BOARD_NUMBER, None)
    position: str | None = spec(Text(1, MAX_POSITION), None)


@dataclass(frozen=True, kw_only=True, slots=True)
class Join(Message):
    TYPE = "join"
    room: str = spec(ROOM_REF)
    seat: str | None = spec(COLOUR, None)
    token: str | None = spec(TOKEN, None)
    name: str | None = spec(NAME, None)


@dataclass(frozen=True, kw_only=True, slots=True)
class Spectate(Message):
    TYPE = "spectate"
    room: str = spec(ROOM_REF)


@dataclass(frozen=True, kw_only=True, slots=True)
class Leave(Message):
    TYPE = "leave"
    room: str = spec(ROOM_REF)
    give_up: bool = spec(BOOL, False)


@dataclass(frozen=True, kw_only=True, slots=True)
class SetSeat(Message):
    TYPE = "set_seat"
    room: str = spec(ROOM_REF)
    seat: str = spec(COLOUR)
    holder: str = spec(Choice(HOLDER_CHOICES))
    level: str | None = spec(LEVEL, None)
    name: str | None = spec(NAME, None)


@dataclass(frozen=True, kw_only=True, slots=True)
class FillBots(Message):
    TYPE = "fill_bots"
    room: str = spec(ROOM_REF)
    level: str | None = spec(LEVEL, None)


@dataclass(frozen=True, kw_only=True, slots=True)
class Start(Message):
    TYPE = "start"
    room: str = spec(ROOM_REF)
    call: str | None = spec(Choice(COIN_SIDES), None)


@dataclass(frozen=True, kw_only=True, slots=True)
class Move(Message):
    TYPE = "move"
    room: str = spec(ROOM_REF)
    version: int = spec(VERSION)
    move: str = spec(MOVE_TEXT)


@dataclass(frozen=True, kw_only=True, slots=True)
class GetRoom(Message):
    TYPE = "get_room"
    room: str = spec(ROOM_REF)


@dataclass(frozen=True, kw_only=True, slots=True)
class Hint(Message):
    TYPE = "hint"
    room: str = spec(ROOM_REF)
    kind: str = spec(Choice(HINT_KINDS))


@dataclass(frozen=True, kw_only=True, slots=True)
class ShowThinking(Message):
    TYPE = "show_thinking"
    room: str = spec(ROOM_REF)
    on: bool = spec(BOOL)


@dataclass(frozen=True, kw_only=True, slots=True)
class Suggest(Message):
    TYPE = "suggest"
    room: str = spec(ROOM_REF)
    think_ms: int = spec(Integer(MIN_THINK_MS, MAX_THINK_MS), DEFAULT_THINK_MS)


@dataclass(frozen=True, kw_only=True, slots=True)
class Undo(Message):
    """Take back the sender's last move and the moves after it. `version`, the room's as
    last seen, makes the request safe to send again (protocol.md 2.7)."""

    TYPE = "undo"
    room: str = spec(ROOM_REF)
    version: int | None = spec(VERSION, None)


@dataclass(frozen=True, kw_only=True, slots=True)
class TakeVacation(Message):
    TYPE = "vacation"
    days: int = spec(Integer(0, MAX_VACATION_DAYS))


@dataclass(frozen=True, kw_only=True, slots=True)
class GetVacation(Message):
    TYPE = "get_vacation"


@dataclass(frozen=True, kw_only=True, slots=True)
class HandOver(Message):
    TYPE = "hand_over"
    room: str = spec(ROOM_REF)
    seat: str = spec(COLOUR)
    version: int | None = spec(VERSION, None)


@dataclass(frozen=True, kw_only=True, slots=True)
class Resign(Message):
    """Give up the game for a seat of the sender's: the seat to move if it is theirs, else
    their first, unless `seat` names one. `version` is the room's as last seen: it names
    the game, so that the request is safe to send again (protocol.md 2.4)."""

    TYPE = "resign"
    room: str = spec(ROOM_REF)
    version: int = spec(VERSION)
    seat: str | None = spec(COLOUR, None)


@dataclass(frozen=True, kw_only=True, slots=True)
class OfferDraw(Message):
    """Offer to end the game as it stands: a tie of two seats, or three ranked by their
    scores; it ends so once every other person seated accepts."""

    TYPE = "offer_draw"
    room: str = spec(ROOM_REF)
    version: int | None = spec(VERSION, None)


@dataclass(frozen=True, kw_only=True, slots=True)
class Abort(Message):
    """End the game unrated, before each person seated has made a first move."""

    TYPE = "abort"
    room: str = spec(ROOM_REF)
    version: int = spec(VERSION)


@dataclass(frozen=True, kw_only=True, slots=True)
class Claim(Message):
    """End the game won, every other person seated being away with the computer standing
    in for them: they finish last and the game counts."""

    TYPE = "claim"
    room: str = spec(ROOM_REF)
    version: int = spec(VERSION)


@dataclass(frozen=True, kw_only=True, slots=True)
class NewGame(Message):
    TYPE = "new_game"
    room: str = spec(ROOM_REF)
    board: int | None = spec(BOARD_NUMBER, None)
    call: str | None = spec(Choice(COIN_SIDES), None)
    rotate: bool = spec(BOOL, False)
    version: int | None = spec(VERSION, None)


@dataclass(frozen=True, kw_only=True, slots=True)
class Answer(Message):
    TYPE = "answer"
    room: str = spec(ROOM_REF)
    proposal: str = spec(PROPOSAL_ID)
    accept: bool = spec(BOOL)


@dataclass(frozen=True, kw_only=True, slots=True)
class Chat(Message):
    TYPE = "chat"
    room: str = spec(ROOM_REF)
    text: str = spec(Text(1, MAX_CHAT))


@dataclass(frozen=True, kw_only=True, slots=True)
class Mute(Message):
    """Hide a person's chat from the sender, in every room (kept with the sender's key):
    `player` as their seats and chat lines carry it, or `name` alone for a guest."""

    TYPE = "mute"
    name: str = spec(NAME)
    player: str | None = spec(PLAYER_REF, None)
    on: bool = spec(BOOL, True)


@dataclass(frozen=True, kw_only=True, slots=True)
class Block(Message):
    """Block a person from the sender: they may not sit in a room the sender hosts or sits
    in, their chat is hidden from the sender, and they are never paired together."""

    TYPE = "block"
    name: str = spec(NAME)
    player: str | None = spec(PLAYER_REF, None)
    on: bool = spec(BOOL, True)


@dataclass(frozen=True, kw_only=True, slots=True)
class Report(Message):
    """Report a person in a room to the server's operators, with a reason: kept with the
    room's game and its recent chat."""

    TYPE = "report"
    room: str = spec(ROOM_REF)
    name: str = spec(NAME)
    player: str | None = spec(PLAYER_REF, None)
    reason: str = spec(Text(1, MAX_REASON))


@dataclass(frozen=True, kw_only=True, slots=True)
class RemoveWatcher(Message):
    """The host sends every watcher of `name` out of the room, for the room's life."""

    TYPE = "remove_watcher"
    room: str = spec(ROOM_REF)
    name: str = spec(NAME)


@dataclass(frozen=True, kw_only=True, slots=True)
class ScoreCard(Message):
    TYPE = "score_card"
    game: str = spec(GAME_NAME)
    preset: str | None = spec(Text(1, 32), None)


@dataclass(frozen=True, kw_only=True, slots=True)
class SetInitials(Message):
    TYPE = "initials"
    room: str = spec(ROOM_REF)
    seat: str = spec(COLOUR)
    initials: str = spec(Initials())


@dataclass(frozen=True, kw_only=True, slots=True)
class ExportGame(Message):
    TYPE = "export_game"
    room: str = spec(ROOM_REF)


@dataclass(frozen=True, kw_only=True, slots=True)
class ImportGame(Message):
    TYPE = "import_game"
    room: str = spec(ROOM_REF)
    text: str = spec(GAME_FILE)


@dataclass(frozen=True, kw_only=True, slots=True)
class SaveGame(Message):
    TYPE = "save_game"
    room: str = spec(ROOM_REF)
    name: str = spec(SAVE_NAME)
    replace: bool = spec(BOOL, False)


@dataclass(frozen=True, kw_only=True, slots=True)
class LoadGame(Message):
    TYPE = "load_game"
    room: str = spec(ROOM_REF)
    name: str = spec(SAVE_NAME)


@dataclass(frozen=True, kw_only=True, slots=True)
class ListSaves(Message):
    TYPE = "list_saves"
    game: str | None = spec(GAME_NAME, None)


@dataclass(frozen=True, kw_only=True, slots=True)
class MyGames(Message):
    TYPE = "my_games"


@dataclass(frozen=True, kw_only=True, slots=True)
class Leaderboard(Message):
    TYPE = "leaderboard"
    game: str = spec(GAME_NAME)
    speed: str = spec(Choice(SPEEDS), "none")


@dataclass(frozen=True, kw_only=True, slots=True)
class Replay(Message):
    """One of `record`, `room` or `text`: which game to step through."""

    TYPE = "replay"
    record: str | None = spec(RECORD_ID, None)
    room: str | None = spec(ROOM_REF, None)
    text: str | None = spec(GAME_FILE, None)


@dataclass(frozen=True, kw_only=True, slots=True)
class SetEmail(Message):
    """A player's address for "your turn" mail (protocol.md 2.13); none removes it.
    `digest_hours` left out keeps what it was (24 at first)."""

    TYPE = "set_email"
    address: str | None = spec(EmailAddress(), None)
    digest_hours: int | None = spec(Integer(MIN_DIGEST_HOURS, MAX_DIGEST_HOURS), None)


@dataclass(frozen=True, kw_only=True, slots=True)
class VerifyEmail(Message):
    TYPE = "verify_email"
    code: str = spec(EmailCode())


@dataclass(frozen=True, kw_only=True, slots=True)
class GetEmail(Message):
    TYPE = "get_email"


# Server to client.


@dataclass(frozen=True, kw_only=True, slots=True)
class Welcome(Message):
    TYPE = "welcome"
    version: int = spec(INT)
    server: str = spec(STR)
    games: list[Any] = spec(Shape("game_description", many=True))
    player: dict[str, Any] | None = spec(Shape("player"), None)
    addresses: list[str] | None = spec(TEXTS, None)
    tls: bool = spec(BOOL, False)
    email: bool = spec(BOOL, False)
    muted: list[Any] | None = spec(Shape("person", many=True), None)
    """The people a player mutes (protocol.md 2.14); None for a guest."""
    blocked: list[Any] | None = spec(Shape("person", many=True), None)


@dataclass(frozen=True, kw_only=True, slots=True)
class Rooms(Message):
    TYPE = "rooms"
    rooms: list[Any] = spec(Shape("room_summary", many=True))


@dataclass(frozen=True, kw_only=True, slots=True)
class Seen(Message):
    TYPE = "seen"
    game: str = spec(STR)
    board: int = spec(INT)
    state: dict[str, Any] = spec(Shape("observation"))


@dataclass(frozen=True, kw_only=True, slots=True)
class Joined(Message):
    TYPE = "joined"
    room: dict[str, Any] = spec(Shape("room_view"))
    seat: str | None = spec(SEAT, None)
    token: str = spec(STR)
    host: bool = spec(BOOL)
    code: str | None = spec(STR, None)
    history: list[Any] | None = spec(Shape("history_entry", many=True), None)


@dataclass(frozen=True, kw_only=True, slots=True)
class Watching(Message):
    TYPE = "watching"
    room: dict[str, Any] = spec(Shape("room_view"))
    history: list[Any] | None = spec(Shape("history_entry", many=True), None)


@dataclass(frozen=True, kw_only=True, slots=True)
class Ok(Message):
    TYPE = "ok"


@dataclass(frozen=True, kw_only=True, slots=True)
class Update(Message):
    TYPE = "update"
    room: str = spec(STR)
    version: int = spec(INT)
    seat: str = spec(SEAT)
    move: str = spec(STR)
    passed: list[str] = spec(SEATS)
    state: dict[str, Any] = spec(Shape("observation"))
    clock: dict[str, Any] | None = spec(Shape("clock"), None)


@dataclass(frozen=True, kw_only=True, slots=True)
class RoomView(Message):
    TYPE = "room"
    room: dict[str, Any] = spec(Shape("room_view"))


@dataclass(frozen=True, kw_only=True, slots=True)
class SeatChanged(Message):
    TYPE = "seat_changed"
    room: str = spec(STR)
    seat: str = spec(SEAT)


@dataclass(frozen=True, kw_only=True, slots=True)
class SeatSet(Message):
    TYPE = "seat_set"
    room: str = spec(STR)
    seat: str = spec(SEAT)
    holder: dict[str, Any] = spec(Shape("holder"))
    by: str | None = spec(STR, None)
    after: int | None = spec(INT, None)


@dataclass(frozen=True, kw_only=True, slots=True)
class HintReply(Message):
    TYPE = "hint"
    kind: str = spec(Choice(HINT_KINDS))
    moves: list[str] = spec(TEXTS)


@dataclass(frozen=True, kw_only=True, slots=True)
class Thinking(Message):
    TYPE = "thinking"
    room: str = spec(STR)
    version: int = spec(INT)
    seat: str = spec(SEAT)
    of: str = spec(Choice(THINKING_FOR))
    search: dict[str, Any] = spec(Shape("search"))


@dataclass(frozen=True, kw_only=True, slots=True)
class Suggestion(Message):
    TYPE = "suggestion"
    room: str = spec(STR)
    version: int = spec(INT)
    search: dict[str, Any] = spec(Shape("search"))


@dataclass(frozen=True, kw_only=True, slots=True)
class Proposal(Message):
    TYPE = "proposal"
    room: str = spec(STR)
    proposal: str = spec(STR)
    kind: str = spec(Choice(PROPOSAL_KINDS))
    by: str = spec(SEAT)
    asked: list[str] = spec(SEATS)
    expires_in: int = spec(INT)
    seat: str | None = spec(SEAT, None)
    rotate: bool = spec(BOOL, False)


@dataclass(frozen=True, kw_only=True, slots=True)
class ProposalEnded(Message):
    TYPE = "proposal_ended"
    room: str = spec(STR)
    proposal: str = spec(STR)
    kind: str = spec(Choice(PROPOSAL_KINDS))
    outcome: str = spec(Choice(PROPOSAL_OUTCOMES))
    by: str | None = spec(SEAT, None)
    seat: str | None = spec(SEAT, None)


@dataclass(frozen=True, kw_only=True, slots=True)
class ChatLine(Message):
    TYPE = "chat"
    room: str = spec(STR)
    name: str = spec(STR)
    seat: str | None = spec(SEAT, None)
    text: str = spec(STR)
    player: str | None = spec(STR, None)
    watching: bool = spec(BOOL, False)


@dataclass(frozen=True, kw_only=True, slots=True)
class Removed(Message):
    """The host sent this connection out of a room it watched."""

    TYPE = "removed"
    room: str = spec(STR)


@dataclass(frozen=True, kw_only=True, slots=True)
class ScoreCardReply(Message):
    TYPE = "score_card"
    game: str = spec(STR)
    preset: str | None = spec(STR, None)
    games: int = spec(INT)
    stood_in: int = spec(INT)
    changed_hands: int = spec(INT, 0)
    colours: list[Any] = spec(Shape("colour_line", many=True))
    players: list[Any] = spec(Shape("player_line", many=True))
    best: dict[str, Any] | None = spec(Shape("best_score"), None)


@dataclass(frozen=True, kw_only=True, slots=True)
class GameFileText(Message):
    TYPE = "game_file"
    room: str = spec(STR)
    text: str = spec(Text(0, 1 << 20, lines=True))


@dataclass(frozen=True, kw_only=True, slots=True)
class Saves(Message):
    TYPE = "saves"
    saves: list[Any] = spec(Shape("saved_game", many=True))


@dataclass(frozen=True, kw_only=True, slots=True)
class MyGamesReply(Message):
    TYPE = "my_games"
    playing: list[Any] = spec(Shape("playing_entry", many=True))
    finished: list[Any] = spec(Shape("finished_entry", many=True))


@dataclass(frozen=True, kw_only=True, slots=True)
class VacationReply(Message):
    TYPE = "vacation"
    until: int | None = spec(INT, None)
    days_left: int = spec(INT)


@dataclass(frozen=True, kw_only=True, slots=True)
class YourTurn(Message):
    """A room's turn passed to a seat the player holds, told to their connections that are
    not in the room (protocol.md 2.10)."""

    TYPE = "your_turn"
    room: str = spec(STR)
    ref: str = spec(STR)
    game: str = spec(STR)
    seats: list[str] = spec(SEATS)
    time_left_ms: int | None = spec(INT, None)


@dataclass(frozen=True, kw_only=True, slots=True)
class EmailReply(Message):
    """A player's address for "your turn" mail as the server keeps it (protocol.md 2.13)."""

    TYPE = "email"
    address: str | None = spec(STR, None)
    verified: bool = spec(BOOL, False)
    digest_hours: int = spec(INT, DEFAULT_DIGEST_HOURS)


@dataclass(frozen=True, kw_only=True, slots=True)
class LeaderboardReply(Message):
    TYPE = "leaderboard"
    game: str = spec(STR)
    speed: str = spec(Choice(SPEEDS), "none")
    players: list[Any] = spec(Shape("leader", many=True))


@dataclass(frozen=True, kw_only=True, slots=True)
class ReplayReply(Message):
    TYPE = "replay"
    game: str = spec(STR)
    seats: list[Any] = spec(SEATS)
    names: list[Any] = spec(TEXTS)
    frames: list[Any] = spec(Shape("replay_frame", many=True))
    evaluator: str | None = spec(STR, None)
    worst: list[Any] = spec(Shape("worst_move", many=True))
    result: dict[str, Any] = spec(Shape("replay_result"))
    seat_changes: list[Any] = spec(Shape("seat_change", many=True))


@dataclass(frozen=True, kw_only=True, slots=True)
class Error(Message):
    TYPE = "error"
    id: str | int | None = spec(EchoedId(), None)
    code: str = spec(Word(1, 64, words=tuple(code.value for code in ErrorCode)))
    message: str = spec(STR)
    detail: dict[str, Any] | None = spec(Shape("error_detail"), None)

    @classmethod
    def from_exception(cls, error: ProtocolError, request_id: str | int | None) -> "Error":
        return cls(
            id=request_id, code=error.code.value, message=error.message, detail=error.detail
        )


ClientMessage = (
    Hello
    | ListRooms
    | CreateRoom
    | See
    | Join
    | Spectate
    | Leave
    | SetSeat
    | FillBots
    | Start
    | Move
    | GetRoom
    | Hint
    | ShowThinking
    | Suggest
    | Undo
    | NewGame
    | HandOver
    | Resign
    | OfferDraw
    | Abort
    | Claim
    | TakeVacation
    | GetVacation
    | Answer
    | Chat
    | Mute
    | Block
    | Report
    | RemoveWatcher
    | ScoreCard
    | SetInitials
    | ExportGame
    | ImportGame
    | SaveGame
    | LoadGame
    | ListSaves
    | MyGames
    | Leaderboard
    | Replay
    | SetEmail
    | VerifyEmail
    | GetEmail
)
ServerMessage = (
    Welcome
    | Rooms
    | Seen
    | Joined
    | Watching
    | Ok
    | Update
    | RoomView
    | SeatChanged
    | SeatSet
    | HintReply
    | Thinking
    | Suggestion
    | Proposal
    | ProposalEnded
    | ChatLine
    | Removed
    | ScoreCardReply
    | GameFileText
    | Saves
    | MyGamesReply
    | YourTurn
    | VacationReply
    | EmailReply
    | LeaderboardReply
    | ReplayReply
    | Error
)

CLIENT_MESSAGES: Final[dict[str, type[Message]]] = {
    kind.TYPE: kind
    for kind in (
        Hello,
        ListRooms,
        CreateRoom,
        See,
        Join,
        Spectate,
        Leave,
        SetSeat,
        FillBots,
        Start,
        Move,
        GetRoom,
        Hint,
        ShowThinking,
        Suggest,
        Undo,
        NewGame,
        HandOver,
        Resign,
        OfferDraw,
        Abort,
        Claim,
        TakeVacation,
        GetVacation,
        Answer,
        Chat,
        Mute,
        Block,
        Report,
        RemoveWatcher,
        ScoreCard,
        SetInitials,
        ExportGame,
        ImportGame,
        SaveGame,
        LoadGame,
        ListSaves,
        MyGames,
        Leaderboard,
        Replay,
        SetEmail,
        VerifyEmail,
        GetEmail,
    )
}
SERVER_MESSAGES: Final[dict[str, type[Message]]] = {
    kind.TYPE: kind
    for kind in (
        Welcome,
        Rooms,
        Seen,
        Joined,
        Watching,
        Ok,
        Update,
        RoomView,
        SeatChanged,
        SeatSet,
        HintReply,
        Thinking,
        Suggestion,
        Proposal,
        ProposalEnded,
        ChatLine,
        Removed,
        ScoreCardReply,
        GameFileText,
        Saves,
        MyGamesReply,
        YourTurn,
        VacationReply,
        EmailReply,
        LeaderboardReply,
        ReplayReply,
        Error,
    )
}


def request_id(wire: WireMessage) -> str | int | None:
    """The message's `id` as an error carries it back (`EchoedId`: any string, or an
    integer both subprotocols carry), valid or not, so that a refusal (of the id itself
    too) can be matched; None for anything else, which cannot be carried back."""
    try:
        value: str | int = EchoedId().read("id", wire.get("id"))
    except ProtocolError:
        return None
    return value


def _read(wire: WireMessage, registry: dict[str, type[Message]]) -> Message:
    kind = registry.get(wire["type"])
    if kind is None:
        raise ProtocolError(
            ErrorCode.UNKNOWN_TYPE,
            f"there is no message of type '{wire['type'][:64]}'",
            detail={"type": wire["type"][:64]},
        )
    return kind.from_wire(wire)


def read_client_message(wire: WireMessage) -> ClientMessage:
    """A decoded map from a client as its message; ProtocolError if it is not one."""
    return _read(wire, CLIENT_MESSAGES)  # type: ignore[return-value]


def read_server_message(wire: WireMessage) -> ServerMessage:
    """A decoded map from the server as its message; ProtocolError if it is not one."""
    return _read(wire, SERVER_MESSAGES)  # type: ignore[return-value]
