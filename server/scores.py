"""Finished games as score-card results: who held each seat, and how each seat came out.

As Tribolo's "sCores": wins, losses and ties per colour and per player, a tie counted as a
tie and never as a win, and the best score ever with the player's initials. A game where
a bot stood in for a person who dropped out is marked, so a card can tell it apart. A seat
that changed hands during the game counts for its colour but for no player: a game counts
for a person, or a computer level, only on a seat held from start to end.
"""

import re
from dataclasses import dataclass
from typing import Any, Final

from parlour.protocol.endings import AGREED, PLAYED
from parlour.rules.helpmate import could_win

from .ratings import pool, ranks_of
from .room import Holder, Room

CHANGED: Final = "changed"
"""The kind of a seat that changed hands during the game."""
COMPUTER_NAME: Final = "computer, level "
"""How a computer level is named on a score card, before its level: `computer, level hard`."""
STANDARD: Final = "standard"
"""The preset of games without named boards."""
CUSTOM: Final = "custom"
"""The preset of games started from a position of their own (the editor, a file)."""


@dataclass(frozen=True, slots=True)
class SeatResult:
    colour: str
    kind: str
    """`human` or `bot` for a seat held from start to end; else `changed`."""
    name: str | None
    """The person's name; None for a bot."""
    level: str | None
    outcome: str
    """`win`, `loss` or `tie`."""
    score: int
    player_id: str | None = None
    """The id of the player whose key held the seat from start to end, if one did: whom
    the seat counts for on a score card."""
    rated_as: str | None = None
    """Whom a rated game rates for this seat: its player, or its computer level."""
    played_by: tuple[str, ...] = ()
    """Every player who held the seat during the game, the last at the end: the game is
    in each one's own list, though the computer played the seat in the end."""
    own_play: bool = True
    """Whether the seat's person made every move of it (no stand-in ever played it) in a
    game the rules ended (not a resignation, a flag or an agreement): only such a score
    may be a board's best."""

    @property
    def whose(self) -> str | None:
        """The player whose seat it was, as a player's list of games shows it: the one who
        held it last, whoever played it at the end."""
        return self.played_by[-1] if self.played_by else self.player_id

    @property
    def player(self) -> str | None:
        """Whom the seat's result counts for on a score card: a person's name, or
        `computer, level L`; None for a seat that changed hands."""
        if self.kind == CHANGED:
            return None
        return self.name if self.name is not None else COMPUTER_NAME + str(self.level)


@dataclass(frozen=True, slots=True)
class Result:
    """One finished game."""

    room: str
    game: str
    preset: str
    board: int
    moves: int
    stood_in: bool
    """Whether a bot played for a dropped person at some time in the game."""
    seats: tuple[SeatResult, ...]
    changed_hands: bool = False
    """Whether any seat changed hands during the game."""
    version: int = 0
    """The room's version when the game ended: with the room, it names this game."""
    record: str = ""
    """The game as a game file, for replays."""
    rated: bool = False
    """Whether the game counts for ratings (protocol.md, 2.10)."""
    winners: tuple[int, ...] = ()
    """The winning seats' indexes."""
    flagged: tuple[int, ...] = ()
    """The seats that ran out of time, in order: they finish last, the first last of all."""
    speed: str = "none"
    """The room's kind of time control: `none`, `live` or `days`."""

    @property
    def pool(self) -> str:
        """Where the game's ratings are kept (`ratings.pool`)."""
        return pool(self.game, self.speed)

    @property
    def ranks(self) -> list[int]:
        """Each seat's finishing place for rating (`ratings.ranks_of`)."""
        return ranks_of([seat.score for seat in self.seats], self.winners, self.flagged)

    @property
    def record_id(self) -> str:
        """The name `replay` finds this game by."""
        return record_id(self.room, self.version)

    @property
    def players(self) -> list[str]:
        """Every player who held a seat during the game: those whose lists it is in."""
        found = [player for seat in self.seats for player in (*seat.played_by, seat.player_id)]
        return sorted({player for player in found if player is not None})


def record_id(room: str, version: int) -> str:
    """A finished game's name: its room and the version it ended at."""
    return f"{room}.{version}"


