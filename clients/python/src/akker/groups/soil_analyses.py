"""Soil analyses of a field, and its current soil data."""
from __future__ import annotations

from typing import Iterator

from ..openapi import CurrentSoilData, SoilAnalysis, SoilAnalysisCreate, SoilAnalysisPage, SoilAnalysisUpdate
from ..operation import Day
from ..paging import MAX_PAGE_SIZE
from .base import Group, target


class SoilAnalyses(Group):
    def list(self, field_id: str, *, start: Day | None = None, end: Day | None = None, limit: int = 50, offset: int = 0) -> SoilAnalysisPage:
        """One page of a field's soil analyses; `start`/`end`: those sampled in the window."""
        return self._page("listSoilAnalysesOfField", {"b_id": field_id}, start=start, end=end, limit=limit, offset=offset)

    def iter(self, field_id: str, *, start: Day | None = None, end: Day | None = None, page_size: int = MAX_PAGE_SIZE) -> Iterator[SoilAnalysis]:
        return self._each("listSoilAnalysesOfField", {"b_id": field_id}, page_size=page_size, start=start, end=end)

    def iter_farm(
        self, farm_id: str, *, start: Day | None = None, end: Day | None = None, page_size: int = MAX_PAGE_SIZE
    ) -> Iterator[SoilAnalysis]:
        """Every soil analysis of every field of a farm; `start`/`end`: those sampled in the window."""
        return self._each("listSoilAnalysesOfFarm", {"b_id_farm": farm_id}, page_size=page_size, start=start, end=end)

    def get(self, a_id: str) -> SoilAnalysis:
        return self._api.record("getSoilAnalysis", path={"a_id": a_id})

    def create(self, field_id: str, analysis: SoilAnalysisCreate, *, idempotency_key: str | None = None) -> SoilAnalysis:
        return self._api.record("createSoilAnalysisOnField", path={"b_id": field_id}, body=analysis, idempotency_key=idempotency_key)

    def update(self, analysis: SoilAnalysis | str, changes: SoilAnalysisUpdate, *, if_match: str | None = None) -> SoilAnalysis:
        a_id, version = target(analysis, "a_id", if_match)
        return self._api.record("updateSoilAnalysis", path={"a_id": a_id}, body=changes, if_match=version)

    def delete(self, analysis: SoilAnalysis | str, *, if_match: str | None = None, missing_ok: bool = False) -> None:
        a_id, version = target(analysis, "a_id", if_match)
        self._delete("deleteSoilAnalysis", {"a_id": a_id}, version, missing_ok)

    def current(self, field_id: str) -> CurrentSoilData:
        """For each soil parameter of the field, its newest value and the analysis it comes from."""
        return self._api.record("getCurrentSoilDataOfField", path={"b_id": field_id})
