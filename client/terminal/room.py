"""A room as the client knows it: the last room view, updates applied, and what to say
about it. Pure: messages in, words out; the app draws them."""

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.protocol import messages as m

from .clocks import ClockFace, Clocks, control_label, span_text

PROPOSALS = {"undo": "to take back a move", "new_game": "to start a new game"}


def proposed_words(kind: str, seat: str | None) -> str:
    """What a proposal asks for, in words: `to take back a move`."""
    if kind == "hand_over":
        return f"to let the computer play {title(seat or '?')} while its player is away"
    return PROPOSALS.get(kind, f"a {kind}")


def ended_words(ended: m.ProposalEnded) -> str:
    """How a proposal ended, in words."""
    what = proposed_words(ended.kind, ended.seat)
    if ended.outcome == "accepted":
        return f"Everyone agreed {what}."
    if ended.outcome == "declined" and ended.by:
        return f"{title(ended.by)} declined {what}."
    nothing = {"undo": "undo", "new_game": "new game"}.get(ended.kind, "hand-over")
    return f"No answer in time: no {nothing}."


SCORE_UNITS = {
    "othello": (100, "square", "squares"),
    "tribolo": (100, "square", "squares"),
    "doublolo": (100, "square", "squares"),
    "numlo": (100, "point", "points"),
    "oubliette": (1000, "piece pushed off", "pieces pushed off"),
    "tripppin": (2, "step in the race", "steps in the race"),
}
"""How many of a search's score units make one of what the game counts, and its names."""


def describe_search(game: str, search: Mapping[str, Any]) -> str:
    """A search's findings: the expected moves, and how it judges them in the game's terms."""
    line = " ".join(str(move) for move in search.get("line", [])) or str(search.get("move"))
    depth, nodes = search.get("depth", 0), search.get("nodes", 0)
    return f"{line}\n{judged_words(game, search)}; {depth} turns deep, {nodes:,} positions"


def judged_words(game: str, search: Mapping[str, Any]) -> str:
    """How the mover stands at the end of the expected line: a forced end, or an estimate."""
    forced = search.get("forced")
    if forced is not None:
        turns = abs(int(forced))
        return f"{'wins' if forced > 0 else 'loses'} in {turns} turn{'s' * (turns != 1)}"
    per, one, many = SCORE_UNITS.get(game, (1, "point", "points"))
    worth = int(search.get("score", 0)) / per
    if abs(worth) < 0.05:
        return "about even"
    place = "ahead" if worth > 0 else "behind"
    return f"about {abs(worth):.1f} {one if abs(worth) == 1 else many} {place}"


def changed_words(before: Sequence[str], after: Sequence[str], *, new_game: bool) -> str:
    """What a new room view did to the moves: moves played that no update told of (as
    while a cluster's room changes servers), a new game (when one was on its way), moves
    taken back, or another game loaded; else nothing."""
    if len(after) >= len(before) and list(after[: len(before)]) == list(before):
        missed = list(after[len(before) :])
        return f"Played meanwhile: {', '.join(missed)}." if missed else ""
    if new_game and not after:
        return "A new game began."
    if list(before[: len(after)]) == list(after):
        taken = len(before) - len(after)
        return f"{taken} move{'s' * (taken != 1)} taken back."
    return "Another game was put on the board (loaded or imported)."


def moved_ago(moved_at: float, now: float) -> str:
    """How long ago a room last moved, as the lobby says it: "just now", "3 min ago"."""
    seconds = max(0, int(now - moved_at))
    if seconds < 60:
        return "just now"
    if seconds < 3_600:
        return f"{seconds // 60} min ago"
    hours = seconds // 3_600
    if hours < 24:
        return f"{hours} hour{'s' * (hours != 1)} ago"
    days = hours // 24
    return f"{days} day{'s' * (days != 1)} ago"


