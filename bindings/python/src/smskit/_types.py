"""The plain values the bindings return: str enums and frozen dataclasses."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Optional


class PhoneNumberType(str, Enum):
    """A number's type (Swift `PhoneNumberType`); the values are `smskit validate`'s names."""

    UNKNOWN = "unknown"
    FIXED_LINE = "fixed_line"
    MOBILE = "mobile"
    FIXED_LINE_OR_MOBILE = "fixed_line_or_mobile"
    TOLL_FREE = "toll_free"
    PREMIUM_RATE = "premium_rate"
    SHARED_COST = "shared_cost"
    VOIP = "voip"
    PERSONAL_NUMBER = "personal_number"
    PAGER = "pager"
    UAN = "uan"
    VOICEMAIL = "voicemail"


class Possibility(str, Enum):
    """libphonenumber's cheap length check (Swift `PhoneNumberPossibility`)."""

    IS_POSSIBLE = "is_possible"
    IS_POSSIBLE_LOCAL_ONLY = "is_possible_local_only"
    INVALID_COUNTRY_CODE = "invalid_country_code"
    TOO_SHORT = "too_short"
    INVALID_LENGTH = "invalid_length"
    TOO_LONG = "too_long"


class FictionalKind(str, Enum):
    """Why a number is fictional (Swift `FictionalKind`)."""

    RESERVED_FOR_FICTION = "reserved-for-fiction"
    NANP_555_CONVENTION = "nanp-555-convention"
    REPORTED = "reported"


class Format(str, Enum):
    """The four formats (Swift `PhoneNumberFormat`); values are the C API's."""

    E164 = "e164"
    INTERNATIONAL = "international"
    NATIONAL = "national"
    RFC3966 = "rfc3966"


# Indexed by the C enumerations' values (smskit.h).
TYPES = tuple(PhoneNumberType)
POSSIBILITIES = (None,) + tuple(Possibility)
FICTIONAL = (None,) + tuple(FictionalKind)
FORMATS = {Format.E164: 0, Format.INTERNATIONAL: 1, Format.NATIONAL: 2, Format.RFC3966: 3}


@dataclass(frozen=True)
class CheckResult:
    """One number's answers: the fields of a `smskit validate` record (Swift `PhoneNumberCheck`).

    `error` is None when the number parsed; else its name ("not_a_number", "too_short_nsn",
    "invalid_country_code", "invalid_utf8", "line_too_long"...), and the other fields are empty.
    """

    error: Optional[str]
    e164: Optional[str]
    possibility: Optional[Possibility]
    is_valid: bool
    type: Optional[PhoneNumberType]
    region: Optional[str]
    fictional: Optional[FictionalKind]
    country_code: Optional[int]

    @property
    def ok(self) -> bool:
        """Whether the number parsed."""
        return self.error is None


@dataclass(frozen=True)
class Segments:
    """How a text goes over the air (Swift `SMSAnalysis`)."""

    encoding: str  # "gsm7" or "ucs2"
    segments: int
    units: int  # GSM 7-bit septets (escapes count two) or UTF-16 units
    remaining: int  # units still free in the last part
    exceeds_limit: bool  # over 255 parts


@dataclass(frozen=True)
class RenderedMessage:
    """A rendered one-time-code SMS (Swift `RenderedMessage`)."""

    text: str
    segments: int


class SMSKitError(ValueError):
    """A call the library refused: `code` (int), `name` ("invalid_code"...) and a message."""

    def __init__(self, code: int, name: str, message: str):
        super().__init__(f"{name}: {message}")
        self.code = code
        self.name = name
