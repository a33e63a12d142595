"""Build the Cython core. Metadata lives in pyproject.toml; this file only decides about the extension.

- ``ACP_TRANSCRIPT_NO_EXTENSIONS`` (non-empty): build no extension (a pure-Python install or wheel).
- A compile failure is tolerated for a local install from source: the fallback runs, and we say so.
- Under cibuildwheel (``CIBUILDWHEEL=1``) a compile failure is fatal: a wheel without its core is a bug.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

NO_EXTENSIONS = bool(os.environ.get("ACP_TRANSCRIPT_NO_EXTENSIONS")) or platform.python_implementation() != "CPython"
REQUIRE_EXTENSIONS = os.environ.get("CIBUILDWHEEL") == "1"


def compile_args() -> list[str]:
    if sys.platform == "win32":
        return ["/O2"]
    # -O3: the decoder is one hot loop; warnings on so new ones show in CI logs; the generated code
    # legitimately has unused functions, which would only be noise.
    return ["-O3", "-Wall", "-Wno-unused-function"]


def extensions() -> list[Extension]:
    if NO_EXTENSIONS:
        return []
    from Cython.Build import cythonize

    ext = Extension(
        "acp_transcript._decoder_c",
        ["src/acp_transcript/_decoder_c.pyx"],
        extra_compile_args=compile_args(),
    )
    return cythonize(
        [ext],
        compiler_directives={
            "language_level": 3,
            # Every index in the hot loop is checked by hand against the buffer sizes (and the ASan/UBSan
            # build plus the fuzz harness check that); Cython's own checks would cost a branch per byte.
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
            # One decoder object holds no shared state with another, so separate instances may run in
            # parallel threads; a single instance is not thread-safe (documented in the README).
            "freethreading_compatible": True,
            "embedsignature": True,
        },
        annotate=bool(os.environ.get("ACP_TRANSCRIPT_ANNOTATE")),
    )


def is_gcc(compiler: object) -> bool:
    """Whether the C compiler is GCC (on macOS ``gcc`` is Clang: its ``--version`` says so)."""
    command = getattr(compiler, "compiler_so", None)
    if getattr(compiler, "compiler_type", "") != "unix" or not command:
        return False
    try:
        version = subprocess.run([command[0], "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "Free Software Foundation" in version and "clang" not in version.lower()


class OptionalBuildExt(build_ext):
    """Fall back to pure Python when the compiler fails, except in wheel builds."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # a missing compiler surfaces as several distutils error types
            self._failed(exc)

    def build_extension(self, ext: Extension) -> None:
        if is_gcc(self.compiler):
            # GCC inlines within a budget for the whole file (40% growth at -O3); the core is one large
            # generated file, so which hot helper loses its inlining moved with unrelated changes (round 16
            # bisected one; in round 17 a scan of SGR parameters outlined the ASCII scan in the text loop,
            # 14.6 -> 15.3 instructions a byte). A budget that is never reached leaves each decision to the
            # call itself. Clang and MSVC have no such unit-wide limit. (benchmarks/README.md, round 17.)
            ext.extra_compile_args = [*ext.extra_compile_args, "--param=inline-unit-growth=400"]
        try:
            super().build_extension(ext)
        except Exception as exc:
            self._failed(exc)

    def _failed(self, exc: Exception) -> None:
        if REQUIRE_EXTENSIONS:
            raise exc
        sys.stderr.write(
            f"\nWARNING: the acp-transcript C core could not be compiled ({exc}).\n"
            "         Installing the pure-Python fallback, which is correct but several times slower.\n\n"
        )


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
