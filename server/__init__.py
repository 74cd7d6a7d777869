"""The Parlour game server: the only code that touches sockets on the server side."""

from .app import ParlourServer, ServerConfig, running_server
from .lobby import Limits, Lobby

__all__ = ["Limits", "Lobby", "ParlourServer", "ServerConfig", "running_server"]