def chat_words(line: m.ChatLine) -> str:
    """A chat line as the log shows it."""
    who = line.name if line.seat is None else f"{line.name} ({title(line.seat)})"
    return f"{who}: {line.text}"


def played_words(
    holder: Mapping[str, Any], colour: str, move: str, passed: Sequence[str] = ()
) -> str:
    """A move as the log says it, with who made it and any seats passed over after it:
    `ann (Blue) played d3.`, `The computer for ann (Red) played b1.`"""
    name, kind = holder.get("name"), holder.get("kind")
    if kind == "human":
        who = str(name)
    elif kind in ("bot", "standin"):
        who = f"The computer for {name}" if name else "The computer"
    else:
        who = "Someone"
    played = f"{who} ({title(colour)}) played {move}."
    passes = [f"{title(seat)} cannot move and passes." for seat in passed]
    return " ".join([played, *passes])


def title(colour: str) -> str:
    """A colour as a name: `blue` is Blue."""
    return colour.capitalize()


def describe_holder(holder: Mapping[str, Any], *, mine: bool = False) -> str:
    """Who holds a seat, in a few words."""
    kind = holder.get("kind")
    if kind == "human":
        name = str(holder.get("name", "?"))
        if mine:
            name += " (you)"
        return name if holder.get("connected", True) else f"{name}, disconnected"
    if kind == "bot" and holder.get("name"):
        return f"computer (level {holder.get('level')}) for {holder.get('name')}"
    if kind == "bot":
        return f"computer, level {holder.get('level')}"
    if kind == "standin":
        return f"computer (level {holder.get('level')}) for {holder.get('name')}"
    return "open"


def flagged_words(colour: str, name: str | None, *, ends: bool) -> str:
    """A seat out of time, as the log says it: `Bob (Red) ran out of time.`, and where the
    game goes on, that the computer plays the seat on."""
    who = f"{name} ({title(colour)})" if name else title(colour)
    return f"{who} ran out of time{'.' if ends else '; the computer plays on.'}"


def paused_words(colour: str, given_ms: int) -> str:
    """A clock given back the time its server was away."""
    return f"The server was away: {title(colour)} was given back {span_text(given_ms)}."


def seat_words(change: m.SeatSet) -> str:
    """A seat that changed hands, as the log says it."""
    who = change.by or "The server"
    holder = change.holder
    kind = holder.get("kind")
    seat = title(change.seat)
    if kind == "human":
        name = holder.get("name")
        if change.by is None:
            return f"{name} is back in {seat}."
        if name == change.by:
            return f"{name} took {seat}."
        return f"{who} gave {seat} to {name}."
    if kind in ("bot", "standin"):
        level = holder.get("level")
        if kind == "standin" and change.by is None:
            return f"The computer (level {level}) plays {seat} until {holder.get('name')} is back."
        return f"{who} handed {seat} to the computer, level {level}."
    return f"{who} opened {seat} for someone to take."


def coin_words(coin: Mapping[str, Any]) -> str:
    """A coin toss for who moves first, in words."""
    return (
        f"{title(str(coin['by']))} called {coin['call']}; it landed {coin['landed']}:"
        f" {title(str(coin['first']))} moves first."
    )


def levels_in(welcome: m.Welcome | None, game: str) -> list[str]:
    """The computer levels the server offers for `game`, weakest first."""
    games = welcome.games if welcome is not None else []
    for described in games:
        if isinstance(described, dict) and described.get("name") == game:
            return [str(level) for level in described.get("levels", [])]
    return []


def default_level_in(welcome: m.Welcome | None, game: str, levels: Sequence[str]) -> str:
    """The level the server offers first for `game`: the original's default."""
    games = welcome.games if welcome is not None else []
    for described in games:
        if isinstance(described, dict) and described.get("name") == game:
            level = described.get("default_level")
            if isinstance(level, str) and level in levels:
                return level
    return middle_level(levels)


