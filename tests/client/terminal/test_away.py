"""People away from a game on a clock, in the terminal's room against a real server: a seat
whose player is on vacation reads so, till when, its clock standing still (protocol.md
2.12); the seat of a person who left is offered to the computer, only then, and a refusal
is said as others are (2.7 `hand_over`)."""

import time
from typing import Any

from textual.widgets import RichLog, Static

from parlour.client.connection import Connection
from parlour.client.terminal.app import ParlourApp
from parlour.client.terminal.clocks import date_words
from parlour.client.terminal.dialogs import ConfirmScreen
from parlour.client.terminal.room import RoomModel
from parlour.client.terminal.widgets import SeatsPanel
from parlour.protocol import messages as m

from .test_app import SCREEN, click_square, command, screen_of, until
from .test_clock_screen import clocked_game, seat_line
from .test_clocks import Local

DAYS_2: dict[str, Any] = {"kind": "days", "days": 2, "bank_days": 0}
HAND_OVER = "Let the computer play White"


async def test_a_seat_on_vacation_says_till_when_and_its_clock_stands_still(
    people: tuple[Connection, Connection],
) -> None:
    ann, bob = people
    local = Local()
    room = await clocked_game(ann, bob, local, control=DAYS_2)
    app = ParlourApp(ann, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: bool(screen.query_one(SeatsPanel).shown), "seats drawn")
        taken = await bob.request(m.TakeVacation(days=3))
        assert isinstance(taken, m.VacationReply) and taken.until is not None

        def held() -> int | None:
            clocks = screen.room.clocks
            return None if clocks is None else clocks.held_until.get("white")

        await until(pilot, lambda: held() is not None, "the room was shown anew")
        held_ms = held()
        assert held_ms is not None and abs(held_ms / 1000 - taken.until) < 1
        words = f"on vacation until {date_words(held_ms / 1000, since_s=time.time())}"
        await until(pilot, lambda: words in seat_line(app, "white").plain, "white said so")
        assert f"{words}  White: bob" in seat_line(app, "white").plain
        assert "on vacation" not in seat_line(app, "black").plain

        # Ann moves: White's turn, but its time stands still.
        legal = screen.room.observation["legal_moves"]  # type: ignore[index]
        await click_square(pilot, app, legal[0])
        await until(pilot, lambda: screen.room.version == 1, "the update came")
        clocks = screen.room.clocks
        assert clocks is not None and clocks.running is None
        await until(pilot, lambda: words in seat_line(app, "white").plain, "still on vacation")
        shown = seat_line(app, "black").plain
        local.now += 3 * 3600
        await pilot.pause(0.2)
        assert seat_line(app, "black").plain == shown and words in seat_line(app, "white").plain
        assert clocks.next_change(local.now) is None, "nothing to draw again"

        # Bob comes back early: his clock runs again, a figure.
        assert isinstance(await bob.request(m.TakeVacation(days=0)), m.VacationReply)
        await until(pilot, lambda: held() is None, "the room was shown anew")
        running = screen.room.clocks
        assert running is not None and running.running == "white"
        await until(pilot, lambda: "on vacation" not in seat_line(app, "white").plain, "")
        assert seat_line(app, "white").plain.split()[1] in ("2d", "1d")


def commands_offered(app: ParlourApp) -> list[str]:
    return [each.name for each in screen_of(app).commands]


async def test_the_computer_is_offered_the_seat_of_a_person_away_only_then(
    url: str, people: tuple[Connection, Connection]
) -> None:
    ann, bob = people
    # On the real clock: a `Local` held still at the start shows a figure's last
    # millisecond, and the seats are drawn again a hundred times a second, every key slow.
    room = await clocked_game(ann, bob, time.monotonic, control=DAYS_2)
    app = ParlourApp(ann, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: bool(screen.query_one(SeatsPanel).shown), "seats drawn")
        assert HAND_OVER not in commands_offered(app), "Bob is here"
        await bob.close()
        await until(
            pilot, lambda: screen.room.holder("white").get("connected") is False, "Bob left"
        )
        assert HAND_OVER in commands_offered(app)

        # Asked while Bob comes back: the server refuses, and says so in words.
        await command(pilot, HAND_OVER)
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "it asked first")
        words = str(app.screen.query_one("#words", Static).render())
        assert words.startswith("Let the computer play White while its player is away?")
        assert "The game stays rated" in words
        back = await Connection.open(url, "bob", key=bob.key, retry_delays=(0.05,))
        try:
            assert isinstance(await back.request(m.Join(room=room.ref, seat="white")), m.Joined)
            await until(
                pilot, lambda: screen.room.holder("white").get("connected") is True, "Bob is back"
            )
            await pilot.press("tab", "enter")
            status = screen.query_one("#status", Static)
            refused = "White's player is not away now: nothing was handed over."
            await until(pilot, lambda: str(status.render()).startswith(refused), "it said so")
            assert HAND_OVER not in commands_offered(app)
        finally:
            await back.close()

        # Bob gone again: asked, and with nobody else to ask, the computer plays at once.
        await until(
            pilot, lambda: screen.room.holder("white").get("connected") is False, "Bob left"
        )
        await command(pilot, HAND_OVER)
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "it asked first")
        await pilot.press("tab", "enter")
        await until(pilot, lambda: screen.room.holder("white").get("kind") == "standin", "")
        log = "\n".join(line.text for line in screen.query_one("#log", RichLog).lines)
        assert "plays White until bob is back" in log
        assert HAND_OVER not in commands_offered(app)
        assert screen.room.view["rated"], "a stand-in leaves the game rated"


async def test_no_hand_over_is_offered_without_a_clock_or_before_the_start(
    people: tuple[Connection, Connection],
) -> None:
    ann, bob = people
    waiting = await ann.request(m.CreateRoom(game="othello", seat="black", time_control=DAYS_2))
    unclocked = await ann.request(m.CreateRoom(game="othello", seat="black"))
    assert isinstance(waiting, m.Joined) and isinstance(unclocked, m.Joined)
    for made in (waiting, unclocked):
        await bob.request(m.Join(room=str(made.room["room"]), seat="white"))
    await ann.request(m.Start(room=str(unclocked.room["room"])))
    await bob.close()
    for made, status in ((waiting, "waiting"), (unclocked, "playing")):
        view = await ann.request(m.GetRoom(room=str(made.room["room"])))
        assert isinstance(view, m.RoomView)
        room = RoomModel(view.room, str(view.room["room"]))
        assert room.status == status and room.playing == ["black"]
        assert room.holder("white")["kind"] == "human", "Bob's seat stays his"
        assert room.holder("white")["connected"] is False, "Bob is away"
        assert room.away_seats() == []
