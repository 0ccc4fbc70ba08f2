"""Organisations: groups of users that farms are shared with as a whole, their members and trail."""
from __future__ import annotations

from typing import Iterator

from ..openapi import (
    Organisation,
    OrganisationAuditEntry,
    OrganisationAuditPage,
    OrganisationInput,
    OrganisationMember,
    OrganisationMemberPage,
    OrganisationPage,
)
from ..paging import MAX_PAGE_SIZE
from .base import Group, target


class Organisations(Group):
    def list(self, *, limit: int = 50, offset: int = 0) -> OrganisationPage:
        """One page of the organisations the key's user is a member of, each with their `role` in it."""
        return self._page("listOrganisations", limit=limit, offset=offset)

    def iter(self, *, page_size: int = MAX_PAGE_SIZE) -> Iterator[Organisation]:
        return self._each("listOrganisations", page_size=page_size)

    def get(self, org_id: str) -> Organisation:
        return self._api.record("getOrganisation", path={"org_id": org_id})

    def create(self, organisation: OrganisationInput, *, idempotency_key: str | None = None) -> Organisation:
        """A new organisation, of which the key's user is the owner."""
        return self._api.record("createOrganisation", body=organisation, idempotency_key=idempotency_key)

    def update(self, organisation: Organisation | str, changes: OrganisationInput, *, if_match: str | None = None) -> Organisation:
        org_id, version = target(organisation, "id", if_match)
        return self._api.record("updateOrganisation", path={"org_id": org_id}, body=changes, if_match=version)

    def delete(self, organisation: Organisation | str, *, if_match: str | None = None, missing_ok: bool = False) -> None:
        """Deletes the organisation with its memberships and its roles on farms (never the farms)."""
        org_id, version = target(organisation, "id", if_match)
        self._delete("deleteOrganisation", {"org_id": org_id}, version, missing_ok)

    def members(self, org_id: str, *, limit: int = 50, offset: int = 0) -> OrganisationMemberPage:
        return self._page("listOrganisationMembers", {"org_id": org_id}, limit=limit, offset=offset)

    def iter_members(self, org_id: str, *, page_size: int = MAX_PAGE_SIZE) -> Iterator[OrganisationMember]:
        return self._each("listOrganisationMembers", {"org_id": org_id}, page_size=page_size)

    def set_member(self, org_id: str, email: str, role: str) -> OrganisationMember:
        """Adds `email` as a member with `role` (owner, admin or member), or changes their role."""
        return self._api.record("putOrganisationMember", path={"org_id": org_id}, body={"email": email, "role": role})

    def remove_member(self, org_id: str, email: str, *, missing_ok: bool = False) -> None:
        self._delete("removeOrganisationMember", {"org_id": org_id, "email": email}, None, missing_ok)

    def audit(self, org_id: str, *, limit: int = 50, offset: int = 0) -> OrganisationAuditPage:
        """One page of the organisation's membership and sharing changes (owners and admins)."""
        return self._page("listOrganisationAudit", {"org_id": org_id}, limit=limit, offset=offset)

    def iter_audit(self, org_id: str, *, page_size: int = MAX_PAGE_SIZE) -> Iterator[OrganisationAuditEntry]:
        return self._each("listOrganisationAudit", {"org_id": org_id}, page_size=page_size)
