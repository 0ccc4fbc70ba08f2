"""`python3 -m tests` in clients/python: every test, verbose (skips say why), then one closing line
`N passed, N failed, N skipped` as .ci/run prints for the whole suite."""
import sys
import unittest
from pathlib import Path

package = Path(__file__).resolve().parents[1]
suite = unittest.defaultTestLoader.discover(str(package / "tests"), top_level_dir=str(package))
result = unittest.TextTestRunner(verbosity=2).run(suite)
failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
skipped = len(result.skipped) + len(result.expectedFailures)
print(f"{result.testsRun - failed - skipped} passed, {failed} failed, {skipped} skipped")
sys.exit(0 if result.wasSuccessful() else 1)
