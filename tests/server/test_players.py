"""Known players (protocol.md 2.10): keys, names held by one player, ratings moved by rated
games only, a player's own games, leaderboards, saves per key and replays."""

import random
from pathlib import Path
from typing import Any

import pytest

from parlour.protocol import messages as m
from parlour.protocol.players import new_key, player_id
from parlour.rules import get_game
from parlour.rules.gamefile import game_file
from parlour.server import ServerConfig, running_server
from parlour.server.lobby import Lobby
from parlour.server.ratings import NEW
from parlour.server.store import MEMORY, Store

from .test_lobby import Clock, answer, to
from .wsclient import Client

ANN_KEY, BOB_KEY = new_key(), new_key()


def lobby() -> Lobby:
    return Lobby(clock=Clock(), archive=Store(MEMORY))


def hello(lobby: Lobby, conn: int, name: str, key: str | None = None) -> m.ServerMessage:
    reply: m.ServerMessage = answer(
        lobby.handle(conn, m.Hello(version=1, name=name, key=key)), conn
    )
    return reply


def othello_room(lobby: Lobby, **fields: Any) -> str:
    """An Othello room with conn 1 as black and conn 2 as white, started."""
    joined = answer(
        lobby.handle(1, m.CreateRoom(game="othello", board=1, seat="black", **fields)), 1
    )
    room = str(joined.room["room"])
    ref = joined.code or room
    assert isinstance(answer(lobby.handle(2, m.Join(room=ref, seat="white")), 2), m.Joined)
    assert isinstance(answer(lobby.handle(1, m.Start(room=room)), 1), m.Ok)
    return room


def play_out(lobby: Lobby, room_id: str) -> list[tuple[int, m.ServerMessage]]:
    """Both people play the first legal move until the game ends; what the last move told."""
    room = lobby.rooms[room_id]
    told: list[tuple[int, m.ServerMessage]] = []
    while room.state is not None and not room.state.is_over:
        seat = room.seats[room.state.to_move]
        assert seat.conn is not None
        move = room.state.format_move(room.state.legal_moves()[0])
        told = lobby.handle(seat.conn, m.Move(room=room_id, version=room.version, move=move))
        assert not isinstance(answer(told, seat.conn), m.Error), told
    return told


def replayed(lobby: Lobby, conn: int, asked: m.Replay) -> m.ServerMessage:
    """The answer to `asked`: a refusal at once, or the replay the shell builds."""
    outbox = lobby.handle(conn, asked)
    for replay in lobby.known.replays_asked():
        outbox += replay.answer()
    reply: m.ServerMessage = answer(outbox, conn)
    return reply


def view(lobby: Lobby, conn: int, room: str) -> dict[str, Any]:
    shown = answer(lobby.handle(conn, m.GetRoom(room=room)), conn)
    assert isinstance(shown, m.RoomView)
    return shown.room


def test_a_key_proves_a_player_who_keeps_their_name() -> None:
    hall = lobby()
    first = hello(hall, 1, "Ann", ANN_KEY)
    assert isinstance(first, m.Welcome) and first.player is not None
    assert first.player == {"id": player_id(ANN_KEY), "name": "Ann", "new": True}
    hall.disconnect(1)
    again = hello(hall, 1, "Ann", ANN_KEY.lower().replace("-", " "))
    assert isinstance(again, m.Welcome) and again.player is not None
    assert (again.player["id"], again.player["new"]) == (player_id(ANN_KEY), False)
    guest = hello(hall, 2, "Zed")
    assert isinstance(guest, m.Welcome) and guest.player is None


def test_a_name_held_by_one_key_is_refused_to_another_and_to_guests_until_given_up() -> None:
    hall = lobby()
    assert isinstance(hello(hall, 1, "Ann", ANN_KEY), m.Welcome)
    for key in (BOB_KEY, None):
        refused = hello(hall, 2, "aNN", key)
        assert isinstance(refused, m.Error) and refused.code == "name_taken"
        assert "belongs to another player" in refused.message
    # Refused, the connection may say hello again; until welcomed it is asked to wait.
    early = answer(hall.handle(2, m.ListRooms()), 2)
    assert isinstance(early, m.Error) and early.code == "busy"
    assert isinstance(hello(hall, 2, "Bob", BOB_KEY), m.Welcome)
    # Ann takes a new name and gives up the old one, which Bob may then take.
    assert isinstance(hello(hall, 3, "Annie", ANN_KEY), m.Welcome)
    assert isinstance(hello(hall, 4, "Ann", BOB_KEY), m.Welcome)
    assert isinstance(hello(hall, 5, "computer, level hard"), m.Error)


