"""The "your turn" notices (protocol.md 2.10): `my_games` says which rooms wait on the
player's move and lists them first, and a turn passed to a player is told once to their
connections that are not in the room; a seat the computer plays for them is not their
turn."""

from typing import Any

from parlour.protocol import messages as m
from parlour.protocol.players import new_key, player_id
from parlour.server import ParlourServer
from parlour.server.answers import Outbox
from parlour.server.known import playing_in
from parlour.server.lobby import Lobby
from parlour.server.records import restore_room, room_record
from parlour.server.store import MEMORY, Store

from .test_lobby import Clock, answer, to
from .wsclient import Client

ANN_KEY, BOB_KEY = new_key(), new_key()
ANN, BOB = player_id(ANN_KEY), player_id(BOB_KEY)
ANN_IN_ROOM, BOB_IN_ROOM, ANN_ELSEWHERE, BOB_ELSEWHERE = 1, 2, 3, 4


class Wall:
    """Unix time as the test sets it."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


def hall(wall: Wall | None = None) -> Lobby:
    """A lobby where Ann and Bob each have two connections, every one with its key."""
    lobby = Lobby(clock=Clock(), archive=Store(MEMORY), wall=wall or Wall())
    for conn, name, key in [
        (ANN_IN_ROOM, "Ann", ANN_KEY),
        (BOB_IN_ROOM, "Bob", BOB_KEY),
        (ANN_ELSEWHERE, "Ann", ANN_KEY),
        (BOB_ELSEWHERE, "Bob", BOB_KEY),
    ]:
        welcome = answer(lobby.handle(conn, m.Hello(version=1, name=name, key=key)), conn)
        assert isinstance(welcome, m.Welcome)
    return lobby


def othello(lobby: Lobby, black: int, white: int, *, public: bool = False) -> str:
    """A rated Othello room (private: known by its code), started: `black` to move."""
    made = answer(
        lobby.handle(black, m.CreateRoom(game="othello", seat="black", public=public)), black
    )
    assert isinstance(made, m.Joined)
    room = str(made.room["room"])
    ref = made.code or room
    assert isinstance(answer(lobby.handle(white, m.Join(room=ref, seat="white")), white), m.Joined)
    assert isinstance(answer(lobby.handle(black, m.Start(room=ref)), black), m.Ok)
    return room


def my_games(lobby: Lobby, conn: int) -> list[dict[str, Any]]:
    reply = answer(lobby.handle(conn, m.MyGames()), conn)
    assert isinstance(reply, m.MyGamesReply)
    return reply.playing


def move(lobby: Lobby, conn: int, room_id: str) -> Outbox:
    """The first legal move, by `conn`'s seat to move."""
    room = lobby.rooms[room_id]
    assert room.state is not None
    text = room.state.format_move(room.state.legal_moves()[0])
    ref = room.code or room.id
    told = lobby.handle(conn, m.Move(room=ref, version=room.version, move=text))
    assert isinstance(answer(told, conn), m.Ok), told
    return told


def notices(lobby: Lobby) -> Outbox:
    """The `your_turn` messages the shell sends now, to any of the lobby's connections."""
    told: Outbox = []
    for notice in lobby.your_turns():
        told += notice.outbox(lobby.people.players, lobby.people.players)
    for conn, _ in told:
        to(told, conn)  # each fits the wire's schema
    return told


