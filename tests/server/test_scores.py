"""Score cards: finished games recorded with each seat's outcome, and the card they make."""

from pathlib import Path

import pytest

from parlour.protocol import messages as m
from parlour.server.room import Status
from parlour.server.scores import Result, SeatResult, initials
from parlour.server.services import Limits
from parlour.server.store import FILE_NAME, MEMORY, Store

from .test_lobby import Table, answer
from .test_manage import against_bots, bot_moves, play


def result(
    game: str, outcomes: list[tuple[str, str | None, str, int]], **fields: object
) -> Result:
    """A result with one seat per (colour, name, outcome, score); a None name is a bot."""
    seats = tuple(
        SeatResult(colour, "bot" if name is None else "human", name, "easy", outcome, score)
        for colour, name, outcome, score in outcomes
    )
    base: dict[str, object] = {
        "room": "r",
        "game": game,
        "preset": "standard",
        "board": 1,
        "moves": 60,
        "stood_in": False,
    }
    return Result(**(base | fields), seats=seats)  # type: ignore[arg-type]


def test_a_finished_game_is_recorded_once_with_each_seats_outcome() -> None:
    table = Table()
    room = against_bots(table, "othello")
    held = table.lobby.rooms[room]
    while held.state is not None and not held.state.is_over:
        if held.state.to_move == 0:
            play(table, 1, room)
        bot_moves(table.lobby)
    held = table.lobby.rooms[room]
    assert held.state is not None and held.state.is_over
    results = table.lobby.take_unsaved().results
    assert len(results) == 1
    (found,) = results
    scores = held.state.scores()
    winners = held.state.winners()
    assert found.game == "othello" and found.moves == len(held.moves)
    assert [(s.colour, s.score) for s in found.seats] == [
        ("black", scores[0]),
        ("white", scores[1]),
    ]
    assert [s.name for s in found.seats] == ["Ann", None]
    for index, seat in enumerate(found.seats):
        expected = "loss" if index not in winners else ("win" if len(winners) == 1 else "tie")
        assert seat.outcome == expected
    assert table.lobby.take_unsaved().results == []


def test_the_card_counts_wins_losses_and_ties_by_colour_and_player() -> None:
    store = Store(MEMORY)
    store.save(
        [],
        results=[
            result(
                "tribolo",
                [
                    ("blue", "Ann", "win", 40),
                    ("red", "Bob", "loss", 20),
                    ("green", None, "loss", 4),
                ],
            ),
            result(
                "tribolo",
                [
                    ("blue", "Ann", "tie", 30),
                    ("red", "Bob", "tie", 30),
                    ("green", None, "loss", 4),
                ],
            ),
            result(
                "tribolo",
                [
                    ("blue", "Bob", "loss", 10),
                    ("red", "Ann", "win", 50),
                    ("green", None, "loss", 4),
                ],
                stood_in=True,
            ),
            result(
                "numlo",
                [("blue", "Ann", "win", 99), ("red", None, "loss", 1), ("green", None, "loss", 1)],
            ),
        ],
    )
    card = store.score_card("tribolo", None)
    assert (card["games"], card["stood_in"]) == (3, 1)
    colours = {line["colour"]: line for line in card["colours"]}
    assert {k: colours["blue"][k] for k in ("wins", "losses", "ties", "games", "win_percent")} == {
        "wins": 1,
        "losses": 1,
        "ties": 1,
        "games": 3,
        "win_percent": 33,
    }
    players = {line["name"]: line for line in card["players"]}
    assert (players["Ann"]["wins"], players["Ann"]["ties"], players["Ann"]["losses"]) == (2, 1, 0)
    assert (players["Bob"]["wins"], players["Bob"]["ties"], players["Bob"]["losses"]) == (0, 1, 2)
    assert players["computer, level easy"]["losses"] == 3
    assert card["best"] == {"name": "Ann", "initials": "ANN", "typed": False, "score": 50}
    assert store.score_card("numlo", None)["best"]["score"] == 99


def test_cards_are_kept_per_board_preset(tmp_path: Path) -> None:
    store = Store(tmp_path / FILE_NAME)
    store.save(
        [],
        results=[
            result(
                "oubliette",
                [("green", "Ann", "win", 6), ("red", None, "loss", 2)],
                preset="abalone",
            ),
            result(
                "oubliette",
                [("green", "Ann", "loss", 3), ("red", None, "win", 6)],
                preset="oubliette",
            ),
        ],
    )
    store.close()
    again = Store(tmp_path / FILE_NAME)
    assert again.score_card("oubliette", "abalone")["games"] == 1
    assert again.score_card("oubliette", "abalone")["players"][0]["wins"] == 1
    assert again.score_card("oubliette", None)["games"] == 2
    assert again.score_card("oubliette", "belgian-daisy") == {
        "games": 0,
        "stood_in": 0,
        "changed_hands": 0,
        "colours": [],
        "players": [],
        "best": None,
    }


@pytest.mark.parametrize(
    ("name", "letters"),
    [("ann", "ANN"), ("Ann Lee", "AL"), ("mary jo ann kay", "MJA"), ("!!", "?")],
)
def test_initials(name: str, letters: str) -> None:
    assert initials(name) == letters


def test_the_lobby_answers_score_card_requests_from_its_archive() -> None:
    table = Table(Limits())
    store = Store(MEMORY)
    store.save(
        [], results=[result("numlo", [("blue", "Ann", "win", 9), ("red", None, "loss", 1)])]
    )
    table.lobby.asker.archive = store
    reply = answer(table.lobby.handle(1, m.ScoreCard(id=3, game="numlo")), 1)
    assert isinstance(reply, m.ScoreCardReply) and reply.id == 3
    best = {"name": "Ann", "initials": "ANN", "typed": False, "score": 9}
    assert (reply.games, reply.best) == (1, best)
    refused = answer(table.lobby.handle(1, m.ScoreCard(game="chess")), 1)
    assert isinstance(refused, m.Error) and refused.code == "no_such_game"


def test_the_person_who_makes_a_boards_best_score_types_their_initials() -> None:
    table = Table(Limits())
    table.lobby.asker.archive = store = Store(MEMORY)
    room = table.create(game="othello", seat="black").room["room"]
    table.lobby.handle(1, m.FillBots(room=room, level="easy"))
    table.lobby.handle(1, m.Start(room=room))
    early = table.lobby.handle(1, m.SetInitials(room=room, seat="black", initials="ann"))
    assert answer(early, 1).code == "not_best"
    held = table.lobby.rooms[room]
    while held.status is not Status.FINISHED:
        state = held.state
        assert state is not None
        mover = held.seats[state.to_move]
        move = state.format_move(state.legal_moves()[0])
        if mover.colour == "black":
            table.lobby.handle(1, m.Move(room=room, version=held.version, move=move))
        else:
            (turn,) = table.lobby.bot_turns()
            table.lobby.play_bot(turn, move)
    store.save([], results=table.lobby.take_unsaved().results)
    other = table.lobby.handle(2, m.SetInitials(room=room, seat="black", initials="BOB"))
    assert answer(other, 2).code == "not_seated"
    typed = table.lobby.handle(1, m.SetInitials(room=room, seat="black", initials="aj"))
    assert isinstance(answer(typed, 1), m.Ok)
    card = answer(table.lobby.handle(1, m.ScoreCard(game="othello", preset="standard")), 1)
    assert card.best["initials"] == "AJ" and card.best["typed"] and card.best["name"] == "Ann"
    white = table.lobby.handle(1, m.SetInitials(room=room, seat="white", initials="W"))
    assert answer(white, 1).code == "not_seated"
