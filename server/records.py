"""A room's durable fields as a JSON-compatible record, and the room rebuilt from one.

The record keeps what a restart must not lose: the game, options and board it was dealt
from, the host and the seats with their tokens, every move, the proposal waiting for
answers and the last one ended (their expiry in Unix time), and the room's history (what
happened in it lately, chat included). Connections are not kept: a restored room has
everyone disconnected until they come back with their tokens.
"""

import json
from dataclasses import dataclass
from typing import Any, Final

from parlour.protocol import ProtocolError
from parlour.protocol.endings import FLAG, PLAYED
from parlour.protocol.timecontrol import NONE, read_time_control
from parlour.rules import GAMES, RulesError
from parlour.rules.gamefile import SeatChange

from .clocks import Clock
from .history import History
from .notices import seat_to_move
from .room import CoinToss, Holder, LeftSeats, Proposal, Room, Seat, Status

RECORD_VERSION: Final = 1


class RecordError(ValueError):
    """A stored record that does not make a room."""


@dataclass(frozen=True, slots=True)
class RecordText:
    """A room's record as the JSON text a store keeps."""

    id: str
    text: str


def record_text(room: Room) -> RecordText:
    """`room_record` as compact JSON, its history's entries as they were encoded once."""
    record = room_record(room, history=False)
    body = json.dumps(record, separators=(",", ":"), check_circular=False)
    return RecordText(room.id, f'{body[:-1]},"history":{room.history.json()}}}')


def room_record(room: Room, *, history: bool = True) -> dict[str, Any]:
    """What a restart needs of `room` (without its history where `history` is false)."""
    record = {
        "record": RECORD_VERSION,
        "id": room.id,
        "code": room.code,
        "game": room.game.name,
        "options": dict(room.options),
        "board": room.board,
        "position": room.position,
        "public": room.public,
        "host_name": room.host_name,
        "host_token": room.host_token,
        "host_person": room.host_person,
        "removed": sorted(room.removed.items()),
        "standin_after": room.standin_after,
        "bot_think_ms": room.bot_think_ms,
        "status": room.status.value,
        "version": room.version,
        "moves_since": room.moves_since,
        "moves": list(room.moves),
        "undone": room.undone,
        "stood_in": sorted(room.stood_in),
        "left_seats": room.left_seats.value,
        "moved_at": room.moved_at,
        "created_at": room.created_at,
        "dormant": room.dormant,
        "changed_hands": sorted(room.changed_hands),
        "played_by": {colour: list(players) for colour, players in room.played_by.items()},
        "seats_at_start": room.seats_at_start,
        "first_by_coin": room.first_by_coin,
        "coin": None if room.coin is None else room.coin.describe(),
        "seat_log": [[change.after, change.colour, change.holder] for change in room.seat_log],
        "bot_level": room.bot_level,
        "rated": room.rated,
        "unrated_by": room.unrated_by,
        "rating_changes": room.rating_changes,
        "time_control": room.time_control.describe(),
        "clock": None if room.clock is None else room.clock.record(),
        "flagged": [[colour, rated_as] for colour, rated_as in room.out.items()],
        "resigned": sorted(room.resigned),
        "absent": sorted(room.absent),
        "ended": room.ended,
        "winners": list(room.winners),
        "proposal": _proposal_record(room.proposal),
        "last_proposal": _proposal_record(room.last_proposal),
        "seats": [
            {
                "colour": seat.colour,
                "holder": seat.holder.value,
                "name": seat.name,
                "token": seat.token,
                "level": seat.level,
                "player": seat.player,
            }
            for seat in room.seats
        ],
    }
    # Whose turn it is, for a player's list of games read from records (`known.playing_in`).
    moving = seat_to_move(room)
    record["to_move"] = None if moving is None else moving.colour
    if history:
        record["history"] = room.history.window()
    return record


