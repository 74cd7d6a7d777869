"""The Parlour game server: the only code that touches sockets on the server side."""

from .app import ParlourServer, ServerConfig
from .lobby import Lobby
from .serve import running_server
from .services import Limits

__all__ = ["Limits", "Lobby", "ParlourServer", "ServerConfig", "running_server"]
