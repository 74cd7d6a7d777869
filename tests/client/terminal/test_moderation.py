"""Keeping a table civil in the terminal (protocol.md 2.14), against a real server on port 0:
a watcher is told they watch and their chat is kept apart, shown to a player only once they
ask; People asks whom and then what, with "Nothing" in focus, to mute, block, report, send
a watcher out or open a seat, each lasting step asked first with the safe answer in focus;
a watcher sent out is told so in the lobby; and the one who stayed claims a game (2.7).
Then the words, from views and entries made here."""

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from textual.css.query import NoMatches
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, RichLog, Static

from parlour.client.connection import BarredError, Connection, RefusedError
from parlour.client.terminal.app import WATCHERS_HEADING, WATCHING_WORDS, ParlourApp
from parlour.client.terminal.conduct import (
    Person,
    Present,
    Standing,
    clean_reason,
    people_in,
    refused_words,
)
from parlour.client.terminal.dialogs import (
    ConfirmScreen,
    PeopleScreen,
    PersonScreen,
    ReportScreen,
)
from parlour.client.terminal.history import history_lines
from parlour.client.terminal.lobby import LobbyScreen
from parlour.client.terminal.room import RoomModel
from parlour.client.terminal.widgets import SeatsPanel
from parlour.protocol import messages as m
from parlour.protocol.players import new_key, player_id
from parlour.server import ServerConfig, operators, running_server
from parlour.server.serve import addresses
from parlour.terminal import SetupError, connected

from .test_app import (
    SCREEN,
    command,
    room_view,
    screen_of,
    status_text,
    type_fast,
    type_line,
    until,
)
from .test_endings import asked, focused_button, log_text, question

ZED = new_key()


@pytest.fixture
async def zed(url: str) -> AsyncIterator[Connection]:
    """Zed, a player with a key, who watches."""
    opened = await Connection.open(url, "zed", key=ZED, retry_delays=(0.05,))
    yield opened
    await opened.close()


async def table(ann: Connection, bob: Connection, zed: Connection, **fields: Any) -> RoomModel:
    """A public Othello room ann hosts, ann Black and bob White, zed watching; ann's room as
    it now is, zed in its watchers."""
    made = await ann.request(m.CreateRoom(game="othello", seat="black", public=True, **fields))
    assert isinstance(made, m.Joined)
    room = RoomModel.joined(made)
    assert isinstance(await bob.request(m.Join(room=room.ref, seat="white")), m.Joined)
    assert isinstance(await zed.request(m.Spectate(room=room.ref)), m.Watching)
    room.apply(m.RoomView(room=await room_view(ann, room)))
    assert [person.name for person in room.watchers] == ["zed"]
    return room


async def say(connection: Connection, room: RoomModel, text: str) -> None:
    assert isinstance(await connection.request(m.Chat(room=room.ref, text=text)), m.Ok)


def watchers_text(app: ParlourApp) -> str:
    """The watchers' chat as shown, a line a line (none wraps on the screens used here)."""
    return "\n".join(line.text for line in screen_of(app).query_one("#watch-log", RichLog).lines)


def watchers_line(app: ParlourApp) -> str:
    return str(screen_of(app).query_one("#watchers", Static).render())


async def choose(
    pilot: Pilot[None], kind: type[PeopleScreen] | type[PersonScreen], at: int
) -> None:
    """Down to the `at`th line of the list on the screen, and Enter."""

    def listed() -> OptionList | None:
        screen = pilot.app.screen
        found = screen.query(OptionList) if isinstance(screen, kind) else None
        return found.first() if found else None

    await until(pilot, lambda: bool((shown := listed()) and shown.has_focus), f"a {kind.__name__}")
    options = listed()
    assert options is not None
    await type_fast(pilot, *["down"] * at)
    await until(pilot, lambda: options.highlighted == at, f"line {at} was chosen")
    await pilot.press("enter")