def restore_room(record: dict[str, Any], now: float, wall: float = 0.0) -> Room:
    """The room a record describes, its moves replayed by the rules; RecordError if the
    record is damaged or no longer plays (a move the rules refuse).

    `now` is the lobby's clock; `wall` the Unix time, taken for the last move of a room
    stored before its time was kept.
    """
    try:
        return _restore(record, now, wall)
    except RecordError:
        raise
    except (KeyError, TypeError, ValueError, RulesError, ProtocolError) as error:
        raise RecordError(f"room {record.get('id')!r}: {type(error).__name__}: {error}") from None


def _restore(record: dict[str, Any], now: float, wall: float) -> Room:
    if record.get("record") != RECORD_VERSION:
        raise RecordError(f"room {record.get('id')!r}: unknown record version")
    game = GAMES[record["game"]]
    options = game.resolve_options(record["options"])
    position = record.get("position")
    if position is not None:
        initial = game.start_from(str(position), options)
    else:
        initial = game.new(options, seed=int(record["board"]))
    status = Status(record["status"])
    seats = [_seat(entry, now) for entry in record["seats"]]
    if [seat.colour for seat in seats] != list(game.seats):
        raise RecordError(f"room {record['id']!r}: the seats are not {game.title}'s")
    moves = [str(move) for move in record["moves"]]
    state = None
    if status is not Status.WAITING:
        state = initial
        for move in moves:
            state = state.play_text(move)
        ended_early = status is Status.FINISHED and _ended(record) != PLAYED
        if state.is_over != (status is Status.FINISHED) and not ended_early:
            raise RecordError(f"room {record['id']!r}: the moves do not end as recorded")
    elif moves:
        raise RecordError(f"room {record['id']!r}: moves in a game not started")
    return Room(
        id=str(record["id"]),
        code=None if record["code"] is None else str(record["code"]),
        game=game,
        options=options,
        board=int(record["board"]),
        public=bool(record["public"]),
        host_name=str(record["host_name"]),
        host_token=str(record["host_token"]),
        host_conn=None,
        host_person=str(record.get("host_person", "")),
        removed={str(person): str(name) for person, name in record.get("removed", [])},
        standin_after=int(record["standin_after"]),
        bot_think_ms=int(record["bot_think_ms"]),
        initial=initial,
        seats=seats,
        position=None if position is None else str(position),
        status=status,
        state=state,
        moves=moves,
        version=int(record["version"]),
        # A record from before this was kept knows no move sent again: as after an undo.
        moves_since=int(record.get("moves_since", record["version"])),
        stood_in={str(colour) for colour in record.get("stood_in", [])},
        left_seats=LeftSeats(record.get("left_seats", LeftSeats.BOT.value)),
        changed_hands={str(colour) for colour in record.get("changed_hands", [])},
        played_by={
            str(colour): [str(player) for player in players]
            for colour, players in record.get("played_by", {}).items()
        },
        seats_at_start=_optional_text(record.get("seats_at_start")),
        first_by_coin=bool(record.get("first_by_coin", False)),
        coin=_coin(record.get("coin")),
        seat_log=[
            SeatChange(int(after), str(colour), str(holder))
            for after, colour, holder in record.get("seat_log", [])
        ],
        undone=int(record.get("undone", 0)),
        empty_since=now,
        dormant=bool(record.get("dormant", False)),
        moved_at=int(record.get("moved_at", wall)),
        created_at=int(record.get("created_at", record.get("moved_at", wall))),
        bot_level=_optional_text(record.get("bot_level")) or _computer_level(seats),
        rated=bool(record.get("rated", True)),
        unrated_by=_optional_text(record.get("unrated_by")),
        rating_changes=_rating_changes(record.get("rating_changes")),
        history=History.restored(record.get("history")),
        time_control=read_time_control("time_control", record.get("time_control", {"kind": NONE})),
        clock=_clock(record.get("clock"), len(seats)),
        winners=[str(colour) for colour in record.get("winners", [])],
        out={str(colour): _optional_text(rated) for colour, rated in record.get("flagged", [])},
        resigned={str(colour) for colour in record.get("resigned", [])},
        absent={str(colour) for colour in record.get("absent", [])},
        ended=_ended(record),
        proposal=_proposal(record.get("proposal"), now, wall),
        last_proposal=_proposal(record.get("last_proposal"), now, wall),
    )


