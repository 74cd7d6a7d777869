"""Players' mail across the nodes of a cluster on a real Redis (protocol.md 2.13): a player
connected to one node is sent no digest by another, and when two nodes each keep a game
waiting on a player who is away and both look for mail due at once, one digest goes,
listing both games."""

import asyncio

from parlour.protocol import messages as m
from parlour.protocol.players import new_key, player_id
from parlour.server import ParlourServer, ServerConfig, running_server
from parlour.server.cluster.node import ClusterNode
from tests.mailbox import Mailbox, text_of

from ..server.test_email import BOBS, code_in, othello, play, subject
from ..server.wsclient import Client
from .processes import RedisProcess

ANN_KEY, BOB_KEY, CY_KEY = new_key(), new_key(), new_key()
BOB = player_id(BOB_KEY)


def node_config(redis_url: str, smtp: str) -> ServerConfig:
    return ServerConfig(
        redis_url=redis_url,
        bot_workers=0,
        tick_interval=0.05,
        smtp=smtp,
        mail_from="games@example.org",
        mail_interval=3600.0,
    )


async def until_forgotten(node: ParlourServer, player: str) -> None:
    """Till no connection `node` knows of is `player`'s."""
    async with asyncio.timeout(10):
        while player in node.lobby.people.players.values():
            await asyncio.sleep(0.01)


async def present(node: ParlourServer, player: str) -> bool:
    keeper = node.keeper
    assert isinstance(keeper, ClusterNode)
    return await keeper.records.mail.present(player)


async def test_one_digest_goes_from_a_cluster_and_none_while_the_player_is_on_any_node(
    redis_server: RedisProcess, mailbox: Mailbox
) -> None:
    config = node_config(redis_server.url, mailbox.url)
    async with running_server(config) as first, running_server(config) as second:
        ann = await Client.open(first.port, "Ann", key=ANN_KEY)
        cy = await Client.open(second.port, "Cy", key=CY_KEY)
        bob = await Client.open(second.port, "Bob", key=BOB_KEY)
        idle = await Client.open(second.port, "Bob", key=BOB_KEY)
        assert bob.welcome is not None and bob.welcome.email
        assert isinstance(await bob.request(m.SetEmail(address=BOBS)), m.EmailReply)
        [mail] = await mailbox.wait_for(1)
        assert isinstance(await bob.request(m.VerifyEmail(code=code_in(mail))), m.EmailReply)

        here, code_here = await othello(ann, bob)
        there, code_there = await othello(cy, bob)
        assert here in first.lobby.rooms and there in second.lobby.rooms
        await play(first, ann, here)
        await play(second, cy, there)

        await bob.close()
        await until_forgotten(first, BOB)
        assert await present(first, BOB), "Bob's other connection, on the second node"
        await asyncio.gather(first.mail_round(), second.mail_round())
        assert len(mailbox.mails()) == 1, "Bob is connected: no digest from either node"

        await idle.close()
        await until_forgotten(second, BOB)
        async with asyncio.timeout(10):
            while await present(first, BOB):
                await asyncio.sleep(0.01)
        await asyncio.gather(first.mail_round(), second.mail_round())
        [_, digest] = mailbox.mails()
        assert subject(digest) == "Parlour at 127.0.0.1: 2 games wait for your move"
        text = text_of(digest)
        assert f"parlour join {code_here} " in text and f"parlour join {code_there} " in text
        await asyncio.gather(first.mail_round(), second.mail_round())
        assert len(mailbox.mails()) == 2, "sent once"
        for client in (ann, cy):
            await client.close()
