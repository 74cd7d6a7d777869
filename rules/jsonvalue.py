"""The type of JSON-compatible values: what observations and descriptions are made of."""

from typing import TypeAlias

JsonValue: TypeAlias = bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"] | None
