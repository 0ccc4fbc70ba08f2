"""What the groups of operations share: a page, every item of a list, a record's version."""
from __future__ import annotations

from typing import Any, Iterator, Mapping

from ..api import Api
from ..errors import AkkerError
from ..paging import MAX_PAGE_SIZE, each_item
from ..records import Record


def target(record_or_id: Any, id_member: str, if_match: str | None) -> tuple[str, str | None]:
    """The identifier to write to and the If-Match to send: a record the client read, created or
    updated names its version by its ETag; an identifier names no version unless `if_match` does."""
    if isinstance(record_or_id, str):
        return record_or_id, if_match
    if isinstance(record_or_id, Mapping):
        if if_match is not None:
            raise ValueError("if_match goes with an identifier: a record names its version itself")
        if not isinstance(record_or_id, Record) or record_or_id.etag is None:
            raise ValueError(
                "this record carries no ETag (the items of a list have none): read it with get() first, "
                f"or pass its {id_member} to write without a precondition"
            )
        return record_or_id[id_member], record_or_id.etag
    raise TypeError(f"expected a record or its {id_member}, not {type(record_or_id).__name__}")


class Group:
    """The operations of one kind of record."""

    def __init__(self, api: Api) -> None:
        self._api = api

    def _page(self, operation_id: str, path: Mapping[str, Any] | None = None, **query: Any) -> Any:
        return self._api.call(operation_id, path=path, query=query)[0]

    def _each(self, operation_id: str, path: Mapping[str, Any] | None = None, *, page_size: int = MAX_PAGE_SIZE, **query: Any) -> Iterator[Any]:
        # Checked now: a generator's body runs only when its first item is asked for.
        self._api.operation(operation_id).target(path or {}, {**query, "limit": page_size, "offset": 0})
        return each_item(lambda offset: self._page(operation_id, path, limit=page_size, offset=offset, **query))

    def _delete(self, operation_id: str, path: Mapping[str, Any], if_match: str | None, missing_ok: bool) -> None:
        try:
            self._api.call(operation_id, path=path, if_match=if_match)
        except AkkerError as error:
            if not (missing_ok and error.code == "not-found"):
                raise
