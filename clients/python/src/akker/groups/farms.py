"""Farms: the farms the key reaches, and their records."""
from __future__ import annotations

from typing import Iterator

from ..openapi import Farm, FarmCreate, FarmPage, FarmUpdate
from .base import Group, target


class Farms(Group):
    def list(self, *, organisation: str | None = None, limit: int = 50, offset: int = 0) -> FarmPage:
        """One page of the farms the key reaches, oldest first, each with the caller's `role`;
        `organisation`: only those shared with that organisation (its members only)."""
        return self._page("listFarms", organisation=organisation, limit=limit, offset=offset)

    def iter(self, *, organisation: str | None = None, page_size: int = 200) -> Iterator[Farm]:
        """Every farm the key reaches (or shared with `organisation`), page after page."""
        return self._each("listFarms", page_size=page_size, organisation=organisation)

    def get(self, farm_id: str) -> Farm:
        return self._api.record("getFarm", path={"b_id_farm": farm_id})

    def create(self, farm: FarmCreate, *, idempotency_key: str | None = None) -> Farm:
        """A new farm, of which the key's user is the owner."""
        return self._api.record("createFarm", body=farm, idempotency_key=idempotency_key)

    def update(self, farm: Farm | str, changes: FarmUpdate, *, if_match: str | None = None) -> Farm:
        """The farm after `changes`. Given a farm the client read, only if it has not changed since (else 412 precondition-failed)."""
        farm_id, version = target(farm, "b_id_farm", if_match)
        return self._api.record("updateFarm", path={"b_id_farm": farm_id}, body=changes, if_match=version)

    def delete(self, farm: Farm | str, *, if_match: str | None = None, missing_ok: bool = False) -> None:
        """Deletes the farm and everything on it, for good. `missing_ok`: a farm already gone is no error."""
        farm_id, version = target(farm, "b_id_farm", if_match)
        self._delete("deleteFarm", {"b_id_farm": farm_id}, version, missing_ok)
