"""A client of the Akker API for research pipelines and notebooks."""
__version__ = "0.1.0"

from .client import Client  # noqa: E402
from .errors import AkkerError  # noqa: E402
from .records import Record, etag  # noqa: E402

__all__ = ["AkkerError", "Client", "Record", "etag", "__version__"]
