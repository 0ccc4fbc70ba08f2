"""A real Akker server for the tests: the project's `src/server.ts` run by Node through tsx, on a free
port and an in-memory database, ready once /health/ready answers 200."""
from __future__ import annotations

import json
import os
import subprocess
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

#: The project's root: $AKKER_ROOT, or the clone these tests are in.
ROOT = Path(os.environ.get("AKKER_ROOT") or Path(__file__).resolve().parents[3])
START_DEADLINE_SECONDS = 120


class AkkerServer:
    def __init__(self, **env: str) -> None:
        settings = {
            "PORT": "0",
            "HOST": "127.0.0.1",
            "DATA_DIR": "memory://",
            "DATABASE_URL": "",
            "REDIS_URL": "",
            "LOG_LEVEL": "info",
            "LOG_REQUESTS": "false",
            "SIGNUP_LIMIT_PER_HOUR": "0",
            "RATE_LIMIT_GENERAL": "1000000",
            "RATE_LIMIT_WRITE": "1000000",
            "RATE_LIMIT_CALCULATION": "1000000",
            **env,
        }
        self._process = subprocess.Popen(
            ["node", "--import", "tsx", "src/server.ts"],
            cwd=ROOT,
            env={**os.environ, **settings},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.output: list[str] = []
        listening = threading.Event()
        self.url = ""

        def read() -> None:
            assert self._process.stdout is not None
            for line in self._process.stdout:
                self.output.append(line)
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if isinstance(entry, dict) and entry.get("msg") == "Akker is listening":
                    self.url = entry["url"]
                    listening.set()

        threading.Thread(target=read, daemon=True).start()
        deadline = time.monotonic() + START_DEADLINE_SECONDS
        while not listening.wait(0.1):
            if self._process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("Akker did not start:\n" + "".join(self.output))
        while not self._ready():
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("Akker was not ready in time:\n" + "".join(self.output))
            time.sleep(0.1)

    def _ready(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/health/ready", timeout=5) as answer:
                return answer.status == 200
        except (urllib.error.URLError, OSError):
            return False

    def stop(self) -> None:
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(30)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        if self._process.stdout is not None:
            self._process.stdout.close()

    def sign_up(self, name: str = "Onderzoeker", **key: object) -> tuple[str, str]:
        """A new user's e-mail address and an API key of theirs (`key`: more members of POST /api/keys)."""
        email = f"{name.lower()}-{uuid.uuid4().hex[:12]}@example.org"
        cookie = self._post("/auth/sign-up", {"email": email, "password": "a long test password", "name": name})[0]["set-cookie"]
        created = self._post("/api/keys", {"name": "python tests", **key}, cookie=cookie.split(";", 1)[0])[1]
        return email, created["key"]

    def _post(self, path: str, body: object, *, cookie: str | None = None) -> tuple[dict[str, str], dict]:
        headers = {"Content-Type": "application/json", **({"Cookie": cookie} if cookie else {})}
        request = urllib.request.Request(f"{self.url}{path}", data=json.dumps(body).encode(), headers=headers, method="POST")
        with urllib.request.urlopen(request, timeout=30) as answer:
            return {name.lower(): value for name, value in answer.headers.items()}, json.loads(answer.read())

    def document(self) -> dict:
        with urllib.request.urlopen(f"{self.url}/api/openapi.json", timeout=30) as answer:
            return json.loads(answer.read())