def test_a_rated_game_moves_both_ratings_once_and_tells_the_room() -> None:
    hall = lobby()
    hello(hall, 1, "Ann", ANN_KEY)
    hello(hall, 2, "Bob", BOB_KEY)
    room = othello_room(hall)
    before = view(hall, 1, room)
    assert before["rated"] is True and before["unrated"] is None
    assert [seat["rating"]["value"] for seat in before["seats"]] == [1500, 1500]
    told = play_out(hall, room)
    after = view(hall, 1, room)
    changes = after["rating_changes"]
    for conn in (1, 2):
        # The last move's update, then the room with the ratings it moved.
        last = to(told, conn)[-1]
        assert isinstance(last, m.RoomView) and last.room["rating_changes"] == changes
    state = hall.rooms[room].state
    assert state is not None
    winner = state.winners()
    assert len(winner) == 1, "the first-legal-move game is not a tie on board 1"
    won, lost = ["black", "white"][winner[0]], ["black", "white"][1 - winner[0]]
    assert changes[won]["before"] == changes[lost]["before"] == NEW.display
    assert changes[won]["after"] > NEW.display > changes[lost]["after"]
    shown = {seat["colour"]: seat["rating"] for seat in after["seats"]}
    assert shown[won]["value"] == changes[won]["after"] and shown[won]["games"] == 1
    board = answer(hall.handle(1, m.Leaderboard(game="othello")), 1)
    assert isinstance(board, m.LeaderboardReply)
    names = [line["name"] for line in board.players]
    assert sorted(names) == ["Ann", "Bob"] and names[0] == ("Ann" if won == "black" else "Bob")
    # Rating the same game again (a write sent twice) changes nothing.
    archive = hall.asker.archive
    assert archive is not None
    result = hall.take_unsaved().results[0]
    assert archive.rate(result) == changes
    assert archive.ratings("othello", [player_id(ANN_KEY)])[player_id(ANN_KEY)].games == 1


def test_a_hint_a_guest_or_a_casual_room_leaves_ratings_where_they_were() -> None:
    hall = lobby()
    hello(hall, 1, "Ann", ANN_KEY)
    hello(hall, 2, "Bob", BOB_KEY)
    hinted = othello_room(hall)
    hall.handle(1, m.Hint(room=hinted, kind="possible"))
    assert view(hall, 2, hinted)["rated"] is True, "the possible moves are only the rules"
    hall.handle(1, m.Hint(room=hinted, kind="best"))
    assert view(hall, 2, hinted)["unrated"] == "Ann asked for the best move"
    play_out(hall, hinted)
    casual = othello_room(hall, rated=False)
    assert view(hall, 1, casual)["unrated"] == "the room is not rated"
    play_out(hall, casual)
    for room in (hinted, casual):
        assert view(hall, 1, room)["rating_changes"] is None
    handed = othello_room(hall)
    hall.handle(2, m.SetSeat(room=handed, seat="white", holder="bot", level="easy"))
    assert view(hall, 1, handed)["unrated"] == "white's seat changed hands"
    waiting = answer(hall.handle(1, m.CreateRoom(game="othello", board=1, seat="black")), 1)
    hall.handle(1, m.SetSeat(room=waiting.room["room"], seat="black", holder="bot"))
    assert view(hall, 1, waiting.room["room"])["unrated"] == "the computer plays Ann's seat"
    hello(hall, 3, "Cy")
    hall.handle(1, m.Leave(room=hinted))
    made = answer(hall.handle(3, m.CreateRoom(game="othello", board=1, seat="black")), 3)
    assert made.room["unrated"] == "Cy plays as a guest"
    shared = answer(hall.handle(1, m.CreateRoom(game="othello", board=1, seat="black")), 1)
    hall.handle(1, m.Join(room=shared.room["room"], seat="white", name="Bea"))
    assert view(hall, 1, shared.room["room"])["unrated"] == (
        "Bea plays at Ann's screen (hot-seat games are friendly)"
    )
    board = answer(hall.handle(1, m.Leaderboard(game="othello")), 1)
    assert isinstance(board, m.LeaderboardReply) and board.players == []