def test_my_games_says_whose_turn_it_is_and_lists_the_rooms_waiting_on_you_first() -> None:
    wall = Wall()
    lobby = hall(wall)
    waiting = othello(lobby, ANN_IN_ROOM, BOB_IN_ROOM)
    wall.now += 60
    newer = othello(lobby, BOB_IN_ROOM, ANN_IN_ROOM)
    refs = {room: lobby.rooms[room].code for room in (waiting, newer)}

    annes = my_games(lobby, ANN_ELSEWHERE)
    assert [(entry["room"], entry["turn"]) for entry in annes] == [(waiting, True), (newer, False)]
    assert [entry["ref"] for entry in annes] == [refs[waiting], refs[newer]]
    assert {entry["time_left_ms"] for entry in annes} == {None}
    assert [entry["seats"] for entry in annes] == [["black"], ["white"]]
    bobs = my_games(lobby, BOB_ELSEWHERE)
    assert [(entry["room"], entry["turn"]) for entry in bobs] == [(newer, True), (waiting, False)]

    # Ann moves in the older room: neither waits on her now, so the newer comes first.
    wall.now += 60
    move(lobby, ANN_IN_ROOM, waiting)
    annes = my_games(lobby, ANN_IN_ROOM)
    assert [(entry["room"], entry["turn"]) for entry in annes] == [
        (waiting, False),
        (newer, False),
    ]
    bobs = my_games(lobby, BOB_IN_ROOM)
    assert [(entry["room"], entry["turn"]) for entry in bobs] == [(waiting, True), (newer, True)]


def test_my_games_reads_whose_turn_from_the_records_alone() -> None:
    lobby = hall()
    room_id = othello(lobby, ANN_IN_ROOM, BOB_IN_ROOM)
    move(lobby, ANN_IN_ROOM, room_id)
    record = room_record(lobby.rooms[room_id], history=False)
    assert record["to_move"] == "white"
    # A record from before `to_move` was kept waits on nobody, and still restores.
    assert [entry["turn"] for entry in playing_in([record], BOB, 0)] == [True]
    del record["to_move"]
    assert [entry["turn"] for entry in playing_in([record], BOB, 0)] == [False]
    assert restore_room(record, 0.0).moves == lobby.rooms[room_id].moves


def test_your_turn_goes_once_to_the_players_connections_outside_the_room() -> None:
    lobby = hall()
    room_id = othello(lobby, ANN_IN_ROOM, BOB_IN_ROOM)
    ref = lobby.rooms[room_id].code
    assert ref is not None

    # The start gives Ann the first move: her connection in the room sees it there.
    told = notices(lobby)
    expected = m.YourTurn(room=room_id, ref=ref, game="othello", seats=["black"])
    assert told == [(ANN_ELSEWHERE, expected)]
    assert notices(lobby) == [], "told once"

    move(lobby, ANN_IN_ROOM, room_id)
    told = notices(lobby)
    assert told == [
        (BOB_ELSEWHERE, m.YourTurn(room=room_id, ref=ref, game="othello", seats=["white"]))
    ]
    assert told[0][1].to_wire() == {
        "type": "your_turn",
        "room": room_id,
        "ref": ref,
        "game": "othello",
        "seats": ["white"],
    }

    # The room shown again (Bob's connection in it drops) is the same turn: not told again,
    # though Bob has no connection in the room now.
    lobby.disconnect(BOB_IN_ROOM)
    assert notices(lobby) == []

    # Bob comes back from his other connection: his next turn is not told to it, in the room.
    white = lobby.rooms[room_id].seats[1]
    again = answer(lobby.handle(BOB_ELSEWHERE, m.Join(room=ref, token=white.token)), BOB_ELSEWHERE)
    assert isinstance(again, m.Joined) and again.seat == "white"
    move(lobby, BOB_ELSEWHERE, room_id)
    assert notices(lobby) == [
        (ANN_ELSEWHERE, m.YourTurn(room=room_id, ref=ref, game="othello", seats=["black"]))
    ]
    move(lobby, ANN_IN_ROOM, room_id)
    assert notices(lobby) == []


