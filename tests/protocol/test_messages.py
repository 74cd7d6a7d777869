"""Reading client messages: every field's type and bounds as protocol.md gives them."""

from typing import Any

import pytest

from parlour.protocol import ErrorCode, ProtocolError
from parlour.protocol import messages as m
from parlour.protocol.wire import MAX_SAFE_INTEGER

ROOM = "k7Hq2mXa"
TOKEN = "q3VxT0kP9aLmZr8bWc2nYe"
KEY = "Y5DP-J2CK-CKJ7-4007-9860-PWHM-31NJ-ZJ15"

VALID: dict[str, dict[str, Any]] = {
    "hello": {"version": 1, "name": "Ann"},
    "list_rooms": {},
    "create_room": {"game": "tribolo"},
    "see": {"game": "tribolo"},
    "initials": {"room": ROOM, "seat": "blue", "initials": "AJ"},
    "join": {"room": ROOM},
    "spectate": {"room": ROOM},
    "leave": {"room": ROOM},
    "set_seat": {"room": ROOM, "seat": "green", "holder": "bot"},
    "fill_bots": {"room": ROOM},
    "start": {"room": ROOM},
    "move": {"room": ROOM, "version": 0, "move": "e3"},
    "get_room": {"room": ROOM},
    "hint": {"room": ROOM, "kind": "best"},
    "show_thinking": {"room": ROOM, "on": True},
    "suggest": {"room": ROOM},
    "undo": {"room": ROOM},
    "new_game": {"room": ROOM},
    "hand_over": {"room": ROOM, "seat": "green"},
    "resign": {"room": ROOM, "version": 7},
    "abort": {"room": ROOM, "version": 1},
    "claim": {"room": ROOM, "version": 1},
    "offer_draw": {"room": ROOM},
    "vacation": {"days": 3},
    "get_vacation": {},
    "answer": {"room": ROOM, "proposal": "p1", "accept": True},
    "chat": {"room": ROOM, "text": "hello"},
    "mute": {"name": "Zed"},
    "block": {"name": "Zed"},
    "report": {"room": ROOM, "name": "Zed", "reason": "rude"},
    "remove_watcher": {"room": ROOM, "name": "Zed"},
    "score_card": {"game": "tribolo"},
    "export_game": {"room": ROOM},
    "import_game": {"room": ROOM, "text": '[Game "othello"]\n[Board "0"]\n'},
    "save_game": {"room": ROOM, "name": "mine"},
    "load_game": {"room": ROOM, "name": "mine"},
    "list_saves": {},
    "my_games": {},
    "leaderboard": {"game": "tribolo"},
    "replay": {},
    "set_email": {},
    "verify_email": {"code": "042917"},
    "get_email": {},
}
"""The smallest valid map of each client message, without its `type`."""

OPTIONAL: dict[str, dict[str, Any]] = {
    "hello": {"client": "parlour-cli 0.1.0", "key": KEY},
    "create_room": {
        "options": {"rows": 8},
        "board": 7,
        "public": False,
        "seat": "blue",
        "standin_after": 30,
        "bot_think_ms": 2000,
        "position": "........./....BW.../ B",
        "rated": False,
        "time_control": {"kind": "live", "base_s": 300, "increment_s": 3},
    },
    "join": {"seat": "red", "token": TOKEN},
    "set_seat": {"level": "easy"},
    "fill_bots": {"level": "easy"},
    "suggest": {"think_ms": 2500},
    "undo": {"version": 3},
    "new_game": {"board": 12, "rotate": True, "version": 3},
    "hand_over": {"version": 3},
    "offer_draw": {"version": 3},
    "resign": {"seat": "red"},
    "score_card": {"preset": "abalone"},
    "leaderboard": {"speed": "live"},
    "save_game": {"replace": True},
    "list_saves": {"game": "numlo"},
    "replay": {"record": "k7Hq2mXa.61", "room": ROOM, "text": '[Game "othello"]\n'},
    "set_email": {"address": "ann@example.org", "digest_hours": 12},
}
"""A valid value for each optional field."""

