"""Clocks on the page (protocol.md 2.12), against a real server run in this process whose
wall clock the test turns, and pages whose clocks Playwright turns: the New room form sends
the time control chosen and the lobby names it; both pages show both clocks by the seats,
the running one counting down and set right by each update; low time in its own colour
(readable in both themes) and one short beep, for the player's own clock only, once a turn,
and never with the page's sound off; a seat out of time says so. The clock's arithmetic and
words are checked with explicit times."""

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pytest
from playwright.sync_api import Browser, BrowserContext

from parlour.protocol.timecontrol import read_time_control
from parlour.server import ServerConfig

from .test_page import Player, create_room, remember_key
from .test_players_page import module, request
from .threaded import Wall, serve_in_thread

START = 1_800_000_000.0
"""The server's wall clock at the start, in Unix seconds."""

FAKE_AUDIO = """
(() => {
  window.__tones = [];
  class Recorded {
    constructor() { this.currentTime = 0; this.destination = {}; }
    createOscillator() {
      const oscillator = {
        frequency: { value: 0 },
        connect: (node) => node,
        start: () => window.__tones.push(oscillator.frequency.value),
        stop: () => {},
      };
      return oscillator;
    }
    createGain() {
      const gain = { setValueAtTime() {}, exponentialRampToValueAtTime() {} };
      return { gain, connect: (node) => node };
    }
  }
  window.AudioContext = Recorded;
})();
"""
"""Web Audio replaced by a recorder of the tones the page starts."""


@dataclass
class Served:
    url: str
    wall: Wall


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A Parlour server on a free loopback port, run on an event loop of its own in a thread
    of this process, its wall clock the test's."""
    wall = Wall(START)
    config = ServerConfig(
        host="127.0.0.1", port=0, data_dir=tmp_path_factory.mktemp("data"), bot_workers=0
    )
    for url in serve_in_thread(config, wall):
        yield Served(url, wall)


@pytest.fixture
def person(browser: Browser, served: Served) -> Iterator[Callable[..., Player]]:
    """Open the lobby as `name` (a browser of their own, the page's clock Playwright's and its
    tones recorded), with the page's sound on or off."""
    contexts: list[BrowserContext] = []
    players: list[Player] = []

    def open_as(name: str, *, sound: bool = True) -> Player:
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        contexts.append(context)
        remember_key(context, name)
        kept = {"parlour.name": json.dumps(name), "parlour.sound": json.dumps(sound)}
        context.add_init_script(
            f"for (const [k, v] of Object.entries({json.dumps(kept)})) localStorage.setItem(k, v);"
        )
        context.add_init_script(FAKE_AUDIO)
        player = Player(context.new_page())
        players.append(player)
        player.page.clock.install()
        player.page.goto(f"{served.url}/")
        player.page.wait_for_selector(".lobby")
        return player

    yield open_as
    for player in players:
        assert player.errors == []
    for context in contexts:
        context.close()


SCHEMES: tuple[Literal["light", "dark"], ...] = ("light", "dark")
"""The page's colour schemes."""


def choose_clock(player: Player, value: str, **fields: str) -> None:
    """Choose the New room form's clock, and fill in its fields (`clock-minutes`, ...)."""
    player.page.select_option("#time-control", value)
    for name, text in fields.items():
        player.page.fill(f"#clock-{name}", text)


def clock_at(player: Player, colour: str) -> dict[str, Any]:
    """What the page shows of `colour`'s clock: its words and how it is marked."""
    shown: dict[str, Any] = player.page.evaluate(
        """(colour) => {
            const node = document.querySelector(`#seats .clock[data-colour="${colour}"]`);
            if (!node || node.hidden) return null;
            const marked = (name) => node.classList.contains(name);
            return { text: node.textContent, running: marked("running"), low: marked("low"),
                     out: marked("out") };
        }""",
        colour,
    )
    return shown


def seconds(text: str) -> float:
    """A live clock's words in seconds: `0:09.3`, `1:05`, `1:02:03`."""
    total = 0.0
    for part in text.split(":"):
        total = total * 60 + float(part)
    return total


def left_ms(player: Player, colour: str) -> int:
    """The time `colour` has left as the page works it out now (to time the test's steps)."""
    left: int = player.hook(
        "Math.round(room.clocks.clock.left_ms[arg]"
        " - (arg === room.clocks.clock.running ? performance.now() - room.clocks.receivedAt : 0))",
        colour,
    )
    return left


def pause(*players: Player) -> None:
    """Stop the pages' clocks: from now on their time moves only as the test moves it."""
    for player in players:
        now_ms = player.page.evaluate("Date.now()")
        player.page.clock.pause_at((now_ms + 200) / 1000)


