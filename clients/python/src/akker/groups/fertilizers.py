"""Fertilizers a farm has acquired from the catalogues, and their applications on fields."""
from __future__ import annotations

from typing import Iterator

from ..openapi import (
    FarmFertilizer,
    FarmFertilizerCreate,
    FarmFertilizerPage,
    FertilizerApplication,
    FertilizerApplicationCreate,
    FertilizerApplicationPage,
    FertilizerApplicationUpdate,
)
from ..operation import Day
from ..paging import MAX_PAGE_SIZE
from .base import Group, target


class Fertilizers(Group):
    def list(self, farm_id: str, *, limit: int = 50, offset: int = 0) -> FarmFertilizerPage:
        return self._page("listFertilizersOfFarm", {"b_id_farm": farm_id}, limit=limit, offset=offset)

    def iter(self, farm_id: str, *, page_size: int = MAX_PAGE_SIZE) -> Iterator[FarmFertilizer]:
        return self._each("listFertilizersOfFarm", {"b_id_farm": farm_id}, page_size=page_size)

    def get(self, p_id: str) -> FarmFertilizer:
        return self._api.record("getFertilizer", path={"p_id": p_id})

    def acquire(self, farm_id: str, fertilizer: FarmFertilizerCreate, *, idempotency_key: str | None = None) -> FarmFertilizer:
        """The farm's own record of a catalogue product (`p_id_catalogue`)."""
        return self._api.record("acquireFertilizerForFarm", path={"b_id_farm": farm_id}, body=fertilizer, idempotency_key=idempotency_key)

    def delete(self, fertilizer: FarmFertilizer | str, *, missing_ok: bool = False) -> None:
        """Deletes the farm's fertilizer; one still applied is 409 conflict."""
        p_id = fertilizer if isinstance(fertilizer, str) else fertilizer["p_id"]
        self._delete("deleteFertilizer", {"p_id": p_id}, None, missing_ok)


class FertilizerApplications(Group):
    def list(self, field_id: str, *, start: Day | None = None, end: Day | None = None, limit: int = 50, offset: int = 0) -> FertilizerApplicationPage:
        """One page of a field's fertilizer applications; `start`/`end`: those applied in the window."""
        return self._page("listFertilizerApplicationsOfField", {"b_id": field_id}, start=start, end=end, limit=limit, offset=offset)

    def iter(
        self, field_id: str, *, start: Day | None = None, end: Day | None = None, page_size: int = MAX_PAGE_SIZE
    ) -> Iterator[FertilizerApplication]:
        return self._each("listFertilizerApplicationsOfField", {"b_id": field_id}, page_size=page_size, start=start, end=end)

    def get(self, p_app_id: str) -> FertilizerApplication:
        return self._api.record("getFertilizerApplication", path={"p_app_id": p_app_id})

    def create(self, field_id: str, application: FertilizerApplicationCreate, *, idempotency_key: str | None = None) -> FertilizerApplication:
        return self._api.record(
            "createFertilizerApplicationOnField", path={"b_id": field_id}, body=application, idempotency_key=idempotency_key
        )

    def update(
        self, application: FertilizerApplication | str, changes: FertilizerApplicationUpdate, *, if_match: str | None = None
    ) -> FertilizerApplication:
        p_app_id, version = target(application, "p_app_id", if_match)
        return self._api.record("updateFertilizerApplication", path={"p_app_id": p_app_id}, body=changes, if_match=version)

    def delete(self, application: FertilizerApplication | str, *, if_match: str | None = None, missing_ok: bool = False) -> None:
        p_app_id, version = target(application, "p_app_id", if_match)
        self._delete("deleteFertilizerApplication", {"p_app_id": p_app_id}, version, missing_ok)
