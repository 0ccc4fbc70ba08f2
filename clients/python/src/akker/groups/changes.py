"""A farm's change feed, as an iterator that resumes from a saved cursor."""
from __future__ import annotations

from typing import Iterator

from ..api import Api
from ..openapi import Change, ChangePage
from ..paging import MAX_PAGE_SIZE
from .base import Group


class ChangeFeed:
    """The creates, updates and deletes of a farm's records after a cursor, in commit order.

    Iterating fetches page after page until the feed's end, and `cursor` moves past each page once all of
    its entries have been taken: save it (after the loop, or as you go) and pass it as `after` to resume
    there. Iterating again goes on from `cursor`, with the entries made since. An entry of a page that
    was not taken to its end is given again after a resume: apply entries so that twice is the same as
    once (fetch the record by id, drop the ids a tombstone lists). A cursor older than the feed keeps is
    AkkerError `cursor-expired` (410): read the farm afresh and follow a new feed.
    """

    def __init__(self, api: Api, farm_id: str, after: str | None, page_size: int) -> None:
        self._api = api
        self.farm_id = farm_id
        #: Where the next page starts: the `next` of the last page taken to its end (None: the oldest entry kept).
        self.cursor = after
        self._page_size = page_size
        api.operation("listChangesOfFarm").target({"b_id_farm": farm_id}, {"after": after, "limit": page_size})

    def page(self) -> ChangePage:
        """The page after `cursor`, without moving it."""
        return self._api.call(
            "listChangesOfFarm", path={"b_id_farm": self.farm_id}, query={"after": self.cursor, "limit": self._page_size}
        )[0]

    def __iter__(self) -> Iterator[Change]:
        while True:
            page = self.page()
            yield from page["data"]
            self.cursor = page["next"]
            if not page["has_more"]:
                return


class Changes(Group):
    def list(self, farm_id: str, *, after: str | None = None, limit: int = 50) -> ChangePage:
        """One page of the farm's change feed after the cursor `after`: `{data, next, has_more}`."""
        return self._page("listChangesOfFarm", {"b_id_farm": farm_id}, after=after, limit=limit)

    def feed(self, farm_id: str, *, after: str | None = None, page_size: int = MAX_PAGE_SIZE) -> ChangeFeed:
        """The farm's change feed from the cursor `after` (None: from the oldest entry kept)."""
        return ChangeFeed(self._api, farm_id, after, page_size)