async def about(pilot: Pilot[None], whom: int, what: int, *, f1: bool = False) -> None:
    """People (from the F1 list, with `f1`; else as its action, which is quicker), the
    `whom`th person, then the `what`th choice (0: Nothing)."""
    if f1:
        await command(pilot, "People")
    else:
        app = pilot.app
        assert isinstance(app, ParlourApp)
        screen_of(app).action_people()
    await choose(pilot, PeopleScreen, whom)
    await choose(pilot, PersonScreen, what)


async def test_a_watchers_line_reaches_a_player_only_once_they_show_the_watchers_chat(
    people: tuple[Connection, Connection], zed: Connection
) -> None:
    ann, bob = people
    room = await table(ann, bob, zed)
    await say(zed, room, "before you came")
    # Ann comes back on another screen: what the watchers said is in the room's history.
    await ann.close()
    ann = await Connection.open(ann.url, "ann", key=ann.key, retry_delays=(0.05,))
    back = await ann.request(m.Join(room=room.ref, token=room.token))
    assert isinstance(back, m.Joined)
    room = RoomModel.joined(back, room.ref)
    app = ParlourApp(ann, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        assert not screen.query_one("#watch-pane").display, "hidden by default"
        await until(pilot, lambda: "A line from the watchers is hidden" in watchers_line(app), "")
        assert watchers_line(app).startswith("Watching: zed.")
        await say(zed, room, "go white, go!")
        await say(bob, room, "thanks, zed")
        await until(pilot, lambda: "bob (White): thanks, zed" in log_text(app), "bob was heard")
        assert "2 lines from the watchers are hidden: F1, Watchers." in watchers_line(app)
        assert "zed:" not in log_text(app), "the players' chat never mixes the watchers in"

        await command(pilot, "Watchers")
        await until(pilot, lambda: screen.query_one("#watch-pane").display, "it showed")
        assert watchers_text(app) == "zed: before you came\nzed: go white, go!"
        assert "hidden" not in watchers_line(app)
        await say(zed, room, "and again")
        await until(pilot, lambda: "zed: and again" in watchers_text(app), "shown as it came")
        assert "zed:" not in log_text(app)
        assert app.show_watchers, "kept for the session"

        await command(pilot, "Watchers")
        await until(pilot, lambda: not screen.query_one("#watch-pane").display, "it hid")
        await say(zed, room, "hidden again")
        await until(pilot, lambda: "A line from the watchers" in watchers_line(app), "counted")
    await ann.close()


async def test_a_watcher_is_told_so_and_says_to_the_watchers_and_enter_changes_nothing(
    people: tuple[Connection, Connection], zed: Connection
) -> None:
    ann, bob = people
    room = await table(ann, bob, zed)
    watching = await zed.request(m.Spectate(room=room.ref))
    assert isinstance(watching, m.Watching)
    app = ParlourApp(zed, RoomModel.watching(watching, room.ref))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = screen_of(app)
        assert status_text(app).startswith(WATCHING_WORDS)
        assert WATCHING_WORDS in log_text(app).replace("\n", ""), "the log says so too"
        heading = str(screen.query_one("#watch-heading").render())
        assert heading == WATCHERS_HEADING and screen.query_one("#watch-pane").display
        chat = screen.query_one("#chat", Input)
        assert chat.placeholder == "Say something to the watchers (Enter sends)"
        assert chat.region.bottom <= 22 and chat.region.height > 0, "on an 80 x 24 screen"
        assert "Watchers" not in [each.name for each in screen.commands], "always shown"
        assert watchers_line(app) == "Watching: zed (you)."

        await type_line(pilot, "Mute bob, F1 him!")
        await until(pilot, lambda: "zed: Mute bob, F1 him!" in watchers_text(app), "said")
        await say(bob, room, "hi all")
        await until(pilot, lambda: "bob (White): hi all" in log_text(app), "players' chat")
        assert "zed:" not in log_text(app) and app.screen is screen, "no command ran"

        # People: everyone but zed; Enter on each question changes nothing.
        await command(pilot, "People")
        await until(pilot, lambda: isinstance(app.screen, PeopleScreen), "whom, first")
        whom = app.screen
        assert isinstance(whom, PeopleScreen)
        assert whom.people == ["ann: plays Black", "bob: plays White"]
        await choose(pilot, PeopleScreen, 0)
        await until(pilot, lambda: isinstance(app.screen, PersonScreen), "then what")
        assert question(app) == "ann plays Black. What now?"
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen, "Nothing was done")
        assert app.standing == Standing() and status_text(app).startswith(WATCHING_WORDS)
    again = await Connection.open(zed.url, "zed", key=ZED, retry_delays=(0.05,))
    try:
        assert again.welcome is not None
        assert (again.welcome.muted, again.welcome.blocked) == ([], [])
    finally:
        await again.close()


