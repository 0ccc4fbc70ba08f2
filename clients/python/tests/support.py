"""What the tests share: one Akker server for the run, users with keys, fields to put on farms."""
from __future__ import annotations

import atexit
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import akker  # noqa: E402

from .server import AkkerServer  # noqa: E402

_shared: AkkerServer | None = None


def shared_server() -> AkkerServer:
    """The server most tests use, started on first use and stopped when the run ends."""
    global _shared
    if _shared is None:
        _shared = AkkerServer()
        atexit.register(_shared.stop)
    return _shared


def new_client(server: AkkerServer | None = None, **options: object) -> akker.Client:
    """A client of a new user."""
    server = server or shared_server()
    _, key = server.sign_up()
    return akker.Client(server.url, key, **options)  # type: ignore[arg-type]


def rectangle(west: float, south: float = 52.0, size: float = 0.002) -> dict:
    """A GeoJSON Polygon of a small rectangle, counterclockwise."""
    east, north = west + size, south + size
    return {"type": "Polygon", "coordinates": [[[west, south], [east, south], [east, north], [west, north], [west, south]]]}


def field(name: str, west: float, **members: object) -> dict:
    return {"b_name": name, "b_start": "2024-01-01", "b_geometry": rectangle(west), **members}
