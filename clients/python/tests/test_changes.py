"""The change feed as an iterator that resumes from a saved cursor."""
from __future__ import annotations

import unittest

from .support import akker, field, shared_server


class ChangeFeedTest(unittest.TestCase):
    def setUp(self) -> None:
        server = shared_server()
        self.email, key = server.sign_up()
        self.client = akker.Client(server.url, key)
        self.addCleanup(self.client.close)
        self.farm = self.client.farms.create({"b_name_farm": "Volger"})
        self.farm_id = self.farm["b_id_farm"]

    def test_reads_every_entry_across_pages_and_resumes_from_the_saved_cursor(self) -> None:
        fields = [self.client.fields.create(self.farm_id, field(f"Perceel {i}", 5 + i * 0.01)) for i in range(5)]
        feed = self.client.changes.feed(self.farm_id, page_size=2)
        seen = [(change["action"], change["type"], change["id"]) for change in feed]
        # The farm, its owner's role, then the fields.
        start = [("create", "farm", self.farm_id), ("create", "member", self.email)]
        self.assertEqual(seen, start + [("create", "field", f["b_id"]) for f in fields])
        saved = feed.cursor
        self.assertIsNotNone(saved)

        # Later, in another run: only what changed since the saved cursor.
        self.client.fields.update(fields[0]["b_id"], {"b_name": "Hernoemd"})
        cultivation = self.client.cultivations.create(fields[1]["b_id"], {"b_lu_catalogue": "nl_265", "b_lu_start": "2025-03-01"})
        self.client.fields.delete(fields[1]["b_id"])
        resumed = self.client.changes.feed(self.farm_id, after=saved)
        later = list(resumed)
        self.assertEqual(
            [(c["action"], c["type"], c["id"]) for c in later],
            [("update", "field", fields[0]["b_id"]), ("create", "cultivation", cultivation["b_lu"]), ("delete", "field", fields[1]["b_id"])],
        )
        self.assertEqual(later[2]["removed"]["cultivation"], [cultivation["b_lu"]])
        self.assertEqual(list(resumed), [])

        # The same feed, iterated again, goes on from where it stopped.
        self.client.farms.update(self.farm_id, {"b_name_farm": "Volger 2"})
        self.assertEqual([(c["action"], c["type"]) for c in resumed], [("update", "farm")])

    def test_an_entry_of_a_page_left_unfinished_is_given_again_after_a_resume(self) -> None:
        fields = [self.client.fields.create(self.farm_id, field(f"Perceel {i}", 5 + i * 0.01)) for i in range(3)]
        feed = self.client.changes.feed(self.farm_id, page_size=2)
        taken = []
        for change in feed:
            taken.append(change["id"])
            if len(taken) == 3:
                break
        self.assertEqual(taken, [self.farm_id, self.email, fields[0]["b_id"]])
        # Pages of 2: the first page (farm, member) was taken to its end, the second (two fields) not.
        resumed = [c["id"] for c in self.client.changes.feed(self.farm_id, after=feed.cursor)]
        self.assertEqual(resumed, [f["b_id"] for f in fields])

    def test_a_cursor_not_of_this_feed_is_refused(self) -> None:
        other = self.client.farms.create({"b_name_farm": "Ander"})
        other_cursor = self.client.changes.list(other["b_id_farm"])["next"]
        with self.assertRaises(akker.AkkerError) as raised:
            list(self.client.changes.feed(self.farm_id, after=other_cursor))
        self.assertEqual((raised.exception.status, raised.exception.code), (400, "validation-failed"))


if __name__ == "__main__":
    unittest.main()
