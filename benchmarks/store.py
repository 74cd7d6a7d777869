"""What keeping rooms in SQLite costs the server: a room written after every move.

Run: `python benchmarks/store.py` (after `pip install -e .`). Plays Tribolo games with the
first legal move, writing the room's record after each move as the server does (WAL,
synchronous=NORMAL, a file in a temporary directory; the move in the room's history, whose
last 200 entries each record carries), and prints the time a write takes and what share
of one core it would take at a given rate of moves.
"""

import argparse
import platform
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from parlour.rules import GAMES
from parlour.server.history import MOVE
from parlour.server.records import record_text
from parlour.server.room import Room, Seat, Status
from parlour.server.store import FILE_NAME, Store


def room_of(game_name: str, board: int) -> Room:
    """A started room with a person and bots."""
    game = GAMES[game_name]
    options = game.resolve_options({})
    initial = game.new(options, seed=board)
    seats = [Seat(colour) for colour in game.seats]
    seats[0].seat_human("ann", "t" * 22, 1)
    for seat in seats[1:]:
        seat.seat_bot("easy")
    return Room(
        id=f"room{board}",
        code=None,
        game=game,
        options=options,
        board=board,
        public=True,
        host_name="ann",
        host_token="h" * 22,
        host_conn=1,
        standin_after=60,
        bot_think_ms=1000,
        initial=initial,
        seats=seats,
        status=Status.PLAYING,
        state=initial,
    )


def write_times(store: Store, game: str, games: int) -> list[float]:
    """Seconds each write took, over whole games."""
    spent = []
    for board in range(games):
        room = room_of(game, board)
        state: Any = room.state
        while not state.is_over:
            move = state.legal_moves()[0]
            seat = room.seats[state.to_move]
            room.moves.append(state.format_move(move))
            state = room.state = state.play(move)
            room.version += 1
            began = time.perf_counter()
            room.history.add(
                MOVE,
                time.time(),
                seat=seat.colour,
                move=room.moves[-1],
                version=room.version,
                passed=[room.seats[index].colour for index in state.passed],
                name=seat.name,
                level=seat.level,
            )
            store.save([record_text(room)])
            spent.append(time.perf_counter() - began)
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="tribolo", choices=sorted(GAMES))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rate", type=float, default=150.0, help="moves a second to cost")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / FILE_NAME)
        spent = write_times(store, args.game, args.games)
        store.close()
    spent.sort()
    mean = statistics.fmean(spent)
    p99 = spent[int(len(spent) * 0.99)]
    print(
        f"python {platform.python_version()}; {args.game}, {args.games} games, {len(spent)} writes"
    )
    print(f"a room written after each move: mean {mean * 1e6:.0f} us, p99 {p99 * 1e6:.0f} us")
    print(f"at {args.rate:g} moves a second: {mean * args.rate:.1%} of one core")


if __name__ == "__main__":
    main()