REQUIRED = [(kind, name) for kind, values in VALID.items() for name in values]
OPTIONAL_FIELDS = [(kind, name) for kind, values in OPTIONAL.items() for name in values]
ALL_FIELDS = REQUIRED + OPTIONAL_FIELDS
INTEGER_FIELDS = [
    ("hello", "version"),
    ("vacation", "days"),
    ("create_room", "board"),
    ("create_room", "standin_after"),
    ("create_room", "bot_think_ms"),
    ("move", "version"),
    ("resign", "version"),
    ("abort", "version"),
    ("claim", "version"),
    ("suggest", "think_ms"),
    ("new_game", "board"),
    ("undo", "version"),
    ("new_game", "version"),
    ("hand_over", "version"),
    ("offer_draw", "version"),
    ("set_email", "digest_hours"),
]
CHOICE_FIELDS = [
    ("set_seat", "holder"),
    ("hint", "kind"),
    ("create_room", "left_seats"),
    ("start", "call"),
    ("new_game", "call"),
    ("leaderboard", "speed"),
]
OTHER_FIELDS = [
    ("create_room", "time_control"),
    ("create_room", "options"),
    ("create_room", "public"),
    ("show_thinking", "on"),
    ("answer", "accept"),
    ("save_game", "replace"),
    ("leave", "give_up"),
    ("new_game", "rotate"),
    ("create_room", "rated"),
    ("hello", "key"),
]
STRING_FIELDS = [
    field for field in ALL_FIELDS if field not in INTEGER_FIELDS + CHOICE_FIELDS + OTHER_FIELDS
]
DEFAULTS = {
    ("save_game", "replace"): False,
    ("new_game", "rotate"): False,
    ("create_room", "public"): True,
    ("create_room", "rated"): True,
    ("create_room", "standin_after"): 60,
    ("create_room", "bot_think_ms"): 1000,
    ("suggest", "think_ms"): 1000,
    ("leaderboard", "speed"): "none",
}
"""protocol.md's defaults for optional fields; the rest default to None."""
ROOM_REF_TYPES = [kind for kind, values in VALID.items() if "room" in values]


def wire(kind: str, /, **fields: Any) -> dict[str, Any]:
    """The map of `kind` with every field valid, then `fields` changed."""
    return {"type": kind} | VALID[kind] | OPTIONAL.get(kind, {}) | fields


def read(kind: str, /, **fields: Any) -> m.ClientMessage:
    return m.read_client_message(wire(kind, **fields))


def left_out(kind: str, name: str, how: str) -> dict[str, Any]:
    """The valid map of `kind` without `name`, or with `name` null."""
    message = wire(kind)
    if how == "missing":
        del message[name]
    else:
        message[name] = None
    return message


def refused(message: dict[str, Any]) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        m.read_client_message(message)
    return caught.value


def assert_bad_field(message: dict[str, Any], field: str) -> None:
    error = refused(message)
    assert error.code == ErrorCode.BAD_FIELD, error
    assert error.detail == {"field": field}
    assert error.close is None


def test_the_samples_cover_every_client_message() -> None:
    assert sorted(VALID) == sorted(m.CLIENT_MESSAGES)


@pytest.mark.parametrize("kind", VALID)
def test_each_message_reads_with_only_its_required_fields(kind: str) -> None:
    message = m.read_client_message({"type": kind} | VALID[kind])
    assert isinstance(message, m.CLIENT_MESSAGES[kind])
    for name, value in VALID[kind].items():
        assert getattr(message, name) == value


@pytest.mark.parametrize(("kind", "name"), ALL_FIELDS)
def test_each_field_reads_into_its_attribute(kind: str, name: str) -> None:
    assert getattr(read(kind), name) == wire(kind)[name]


@pytest.mark.parametrize(("kind", "name"), REQUIRED)
@pytest.mark.parametrize("how", ["missing", "null"])
def test_a_missing_required_field_is_a_bad_field(kind: str, name: str, how: str) -> None:
    assert_bad_field(left_out(kind, name, how), name)


