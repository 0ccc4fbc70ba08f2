"""The calculations on stored records: nitrogen and organic-matter balances, dose, usage norms."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from ..openapi import (
    FarmNitrogenBalance,
    FarmNorms,
    FarmOrganicMatterBalance,
    FieldDose,
    FieldNitrogenBalanceResponse,
    FieldNormsResponse,
    FieldOrganicMatterBalanceResponse,
    PortfolioNitrogenBalancePageRow,
    PortfolioNormsPageRow,
    PortfolioOrganicMatterBalancePageRow,
)
from ..operation import Day, day
from ..paging import each_item
from .base import Group

if TYPE_CHECKING:
    import pandas


def timeframe(start: Day | None, end: Day | None) -> dict[str, Any]:
    """The options body of a timeframe; both days inclusive, the current calendar year for those left out."""
    options = {name: day(value, name) for name, value in (("start", start), ("end", end)) if value is not None}
    if "start" in options and "end" in options and options["end"] < options["start"]:
        raise ValueError(f"end ({options['end']}) lies before start ({options['start']})")
    return options


class Calculations(Group):
    def nitrogen_balance(self, field_id: str, *, start: Day | None = None, end: Day | None = None) -> FieldNitrogenBalanceResponse:
        """The nitrogen balance of a field over the timeframe (kg N/ha)."""
        return self._api.record("calculateFieldNitrogenBalance", path={"b_id": field_id}, body=timeframe(start, end))

    def farm_nitrogen_balance(self, farm_id: str, *, start: Day | None = None, end: Day | None = None) -> FarmNitrogenBalance:
        """The nitrogen balance of a farm, with each of its fields in `fields`."""
        return self._api.record("calculateFarmNitrogenBalance", path={"b_id_farm": farm_id}, body=timeframe(start, end))

    def organic_matter_balance(
        self, field_id: str, *, start: Day | None = None, end: Day | None = None
    ) -> FieldOrganicMatterBalanceResponse:
        return self._api.record("calculateFieldOrganicMatterBalance", path={"b_id": field_id}, body=timeframe(start, end))

    def farm_organic_matter_balance(
        self, farm_id: str, *, start: Day | None = None, end: Day | None = None
    ) -> FarmOrganicMatterBalance:
        return self._api.record("calculateFarmOrganicMatterBalance", path={"b_id_farm": farm_id}, body=timeframe(start, end))

    def dose(
        self, field_id: str, *, start: Day | None = None, end: Day | None = None, application_date: Day | None = None
    ) -> FieldDose:
        """The dose of a field, and its recommendation under the usage norms (per fertilizer with `application_date`)."""
        options = timeframe(start, end)
        if application_date is not None:
            options["application_date"] = day(application_date, "application_date")
        return self._api.record("calculateFieldDose", path={"b_id": field_id}, body=options)

    def norms(self, field_id: str, *, year: int | None = None) -> FieldNormsResponse:
        """The Dutch usage norms of a field for a calendar year (the current one when left out)."""
        return self._api.record("calculateFieldNorms", path={"b_id": field_id}, body={} if year is None else {"year": year})

    def farm_norms(self, farm_id: str, *, year: int | None = None) -> FarmNorms:
        return self._api.record("calculateFarmNorms", path={"b_id_farm": farm_id}, body={} if year is None else {"year": year})

    def _portfolio(self, operation_id: str, org_id: str, options: dict[str, Any], page_size: int) -> Iterator[Any]:
        path = {"org_id": org_id}
        self._api.operation(operation_id).target(path, {"limit": page_size, "offset": 0})

        def page(offset: int) -> Any:
            return self._api.call(operation_id, path=path, query={"limit": page_size, "offset": offset}, body=options)[0]

        return each_item(page)

    def portfolio_nitrogen_balance(
        self, org_id: str, *, start: Day | None = None, end: Day | None = None, page_size: int = 50
    ) -> Iterator[PortfolioNitrogenBalancePageRow]:
        """Every farm shared with the organisation, each with its nitrogen balance as `result` (or its `error`),
        page after page (a page is one calculation request; the server may cut it short by work)."""
        return self._portfolio("calculateOrganisationNitrogenBalances", org_id, timeframe(start, end), page_size)

    def portfolio_organic_matter_balance(
        self, org_id: str, *, start: Day | None = None, end: Day | None = None, page_size: int = 50
    ) -> Iterator[PortfolioOrganicMatterBalancePageRow]:
        return self._portfolio("calculateOrganisationOrganicMatterBalances", org_id, timeframe(start, end), page_size)

    def portfolio_norms(self, org_id: str, *, year: int | None = None, page_size: int = 50) -> Iterator[PortfolioNormsPageRow]:
        return self._portfolio("calculateOrganisationNorms", org_id, {} if year is None else {"year": year}, page_size)

    @staticmethod
    def per_farm(rows: Any) -> pandas.DataFrame:
        """Portfolio rows as a pandas DataFrame indexed by b_id_farm: `result`'s figures by their path
        (`result.balance`), or `error.code` and `error.detail` for a farm that could not be calculated."""
        from ..frames import rows_frame

        return rows_frame(rows, index="b_id_farm")

    @staticmethod
    def per_field(result: Any) -> pandas.DataFrame:
        """The per-field rows of a farm calculation as a pandas DataFrame indexed by b_id (needs pandas)."""
        from ..frames import field_rows_frame

        return field_rows_frame(result)