def test_a_seat_the_computer_plays_is_not_your_turn() -> None:
    lobby = hall()
    room_id = othello(lobby, ANN_IN_ROOM, BOB_IN_ROOM, public=True)
    notices(lobby)
    move(lobby, ANN_IN_ROOM, room_id)
    assert [conn for conn, _ in notices(lobby)] == [BOB_ELSEWHERE]

    # Bob hands his seat to the computer on his turn: the room waits on nobody.
    handed = m.SetSeat(room=room_id, seat="white", holder="bot", level="easy")
    assert isinstance(answer(lobby.handle(BOB_IN_ROOM, handed), BOB_IN_ROOM), m.Ok)
    assert [entry["turn"] for entry in my_games(lobby, BOB_ELSEWHERE)] == [False]
    assert notices(lobby) == []
    # He takes it back before the computer moves: the same turn, not told again.
    back = m.SetSeat(room=room_id, seat="white", holder="human")
    assert isinstance(answer(lobby.handle(BOB_IN_ROOM, back), BOB_IN_ROOM), m.Ok)
    assert [entry["turn"] for entry in my_games(lobby, BOB_ELSEWHERE)] == [True]
    assert notices(lobby) == []

    # Handed again, the computer moves for him: Ann's turn is told; his never is.
    assert isinstance(answer(lobby.handle(BOB_IN_ROOM, handed), BOB_IN_ROOM), m.Ok)
    (turn,) = lobby.bot_turns()
    played = turn.state.format_move(turn.state.legal_moves()[0])
    lobby.play_bot(turn, played)
    black = m.YourTurn(room=room_id, ref=room_id, game="othello", seats=["black"])
    assert notices(lobby) == [(ANN_ELSEWHERE, black)]
    move(lobby, ANN_IN_ROOM, room_id)
    assert notices(lobby) == []
    assert [entry["turn"] for entry in my_games(lobby, BOB_ELSEWHERE)] == [False]


def test_a_room_taken_back_after_a_restart_does_not_tell_its_turn_again() -> None:
    lobby = hall()
    room_id = othello(lobby, ANN_IN_ROOM, BOB_IN_ROOM)
    move(lobby, ANN_IN_ROOM, room_id)
    assert [conn for conn, _ in notices(lobby)] == [BOB_ELSEWHERE]
    record = room_record(lobby.rooms[room_id])

    again = hall()
    again.restore([restore_room(record, 0.0)])
    ref = record["code"]
    white = again.rooms[room_id].seats[1]
    joined = answer(again.handle(BOB_IN_ROOM, m.Join(room=ref, token=white.token)), BOB_IN_ROOM)
    assert isinstance(joined, m.Joined)
    assert notices(again) == []
    assert [entry["turn"] for entry in my_games(again, BOB_ELSEWHERE)] == [True]


async def test_a_server_sends_your_turn_to_the_players_other_connection(
    server: ParlourServer,
) -> None:
    ann = await Client.open(server.port, "Ann", key=ANN_KEY)
    elsewhere = await Client.open(server.port, "Ann", key=ANN_KEY)
    bob = await Client.open(server.port, "Bob", key=BOB_KEY)
    made = await ann.request(m.CreateRoom(game="othello", seat="black", public=False))
    assert isinstance(made, m.Joined) and made.code is not None
    room_id = str(made.room["room"])
    assert isinstance(await bob.request(m.Join(room=made.code, seat="white")), m.Joined)
    assert isinstance(await ann.request(m.Start(room=made.code)), m.Ok)
    told = await elsewhere.expect(lambda message: isinstance(message, m.YourTurn))
    assert told == m.YourTurn(room=room_id, ref=made.code, game="othello", seats=["black"])
    mine = await elsewhere.request(m.MyGames())
    assert isinstance(mine, m.MyGamesReply)
    assert [(entry["ref"], entry["turn"]) for entry in mine.playing] == [(made.code, True)]
    # Nothing of the kind reached the connections in the room.
    for client in (ann, bob):
        view = await client.request(m.GetRoom(room=made.code))
        assert isinstance(view, m.RoomView)
        assert not any(isinstance(message, m.YourTurn) for message in client.inbox)
    for client in (ann, elsewhere, bob):
        await client.close()
