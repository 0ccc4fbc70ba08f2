"""The hand-written methods and the generated table agree: every operation a method calls is in the
table (an operation renamed or removed by a regeneration fails here, not in a user's pipeline), and the
package, generated file included, passes mypy --strict for Python 3.10 (where mypy is installed)."""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from .support import akker

OPERATIONS = akker.openapi.OPERATIONS

SOURCE = Path(__file__).resolve().parents[1] / "src" / "akker"
CALLED = re.compile(r"""(?:record|_page|_each|_delete|call|operation)\(\s*"([A-Za-z]+)\"""")


class TypesTest(unittest.TestCase):
    def test_every_operation_a_method_calls_is_in_the_generated_table(self) -> None:
        called = {name for module in SOURCE.rglob("*.py") for name in CALLED.findall(module.read_text(encoding="utf-8"))}
        self.assertGreater(len(called), 50)
        self.assertEqual(sorted(called - set(OPERATIONS)), [])

    def test_the_package_type_checks(self) -> None:
        if shutil.which("mypy") is None:
            self.skipTest("mypy is not installed (apt-get install mypy)")
        # Its cache outside the clone: the repository's format check reads every file in it.
        cache = tempfile.mkdtemp(prefix="akker-mypy-")
        self.addCleanup(shutil.rmtree, cache, True)
        checked = subprocess.run(
            ["mypy", "--cache-dir", cache, "--strict", "--python-version", "3.10", "--ignore-missing-imports", "--disable-error-code", "no-any-return", str(SOURCE)],
            capture_output=True,
            text=True,
        )
        self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)


if __name__ == "__main__":
    unittest.main()
