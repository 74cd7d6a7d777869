"""The database rooms are kept in: written, read back, migrated, and refused when unusable."""

import sqlite3
from pathlib import Path

import pytest

from parlour.server.store import (
    FILE_NAME,
    GUESTS,
    MIGRATIONS,
    SCHEMA_VERSION,
    Store,
    StoreError,
)


def record(room_id: str, moves: list[str]) -> dict[str, object]:
    return {"id": room_id, "moves": moves}


def test_rooms_are_written_updated_closed_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    store = Store(path)
    store.save([record("a", []), record("b", ["d3"])])
    store.save([record("a", ["c4", "e3"])], closed=["b"])
    store.close()
    again = Store(path)
    found = again.load()
    again.close()
    assert [(item.room_id, item.record) for item in found] == [("a", record("a", ["c4", "e3"]))]


def test_a_new_database_gets_the_current_schema_and_wal(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    Store(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    db.close()


def test_a_database_from_a_newer_parlour_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="newer Parlour"):
        Store(path)
    assert path.read_bytes() == before


def test_a_file_that_is_not_a_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    path.write_bytes(b"\x00garbage" * 512)
    with pytest.raises(StoreError, match="cannot use"):
        Store(path)
    assert path.read_bytes() == b"\x00garbage" * 512


def test_a_damaged_row_is_reported_and_the_others_still_read(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    store = Store(path)
    store.save([record("good", ["d3"]), record("bad", [])])
    store.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE rooms SET record = '{\"id\": \"bad\", ' WHERE id = 'bad'")
    db.execute("INSERT INTO rooms VALUES ('list', '[1, 2]', 0)")
    db.commit()
    db.close()
    found = {item.room_id: item for item in Store(path).load()}
    assert found["good"].record == record("good", ["d3"])
    assert found["bad"].record is None
    assert found["bad"].problem is not None
    assert "unreadable record" in found["bad"].problem
    assert found["list"].problem == "unreadable record: the record is not a JSON object"


def test_an_older_database_is_migrated_and_keeps_its_rooms(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    db = sqlite3.connect(path)
    db.execute(MIGRATIONS[0][0])
    db.execute('INSERT INTO rooms VALUES (\'old\', \'{"id": "old", "moves": ["d3"]}\', 1.0)')
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    store = Store(path)
    assert [(item.room_id, item.record) for item in store.load()] == [
        ("old", {"id": "old", "moves": ["d3"]})
    ]
    assert store.score_card("othello", None)["games"] == 0
    assert store.list_saves(GUESTS, None) == []
    store.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    db.close()


def test_finished_games_kept_before_the_players_list_stay_in_their_players_lists(
    tmp_path: Path,
) -> None:
    path = tmp_path / FILE_NAME
    db = sqlite3.connect(path)
    players_list = next(
        number
        for number, statements in enumerate(MIGRATIONS)
        if any("CREATE TABLE result_players" in statement for statement in statements)
    )
    for number in range(players_list):
        for statement in MIGRATIONS[number]:
            db.execute(statement)
    db.execute(
        "INSERT INTO results (id, room, game, preset, board, moves, stood_in, finished_at,"
        " version, record) VALUES (1, 'r', 'othello', 'standard', 1, 60, 0, 5.0, 60, 'x')"
    )
    db.execute(
        "INSERT INTO result_seats (result, colour, kind, name, outcome, score, player)"
        " VALUES (1, 'black', 'human', 'Ann', 'win', 40, 'p-ann')"
    )
    db.execute(f"PRAGMA user_version = {players_list}")
    db.commit()
    db.close()
    store = Store(path)
    assert [game["record"] for game in store.finished_games("p-ann")] == ["r.60"]
    store.close()


def test_writes_go_to_the_log_and_a_checkpoint_folds_them_in(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    store = Store(path)
    before = path.stat().st_size
    store.save([record(f"room{n}", ["d3"] * 50) for n in range(200)])
    assert path.stat().st_size == before
    assert (tmp_path / f"{FILE_NAME}-wal").stat().st_size > 0
    store.checkpoint()
    assert path.stat().st_size > before
    store.close()
    assert not (tmp_path / f"{FILE_NAME}-wal").exists() or (
        (tmp_path / f"{FILE_NAME}-wal").stat().st_size == 0
    )
    assert len(Store(path).load()) == 200
