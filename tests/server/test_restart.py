"""Rooms outlive the server: killed with SIGKILL mid-game, it starts again on the same data
directory with every move any client was told of, and the games play on to the end."""

import asyncio
import contextlib
import re
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parlour.protocol import messages as m
from parlour.rules import GAMES
from parlour.server import ServerConfig, running_server
from parlour.server.store import FILE_NAME as STORE_FILE

from .serving import kill_all, spawn_serve
from .wsclient import Client

START_TIMEOUT = 60.0


@contextlib.asynccontextmanager
async def server_process(data_dir: Path) -> AsyncIterator[tuple[asyncio.subprocess.Process, int]]:
    """`parlour serve` on a free port with this data directory, and its port."""
    args = ("--port", "0", "--data-dir", str(data_dir), "--bot-pause", "0")
    process = await spawn_serve(*args, stderr=asyncio.subprocess.DEVNULL)
    try:
        assert process.stdout is not None
        first = (await asyncio.wait_for(process.stdout.readline(), START_TIMEOUT)).decode()
        found = re.search(r"serving ws://127\.0\.0\.1:(\d+)/ws", first)
        assert found, first
        yield process, int(found.group(1))
    finally:
        if process.returncode is None:
            kill_all(process)
            await process.wait()


@dataclass
class Player:
    """A person in one room: their connection, seat token and the moves they were told of."""

    name: str
    ref: str
    """The room's id, or its code for a private room."""
    token: str
    client: Client
    seen: list[tuple[int, str]] = field(default_factory=list)

    def told(self) -> None:
        """Note every update received so far."""
        for message in self.client.inbox:
            if isinstance(message, m.Update):
                self.seen.append((message.version, message.move))
        self.client.inbox = [msg for msg in self.client.inbox if not isinstance(msg, m.Update)]


OTHELLO_LATE = "WWWWWWWB/WWWWWWWB/WWWWWWWB/BWWWWWWB/BWWWWWBB/BBBBBBB./..B...../........ W"
"""Othello 44 moves in, as the first legal moves play it from the start: 16 moves left."""
TRIBOLO_SMALL: dict[str, int | str] = {"rows": 6, "cols": 6, "blocked": 2, "tiles": 3}
"""Tribolo on 36 squares: some 25 moves."""


async def create(
    port: int,
    name: str,
    game: str,
    seat: str,
    *,
    public: bool,
    options: dict[str, int | str] | None = None,
    position: str | None = None,
) -> Player:
    """A room of `game`, dealt board 7 (or set up at `position`), with `name` in `seat`."""
    client = await Client.open(port, name)
    board = None if position else 7
    made = m.CreateRoom(
        game=game, seat=seat, board=board, position=position, options=options, public=public
    )
    joined = await client.request(made)
    assert isinstance(joined, m.Joined)
    ref = joined.code or joined.room["room"]
    return Player(name, ref, joined.token, client)


async def join(port: int, name: str, ref: str, seat: str) -> Player:
    client = await Client.open(port, name)
    joined = await client.request(m.Join(room=ref, seat=seat))
    assert isinstance(joined, m.Joined)
    return Player(name, ref, joined.token, client)


async def view(player: Player) -> dict[str, Any]:
    answer = await player.client.request(m.GetRoom(room=player.ref))
    assert isinstance(answer, m.RoomView)
    return answer.room


async def play_some(players: list[Player], moves: int) -> None:
    """Each person moves when it is their turn, the first legal move, `moves` times in all
    (bots move in between by themselves)."""
    made = 0
    while made < moves:
        for player in players:
            room = await view(player)
            if room["status"] != "playing":
                return
            state = room["state"]
            if state["to_move"] == room["you"]:
                first = state["legal_moves"][0]
                move = m.Move(room=player.ref, version=room["version"], move=first)
                answer = await player.client.request(move)
                if isinstance(answer, m.Ok):
                    made += 1
        await asyncio.sleep(0.05)


async def play_out(players: list[Player]) -> dict[str, Any]:
    """Play until the game is over; the final room."""
    async with asyncio.timeout(120):
        while True:
            await play_some(players, 1)
            room = await view(players[0])
            if room["status"] == "finished":
                return room


