"""Every error of the server arrives as AkkerError with its problem's members; bad input is refused
before anything is sent; a failure of the network is an AkkerError too."""
from __future__ import annotations

import re
import socket
import unittest

from .relay import Relay
from .support import akker, field, new_client, shared_server


class ServerErrorsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.server = shared_server()
        cls.owner = new_client()
        cls.farm = cls.owner.farms.create({"b_name_farm": "Proefboerderij"})
        cls.field = cls.owner.fields.create(cls.farm["b_id_farm"], field("Proefveld", 5.5))

    @classmethod
    def tearDownClass(cls) -> None:
        cls.owner.close()

    def test_a_problem_arrives_with_status_code_detail_and_error_id(self) -> None:
        with self.assertRaises(akker.AkkerError) as raised:
            self.owner.farms.get("AAAAAAAAAAAAAAAAAAAAAA")
        error = raised.exception
        self.assertEqual((error.status, error.code, error.title), (404, "not-found", "Not Found"))
        self.assertTrue(error.detail)
        self.assertRegex(error.error_id or "", r"^[A-Z0-9]{4}-[A-Z0-9]{4}$")
        self.assertEqual(error.instance, "/api/farms/AAAAAAAAAAAAAAAAAAAAAA")
        self.assertEqual(error.request, "GET /api/farms/AAAAAAAAAAAAAAAAAAAAAA")
        self.assertIn(error.error_id or "-", str(error))

    def test_a_validation_failure_lists_its_fields(self) -> None:
        # The client checks a body's members but not what is inside an object member: the server does.
        with self.assertRaises(akker.AkkerError) as raised:
            self.owner.fields.create(self.farm["b_id_farm"], field("Kapot", 5.6, b_geometry={"type": "Polygon", "coordinates": "nee"}))
        error = raised.exception
        self.assertEqual((error.status, error.code), (400, "validation-failed"))
        self.assertEqual([entry["field"] for entry in error.errors], ["b_geometry.coordinates"])

    def test_another_users_farm_is_not_found_and_a_researcher_may_not_write(self) -> None:
        email, key = self.server.sign_up("Onderzoeker")
        researcher = akker.Client(self.server.url, key)
        self.addCleanup(researcher.close)
        with self.assertRaises(akker.AkkerError) as raised:
            researcher.fields.get(self.field["b_id"])
        self.assertEqual(raised.exception.code, "not-found")
        self.owner.access.grant(self.farm["b_id_farm"], email, "researcher")
        self.assertEqual(researcher.fields.get(self.field["b_id"])["b_name"], "Proefveld")
        with self.assertRaises(akker.AkkerError) as raised:
            researcher.fields.update(self.field["b_id"], {"b_name": "Niet van mij"})
        self.assertEqual((raised.exception.status, raised.exception.code), (403, "forbidden"))
        balance = researcher.calculations.nitrogen_balance(self.field["b_id"], start="2025-01-01", end="2025-12-31")
        self.assertEqual(balance["timeframe"], {"start": "2025-01-01", "end": "2025-12-31"})

    def test_a_revoked_key_is_unauthorized(self) -> None:
        created = self.owner.keys.create("kort leven")
        short = akker.Client(self.server.url, created["key"])
        self.addCleanup(short.close)
        self.assertEqual(short.farms.list()["pagination"]["total"], 1)
        self.owner.keys.revoke(created["id"])
        with self.assertRaises(akker.AkkerError) as raised:
            short.farms.list()
        self.assertEqual((raised.exception.status, raised.exception.code), (401, "unauthorized"))


