"""Private rooms by codes a person can type, and the limit on guessing them: in the lobby,
over a real socket, and after a restart with codes from before codes were short."""

import base64
from pathlib import Path
from typing import Any

from parlour.protocol import messages as m
from parlour.protocol.codes import read_code
from parlour.server import Limits, ServerConfig, running_server
from parlour.server.records import restore_room, room_record
from parlour.server.store import FILE_NAME, Store

from .test_lobby import Table, answer, error_code
from .wsclient import Client

OLD_CODE = "q3VhZpXoLw0Yt9uR2sBn4A"
"""A code as servers made them before codes were short: 128 bits of URL-safe text."""


def private_room(table: Table, conn: int = 1) -> tuple[str, str, m.Joined]:
    """A private Tribolo room hosted by `conn`, who sits blue: its id, code and joined."""
    joined = table.create(conn, public=False)
    assert joined.code is not None
    return str(joined.room["room"]), joined.code, joined


def typings(code: str) -> list[str]:
    """The ways a person might type `code`."""
    bare = code.replace("-", "")
    return [
        code.lower(),
        bare,
        bare.lower(),
        code.replace("-", " "),
        f" {code[:7].lower()} {code[7:]} ",
    ]


def test_a_private_room_is_joined_by_its_code_typed_any_way() -> None:
    table = Table()
    room, code, joined = private_room(table)
    assert joined.host and read_code(code) == code, "the host is sent the code as written"
    for conn, typed in zip((2, 3, 4, 5), typings(code), strict=False):
        got = answer(table.lobby.handle(conn, m.Spectate(room=typed)), conn)
        assert isinstance(got, m.Watching) and got.room["room"] == room, typed
    seated = table.join(2, code.replace("-", "").lower(), seat="red")
    assert seated.seat == "red" and seated.code is None
    looked = answer(table.lobby.handle(2, m.GetRoom(room=code.replace("-", " "))), 2)
    assert isinstance(looked, m.RoomView)


def test_look_alike_letters_typed_for_digits_find_the_room() -> None:
    table = Table()
    table.lobby.room_code = lambda: "0D11-7KQM-X3RD"
    room, code, _ = private_room(table)
    assert code == "0D11-7KQM-X3RD"
    got = answer(table.lobby.handle(2, m.Spectate(room="oDiL 7kqm x3rd")), 2)
    assert isinstance(got, m.Watching) and got.room["room"] == room


def test_seat_and_host_tokens_are_128_bits() -> None:
    table = Table()
    room, _, host = private_room(table)
    guest = table.join(2, table.lobby.rooms[room].code or "", seat="red")
    for token in (host.token, guest.token):
        assert len(base64.urlsafe_b64decode(token + "==")) == 16


def test_a_room_with_a_code_from_before_keeps_it_through_a_restart() -> None:
    table = Table()
    room, _, host = private_room(table)
    record: dict[str, Any] = room_record(table.lobby.rooms[room]) | {"code": OLD_CODE}
    again = Table()
    again.lobby.restore([restore_room(record, now=again.clock.now)])
    back = again.join(2, OLD_CODE, token=host.token)
    assert back.seat == "blue" and back.host and back.code == OLD_CODE
    assert error_code(again.lobby.handle(3, m.Spectate(room=OLD_CODE.lower())), 3) == (
        "no_such_room"
    ), "an old code is matched exactly as it was made"


def guessing_table(limit: int = 3) -> Table:
    table = Table(Limits(guesses=limit, guess_window=600.0))
    for conn, address in {1: "198.51.100.1", 2: "203.0.113.7", 3: "203.0.113.7"}.items():
        table.lobby.connect(conn, address)
    table.lobby.connect(4, "192.0.2.4")
    return table


def test_wrong_codes_from_one_address_are_refused_after_the_limit_until_it_passes() -> None:
    table = guessing_table(limit=3)
    _, code, _ = private_room(table)
    public = table.create(1, board=8).room["room"]
    for wrong in ("AAAA-AAAA-AAAA", "bbbbccccdddd", "x" * 22):
        assert error_code(table.lobby.handle(2, m.Join(room=wrong)), 2) == "no_such_room"
    # Connection 3 shares connection 2's address: the right code is refused it now, just as
    # a wrong one is, so the answer tells a guesser nothing.
    for ref in (code, "EEEE-EEEE-EEEE"):
        refused = table.lobby.handle(3, m.Spectate(room=ref, id=9))
        assert error_code(refused, 3) == "too_many_guesses"
        assert answer(refused, 3).id == 9
    # Another address is not limited, and rooms by id are never refused.
    assert isinstance(answer(table.lobby.handle(4, m.Spectate(room=code)), 4), m.Watching)
    assert isinstance(answer(table.lobby.handle(3, m.Spectate(room=public)), 3), m.Watching)
    assert error_code(table.lobby.handle(3, m.GetRoom(room="abcdefgh")), 3) == "no_such_room"
    table.clock.now += 600
    assert isinstance(answer(table.lobby.handle(3, m.Spectate(room=code)), 3), m.Watching)