def test_a_player_comes_back_to_their_seat_by_key_and_lists_their_games() -> None:
    hall = lobby()
    hello(hall, 1, "Ann", ANN_KEY)
    hello(hall, 2, "Bob", BOB_KEY)
    room = othello_room(hall, public=False)
    hall.disconnect(1)
    hello(hall, 7, "Ann", ANN_KEY)
    mine = answer(hall.handle(7, m.MyGames()), 7)
    assert isinstance(mine, m.MyGamesReply) and mine.finished == []
    (entry,) = mine.playing
    assert (entry["room"], entry["seats"], entry["status"]) == (room, ["black"], "playing")
    assert entry["ref"] == hall.rooms[room].code
    back = answer(hall.handle(7, m.Join(room=entry["ref"], seat="black")), 7)
    assert isinstance(back, m.Joined) and back.seat == "black" and back.host
    # Without naming the seat, the key alone brings her back to hers, the room being full.
    hall.disconnect(7)
    hello(hall, 9, "Ann", ANN_KEY)
    again = answer(hall.handle(9, m.Join(room=entry["ref"])), 9)
    assert isinstance(again, m.Joined) and (again.seat, again.host) == ("black", True)
    assert again.token == back.token
    # Bob's key is not Ann's: her seat is not his to take.
    refused = answer(hall.handle(2, m.Join(room=room, seat="black")), 2)
    assert isinstance(refused, m.Error) and refused.code == "seat_taken"
    play_out(hall, room)
    hall.take_unsaved()
    store = hall.asker.archive
    assert isinstance(store, Store)
    store.save([], results=[])
    games = answer(hall.handle(9, m.MyGames()), 9)
    assert isinstance(games, m.MyGamesReply) and games.playing == []
    guest = hello(hall, 8, "Guest")
    assert isinstance(guest, m.Welcome)
    refused = answer(hall.handle(8, m.MyGames()), 8)
    assert isinstance(refused, m.Error) and refused.code == "no_key"


def test_finished_games_are_listed_rated_and_replayed_by_their_record() -> None:
    hall = lobby()
    hello(hall, 1, "Ann", ANN_KEY)
    hello(hall, 2, "Bob", BOB_KEY)
    room = othello_room(hall)
    play_out(hall, room)
    store = hall.asker.archive
    assert isinstance(store, Store)
    unsaved = hall.take_unsaved()
    store.save([], results=unsaved.results)
    mine = answer(hall.handle(2, m.MyGames()), 2)
    assert isinstance(mine, m.MyGamesReply)
    (game,) = mine.finished
    assert game["rated"] is True and game["game"] == "othello"
    seats = {seat["colour"]: seat for seat in game["seats"]}
    assert seats["white"]["player"] == player_id(BOB_KEY) and seats["white"]["name"] == "Bob"
    assert seats["black"]["rating"] == view(hall, 1, room)["rating_changes"]["black"]
    replay = replayed(hall, 2, m.Replay(record=game["record"]))
    assert isinstance(replay, m.ReplayReply)
    assert [frame["move"] for frame in replay.frames[1:]] == hall.rooms[room].moves
    assert replay.names == ["Ann", "Bob"]
    missing = replayed(hall, 2, m.Replay(record="nothing.1"))
    assert isinstance(missing, m.Error) and missing.code == "no_such_record"


def test_saved_games_are_the_players_own() -> None:
    hall = lobby()
    hello(hall, 1, "Ann", ANN_KEY)
    hello(hall, 2, "Bob", BOB_KEY)
    room = othello_room(hall)
    assert isinstance(answer(hall.handle(1, m.SaveGame(room=room, name="mine")), 1), m.Ok)
    assert isinstance(answer(hall.handle(2, m.SaveGame(room=room, name="mine")), 2), m.Ok)
    for conn in (1, 2):
        listed = answer(hall.handle(conn, m.ListSaves()), conn)
        assert isinstance(listed, m.Saves)
        assert [(save["name"], save["saved_by"]) for save in listed.saves] == [
            ("mine", ["Ann", "Bob"][conn - 1])
        ]
    hello(hall, 3, "Cy")
    listed = answer(hall.handle(3, m.ListSaves()), 3)
    assert isinstance(listed, m.Saves) and listed.saves == []


