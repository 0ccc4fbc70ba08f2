"""One call of an operation of the API: its input checked against the operation's description,
sent with the key and, for a POST that takes one, an Idempotency-Key made once for the call."""
from __future__ import annotations

import uuid
from typing import Any, Mapping

from .errors import AkkerError
from .openapi import OPERATIONS
from .operation import Operation
from .records import Record
from .transport import Transport, retry_after_seconds

# What may arrive twice without being carried out twice (and a POST under its Idempotency-Key).
_RESENDABLE_METHODS = frozenset({"GET", "HEAD", "PUT"})


def _header_value(value: str, name: str) -> str:
    if not isinstance(value, str) or value.strip() == "" or any(not 0x20 <= ord(c) <= 0x7E for c in value):
        raise ValueError(f"{name} must be visible ASCII text, not {value!r}")
    return value


class Api:
    def __init__(self, transport: Transport, api_key: str) -> None:
        self.transport = transport
        self._key = _header_value(api_key, "api_key").strip()

    def operation(self, operation_id: str) -> Operation:
        operation = OPERATIONS.get(operation_id)
        if operation is None:
            raise LookupError(f"this server's description has no operation {operation_id} (regenerate the client's types)")
        return operation

    def call(
        self,
        operation_id: str,
        *,
        path: Mapping[str, Any] | None = None,
        query: Mapping[str, Any] | None = None,
        body: Any = None,
        if_match: str | None = None,
        idempotency_key: str | None = None,
        accept: str = "application/json",
    ) -> tuple[Any, Mapping[str, str]]:
        """The decoded body of the answer and its header fields; AkkerError for any answer but a 2xx."""
        operation = self.operation(operation_id)
        target = operation.target(path or {}, query or {})
        data = operation.encode_body(body)
        headers = {"X-API-Key": self._key, "Accept": accept}
        if data is not None:
            headers["Content-Type"] = "application/json"
        if if_match is not None:
            if operation.header("If-Match") is None:
                raise ValueError(f"{operation.method} {operation.path} takes no If-Match")
            headers["If-Match"] = _header_value(if_match, "if_match")
        key_parameter = operation.header("Idempotency-Key")
        if idempotency_key is not None and key_parameter is None:
            raise ValueError(f"{operation.method} {operation.path} takes no Idempotency-Key")
        keyed = key_parameter is not None
        if key_parameter is not None:
            # Made once for the call: every retry of it sends the same key.
            headers["Idempotency-Key"] = key_parameter.render(idempotency_key) if idempotency_key is not None else str(uuid.uuid4())
        request = f"{operation.method} {target}"
        answer = self.transport.send(operation.method, target, data, headers, resendable=operation.method in _RESENDABLE_METHODS or keyed)
        if not 200 <= answer.status < 300:
            raise AkkerError.from_answer(
                answer.status,
                answer.body,
                answer.headers.get("content-type", ""),
                retry_after=retry_after_seconds(answer.headers.get("retry-after")) if answer.status == 429 else None,
                request=request,
            )
        return answer.json(request), answer.headers

    def record(self, operation_id: str, **call: Any) -> Any:
        """The one record an operation answers, with its ETag."""
        members, headers = self.call(operation_id, **call)
        if not isinstance(members, dict):
            raise AkkerError("unexpected-answer", f"{operation_id} answered no record", request=operation_id)
        return Record(members, headers.get("etag"))
