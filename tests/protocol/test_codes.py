"""Private room codes: made from 60 random bits, written in groups, read back as typed."""

import pytest

from parlour.protocol.codes import (
    ALPHABET,
    CODE_BITS,
    CODE_LENGTH,
    format_code,
    new_code,
    read_code,
    room_key,
)


def test_a_code_is_three_groups_of_four_symbols_without_look_alikes() -> None:
    codes = {new_code() for _ in range(500)}
    assert len(codes) == 500
    for code in codes:
        assert len(code) == CODE_LENGTH == 14
        groups = code.split("-")
        assert [len(group) for group in groups] == [4, 4, 4]
        assert set("".join(groups)) <= set(ALPHABET)
    assert not set(ALPHABET) & set("ILOU")
    assert len(ALPHABET) == 32 and CODE_BITS == 60


def test_every_bit_of_the_random_number_is_in_the_code() -> None:
    assert new_code(lambda bits: 0) == "0000-0000-0000"
    assert new_code(lambda bits: (1 << bits) - 1) == "ZZZZ-ZZZZ-ZZZZ"
    assert new_code(lambda bits: 1) == "0000-0000-0001"
    assert new_code(lambda bits: 1 << (bits - 1)) == "G000-0000-0000"
    assert format_code("7KQMX3RD2HVP") == "7KQM-X3RD-2HVP"


@pytest.mark.parametrize(
    "typed",
    [
        "7KQM-X3RD-2HVP",
        "7kqm-x3rd-2hvp",
        "7KQMX3RD2HVP",
        "7kqmx3rd2hvp",
        "7kqm x3rd 2hvp",
        " 7KQM  X3RD\t2HVP ",
        "7kq m-x3r d2h-vp",
        "7Kqm-X3rd-2hVp",
    ],
)
def test_a_code_is_read_in_any_case_with_or_without_dashes_and_spaces(typed: str) -> None:
    assert read_code(typed) == "7KQM-X3RD-2HVP"


def test_letters_that_look_like_digits_are_read_as_the_digits() -> None:
    assert read_code("O0OO-1IIL-lioo") == "0000-1111-1100"
    assert read_code("7kqm-x3rd-2hvo") == "7KQM-X3RD-2HV0"


@pytest.mark.parametrize(
    "typed",
    [
        "7KQM-X3RD-2HV",  # a symbol short
        "7KQM-X3RD-2HVPP",  # one too many
        "7KQM-X3RD-2HVU",  # U is no symbol
        "7KQM_X3RD_2HVP",  # not a separator
        "7KQM-X3RD-2HV!",
        "",
        "k7Hq2mXa",  # a room id
        "q3VhZpXoLw0Yt9uR2sBn4A",  # a code from before codes were short
    ],
)
def test_text_that_is_no_code_reads_as_none(typed: str) -> None:
    assert read_code(typed) is None


def test_a_room_is_looked_up_by_its_code_as_written_else_by_the_ref_as_sent() -> None:
    assert room_key("7kqm x3rd 2hvp") == "7KQM-X3RD-2HVP"
    assert room_key("k7Hq2mXa") == "k7Hq2mXa"
    assert room_key("q3VhZpXoLw0Yt9uR2sBn4A") == "q3VhZpXoLw0Yt9uR2sBn4A"