@pytest.mark.parametrize(("kind", "name"), OPTIONAL_FIELDS)
@pytest.mark.parametrize("how", ["missing", "null"])
def test_an_optional_field_left_out_or_null_takes_its_default(
    kind: str, name: str, how: str
) -> None:
    message = m.read_client_message(left_out(kind, name, how))
    assert getattr(message, name) == DEFAULTS.get((kind, name))


# Types.


@pytest.mark.parametrize(("kind", "name"), STRING_FIELDS)
@pytest.mark.parametrize("value", [12345678, True, ["e3"], {"s": "x"}], ids=repr)
def test_a_string_field_refuses_other_types(kind: str, name: str, value: object) -> None:
    assert_bad_field(wire(kind, **{name: value}), name)


@pytest.mark.parametrize(("kind", "name"), INTEGER_FIELDS)
@pytest.mark.parametrize("value", ["1", True, False, 1.0, [1], {"n": 1}], ids=repr)
def test_an_integer_field_refuses_other_types(kind: str, name: str, value: object) -> None:
    assert_bad_field(wire(kind, **{name: value}), name)


@pytest.mark.parametrize("field", [("create_room", "public"), ("show_thinking", "on")])
@pytest.mark.parametrize("value", [1, 0, "true", "false", [], {}], ids=repr)
def test_flags_must_be_booleans(field: tuple[str, str], value: object) -> None:
    kind, name = field
    assert_bad_field(wire(kind, **{name: value}), name)


# Bounds.


def _lengths(kind: str, name: str, lo: int, hi: int) -> list[Any]:
    params = [pytest.param(kind, name, hi + 1, id=f"{kind}.{name}={hi + 1}")]
    if lo > 0:
        params.append(pytest.param(kind, name, lo - 1, id=f"{kind}.{name}={lo - 1}"))
    return params


TEXT_BOUNDS = [
    ("hello", "name", 1, 32),
    ("hello", "client", 0, 64),
    *[(kind, "room", 8, 32) for kind in ROOM_REF_TYPES],
    ("join", "token", 22, 64),
    ("move", "move", 1, 64),
    ("answer", "proposal", 1, 32),
    ("chat", "text", 1, 300),
    ("score_card", "preset", 1, 32),
    ("save_game", "name", 1, 40),
    ("load_game", "name", 1, 40),
    ("import_game", "text", 1, 60_000),
    ("replay", "text", 1, 60_000),
    ("replay", "record", 1, 64),
    ("create_room", "position", 1, 4096),
    ("list_rooms", "id", 1, 64),
    ("move", "id", 1, 64),
]


@pytest.mark.parametrize(("kind", "name", "lo", "hi"), TEXT_BOUNDS)
def test_strings_at_their_bounds_are_accepted(kind: str, name: str, lo: int, hi: int) -> None:
    for length in (lo, hi):
        assert getattr(read(kind, **{name: "x" * length}), name) == "x" * length


@pytest.mark.parametrize(("kind", "name", "lo", "hi"), TEXT_BOUNDS)
def test_lengths_count_code_points_not_bytes(kind: str, name: str, lo: int, hi: int) -> None:
    text = "😀" * hi
    assert getattr(read(kind, **{name: text}), name) == text
    assert_bad_field(wire(kind, **{name: text + "é"}), name)


@pytest.mark.parametrize(
    ("kind", "name", "length"),
    [param for bounds in TEXT_BOUNDS for param in _lengths(*bounds)],
)
def test_strings_beyond_their_bounds_are_bad_fields(kind: str, name: str, length: int) -> None:
    assert_bad_field(wire(kind, **{name: "x" * length}), name)


@pytest.mark.parametrize(
    ("kind", "name", "value"),
    [
        ("create_room", "board", 0),
        ("create_room", "board", MAX_SAFE_INTEGER),
        ("create_room", "standin_after", 0),
        ("create_room", "standin_after", 3600),
        ("create_room", "bot_think_ms", 100),
        ("create_room", "bot_think_ms", 10_000),
        ("move", "version", 0),
        ("move", "version", MAX_SAFE_INTEGER),
        ("suggest", "think_ms", 100),
        ("suggest", "think_ms", 10_000),
        ("list_rooms", "id", 0),
        ("list_rooms", "id", -MAX_SAFE_INTEGER),
        ("list_rooms", "id", MAX_SAFE_INTEGER),
        ("set_email", "digest_hours", 1),
        ("set_email", "digest_hours", 168),
    ],
)
def test_integers_at_their_bounds_are_accepted(kind: str, name: str, value: int) -> None:
    assert getattr(read(kind, **{name: value}), name) == value