async def test_a_watcher_sits_in_an_open_seat_from_the_commands(
    people: tuple[Connection, Connection], zed: Connection
) -> None:
    ann, _ = people
    made = await ann.request(m.CreateRoom(game="othello", seat="black", public=True))
    assert isinstance(made, m.Joined)
    ref = str(made.room["room"])
    watching = await zed.request(m.Spectate(room=ref))
    assert isinstance(watching, m.Watching)
    app = ParlourApp(zed, RoomModel.watching(watching, ref))
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        assert isinstance(await zed.request(m.Chat(room=ref, text="may I play?")), m.Ok)
        await until(pilot, lambda: "zed: may I play?" in watchers_text(app), "said watching")
        await command(pilot, "Sit in White")
        await until(pilot, lambda: screen.room.playing == ["white"], "zed sat down")
        assert "hidden" not in watchers_line(app), "what zed saw while watching stays seen"
        assert screen.room.token is not None and not screen.room.watcher
        assert "You took White." in status_text(app)
        assert screen.query_one("#chat", Input).placeholder == "Say something (Enter sends)"
        assert not screen.query_one("#watch-pane").display
        assert "Sit in White" not in [each.name for each in screen.commands]


async def test_a_mute_hides_a_persons_later_lines_and_marks_them(
    people: tuple[Connection, Connection], zed: Connection
) -> None:
    ann, bob = people
    room = await table(ann, bob, zed)
    app = ParlourApp(ann, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        await say(bob, room, "one")
        await until(pilot, lambda: "bob (White): one" in log_text(app), "bob was heard")

        await about(pilot, 0, 0, f1=True)  # bob, Nothing
        await until(pilot, lambda: app.screen is screen, "nothing was done")
        assert not app.standing.mutes(Person("bob", bob_id(bob)))

        await about(pilot, 0, 1)  # bob, Mute
        await until(
            pilot, lambda: "bob is muted: you will not see their chat." in status_text(app), ""
        )
        line = screen.query_one(SeatsPanel).line_of("white")
        assert line is not None and "bob (muted)" in line.plain
        await say(bob, room, "two")
        await type_line(pilot, "three")
        await until(pilot, lambda: "ann (Black): three" in log_text(app), "ann's own line came")
        assert "two" not in log_text(app), "bob's line after the mute never showed"

        await about(pilot, 0, 1)  # bob, Unmute
        await until(pilot, lambda: "bob is unmuted." in status_text(app), "")
        await say(bob, room, "four")
        await until(pilot, lambda: "bob (White): four" in log_text(app), "heard again")
    later = await Connection.open(ann.url, "ann", key=ann.key, retry_delays=(0.05,))
    try:
        assert later.welcome is not None and later.welcome.muted == []
    finally:
        await later.close()


def bob_id(bob: Connection) -> str:
    assert bob.key is not None
    return player_id(bob.key)


async def test_a_block_is_asked_first_and_a_blocked_player_is_told_plainly(
    url: str, people: tuple[Connection, Connection], zed: Connection
) -> None:
    ann, bob = people
    room = await table(ann, bob, zed)
    app = ParlourApp(ann, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        await about(pilot, 1, 2, f1=True)  # zed, Block
        await asked(pilot, ConfirmScreen)
        block = "Block zed? They cannot sit at your tables, and you will not see their chat."
        assert question(app) == block and focused_button(app) == "no"
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen, "nothing was done")
        assert app.standing.blocked == []

        await about(pilot, 1, 2)
        await asked(pilot, ConfirmScreen)
        await pilot.press("tab", "enter")
        blocked = "You block zed: they cannot sit at your tables, and you will not see their chat."
        await until(pilot, lambda: blocked in status_text(app), "it said what a block does")
        assert "Watching: zed (blocked)." in watchers_line(app)
    # In the lobby, zed takes the free seat of a room ann hosts: told plainly.
    free = await ann.request(m.CreateRoom(game="tribolo", seat="blue", public=True))
    assert isinstance(free, m.Joined)
    await zed.request(m.Leave(room=room.ref))
    lobby = ParlourApp(zed)
    async with lobby.run_test(size=SCREEN) as pilot:
        listed = lobby.screen
        assert isinstance(listed, LobbyScreen)
        await until(pilot, lambda: bool(listed.rooms), "the rooms were listed")
        tribolo = [each["game"] for each in listed.rooms].index("tribolo")
        for _ in range(tribolo):
            await pilot.press("down")
        await pilot.press("enter")
        told = "A person in this room has blocked you: you cannot sit at their table."
        await until(pilot, lambda: lobby_status(listed).startswith(told), "told plainly")


async def test_a_report_is_sent_with_the_reason_typed(tmp_path: Path) -> None:
    data = tmp_path / "server"
    data.mkdir()
    config = ServerConfig(host="127.0.0.1", port=0, data_dir=data, bot_workers=0)
    async with running_server(config) as server:
        url = addresses("127.0.0.1", server.port)[0]
        ann, bob, zed = [
            await Connection.open(url, name, key=key, retry_delays=(0.05,))
            for name, key in (("ann", new_key()), ("bob", new_key()), ("zed", ZED))
        ]
        try:
            room = await table(ann, bob, zed)
            await say(zed, room, "you all stink")
            app = ParlourApp(ann, room)
            async with app.run_test(size=SCREEN) as pilot:
                screen = screen_of(app)
                await about(pilot, 1, 3, f1=True)  # zed, Report
                await until(pilot, lambda: isinstance(app.screen, ReportScreen), "why, asked")
                reason = app.screen.query_one("#reason", Input)
                await until(pilot, lambda: reason.has_focus, "typed into its field")
                await pilot.press("enter")
                await pilot.pause()
                asking = app.screen
                assert isinstance(asking, ReportScreen), "nothing typed, nothing sent"
                await type_fast(pilot, *"insults the players")
                await until(pilot, lambda: reason.value == "insults the players", "typed")
                await pilot.press("enter")
                sent = "Your report of zed went to this server's operators"
                await until(pilot, lambda: sent in status_text(app), "it said it was sent")
                assert app.screen is screen
            (report,) = operators.reports(data, None, 10)
            assert (report["by_name"], report["person"]) == ("ann", player_id(ZED))
            assert report["reason"] == "insults the players"
            assert [line["text"] for line in report["chat"]] == ["you all stink"]
            # The operators bar zed: his next hello is refused for good, in their words.
            operators.bar(data, None, player_id(ZED), "insults")
            with pytest.raises(BarredError, match=r"have barred you from it: insults$"):
                await Connection.open(url, "zed", key=ZED, retry_delays=(0.05,))
            barred = r"^This server's operators have barred you from it: insults[.]$"
            with pytest.raises(SetupError, match=barred):
                async with connected(url, "zed", ZED):
                    pass
        finally:
            for connection in (ann, bob, zed):
                await connection.close()


async def test_the_host_sends_a_watcher_out_asked_first(
    people: tuple[Connection, Connection], zed: Connection
) -> None:
    ann, bob = people
    room = await table(ann, bob, zed)
    app = ParlourApp(ann, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        await about(pilot, 1, 4, f1=True)  # zed, Send out
        await asked(pilot, ConfirmScreen)
        assert question(app) == (
            "Send zed out of this room? They may not watch it or sit in it again for as long"
            " as it lasts."
        )
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen, "nothing was done")
        assert [each["name"] for each in (await room_view(ann, room))["watchers"]] == ["zed"]

        await about(pilot, 1, 4)
        await asked(pilot, ConfirmScreen)
        await pilot.press("tab", "enter")
        await until(pilot, lambda: "zed was sent out of this room" in status_text(app), "")
        await until(pilot, lambda: "zed" not in watchers_line(app), "the watchers' list")
    while not isinstance(event := await zed.events.get(), m.Removed):
        pass
    assert event.room == room.room_id
    with pytest.raises(RefusedError) as refused:
        await zed.request(m.Spectate(room=room.ref))
    said = refused_words(refused.value.code, refused.value.error.message)
    assert said == "The host sent you out of this room. You may not watch it or sit in it again."


async def test_a_watcher_sent_out_is_told_so_in_the_lobby(
    people: tuple[Connection, Connection], zed: Connection
) -> None:
    ann, bob = people
    room = await table(ann, bob, zed)
    watching = await zed.request(m.Spectate(room=room.ref))
    assert isinstance(watching, m.Watching)
    app = ParlourApp(zed, RoomModel.watching(watching, room.ref))
    async with app.run_test(size=SCREEN) as pilot:
        await command(pilot, "People")  # a question open as the host sends zed out
        await until(pilot, lambda: isinstance(app.screen, PeopleScreen), "whom")
        assert isinstance(await ann.request(m.RemoveWatcher(room=room.ref, name="zed")), m.Ok)
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "back in the lobby")
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen) and app.room_screen is None
        await until(pilot, lambda: "public room" in lobby_status(lobby), "the list came")
        assert lobby_status(lobby).startswith("The host sent you out of this room.\n")


