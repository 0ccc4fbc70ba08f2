"""Who has which role on a farm, and the farm's audit trail."""
from __future__ import annotations

from typing import Iterator

from ..openapi import AuditEntry, AuditPage, FarmAccessEntry, FarmAccessListEntry, FarmAccessPage, FarmOrganisationAccessEntry
from ..paging import MAX_PAGE_SIZE
from .base import Group


class Access(Group):
    def list(self, farm_id: str, *, limit: int = 50, offset: int = 0) -> FarmAccessPage:
        return self._page("listAccessOfFarm", {"b_id_farm": farm_id}, limit=limit, offset=offset)

    def iter(self, farm_id: str, *, page_size: int = MAX_PAGE_SIZE) -> Iterator[FarmAccessListEntry]:
        return self._each("listAccessOfFarm", {"b_id_farm": farm_id}, page_size=page_size)

    def grant(self, farm_id: str, email: str, role: str) -> FarmAccessEntry:
        """Gives `email` the role `role` (owner, advisor or researcher) on the farm, or changes it (owners only)."""
        return self._api.record("grantAccessToFarm", path={"b_id_farm": farm_id}, body={"email": email, "role": role})

    def revoke(self, farm_id: str, email: str, *, missing_ok: bool = False) -> None:
        self._delete("revokeAccessToFarm", {"b_id_farm": farm_id, "email": email}, None, missing_ok)

    def share(self, farm_id: str, organisation: str, role: str) -> FarmOrganisationAccessEntry:
        """Gives every member of `organisation` the role `role` (advisor or researcher) on the farm (owners only)."""
        return self._api.record("grantAccessToFarm", path={"b_id_farm": farm_id}, body={"organisation": organisation, "role": role})

    def unshare(self, farm_id: str, organisation: str, *, missing_ok: bool = False) -> None:
        self._delete("revokeOrganisationAccessToFarm", {"b_id_farm": farm_id, "org_id": organisation}, None, missing_ok)


class Audit(Group):
    def list(self, farm_id: str, *, limit: int = 50, offset: int = 0) -> AuditPage:
        """One page of the farm's changes, oldest first (owners only)."""
        return self._page("listAuditOfFarm", {"b_id_farm": farm_id}, limit=limit, offset=offset)

    def iter(self, farm_id: str, *, page_size: int = MAX_PAGE_SIZE) -> Iterator[AuditEntry]:
        return self._each("listAuditOfFarm", {"b_id_farm": farm_id}, page_size=page_size)
