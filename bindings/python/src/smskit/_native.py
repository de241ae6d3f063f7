"""ctypes declarations of libsmskit's C API (Sources/CSMSKit/include/smskit.h) and library loading.

ctypes, not cffi: it is in the standard library, so installing needs no compiler and no build
dependency, and the API is small plain-C (ints, pointers, one fixed-size struct) that ctypes
describes exactly. Batches amortize ctypes' per-call cost; see bench/ for the per-call figure.
"""

from __future__ import annotations

import ctypes
import os
import struct
import sys
from pathlib import Path

API_VERSION = 1
E164_CAPACITY = 24
LIBRARY_NAME = "libsmskit-c.so" if sys.platform != "darwin" else "libsmskit-c.dylib"

# smskit_check_result: int32 error, int32 country_code, uint8 possibility, type, valid, fictional,
# e164_length, 3 reserved, char region[4], char e164[24]: 44 bytes, no padding.
RESULT_STRUCT = struct.Struct("<iiBBBBB3x4s24s")
RESULT_SIZE = RESULT_STRUCT.size
assert RESULT_SIZE == 44


class CheckResultStruct(ctypes.Structure):
    _fields_ = [
        ("error", ctypes.c_int32),
        ("country_code", ctypes.c_int32),
        ("possibility", ctypes.c_uint8),
        ("type", ctypes.c_uint8),
        ("valid", ctypes.c_uint8),
        ("fictional", ctypes.c_uint8),
        ("e164_length", ctypes.c_uint8),
        ("reserved", ctypes.c_uint8 * 3),
        ("region", ctypes.c_char * 4),
        ("e164", ctypes.c_char * E164_CAPACITY),
    ]


class SegmentsResultStruct(ctypes.Structure):
    _fields_ = [
        ("encoding", ctypes.c_int32),
        ("segments", ctypes.c_int32),
        ("units", ctypes.c_int64),
        ("remaining", ctypes.c_int32),
        ("exceeds_limit", ctypes.c_uint8),
        ("reserved", ctypes.c_uint8 * 3),
    ]


def _candidates() -> list[Path]:
    """Where the library is looked for, in order."""
    found = []
    explicit = os.environ.get("SMSKIT_LIBRARY")
    if explicit:
        found.append(Path(explicit))
    found.append(Path(__file__).resolve().parent / "_lib" / LIBRARY_NAME)
    return found


def _load() -> ctypes.CDLL:
    tried = []
    for path in _candidates():
        tried.append(str(path))
        if path.is_file():
            return ctypes.CDLL(str(path))
    raise ImportError(
        "smskit: libsmskit not found (tried: " + ", ".join(tried) + "). Build it with "
        "`swift build -c release --product smskit-c` and set SMSKIT_LIBRARY to "
        ".build/release/" + LIBRARY_NAME + ", or reinstall with bindings/python/install.sh."
    )


lib = _load()

_P = ctypes.c_void_p
_CP = ctypes.c_char_p
_SZ = ctypes.c_size_t
_I32 = ctypes.c_int32
_SZP = ctypes.POINTER(ctypes.c_size_t)


def _declare(name: str, restype, *argtypes) -> None:
    function = getattr(lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)


_declare("smskit_api_version", ctypes.c_uint32)
_declare("smskit_version", _CP)
_declare("smskit_metadata_version", _CP)
_declare("smskit_status_name", _CP, _I32)
_declare("smskit_status_message", _CP, _I32)
_declare("smskit_engine_create", _P)
_declare("smskit_engine_free", None, _P)
_declare("smskit_check", _I32, _P, _CP, _SZ, _CP, ctypes.POINTER(CheckResultStruct))
_declare("smskit_check_batch", _I32, _P, ctypes.POINTER(_CP), _SZP, _SZ, ctypes.POINTER(_CP), _CP, _P)
_declare("smskit_check_packed", _I32, _P, _P, _SZ, _P, _SZ, _P, _CP, _P)
_declare("smskit_check_split", _I32, _P, _P, _SZ, ctypes.c_char, _SZ, _P, _CP, _P)
_declare("smskit_join_field", _I32, _P, _SZ, _I32, ctypes.c_char, _P, _SZ, _SZP)
_declare("smskit_format", _I32, _P, _CP, _SZ, _CP, _I32, _P, _SZ, _SZP)
_declare("smskit_segments", _I32, _P, _CP, _SZ, ctypes.POINTER(SegmentsResultStruct))
_declare("smskit_render", _I32, _P, _CP, _CP, _CP, _I32, _CP, _P, _SZ, _SZP, ctypes.POINTER(ctypes.c_int32))

if lib.smskit_api_version() != API_VERSION:
    raise ImportError(
        f"smskit: the loaded libsmskit has API version {lib.smskit_api_version()}, this package needs {API_VERSION}"
    )

# Status codes (smskit.h).
OK = 0
ERR_BUFFER_TOO_SMALL = 3
FIELD_E164 = 0
FIELD_REGION = 1
