"""Bundles libsmskit into the package at install time (pyproject.toml has the metadata),
with the Swift runtime libraries it needs (SMSKIT_BUNDLE_RUNTIME=0: not those).

The library is taken from $SMSKIT_LIBRARY, else from the repository's
.build/release/libsmskit-c.so (run `swift build -c release --product smskit-c` first, or
install.sh, which does both). Nothing is compiled here: the bindings are ctypes.
"""

import os
import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = Path(__file__).resolve().parent
NAME = "libsmskit-c.so"


def library() -> Path:
    explicit = os.environ.get("SMSKIT_LIBRARY")
    candidates = [Path(explicit)] if explicit else [HERE.parent.parent / ".build" / "release" / NAME]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise SystemExit(
        "smskit: libsmskit not found at " + ", ".join(map(str, candidates))
        + ": run `swift build -c release --product smskit-c` at the repository root first "
        "(or bindings/python/install.sh), or set SMSKIT_LIBRARY to the .so"
    )


def swift_runtime(path: Path) -> list:
    """The shared libraries `path` needs from a Swift toolchain (libswiftCore.so, libdispatch.so,
    libFoundationEssentials.so...), as ldd resolves them: bundled next to it, where the
    library's RUNPATH ($ORIGIN) finds them when no toolchain is installed."""
    try:
        out = subprocess.run(["ldd", str(path)], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return []
    found = []
    for line in out.splitlines():
        parts = line.split("=>")
        if len(parts) != 2:
            continue
        resolved = parts[1].strip().split(" (")[0]
        if "/lib/swift/" in resolved and os.path.isfile(resolved):
            found.append(Path(resolved))
    return found


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        target = Path(self.build_lib) / "smskit" / "_lib"
        target.mkdir(parents=True, exist_ok=True)
        source = library()
        shutil.copy2(source, target / NAME)
        if os.environ.get("SMSKIT_BUNDLE_RUNTIME", "1") == "1":
            for dependency in swift_runtime(source):
                shutil.copy2(dependency, target / dependency.name)


class BinaryDistribution(Distribution):
    """The wheel holds a native library: tag it for this platform, not py3-none-any."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithLibrary}, distclass=BinaryDistribution)