def random_game_file(name: str, seed: int) -> tuple[str, list[dict[str, Any]]]:
    """A whole game of `name` played at random, and each position's spectator view."""
    game = get_game(name)
    chance = random.Random(seed)
    state = game.new(game.resolve_options({}), seed=seed)
    moves: list[str] = []
    views = [state.observation()]
    while not state.is_over and len(moves) < 400:
        move = chance.choice(state.legal_moves())
        moves.append(state.format_move(move))
        state = state.play(move)
        views.append(state.observation())
    return game_file(game, game.resolve_options({}), seed, moves, {}).text(), views


def test_a_tribolo_and_an_oubliette_game_replay_as_the_rules_play_them() -> None:
    hall = lobby()
    hello(hall, 1, "Ann")
    for name, seed in (("tribolo", 3), ("oubliette", 5)):
        text, views = random_game_file(name, seed)
        replay = replayed(hall, 1, m.Replay(text=text))
        assert isinstance(replay, m.ReplayReply), replay
        assert [frame["state"] for frame in replay.frames] == views
        assert [frame["ply"] for frame in replay.frames] == list(range(len(views)))
        for frame in replay.frames:
            shares = frame["evaluation"]
            assert shares is None or (sum(shares) == 1000 and min(shares) >= 0)
        assert replay.frames[0]["move"] is None and replay.frames[1]["mover"] == replay.seats[0]
    bad = replayed(hall, 1, m.Replay(text='[Game "chess"]\n'))
    assert isinstance(bad, m.Error) and bad.code == "bad_save"
    two = replayed(hall, 1, m.Replay(text=text, record="a.1"))
    assert isinstance(two, m.Error) and two.code == "bad_field"


async def test_a_key_proves_the_player_and_their_rating_across_a_restart(tmp_path: Path) -> None:
    config = ServerConfig(host="127.0.0.1", port=0, data_dir=tmp_path, bot_workers=1)
    async with running_server(config) as server:
        ann = await Client.open(server.port, "Ann", key=ANN_KEY)
        bob = await Client.open(server.port, "Bob", key=BOB_KEY)
        made = await ann.request(m.CreateRoom(game="othello", board=1, seat="black"))
        assert isinstance(made, m.Joined)
        room = str(made.room["room"])
        assert isinstance(await bob.request(m.Join(room=room, seat="white")), m.Joined)
        assert isinstance(await ann.request(m.Start(room=room)), m.Ok)
        held = server.lobby.rooms[room]
        while held.state is not None and not held.state.is_over:
            mover = [ann, bob][held.state.to_move]
            move = held.state.format_move(held.state.legal_moves()[0])
            await mover.request(m.Move(room=room, version=held.version, move=move))
        changes = held.rating_changes
        assert changes is not None
        await ann.close()
        await bob.close()
    async with running_server(config) as server:
        ann = await Client.open(server.port, "Ann", key=ANN_KEY)
        assert ann.welcome is not None and ann.welcome.player is not None
        assert ann.welcome.player["new"] is False
        thief = await Client.open(server.port, "Bea")
        taken = await thief.request(m.Hello(version=1, name="Bob"))
        assert isinstance(taken, m.Error)
        mine = await ann.request(m.MyGames())
        assert isinstance(mine, m.MyGamesReply)
        (game,) = mine.finished
        assert game["seats"][0]["rating"] == changes["black"]
        shown = await ann.request(m.GetRoom(room=room))
        assert isinstance(shown, m.RoomView)
        assert shown.room["rating_changes"] == changes
        ratings = {seat["colour"]: seat["rating"]["value"] for seat in shown.room["seats"]}
        assert ratings == {colour: change["after"] for colour, change in changes.items()}
        await ann.close()
        await thief.close()


def test_a_second_person_at_a_screen_may_not_take_a_players_name() -> None:
    hall = lobby()
    hello(hall, 1, "Ann", ANN_KEY)
    hello(hall, 2, "Bob", BOB_KEY)
    made = answer(hall.handle(2, m.CreateRoom(game="tribolo", board=1, seat="blue")), 2)
    room = made.room["room"]
    taken = answer(hall.handle(2, m.Join(room=room, seat="red", name="ann")), 2)
    assert isinstance(taken, m.Error) and taken.code == "name_taken"
    asked = m.SetSeat(room=room, seat="red", holder="human", name="Ann")
    refused = answer(hall.handle(2, asked), 2)
    assert isinstance(refused, m.Error) and refused.code == "name_taken"
    assert hall.rooms[room].seats[1].name is None, "nothing changed"
    # A name nobody holds is the second person's, as a guest's; the player's own is theirs.
    joined = answer(hall.handle(2, m.Join(room=room, seat="red", name="Bea")), 2)
    assert isinstance(joined, m.Joined)
    own = answer(hall.handle(2, m.Join(room=room, seat="green", name="Bob")), 2)
    assert isinstance(own, m.Joined)
    seats = hall.rooms[room].seats
    assert [seat.player for seat in seats] == [player_id(BOB_KEY), None, player_id(BOB_KEY)]


