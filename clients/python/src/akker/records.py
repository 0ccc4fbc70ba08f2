"""Records as the API answers them: plain dicts, and the ETag of the version read, which updates and
deletes send back as If-Match."""
from __future__ import annotations

from typing import Any


class Record(dict):  # type: ignore[type-arg]
    """A record read, created or updated: a dict of its members, with `etag`, the answer's ETag."""

    def __init__(self, members: dict[str, Any], etag: str | None) -> None:
        super().__init__(members)
        self.etag = etag


def etag(record: Any) -> str | None:
    """The ETag of a record the client read (get), created or updated; None for any other dict (a list's items have none)."""
    return record.etag if isinstance(record, Record) else None
