"""Fields: the parcels of a farm, as records, as GeoJSON features and as (Geo)DataFrames."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from ..openapi import Field, FieldCreate, FieldFeature, FieldPage, FieldSummary, FieldUpdate
from ..operation import Day
from ..paging import MAX_PAGE_SIZE, each_item
from .base import Group, target

if TYPE_CHECKING:
    import geopandas
    import pandas

_GEOJSON = "application/geo+json"


class Fields(Group):
    def list(self, farm_id: str, *, start: Day | None = None, end: Day | None = None, limit: int = 50, offset: int = 0) -> FieldPage:
        """One page of a farm's fields (without geometry); `start`/`end`: those whose period overlaps the window."""
        return self._page("listFieldsOfFarm", {"b_id_farm": farm_id}, start=start, end=end, limit=limit, offset=offset)

    def iter(self, farm_id: str, *, start: Day | None = None, end: Day | None = None, page_size: int = MAX_PAGE_SIZE) -> Iterator[FieldSummary]:
        """Every field of a farm (without geometry), page after page."""
        return self._each("listFieldsOfFarm", {"b_id_farm": farm_id}, page_size=page_size, start=start, end=end)

    def features(
        self,
        farm_id: str,
        *,
        start: Day | None = None,
        end: Day | None = None,
        geometry: str | None = None,
        page_size: int = MAX_PAGE_SIZE,
    ) -> Iterator[FieldFeature]:
        """Every field of a farm as a GeoJSON Feature (WGS 84), page after page; `geometry`: full, simplified or none."""
        path = {"b_id_farm": farm_id}
        query: dict[str, Any] = {"start": start, "end": end, "geometry": geometry, "limit": page_size}
        self._api.operation("listFieldsOfFarm").target(path, {**query, "offset": 0})

        def page(offset: int) -> Any:
            return self._api.call("listFieldsOfFarm", path=path, query={**query, "offset": offset}, accept=_GEOJSON)[0]

        return each_item(page, items="features")

    def get(self, field_id: str, *, geometry: str | None = None) -> Field:
        return self._api.record("getField", path={"b_id": field_id}, query={"geometry": geometry})

    def create(self, farm_id: str, field: FieldCreate, *, idempotency_key: str | None = None) -> Field:
        return self._api.record("createFieldOnFarm", path={"b_id_farm": farm_id}, body=field, idempotency_key=idempotency_key)

    def update(self, field: Field | str, changes: FieldUpdate, *, if_match: str | None = None) -> Field:
        field_id, version = target(field, "b_id", if_match)
        return self._api.record("updateField", path={"b_id": field_id}, body=changes, if_match=version)

    def delete(self, field: Field | str, *, if_match: str | None = None, missing_ok: bool = False) -> None:
        """Deletes the field with its cultivations, harvests, soil analyses and applications, for good."""
        field_id, version = target(field, "b_id", if_match)
        self._delete("deleteField", {"b_id": field_id}, version, missing_ok)

    def frame(self, farm_id: str, *, start: Day | None = None, end: Day | None = None) -> pandas.DataFrame:
        """Every field of a farm as a pandas DataFrame indexed by b_id (needs pandas)."""
        from ..frames import records_frame

        return records_frame(self.iter(farm_id, start=start, end=end), index="b_id")

    def geoframe(self, farm_id: str, *, start: Day | None = None, end: Day | None = None, geometry: str | None = None) -> geopandas.GeoDataFrame:
        """Every field of a farm as a GeoPandas GeoDataFrame in EPSG:4326, indexed by b_id (needs geopandas)."""
        from ..frames import features_geoframe

        return features_geoframe(self.features(farm_id, start=start, end=end, geometry=geometry))
