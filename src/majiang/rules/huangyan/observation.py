"""Huangyan's part of an observation: the raw-tile phase, the dealer count and the thrown
bullets in force, public facts that Guobiao has not."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base import TableView


@dataclass(frozen=True, slots=True)
class HuangyanObservation:
    """The :class:`~majiang.rules.base.ObservationExtension` of a Huangyan table."""

    late: bool
    """The raw-tile phase (生牌阶段) has begun."""
    dealer_count: int
    """The dealer's hands in a row, this one included (庄数)."""
    thrown: tuple[int, ...]
    """Thrown bullets each seat has accepted from the dealer (this dealership)."""

    @classmethod
    def of(cls, table: TableView) -> HuangyanObservation:
        """The table's state now."""
        return cls(table.late, table.dealer_count, tuple(table.thrown))

    def to_json(self) -> dict[str, Any]:
        """The fields a Huangyan observation has always had on the wire."""
        return {
            "raw_phase": self.late,
            "dealer_count": self.dealer_count,
            "thrown": list(self.thrown),
        }