def lobby_status(lobby: LobbyScreen) -> str:
    """The lobby's status line, once it is up."""
    try:
        return str(lobby.query_one("#status", Static).render())
    except NoMatches:
        return ""


async def test_the_host_opens_a_persons_seat_before_the_start_asked_first(
    people: tuple[Connection, Connection], zed: Connection
) -> None:
    ann, bob = people
    room = await table(ann, bob, zed)
    app = ParlourApp(ann, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        panel = screen.query_one(SeatsPanel)
        await until(pilot, lambda: bool(panel.shown), "the seats were drawn")
        panel.post_message(SeatsPanel.SeatClicked("white"))  # bob's seat, picked
        await until(pilot, lambda: isinstance(app.screen, PersonScreen), "what about bob")
        assert question(app) == "bob plays White. What now?"
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "closed")

        await about(pilot, 0, 4, f1=True)  # bob, Open White
        await asked(pilot, ConfirmScreen)
        assert question(app) == (
            "Open White, bob's seat, for someone else to take? bob watches from then on,"
            " and may sit again."
        )
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen, "nothing was done")
        assert (await room_view(ann, room))["seats"][1]["holder"]["kind"] == "human"

        await about(pilot, 0, 4)
        await asked(pilot, ConfirmScreen)
        await pilot.press("tab", "enter")
        await until(pilot, lambda: screen.room.holder("white")["kind"] == "open", "opened")
        assert "ann opened White for someone to take." in log_text(app)
    while not isinstance(event := await bob.events.get(), m.SeatChanged):
        pass
    assert event == m.SeatChanged(room=room.room_id, seat="white")