class InputTest(unittest.TestCase):
    """Bad input raises ValueError or TypeError before a connection is opened."""

    def setUp(self) -> None:
        server = shared_server()
        self.relay = Relay(int(server.url.rsplit(":", 1)[1]))
        _, key = server.sign_up()
        self.client = akker.Client(self.relay.url, key)

    def tearDown(self) -> None:
        self.client.close()
        self.relay.close()

    def test_nothing_is_sent_for_bad_input(self) -> None:
        c = self.client
        refused = {
            "an identifier with a slash": lambda: c.farms.get("../keys"),
            "an empty identifier": lambda: c.fields.get(""),
            "an identifier that is not a str": lambda: c.fields.get(42),  # type: ignore[arg-type]
            "a limit over 200": lambda: c.farms.list(limit=201),
            "a limit of 0": lambda: c.fields.list("AAAA", limit=0),
            "a negative offset": lambda: c.farms.list(offset=-1),
            "a bool as limit": lambda: c.farms.list(limit=True),
            "a page size over 200": lambda: c.farms.iter(page_size=500),
            "an impossible date": lambda: c.fields.iter("AAAA", start="2025-02-30"),
            "a date in another form": lambda: c.calculations.nitrogen_balance("AAAA", start="1-1-2025"),
            "end before start": lambda: c.calculations.farm_nitrogen_balance("AAAA", start="2025-06-01", end="2025-01-01"),
            "an unknown geometry variant": lambda: c.fields.get("AAAA", geometry="small"),
            "a year out of range": lambda: c.derogations.hold("AAAA", 1999),
            "an unknown body member": lambda: c.farms.create({"b_name_farm": "X", "b_nam": "Y"}),  # type: ignore[typeddict-unknown-key]
            "a missing body member": lambda: c.fields.create("AAAA", {"b_name": "X"}),  # type: ignore[typeddict-item]
            "NaN in a body": lambda: c.soil_analyses.create("AAAA", {"a_som_loi": float("nan")}),
            "an impossible date in a body": lambda: c.fields.create("AAAA", {"b_name": "X", "b_start": "2025-02-30", "b_geometry": {}}),
            "a number for a name": lambda: c.farms.create({"b_name_farm": 42}),  # type: ignore[typeddict-item]
            "a name over its length": lambda: c.farms.create({"b_name_farm": "x" * 1000}),
            "an unknown acquiring method": lambda: c.fields.update("AAAA", {"b_acquiring_method": "borrowed"}),  # type: ignore[typeddict-item]
            "a soil value out of its range": lambda: c.soil_analyses.update("AAAA", {"a_som_loi": -5}),
            "None for a member that takes none": lambda: c.fields.update("AAAA", {"b_bufferstrip": None}),  # type: ignore[typeddict-item]
            "a str for a bool": lambda: c.fields.update("AAAA", {"b_bufferstrip": "yes"}),  # type: ignore[typeddict-item]
            "an empty Idempotency-Key": lambda: c.farms.create({"b_name_farm": "X"}, idempotency_key=""),
            "a space in an Idempotency-Key": lambda: c.farms.create({"b_name_farm": "X"}, idempotency_key="a b"),
            "a query too long": lambda: c.catalogues.cultivations(q="x" * 101),
            "a change feed page over 200": lambda: c.changes.feed("AAAA", page_size=201),
        }
        for case, call in refused.items():
            with self.subTest(case):
                with self.assertRaises((ValueError, TypeError)):
                    call()
        self.assertEqual(self.relay.connections, 0)

    def test_a_datetime_is_no_date_and_a_date_object_is_one(self) -> None:
        import datetime

        with self.assertRaises(TypeError):
            self.client.fields.list("AAAA", start=datetime.datetime(2025, 1, 1))  # type: ignore[arg-type]
        self.assertEqual(self.relay.connections, 0)
        with self.assertRaises(akker.AkkerError) as raised:
            self.client.fields.list("AAAAAAAAAAAAAAAAAAAAAA", start=datetime.date(2025, 1, 1))
        self.assertEqual(raised.exception.code, "not-found")


class NetworkErrorsTest(unittest.TestCase):
    def test_no_server_is_a_network_error_with_its_cause(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        client = akker.Client(f"http://127.0.0.1:{port}", "akk_test", retry_delay=0.01)
        with self.assertRaises(akker.AkkerError) as raised:
            client.farms.list()
        error = raised.exception
        self.assertEqual((error.status, error.code), (None, "network-error"))
        self.assertIsInstance(error.__cause__, OSError)

    def test_a_server_that_does_not_answer_in_time_is_a_timeout(self) -> None:
        with socket.create_server(("127.0.0.1", 0)) as silent:
            client = akker.Client(f"http://127.0.0.1:{silent.getsockname()[1]}", "akk_test", timeout=0.2, max_attempts=2, retry_delay=0.01)
            with self.assertRaises(akker.AkkerError) as raised:
                client.farms.list()
        self.assertEqual(raised.exception.code, "timeout")

    def test_an_answer_that_is_no_problem_is_an_unexpected_answer(self) -> None:
        server = shared_server()
        client = akker.Client(server.url + "/not-akker", "akk_test")
        self.addCleanup(client.close)
        with self.assertRaises(akker.AkkerError) as raised:
            client.farms.list()
        self.assertIn(raised.exception.code, {"not-found", "unexpected-answer"})
        self.assertEqual(raised.exception.status, 404)

    def test_a_bad_base_url_or_key_is_refused_at_once(self) -> None:
        for url in ("ftp://example.org", "example.org", "http://example.org/?x=1"):
            with self.subTest(url), self.assertRaises(ValueError):
                akker.Client(url, "akk_test")
        with self.assertRaises(ValueError):
            akker.Client("http://127.0.0.1:3000", "akk_x\r\nX-Injected: 1")
        self.assertTrue(re.match(r"akker-python/", akker.Client("http://127.0.0.1:3000", "akk_test")._transport.user_agent))


if __name__ == "__main__":
    unittest.main()
