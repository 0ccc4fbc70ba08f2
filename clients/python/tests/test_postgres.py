"""What only a look into the server's database can set up, on a server on PostgreSQL (TEST_DATABASE_URL):
a POST resent while its first request is still at work (409 idempotency-in-progress) gets the first
answer, and a saved cursor older than the feed keeps is 410 cursor-expired."""
from __future__ import annotations

import os
import shutil
import subprocess
import unittest
import uuid
from urllib.parse import urlsplit, urlunsplit

from .relay import Relay
from .server import AkkerServer
from .support import akker, field

ADMIN_URL = os.environ.get("TEST_DATABASE_URL")


def psql(url: str, statement: str) -> str:
    return subprocess.run(["psql", url, "-v", "ON_ERROR_STOP=1", "-tAc", statement], check=True, capture_output=True, text=True).stdout


@unittest.skipUnless(ADMIN_URL and shutil.which("psql"), "needs TEST_DATABASE_URL and psql: the test changes rows in the server's database")
class PostgresTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        assert ADMIN_URL is not None
        name = f"akker_python_{uuid.uuid4().hex[:12]}"
        psql(ADMIN_URL, f'create database "{name}"')
        cls.name = name
        cls.url = urlunsplit(urlsplit(ADMIN_URL)._replace(path=f"/{name}"))
        cls.server = AkkerServer(DATABASE_URL=cls.url)
        _, cls.key = cls.server.sign_up()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.server.stop()
        psql(ADMIN_URL or "", f'drop database "{cls.name}" with (force)')

    def client(self, url: str | None = None) -> akker.Client:
        client = akker.Client(url or self.server.url, self.key, retry_delay=0.01)
        self.addCleanup(client.close)
        return client

    def test_a_post_resent_while_its_first_request_is_at_work_gets_the_first_answer(self) -> None:
        relay = Relay(urlsplit(self.server.url).port or 0)
        self.addCleanup(relay.close)
        client = self.client(relay.url)
        farm = client.farms.create({"b_name_farm": "Bezig"})
        key = f"field-after-timeout-{uuid.uuid4()}"
        first = client.fields.create(farm["b_id_farm"], field("Na een time-out", 5.25), idempotency_key=key)
        # The stored answer back to a reservation, as if the first request were still at work, until the client has seen a 409.
        psql(self.url, f"update idempotency_keys set status = null where idempotency_key = '{key}'")
        relay.on_answer = lambda status: psql(self.url, f"update idempotency_keys set status = 201 where idempotency_key = '{key}'") if status == 409 else None
        relay.statuses.clear()
        resent = client.fields.create(farm["b_id_farm"], field("Na een time-out", 5.25), idempotency_key=key)
        self.assertEqual(relay.statuses, [409, 201])
        self.assertEqual(resent, first)
        self.assertEqual(client.fields.list(farm["b_id_farm"])["pagination"]["total"], 1)

    def test_a_cursor_older_than_the_feed_keeps_is_cursor_expired(self) -> None:
        client = self.client()
        farm = client.farms.create({"b_name_farm": "Oud"})
        made = client.fields.create(farm["b_id_farm"], field("Perceel", 5.3))
        feed = client.changes.feed(farm["b_id_farm"])
        self.assertEqual(len(list(feed)), 3)
        saved = feed.cursor
        client.fields.update(made["b_id"], {"b_name": "Na het snoeien"})
        # The farm's entries past the retention of 90 days; a server prunes them when it starts.
        psql(self.url, f"update farm_changes set changed_at = now() - interval '91 days' where b_id_farm = '{farm['b_id_farm']}'")
        self.server.stop()
        type(self).server = AkkerServer(DATABASE_URL=self.url)
        with self.assertRaises(akker.AkkerError) as raised:
            list(self.client().changes.feed(farm["b_id_farm"], after=saved))
        self.assertEqual((raised.exception.status, raised.exception.code), (410, "cursor-expired"))


if __name__ == "__main__":
    unittest.main()