def advance(served: Served, ms: int, *players: Player) -> None:
    """Time passes: `ms` on the server's wall clock and on each page's."""
    served.wall.now += ms / 1000
    for player in players:
        player.page.clock.run_for(ms)


def run_to(served: Served, colour: str, target_ms: int, *players: Player) -> None:
    """Time passes till `colour`'s running clock has `target_ms` left, on the server's wall
    clock (by the clock of the last view, made at its `at`) and on each page."""
    clock = players[0].view["clock"]
    assert clock["running"] == colour
    server_left = clock["left_ms"][colour] - (round(served.wall.now * 1000) - clock["at"])
    served.wall.now += (server_left - target_ms) / 1000
    for player in players:
        player.page.clock.run_for(left_ms(player, colour) - target_ms)


def tones(player: Player) -> list[float]:
    heard: list[float] = player.page.evaluate("() => window.__tones")
    return heard


def play_first(player: Player) -> None:
    """The player's first legal move, clicked on the board; the update seen."""
    player.my_turn()
    version = player.view["version"]
    player.click_square(player.view["state"]["legal_moves"][0])
    player.wait("room.view.version > arg", version)


def live_game(host: Player, guest: Player, minutes: str, increment: str) -> str:
    """An Othello room made with the form on a live clock of the host's choosing, the host
    black, the guest white by the room's link; started. Its link."""
    choose_clock(host, "live-custom", minutes=minutes, increment=increment)
    link = create_room(host, "othello", {"black": "you", "white": "open"})
    guest.page.goto(link)
    guest.wait("room.view !== null")
    guest.page.click("button.take[data-colour=white]")
    guest.wait("room.seat === 'white'")
    host.page.click("[data-action=start]")
    for player in (host, guest):
        player.wait("room.view.status === 'playing' && room.view.clock !== null")
    return link


def contrast(player: Player, selector: str) -> float:
    """The contrast ratio (WCAG 2) of an element's text on its own background."""
    ratio: float = player.page.evaluate(
        """(selector) => {
            const style = getComputedStyle(document.querySelector(selector));
            const channels = (colour) => colour.match(/[\\d.]+/g).slice(0, 3).map(Number);
            const luminance = (colour) => {
                const [r, g, b] = channels(colour).map((c) => {
                    const s = c / 255;
                    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
                });
                return 0.2126 * r + 0.7152 * g + 0.0722 * b;
            };
            const [a, b] = [luminance(style.color), luminance(style.backgroundColor)];
            return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        }""",
        selector,
    )
    return ratio


# The arithmetic and the words, with explicit times.


def test_the_clock_module_works_out_and_writes_times_from_explicit_times(
    person: Callable[..., Player],
) -> None:
    ann = person("Ann")
    live = {"kind": "live", "base_s": 15, "increment_s": 0}
    clock = {"control": live, "left_ms": {"black": 15_000, "white": 12_000}, "running": "black"}
    at = module(
        ann,
        "clock.js",
        "[mod.shown(arg, 1000, 4700), mod.shown(arg, 1000, 900), mod.shown(arg, 0, 99000)]",
        clock,
    )
    assert at == [
        {"black": 11_300, "white": 12_000},
        {"black": 15_000, "white": 12_000},
        {"black": 0, "white": 12_000},
    ]
    days = {"kind": "days", "days": 3, "bank_days": 7}
    hour, day = 3_600_000, 86_400_000
    written = module(
        ann,
        "clock.js",
        "arg.map(([ms, control]) => mod.clockText(ms, control))",
        [
            [15_000, live],
            [10_000, live],
            [9_999, live],
            [9_349, live],
            [0, live],
            [65_000, live],
            [3_723_000, live],
            [2 * day + 3 * hour + 59_000, days],
            [5 * hour + 12 * 60_000 + 999, days],
            [59 * 60_000 + 3_000, days],
        ],
    )
    assert written == [
        "0:15",
        "0:10",
        "0:09.9",
        "0:09.3",
        "0:00.0",
        "1:05",
        "1:02:03",
        "2d 03h",
        "5h 12m",
        "59:03",
    ]
    waits = module(
        ann,
        "clock.js",
        "arg[0].map((ms) => mod.nextDrawIn(ms, arg[1]))",
        [[9_350, 9_300, 10_500, 65_000, 0], live],
    )
    assert waits == [51, 1, 501, 1, None]
    assert all(wait <= 100 for wait in waits[:2]), "ten drawings a second below ten seconds"
    low = module(
        ann,
        "clock.js",
        "[mod.isLow(9999, arg[0]), mod.isLow(10000, arg[0]), mod.isLow(3599999, arg[1]),"
        " mod.isLow(3600000, arg[1])]",
        [live, days],
    )
    assert low == [True, False, True, False]
    controls = [
        {"kind": "live", "base_s": 300, "increment_s": 3},
        {"kind": "live", "base_s": 15, "increment_s": 0},
        {"kind": "live", "base_s": 90, "increment_s": 1},
        {"kind": "days", "days": 1, "bank_days": 0},
        {"kind": "days", "days": 3, "bank_days": 7},
        {"kind": "none"},
    ]
    labels = module(ann, "clock.js", "arg.map(mod.controlLabel)", controls)
    assert labels == [read_time_control("time_control", each).label() for each in controls]
    assert labels[:2] == ["5+3", "15s+0"] and labels[4] == "3 days a move, bank 7"


