"""The optional tables: a farm's fields as a pandas DataFrame and a GeoPandas GeoDataFrame (EPSG:4326),
and a farm calculation's per-field rows as a DataFrame. Skipped, saying why, where pandas or GeoPandas
is not installed."""
from __future__ import annotations

import importlib.util
import unittest

from .support import field, new_client

HAS_PANDAS = importlib.util.find_spec("pandas") is not None
HAS_GEOPANDAS = importlib.util.find_spec("geopandas") is not None


class FramesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.client = new_client()
        farm = cls.client.farms.create({"b_name_farm": "Tabel"})
        cls.farm_id = farm["b_id_farm"]
        cls.fields = [cls.client.fields.create(cls.farm_id, field(f"Perceel {i}", 5 + i * 0.01)) for i in range(3)]
        # The first field can be calculated; the others lack a cultivation and a soil analysis.
        cultivation = {"b_lu_catalogue": "nl_233", "b_lu_start": "2024-10-20", "b_lu_end": "2025-08-05", "m_cropresidue": False}
        cls.client.cultivations.create(cls.fields[0]["b_id"], cultivation)
        analysis = {"b_sampling_date": "2025-02-01", "b_soiltype_agr": "zeeklei", "b_gwl_class": "VI", "a_som_loi": 3.5, "a_n_rt": 1800}
        cls.client.soil_analyses.create(cls.fields[0]["b_id"], analysis)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.client.close()

    @unittest.skipUnless(HAS_PANDAS, "pandas is not installed (apt-get install python3-pandas)")
    def test_a_farms_fields_as_a_dataframe(self) -> None:
        frame = self.client.fields.frame(self.farm_id)
        self.assertEqual(list(frame.index), [f["b_id"] for f in self.fields])
        self.assertEqual(list(frame["b_name"]), ["Perceel 0", "Perceel 1", "Perceel 2"])
        self.assertEqual(list(frame["b_area"]), [f["b_area"] for f in self.fields])

    @unittest.skipUnless(HAS_GEOPANDAS, "geopandas is not installed (apt-get install python3-geopandas)")
    def test_a_farms_fields_as_a_geodataframe_in_wgs84(self) -> None:
        frame = self.client.fields.geoframe(self.farm_id)
        self.assertEqual(frame.crs.to_epsg(), 4326)
        self.assertEqual(list(frame.index), [f["b_id"] for f in self.fields])
        self.assertEqual(list(frame.geometry.geom_type), ["Polygon"] * 3)
        west, south, east, north = frame.geometry.iloc[0].bounds
        self.assertAlmostEqual(west, 5.0)
        self.assertAlmostEqual(north, 52.002)
        # Projected to metres (RD New), the areas agree with Akker's geodesic b_area within a percent.
        areas = frame.to_crs(28992).geometry.area / 10_000
        for computed, stated in zip(areas, frame["b_area"]):
            self.assertAlmostEqual(computed / stated, 1, delta=0.01)

    @unittest.skipUnless(HAS_GEOPANDAS, "geopandas is not installed (apt-get install python3-geopandas)")
    def test_a_farm_without_fields_is_an_empty_geodataframe(self) -> None:
        empty = self.client.farms.create({"b_name_farm": "Leeg"})
        frame = self.client.fields.geoframe(empty["b_id_farm"])
        self.assertEqual(len(frame), 0)
        self.assertEqual(frame.crs.to_epsg(), 4326)

    @unittest.skipUnless(HAS_PANDAS, "pandas is not installed (apt-get install python3-pandas)")
    def test_the_nitrogen_balance_per_field_as_a_dataframe(self) -> None:
        result = self.client.calculations.farm_nitrogen_balance(self.farm_id, start="2025-01-01", end="2025-12-31")
        table = self.client.calculations.per_field(result)
        by_field = {row["b_id"]: row for row in result["fields"]}
        self.assertEqual(sorted(table.index), sorted(by_field))
        self.assertEqual(sum(row["balance"] is None for row in by_field.values()), 2)
        for b_id, row in by_field.items():
            if row["balance"] is None:
                self.assertEqual(table.loc[b_id, "errorMessage"], row["errorMessage"])
                self.assertTrue(table.loc[b_id, ["balance.balance", "balance.supply.total"]].isna().all())
            else:
                self.assertEqual(table.loc[b_id, "balance.balance"], row["balance"]["balance"])
                self.assertEqual(table.loc[b_id, "balance.supply.total"], row["balance"]["supply"]["total"])
        self.assertNotIn("balance.supply.fertilizers.mineral.applications", table.columns)

    def test_without_pandas_a_table_says_what_to_install(self) -> None:
        if HAS_PANDAS:
            self.skipTest("pandas is installed: the message for its absence cannot be seen here")
        with self.assertRaisesRegex(ImportError, "python3-pandas"):
            self.client.fields.frame(self.farm_id)


if __name__ == "__main__":
    unittest.main()