def test_finding_a_room_never_counts_and_a_room_one_is_in_is_never_refused() -> None:
    table = guessing_table(limit=2)
    room, code, _ = private_room(table)
    for _ in range(10):
        assert isinstance(answer(table.lobby.handle(2, m.GetRoom(room=code)), 2), m.RoomView)
    assert not table.lobby.limited(2)
    table.join(2, code.lower(), seat="red")
    for wrong in ("AAAA-AAAA-AAAA", "BBBB-BBBB-BBBB"):
        table.lobby.handle(2, m.Spectate(room=wrong))
    assert table.lobby.limited(2)
    move = m.Move(room=code, version=0, move="e3")
    assert isinstance(answer(table.lobby.handle(2, m.GetRoom(room=code)), 2), m.RoomView)
    assert isinstance(answer(table.lobby.handle(2, m.GetRoom(room=room)), 2), m.RoomView)
    assert error_code(table.lobby.handle(2, move), 2) == "not_started"


def test_ids_that_name_no_room_are_no_guesses() -> None:
    table = guessing_table(limit=2)
    room, code, _ = private_room(table)
    for ref in ("abcdefgh", room, "zzzzzzzz"):
        assert error_code(table.lobby.handle(2, m.GetRoom(room=ref)), 2) == "no_such_room"
    assert not table.lobby.limited(2)
    assert isinstance(answer(table.lobby.handle(2, m.Spectate(room=code)), 2), m.Watching)


async def test_a_room_is_joined_by_its_typed_code_over_a_socket_and_guessing_is_limited() -> None:
    config = ServerConfig(tick_interval=0.05, bot_workers=1, limits=Limits(guesses=3))
    async with running_server(config) as server:
        host = await Client.open(server.port, "Ann")
        made = await host.request(m.CreateRoom(game="othello", seat="black", public=False))
        assert isinstance(made, m.Joined) and made.code is not None
        code = made.code
        assert read_code(code) == code
        guest = await Client.open(server.port, "Bob")
        joined = await guest.request(m.Join(room=code.replace("-", " ").lower()))
        assert isinstance(joined, m.Joined) and joined.seat == "white", joined

        # Two people behind one balancer on loopback, which names them in X-Forwarded-For.
        guesser = await Client.open(server.port, "Eve", headers={"X-Forwarded-For": "203.0.113.9"})
        same = await Client.open(server.port, "Mal", headers={"X-Forwarded-For": "203.0.113.9"})
        other = await Client.open(server.port, "Cy", headers={"X-Forwarded-For": "192.0.2.1"})
        for wrong in ("AAAA-AAAA-AAAA", "BBBB-BBBB-BBBB", "CCCC-CCCC-CCCC"):
            missed = await guesser.request(m.Spectate(room=wrong))
            assert isinstance(missed, m.Error) and missed.code == "no_such_room"
        for client in (guesser, same):
            refused = await client.request(m.Spectate(room=code))
            assert isinstance(refused, m.Error) and refused.code == "too_many_guesses"
        watching = await other.request(m.Spectate(room=code.lower()))
        assert isinstance(watching, m.Watching)
        for client in (host, guest, guesser, same, other):
            await client.close()


async def test_a_stored_room_with_an_old_code_comes_back_by_that_code(tmp_path: Path) -> None:
    config = ServerConfig(data_dir=tmp_path, bot_workers=1)
    async with running_server(config) as server:
        host = await Client.open(server.port, "Ann")
        made = await host.request(m.CreateRoom(game="othello", seat="black", public=False))
        assert isinstance(made, m.Joined)
        await host.close()
    store = Store(tmp_path / FILE_NAME)
    (stored,) = store.load()
    assert stored.record is not None
    store.save([stored.record | {"code": OLD_CODE}])
    store.close()
    async with running_server(config) as server:
        back = await Client.open(server.port, "Ann")
        again = await back.request(m.Join(room=OLD_CODE, token=made.token))
        assert isinstance(again, m.Joined) and again.seat == "black" and again.code == OLD_CODE
        await back.close()
