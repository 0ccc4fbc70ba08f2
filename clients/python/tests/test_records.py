"""Records through the client against a real server: created, read, paged, updated under If-Match,
deleted; and every answer has the members its generated TypedDict names."""
from __future__ import annotations

import unittest
from typing import Any

from .support import akker, field, new_client


def members_of(typed_dict: Any) -> set[str]:
    return set(typed_dict.__required_keys__) | set(typed_dict.__optional_keys__)


class RecordsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.client = new_client()
        cls.farm = cls.client.farms.create({"b_name_farm": "De Hoeve", "b_postalcode_farm": "6701AA"})
        cls.fields = [cls.client.fields.create(cls.farm["b_id_farm"], field(f"Perceel {i}", 5 + i * 0.01)) for i in range(5)]

    @classmethod
    def tearDownClass(cls) -> None:
        cls.client.close()

    def test_answers_have_the_members_of_their_generated_types(self) -> None:
        from akker import openapi

        farm = self.client.farms.get(self.farm["b_id_farm"])
        self.assertEqual(set(farm), members_of(openapi.Farm))
        self.assertEqual(set(self.fields[0]), members_of(openapi.Field))
        summary = next(self.client.fields.iter(self.farm["b_id_farm"]))
        self.assertEqual(set(summary), members_of(openapi.FieldSummary))
        page = self.client.farms.list(limit=1)
        self.assertEqual(set(page), members_of(openapi.FarmPage))
        self.assertEqual(set(page["pagination"]), members_of(openapi.FarmPagePagination))

    def test_iterates_over_every_page_of_a_list_in_creation_order(self) -> None:
        farm_id = self.farm["b_id_farm"]
        listed = [f["b_id"] for f in self.client.fields.iter(farm_id, page_size=2)]
        self.assertEqual(listed, [f["b_id"] for f in self.fields])
        page = self.client.fields.list(farm_id, limit=2, offset=4)
        self.assertEqual([f["b_id"] for f in page["data"]], [self.fields[4]["b_id"]])
        self.assertEqual(page["pagination"], {"limit": 2, "offset": 4, "total": 5})

    def test_filters_a_list_by_dates(self) -> None:
        farm_id = self.farm["b_id_farm"]
        ended = self.client.fields.create(farm_id, field("Verkocht", 5.2, b_start="2020-01-01", b_end="2021-06-30"))
        try:
            in_2020 = [f["b_id"] for f in self.client.fields.iter(farm_id, start="2020-01-01", end="2020-12-31")]
            self.assertEqual(in_2020, [ended["b_id"]])
        finally:
            self.client.fields.delete(ended["b_id"])

    def test_iterates_over_a_farms_fields_as_geojson_features(self) -> None:
        features = list(self.client.fields.features(self.farm["b_id_farm"], page_size=2))
        self.assertEqual([f["id"] for f in features], [f["b_id"] for f in self.fields])
        self.assertEqual(features[0]["geometry"]["type"], "Polygon")
        self.assertEqual(features[0]["properties"]["b_name"], "Perceel 0")
        bare = list(self.client.fields.features(self.farm["b_id_farm"], geometry="none"))
        self.assertEqual({f["geometry"] for f in bare}, {None})

    def test_updates_a_record_read_only_while_it_is_unchanged(self) -> None:
        farm = self.client.farms.get(self.farm["b_id_farm"])
        self.assertIsNotNone(akker.etag(farm))
        renamed = self.client.farms.update(farm, {"b_name_farm": "De Nieuwe Hoeve"})
        self.assertEqual(renamed["b_name_farm"], "De Nieuwe Hoeve")
        self.assertNotEqual(akker.etag(renamed), akker.etag(farm))
        # The version read before the change is stale now: the server refuses it, and nothing changes.
        with self.assertRaises(akker.AkkerError) as raised:
            self.client.farms.update(farm, {"b_name_farm": "Overschreven"})
        self.assertEqual((raised.exception.status, raised.exception.code), (412, "precondition-failed"))
        self.assertEqual(self.client.farms.get(farm["b_id_farm"])["b_name_farm"], "De Nieuwe Hoeve")
        # The answer of an update names the new version.
        back = self.client.farms.update(renamed, {"b_name_farm": "De Hoeve"})
        self.assertEqual(back["b_name_farm"], "De Hoeve")

    def test_updates_by_identifier_without_a_precondition_or_with_a_given_one(self) -> None:
        field_id = self.fields[1]["b_id"]
        self.assertEqual(self.client.fields.update(field_id, {"b_name": "Hernoemd"})["b_name"], "Hernoemd")
        stale = akker.etag(self.fields[1])
        with self.assertRaises(akker.AkkerError) as raised:
            self.client.fields.update(field_id, {"b_name": "Nee"}, if_match=stale)
        self.assertEqual(raised.exception.code, "precondition-failed")

    def test_refuses_to_update_a_list_item_as_if_it_named_a_version(self) -> None:
        item = next(self.client.farms.iter())
        with self.assertRaisesRegex(ValueError, "carries no ETag"):
            self.client.farms.update(item, {"b_name_farm": "X"})

    def test_deletes_for_good_and_a_second_delete_is_not_found_unless_missing_is_ok(self) -> None:
        farm = self.client.farms.create({"b_name_farm": "Weg"})
        self.client.farms.delete(farm)
        with self.assertRaises(akker.AkkerError) as raised:
            self.client.farms.get(farm["b_id_farm"])
        self.assertEqual((raised.exception.status, raised.exception.code), (404, "not-found"))
        with self.assertRaises(akker.AkkerError):
            self.client.farms.delete(farm["b_id_farm"])
        self.client.farms.delete(farm["b_id_farm"], missing_ok=True)

    def test_records_below_a_field(self) -> None:
        field_id = self.fields[2]["b_id"]
        cultivation = self.client.cultivations.create(field_id, {"b_lu_catalogue": "nl_265", "b_lu_start": "2025-03-01"})
        self.assertEqual([c["b_lu"] for c in self.client.cultivations.iter(field_id)], [cultivation["b_lu"]])
        analysis = self.client.soil_analyses.create(field_id, {"b_sampling_date": "2025-03-01", "a_som_loi": 3.2})
        current = self.client.soil_analyses.current(field_id)
        self.assertEqual([(v["parameter"], v["value"], v["a_id"]) for v in current["data"]], [("a_som_loi", 3.2, analysis["a_id"])])
        crop = next(self.client.catalogues.iter_cultivations(q="nl_265"))
        self.assertEqual(crop["b_lu_catalogue"], "nl_265")


if __name__ == "__main__":
    unittest.main()