def _ended(record: dict[str, Any]) -> str | None:
    """How the record's game ended; a record kept before rooms said so ended by the rules,
    or by a flag."""
    ended = _optional_text(record.get("ended"))
    if ended is not None or record.get("status") != Status.FINISHED.value:
        return ended
    return FLAG if record.get("flagged") else PLAYED


def _proposal_record(proposal: Proposal | None) -> dict[str, Any] | None:
    """A proposal as the room's record keeps it: its expiry in Unix time."""
    if proposal is None:
        return None
    return {
        "id": proposal.id,
        "kind": proposal.kind,
        "by": proposal.by,
        "waiting": sorted(proposal.waiting),
        "expires": proposal.expires_wall,
        "version": proposal.version,
        "answers": dict(proposal.answers),
        "outcome": proposal.outcome,
        "keep": proposal.keep,
        "board": proposal.board,
        "call": None if proposal.call is None else list(proposal.call),
        "seat": proposal.seat,
        "rotate": proposal.rotate,
    }


def _proposal(value: Any, now: float, wall: float) -> Proposal | None:
    """The proposal a record kept, its expiry moved onto the lobby's clock (`now` is
    `wall` in Unix time): the time the room was stored away counts."""
    if value is None:
        return None
    expires = float(value["expires"])
    call = value.get("call")
    return Proposal(
        id=str(value["id"]),
        kind=str(value["kind"]),
        by=str(value["by"]),
        waiting={str(colour) for colour in value["waiting"]},
        expires_at=now + expires - wall,
        expires_wall=expires,
        version=int(value["version"]),
        answers={str(colour): bool(given) for colour, given in value["answers"].items()},
        outcome=_optional_text(value.get("outcome")),
        keep=int(value.get("keep", 0)),
        board=None if value.get("board") is None else int(value["board"]),
        call=None if call is None else (str(call[0]), str(call[1])),
        seat=_optional_text(value.get("seat")),
        rotate=bool(value.get("rotate", False)),
    )


def _clock(value: Any, seats: int) -> Clock | None:
    if value is None:
        return None
    clock = Clock.from_record(value)
    if len(clock.remaining_ms) != seats or len(clock.lag_budget_ms) != seats:
        raise RecordError("the clock has not one time a seat")
    return clock


def _rating_changes(value: Any) -> dict[str, dict[str, int]] | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise RecordError("the rating changes are not a map")
    return {
        str(colour): {"before": int(change["before"]), "after": int(change["after"])}
        for colour, change in value.items()
    }


def _coin(value: Any) -> CoinToss | None:
    if value is None:
        return None
    return CoinToss(
        str(value["by"]), str(value["call"]), str(value["landed"]), str(value["first"])
    )


def _computer_level(seats: list[Seat]) -> str | None:
    """The level of the first computer seat that is nobody's: the room's level, for a
    record from before it was kept."""
    return next(
        (seat.level for seat in seats if seat.holder is Holder.BOT and seat.token is None), None
    )


def _optional_text(value: Any) -> str | None:
    return None if value is None else str(value)


def _seat(entry: dict[str, Any], now: float) -> Seat:
    holder = Holder(entry["holder"])
    seat = Seat(
        str(entry["colour"]),
        holder,
        name=entry["name"],
        token=entry["token"],
        level=entry["level"],
        player=_optional_text(entry.get("player")),
    )
    if holder is Holder.HUMAN:
        seat.dropped_at = now
    return seat
