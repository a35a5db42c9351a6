"""Every ```python block of sdk/python/README.md, run against the real server with ``base_url`` and
``api_key`` given; a ``# "text"`` comment promises what the block prints."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_the_readme_has_its_examples() -> None:
    assert len(BLOCKS) >= 7


@pytest.mark.parametrize("code", BLOCKS, ids=[f"example-{i + 1}" for i in range(len(BLOCKS))])
def test_readme_example(
    code: str, base_url: str, api_key: str, capsys: pytest.CaptureFixture
) -> None:
    exec(compile(code, "README.md", "exec"), {"base_url": base_url, "api_key": api_key})
    printed = capsys.readouterr().out
    assert printed, "the example printed nothing"
    for promised in re.findall(r'# "([^"]+)"', code):
        assert promised in printed
