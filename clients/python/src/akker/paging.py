"""Every item of a paged list, one request per page."""
from __future__ import annotations

from typing import Any, Callable, Iterator

from .errors import AkkerError

#: The largest page the API serves.
MAX_PAGE_SIZE = 200


def each_item(fetch: Callable[[int], Any], items: str = "data") -> Iterator[Any]:
    """The items of the pages `fetch(offset)` answers, page after page, until the list's end.

    A page says where the next one starts by `pagination.next_offset` when it has that member (a page
    cut by size, such as a farm's fields as GeoJSON, may hold fewer than its limit), else the next
    starts after its items. Lists are in creation order: items created meanwhile come at the end; an
    item deleted meanwhile shifts the later pages, so one item may be skipped (follow the change feed
    to see every change).
    """
    offset = 0
    while True:
        page = fetch(offset)
        data = page[items]
        yield from data
        pagination = page["pagination"]
        if "next_offset" in pagination:
            following = pagination["next_offset"]
            if following is None:
                return
        else:
            following = offset + len(data)
            if len(data) == 0 or following >= pagination["total"]:
                return
        if following <= offset:
            raise AkkerError("unexpected-answer", f"a page at offset {offset} points back to offset {following}")
        offset = following