async def test_the_one_who_stayed_claims_the_game_asked_first(
    people: tuple[Connection, Connection],
) -> None:
    ann, bob = people
    made = await ann.request(m.CreateRoom(game="othello", seat="black", standin_after=1))
    assert isinstance(made, m.Joined)
    room = RoomModel.joined(made)
    assert isinstance(await bob.request(m.Join(room=room.ref, seat="white")), m.Joined)
    assert isinstance(await ann.request(m.Start(room=room.ref)), m.Ok)
    for mover in (ann, bob):
        view = await room_view(mover, room)
        legal = view["state"]["legal_moves"][0]
        assert isinstance(
            await mover.request(m.Move(room=room.ref, version=view["version"], move=legal)), m.Ok
        )
    room.apply(m.RoomView(room=await room_view(ann, room)))
    app = ParlourApp(ann, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        assert "Claim" not in [each.name for each in screen.commands], "bob is here"
        await bob.close()
        told = "bob is away and the computer stands in: you may claim the game (F1, Claim)."
        await until(pilot, lambda: told in log_text(app), "told it may be claimed")
        await command(pilot, "Claim")
        await asked(pilot, ConfirmScreen)
        assert question(app) == "Claim the game? bob is away; you win and the game counts."
        assert focused_button(app) == "no"
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen, "nothing was done")
        assert (await room_view(ann, room))["status"] == "playing"

        await command(pilot, "Claim")
        await asked(pilot, ConfirmScreen)
        await pilot.press("tab", "enter")
        await until(pilot, lambda: screen.room.status == "finished", "the game ended")
        result = "You claimed the game while bob (White) was away: you win!"
        await until(pilot, lambda: result in status_text(app), "the result line said so")
        assert result in log_text(app)
    ended = await room_view(ann, room)
    assert (ended["ended"], ended["winners"], ended["absent"]) == ("claimed", ["black"], ["white"])


