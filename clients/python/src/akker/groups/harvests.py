"""Harvests of a cultivation."""
from __future__ import annotations

from typing import Iterator

from ..openapi import Harvest, HarvestCreate, HarvestPage, HarvestUpdate
from ..operation import Day
from ..paging import MAX_PAGE_SIZE
from .base import Group, target


class Harvests(Group):
    def list(self, b_lu: str, *, start: Day | None = None, end: Day | None = None, limit: int = 50, offset: int = 0) -> HarvestPage:
        """One page of a cultivation's harvests; `start`/`end`: those harvested in the window."""
        return self._page("listHarvestsOfCultivation", {"b_lu": b_lu}, start=start, end=end, limit=limit, offset=offset)

    def iter(self, b_lu: str, *, start: Day | None = None, end: Day | None = None, page_size: int = MAX_PAGE_SIZE) -> Iterator[Harvest]:
        return self._each("listHarvestsOfCultivation", {"b_lu": b_lu}, page_size=page_size, start=start, end=end)

    def get(self, harvest_id: str) -> Harvest:
        return self._api.record("getHarvest", path={"b_id_harvesting": harvest_id})

    def create(self, b_lu: str, harvest: HarvestCreate, *, idempotency_key: str | None = None) -> Harvest:
        return self._api.record("createHarvestOnCultivation", path={"b_lu": b_lu}, body=harvest, idempotency_key=idempotency_key)

    def update(self, harvest: Harvest | str, changes: HarvestUpdate, *, if_match: str | None = None) -> Harvest:
        harvest_id, version = target(harvest, "b_id_harvesting", if_match)
        return self._api.record("updateHarvest", path={"b_id_harvesting": harvest_id}, body=changes, if_match=version)

    def delete(self, harvest: Harvest | str, *, if_match: str | None = None, missing_ok: bool = False) -> None:
        harvest_id, version = target(harvest, "b_id_harvesting", if_match)
        self._delete("deleteHarvest", {"b_id_harvesting": harvest_id}, version, missing_ok)
