"""protocol.md's section 8 (the games) is true: every worked example is played through a
lobby and answered as the section shows it, every board drawn there is the board the
rules deal, and each game's expressions match the moves of many games as written and as
typed loosely, and nothing the server would refuse as not a move."""

import json
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from parlour.protocol import messages as m
from parlour.rules import MalformedMoveError, State, get_game, hexgrid
from parlour.rules.grid import Grid
from parlour.server.lobby import Lobby
from parlour.server.store import MEMORY, Store

PROTOCOL_MD = Path(__file__).parents[2] / "protocol.md"
GAMES = ("othello", "tribolo", "numlo", "doublolo", "tripppin", "oubliette")
FLANK = ("othello", "tribolo", "numlo", "doublolo")
ROOM = "k7Hq2mXa"
"""The room id the examples write; the lobby draws its own."""
SQUARE_BOARDS = "the"
"""8.2, "The square boards", the flank games' part: by its title's first word."""


@cache
def subsections() -> dict[str, str]:
    """Section 8's subsections by their title's first word, lower case (`othello`)."""
    text = PROTOCOL_MD.read_text()
    start = text.index("\n## 8. The games")
    end = text.find("\n## ", start + 1)
    section = text[start : end if end != -1 else len(text)]
    parts = re.split(r"^### 8\.\d+ (.*)$", section, flags=re.MULTILINE)
    return {
        title.split()[0].rstrip(":").lower(): body
        for title, body in zip(parts[1::2], parts[2::2], strict=True)
    }


def blocks(game_or_part: str, info: str) -> list[str]:
    """The fenced blocks of a subsection whose info string is `info`, in order."""
    found = re.findall(r"^```([^\n]*)\n(.*?)^```", subsections()[game_or_part], re.M | re.S)
    return [body for kind, body in found if kind == info]