def seat(colour: str, kind: str = "human", name: str | None = None, **more: Any) -> Any:
    holder = {"kind": kind, **({"name": name} if name else {}), **more}
    return {"colour": colour, "holder": holder}


def view_of(**fields: Any) -> dict[str, Any]:
    view: dict[str, Any] = {
        "room": "r1",
        "game": "tribolo",
        "status": "playing",
        "version": 9,
        "seats": [
            seat("blue", name="Ann", player="p-ann"),
            seat("red", "standin", "Bob", player="p-bob", level="easy"),
            seat("green", "standin", "Cy", level="easy"),
        ],
        "yours": ["blue"],
        "watchers": [],
        "rated": True,
        "state": {"to_move": "blue", "scores": {"blue": 3, "red": 2, "green": 1}},
    }
    return view | fields


def test_a_claim_reads_for_each_side_and_the_history_says_so() -> None:
    asked_room = RoomModel(view_of(), "r1", seat="blue")
    assert asked_room.may_claim
    assert asked_room.claim_question() == (
        "Claim the game? Bob and Cy are away; you win and the game counts."
    )
    early = RoomModel(view_of(abortable=True), "r1", seat="blue")
    assert early.claim_question().endswith("the game is aborted instead, and counts for nobody.")
    friendly = RoomModel(view_of(rated=False, unrated="a guest plays"), "r1", seat="blue")
    assert friendly.claim_question().endswith(
        "you win. The game counts for no rating: a guest plays."
    )
    here = view_of()
    here["seats"][2] = seat("green", name="Cy", connected=True)
    assert not RoomModel(here, "r1", seat="blue").may_claim, "Cy plays on"
    handed = view_of()
    handed["seats"][1] = seat("red", "bot", "Bob", level="easy")
    assert not RoomModel(handed, "r1", seat="blue").may_claim, "Bob's own choice: a bot"

    over = {"status": "finished", "ended": "claimed", "winners": ["blue"]}
    claimed = view_of(**over, absent=["red", "green"])
    claimed["yours"] = ["red"]
    bob = RoomModel(claimed, "r1", seat="red")
    assert (
        bob.result() == "Ann (Blue) claimed the game while you and Cy (Green) were away, and wins."
    )
    watcher = RoomModel(view_of(**over, absent=["red", "green"], yours=[]), "r1")
    assert watcher.result() == (
        "Ann (Blue) claimed the game while Bob (Red) and Cy (Green) were away, and wins."
    )
    entries = [{"kind": "claimed", "n": 1, "at": 0, "seat": "blue", "name": "Ann"}]
    assert history_lines(entries) == ["Ann (Blue) claimed the game while the others were away."]


