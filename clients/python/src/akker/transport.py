"""Sending a request and reading its answer, with the retries that are safe: a 429 once its
Retry-After has passed, and after a lost answer, a 502/503/504 or a 409 idempotency-in-progress,
a request the server carries out at most once however often it arrives (a GET, a PUT, a POST under
its Idempotency-Key)."""
from __future__ import annotations

import email.utils
import http.client
import json
import select
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping
from urllib.parse import urlsplit

from . import __version__
from .errors import AkkerError

_TRANSIENT = frozenset({502, 503, 504})


@dataclass(frozen=True)
class Answer:
    status: int
    headers: Mapping[str, str]
    body: bytes

    def json(self, request: str) -> Any:
        if self.status == 204 or self.body == b"":
            return None
        try:
            return json.loads(self.body)
        except ValueError:
            raise AkkerError("unexpected-answer", f"HTTP {self.status} with a body that is not JSON", status=self.status, request=request) from None


def retry_after_seconds(value: str | None) -> float | None:
    """Retry-After as seconds: delay-seconds or an HTTP date; None when absent or unreadable."""
    if value is None or value.strip() == "":
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _problem_code(answer: Answer) -> str | None:
    try:
        problem = json.loads(answer.body)
    except ValueError:
        return None
    type_ = problem.get("type") if isinstance(problem, dict) else None
    return type_.rsplit("/", 1)[-1] if isinstance(type_, str) else None


class Transport:
    """One keep-alive connection per thread to one Akker, and the retry rules."""

    def __init__(
        self,
        base_url: str,
        *,
        timeout: float,
        max_attempts: int,
        max_retry_after: float,
        retry_delay: float,
        max_response_bytes: int,
        ssl_context: ssl.SSLContext | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"base_url must be an http:// or https:// address, not {base_url!r}")
        if parts.query or parts.fragment:
            raise ValueError(f"base_url takes no query or fragment: {base_url!r}")
        if max_attempts < 1:
            raise ValueError("max_attempts must be 1 or more")
        self._scheme = parts.scheme
        self._host = parts.hostname
        self._port = parts.port
        self._prefix = parts.path.rstrip("/")
        self._timeout = timeout
        self._max_attempts = max_attempts
        self._max_retry_after = max_retry_after
        self._retry_delay = retry_delay
        self._max_response_bytes = max_response_bytes
        self._ssl_context = ssl_context
        self._sleep = sleep
        self._local = threading.local()
        self.user_agent = f"akker-python/{__version__}"

    def _connection(self) -> http.client.HTTPConnection:
        connection: http.client.HTTPConnection | None = getattr(self._local, "connection", None)
        # An idle connection that is readable was closed by the server (its keep-alive ran out).
        if connection is not None and connection.sock is not None and select.select([connection.sock], [], [], 0)[0]:
            connection.close()
            connection = None
        if connection is None:
            if self._scheme == "https":
                connection = http.client.HTTPSConnection(self._host, self._port, timeout=self._timeout, context=self._ssl_context)
            else:
                connection = http.client.HTTPConnection(self._host, self._port, timeout=self._timeout)
            self._local.connection = connection
        return connection

    def close(self) -> None:
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
            self._local.connection = None

    def _exchange(self, method: str, target: str, body: bytes | None, headers: Mapping[str, str]) -> Answer:
        connection = self._connection()
        try:
            connection.request(method, self._prefix + target, body=body, headers={**headers, "User-Agent": self.user_agent})
            response = connection.getresponse()
            data = response.read(self._max_response_bytes + 1)
        except BaseException:
            self.close()
            raise
        if len(data) > self._max_response_bytes:
            self.close()
            raise AkkerError(
                "response-too-large",
                f"the answer is larger than max_response_bytes ({self._max_response_bytes})",
                status=response.status,
                request=f"{method} {target}",
            )
        if response.will_close:
            self.close()
        return Answer(response.status, {name.lower(): value for name, value in response.getheaders()}, data)

    def send(self, method: str, target: str, body: bytes | None, headers: Mapping[str, str], *, resendable: bool) -> Answer:
        """The answer to the request, after the retries the rules allow; AkkerError when none came.

        `resendable`: the request may arrive twice without being carried out twice.
        """
        request = f"{method} {target}"
        attempt = 0
        while True:
            attempt += 1
            last = attempt >= self._max_attempts
            backoff = self._retry_delay * 2 ** (attempt - 1)
            try:
                answer = self._exchange(method, target, body, headers)
            except AkkerError:
                raise
            except (OSError, http.client.HTTPException) as error:
                if not last and resendable:
                    self._sleep(backoff)
                    continue
                timed_out = isinstance(error, (socket.timeout, TimeoutError))
                raise AkkerError(
                    "timeout" if timed_out else "network-error",
                    f"no answer from {self._host}: {error!r}" + ("" if resendable else " (not resent: it may have been carried out)"),
                    request=request,
                ) from error
            if last:
                return answer
            if answer.status == 429:
                wait = retry_after_seconds(answer.headers.get("retry-after"))
                if wait is None or wait > self._max_retry_after:
                    return answer
                self._sleep(wait)
                continue
            if resendable and (answer.status in _TRANSIENT or (answer.status == 409 and _problem_code(answer) == "idempotency-in-progress")):
                self._sleep(backoff)
                continue
            return answer
