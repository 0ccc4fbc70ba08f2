"""The API keys of the key's user."""
from __future__ import annotations

import datetime
from typing import Any, Iterator, Sequence

from ..openapi import ApiKey, ApiKeyPage, CreatedApiKey
from ..paging import MAX_PAGE_SIZE
from .base import Group


class Keys(Group):
    def list(self, *, limit: int = 50, offset: int = 0) -> ApiKeyPage:
        """One page of the user's active keys (metadata only)."""
        return self._page("listApiKeys", limit=limit, offset=offset)

    def iter(self, *, page_size: int = MAX_PAGE_SIZE) -> Iterator[ApiKey]:
        return self._each("listApiKeys", page_size=page_size)

    def create(
        self,
        name: str,
        *,
        expires_at: datetime.datetime | str | None = None,
        access: str | None = None,
        farms: Sequence[str] | None = None,
    ) -> CreatedApiKey:
        """A new key; its raw `key` is in this answer only. `access`: "read" for a key that only reads and
        calculates; `farms`: the farms it reaches (default: all its user reaches)."""
        body: dict[str, Any] = {"name": name}
        for member, value in (("expires_at", expires_at), ("access", access), ("farms", None if farms is None else list(farms))):
            if value is not None:
                body[member] = value
        return self._api.record("createApiKey", body=body)

    def revoke(self, key_id: str, *, missing_ok: bool = False) -> None:
        """Revokes a key: every later request with it is 401."""
        self._delete("revokeApiKey", {"id": key_id}, None, missing_ok)