@pytest.mark.parametrize(
    ("kind", "name", "value"),
    [
        ("create_room", "board", -1),
        ("create_room", "board", MAX_SAFE_INTEGER + 1),
        ("create_room", "standin_after", -1),
        ("create_room", "standin_after", 3601),
        ("create_room", "bot_think_ms", 99),
        ("create_room", "bot_think_ms", 10_001),
        ("move", "version", -1),
        ("move", "version", MAX_SAFE_INTEGER + 1),
        ("suggest", "think_ms", 99),
        ("suggest", "think_ms", 10_001),
        ("list_rooms", "id", MAX_SAFE_INTEGER + 1),
        ("set_email", "digest_hours", 0),
        ("set_email", "digest_hours", 169),
    ],
)
def test_integers_beyond_their_bounds_are_bad_fields(kind: str, name: str, value: int) -> None:
    assert_bad_field(wire(kind, **{name: value}), name)


CONTROLS = [
    "\x00",
    "\t",
    "\n",
    "\r",
    "\x1b",
    "\x7f",
    "\x85",
    "\u202e",
    "\u2028",
    "\u200b",
    "\ufeff",
]


MULTI_LINE = [("import_game", "text"), ("replay", "text")]
LINE_BREAKS = "\t\n\r"


@pytest.mark.parametrize(("kind", "name"), STRING_FIELDS)
@pytest.mark.parametrize("control", CONTROLS, ids=lambda char: f"U+{ord(char):04X}")
def test_control_characters_are_refused_in_strings(kind: str, name: str, control: str) -> None:
    if (kind, name) in MULTI_LINE and control in LINE_BREAKS:
        return
    valid = wire(kind)[name]
    assert_bad_field(wire(kind, **{name: valid[:-1] + control}), name)


@pytest.mark.parametrize(("kind", "name"), MULTI_LINE)
def test_multi_line_text_keeps_its_line_breaks_and_tabs(kind: str, name: str) -> None:
    text = "first line\r\n\tsecond line\n"
    assert getattr(read(kind, **{name: text}), name) == text


@pytest.mark.parametrize(
    "name",
    [
        "Zoë",
        "Ωmega",
        "李雷",
        "😀",
        "O'Brien-Smith",
        "a b",
        "👩\u200d💻",  # an emoji sequence held together by the zero-width joiner
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",  # Persian, with a non-joiner
    ],
)
def test_printable_unicode_names_are_accepted(name: str) -> None:
    assert read("hello", name=name) == m.Hello(
        version=1, name=name, client="parlour-cli 0.1.0", key=KEY
    )


# Choices.


@pytest.mark.parametrize(
    ("kind", "name", "value"),
    [
        ("set_seat", "holder", "open"),
        ("set_seat", "holder", "bot"),
        ("hint", "kind", "possible"),
        ("hint", "kind", "best"),
    ],
)
def test_each_choice_is_accepted(kind: str, name: str, value: str) -> None:
    assert getattr(read(kind, **{name: value}), name) == value


@pytest.mark.parametrize(("kind", "name"), CHOICE_FIELDS)
@pytest.mark.parametrize(
    "value", ["person", "standin", "worst", "Bot", "BEST", " open", "", 1, True, ["bot"]], ids=repr
)
def test_anything_but_a_choice_is_a_bad_field(kind: str, name: str, value: object) -> None:
    assert_bad_field(wire(kind, **{name: value}), name)


# Options.


