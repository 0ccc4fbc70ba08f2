"""The client: one object with a group of methods per kind of record."""
from __future__ import annotations

import os
import ssl
from typing import Any

from .api import Api
from .groups.calculations import Calculations
from .groups.catalogues import Catalogues
from .groups.changes import Changes
from .groups.cultivations import Cultivations
from .groups.farm_records import Derogations, GrazingIntentions, OrganicCertifications
from .groups.farms import Farms
from .groups.fertilizers import FertilizerApplications, Fertilizers
from .groups.fields import Fields
from .groups.harvests import Harvests
from .groups.keys import Keys
from .groups.organisations import Organisations
from .groups.sharing import Access, Audit
from .groups.soil_analyses import SoilAnalyses
from .transport import Transport


class Client:
    """A client of one Akker server, with one API key.

    `max_attempts` (4) bounds the sends of one call; a 429 is waited out for as long as its Retry-After
    says when that is at most `max_retry_after` seconds (60), else raised. After a lost answer (or a
    502/503/504) a request is sent again only when that cannot carry it out twice: a GET, a PUT, a POST
    under its Idempotency-Key (each POST gets one, made once per call); a PATCH or DELETE is not resent.
    Waits between such resends start at `retry_delay` seconds (0.25) and double. `timeout` (60 s) bounds
    each connect and each read; `max_response_bytes` (64 MiB) an answer's body.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = 60.0,
        max_attempts: int = 4,
        max_retry_after: float = 60.0,
        retry_delay: float = 0.25,
        max_response_bytes: int = 64 * 1024 * 1024,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        transport = Transport(
            base_url,
            timeout=timeout,
            max_attempts=max_attempts,
            max_retry_after=max_retry_after,
            retry_delay=retry_delay,
            max_response_bytes=max_response_bytes,
            ssl_context=ssl_context,
        )
        api = Api(transport, api_key)
        self._transport = transport
        self.farms = Farms(api)
        self.fields = Fields(api)
        self.cultivations = Cultivations(api)
        self.harvests = Harvests(api)
        self.soil_analyses = SoilAnalyses(api)
        self.fertilizers = Fertilizers(api)
        self.fertilizer_applications = FertilizerApplications(api)
        self.derogations = Derogations(api)
        self.grazing_intentions = GrazingIntentions(api)
        self.organic_certifications = OrganicCertifications(api)
        self.access = Access(api)
        self.audit = Audit(api)
        self.changes = Changes(api)
        self.calculations = Calculations(api)
        self.catalogues = Catalogues(api)
        self.keys = Keys(api)
        self.organisations = Organisations(api)

    @classmethod
    def from_env(cls, **options: Any) -> Client:
        """A client of $AKKER_URL (default http://127.0.0.1:3000) with the key $AKKER_KEY."""
        key = os.environ.get("AKKER_KEY")
        if not key:
            raise ValueError("AKKER_KEY is not set: create a key on Account → Developer Settings → API Keys")
        return cls(os.environ.get("AKKER_URL", "http://127.0.0.1:3000"), key, **options)

    def close(self) -> None:
        """Closes this thread's connection (the next call opens a new one)."""
        self._transport.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
