"""Cultivations: the crops on a field."""
from __future__ import annotations

from typing import Iterator

from ..openapi import Cultivation, CultivationCreate, CultivationPage, CultivationUpdate
from ..operation import Day
from ..paging import MAX_PAGE_SIZE
from .base import Group, target


class Cultivations(Group):
    def list(self, field_id: str, *, start: Day | None = None, end: Day | None = None, limit: int = 50, offset: int = 0) -> CultivationPage:
        """One page of a field's cultivations; `start`/`end`: those whose period overlaps the window."""
        return self._page("listCultivationsOfField", {"b_id": field_id}, start=start, end=end, limit=limit, offset=offset)

    def iter(self, field_id: str, *, start: Day | None = None, end: Day | None = None, page_size: int = MAX_PAGE_SIZE) -> Iterator[Cultivation]:
        return self._each("listCultivationsOfField", {"b_id": field_id}, page_size=page_size, start=start, end=end)

    def iter_farm(
        self, farm_id: str, *, start: Day | None = None, end: Day | None = None, page_size: int = MAX_PAGE_SIZE
    ) -> Iterator[Cultivation]:
        """Every cultivation of every field of a farm, with the field list's date rules."""
        return self._each("listCultivationsOfFarm", {"b_id_farm": farm_id}, page_size=page_size, start=start, end=end)

    def get(self, b_lu: str) -> Cultivation:
        return self._api.record("getCultivation", path={"b_lu": b_lu})

    def create(self, field_id: str, cultivation: CultivationCreate, *, idempotency_key: str | None = None) -> Cultivation:
        return self._api.record("createCultivationOnField", path={"b_id": field_id}, body=cultivation, idempotency_key=idempotency_key)

    def update(self, cultivation: Cultivation | str, changes: CultivationUpdate, *, if_match: str | None = None) -> Cultivation:
        b_lu, version = target(cultivation, "b_lu", if_match)
        return self._api.record("updateCultivation", path={"b_lu": b_lu}, body=changes, if_match=version)

    def delete(self, cultivation: Cultivation | str, *, if_match: str | None = None, missing_ok: bool = False) -> None:
        """Deletes the cultivation with its harvests (its field's fertilizer applications stay)."""
        b_lu, version = target(cultivation, "b_lu", if_match)
        self._delete("deleteCultivation", {"b_lu": b_lu}, version, missing_ok)
