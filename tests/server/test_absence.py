"""No rating from absence (protocol.md 2.10): a stand-in that covers a short absence leaves
the game rated; a person still away at the end, the computer standing in, finishes last
and the game counts for those who stayed; no stand-in comes against computers alone."""

from parlour.protocol import messages as m
from parlour.protocol.players import new_key
from parlour.server.room import Holder, Room, Status
from parlour.server.store import MEMORY, Store

from .test_lobby import Table, answer
from .test_rematch import finish

STANDIN_AFTER = 5


KEYS = {name: new_key() for name in ("Ann", "Bob", "Cy")}


def keyed_table(*names: str) -> Table:
    """Connections 1, 2, ... that said hello again with player keys: rated players."""
    table = Table()
    for conn, name in enumerate(names, start=1):
        table.lobby.handle(conn, m.Hello(version=1, name=name, key=KEYS[name]))
    return table


def rated_othello(table: Table) -> tuple[str, m.Joined]:
    """Ann black, Bob white, stand-ins after a few seconds, both moved once."""
    made = table.create(game="othello", seat="black", options={}, standin_after=STANDIN_AFTER)
    room = str(made.room["room"])
    bob = table.join(2, room, seat="white")
    assert isinstance(answer(table.lobby.handle(1, m.Start(room=room)), 1), m.Ok)
    held = table.lobby.rooms[room]
    for conn in (1, 2):
        assert held.state is not None
        text = held.state.format_move(held.state.legal_moves()[0])
        table.lobby.handle(conn, m.Move(room=room, version=held.version, move=text))
    assert held.version == 2
    return room, bob


def away(table: Table, conn: int) -> None:
    """`conn` drops out for longer than a stand-in waits."""
    table.lobby.disconnect(conn)
    table.clock.now += STANDIN_AFTER
    table.lobby.tick()


def test_a_stand_in_that_covered_a_short_absence_leaves_the_game_rated() -> None:
    table = keyed_table("Ann", "Bob")
    room, bob = rated_othello(table)
    held = table.lobby.rooms[room]
    away(table, 2)
    assert held.seats[1].holder is Holder.STANDIN
    assert held.why_unrated() is None, "rated while the computer stands in"
    table.lobby.handle(6, m.Hello(version=1, name="Bob", key=KEYS["Bob"]))
    table.join(6, room, token=bob.token)
    assert held.seats[1].holder.value == "human"
    finish(table, room)
    result = table.lobby.take_unsaved().results[0]
    assert result.rated and held.absent == set() and held.ended == "played"


def test_a_person_away_at_the_end_finishes_last_and_the_game_counts_for_the_other() -> None:
    table = keyed_table("Ann", "Bob")
    room, _ = rated_othello(table)
    held = table.lobby.rooms[room]
    away(table, 2)
    finish(table, room)
    view = held.view(1)
    assert (view["absent"], view["winners"], view["rated"]) == (["white"], ["black"], True)
    assert view["state"]["over"] and view["state"]["winners"] == ["black"], "as the room says"
    result = table.lobby.take_unsaved().results[0]
    assert result.rated and [seat.outcome for seat in result.seats] == ["win", "loss"]
    assert result.seats[1].player_id is not None, "Bob's rating takes the loss"
    assert "white was away at the end" in result.record


def test_of_three_the_person_away_is_last_and_the_others_rank_by_score() -> None:
    table = keyed_table("Ann", "Bob", "Cy")
    made = table.create(standin_after=STANDIN_AFTER)
    room = str(made.room["room"])
    table.join(2, room, seat="red")
    table.join(3, room, seat="green")
    table.lobby.handle(1, m.Start(room=room))
    held: Room = table.lobby.rooms[room]
    away(table, 3)
    finish(table, room)
    assert held.absent == {"green"} and list(held.out) == ["green"]
    result = table.lobby.take_unsaved().results[0]
    assert result.rated and result.ranks[2] == 3, "green last of all"
    scores = [seat.score for seat in result.seats[:2]]
    expected = [1, 2] if scores[0] > scores[1] else [2, 1] if scores[1] > scores[0] else [1, 1]
    assert result.ranks[:2] == expected


def test_no_stand_in_comes_against_computers_alone_and_the_game_stays_rated() -> None:
    table = keyed_table("Ann")
    made = table.create(standin_after=STANDIN_AFTER)
    room = str(made.room["room"])
    table.lobby.handle(1, m.FillBots(room=room, level="easy"))
    table.lobby.handle(1, m.Start(room=room))
    held = table.lobby.rooms[room]
    away(table, 1)
    table.clock.now += 60
    table.lobby.tick()
    assert held.seats[0].holder is Holder.HUMAN and held.status is Status.PLAYING
    assert held.why_unrated() is None and held.seat_log == []


