"""The README's Python code and the researcher's notebook (docs/python-notebook.md) run as written,
block after block in one namespace, as a session or a notebook would, against a real server."""
from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import re
import tempfile
import unittest
from pathlib import Path
from typing import Iterator
from unittest import mock

from .server import ROOT
from .support import akker, field, new_client, shared_server

README = Path(__file__).resolve().parents[1] / "README.md"
NOTEBOOK = ROOT / "docs" / "python-notebook.md"


def python_blocks(document: Path) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```$", document.read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL)


@contextlib.contextmanager
def session(env: dict[str, str]) -> Iterator[io.StringIO]:
    """The environment the document's reader has, in a folder of its own; what it prints."""
    printed = io.StringIO()
    with tempfile.TemporaryDirectory() as folder, mock.patch.dict(os.environ, env), contextlib.redirect_stdout(printed):
        here = os.getcwd()
        os.chdir(folder)
        try:
            yield printed
        finally:
            os.chdir(here)


def run(blocks: list[str], where: Path) -> None:
    namespace: dict[str, object] = {"__name__": "__main__"}
    try:
        for number, block in enumerate(blocks, 1):
            exec(compile(block, f"{where.name}, python block {number}", "exec"), namespace)
    finally:
        client = namespace.get("client")
        if isinstance(client, akker.Client):
            client.close()


class ReadmeTest(unittest.TestCase):
    def test_the_readmes_python_runs_as_written(self) -> None:
        server = shared_server()
        _, key = server.sign_up()
        blocks = python_blocks(README)
        self.assertGreaterEqual(len(blocks), 5)
        with session({"AKKER_URL": server.url, "AKKER_KEY": key}) as printed:
            run(blocks, README)
        lines = printed.getvalue().splitlines()
        self.assertIn("Achter de schuur 9.14 ha", lines)
        self.assertIn("412 precondition-failed", lines)
        self.assertTrue(any(line.startswith("404 not-found ") for line in lines), lines)
        self.assertIn("create farm", " ".join(lines))


@unittest.skipUnless(importlib.util.find_spec("geopandas"), "geopandas is not installed (apt-get install python3-geopandas)")
class NotebookTest(unittest.TestCase):
    def test_the_researchers_notebook_runs_as_written_with_a_key_that_only_reads(self) -> None:
        server = shared_server()
        owner = new_client()
        self.addCleanup(owner.close)
        farm = owner.farms.create({"b_name_farm": "Proefbedrijf"})
        fields = [owner.fields.create(farm["b_id_farm"], field(f"Perceel {i}", 5.6 + i * 0.01)) for i in range(3)]
        owner.cultivations.create(fields[0]["b_id"], {"b_lu_catalogue": "nl_233", "b_lu_start": "2024-10-20", "b_lu_end": "2025-08-05"})
        owner.soil_analyses.create(
            fields[0]["b_id"], {"b_sampling_date": "2025-02-01", "b_soiltype_agr": "zeeklei", "b_gwl_class": "VI", "a_som_loi": 3.5, "a_n_rt": 1800}
        )
        scoped = "access" in server.document()["components"]["schemas"]["ApiKeyCreate"]["properties"]
        email, key = server.sign_up("Onderzoeker", **({"access": "read"} if scoped else {}))
        owner.access.grant(farm["b_id_farm"], email, "researcher")
        with session({"AKKER_URL": server.url, "AKKER_KEY": key, "AKKER_FARM": farm["b_id_farm"]}) as printed:
            run(python_blocks(NOTEBOOK), NOTEBOOK)
            written = sorted(os.listdir("."))
        self.assertEqual(printed.getvalue().splitlines(), ["403 forbidden"])
        self.assertEqual(written, ["fields.geojson", "nitrogen-balance-2025.csv"])
        self.assertEqual([f["b_name"] for f in owner.fields.iter(farm["b_id_farm"])], ["Perceel 0", "Perceel 1", "Perceel 2"])


if __name__ == "__main__":
    unittest.main()