def middle_level(levels: Sequence[str]) -> str:
    """The level offered first: a middling one, neither the weakest nor the strongest."""
    return levels[(len(levels) - 1) // 2]


def score_text(scores: Mapping[str, int]) -> str:
    return "  ".join(f"{title(colour)} {score}" for colour, score in scores.items())


def race_text(observation: Mapping[str, Any]) -> str:
    """Tripppin's standing: the targets each piece has reached of its route."""
    routes = observation.get("routes", {})
    reached = observation.get("progress", {})
    each = [f"{title(c)} {reached.get(c, 0)} of {len(route)}" for c, route in routes.items()]
    return "Targets reached: " + "  ".join(each)


def stuck_seat(observation: Mapping[str, Any]) -> str | None:
    """The Tripppin piece that could not move and so lost, if that ended the game."""
    winners = observation.get("winners", [])
    routes, reached = observation.get("routes", {}), observation.get("progress", {})
    if not observation.get("over") or len(winners) != 1:
        return None
    winner = winners[0]
    if reached.get(winner, 0) >= len(routes.get(winner, [])):
        return None
    return next((colour for colour in routes if colour != winner), None)


@dataclass
class RoomModel:
    """One room this connection is in, seated or watching."""

    view: dict[str, Any]
    ref: str
    """How this connection names the room to the server: a private room's code, else its id."""
    seat: str | None = None
    """The seat this screen plays now: the one to move where it plays several."""
    token: str | None = None
    host: bool = False
    code: str | None = None
    news: str = ""
    """What just happened, in words: the last move and any passes, or the result."""
    thinking: dict[str, Any] | None = None
    """The latest search shown: a bot's thoughts or a suggestion's."""
    thinking_of: str = ""
    stale: bool = False
    """An update was missed: the room should be fetched again."""
    proposal: m.Proposal | None = None
    """An undo or new game waiting for answers."""
    new_game_coming: bool = False
    """A new game was asked from this screen or agreed to, so an empty board that comes
    next is a new game and not every move taken back."""
    history: list[dict[str, Any]] = field(default_factory=list)
    """What happened in the room lately, as the server kept it (protocol.md 2.11), from the
    answer that let this connection in."""
    now: Callable[[], float] = field(default=time.monotonic, repr=False, compare=False)
    """The local clock the seats' clocks count down by (monotonic seconds): a test's own."""
    clocks: Clocks | None = field(default=None, init=False)
    """The seats' clocks as the last message carrying them said, and when it came."""

    def __post_init__(self) -> None:
        self.clocks = Clocks.read(self.view.get("clock"), self.now())

    @classmethod
    def joined(
        cls, message: m.Joined, ref: str | None = None, now: Callable[[], float] = time.monotonic
    ) -> "RoomModel":
        """The room just joined; `ref` is what it was joined by (the code, for a guest)."""
        room = cls(
            message.room,
            message.code or ref or str(message.room["room"]),
            token=message.token,
            host=message.host,
            code=message.code,
            now=now,
        )
        room.seat = room.playing_now()
        room.history = list(message.history or [])
        return room

    @classmethod
    def watching(
        cls, message: m.Watching, ref: str, now: Callable[[], float] = time.monotonic
    ) -> "RoomModel":
        room = cls(message.room, ref, now=now)
        room.history = list(message.history or [])
        return room

    @property
    def room_id(self) -> str:
        return str(self.view["room"])

    @property
    def game(self) -> str:
        return str(self.view["game"])

    @property
    def status(self) -> str:
        return str(self.view["status"])

    @property
    def version(self) -> int:
        return int(self.view["version"])

    @property
    def observation(self) -> dict[str, Any] | None:
        state = self.view.get("state")
        return state if isinstance(state, dict) else None

    @property
    def seats(self) -> list[dict[str, Any]]:
        return list(self.view["seats"])

    @property
    def flagged(self) -> list[str]:
        """The seats that ran out of time in this game, in order."""
        return [str(colour) for colour in self.view.get("flagged") or []]

    @property
    def time_control(self) -> str:
        """The room's time control as players name it, empty where it has no clock."""
        control = self.view.get("time_control")
        if not isinstance(control, dict) or control.get("kind", "none") == "none":
            return ""
        return control_label(control)

    def clock_faces(self, now: float) -> dict[str, ClockFace]:
        """What each seat's clock shows at `now` (local monotonic seconds); none for a room
        without a clock, or before its game starts."""
        clocks = self.clocks
        if clocks is None:
            return {}
        faces = {}
        for colour in clocks.left_ms:
            face = clocks.face(colour, now, out=colour in self.flagged)
            if face is not None:
                faces[colour] = face
        return faces

    def flag_words(self, before: Sequence[str]) -> list[str]:
        """The log's lines for the seats flagged since `before` was the list: the last of
        them ended the game where it is over."""
        new = [colour for colour in self.flagged if colour not in before]
        over = self.status == "finished"
        return [
            flagged_words(colour, self.holder(colour).get("name"), ends=over and colour == new[-1])
            for colour in new
        ]

    @property
    def to_move(self) -> str | None:
        observation = self.observation
        return None if observation is None else observation.get("to_move")

    @property
    def preset(self) -> str:
        """The board preset whose score card this room's games count on: a named board,
        `custom` for a game from a position of its own, else `standard`."""
        if self.view.get("position"):
            return "custom"
        board = self.view.get("options", {}).get("board")
        return board if isinstance(board, str) and board != "random" else "standard"

    @property
    def yours(self) -> list[str]:
        """Every seat that is this screen's: played here, or by the computer for it."""
        return [str(colour) for colour in self.view.get("yours", [])]

    @property
    def playing(self) -> list[str]:
        """The seats this screen plays as people: several where people share it."""
        return [colour for colour in self.yours if self.holder(colour).get("kind") == "human"]

    def playing_now(self) -> str | None:
        """The seat this screen plays whose turn it is, else its first."""
        playing = self.playing
        if self.to_move in playing:
            return self.to_move
        return playing[0] if playing else None

    @property
    def shared(self) -> bool:
        """Whether people share this screen: it plays more than one seat."""
        return len(self.playing) > 1

    def may_change(self, colour: str) -> bool:
        """Whether this screen may change who holds `colour`: the host any seat no other
        connected person holds, anyone their own seats and open ones."""
        holder = self.holder(colour)
        if colour in self.yours or holder.get("kind") == "open":
            return True
        return self.host and not holder.get("connected", False)

    def calls_coin(self, welcome: m.Welcome | None) -> bool:
        """Whether this screen's person calls a coin for who moves first: a game that tosses
        one (Doublolo), its first player left to chance, and a seat played here."""
        games = welcome.games if welcome is not None else []
        tosses = any(
            isinstance(game, dict) and game.get("name") == self.game and game.get("first_by_coin")
            for game in games
        )
        left_to_chance = self.view.get("options", {}).get("first") == "random" or bool(
            self.view.get("coin")
        )
        return tosses and left_to_chance and not self.view.get("position") and bool(self.playing)

    def away_seats(self) -> list[str]:
        """The seats this screen may ask the computer to play (`hand_over`, protocol.md
        2.7): in a room with a clock, while its game is played, each seat of a person who is
        away; asked by a person seated here, of a seat not this screen's."""
        if not self.time_control or self.status != "playing" or not self.playing:
            return []
        return [
            str(seat["colour"])
            for seat in self.seats
            if seat["holder"].get("kind") == "human"
            and seat["holder"].get("connected") is False
            and seat["colour"] not in self.yours
            and seat["colour"] not in self.flagged
        ]

    def others_asked(self, colour: str) -> list[str]:
        """The people a hand-over of `colour` waits on: every other person seated, away or
        not, but the one whose seat it is and this screen's."""
        return [
            str(seat["colour"])
            for seat in self.seats
            if seat["holder"].get("kind") in ("human", "standin")
            and seat["colour"] not in (colour, *self.yours)
        ]

    @property
    def asks_me(self) -> bool:
        """Whether an open proposal waits for an answer from this screen."""
        return self.proposal is not None and bool(set(self.yours) & set(self.proposal.asked))

    @property
    def my_turn(self) -> bool:
        return self.status == "playing" and self.to_move in self.playing

    def holder(self, colour: str | None) -> dict[str, Any]:
        return next((s["holder"] for s in self.seats if s["colour"] == colour), {"kind": "open"})

    def apply(self, message: m.ServerMessage) -> bool:
        """Take in a message from the server; whether it was about this room."""
        match message:
            case m.Update() if message.room == self.room_id:
                self._update(message)
            case m.RoomView() if message.room.get("room") == self.room_id:
                self._view(message.room)
            case m.Thinking() if message.room == self.room_id:
                if message.version == self.version:
                    self.thinking = message.search
                    who = "suggestion" if message.of == "suggestion" else title(message.seat)
                    self.thinking_of = who
            case m.Suggestion() if message.room == self.room_id:
                self.thinking, self.thinking_of = message.search, "suggestion"
            case m.Proposal() if message.room == self.room_id:
                self.proposal = message
                self.news = (
                    f"{title(message.by)} asks {proposed_words(message.kind, message.seat)}."
                )
            case m.ProposalEnded() if message.room == self.room_id:
                self.proposal = None
                self.new_game_coming = message.kind == "new_game" and message.outcome == "accepted"
                self.news = ended_words(message)
            case m.ChatLine() if message.room == self.room_id:
                pass
            case m.SeatChanged() if message.room == self.room_id:
                self.seat = self.token = None
                self.host = False
                self.stale = True
                self.news = "Your seat was taken back from another connection: you are watching."
            case m.SeatSet() if message.room == self.room_id:
                self.news = seat_words(message)
            case _:
                return False
        return True

    def _update(self, update: m.Update) -> None:
        if update.version <= self.version:
            return
        mover = self.holder(update.seat)
        if update.version != self.version + 1:
            self.stale = True
        view = dict(self.view)
        view["version"] = update.version
        view["moves"] = [*self.view.get("moves", []), update.move]
        view["state"] = update.state
        if update.state.get("over"):
            view["status"] = "finished"
        if update.clock is not None:
            view["clock"] = update.clock
            self.clocks = Clocks.read(update.clock, self.now())
        self.view = view
        self.thinking = None
        self.seat = self.playing_now()
        self.news = played_words(mover, update.seat, update.move, update.passed)

    def rejoined(self, message: m.Joined | m.Watching) -> None:
        """Back in the room after a reconnection, as the answer says."""
        if isinstance(message, m.Joined):
            self.token, self.host = message.token, message.host
        self.history = list(message.history or [])
        self._view(message.room)

    def _view(self, view: dict[str, Any]) -> None:
        """A whole room view, unless it is older than what is shown (an update overtook it)."""
        version = int(view["version"])
        if version < self.version:
            return
        if version != self.version:
            self.thinking = None
            new_game = self.new_game_coming or self.status == "finished"
            before = self.view.get("moves", [])
            self.news = (
                changed_words(before, view.get("moves", []), new_game=new_game) or self.news
            )
            self.new_game_coming = False
        coin = view.get("coin")
        if coin and coin != self.view.get("coin"):
            self.news = coin_words(coin)
        self._clock_from(view, same_version=version == self.version)
        before = self.flagged
        self.view = view
        flags = self.flag_words(before)
        if flags:
            self.news = " ".join(flags)
        self.stale = False
        self.seat = self.playing_now()

    def _clock_from(self, view: Mapping[str, Any], *, same_version: bool) -> None:
        """The clocks of a view being taken in, unless one made before the clocks shown of
        the same position (an update that overtook it)."""
        clocks = Clocks.read(view.get("clock"), self.now())
        held = self.clocks
        if same_version and clocks is not None and held is not None and clocks.at_ms < held.at_ms:
            return
        self.clocks = clocks

    def status_line(self) -> str:
        """Whose turn, who is thinking, or the result; with the scores."""
        observation = self.observation
        if self.status == "waiting" or observation is None:
            open_seats = sum(1 for s in self.seats if s["holder"]["kind"] == "open")
            if not open_seats:
                return "Waiting to start: every seat is taken." + (
                    " F9 starts the game." if self.host else ""
                )
            ask = " F11 fills them with computers, then F9 starts." if self.host else ""
            seats = "seat is" if open_seats == 1 else "seats are"
            return f"Waiting to start: {open_seats} {seats} open.{ask}"
        racing = "routes" in observation
        scores = race_text(observation) if racing else score_text(observation.get("scores", {}))
        if observation.get("over") or self.status == "finished":
            return f"{self.result()}   {scores}"
        mover = observation.get("to_move")
        if mover in self.playing and self.shared:
            name = self.holder(mover).get("name")
            turn = f"{title(str(mover))} ({name}) to move: pass the keyboard"
        elif mover in self.playing:
            turn = "Your move"
        elif self.holder(mover)["kind"] in ("bot", "standin"):
            turn = f"{title(str(mover))} is thinking..."
        else:
            turn = f"{title(str(mover))} to move"
        target = observation.get("targets", {}).get(mover) if racing else None
        if target and mover in self.playing:
            turn += f": try to reach the flashing frame ({target})"
        return f"{turn}   {scores}"

    def seat_name(self, colour: str) -> str:
        """A seat as a result names it: its person and colour (`Ann (Blue)`), or the
        computer's."""
        holder = self.holder(colour)
        if holder.get("name"):
            return f"{holder['name']} ({title(colour)})"
        if holder.get("kind") == "bot":
            return f"the computer ({title(colour)})"
        return title(colour)

    def result_on_time(self) -> str:
        """The result of a game a flag ended (protocol.md 2.12), as the view's `winners` say:
        the seat left timed wins, or of two seats both tie where it could not have won."""
        winners = [str(colour) for colour in self.view.get("winners") or []]
        if not winners:
            return "Game over on time."
        if len(winners) == len(self.seats):
            return "Game over on time: a draw, for the other seat could no longer have won."
        winner = winners[0]
        if self.seat == winner and not self.shared:
            return "Game over: you win on time!"
        return f"Game over: {self.seat_name(winner)} wins on time."

    def result(self) -> str:
        """The finished game's result, from the viewer's side where seated."""
        observation = self.observation or {}
        ended = self.view.get("ended")
        if ended == "flag":
            return self.result_on_time()
        if ended == "aborted":
            return "Game aborted before everyone had moved: nobody wins, and it is not rated."
        winners = [str(colour) for colour in observation.get("winners", [])]
        if ended == "resigned":
            resigned = [str(colour) for colour in self.view.get("resigned") or []]
            gave_up = self.seat_name(resigned[-1]) if resigned else "A seat"
            won = " and ".join(self.seat_name(colour) for colour in winners)
            return f"{gave_up} resigned: {won} {'wins' if len(winners) == 1 else 'share the win'}."
        if ended == "agreed" and len(winners) == len(self.seats):
            return "Game over by agreement: a draw."
        if not winners or len(winners) == len(self.seats):
            return "Game over: a draw."
        stuck = stuck_seat(observation)
        if stuck is not None:
            stuck_name = self.seat_name(stuck).replace("the computer", "The computer")
            return f"{stuck_name} CAN'T MOVE! {self.seat_name(winners[0])} wins."
        if self.seat is not None and not self.shared:
            if winners == [self.seat]:
                return "Game over: you win!"
            if self.seat in winners:
                return "Game over: you share the win."
        names = " and ".join(self.seat_name(colour) for colour in winners)
        return f"Game over: {names} {'wins' if len(winners) == 1 else 'share the win'}."