def test_a_seat_the_computer_stood_in_for_makes_no_best_score() -> None:
    table = keyed_table("Ann", "Bob")
    table.lobby.asker.archive = store = Store(MEMORY)
    room, bob = rated_othello(table)
    held = table.lobby.rooms[room]
    away(table, 2)
    assert held.state is not None
    text = held.state.format_move(held.state.legal_moves()[0])
    table.lobby.handle(1, m.Move(room=room, version=held.version, move=text))
    (turn,) = table.lobby.bot_turns()  # the stand-in plays one of white's moves
    assert held.state is not None
    table.lobby.play_bot(turn, held.state.format_move(held.state.legal_moves()[0]))
    table.lobby.handle(6, m.Hello(version=1, name="Bob", key=KEYS["Bob"]))
    table.join(6, room, token=bob.token)
    finish(table, room)
    result = table.lobby.take_unsaved().results[0]
    assert [seat.own_play for seat in result.seats] == [True, False]
    assert result.rated and result.seats[1].player_id is not None, "Bob's game still counts"
    store.save([], results=[result])
    card = answer(table.lobby.handle(1, m.ScoreCard(game="othello", preset="standard")), 1)
    assert isinstance(card, m.ScoreCardReply)
    assert card.best is not None
    assert (card.best["name"], card.best["score"]) == ("Ann", result.seats[0].score)
    asked = table.lobby.handle(6, m.SetInitials(room=room, seat="white", initials="BOB"))
    assert answer(asked, 6).code == "not_best"


def test_the_one_who_stayed_claims_a_two_seat_game_once_the_computer_stands_in() -> None:
    table = keyed_table("Ann", "Bob")
    room, _ = rated_othello(table)
    held = table.lobby.rooms[room]
    claim = m.Claim(room=room, version=held.version)
    table.lobby.disconnect(2)
    early = table.lobby.handle(1, claim)
    assert answer(early, 1).code == "not_claimable", "Bob may be back in a moment"
    table.clock.now += STANDIN_AFTER
    table.lobby.tick()
    assert held.seats[1].holder is Holder.STANDIN
    watcher = table.lobby.handle(3, m.Claim(room=room, version=held.version))
    assert answer(watcher, 3).code in ("not_seated", "not_in_room")
    told = table.lobby.handle(1, claim)
    assert isinstance(answer(told, 1), m.Ok)
    view = held.view(1)
    assert (view["ended"], view["winners"], view["absent"], view["rated"]) == (
        "claimed",
        ["black"],
        ["white"],
        True,
    )
    assert view["state"]["over"] and view["state"]["winners"] == ["black"]
    result = table.lobby.take_unsaved().results[0]
    assert result.rated and [seat.outcome for seat in result.seats] == ["win", "loss"]
    assert result.seats[1].player_id is not None, "Bob's rating takes the loss"
    assert [entry["kind"] for entry in held.history.window()][-2:] == ["claimed", "over"]
    assert table.lobby.handle(1, claim) == [(1, m.Ok())], "sent again: ok, nothing more"


def test_of_three_no_claim_while_another_person_plays_on() -> None:
    table = keyed_table("Ann", "Bob", "Cy")
    made = table.create(standin_after=STANDIN_AFTER)
    room = str(made.room["room"])
    table.join(2, room, seat="red")
    table.join(3, room, seat="green")
    assert isinstance(answer(table.lobby.handle(1, m.Start(room=room)), 1), m.Ok)
    held = table.lobby.rooms[room]
    away(table, 3)
    claim = m.Claim(room=room, version=held.version)
    assert answer(table.lobby.handle(1, claim), 1).code == "not_claimable"
    assert held.status is Status.PLAYING


def test_a_claim_before_the_one_away_ever_moved_is_an_abort() -> None:
    table = keyed_table("Ann", "Bob")
    made = table.create(game="othello", seat="black", options={}, standin_after=STANDIN_AFTER)
    room = str(made.room["room"])
    table.join(2, room, seat="white")
    assert isinstance(answer(table.lobby.handle(1, m.Start(room=room)), 1), m.Ok)
    held = table.lobby.rooms[room]
    away(table, 2)
    claim = m.Claim(room=room, version=held.version)
    assert isinstance(answer(table.lobby.handle(1, claim), 1), m.Ok)
    assert held.ended == "aborted" and held.winners == []
    assert table.lobby.take_unsaved().results == [], "nothing was played to rate"
