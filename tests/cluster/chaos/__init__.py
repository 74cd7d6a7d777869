"""A chaos harness for the Redis cluster: rooms played on a cluster whose nodes reach Redis
through proxies, real faults injected one a round, and everything any client was shown
recorded and checked against what the cluster kept.

`Chaos(settings, folder).run(kinds)` does it all and returns a `Report`."""

from .judge import FinalView, SeatCheck, judge
from .record import Ack, Heard, Recorder, Round
from .report import CHECKS, Report
from .run import Chaos
from .settings import KINDS, Fault, Settings, schedule

__all__ = [
    "CHECKS",
    "KINDS",
    "Ack",
    "Chaos",
    "Fault",
    "FinalView",
    "Heard",
    "Recorder",
    "Report",
    "Round",
    "SeatCheck",
    "Settings",
    "judge",
    "schedule",
]