def test_a_game_the_computer_finished_for_its_people_is_in_their_lists() -> None:
    hall = lobby()
    hello(hall, 1, "Ann", ANN_KEY)
    hello(hall, 2, "Bob", BOB_KEY)
    room = othello_room(hall)
    held = hall.rooms[room]
    for _ in range(4):
        assert held.state is not None
        seat = held.seats[held.state.to_move]
        move = held.state.format_move(held.state.legal_moves()[0])
        assert seat.conn is not None
        hall.handle(seat.conn, m.Move(room=room, version=held.version, move=move))
    hall.handle(1, m.SetSeat(room=room, seat="black", holder="bot", level="easy"))
    hall.handle(2, m.Leave(room=room, give_up=True))
    assert held.seats[1].player is None, "Bob gave his seat up: the computer's now"
    while turns := hall.bot_turns():
        for turn in turns:
            hall.play_bot(turn, turn.state.format_move(turn.state.legal_moves()[0]))
    assert held.status.value == "finished"
    store = hall.asker.archive
    assert isinstance(store, Store)
    store.save([], results=hall.take_unsaved().results)
    for conn, colour, key in ((1, "black", ANN_KEY), (2, "white", BOB_KEY)):
        mine = answer(hall.handle(conn, m.MyGames()), conn)
        assert isinstance(mine, m.MyGamesReply)
        (game,) = mine.finished
        seats = {seat["colour"]: seat for seat in game["seats"]}
        assert seats[colour]["player"] == player_id(key)
        assert seats[colour]["kind"] == "changed" and not game["rated"]
    card = store.score_card("othello", None)
    assert card["games"] == 1 and card["changed_hands"] == 1
    assert card["players"] == [], "a seat that changed hands counts for no player"


def test_a_seat_the_computer_played_all_game_is_its_persons_but_counts_for_the_level() -> None:
    hall = lobby()
    hello(hall, 1, "Ann", ANN_KEY)
    made = answer(hall.handle(1, m.CreateRoom(game="othello", board=1, seat="black")), 1)
    room = str(made.room["room"])
    hall.handle(1, m.SetSeat(room=room, seat="black", holder="bot", level="easy"))
    hall.handle(1, m.FillBots(room=room, level="easy"))
    hall.handle(1, m.Start(room=room))
    while turns := hall.bot_turns():
        for turn in turns:
            hall.play_bot(turn, turn.state.format_move(turn.state.legal_moves()[0]))
    store = hall.asker.archive
    assert isinstance(store, Store)
    store.save([], results=hall.take_unsaved().results)
    mine = answer(hall.handle(1, m.MyGames()), 1)
    (game,) = mine.finished
    black = next(seat for seat in game["seats"] if seat["colour"] == "black")
    assert (black["kind"], black["player"]) == ("bot", player_id(ANN_KEY))
    card = store.score_card("othello", None)
    assert [line["name"] for line in card["players"]] == ["computer, level easy"]
    assert card["players"][0]["games"] == 2, "both seats count for the level, none for Ann"


@pytest.mark.parametrize("keys", [(ANN_KEY, BOB_KEY), (None, None)], ids=["rated", "guests"])
def test_the_last_update_is_followed_by_the_finished_room_rated_or_not(
    keys: tuple[str | None, str | None],
) -> None:
    hall = lobby()
    hello(hall, 1, "Ann", keys[0])
    hello(hall, 2, "Bob", keys[1])
    room = othello_room(hall)
    told = play_out(hall, room)
    for conn in (1, 2):
        mine = [message for to, message in told if to == conn and not isinstance(message, m.Ok)]
        assert isinstance(mine[0], m.Update) and mine[0].state["over"]
        views = [message.room for message in mine[1:] if isinstance(message, m.RoomView)]
        assert views and views[0]["status"] == "finished" and views[0]["winners"]
        assert views[-1]["rated"] is (keys[0] is not None)
        if keys[0] is not None:
            assert set(views[-1]["rating_changes"]) == {"black", "white"}
        else:
            assert views[-1]["unrated"] == "Ann plays as a guest"