async def test_a_killed_server_comes_back_with_every_move_told(tmp_path: Path) -> None:
    async with server_process(tmp_path) as (process, port):
        ann = await create(port, "ann", "othello", "black", public=True, position=OTHELLO_LATE)
        bob = await join(port, "bob", ann.ref, "white")
        await ann.client.request(m.Start(room=ann.ref))
        cat = await create(port, "cat", "tribolo", "red", public=False, options=TRIBOLO_SMALL)
        await cat.client.request(m.FillBots(room=cat.ref, level="easy"))
        await cat.client.request(m.Start(room=cat.ref))
        dan = await create(port, "dan", "tripppin", "grey", public=False)
        await dan.client.request(m.FillBots(room=dan.ref, level="1"))
        await dan.client.request(m.Start(room=dan.ref))
        people = [ann, bob, cat, dan]
        await play_some([ann, bob], 6)
        await play_some([cat], 3)
        await play_some([dan], 2)
        othello = await view(ann)
        state = othello["state"]
        mover = ann if state["to_move"] == "black" else bob
        last = m.Move(room=ann.ref, version=othello["version"], move=state["legal_moves"][0])
        await mover.client.send(last)
        kill_all(process)
        await process.wait()
        for person in people:
            with contextlib.suppress(Exception):
                while True:
                    person.client.inbox.append(
                        person.client.session.receive(await person.client.websocket.recv())
                    )
            person.told()
        assert all(person.seen for person in people)

    async with server_process(tmp_path) as (_, port):
        for person in people:
            person.client = await Client.open(port, person.name)
            again = await person.client.request(m.Join(room=person.ref, token=person.token))
            assert isinstance(again, m.Joined), again
            moves = again.room["moves"]
            for version, move in person.seen:
                assert moves[version - 1] == move, (person.name, version, move)
        finals = [await play_out([ann, bob]), await play_out([cat]), await play_out([dan])]
        for final in finals:
            assert final["state"]["over"]
            assert final["version"] == len(final["moves"])


async def test_a_damaged_room_is_left_out_and_the_rest_come_back(tmp_path: Path) -> None:
    config = ServerConfig(host="127.0.0.1", port=0, data_dir=tmp_path, bot_workers=1)
    async with running_server(config) as server:
        client = await Client.open(server.port, "ann")
        rooms = []
        for game in ("othello", "tribolo", "oubliette"):
            joined = await client.request(m.CreateRoom(game=game, seat=GAMES[game].seats[0]))
            assert isinstance(joined, m.Joined)
            rooms.append(joined.room["room"])
        await client.close()
    db = sqlite3.connect(tmp_path / STORE_FILE)
    db.execute("UPDATE rooms SET record = 'not json' WHERE id = ?", (rooms[1],))
    db.commit()
    db.close()
    async with running_server(config) as server:
        assert sorted(server.lobby.rooms) == sorted([rooms[0], rooms[2]])
        assert b"parlour_rooms_not_restored_total 1.0" in server.metrics.render()
        client = await Client.open(server.port, "bob")
        seen = await client.request(m.Spectate(room=rooms[0]))
        assert isinstance(seen, m.Watching)
        await client.close()


async def test_changes_a_failed_write_could_not_store_are_stored_with_the_next(
    tmp_path: Path,
) -> None:
    config = ServerConfig(host="127.0.0.1", port=0, data_dir=tmp_path, bot_workers=1)
    async with running_server(config) as server:
        store = server.store
        assert store is not None
        real_save = store.save
        failing = [True]

        def save_once_failing(*args: Any, **kwargs: Any) -> None:
            if failing.pop() if failing else False:
                raise sqlite3.OperationalError("disk I/O error")
            real_save(*args, **kwargs)

        store.save = save_once_failing  # type: ignore[method-assign]
        client = await Client.open(server.port, "ann")
        joined = await client.request(m.CreateRoom(game="othello", seat="black"))
        assert isinstance(joined, m.Joined)
        assert [item.room_id for item in store.load()] == []
        await client.request(m.ListRooms())
        assert b"parlour_store_failures_total 1.0" in server.metrics.render()
        await client.request(m.FillBots(room=joined.room["room"]))
        assert [item.room_id for item in store.load()] == [joined.room["room"]]
        await client.close()


async def test_a_killed_server_comes_back_with_each_rooms_history(tmp_path: Path) -> None:
    async with server_process(tmp_path) as (process, port):
        ann = await create(port, "Ann", "othello", "black", public=False)
        bob = await join(port, "Bob", ann.ref, "white")
        await ann.client.request(m.Start(room=ann.ref))
        await play_some([ann, bob], 4)
        said = await bob.client.request(m.Chat(room=bob.ref, text="so close! gg"))
        assert isinstance(said, m.Ok), "stored before it was told"
        kill_all(process)
        await process.wait()
    async with server_process(tmp_path) as (_, port):
        back = await Client.open(port, "Bob")
        again = await back.request(m.Join(room=bob.ref, token=bob.token))
        assert isinstance(again, m.Joined) and again.history is not None
        history = again.history
        assert [entry["kind"] for entry in history] == [
            "seat",
            "seat",
            "started",
            *["move"] * 4,
            "chat",
        ]
        assert [entry["n"] for entry in history] == list(range(1, 9))
        assert [entry["move"] for entry in history if entry["kind"] == "move"] == again.room[
            "moves"
        ]
        assert history[-1]["name"] == "Bob" and history[-1]["text"] == "so close! gg"
        assert {entry["name"] for entry in history if entry["kind"] == "move"} == {"Ann", "Bob"}
        watcher = await Client.open(port, "Cy")
        watching = await watcher.request(m.Spectate(room=ann.ref))
        assert isinstance(watching, m.Watching) and watching.history == history
        for client in (back, watcher):
            await client.close()
