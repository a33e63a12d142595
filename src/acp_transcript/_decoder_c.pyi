# Type information for the compiled core; the Python twin (_decoder_py.py) has the same signatures.
from collections.abc import Iterable
from typing import Any

class TranscriptDecoder:
    def __init__(
        self,
        *,
        mode: str = "render",
        tabs: str = "keep",
        alt_screen: str = "drop",
        unicode: str = "standard",
        live_lines: int = 200,
        max_line_cells: int = 65536,
        max_live_cells: int = 1048576,
        max_jump: int = 1024,
        max_string_bytes: int = 65536,
    ) -> None: ...
    @property
    def options(self) -> dict[str, object]: ...
    @property
    def stats(self) -> dict[str, int]: ...
    @property
    def live(self) -> str: ...
    def reset(self) -> None: ...
    def decode(self, data: bytes | bytearray | memoryview, final: bool = False) -> str: ...
    def decode_base64(self, chunk: str | bytes | bytearray | memoryview, final: bool = False) -> str: ...

def sanitize(data: bytes | bytearray | memoryview, **options: Any) -> str: ...
def sanitize_batch(items: Iterable[bytes | bytearray | memoryview], **options: Any) -> list[str]: ...