@pytest.mark.parametrize(
    "options",
    [{}, {"rows": 8, "first": "blue"}, {"x" * 32: -3}, {"o": ""}, {"o": "v" * 64}],
    ids=["empty", "mixed", "long-name", "empty-word", "long-word"],
)
def test_options_of_words_and_integers_are_accepted(options: dict[str, Any]) -> None:
    message = read("create_room", options=options)
    assert isinstance(message, m.CreateRoom)
    assert message.options == options


def test_up_to_32_options_are_accepted() -> None:
    options = {f"o{index}": index for index in range(32)}
    message = read("create_room", options=options)
    assert isinstance(message, m.CreateRoom)
    assert message.options == options


@pytest.mark.parametrize(
    ("options", "field"),
    [
        pytest.param([["rows", 8]], "options", id="array"),
        pytest.param("rows=8", "options", id="string"),
        pytest.param(8, "options", id="int"),
        pytest.param(True, "options", id="bool"),
        pytest.param({f"o{index}": index for index in range(33)}, "options", id="33-options"),
        pytest.param({"rows": {"n": 8}}, "options.rows", id="map-value"),
        pytest.param({"rows": [8]}, "options.rows", id="array-value"),
        pytest.param({"rows": True}, "options.rows", id="bool-value"),
        pytest.param({"rows": None}, "options.rows", id="null-value"),
        pytest.param({"rows": 8.0}, "options.rows", id="float-value"),
        pytest.param({"first": "b" * 65}, "options.first", id="long-word"),
        pytest.param({"first": "blue\n"}, "options.first", id="control-in-word"),
        pytest.param({"": 1}, "options.", id="empty-name"),
        pytest.param({"x" * 33: 1}, "options." + "x" * 33, id="long-name"),
        pytest.param({"ro\x00ws": 1}, "options.ro\x00ws", id="control-in-name"),
    ],
)
def test_bad_options_are_bad_fields(options: object, field: str) -> None:
    assert_bad_field(wire("create_room", options=options), field)


# Types, extras and defaults.


@pytest.mark.parametrize("kind", ["welcome", "joined", "ok", "error", "Hello", "", "x" * 100])
def test_an_unknown_type_is_unknown_type(kind: str) -> None:
    error = refused({"type": kind})
    assert error.code == ErrorCode.UNKNOWN_TYPE
    assert error.detail == {"type": kind[:64]}
    assert error.close is None


def test_client_types_are_unknown_to_the_client_reader() -> None:
    with pytest.raises(ProtocolError) as caught:
        m.read_server_message({"type": "join", "room": ROOM})
    assert caught.value.code == ErrorCode.UNKNOWN_TYPE


def test_hint_means_the_request_from_a_client_and_the_reply_from_the_server() -> None:
    assert isinstance(m.read_client_message(wire("hint")), m.Hint)
    reply = m.read_server_message({"type": "hint", "kind": "best", "moves": ["e3"]})
    assert reply == m.HintReply(kind="best", moves=["e3"])


@pytest.mark.parametrize("kind", VALID)
def test_unknown_fields_are_ignored(kind: str) -> None:
    extras = {"colour_scheme": [1, 2], "future": {"x": None}, "TYPE": 5, "spare": 1.5}
    assert read(kind, **extras) == read(kind)


def test_create_room_defaults() -> None:
    assert read("create_room") == m.CreateRoom(
        game="tribolo",
        options={"rows": 8},
        board=7,
        public=False,
        seat="blue",
        standin_after=30,
        bot_think_ms=2000,
        position="........./....BW.../ B",
        rated=False,
        time_control={"kind": "live", "base_s": 300, "increment_s": 3},
    )
    bare = m.read_client_message({"type": "create_room", "game": "tribolo"})
    assert bare == m.CreateRoom(game="tribolo")
    assert isinstance(bare, m.CreateRoom)
    assert (bare.public, bare.standin_after, bare.bot_think_ms) == (True, 60, 1000)
    assert (bare.options, bare.board, bare.seat, bare.id) == (None, None, None, None)
    assert bare.time_control is None, "no clock"


@pytest.mark.parametrize("version", [0, 2, -1, MAX_SAFE_INTEGER])
def test_hello_reads_any_integer_version_for_the_session_to_judge(version: int) -> None:
    message = read("hello", version=version)
    assert isinstance(message, m.Hello)
    assert message.version == version