# The New room form and the lobby.


def test_the_form_sends_the_clock_chosen_and_the_lobby_names_it(
    person: Callable[..., Player],
) -> None:
    ann = person("Ann")
    made: dict[str, Any] = {}
    for value, fields in [
        ("days", {"days": "5", "bank": "7"}),
        ("live:180:2", {}),
        ("live-custom", {"minutes": "0.25", "increment": "0"}),
    ]:
        if made:
            ann.page.click("text=Back to the lobby")
            ann.page.wait_for_selector(".lobby")
        if value == "days":
            assert ann.page.locator("#clock-days-fields").is_hidden()
            ann.page.select_option("#time-control", value)
            ann.page.select_option("#clock-days", fields["days"])
            ann.page.fill("#clock-bank", fields["bank"])
        else:
            choose_clock(ann, value, **fields)
        assert ann.page.locator("#clock-custom").is_visible() == (value == "live-custom")
        create_room(ann, "othello", {"black": "you", "white": "open"})
        made[ann.view["room"]] = ann.view["time_control"]
        assert ann.page.locator("#room-clock").inner_text().startswith("Clock ")
    assert list(made.values()) == [
        {"kind": "days", "days": 5, "bank_days": 7},
        {"kind": "live", "base_s": 180, "increment_s": 2},
        {"kind": "live", "base_s": 15, "increment_s": 0},
    ]

    # Another client sees each room's clock in the list, and the lobby says it in words
    # (Bob opens it now: it reads the list again only every few seconds).
    bob = person("Bob")
    # Other tests' rooms may be listed too: only these three are looked at.
    summaries = {room["room"]: room for room in request(bob, {"type": "list_rooms"})["rooms"]}
    listed = []
    for room, control in made.items():
        assert summaries[room]["time_control"] == control
        label = read_time_control("time_control", control).label()
        row = bob.page.locator(f"tr[data-room='{room}'] .time-control")
        row.wait_for()
        listed.append(row.inner_text().strip())
        assert listed[-1] == f"· {label}"
    assert listed == ["· 5 days a move, bank 7", "· 3+2", "· 15s+0"]

    # A room waiting for its start shows each seat's whole time.
    assert clock_at(ann, "black") == {"text": "0:15", "running": False, "low": False, "out": False}
    assert ann.page.locator("#room-clock").inner_text() == "Clock 15s+0"


# A game on the clock.


def test_both_pages_count_the_running_clock_down_and_each_update_sets_it_right(
    person: Callable[..., Player], served: Served, output_dir: Path
) -> None:
    cat, dan = person("Cat"), person("Dan")
    live_game(cat, dan, "0.25", "0")
    for player in (cat, dan):
        assert clock_at(player, "white") == {
            "text": "0:15",
            "running": False,
            "low": False,
            "out": False,
        }
        assert clock_at(player, "black")["running"]
    pause(cat, dan)
    first = clock_at(cat, "black")["text"]
    advance(served, 3000, cat, dan)
    then = clock_at(cat, "black")
    assert then["running"] and seconds(then["text"]) == pytest.approx(seconds(first) - 3, abs=1)
    assert seconds(then["text"]) <= 11, "the page counted Cat's time as it ran"
    assert seconds(clock_at(dan, "black")["text"]) == pytest.approx(seconds(then["text"]), abs=1)

    # Ten drawings a second below ten seconds (the page's time alone runs on).
    cat.page.clock.run_for(left_ms(cat, "black") - 9_950)
    cat.page.evaluate(
        """() => {
            const node = document.querySelector('#seats .clock[data-colour="black"]');
            window.__drawn = new Set([node.textContent]);
            new MutationObserver(() => window.__drawn.add(node.textContent))
                .observe(node, { childList: true, characterData: true, subtree: true });
        }"""
    )
    cat.page.clock.run_for(1000)
    drawn = cat.page.evaluate("() => [...window.__drawn]")
    assert len(drawn) >= 10, drawn
    assert clock_at(cat, "black")["low"]

    # The server charged Cat for the 3 s its wall clock ran, not the page's count: her move's
    # update sets her clock to what the server says, and runs Dan's.
    play_first(cat)
    dan.wait("room.view.version === 1")
    for player in (cat, dan):
        assert clock_at(player, "black") == {
            "text": "0:12",
            "running": False,
            "low": False,
            "out": False,
        }
        assert clock_at(player, "white")["running"]
    advance(served, 4000, cat, dan)
    assert clock_at(cat, "white")["text"] == "0:11"
    play_first(dan)
    cat.wait("room.view.version === 2")
    assert clock_at(cat, "white")["text"] == "0:11" and not clock_at(cat, "white")["running"]
    assert clock_at(cat, "black") == {"text": "0:12", "running": True, "low": False, "out": False}
    cat.page.clock.run_for(500)  # the board's drawing catches up; Cat's clock runs on
    assert clock_at(cat, "black")["text"] == "0:11"
    cat.page.screenshot(path=str(output_dir / "clocks-room.png"))

    # My games names the room's clock and, on Cat's turn, the time the server says she has.
    cat.page.click("text=Back to the lobby")
    waiting = cat.page.locator(".my-rooms li.your-turn")
    waiting.wait_for()
    assert "15s+0" in waiting.inner_text() and "your move, 0:12 left" in waiting.inner_text()


