"""A room as the client knows it: the last room view, updates applied, and what to say
about it. Pure: messages in, words out; the app draws them."""

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.protocol import messages as m

from .clocks import ClockFace, Clocks, control_label, span_text
from .conduct import Person, Standing, seated_person

PROPOSALS = {
    "undo": "to take back a move",
    "new_game": "to start a new game",
    "rematch": "to play a rematch",
    "draw": "to agree a draw",
    "ranked": "to end the game now, ranked by the scores as they stand",
}
"""What each kind of proposal asks for; a new game after the end is a rematch, and a
draw of three seats is a ranking."""
LAPSED = {
    "undo": "no undo",
    "new_game": "no new game",
    "rematch": "no rematch",
    "draw": "no draw",
    "ranked": "the game goes on",
    "hand_over": "no hand-over",
}
"""What a proposal nobody answered in time leaves."""
OUTLIVED = {
    "undo": "The undo asked for",
    "draw": "The draw offer",
    "ranked": "The offer to end the game now",
    "hand_over": "The hand-over asked for",
}
"""A proposal the game changed under, as a sentence names it."""


EARLY_S = 2.0
"""How long before its time a proposal must expire to have been ended by a change to the
game rather than by silence: the server's ticks and the network's delays are shorter."""


def proposal_sort(kind: str, *, seats: int, over: bool) -> str:
    """The kind of proposal as it reads in its room: a new game after the game is over is a
    rematch, and a draw of more than two seats ranks them."""
    if kind == "new_game" and over:
        return "rematch"
    if kind == "draw" and seats > 2:
        return "ranked"
    return kind


def proposed_words(kind: str, seat: str | None, *, seats: int = 2, over: bool = False) -> str:
    """What a proposal asks for, in words: `to take back a move`."""
    if kind == "hand_over":
        return f"to let the computer play {title(seat or '?')} while its player is away"
    return PROPOSALS.get(proposal_sort(kind, seats=seats, over=over), f"a {kind}")


def ended_words(
    ended: m.ProposalEnded,
    *,
    seats: int = 2,
    over: bool = False,
    outlived: bool = False,
    who: str | None = None,
) -> str:
    """How a proposal ended, in words; `over` where it was asked after its game ended (a
    rematch), `outlived` where it expired because the game changed under it: it ended, or
    a seat went out of it (protocol.md 2.7). `who` names the seat that declined (`You`),
    else its colour does."""
    what = proposed_words(ended.kind, ended.seat, seats=seats, over=over)
    sort = proposal_sort(ended.kind, seats=seats, over=over)
    if ended.outcome == "accepted":
        return "A draw was agreed." if sort == "draw" else f"Everyone agreed {what}."
    if ended.outcome == "declined" and ended.by:
        who = who or title(ended.by)
        return f"{who} declined the draw." if sort == "draw" else f"{who} declined {what}."
    if outlived and sort in OUTLIVED:
        return f"{OUTLIVED[sort]} lapsed: the game changed before everyone had answered."
    return f"No answer in time: {LAPSED.get(sort, 'nothing changed')}."


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
    if new_game and not after:
        return "A new game began."
    if len(after) >= len(before) and list(after[: len(before)]) == list(before):
        missed = list(after[len(before) :])
        return f"Played meanwhile: {', '.join(missed)}." if missed else ""
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


def out_words(colour: str, name: str | None, how: str, *, ends: bool) -> str:
    """A seat out of the game (`how`: `flag` or `resigned`), as the log says it: `Bob (Red)
    ran out of time.`, and where the game goes on, that the computer plays the seat on."""
    who = f"{name} ({title(colour)})" if name else title(colour)
    done = "ran out of time" if how == "flag" else "resigned"
    return f"{who} {done}{'.' if ends else '; the computer plays on.'}"


def claimed_words(colour: str, name: str | None) -> str:
    """A game claimed by the one person who stayed, as the log says it."""
    who = f"{name} ({title(colour)})" if name else title(colour)
    return f"{who} claimed the game while the others were away."


