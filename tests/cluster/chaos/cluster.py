"""The cluster of a chaos run: one redis-server (every write synced) and N `parlour serve
--redis` nodes, each reaching Redis through its own `TcpProxy`, a killed node replaced."""

import asyncio
from dataclasses import dataclass
from pathlib import Path

from ..processes import Node, RedisProcess, start_node
from ..proxy import TcpProxy
from .settings import Settings


@dataclass
class Slot:
    """One node's place in the cluster: its proxy to Redis and the node there now."""

    number: int
    proxy: TcpProxy
    node: Node
    started: int = 1
    down: bool = False
    """Paused or cut off from Redis: new connections go elsewhere."""

    @property
    def live(self) -> bool:
        return self.node.process.returncode is None

    @property
    def name(self) -> str:
        return f"node {self.number}"


class Cluster:
    """Redis, and N nodes, each reaching Redis through its own proxy; logs in `folder`."""

    def __init__(self, folder: Path, settings: Settings) -> None:
        self.folder = folder
        self.settings = settings
        self.redis = RedisProcess(folder / "redis")
        self.slots: list[Slot] = []
        self._proxies: list[TcpProxy] = []

    async def start(self) -> None:
        """Start Redis, the proxies and the nodes; if one fails, what started is kept
        in `slots` for `stop`, and the failure raised."""
        self.folder.mkdir(parents=True, exist_ok=True)
        await self.redis.start()
        proxies = [TcpProxy("127.0.0.1", self.redis.port) for _ in range(self.settings.nodes)]
        for proxy in proxies:
            await proxy.start()
        self._proxies = proxies
        nodes = await asyncio.gather(
            *(self._node(number, proxy, 1) for number, proxy in enumerate(proxies, 1)),
            return_exceptions=True,
        )
        self.slots = [
            Slot(number, proxy, node)
            for number, (proxy, node) in enumerate(zip(proxies, nodes, strict=True), 1)
            if isinstance(node, Node)
        ]
        for failed in nodes:
            if isinstance(failed, BaseException):
                raise failed

    def log(self, number: int, generation: int) -> Path:
        """The log of the `generation`th node started in place `number`."""
        return self.folder / f"node-{number}-{generation}.log"

    async def _node(self, number: int, proxy: TcpProxy, generation: int) -> Node:
        """A node through `proxy`, logging to a file of its own."""
        return await start_node(
            f"redis://127.0.0.1:{proxy.port}/0",
            "--lease",
            f"{self.settings.lease:g}",
            "--bot-workers",
            str(self.settings.bot_workers),
            log=self.log(number, generation),
        )

    async def replace(self, slot: Slot) -> None:
        """Start a new node in the place of a killed one, through the same proxy."""
        slot.started += 1
        slot.node = await self._node(slot.number, slot.proxy, slot.started)

    def ports(self, avoid: int | None = None) -> list[int]:
        """The ports of the live nodes that are neither paused nor cut off, `avoid` last."""
        ports = [slot.node.port for slot in self.slots if slot.live and not slot.down]
        return sorted(ports, key=lambda port: port == avoid)

    async def stop(self) -> None:
        """Stop every node (waking a paused one), the proxies, and Redis."""
        await asyncio.gather(*(slot.node.stop() for slot in self.slots), return_exceptions=True)
        for proxy in self._proxies:
            await proxy.close()
        await self.redis.kill()