def test_low_time_warns_in_colour_and_once_by_sound_and_a_flag_says_out_of_time(
    person: Callable[..., Player], served: Served, output_dir: Path
) -> None:
    eve, fay = person("Eve"), person("Fay", sound=False)
    link = live_game(eve, fay, "0.25", "0")
    pause(eve, fay)
    heard = len(tones(eve))
    assert heard == 1, "the tone for Eve's turn"
    run_to(served, "black", 10_500, eve, fay)
    assert clock_at(eve, "black") == {"text": "0:10", "running": True, "low": False, "out": False}
    assert len(tones(eve)) == heard

    # Eve's own clock passes ten seconds: her page beeps once and colours it; Fay's colours it.
    advance(served, 1000, eve, fay)
    assert clock_at(eve, "black") == {
        "text": "0:09.5",
        "running": True,
        "low": True,
        "out": False,
    }
    (beep,) = tones(eve)[heard:]
    assert beep != tones(eve)[0], "a beep of its own, not the tone for one's turn"
    assert clock_at(fay, "black")["low"] and tones(fay) == []
    low = '#seats .clock[data-colour="black"]'
    for scheme in SCHEMES:
        eve.page.emulate_media(color_scheme=scheme)
        assert contrast(eve, low) >= 4.5, scheme
        eve.page.screenshot(path=str(output_dir / f"clocks-low-{scheme}.png"))
    eve.page.emulate_media(color_scheme="light")
    advance(served, 1000, eve, fay)
    assert tones(eve).count(beep) == 1, "once a turn"

    # Fay's own clock runs low with her sound off: no beep; Eve's page never beeps for it.
    play_first(eve)
    fay.wait("room.view.version === 1")
    eve_left = eve.view["clock"]["left_ms"]["black"]
    assert 8_500 <= eve_left < 8_600, "the server charged what the pages counted"
    run_to(served, "white", 9_000, eve, fay)
    assert clock_at(fay, "white")["low"] and clock_at(eve, "white")["low"]
    for scheme in SCHEMES:  # low, not running: the error colour on the page's paper
        eve.page.emulate_media(color_scheme=scheme)
        assert contrast(eve, '#seats .clock[data-colour="white"]') >= 4.5, scheme
    eve.page.emulate_media(color_scheme="light")
    assert tones(fay) == [] and tones(eve).count(beep) == 1

    # Eve's next turn starts below ten seconds: nothing passes ten, nothing beeps. Her time
    # runs out, and a request about the room (Fay's page asks for it) has the server flag her.
    play_first(fay)
    eve.wait("room.view.version === 2")
    run_to(served, "black", 0, eve, fay)
    assert clock_at(eve, "black") == {"text": "0:00.0", "running": True, "low": True, "out": False}
    assert tones(eve).count(beep) == 1
    advance(served, 1_100, eve, fay)
    request(fay, {"type": "get_room", "room": link.rsplit("/", 1)[1]})
    for player in (eve, fay):
        player.wait("room.view.status === 'finished'")
        assert clock_at(player, "black") == {
            "text": "out of time",
            "running": False,
            "low": False,
            "out": True,
        }
        assert clock_at(player, "white") == {
            "text": "0:09.0",
            "running": False,
            "low": True,
            "out": False,
        }
        assert player.view["flagged"] == ["black"]
    turn = eve.page.locator("#turn").inner_text()
    assert turn == "Black (Eve) ran out of time: White (Fay) wins on time."
    assert "Your move" not in eve.page.title() and eve.page.locator(".seat.to-move").count() == 0
    eve.page.clock.run_for(500)
    eve.page.screenshot(path=str(output_dir / "clocks-flagged.png"))