def aborted_words(colour: str, name: str | None, *, late: bool) -> str:
    """An aborted game as the log says it: who aborted it, or made no first move in time."""
    who = f"{name} ({title(colour)})" if name else title(colour)
    if late:
        return f"{who} made no first move in time: the game is aborted and counts for nobody."
    return f"{who} aborted the game: it counts for nobody."


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
    proposal_due: float = 0.0
    """When silence ends the open proposal, on the local clock (`now`)."""
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
    lost_seat: str | None = None
    """The seat this screen was told it no longer holds (`seat_changed`), until the seat's
    change says whether the host opened it or another screen took it back."""
    standing: Standing = field(default_factory=Standing, compare=False)
    """Whom this player mutes and blocks: the app's, shared by every room it enters."""
    heard: list[Person] = field(default_factory=list)
    """Everyone heard in the room's chat (its history's too), each once, in order."""
    watchers_said: list[tuple[Person, str]] = field(default_factory=list)
    """The watchers' chat, kept apart from the players' (protocol.md 2.7): who said each
    line, and the line as the log words it."""

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
        room.read_history(message.history)
        return room

    @classmethod
    def watching(
        cls, message: m.Watching, ref: str, now: Callable[[], float] = time.monotonic
    ) -> "RoomModel":
        room = cls(message.room, ref, now=now)
        room.read_history(message.history)
        return room

    def read_history(self, entries: list[Any] | None) -> None:
        """The room's history as the answer that let this connection in carried it, with
        who spoke in it and what the watchers said."""
        self.history = list(entries or [])
        self.heard, self.watchers_said = [], []
        for entry in self.history:
            if not isinstance(entry, dict) or entry.get("kind") != "chat":
                continue
            try:
                line = m.ChatLine(
                    room="", name=entry["name"], seat=entry.get("seat"), text=entry["text"]
                )
            except (KeyError, TypeError):
                continue
            self.hear(line, watching=entry.get("watching") is True)

    def hear(self, line: m.ChatLine, *, watching: bool) -> None:
        """A line of chat: its author noted, and a watcher's kept apart."""
        person = Person(line.name, line.player)
        if not person.among(self.heard):
            self.heard.append(person)
        if watching:
            self.watchers_said.append((person, chat_words(line)))

    def players_history(self) -> list[dict[str, Any]]:
        """The history the log tells: without the watchers' chat, which is kept apart, nor
        the lines of anyone this player mutes or blocks (history entries name them by their
        name alone)."""
        return [
            entry
            for entry in self.history
            if not (
                isinstance(entry, dict)
                and entry.get("kind") == "chat"
                and (
                    entry.get("watching") is True
                    or self.standing.hides(Person(str(entry.get("name"))))
                )
            )
        ]

    def watchers_lines(self) -> list[str]:
        """The watchers' chat as shown, without the lines of those muted or blocked."""
        return [words for person, words in self.watchers_said if not self.standing.hides(person)]

    @property
    def watcher(self) -> bool:
        """Whether this screen's person pressed Watch: neither seated nor the host. What they
        say goes to the watchers' chat."""
        return not self.yours and not self.host

    @property
    def watchers(self) -> list[Person]:
        """Who watches the room (the view's `watchers`)."""
        found = (Person.read(entry) for entry in self.view.get("watchers") or [])
        return [person for person in found if person is not None]

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
    def resigned(self) -> list[str]:
        """The seats that resigned this game, in order."""
        return [str(colour) for colour in self.view.get("resigned") or []]

    @property
    def out(self) -> list[str]:
        """The seats out of this game, out of time or resigned: they finish last."""
        return [*self.flagged, *(colour for colour in self.resigned if colour not in self.flagged)]

    @property
    def over(self) -> bool:
        return self.status == "finished"

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

    def out_words(self, before: Sequence[str]) -> list[str]:
        """The log's lines for the seats out of the game since `before` was the list of them
        (`out`): the last of them ended the game where it is over."""
        new = [colour for colour in self.out if colour not in before]
        return [
            out_words(
                colour,
                self.holder(colour).get("name"),
                "flag" if colour in self.flagged else "resigned",
                ends=self.over and colour == new[-1],
            )
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
    def may_abort(self) -> bool:
        """Whether this screen may abort the game now: it plays a seat in it, and some person
        seated has not made a first move (the view's `abortable`)."""
        return self.status == "playing" and bool(self.playing) and bool(self.view.get("abortable"))

    @property
    def may_resign(self) -> bool:
        """Whether this screen may resign the game now: it plays a seat in it, and everyone
        has moved (before that, resigning is aborting)."""
        return self.status == "playing" and bool(self.playing) and not self.view.get("abortable")

    @property
    def may_offer_draw(self) -> bool:
        """Whether this screen may offer a draw: it plays a seat in the game, and another
        person is seated and still in it to accept (the computer accepts none)."""
        return (
            self.status == "playing"
            and bool(self.playing)
            and any(
                seat["holder"].get("name")
                and seat["colour"] not in self.yours
                and seat["colour"] not in self.out
                for seat in self.seats
            )
        )

    def claim_away(self) -> list[str]:
        """The seats of the other people still in the game: every one must be away, the
        computer standing in, for the game to be claimed (protocol.md 2.7 `claim`)."""
        return [
            str(seat["colour"])
            for seat in self.seats
            if seated_person(seat["holder"]) is not None
            and seat["colour"] not in self.yours
            and seat["colour"] not in self.out
        ]

    @property
    def may_claim(self) -> bool:
        """Whether this screen may claim the game now: it plays a seat in it, and every
        other person seated is away with the computer standing in for them."""
        away = self.claim_away()
        return (
            self.status == "playing"
            and bool(self.playing)
            and bool(away)
            and all(self.holder(colour).get("kind") == "standin" for colour in away)
        )

    def claim_question(self) -> str:
        """What claiming the game does, asked before it is done: who is away, that the one
        claiming wins, and whether the game counts; before everyone has moved, an abort."""
        names = [str(self.holder(colour).get("name")) for colour in self.claim_away()]
        away = f"{' and '.join(names)} {'is' if len(names) == 1 else 'are'} away"
        if self.view.get("abortable"):
            return (
                f"Claim the game? {away}, but not everyone has made a first move: the game"
                " is aborted instead, and counts for nobody."
            )
        wins = f"{self.seat_name(str(self.seat))} wins" if self.shared else "you win"
        if self.view.get("rated"):
            return f"Claim the game? {away}; {wins} and the game counts."
        why = self.view.get("unrated") or "it is not rated"
        return f"Claim the game? {away}; {wins}. The game counts for no rating: {why}."

    def proposal_words(self, kind: str, seat: str | None) -> str:
        """What a proposal in this room asks for, as its game stands."""
        return proposed_words(kind, seat, seats=len(self.seats), over=self.over)

    def asked_words(self, proposal: m.Proposal) -> str:
        """A proposal made, as the log says it: who asks what, or that this screen asked
        and waits: `Bob (White) asks to agree a draw.`"""
        what = self.proposal_words(proposal.kind, proposal.seat)
        if proposal.by in self.yours and not self.shared:
            answers = "an answer" if len(proposal.asked) == 1 else "answers"
            return f"You asked {what}; waiting for {answers}."
        return f"{self.seat_name(proposal.by)} asks {what}."

    def resign_question(self) -> str:
        """What resigning the seat played now does, asked before it is done: of two seats
        in the game the other wins; of more, the seat finishes last and the computer plays
        it on. Whether the game counts for ratings, or why not."""
        seat = str(self.seat)
        shared = self.shared
        ask = f"Resign this game for {self.seat_name(seat)}?" if shared else "Resign this game?"
        left = [str(s["colour"]) for s in self.seats if s["colour"] not in (seat, *self.out)]
        why = self.view.get("unrated") or "it is not rated"
        if len(left) == 1:
            ratings = "both ratings" if len(self.seats) == 2 else "every player's rating"
            rated = f", and the game counts for {ratings}" if self.view.get("rated") else ""
            unrated = "" if rated else f". The game counts for no rating: {why}"
            return f"{ask} {self.named(left[0], you=False)} wins{rated}{unrated}."
        who = f"{self.seat_name(seat)} finishes" if shared else "You finish"
        seat_of = "the seat" if shared else "your seat"
        if self.view.get("rated"):
            return (
                f"{ask} {who} last; the computer plays {seat_of} on and the game still"
                " counts for the others."
            )
        return (
            f"{ask} {who} last; the computer plays {seat_of} on for the others."
            f" The game counts for no rating: {why}."
        )

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
                self.proposal_due = self.now() + message.expires_in
                self.news = self.asked_words(message)
            case m.ProposalEnded() if message.room == self.room_id:
                self.proposal = None
                self.new_game_coming = message.kind == "new_game" and message.outcome == "accepted"
                early = self.now() < self.proposal_due - EARLY_S
                self.news = ended_words(
                    message,
                    seats=len(self.seats),
                    over=self.over,
                    outlived=message.outcome == "expired" and early,
                    who=None if message.by is None else self.named(message.by),
                )
            case m.ChatLine() if message.room == self.room_id:
                self.hear(message, watching=message.watching)
            case m.SeatChanged() if message.room == self.room_id:
                self.seat = self.token = None
                self.host = False
                self.stale = True
                self.lost_seat = message.seat
                self.news = "Your seat was taken back from another connection: you are watching."
            case m.SeatSet() if message.room == self.room_id:
                self.news = seat_words(message)
                if message.seat == self.lost_seat and message.holder.get("kind") == "open":
                    self.news = (
                        f"{message.by or 'The host'} opened your seat ({title(message.seat)}):"
                        " you are watching now, and may sit again."
                    )
                self.lost_seat = None
            case _:
                return False
        return True

    def _update(self, update: m.Update) -> None:
        if update.version <= self.version:
            return
        mover = self.holder(update.seat)
        if update.version != self.version + 1 or (
            self.view.get("abortable") and mover.get("name")
        ):
            # Missed, or a person's move that may be the last first move: no update says
            # whether the game may still be aborted, so the room is asked again.
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
        self.read_history(message.history)
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
        before = self.out
        self.view = view
        outs = self.out_words(before)
        if outs:
            self.news = " ".join(outs)
        self.stale = False
        self.lost_seat = None
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

    def named(self, colour: str, *, you: bool = True) -> str:
        """A seat as the subject of a sentence: `You` where this screen alone plays it (and
        `you`), else as `seat_name`, a capital first."""
        if you and colour == self.seat and not self.shared:
            return "You"
        name = self.seat_name(colour)
        return name[0].upper() + name[1:] if name.startswith("the computer") else name

    @property
    def winners(self) -> list[str]:
        """The seats that won the finished game: the room's, however it ended (a seat out of
        it, or away at the end, loses whatever the board says), else the observation's."""
        winners = self.view.get("winners") or (self.observation or {}).get("winners", [])
        return [str(colour) for colour in winners]

    def won_words(self, winners: Sequence[str]) -> str:
        """Who won, from the viewer's side where seated: `you win!`, `Ann (Blue) wins.`"""
        if not winners or len(winners) == len(self.seats):
            return "a draw."
        if self.seat is not None and not self.shared:
            if list(winners) == [self.seat]:
                return "you win!"
            if self.seat in winners:
                return "you share the win."
        names = " and ".join(self.seat_name(colour) for colour in winners)
        return f"{names} {'wins' if len(winners) == 1 else 'share the win'}."

    def result_on_time(self, winners: Sequence[str]) -> str:
        """The result of a game a flag ended (protocol.md 2.12): the seat left timed wins,
        or of two seats both tie where it could not have won."""
        if not winners:
            return "Game over on time."
        if len(winners) == len(self.seats):
            return "Game over on time: a draw, for the other seat could no longer have won."
        winner = winners[0]
        if self.seat == winner and not self.shared:
            return "Game over: you win on time!"
        return f"Game over: {self.seat_name(winner)} wins on time."

    def absent_words(self) -> str:
        """The seats whose person was away at the end, the computer standing in: they finish
        last (protocol.md 2.10)."""
        absent = [str(colour) for colour in self.view.get("absent") or []]
        if not absent:
            return ""
        if absent == [self.seat] and not self.shared:
            return "You were away at the end and finish last."
        names = " and ".join(self.seat_name(colour) for colour in absent)
        one = len(absent) == 1
        return f"{names} {'was' if one else 'were'} away at the end and finish{'es' * one} last."

    def claimed_result(self, winners: Sequence[str]) -> str:
        """A game claimed by the one who stayed: who claimed it, and who was away."""
        mine = self.seat is not None and not self.shared
        absent = [str(colour) for colour in self.view.get("absent") or []]
        away = " and ".join(
            "you" if mine and colour == self.seat else self.seat_name(colour) for colour in absent
        )
        were = "were" if len(absent) != 1 or (mine and absent == [self.seat]) else "was"
        while_away = f"while {away} {were} away" if absent else "while the others were away"
        if len(winners) != 1:
            return f"The game was claimed {while_away}."
        claimer = winners[0]
        if mine and claimer == self.seat:
            return f"You claimed the game {while_away}: you win!"
        return f"{self.named(claimer, you=False)} claimed the game {while_away}, and wins."

    def result(self) -> str:
        """How the finished game ended (the view's `ended`) and who won, from the viewer's
        side where seated: the one place an ending is worded, for the status line and log."""
        ended = self.view.get("ended") or "played"
        if ended == "aborted":
            return "Aborted: the game counts for nobody."
        winners = self.winners
        won = self.won_words(winners)
        draw = won == "a draw."
        if ended == "flag":
            ending = self.result_on_time(winners)
        elif ended == "resigned":
            gave_up = self.named(self.resigned[-1]) if self.resigned else "A seat"
            ending = f"{gave_up} resigned: {won}"
        elif ended == "claimed":
            return self.claimed_result(winners)
        elif ended == "agreed" and draw:
            ending = "Game over by agreement: a draw."
        elif ended == "agreed":
            ending = f"Game over by agreement, ranked by the scores: {won}"
        else:
            stuck = stuck_seat(self.observation or {})
            if stuck is not None and not draw:
                winner = self.seat_name(winners[0])
                ending = f"{self.named(stuck, you=False)} CAN'T MOVE! {winner} wins."
            else:
                ending = f"Game over: {won}"
        return " ".join(part for part in (ending, self.absent_words()) if part)
