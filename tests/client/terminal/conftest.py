"""Fixtures the terminal client's tests share."""

from collections.abc import AsyncIterator

import pytest

from parlour.client.connection import Connection
from parlour.protocol.players import new_key


@pytest.fixture
async def people(url: str) -> AsyncIterator[tuple[Connection, Connection]]:
    """Ann and Bob, players with keys (so that their games are rated), on the test's
    server."""
    ann = await Connection.open(url, "ann", key=new_key(), retry_delays=(0.05,))
    bob = await Connection.open(url, "bob", key=new_key(), retry_delays=(0.05,))
    yield ann, bob
    await bob.close()
    await ann.close()