def grammar(game: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The expressions for how the server writes a move of `game` and what it reads."""
    written, read = blocks(SQUARE_BOARDS if game in FLANK else game, "regex")
    return re.compile(written.strip()), re.compile(read.strip())


def example(game: str) -> list[dict[str, Any]]:
    """The worked example's messages: see, seen, hint, its answer, move, update."""
    messages = [json.loads(body) for body in blocks(game, "json")]
    assert [message["type"] for message in messages] == [
        "see",
        "seen",
        "hint",
        "hint",
        "move",
        "update",
    ]
    return messages


def start_of(see: dict[str, Any]) -> State[Any]:
    """The state a `see` request asks to look at, from the rules alone."""
    game = get_game(see["game"])
    if "position" in see:
        return game.start_from(see["position"], see.get("options"))
    return game.new(see.get("options"), seed=see["board"])


def observed(state: State[Any]) -> dict[str, Any]:
    """The observation of `state`, its fields read as the tests please."""
    return dict(state.observation())


def assert_shows(shown: dict[str, Any], sent: m.Message) -> None:
    """`sent` holds every field `shown` has, with the same value (the room id aside); of
    `state`, the fields shown."""
    wire = sent.to_wire()
    for key, value in shown.items():
        if key == "state":
            assert {k: wire["state"][k] for k in value} == value
        elif key != "room":
            assert wire[key] == value, key


def with_room(message: dict[str, Any], room: str) -> m.ClientMessage:
    """An example's request, sent to the lobby's room in place of the one it names."""
    assert message["room"] == ROOM
    return m.read_client_message({**message, "room": room})


@pytest.mark.parametrize("game_name", GAMES)
def test_the_worked_example_is_answered_as_the_section_shows(game_name: str) -> None:
    see, seen, hint, hinted, move, update = example(game_name)
    game = get_game(game_name)
    lobby = Lobby(clock=lambda: 1000.0, archive=Store(MEMORY), coin=lambda: "heads")
    conns = range(1, len(game.seats) + 1)
    for conn in conns:
        lobby.handle(conn, m.Hello(version=1, name=f"Player {conn}"))
    [(_, answer)] = lobby.handle(1, m.read_client_message(see))
    assert_shows(seen, answer)
    where = {key: see[key] for key in ("board", "position", "options") if key in see}
    made = lobby.handle(1, m.CreateRoom(game=game_name, seat=game.seats[0], **where))
    room = made[0][1].to_wire()["room"]["room"]
    for conn, colour in zip(conns[1:], game.seats[1:], strict=True):
        lobby.handle(conn, m.Join(room=room, seat=colour))
    assert isinstance(lobby.handle(1, m.Start(room=room))[0][1], m.Ok)
    mover = conns[game.seats.index(seen["state"]["to_move"])]
    asked = lobby.handle(mover, with_room(hint, room))
    assert_shows(hinted, asked[0][1])
    sent = lobby.handle(mover, with_room(move, room))
    assert isinstance(sent[0][1], m.Ok)
    updates = [message for conn, message in sent if conn == 1 and isinstance(message, m.Update)]
    assert len(updates) == 1
    assert_shows(update, updates[0])


def board_rows(diagram: str) -> tuple[str, list[tuple[int, str]]]:
    """A square board drawn as in 8.2: its column letters, and each row's number and cells."""
    header, *lines = diagram.splitlines()
    rows = []
    for line in lines:
        number, *cells = line.split()
        rows.append((int(number), "".join(cells)))
    return "".join(header.split()), rows


@pytest.mark.parametrize("game_name", FLANK)
def test_a_square_board_drawn_is_the_board_dealt(game_name: str) -> None:
    state = observed(start_of(example(game_name)[0]))
    for kind in ("board", "values"):
        drawn = blocks(game_name, f"text {kind}")
        assert len(drawn) == (1 if state[kind] else 0)
        for diagram in drawn:
            letters, rows = board_rows(diagram)
            assert letters == "abcdefghijklmnopqrstuvwxyz"[: state["cols"]]
            assert rows == [(r + 1, row) for r, row in enumerate(state[kind])]


def test_the_names_drawn_on_a_square_board_are_the_rules_names() -> None:
    [diagram] = blocks(SQUARE_BOARDS, "text names")
    header, *lines = diagram.splitlines()
    grid = Grid(len(lines), len(header.split()))
    for r, line in enumerate(lines):
        number, *rest = line.split()
        names = [word for word in rest if re.fullmatch(r"[a-z][0-9]+", word)]
        assert int(number) == r + 1
        assert names == [grid.format_square(r * grid.cols + c) for c in range(grid.cols)]
        assert f"board[{r}]" in line


def test_tripppin_drawn_is_its_tiles_circles_and_pieces() -> None:
    state = observed(start_of(example("tripppin")[0]))
    [diagram] = blocks("tripppin", "text board")
    directions = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
    assert diagram.splitlines()[0].split() == list("abcdefgh")
    for r, line in enumerate(diagram.splitlines()[1:]):
        for c, cell in enumerate(line.split()[1:]):
            name = f"{'abcdefgh'[c]}{r + 1}"
            tile = state["tiles"][r][c]
            if cell in ("B", "G"):
                assert state["pieces"][{"B": "blue", "G": "grey"}[cell]] == name
            elif cell == "()":
                assert name in state["circles"] and tile == []
            else:
                mask = 0 if cell == "--" else int(cell, 16)
                assert tile == [d for bit, d in enumerate(directions) if mask >> bit & 1]
    [names] = blocks("tripppin", "text names")
    marks = {
        (r, c): cell
        for r, line in enumerate(names.splitlines()[1:])
        for c, cell in enumerate(line.split()[1:])
    }
    circles = [f"{'abcdefgh'[c]}{r + 1}" for (r, c), cell in marks.items() if cell == "O"]
    assert sorted(circles) == sorted(state["circles"])
    starts = {cell: f"{'abcdefgh'[c]}{r + 1}" for (r, c), cell in marks.items() if cell in "BG"}
    assert starts == {"B": state["starts"]["blue"], "G": state["starts"]["grey"]}


def test_oubliette_drawn_is_its_rows_each_half_a_cell_in_from_the_widest() -> None:
    state = observed(start_of(example("oubliette")[0]))
    [diagram] = blocks("oubliette", "text board")
    lines = diagram.splitlines()
    assert [line.split()[0] for line in lines] == list("ihgfedcba")
    assert ["".join(line.split()[1:]) for line in lines] == state["rows"]
    starts = [len(line) - len(line[2:].lstrip()) for line in lines]
    assert [start - min(starts) for start in starts] == [9 - len(row) for row in state["rows"]]
    [names] = blocks("oubliette", "text names")
    rows = [line.split() for line in names.splitlines()]
    assert rows == state["row_cells"]
    indents = [len(line) - len(line.lstrip()) for line in names.splitlines()]
    assert [indent - min(indents) for indent in indents] == [2 * (9 - len(row)) for row in rows]


def test_oubliette_steps_drawn_from_e5_are_the_rules_steps() -> None:
    [drawn] = [body for body in blocks("oubliette", "text") if "is" in body.split()]
    centre = hexgrid.parse_cell("e5")
    for line in drawn.splitlines():
        words = [word for word in line.split() if word not in ("is", "e5")]
        cells, directions = words[: len(words) // 2], words[len(words) // 2 :]
        for cell, direction in zip(cells, directions, strict=True):
            assert hexgrid.step(centre, direction) == hexgrid.parse_cell(cell)


def positions(game_name: str, games: int = 4, plies: int = 40) -> list[State[Any]]:
    """Positions of random games from several boards, every one on the way."""
    rng = random.Random(f"{game_name} 31")
    game = get_game(game_name)
    found: list[State[Any]] = []
    for board in range(1, games + 1):
        state = game.new(seed=board)
        for _ in range(plies):
            found.append(state)
            if state.is_over:
                break
            state = state.play(rng.choice(state.legal_moves()))
    return found


def loosely(game_name: str, text: str, rng: random.Random) -> list[str]:
    """`text` (a move as written) typed as people may type it, and the server reads."""
    typed = [text.upper(), f"  {text}  ", text.title()]
    if game_name == "oubliette":
        line, direction = text.split(" ")
        first, _, last = line.partition("-")
        ends = f"{last} - {first}" if last else f"{first}-{first}"
        typed += [f"{ends} {direction.upper()}", f"{line}{direction}", f" {ends}  {direction} "]
    else:
        typed.append(f"{text[0]}0{text[1:]}" if len(text) == 2 else text.swapcase())
    return [rng.choice(typed), *typed]


@pytest.mark.parametrize("game_name", GAMES)
def test_every_legal_move_is_written_and_read_as_the_expressions_say(game_name: str) -> None:
    written, read = grammar(game_name)
    rng = random.Random(31)
    for state in positions(game_name):
        for move in state.legal_moves():
            text = state.format_move(move)
            assert written.fullmatch(text), text
            for typed in loosely(game_name, text, rng):
                assert read.fullmatch(typed), typed
                assert state.parse_move(typed) == move, typed
        if game_name == "tripppin" and not state.is_over:
            directions = observed(state)["directions"]
            for direction in directions:
                assert read.fullmatch(direction.upper())
                assert state.parse_move(direction) in state.legal_moves()
            assert len(directions) == len(state.legal_moves())


NOT_MOVES = {
    "flank": ["", "d", "3d", "d-3", "d3 e", "dd3", "d123", "pass", "d 3", "ä3", "d٣"],
    "tripppin": ["", "north", "nne", "en", "e7 n", "7e", "e-7", "pass", "x", "nn"],
    "oubliette": ["", "c3", "c3 n", "c3 s", "c3-c5", "c3-c5 nee", "c3--c5 e", "c3 c5 e", "e"],
}


@pytest.mark.parametrize("game_name", GAMES)
def test_what_the_read_expression_refuses_the_server_refuses(game_name: str) -> None:
    written, read = grammar(game_name)
    state = get_game(game_name).new(seed=3)
    refused = NOT_MOVES["flank" if game_name in FLANK else game_name]
    rng = random.Random(game_name)
    alphabet = "abcdeinswABEINSW0123456789- \t"
    typed = ["".join(rng.choices(alphabet, k=rng.randint(1, 9))) for _ in range(5000)]
    read_any = False
    for text in refused + typed:
        try:
            move = state.parse_move(text)
        except MalformedMoveError:
            continue
        read_any = True
        assert read.fullmatch(text), text
        assert written.fullmatch(state.format_move(move)), text
    for text in refused:
        assert not read.fullmatch(text) and not written.fullmatch(text), text
    assert read_any


def test_read_texts_that_name_no_square_or_line_on_the_board_are_not_moves() -> None:
    cases = {
        "othello": ["i1", "a9", "z26", "a0"],
        "tripppin": ["i1", "a9", "s", "se"],
        "oubliette": ["a9 e", "j1 e", "a1-b3 e", "a1-e9 e"],
    }
    for game_name, texts in cases.items():
        _, read = grammar(game_name)
        state = get_game(game_name).new(seed=3)
        for text in texts:
            assert read.fullmatch(text), text
            with pytest.raises(MalformedMoveError):
                state.parse_move(text)