def preset_of(options: dict[str, Any], position: str | None = None) -> str:
    """The board preset a game was played on: `custom` for a position of its own, else its
    named board if the game has them."""
    if position is not None:
        return CUSTOM
    board = options.get("board")
    return str(board) if isinstance(board, str) and board != "random" else STANDARD


def result_of(room: Room, record: str = "") -> Result:
    """The result of `room`'s finished game, whose game file is `record`: played out, or
    ended otherwise (`room.ended`: a flag, a resignation, a draw agreed)."""
    state = room.state
    assert state is not None and (state.is_over or room.ended is not None)
    flagged = tuple(room.game.seats.index(colour) for colour in room.out)
    winners = winners_of(room, flagged)
    scores = state.scores()
    seats = []
    for index, seat in enumerate(room.seats):
        outcome = "loss" if index not in winners else "win" if len(winners) == 1 else "tie"
        out_of_time = seat.colour in room.out
        changed = seat.colour in room.changed_hands and not out_of_time
        person = (seat.holder is Holder.HUMAN or out_of_time) and not changed
        rated_as = room.out[seat.colour] if out_of_time else seat.rated_as
        seats.append(
            SeatResult(
                colour=seat.colour,
                kind=CHANGED if changed else seat.holder.value,
                name=seat.name if person else None,
                level=None if changed or person else seat.level,
                outcome=outcome,
                score=scores[index],
                player_id=seat.player if person else None,
                rated_as=None if changed else rated_as,
                played_by=tuple(room.played_by.get(seat.colour, ())),
                own_play=person and seat.colour not in room.stood_in and room.ended == PLAYED,
            )
        )
    return Result(
        room=room.id,
        game=room.game.name,
        preset=preset_of(room.options, room.position),
        board=room.board,
        moves=len(room.moves),
        stood_in=bool(room.stood_in),
        changed_hands=bool(room.changed_hands),
        seats=tuple(seats),
        version=room.version,
        record=record,
        rated=room.why_unrated() is None and all(seat.rated_as for seat in seats),
        winners=tuple(winners),
        flagged=flagged,
        speed=room.time_control.speed,
    )


def winners_of(room: Room, flagged: tuple[int, ...]) -> list[int]:
    """The seats that won: the game's winners where it was played out; a seat out of the
    game (`flagged`: out of time, or resigned) never wins. Of two seats, the other wins, or
    both tie where a flag's winner could not have won whatever anyone played (`could_win`);
    of three, the seat left wins, else the best score among those still in."""
    state = room.state
    assert state is not None
    if room.ended == AGREED:
        return agreed_winners(room, flagged)
    if not flagged:
        return list(state.winners())
    timed = [seat for seat in range(len(room.seats)) if seat not in flagged]
    if state.is_over:
        won = [seat for seat in state.winners() if seat not in flagged]
        if won:
            return won
    if len(timed) == 1:
        by_clock = room.flagged(room.seats[flagged[-1]].colour)
        alone = len(room.seats) > 2 or not by_clock or could_win(state, timed[0])
        return timed if alone else [0, 1]
    scores = state.scores()
    best = max(scores[seat] for seat in timed)
    return [seat for seat in timed if scores[seat] == best]


def agreed_winners(room: Room, flagged: tuple[int, ...]) -> list[int]:
    """The winners of a game its people agreed to end as it stood: of two seats both (a
    tie), of three the best score among the seats still in."""
    state = room.state
    assert state is not None
    still = [seat for seat in range(len(room.seats)) if seat not in flagged]
    if len(room.seats) == 2:
        return still
    scores = state.scores()
    best = max(scores[seat] for seat in still)
    return [seat for seat in still if scores[seat] == best]


def best_of(name: str, score: int, typed: str | None) -> dict[str, Any]:
    """A score card's best score: who made it, their initials (typed when they made it, else
    taken from the name) and whether they were typed."""
    return {
        "name": name,
        "initials": typed or initials(name),
        "typed": typed is not None,
        "score": score,
    }


def initials(name: str) -> str:
    """A name's initials as a high-score table shows them: `Ann Lee` is AL, `ann` is ANN."""
    words: list[str] = re.findall(r"\w+", name)
    if not words:
        return "?"
    if len(words) == 1:
        return words[0][:3].upper()
    return "".join(word[0] for word in words[:3]).upper()
