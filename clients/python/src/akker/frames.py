"""Tables of records for pandas and GeoPandas, imported only when asked for: the client needs neither."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping

if TYPE_CHECKING:
    import geopandas
    import pandas

#: The coordinate reference system of every geometry of the API: WGS 84 longitude/latitude.
CRS = "EPSG:4326"


def _pandas() -> Any:
    try:
        import pandas
    except ImportError:
        raise ImportError("this needs pandas: apt-get install python3-pandas, or pip install 'akker[pandas]'") from None
    return pandas


def _geopandas() -> Any:
    try:
        import geopandas
    except ImportError:
        raise ImportError("this needs geopandas: apt-get install python3-geopandas, or pip install 'akker[geo]'") from None
    return geopandas


def records_frame(records: Iterable[Mapping[str, Any]], *, index: str) -> pandas.DataFrame:
    """One row per record, its members as columns, indexed by the member `index`."""
    pandas = _pandas()
    rows = list(records)
    frame = pandas.DataFrame.from_records(rows) if rows else pandas.DataFrame(columns=[index])
    return frame.set_index(index)


def features_geoframe(features: Iterable[Mapping[str, Any]]) -> geopandas.GeoDataFrame:
    """GeoJSON Features of fields as a GeoDataFrame in EPSG:4326: the properties as columns, indexed by b_id."""
    geopandas = _geopandas()
    collected = list(features)
    frame = geopandas.GeoDataFrame.from_features(collected, crs=CRS) if collected else geopandas.GeoDataFrame({"b_id": []}, geometry=[], crs=CRS)
    return frame.set_index("b_id")


def _leaves(value: Any, prefix: str, into: dict[str, Any], objects: set[str]) -> None:
    if isinstance(value, Mapping):
        objects.add(prefix)
        for name, member in value.items():
            _leaves(member, f"{prefix}.{name}" if prefix else str(name), into, objects)
    elif not isinstance(value, list):
        into[prefix] = value


def field_rows_frame(result: Mapping[str, Any]) -> pandas.DataFrame:
    """The per-field rows (`fields`) of a farm calculation as a DataFrame indexed by b_id: one column per
    figure, nested members named by their path (`balance.supply.total`); lists of records behind a
    figure (the applications that make it up) are left out. A field that could not be calculated has
    its `errorMessage` and no figures (NaN)."""
    fields = result.get("fields")
    if not isinstance(fields, list):
        raise ValueError("this result has no per-field rows (`fields`): pass a farm calculation's answer")
    return rows_frame(fields, index="b_id")


def rows_frame(records: Iterable[Mapping[str, Any]], *, index: str) -> pandas.DataFrame:
    """Nested records as a flat DataFrame: one column per scalar, named by its path; lists left out."""
    rows: list[dict[str, Any]] = []
    objects: set[str] = set()
    for record in records:
        row: dict[str, Any] = {}
        _leaves(record, "", row, objects)
        rows.append(row)
    # A member that is an object on one row and null on another (a field without a balance) is no figure.
    rows = [{name: value for name, value in row.items() if not (value is None and name in objects)} for row in rows]
    return records_frame(rows, index=index)
