"""The player's own screen on the page (protocol.md 2.12, 2.13) and the last parts of clocks:
an address given, confirmed by the code that arrives at a real SMTP server in this process,
digests' hours set, the address removed; a vacation taken, after saying till when the
clocks stop, and ended; every field typed into carelessly, with what the person sees said in
words and nothing the server would refuse sent. In a room, a seat on vacation reads so by its
clock, a person away may be handed to the computer, and the leaderboard switches between
the ratings of untimed, live and days games. The server runs in a thread of this process,
its wall clock the test's, so a vacation's end is known to the second."""

import datetime
import json
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext

from parlour.protocol.players import new_key, player_id
from parlour.server import ServerConfig
from tests.mailbox import Mailbox

from .test_page import Player
from .test_players_page import Talk, connected, module, request
from .threaded import Wall, serve_in_thread

START = 1_800_000_000.0
"""The server's wall clock, and the pages' at their start, in Unix seconds (a Friday in
January 2027)."""
MAIL_SECONDS = 10
DAY_S = 24 * 60 * 60
SENDER = "Parlour <games@example.org>"
CODE = re.compile(r"your code (\d{6})")
WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


@dataclass
class Served:
    url: str
    wall: Wall
    mailbox: Mailbox


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A server that mails through a real SMTP server in this process."""
    mailbox = Mailbox()
    mailbox.start()
    wall = Wall(START)
    config = ServerConfig(
        host="127.0.0.1",
        port=0,
        data_dir=tmp_path_factory.mktemp("data"),
        bot_workers=0,
        bot_pause=0,
        smtp=mailbox.url,
        mail_from=SENDER,
    )
    try:
        for url in serve_in_thread(config, wall):
            yield Served(url, wall, mailbox)
    finally:
        mailbox.stop()


@pytest.fixture
def person(browser: Browser, served: Served) -> Iterator[Callable[..., tuple[Player, Talk]]]:
    """Open the lobby as `name` with `key` kept (a browser of their own in UTC, its clock
    started at the server's), with what its page says on the wire."""
    contexts: list[BrowserContext] = []
    players: list[Player] = []

    def open_as(name: str, key: str | None = None, url: str | None = None) -> tuple[Player, Talk]:
        context = browser.new_context(viewport={"width": 1100, "height": 900}, timezone_id="UTC")
        contexts.append(context)
        kept = {"parlour.name": json.dumps(name)}
        if key is not None:
            kept["parlour.key"] = json.dumps(key)
        context.add_init_script(
            f"for (const [k, v] of Object.entries({json.dumps(kept)})) localStorage.setItem(k, v);"
        )
        player = Player(context.new_page())
        players.append(player)
        talk = Talk(player.page)
        player.page.clock.install(time=datetime.datetime.fromtimestamp(START, datetime.UTC))
        player.page.goto(url or f"{served.url}/")
        connected(player.page)
        return player, talk

    yield open_as
    for player in players:
        assert player.errors == []
    for context in contexts:
        context.close()


def date_text(seconds: float, *, year: bool = True) -> str:
    """A moment as the page writes it in UTC: `Mon 25 Jan 2027, 08:00`."""
    at = datetime.datetime.fromtimestamp(seconds, datetime.UTC)
    day = f"{WEEKDAYS[at.weekday()]} {at.day} {MONTHS[at.month - 1]}"
    return f"{day}{f' {at.year}' if year else ''}, {at:%H:%M}"


def sent(talk: Talk, kind: str) -> list[dict[str, Any]]:
    return [message for message in talk.sent if message.get("type") == kind]


def says(player: Player, selector: str, words: str) -> None:
    """Wait till the element at `selector` says `words` (among others)."""
    player.page.wait_for_function(
        "([selector, words]) => document.querySelector(selector)?.textContent.includes(words)",
        arg=[selector, words],
    )


def type_in(
    player: Player, field: str, text: str, *, enter: bool = False, press: str = ""
) -> None:
    """Type `text` into the field `field` as a person would (what was there first goes), then
    press Enter or click `press`. What the page said was wrong with the field before goes as
    it is typed into, so each message waited for is the answer to this text."""
    player.page.fill(field, text)
    problem = player.page.evaluate(
        "(field) => document.querySelector(field).closest('.account-field, .account-part')"
        ".querySelector('.error').textContent",
        field,
    )
    assert problem == "", problem
    if enter:
        player.page.press(field, "Enter")
    else:
        player.page.click(press)


def codes_mailed(served: Served, address: str) -> list[str]:
    return [
        found[1]
        for mail in served.mailbox.mails()
        if mail["To"] == address and (found := CODE.search(str(mail["Subject"])))
    ]


def open_account(player: Player) -> None:
    player.page.click("#account")
    player.page.wait_for_selector("#account-page")


def test_an_address_is_given_confirmed_by_its_code_and_removed_whatever_is_typed(
    person: Callable[..., tuple[Player, Talk]], served: Served, output_dir: Path
) -> None:
    key = new_key()
    ann, talk = person("Ann", key)
    page = ann.page
    open_account(ann)
    assert page.url.endswith("/#account")
    assert page.title() == "Your account · Parlour"
    assert page.inner_text("#account-name") == "Ann"
    assert page.inner_text("#account-player-id") == player_id(key)
    says(ann, "#email-status", "No address: the server mails you nothing.")
    assert page.is_hidden("#email-code-row") and page.is_hidden("#digest-hours-row")

    # What is plainly no address is said so, and nothing goes to the server.
    for typed, words in [
        ("please send me a code", "it needs an “@”, as ann@example.org"),
        ("ann at example dot org", "with “@” and “.” rather than in words"),
        ("", "Type your email address first"),
        ("ann@example", "After the “@” comes the mail service's domain: letters, digits"),
        ("ann@-example.org", "letters, digits and dashes between dots, as ann@example.org"),
        ("ann;bob@example.org", "The part before the “@” has none of < > ( ) [ ] \\ , ; :"),
        ("ann..b@example.org", "nor has two in a row"),
        ("ann @example.org", "no spaces"),
        ("ann@exämple.org", "plain ASCII"),
    ]:
        type_in(ann, "#email-address", typed, enter=True)
        says(ann, "#email-problem", words)
    assert sent(talk, "set_email") == []
    page.locator("#account-page").screenshot(path=str(output_dir / "account-address-refused.png"))
    # What the server refuses that the page let through is said in words too.
    refused = module(
        ann,
        "email.js",
        "mod.refusalText({code: 'bad_field', message: arg, detail: {field: 'address'}})",
        "'address' must be an email address, as ann@example.org",
    )
    assert (
        refused
        == "The server does not take that as an email address: write it as ann@example.org."
    )

    # An address: a code is mailed to it, and the page asks for it.
    type_in(ann, "#email-address", "  Ann@Example.ORG ", press="#email-send")
    says(ann, "#email-said", "A code is on its way to Ann@example.org: it works for an hour.")
    assert page.inner_text("#email-problem") == ""
    (asked,) = sent(talk, "set_email")
    assert asked["address"] == "Ann@Example.ORG" and "digest_hours" not in asked
    says(ann, "#email-status", "Ann@example.org is not confirmed yet")
    assert page.is_visible("#email-code-row")
    assert "The 6-digit code mailed to Ann@example.org" in page.inner_text("#email-code-row")
    assert page.evaluate("() => document.activeElement.id") == "email-code"
    code = wait_for_code(served, "Ann@example.org")

    # Codes typed carelessly: said so, never sent; a wrong one is the server's to say.
    for typed, words in [
        ("please send me a code", "The code is 6 digits, as 042 917"),
        ("", "Type the 6-digit code from the mail first."),
        ("12345", "that is 5 digits"),
        ("1234567", "that is 7 digits"),
    ]:
        type_in(ann, "#email-code", typed, enter=True)
        says(ann, "#code-problem", words)
    assert sent(talk, "verify_email") == []
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    type_in(ann, "#email-code", wrong, press="#email-verify")
    says(ann, "#code-problem", "That is not the code mailed to you: 4 tries left.")
    assert page.is_visible("#email-code-row"), "the screen stays, to try again"
    page.locator("#account-page").screenshot(path=str(output_dir / "account-code-wrong.png"))
    for left in ("3 tries", "2 tries", "1 try"):
        type_in(ann, "#email-code", wrong, enter=True)
        says(ann, "#code-problem", f"That is not the code mailed to you: {left} left.")
    type_in(ann, "#email-code", wrong, enter=True)
    says(ann, "#code-problem", "That is not the code, again: it no longer works. Send a new code")
    type_in(ann, "#email-code", code, enter=True)
    says(ann, "#code-problem", "No code is waiting to be typed")
    page.click("#email-resend")
    says(ann, "#email-said", "A new code is on its way to Ann@example.org")
    code = wait_for_code(served, "Ann@example.org", count=2)
    # Pasted as the mail may be read out: dashes and spaces do not matter.
    type_in(ann, "#email-code", f" {code[:3]}-{code[3:]} ", enter=True)
    says(ann, "#email-said", "Confirmed: mail about your games goes to Ann@example.org.")
    assert sent(talk, "verify_email")[-1]["code"] == code
    says(ann, "#email-status", "Mail goes to Ann@example.org: confirmed.")
    assert page.is_hidden("#email-code-row") and page.is_visible("#digest-hours-row")
    assert page.input_value("#digest-hours") == "24"

    # The hours between digests.
    before = len(sent(talk, "set_email"))
    for typed, words in [
        ("12 hours please", "Write the hours as a number, as 12."),
        ("", "Type how many hours, 1 to 168."),
        ("0", "From 1 to 168 hours (a week)."),
        ("200", "From 1 to 168 hours (a week)."),
        ("-2", "Write the hours as a number"),
    ]:
        type_in(ann, "#digest-hours", typed, enter=True)
        says(ann, "#digest-problem", words)
    assert len(sent(talk, "set_email")) == before
    type_in(ann, "#digest-hours", "12 hours", press="#digest-save")
    says(ann, "#email-said", "A digest comes at most every 12 hours.")
    assert request(ann, {"type": "get_email"}) | {"id": 0} == {
        "type": "email",
        "id": 0,
        "address": "Ann@example.org",
        "verified": True,
        "digest_hours": 12,
    }
    assert len(codes_mailed(served, "Ann@example.org")) == 2, "a confirmed address gets no code"
    page.locator("#account-page").screenshot(path=str(output_dir / "account-email.png"))

    # Another address, the third code within the hour, then a fourth asked for: the minutes
    # to wait, in words by the field, and the screen goes on.
    type_in(ann, "#email-address", "ann@example.net", enter=True)
    says(ann, "#email-said", "A code is on its way to ann@example.net")
    page.click("#email-resend")
    says(ann, "#code-problem", "Enough codes went out this hour: ask for another in 60 minutes.")
    assert len(sent(talk, "set_email")) == before + 3, "a refusal with a wait is not sent again"
    says(ann, "#email-status", "ann@example.net is not confirmed yet")
    code = wait_for_code(served, "ann@example.net")
    type_in(ann, "#email-code", code, enter=True)
    says(ann, "#email-status", "Mail goes to ann@example.net: confirmed.")

    # Removed: no address, nothing more mailed.
    page.click("#email-remove")
    says(ann, "#email-said", "Address removed: the server mails you nothing more.")
    says(ann, "#email-status", "No address: the server mails you nothing.")
    assert sent(talk, "set_email")[-1]["address"] is None
    assert request(ann, {"type": "get_email"}).get("address") is None


def wait_for_code(served: Served, address: str, count: int = 1) -> str:
    """The last code mailed to `address`, once `count` have come."""
    deadline = time.monotonic() + MAIL_SECONDS
    while time.monotonic() < deadline:
        codes = codes_mailed(served, address)
        if len(codes) >= count:
            return codes[-1]
        time.sleep(0.02)
    pytest.fail(f"no code came to {address}")


def days_room(host: Player, seat: str = "black", *, against: str | None = "easy") -> str:
    """A private Othello room of 3 days a move, `host` at `seat` (the page keeping its token
    as the lobby would), the other seat a computer at `against` (or open), started where the
    computer plays; the host's page shows it. Its code."""
    made = request(
        host,
        {
            "type": "create_room",
            "game": "othello",
            "seat": seat,
            "public": False,
            "time_control": {"kind": "days", "days": 3, "bank_days": 0},
        },
    )
    code: str = made["code"]
    keep_token(host, code, made["token"])
    if against is not None:
        other = "white" if seat == "black" else "black"
        request(
            host,
            {"type": "set_seat", "room": code, "seat": other, "holder": "bot", "level": against},
        )
        request(host, {"type": "start", "room": code})
    go_to_room(host, code)
    return code


def keep_token(player: Player, ref: str, token: str) -> None:
    module(player, "storage.js", "mod.storeSeat(arg[0], { token: arg[1] })", [ref, token])


def go_to_room(player: Player, ref: str) -> None:
    player.page.evaluate("(ref) => window.parlour.navigate(`/r/${ref}`)", ref)
    player.wait("room.view !== null && room.playing().length > 0")


def clock_of(player: Player, colour: str) -> dict[str, Any]:
    shown: dict[str, Any] = player.page.evaluate(
        """(colour) => {
            const node = document.querySelector(`#seats .clock[data-colour="${colour}"]`);
            return { text: node.textContent, hidden: node.hidden, title: node.title,
                     running: node.classList.contains("running"),
                     vacation: node.classList.contains("vacation") };
        }""",
        colour,
    )
    return shown


def test_a_vacation_is_taken_after_saying_till_when_and_the_room_reads_it_by_the_clock(
    person: Callable[..., tuple[Player, Talk]], served: Served, output_dir: Path
) -> None:
    bea, talk = person("Bea", new_key())
    page = bea.page
    code = days_room(bea)
    assert bea.view["clock"]["running"] == "black", "Bea's clock runs: black moves first"
    open_account(bea)
    says(bea, "#vacation-status", "Not on vacation.")
    says(bea, "#vacation-left", "30 days of vacation left this year.")
    assert page.is_hidden("#vacation-end")

    for typed, words in [
        ("ten days", "Write the days as a number, as 10."),
        ("", "Type how many days you will be away, 1 to 30."),
        ("31", "At most 30 days: that is all a year has."),
        ("-2", "Days away cannot be fewer than none: type 1 to 30."),
        ("0", "A vacation of no days is none: type 1 to 30."),
    ]:
        type_in(bea, "#vacation-days", typed, enter=True)
        says(bea, "#vacation-problem", words)
        assert page.locator("#vacation-dialog").count() == 0
    assert sent(talk, "vacation") == []

    # Asked first, saying till when the clocks stop; Cancel sends nothing.
    until = START + 10 * DAY_S
    type_in(bea, "#vacation-days", "10 days", enter=True)
    dialog = page.locator("#vacation-dialog")
    dialog.wait_for()
    assert "Take 10 days of vacation?" in dialog.inner_text()
    assert f"stop till {date_text(until)}" in dialog.inner_text()
    dialog.screenshot(path=str(output_dir / "account-vacation-asked.png"))
    page.click("#vacation-dialog button[value=cancel]")
    dialog.wait_for(state="detached")
    assert sent(talk, "vacation") == []
    assert page.inner_text("#vacation-problem") == ""
    page.click("#vacation-take")
    page.click("#vacation-dialog button[value=take]")
    says(bea, "#vacation-status", f"On vacation until {date_text(until)}")
    says(bea, "#vacation-left", "20 days of vacation left this year.")
    assert [message["days"] for message in sent(talk, "vacation")] == [10]
    assert page.is_visible("#vacation-end")
    assert page.input_value("#vacation-days") == ""
    page.locator("#account-page").screenshot(path=str(output_dir / "account-vacation.png"))

    # In the room her clock stands still, and says till when.
    go_to_room(bea, code)
    bea.wait("room.view.clock.held_until !== undefined")
    clock = bea.view["clock"]
    assert clock["held_until"] == {"black": int(until) * 1000} and clock["running"] is None
    shown = clock_of(bea, "black")
    assert shown["text"] == f"on vacation until {date_text(until, year=False)}"
    assert shown["vacation"] and not shown["running"] and not shown["hidden"]
    assert f"stands still until {date_text(until)}, with 3d 00h left" in shown["title"]
    assert clock_of(bea, "white")["text"] == "3d 00h"
    page.locator("#seats").screenshot(path=str(output_dir / "room-vacation-seats.png"))

    # Ended early: the days not begun come back, and her clock runs again.
    open_account(bea)
    says(bea, "#vacation-status", "On vacation until")
    page.click("#vacation-end")
    says(bea, "#vacation-said", "Welcome back: your clocks run again.")
    says(bea, "#vacation-status", "Not on vacation.")
    says(bea, "#vacation-left", "30 days of vacation left this year.")
    go_to_room(bea, code)
    bea.wait("room.view.clock.running === 'black'")
    assert not clock_of(bea, "black")["vacation"]

    # Days taken elsewhere meanwhile (her other browser), two of them begun since: the page
    # cannot tell, so the server's refusal is said by the field, and what is true is shown.
    open_account(bea)
    says(bea, "#vacation-left", "30 days of vacation left this year.")
    request(bea, {"type": "vacation", "days": 25})
    served.wall.now += 2 * DAY_S
    try:
        type_in(bea, "#vacation-days", "29", enter=True)
        page.click("#vacation-dialog button[value=take]")
        says(bea, "#vacation-problem", "You have not that many vacation days left this year.")
        says(bea, "#vacation-status", f"On vacation until {date_text(START + 25 * DAY_S)}")
        says(bea, "#vacation-left", "5 days of vacation left this year.")
        type_in(bea, "#vacation-days", "3", enter=True)
        page.click("#vacation-dialog button[value=take]")
        says(
            bea, "#vacation-status", f"On vacation until {date_text(served.wall.now + 3 * DAY_S)}"
        )
        says(bea, "#vacation-left", "25 days of vacation left this year.")
        assert page.inner_text("#vacation-problem") == ""
    finally:
        request(bea, {"type": "vacation", "days": 0})
        served.wall.now = START


def test_the_computer_is_offered_a_seat_only_while_its_person_is_away_in_a_clocked_game(
    person: Callable[..., tuple[Player, Talk]], served: Served, output_dir: Path
) -> None:
    dee, talk = person("Dee", new_key())
    dee.page.set_default_timeout(8000)
    dee.page.on("console", lambda message: print("CONSOLE", message.text))
    dee.page.on("pageerror", lambda error: print("PAGEERROR", error))
    eli, _ = person("Eli", new_key())
    code = days_room(dee, against=None)
    joined = request(eli, {"type": "join", "room": code, "seat": "white"})
    keep_token(eli, code, joined["token"])
    go_to_room(eli, code)
    request(dee, {"type": "start", "room": code})
    dee.wait("room.view.status === 'playing'")
    eli.wait("room.view.status === 'playing'")
    hand_over = dee.page.locator("button.hand-over")
    assert hand_over.count() == 0, "Eli is here"
    assert eli.page.locator("button.hand-over").count() == 0

    # Eli goes: Dee may have the computer play White, and only White.
    eli.page.close()
    hand_over.wait_for()
    assert hand_over.count() == 1
    assert hand_over.inner_text() == "Let the computer play White"
    assert hand_over.get_attribute("data-colour") == "white"
    dee.page.locator("#seats").screenshot(path=str(output_dir / "room-hand-over.png"))
    view = dee.view
    offered = "[arg.map((v) => mod.handOverSeats(v, ['black'])), mod.handOverSeats(arg[0], [])]"
    assert module(
        dee,
        "handover.js",
        offered,
        [
            view,
            view | {"time_control": {"kind": "none"}},
            view | {"status": "finished"},
            view | {"status": "waiting"},
        ],
    ) == [[["white"], [], [], []], []], "only in play, with a clock, for a person seated here"

    # Asked for: the page says what it does first; Enter keeps waiting and asks nothing.
    assert dee.view["rated"] is True
    hand_over.click()
    words = dee.page.locator("#hand-over-dialog p").inner_text()
    assert "The game stays rated" in words and "they finish last" in words
    dee.page.keyboard.press("Enter")
    dee.page.locator("#hand-over-dialog").wait_for(state="detached")
    assert sent(talk, "hand_over") == []
    hand_over.click()
    dee.page.click("#hand-over-dialog button[value=hand]")
    dee.wait("room.view.seats[1].holder.kind === 'standin'")
    assert dee.view["rated"] is True, "a stand-in leaves the game rated"
    assert [message["seat"] for message in sent(talk, "hand_over")] == ["white"]
    dee.page.locator("button.hand-over").wait_for(state="detached")
    assert "computer" in dee.page.inner_text("#seats li[data-colour=white]")

    # A refusal is said as the room says others: Dee's own seat is not away.
    module(dee, "handover.js", "void mod.askHandOver(window.parlour.view, 'black')")
    dee.page.click("#hand-over-dialog button[value=hand]")
    says(dee, "#error", "Black is not held by a person who is away")
    assert dee.view["status"] == "playing"


def test_the_others_seated_are_asked_before_the_computer_plays_for_one_away(
    person: Callable[..., tuple[Player, Talk]], output_dir: Path
) -> None:
    (gus, _), (hal, _), (ivy, _) = (person(name, new_key()) for name in ("Gus", "Hal", "Ivy"))
    made = request(
        gus,
        {
            "type": "create_room",
            "game": "tribolo",
            "seat": "blue",
            "public": False,
            "time_control": {"kind": "days", "days": 1, "bank_days": 0},
        },
    )
    code = made["code"]
    keep_token(gus, code, made["token"])
    for player, colour in ((hal, "red"), (ivy, "green")):
        joined = request(player, {"type": "join", "room": code, "seat": colour})
        keep_token(player, code, joined["token"])
    request(gus, {"type": "start", "room": code})
    for player in (gus, ivy):
        go_to_room(player, code)
        player.wait("room.view.status === 'playing'")
    hal.page.close()
    gus.page.locator("button.hand-over[data-colour=red]").click()
    gus.page.click("#hand-over-dialog button[value=hand]")
    question = ivy.page.locator("dialog:has-text('let the computer play Red')")
    question.wait_for()
    assert "Blue asks to let the computer play Red while its player is away. Agree?" in (
        question.inner_text()
    )
    question.screenshot(path=str(output_dir / "room-hand-over-asked.png"))
    assert ivy.view["seats"][1]["holder"]["kind"] == "human", "nothing happens unasked"
    says(gus, ".log.talk", "You asked to let the computer play Red while its player is away")
    question.locator("button[value=yes]").click()
    for player in (gus, ivy):
        player.wait("room.view.seats[1].holder.kind === 'standin'")
        says(player, ".log.talk", "Everyone agreed to let the computer play Red")
    assert gus.page.locator("button.hand-over").count() == 0


def test_the_leaderboard_switches_between_untimed_live_and_days_ratings(
    person: Callable[..., tuple[Player, Talk]], served: Served, output_dir: Path
) -> None:
    jo, talk = person("Jo", new_key(), f"{served.url}/#leaderboard/othello")
    page = jo.page
    page.wait_for_selector("#speed-switch")

    def shows(speed: str, words: str) -> None:
        page.wait_for_selector(f"#leaderboard[data-speed={speed}]")
        assert page.inner_text("#leaderboard-title") == f"Leaderboard: Othello, {words}"
        assert page.title() == f"Leaderboard · Othello, {words} · Parlour"
        pressed = page.locator("#speed-switch button[aria-pressed=true]")
        assert pressed.count() == 1 and pressed.get_attribute("data-speed") == speed
        asked = [m for m in sent(talk, "leaderboard") if m["game"] == "othello"]
        assert asked[-1]["speed"] == speed
        answer = request(jo, {"type": "leaderboard", "game": "othello", "speed": speed})
        assert answer["speed"] == speed
        page.wait_for_function(
            "() => !document.querySelector('#leaderboard-note').textContent.startsWith('Asking')"
        )
        rows = page.locator("#leaderboard-table tbody tr")
        assert [rows.nth(i).get_attribute("data-player") for i in range(rows.count())] == [
            line["player"] for line in answer["players"]
        ]
        if not answer["players"]:
            assert f"Nobody is rated at this game in {words} yet" in page.inner_text(
                "#leaderboard-note"
            )

    shows("none", "untimed games")
    assert [b.inner_text() for b in page.locator("#speed-switch button").all()] == [
        "Untimed",
        "Live",
        "Days per move",
    ]
    page.click("#speed-switch button[data-speed=live]")
    page.wait_for_url("**/#leaderboard/othello/live")
    shows("live", "live games")
    page.locator("#leaderboard").screenshot(path=str(output_dir / "leaderboard-live.png"))
    # Another game keeps the kind of ratings chosen.
    page.click(".game-tabs a[data-game=tribolo]")
    page.wait_for_url("**/#leaderboard/tribolo/live")
    page.wait_for_selector("#leaderboard[data-game=tribolo][data-speed=live]")
    page.go_back()
    page.wait_for_selector("#leaderboard[data-game=othello]")
    page.click("#speed-switch button[data-speed=days]")
    page.wait_for_url("**/#leaderboard/othello/days")
    shows("days", "games of days per move")
    page.click("#speed-switch button[data-speed=none]")
    page.wait_for_url(re.compile(r"/#leaderboard/othello$"))
    shows("none", "untimed games")
    # A speed the page does not know reads as untimed.
    page.goto(f"{served.url}/#leaderboard/othello/fast")
    shows("none", "untimed games")


def test_a_server_without_mail_offers_none_and_a_guest_is_told_how_to_get_a_key(
    person: Callable[..., tuple[Player, Talk]], site: str, browser: Browser, output_dir: Path
) -> None:
    kit, talk = person("Kit", new_key(), f"{site}/")
    open_account(kit)
    says(kit, "#email-none", "This server sends no mail")
    assert kit.page.locator("#email-address").count() == 0
    says(kit, "#vacation-status", "Not on vacation.")
    assert sent(talk, "get_email") == [] and len(sent(talk, "get_vacation")) == 1

    # A browser that will not keep a key: a guest, told what a key is for and how to get one.
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        context.add_init_script(
            """localStorage.setItem("parlour.name", JSON.stringify("Lee"));
            const keep = Storage.prototype.setItem;
            Storage.prototype.setItem = function (key, value) {
                if (key === "parlour.key") throw new DOMException("full", "QuotaExceededError");
                return keep.call(this, key, value);
            };"""
        )
        lee = Player(context.new_page())
        guest_talk = Talk(lee.page)
        lee.page.goto(f"{site}/")
        connected(lee.page)
        assert "key" not in guest_talk.hellos()[-1]
        open_account(lee)
        says(lee, "#account-guest", "You play as a guest")
        says(lee, "#account-guest", "To get a key, let this site keep its data in this browser")
        assert lee.page.locator("#email-box, #vacation-box, #your-key").count() == 0
        assert sent(guest_talk, "get_email") == [] and sent(guest_talk, "get_vacation") == []
        lee.page.locator("#account-page").screenshot(path=str(output_dir / "account-guest.png"))
        assert lee.errors == []
    finally:
        context.close()
