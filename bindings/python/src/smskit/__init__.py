"""SMSKit for Python: phone numbers to E.164, SMS segments and OTP templates, over libsmskit.

    >>> import smskit
    >>> engine = smskit.Engine()
    >>> r = engine.check("+44 7400 123456")
    >>> (r.e164, r.is_valid, r.type.value, r.region)
    ('+447400123456', True, 'mobile', 'GB')
    >>> engine.check_many(["+16502530000", "garbage"]).column("error")
    [None, 'not_a_number']
    >>> engine.format("6502530000", "national", "US")
    '(650) 253-0000'
"""

from ._engine import CheckResults, Engine
from ._native import API_VERSION, lib as _lib
from ._types import (
    CheckResult,
    FictionalKind,
    Format,
    PhoneNumberType,
    Possibility,
    RenderedMessage,
    Segments,
    SMSKitError,
)


def version() -> str:
    """SMSKit's version (of the loaded library)."""
    return _lib.smskit_version().decode()


def metadata_version() -> str:
    """The libphonenumber metadata version numbers are checked against, e.g. "9.0.43"."""
    return _lib.smskit_metadata_version().decode()


__version__ = "0.1.0"
__all__ = [
    "API_VERSION", "CheckResult", "CheckResults", "Engine", "FictionalKind", "Format", "PhoneNumberType",
    "Possibility", "RenderedMessage", "Segments", "SMSKitError", "metadata_version", "version",
]