# The request id.


@pytest.mark.parametrize("value", ["a", "x" * 64, "mv-1 ✓", 0, 7, -7, MAX_SAFE_INTEGER])
def test_a_valid_id_is_read_and_returned_by_request_id(value: str | int) -> None:
    assert read("list_rooms", id=value).id == value
    assert m.request_id({"type": "list_rooms", "id": value}) == value


@pytest.mark.parametrize("value", ["", "x" * 65, "a\nb"], ids=repr)
def test_an_invalid_id_of_a_string_or_integer_is_a_bad_field_that_carries_it(
    value: str | int,
) -> None:
    assert_bad_field(wire("list_rooms", id=value), "id")
    assert m.request_id({"type": "list_rooms", "id": value}) == value


@pytest.mark.parametrize(
    "value", [True, False, [1], {"n": 1}, 1.0, MAX_SAFE_INTEGER + 1, -(2**70)], ids=repr
)
def test_an_id_of_another_kind_is_a_bad_field_that_cannot_carry_it(value: object) -> None:
    assert_bad_field(wire("list_rooms", id=value), "id")
    assert m.request_id({"type": "list_rooms", "id": value}) is None


def test_request_id_of_a_message_without_id_is_none() -> None:
    assert m.request_id({"type": "list_rooms"}) is None
    assert m.request_id({"type": "list_rooms", "id": None}) is None


def test_request_id_needs_no_valid_message_around_it() -> None:
    assert m.request_id({"type": "nonsense", "id": 9, "room": 1}) == 9


# Email addresses and codes (protocol.md 2.13).


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("ann@example.org", "ann@example.org"),
        ("  Ann.Lee+games@Mail.Example.ORG ", "Ann.Lee+games@mail.example.org"),
        ("o'brien@xn--bcher-kva.example", "o'brien@xn--bcher-kva.example"),
        ("a@b.co", "a@b.co"),
        ("x" * 64 + "@" + "d" * 63 + ".org", "x" * 64 + "@" + "d" * 63 + ".org"),
    ],
)
def test_an_address_in_the_shape_of_one_is_read_with_its_domain_in_lower_case(
    given: str, kept: str
) -> None:
    assert read("set_email", address=given) == m.SetEmail(address=kept, digest_hours=12)


@pytest.mark.parametrize(
    "address",
    [
        "",
        "ann",
        "ann@",
        "@example.org",
        "ann@example",
        "ann@@example.org",
        "ann@bob@example.org",
        "ann lee@example.org",
        "ann@exa mple.org",
        "ann..lee@example.org",
        ".ann@example.org",
        "ann.@example.org",
        "<ann@example.org>",
        "Ann <ann@example.org>",
        "ann@-example.org",
        "ann@example-.org",
        "ann@example..org",
        "ann@example.org.",
        "ann@10.0.0.1",
        "ann@[10.0.0.1]",
        "zoë@example.org",
        "ann@bücher.example",
        "ann@example.org\n",
        "x" * 65 + "@example.org",
        "ann@" + "d" * 64 + ".org",
        "ann@" + "d" * 250 + ".org",
    ],
)
def test_anything_but_an_address_is_a_bad_field(address: str) -> None:
    assert_bad_field(wire("set_email", address=address), "address")


@pytest.mark.parametrize("code", ["042917", "042 917", "04-29-17", " 042917 "])
def test_a_code_reads_as_its_six_digits_with_spaces_and_dashes_dropped(code: str) -> None:
    assert read("verify_email", code=code) == m.VerifyEmail(code="042917")


FULL_WIDTH_DIGITS = "".join(chr(0xFF10 + int(digit)) for digit in "042917")


@pytest.mark.parametrize("code", ["", "42917", "0429170", "04291a", FULL_WIDTH_DIGITS, "42917.0"])
def test_a_code_of_other_than_six_digits_is_a_bad_field(code: str) -> None:
    assert_bad_field(wire("verify_email", code=code), "code")
