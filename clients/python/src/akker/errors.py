"""The one exception of the client: every error answer of the API, and every failure to get one."""
from __future__ import annotations

import json
from typing import Any, Mapping


class AkkerError(Exception):
    """An error of a call to Akker.

    For an error answer of the API (application/problem+json): `status` is its HTTP status and `code`
    its error code (`not-found`, `validation-failed`, `precondition-failed`, …), with the problem's
    `title`, `detail`, `instance`, `error_id` and, on validation failures, `errors`. When no usable
    answer came, `status` is None (a network failure) or the answer's status, and `code` one of the
    client's own: `network-error`, `timeout`, `unexpected-answer`, `response-too-large`.
    """

    def __init__(
        self,
        code: str,
        detail: str,
        *,
        status: int | None = None,
        title: str | None = None,
        error_id: str | None = None,
        instance: str | None = None,
        errors: list[dict[str, Any]] | None = None,
        retry_after: float | None = None,
        request: str | None = None,
    ) -> None:
        self.code = code
        self.detail = detail
        self.status = status
        self.title = title
        self.error_id = error_id
        self.instance = instance
        #: On validation-failed: [{"field", "message"}], one entry per invalid field.
        self.errors = errors or []
        #: On a 429: the seconds Retry-After asked to wait, which were more than the client waits.
        self.retry_after = retry_after
        #: The request that failed, "METHOD /path".
        self.request = request
        where = f" ({request})" if request else ""
        reference = f" [{error_id}]" if error_id else ""
        super().__init__(f"{status or '-'} {code}: {detail}{reference}{where}")

    @classmethod
    def from_answer(cls, status: int, body: bytes, content_type: str, *, retry_after: float | None, request: str) -> AkkerError:
        """The error of an answer other than 2xx: its problem when it is one."""
        problem = _problem(body) if content_type.startswith(("application/problem+json", "application/json")) else None
        if problem is None:
            text = body[:200].decode("utf-8", "replace").strip()
            return cls("unexpected-answer", f"HTTP {status} without a problem body: {text!r}", status=status, request=request)
        type_ = str(problem.get("type", ""))
        return cls(
            type_.rstrip("/").rsplit("/", 1)[-1] or "unexpected-answer",
            str(problem.get("detail", "")),
            status=status,
            title=_text(problem.get("title")),
            error_id=_text(problem.get("error_id")),
            instance=_text(problem.get("instance")),
            errors=[dict(entry) for entry in problem["errors"] if isinstance(entry, Mapping)] if isinstance(problem.get("errors"), list) else None,
            retry_after=retry_after,
            request=request,
        )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _problem(body: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(body)
    except ValueError:
        return None
    return value if isinstance(value, dict) and isinstance(value.get("type"), str) else None
