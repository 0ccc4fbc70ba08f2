"""An operation of the API as its OpenAPI document describes it, and the checks of a call's input
against it, made before anything is sent."""
from __future__ import annotations

import datetime
import json
import math
import numbers
import re
from dataclasses import dataclass
from typing import Any, Mapping, Union
from urllib.parse import quote, urlencode

#: Identifiers are opaque, URL-safe strings (docs/api.md); an e-mail address names a member instead.
IDENTIFIER = re.compile(r"[A-Za-z0-9_-]{1,255}")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_FREE_TEXT_PATH_PARAMETERS = frozenset({"email"})

#: A calendar date: a datetime.date, or a str YYYY-MM-DD.
Day = Union[datetime.date, str]


@dataclass(frozen=True)
class Parameter:
    """A parameter of an operation, or a member of a JSON body (`location` "body"), with its limits."""

    name: str
    location: str
    type: str
    required: bool = False
    nullable: bool = False
    format: str | None = None
    enum: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None

    def render(self, value: Any) -> str:
        """`value` as it goes into a path, query or header; ValueError or TypeError when the document does not allow it."""
        self.check(value)
        text = str(value) if self.type == "integer" else day(value, self.name) if self.format == "date" else value
        if self.location == "path" and self.type == "string" and self.format is None and self.enum is None:
            where = self._where()
            if self.name in _FREE_TEXT_PATH_PARAMETERS:
                if text.strip() == "" or any(ord(c) < 0x20 for c in text):
                    raise ValueError(f"{where} must be a non-empty line of text, not {text!r}")
            elif IDENTIFIER.fullmatch(text) is None:
                raise ValueError(f"{where} must be an Akker identifier (1 to 255 of A-Z a-z 0-9 _ -), not {text!r}")
        return str(text)

    def _where(self) -> str:
        return f"{self.name} ({'member' if self.location == 'body' else f'{self.location} parameter'})"

    def check(self, value: Any) -> None:
        """ValueError or TypeError when the document does not allow `value` (arrays and objects are left to the server)."""
        where = self._where()
        if value is None:
            if not self.nullable:
                raise TypeError(f"{where} may not be None")
            return
        if self.type in ("integer", "number"):
            # numbers.Integral and numbers.Real take numpy's scalars too, as pandas hands them out.
            number_type = numbers.Integral if self.type == "integer" else numbers.Real
            if isinstance(value, bool) or not isinstance(value, number_type):
                raise TypeError(f"{where} must be {'an int' if self.type == 'integer' else 'a number'}, not {type(value).__name__}")
            number = float(value)
            if not math.isfinite(number):
                raise ValueError(f"{where} must be a finite number, not {value}")
            if (self.minimum is not None and number < self.minimum) or (self.maximum is not None and number > self.maximum):
                raise ValueError(f"{where} must lie in {_range(self.minimum, self.maximum)}, not {value}")
        elif self.type == "boolean":
            if not isinstance(value, bool) and not isinstance(getattr(value, "item", lambda: None)(), bool):
                raise TypeError(f"{where} must be a bool, not {type(value).__name__}")
        elif self.type == "string":
            text = day(value, self.name) if self.format == "date" else value
            if not isinstance(text, str):
                raise TypeError(f"{where} must be a str, not {type(value).__name__}")
            if self.enum is not None and text not in self.enum:
                raise ValueError(f"{where} must be one of {', '.join(map(str, self.enum))}, not {text!r}")
            # Lengths as the server counts them: in UTF-16 code units.
            length = len(text.encode("utf-16-le")) // 2
            if (self.min_length is not None and length < self.min_length) or (self.max_length is not None and length > self.max_length):
                raise ValueError(f"{where} must be {_range(self.min_length, self.max_length)} characters long, not {length}")
            if self.pattern is not None and re.search(self.pattern, text) is None:
                raise ValueError(f"{where} does not have the form the API takes: {text!r}")


def _range(low: float | None, high: float | None) -> str:
    return f"{'' if low is None else low}..{'' if high is None else high}"


