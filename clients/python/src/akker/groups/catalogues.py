"""The crop (BRP) and fertilizer (SRM, BAAT) catalogues."""
from __future__ import annotations

from typing import Iterator

from ..openapi import CatalogueCrop, CatalogueCropPage, CatalogueFertilizer, CatalogueFertilizerPage
from ..paging import MAX_PAGE_SIZE
from .base import Group


class Catalogues(Group):
    def cultivations(self, *, q: str | None = None, limit: int = 50, offset: int = 0) -> CatalogueCropPage:
        """One page of the crop catalogue; `q`: a case-insensitive part of a name or code."""
        return self._page("listCultivationCatalogue", q=q, limit=limit, offset=offset)

    def iter_cultivations(self, *, q: str | None = None, page_size: int = MAX_PAGE_SIZE) -> Iterator[CatalogueCrop]:
        return self._each("listCultivationCatalogue", page_size=page_size, q=q)

    def fertilizers(self, *, q: str | None = None, limit: int = 50, offset: int = 0) -> CatalogueFertilizerPage:
        """One page of the fertilizer catalogue; `q`: a case-insensitive part of a name or code."""
        return self._page("listFertilizerCatalogue", q=q, limit=limit, offset=offset)

    def iter_fertilizers(self, *, q: str | None = None, page_size: int = MAX_PAGE_SIZE) -> Iterator[CatalogueFertilizer]:
        return self._each("listFertilizerCatalogue", page_size=page_size, q=q)
