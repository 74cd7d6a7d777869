"""Taking moves back and starting again: what undo and new game do to a room's game.

Pure functions of a room; the lobby decides who may ask and whose consent it takes.
"""

import secrets
from dataclasses import replace
from typing import Any, Final

from parlour.protocol.endings import ABORTED
from parlour.rules import State
from parlour.rules.dealing import MAX_BOARD_NUMBER
from parlour.rules.gamefile import GameFile, game_file

from .room import CoinToss, Holder, Room, Status

MAX_UNDONE: Final = 40
"""Moves that may be taken back one after another, as Tripppin allowed."""


def movers(room: Room) -> list[int]:
    """The seat that made each move so far, in order."""
    state: State[Any] = room.initial
    seats = []
    for move in room.moves:
        seats.append(state.to_move)
        state = state.play_text(move)
    return seats


def undo_point(room: Room, seats: set[int]) -> int | None:
    """How many moves stay when `seats` (the people at one screen) take back their last
    move and every move after it; None if they have made none, or taking them back would
    go past the limit."""
    made = movers(room)
    last = next((ply for ply in range(len(made) - 1, -1, -1) if made[ply] in seats), None)
    if last is None or room.undone + len(made) - last > MAX_UNDONE:
        return None
    return last


def rewind(room: Room, keep: int) -> None:
    """Take the game back to its first `keep` moves, as a new version of the room."""
    state: State[Any] = room.initial
    for move in room.moves[:keep]:
        state = state.play_text(move)
    room.undone += len(room.moves) - keep
    room.moves = room.moves[:keep]
    room.seat_log = [replace(change, after=min(change.after, keep)) for change in room.seat_log]
    room.state = state
    room.status = Status.PLAYING
    room.version += 1
    room.moves_since = room.version
    if room.clock is not None:
        room.clock.run(state.to_move, room.now_ms())


def restart(room: Room, board: int | None = None, *, rotate: bool = False) -> None:
    """A new game with the same seats and levels: a new deal (or the board asked for), and
    where a seat was named to move first, the next seat moves first this time. A game
    started from a position of its own starts from it again, unless a board is asked for.

    With `rotate`, every seat's holder moves to the next seat in turn order, and the colour
    that moved first moves first again, so that the first move changes hands.
    """
    first_colour = room.first_colour()
    if rotate:
        rotate_seats(room)
    if room.position is not None and board is None:
        room.initial = room.game.start_from(room.position, room.options)
    else:
        options = dict(room.options)
        if room.first_by_coin:
            options["first"] = "random"
        first = options.get("first")
        if rotate and first is not None:
            options["first"] = first_colour
            room.first_by_coin = room.first_by_coin or first == "random"
        elif first in room.game.seats:
            options["first"] = next_colour(room, str(first))
        room.board = board if board is not None else secrets.randbelow(MAX_BOARD_NUMBER)
        room.position = None
        room.options = room.game.resolve_options(options)
        room.initial = room.game.new(room.options, seed=room.board)
    room.state = room.initial
    room.moves = []
    room.undone = 0
    room.coin = None
    room.stood_in = {seat.colour for seat in room.seats if seat.holder is Holder.STANDIN}
    room.status = Status.PLAYING
    room.begin_record()
    room.version += 1
    room.moves_since = room.version


def rotate_seats(room: Room) -> None:
    """Every seat's holder moves on to the next seat in turn order, the last's to the
    first: people with their tokens and connections, computers with their levels."""
    held = [replace(seat) for seat in room.seats]
    for seat, before in zip(room.seats, [held[-1], *held[:-1]], strict=True):
        seat.take_over(before)


def next_colour(room: Room, colour: str) -> str:
    """The seat after `colour` in turn order: where its holder goes when seats rotate."""
    seats = room.game.seats
    return seats[(seats.index(colour) + 1) % len(seats)]


def load(room: Room, loaded: GameFile) -> None:
    """A game from a file in place of the room's: its start, options and moves."""
    room.options = dict(loaded.options)
    room.board = loaded.board or 0
    room.position = loaded.position
    room.initial = loaded.start()
    room.moves = list(loaded.moves)
    room.state = loaded.replay()
    room.status = Status.FINISHED if room.state.is_over else Status.PLAYING
    room.winners = [room.seats[index].colour for index in room.state.winners()]
    room.undone = 0
    room.seats_at_start = loaded.tags.get("Seats") or room.holders_text()
    room.seat_log = list(loaded.seat_changes)
    room.played_by = {}
    room.note_players()
    room.unrated_by = "the game was loaded"
    room.version += 1
    room.moves_since = room.version
    room.start_clock()


def toss_for_first(room: Room, caller: str, call: str, landed: str) -> None:
    """The caller's seat moves first if the coin landed as called, else the other's: the
    game is dealt again from its board number with that player first."""
    first = caller if call == landed else next(c for c in room.game.seats if c != caller)
    room.options = room.game.resolve_options({**room.options, "first": first})
    room.first_by_coin = True
    room.initial = room.game.new(room.options, seed=room.board)
    if room.state is not None:
        room.state = room.initial
        room.start_clock()
    room.coin = CoinToss(caller, call, landed, first)


def game_file_of(room: Room) -> GameFile:
    """The room's game as a game file, with who held the seats at the start, every change
    of hands since, and any result."""
    tags = {"Seats": room.seats_at_start or room.holders_text()}
    if room.time_control.clocked:
        tags["TimeControl"] = room.time_control.label()
    if room.state is not None and (room.state.is_over or room.status is Status.FINISHED):
        scores = room.state.scores()
        tags["Result"] = ", ".join(
            f"{seat.colour} {score}" for seat, score in zip(room.seats, scores, strict=True)
        )
    if room.out or room.ended == ABORTED:
        tags["Termination"] = "; ".join(termination(room))
    start: int | str = room.position if room.position is not None else room.board
    return game_file(room.game, room.options, start, room.moves, tags, seat_changes=room.seat_log)


def termination(room: Room) -> list[str]:
    """How seats left the game, in order, and an abort: a game file's `Termination`."""
    said = [
        f"{colour} resigned"
        if colour in room.resigned
        else f"{colour} was away at the end"
        if colour in room.absent
        else f"{colour} ran out of time"
        for colour in room.out
    ]
    return [*said, "aborted"] if room.ended == ABORTED else said
