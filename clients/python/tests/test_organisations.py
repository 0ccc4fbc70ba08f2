"""Organisations through the client: made, renamed under If-Match, members added, a farm shared with it
as a whole, listed by organisation, and taken away again."""
from __future__ import annotations

import unittest

from .support import akker, field, shared_server


class OrganisationsTest(unittest.TestCase):
    def setUp(self) -> None:
        server = shared_server()
        _, owner_key = server.sign_up("Adviseur")
        self.member_email, member_key = server.sign_up("Collega")
        self.owner = akker.Client(server.url, owner_key)
        self.member = akker.Client(server.url, member_key)
        self.addCleanup(self.owner.close)
        self.addCleanup(self.member.close)

    def test_a_farm_shared_with_an_organisation_reaches_its_members(self) -> None:
        organisation = self.owner.organisations.create({"name": "Akkerbouw Advies"})
        self.assertEqual(organisation["role"], "owner")
        renamed = self.owner.organisations.update(organisation, {"name": "Akkerbouw Advies BV"})
        with self.assertRaises(akker.AkkerError) as raised:
            self.owner.organisations.update(organisation, {"name": "Oud"})
        self.assertEqual(raised.exception.code, "precondition-failed")
        self.assertEqual(renamed["name"], "Akkerbouw Advies BV")

        self.owner.organisations.set_member(organisation["id"], self.member_email, "member")
        self.assertEqual(sorted(m["role"] for m in self.owner.organisations.iter_members(organisation["id"])), ["member", "owner"])

        farm = self.owner.farms.create({"b_name_farm": "Gedeeld"})
        made = self.owner.fields.create(farm["b_id_farm"], field("Perceel", 5.7))
        self.owner.access.share(farm["b_id_farm"], organisation["id"], "researcher")
        shared = [f["b_id_farm"] for f in self.member.farms.iter(organisation=organisation["id"])]
        self.assertEqual(shared, [farm["b_id_farm"]])
        self.assertEqual(self.member.fields.get(made["b_id"])["b_name"], "Perceel")
        with self.assertRaises(akker.AkkerError) as raised:
            self.member.fields.update(made["b_id"], {"b_name": "Niet van mij"})
        self.assertEqual(raised.exception.code, "forbidden")

        rows = list(self.member.calculations.portfolio_nitrogen_balance(organisation["id"], start="2025-01-01", end="2025-12-31", page_size=1))
        self.assertEqual([row["b_id_farm"] for row in rows], [farm["b_id_farm"]])
        own = self.member.calculations.farm_nitrogen_balance(farm["b_id_farm"], start="2025-01-01", end="2025-12-31")
        self.assertEqual(rows[0]["result"]["balance"], own["balance"])

        self.owner.access.unshare(farm["b_id_farm"], organisation["id"])
        with self.assertRaises(akker.AkkerError) as raised:
            self.member.fields.get(made["b_id"])
        self.assertEqual(raised.exception.code, "not-found")
        self.owner.organisations.remove_member(organisation["id"], self.member_email)
        self.assertEqual(list(self.member.organisations.iter()), [])
        self.owner.organisations.delete(organisation["id"])
        self.owner.organisations.delete(organisation["id"], missing_ok=True)


if __name__ == "__main__":
    unittest.main()
