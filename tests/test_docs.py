"""The examples in docstrings run (for both decoders) and the README's Python examples are real."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "acp_transcript",
    "acp_transcript._decoder_py",
    "acp_transcript._unicode_policy",
    "acp_transcript.terminals",
    "acp_transcript.conversion",
    "acp_transcript.display",
    "acp_transcript.replay",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), raise_on_error=False, verbose=False)
    assert result.failed == 0
    assert result.attempted > 0 or name == "acp_transcript"


def test_compiled_docstring_examples(impl):
    for obj in (impl.TranscriptDecoder, impl.sanitize, impl.sanitize_batch):
        parser = doctest.DocTestParser()
        test = parser.get_doctest(obj.__doc__, {obj.__name__: obj}, obj.__name__, None, 0)
        runner = doctest.DocTestRunner()
        runner.run(test)
        assert runner.failures == 0 and runner.tries > 0
