"""What a pipeline meets and the client handles: a 429 waited out for as long as Retry-After says (or
raised when that is longer than it waits), a lost answer resent only when that cannot carry a request
out twice, and an Idempotency-Key made once per call and kept by its retries."""
from __future__ import annotations

import os
import shutil
import subprocess
import unittest
import uuid
from urllib.parse import urlsplit

from .relay import Relay
from .server import AkkerServer
from .support import akker, field, new_client, shared_server

REDIS_URL = os.environ.get("TEST_REDIS_URL")


def redis_cli(*args: str) -> str:
    url = urlsplit(REDIS_URL or "")
    command = ["redis-cli", "-h", url.hostname or "127.0.0.1", "-p", str(url.port or 6379), *args]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


class RateLimitTest(unittest.TestCase):
    """On a server that allows one calculation a minute per key (windows in Redis when TEST_REDIS_URL is set)."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.prefix = f"akker-python-test:{uuid.uuid4().hex}:"
        redis = {"REDIS_URL": REDIS_URL, "RATE_LIMIT_REDIS_PREFIX": cls.prefix} if REDIS_URL else {}
        cls.server = AkkerServer(RATE_LIMIT_CALCULATION="1", **redis)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.server.stop()

    def setUp(self) -> None:
        _, self.key = self.server.sign_up()
        self.client = akker.Client(self.server.url, self.key)
        self.addCleanup(self.client.close)
        farm = self.client.farms.create({"b_name_farm": "Snel"})
        self.field = self.client.fields.create(farm["b_id_farm"], field("Perceel", 5.1))

    def test_a_429_asking_longer_than_the_client_waits_is_raised_with_its_retry_after(self) -> None:
        impatient = akker.Client(self.server.url, self.key, max_retry_after=5)
        self.addCleanup(impatient.close)
        impatient.calculations.dose(self.field["b_id"])
        with self.assertRaises(akker.AkkerError) as raised:
            impatient.calculations.dose(self.field["b_id"])
        error = raised.exception
        self.assertEqual((error.status, error.code), (429, "rate-limit-exceeded"))
        self.assertIsNotNone(error.retry_after)
        self.assertGreater(error.retry_after or 0, 5)
        self.assertLessEqual(error.retry_after or 0, 60)

    def test_a_429_is_waited_out_for_as_long_as_retry_after_says(self) -> None:
        if not REDIS_URL or shutil.which("redis-cli") is None:
            self.skipTest("needs TEST_REDIS_URL and redis-cli: the window is moved on in Redis, as waiting a minute is too long for a test")
        self.client.calculations.dose(self.field["b_id"])
        # The window's one calculation now left it 59 s ago: it leaves the window about a second from now.
        buckets = [key for key in redis_cli("--scan", "--pattern", f"{self.prefix}calculation:*").split() if key]
        self.assertTrue(buckets)
        for bucket in buckets:
            oldest = int(redis_cli("LINDEX", bucket, "0"))
            redis_cli("LSET", bucket, "0", str(oldest - 59_000))
        waited: list[float] = []
        transport = self.client._transport
        real_sleep = transport._sleep
        transport._sleep = lambda seconds: (waited.append(seconds), real_sleep(seconds))  # type: ignore[method-assign]
        dose = self.client.calculations.dose(self.field["b_id"])
        self.assertIn("recommendation", dose)
        # One wait, of the whole seconds Retry-After gave, and then the calculation went through.
        self.assertEqual(len(waited), 1)
        self.assertIn(waited[0], (1.0, 2.0))


class LostAnswerTest(unittest.TestCase):
    """Through a relay that can lose the server's answer after the server carried the request out."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.server = shared_server()
        cls.relay = Relay(int(urlsplit(cls.server.url).port or 0))

    @classmethod
    def tearDownClass(cls) -> None:
        cls.relay.close()

    def setUp(self) -> None:
        _, key = self.server.sign_up()
        self.client = akker.Client(self.relay.url, key, retry_delay=0.01)
        self.addCleanup(self.client.close)
        self.farm = self.client.farms.create({"b_name_farm": "Storing"})

    def test_a_get_whose_answer_was_lost_is_sent_again(self) -> None:
        self.relay.lose_next_answer()
        lost = self.relay.answers_lost
        self.assertEqual(self.client.farms.get(self.farm["b_id_farm"])["b_name_farm"], "Storing")
        self.assertEqual(self.relay.answers_lost, lost + 1)

    def test_a_post_whose_answer_was_lost_is_sent_again_under_the_same_key_and_carried_out_once(self) -> None:
        self.relay.lose_next_answer()
        lost = self.relay.answers_lost
        created = self.client.fields.create(self.farm["b_id_farm"], field("Na de storing", 5.3))
        self.assertEqual(self.relay.answers_lost, lost + 1)
        named = [f["b_id"] for f in self.client.fields.iter(self.farm["b_id_farm"]) if f["b_name"] == "Na de storing"]
        self.assertEqual(named, [created["b_id"]])

    def test_a_patch_whose_answer_was_lost_is_not_sent_again(self) -> None:
        self.relay.lose_next_answer()
        with self.assertRaises(akker.AkkerError) as raised:
            self.client.farms.update(self.farm["b_id_farm"], {"b_name_farm": "Wel gedaan"})
        self.assertEqual((raised.exception.status, raised.exception.code), (None, "network-error"))
        self.assertIn("not resent", raised.exception.detail)
        # It was carried out all the same.
        self.assertEqual(self.client.farms.get(self.farm["b_id_farm"])["b_name_farm"], "Wel gedaan")

    def test_key_creation_takes_no_idempotency_key_and_is_not_sent_again(self) -> None:
        self.relay.lose_next_answer()
        with self.assertRaises(akker.AkkerError) as raised:
            self.client.keys.create("antwoord kwijt")
        self.assertEqual(raised.exception.code, "network-error")


class IdempotencyKeyTest(unittest.TestCase):
    def setUp(self) -> None:
        self.client = new_client()
        self.addCleanup(self.client.close)
        self.farm = self.client.farms.create({"b_name_farm": "Herhaald"})

    def test_a_key_of_ones_own_makes_a_pipelines_rerun_create_nothing_twice(self) -> None:
        key = f"import-2025-perceel-17-{uuid.uuid4()}"
        first = self.client.fields.create(self.farm["b_id_farm"], field("Perceel 17", 5.4), idempotency_key=key)
        again = self.client.fields.create(self.farm["b_id_farm"], field("Perceel 17", 5.4), idempotency_key=key)
        self.assertEqual(again, first)
        self.assertEqual(self.client.fields.list(self.farm["b_id_farm"])["pagination"]["total"], 1)

    def test_the_same_key_with_another_body_is_refused(self) -> None:
        key = str(uuid.uuid4())
        self.client.fields.create(self.farm["b_id_farm"], field("Een", 5.4), idempotency_key=key)
        with self.assertRaises(akker.AkkerError) as raised:
            self.client.fields.create(self.farm["b_id_farm"], field("Twee", 5.4), idempotency_key=key)
        self.assertEqual((raised.exception.status, raised.exception.code), (422, "idempotency-key-reused"))

    def test_each_call_makes_a_key_of_its_own(self) -> None:
        one = self.client.fields.create(self.farm["b_id_farm"], field("Zelfde", 5.4))
        two = self.client.fields.create(self.farm["b_id_farm"], field("Zelfde", 5.4))
        self.assertNotEqual(one["b_id"], two["b_id"])


if __name__ == "__main__":
    unittest.main()
