"""The package installs with pip into a fresh virtual environment, with no index to download from, and
works there with no Akker clone beside it."""
from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

from .support import shared_server

PACKAGE = Path(__file__).resolve().parents[1]


class InstallTest(unittest.TestCase):
    def test_installs_into_a_fresh_venv_offline_and_talks_to_akker(self) -> None:
        missing = [name for name in ("setuptools", "wheel") if importlib.util.find_spec(name) is None]
        if missing:
            self.skipTest(f"{' and '.join(missing)} not installed for {sys.executable} (apt-get install python3-setuptools python3-wheel)")
        server = shared_server()
        _, key = server.sign_up()
        with tempfile.TemporaryDirectory(prefix="akker-python-install-") as scratch:
            # A copy of the package alone: the build writes beside its sources, and nothing else of the clone is there.
            source = Path(scratch) / "akker"
            shutil.copytree(PACKAGE, source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info", "tests"))
            venv = Path(scratch) / "venv"
            subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
            python = venv / "bin" / "python"
            # No configured index, no index at all: what builds the package must be on the machine already.
            env = {**os.environ, "PIP_CONFIG_FILE": os.devnull, "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
            env.pop("PYTHONPATH", None)
            for name in ("PIP_FIND_LINKS", "PIP_EXTRA_INDEX_URL", "PIP_INDEX_URL"):
                env.pop(name, None)
            install = subprocess.run(
                [str(python), "-m", "pip", "install", "--no-build-isolation", str(source)],
                env=env,
                capture_output=True,
                text=True,
            )
            self.assertEqual(install.returncode, 0, install.stdout + install.stderr)
            script = textwrap.dedent(
                """
                import os, sys, akker
                assert akker.__file__.startswith(sys.prefix), akker.__file__
                with akker.Client.from_env() as client:
                    farm = client.farms.create({"b_name_farm": "Geïnstalleerd"})
                    print(akker.__version__, [f["b_name_farm"] for f in client.farms.iter()], akker.etag(farm) is not None)
                """
            )
            # Run from the scratch folder, far from the clone: only the installed package can be imported.
            run = subprocess.run(
                [str(python), "-c", script],
                cwd=scratch,
                env={**env, "AKKER_URL": server.url, "AKKER_KEY": key},
                capture_output=True,
                text=True,
            )
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            self.assertEqual(run.stdout.strip(), "0.1.0 ['Geïnstalleerd'] True")


if __name__ == "__main__":
    unittest.main()