def test_the_people_of_a_room_are_each_once_never_this_screens() -> None:
    view = view_of(
        watchers=[{"name": "Zed", "player": "p-zed"}, {"name": "ann"}, {"name": "Guest"}]
    )
    view["seats"].append(seat("grey", "bot", "Bob", player="p-bob", level="easy"))
    heard = [Person("Cy"), Person("Dee"), Person("Zed")]
    found = people_in(view, heard, [Person("Ann", "p-ann")])
    assert found == [
        Present(Person("Bob", "p-bob"), ("red", "grey")),
        Present(Person("Cy"), ("green",)),
        Present(Person("Zed", "p-zed"), watching=True),
        Present(Person("Guest"), watching=True),
        Present(Person("Dee")),
    ]
    standing = Standing(muted=[Person("zed", "p-zed")], blocked=[Person("DEE")])
    assert [each.line(standing) for each in found] == [
        "Bob: plays Red and Grey",
        "Cy: plays Green",
        "Zed: watching (muted)",
        "Guest: watching",
        "Dee: spoke here (blocked)",
    ]
    assert found[4].where() == "Dee spoke in this room."
    standing.change("mute", Person("Zed", "p-zed"), on=False)
    standing.change("block", Person("Bob", "p-bob"), on=True)
    assert standing.muted == [] and standing.hides(Person("bob", "p-bob"))
    assert standing.hides(Person("Bob")), "a history entry names them by name alone"


def test_the_history_keeps_the_watchers_chat_and_the_muted_apart() -> None:
    chat = [
        {
            "kind": "chat",
            "n": 1,
            "at": 0,
            "name": "Zed",
            "seat": None,
            "text": "hi",
            "watching": True,
        },
        {"kind": "chat", "n": 2, "at": 0, "name": "Bob", "seat": "red", "text": "gl"},
        {"kind": "chat", "n": 3, "at": 0, "name": "Cy", "seat": "green", "text": "meh"},
    ]
    room = RoomModel(view_of(), "r1", standing=Standing(muted=[Person("cy", "p-cy")]))
    room.read_history(chat)
    assert history_lines(room.players_history()) == ["Bob (Red): gl"]
    assert room.watchers_lines() == ["Zed: hi"]
    assert [person.name for person in room.heard] == ["Zed", "Bob", "Cy"]


def test_refusals_about_who_may_be_in_a_room_read_as_sentences() -> None:
    assert refused_words("barred", "this server's operators have barred you from it: spam") == (
        "This server's operators have barred you from it: spam."
    )
    assert refused_words("blocked", "a person in this room has blocked you") == (
        "A person in this room has blocked you: you cannot sit at their table."
    )
    assert refused_words("room_full", "no open seat") is None
    assert clean_reason("  rude\tin  chat\u202e ") == "rude in chat"
    assert len(clean_reason("x" * 600)) == 500


def test_a_seat_the_host_opened_is_told_as_such() -> None:
    room = RoomModel(view_of(status="waiting", yours=["red"]), "r1", seat="red")
    room.apply(m.SeatChanged(room="r1", seat="red"))
    room.apply(m.SeatSet(room="r1", seat="red", holder={"kind": "open"}, by="Ann"))
    assert room.news == "Ann opened your seat (Red): you are watching now, and may sit again."