def day(value: Any, name: str) -> str:
    """A calendar date as YYYY-MM-DD, from a `datetime.date` or such a string; ValueError for an impossible date."""
    if isinstance(value, datetime.datetime):
        raise TypeError(f"{name} must be a date, not a datetime: pass its .date()")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a datetime.date or a YYYY-MM-DD str, not {type(value).__name__}")
    if _DATE.fullmatch(value) is None:
        raise ValueError(f"{name} must be a date as YYYY-MM-DD, not {value!r}")
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{name} is not a date of the calendar: {value!r}") from None
    return value


def _json_value(value: Any) -> Any:
    """What json cannot encode by itself: dates, aware datetimes, and numpy's scalars (pandas hands them out)."""
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            raise ValueError(f"a datetime must carry its time zone: {value!r}")
        return value.isoformat()
    if isinstance(value, datetime.date):
        return value.isoformat()
    item = getattr(value, "item", None)
    if callable(item):
        return item()
    raise TypeError(f"{type(value).__name__} cannot be sent as JSON: {value!r}")


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    parameters: tuple[Parameter, ...]
    body: Any = None
    body_required: bool = False
    body_closed: bool = False
    #: The body's members with their limits.
    body_members: tuple[Parameter, ...] = ()

    def _body_name(self) -> str:
        return getattr(self.body, "__name__", "the body")

    def header(self, name: str) -> Parameter | None:
        """The header parameter `name`, when the operation takes it."""
        return next((p for p in self.parameters if p.location == "header" and p.name.lower() == name.lower()), None)

    def target(self, path: Mapping[str, Any], query: Mapping[str, Any]) -> str:
        """The path and query of a call, each value checked against its parameter."""
        for location, values in (("path", path), ("query", query)):
            known = {p.name for p in self.parameters if p.location == location}
            unknown = set(values) - known
            if unknown:
                raise ValueError(f"{self.method} {self.path} takes no {location} parameter {', '.join(sorted(unknown))}")
        rendered: dict[str, str] = {}
        pairs: list[tuple[str, str]] = []
        for parameter in self.parameters:
            if parameter.location not in ("path", "query"):
                continue
            value = (path if parameter.location == "path" else query).get(parameter.name)
            if value is None:
                if parameter.required:
                    raise ValueError(f"{self.method} {self.path} needs {parameter.name}")
                continue
            text = parameter.render(value)
            if parameter.location == "path":
                rendered[parameter.name] = quote(text, safe="")
            else:
                pairs.append((parameter.name, text))
        url = self.path.format(**rendered)
        return f"{url}?{urlencode(pairs)}" if pairs else url

    def encode_body(self, body: Any) -> bytes | None:
        """The JSON body, its members checked against the TypedDict of the document's schema."""
        if body is None:
            if self.body_required:
                raise ValueError(f"{self.method} {self.path} needs a body")
            return None
        if self.body is None:
            raise ValueError(f"{self.method} {self.path} takes no body")
        if not isinstance(body, Mapping):
            raise TypeError(f"the body of {self.method} {self.path} must be a dict, not {type(body).__name__}")
        # A union of bodies has no keys of its own: the server tells them apart.
        required: frozenset[str] = getattr(self.body, "__required_keys__", frozenset())
        optional: frozenset[str] = getattr(self.body, "__optional_keys__", frozenset())
        missing = sorted(required - set(body))
        if missing:
            raise ValueError(f"{self._body_name()} needs {', '.join(missing)}")
        unknown = sorted(str(key) for key in set(body) - required - optional)
        if self.body_closed and (required or optional) and unknown:
            raise ValueError(f"{self._body_name()} has no member {', '.join(unknown)} (it has {', '.join(sorted(required | optional))})")
        for member in self.body_members:
            if member.name in body:
                member.check(body[member.name])
        try:
            text = json.dumps(body, default=_json_value, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
        except ValueError as error:
            if "Out of range float" in str(error):
                raise ValueError(f"{self._body_name()} holds NaN or infinity, which JSON cannot carry: send None for a missing value") from None
            raise
        return text.encode("utf-8")

