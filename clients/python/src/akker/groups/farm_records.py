"""A farm's records of a year (derogations, grazing intentions) and its organic certifications."""
from __future__ import annotations

from typing import Iterator

from ..openapi import (
    Derogation,
    DerogationPage,
    GrazingIntention,
    GrazingIntentionPage,
    OrganicCertification,
    OrganicCertificationCreate,
    OrganicCertificationPage,
)
from ..paging import MAX_PAGE_SIZE
from .base import Group


class Derogations(Group):
    def list(self, farm_id: str, *, limit: int = 50, offset: int = 0) -> DerogationPage:
        return self._page("listDerogationsOfFarm", {"b_id_farm": farm_id}, limit=limit, offset=offset)

    def iter(self, farm_id: str, *, page_size: int = MAX_PAGE_SIZE) -> Iterator[Derogation]:
        return self._each("listDerogationsOfFarm", {"b_id_farm": farm_id}, page_size=page_size)

    def hold(self, farm_id: str, year: int) -> Derogation:
        """Records that the farm holds a derogation for `year` (nothing changes when it held it already)."""
        return self._api.record("holdDerogationOfFarm", path={"b_id_farm": farm_id, "year": year})

    def delete(self, farm_id: str, year: int, *, missing_ok: bool = False) -> None:
        self._delete("deleteDerogationOfFarm", {"b_id_farm": farm_id, "year": year}, None, missing_ok)


class GrazingIntentions(Group):
    def list(self, farm_id: str, *, limit: int = 50, offset: int = 0) -> GrazingIntentionPage:
        return self._page("listGrazingIntentionsOfFarm", {"b_id_farm": farm_id}, limit=limit, offset=offset)

    def iter(self, farm_id: str, *, page_size: int = MAX_PAGE_SIZE) -> Iterator[GrazingIntention]:
        return self._each("listGrazingIntentionsOfFarm", {"b_id_farm": farm_id}, page_size=page_size)

    def set(self, farm_id: str, year: int, intention: bool) -> GrazingIntention:
        """Whether the farm intends to graze its animals in `year`."""
        return self._api.record(
            "setGrazingIntentionOfFarm", path={"b_id_farm": farm_id, "year": year}, body={"b_grazing_intention": intention}
        )


class OrganicCertifications(Group):
    def list(self, farm_id: str, *, limit: int = 50, offset: int = 0) -> OrganicCertificationPage:
        return self._page("listOrganicCertificationsOfFarm", {"b_id_farm": farm_id}, limit=limit, offset=offset)

    def iter(self, farm_id: str, *, page_size: int = MAX_PAGE_SIZE) -> Iterator[OrganicCertification]:
        return self._each("listOrganicCertificationsOfFarm", {"b_id_farm": farm_id}, page_size=page_size)

    def get(self, certification_id: str) -> OrganicCertification:
        return self._api.record("getOrganicCertification", path={"b_id_organic": certification_id})

    def create(
        self, farm_id: str, certification: OrganicCertificationCreate, *, idempotency_key: str | None = None
    ) -> OrganicCertification:
        return self._api.record(
            "createOrganicCertificationOfFarm", path={"b_id_farm": farm_id}, body=certification, idempotency_key=idempotency_key
        )

    def delete(self, certification: OrganicCertification | str, *, missing_ok: bool = False) -> None:
        certification_id = certification if isinstance(certification, str) else certification["b_id_organic"]
        self._delete("deleteOrganicCertification", {"b_id_organic": certification_id}, None, missing_ok)
