"""An incremental text/event-stream parser (the HTML Living Standard's event-stream rules), fed
with chunks exactly as they come off the socket: any split of a line, of a CRLF or of a UTF-8
sequence is handled."""
from __future__ import annotations

import codecs
import re
from typing import List, NamedTuple, Optional, Union

__all__ = ["SseEvent", "SseParser"]

_EOL = re.compile(r"\r\n|\r|\n")


class SseEvent(NamedTuple):
    """One dispatched event: its type (``"message"`` when the stream named none), its data
    (the ``data:`` lines joined with ``\\n``) and the last event id seen (``""`` when none)."""

    event: str
    data: str
    id: str


class SseParser:
    """Feed bytes (or text) with :meth:`feed`; it returns the events completed by that chunk.

    Lines end with CRLF, LF or CR (a CR at the end of one chunk and an LF at the start of the
    next are one line end). ``data:`` lines accumulate (joined with LF); a blank line dispatches;
    lines starting with ``:`` are comments; one space after the colon is dropped; a field
    without a colon has an empty value; unknown fields and ``retry`` are ignored; a leading BOM
    is dropped; an event without data is not dispatched. Bytes are decoded as UTF-8 (invalid
    sequences become U+FFFD, as the standard says). :meth:`close` ends the stream.
    """

    def __init__(self) -> None:
        """A parser at the start of a stream."""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""
        self._after_cr = False
        self._bom_pending = True
        self._event = ""
        self._data: List[str] = []
        self._has_data = False
        self._last_id = ""

    def feed(self, chunk: Union[bytes, bytearray, memoryview, str]) -> List[SseEvent]:
        """Parse one chunk; return the events it completed, in order."""
        if isinstance(chunk, str):
            text = chunk
        else:
            text = self._decoder.decode(bytes(chunk))
        return self._consume(text)

    def close(self) -> List[SseEvent]:
        """End of stream: whatever is incomplete — a line without its line end, an event without
        its dispatching blank line, a truncated UTF-8 sequence — is discarded, as the standard
        says. Returns the (always empty) list of events completed, for symmetry with feed()."""
        self._decoder.reset()
        self._buffer = ""
        self._after_cr = False
        self._reset_event()
        return []

    def _consume(self, text: str) -> List[SseEvent]:
        if not text:
            return []
        if self._bom_pending:
            self._bom_pending = False
            if text.startswith("\ufeff"):
                text = text[1:]
                if not text:
                    return []
        if self._after_cr:
            self._after_cr = False
            if text.startswith("\n"):
                text = text[1:]
                if not text:
                    return []
        buffer = self._buffer + text if self._buffer else text
        events: List[SseEvent] = []
        position = 0
        for match in _EOL.finditer(buffer):
            line = buffer[position : match.start()]
            position = match.end()
            if match.group() == "\r" and position == len(buffer):
                self._after_cr = True
            event = self._line(line)
            if event is not None:
                events.append(event)
        self._buffer = buffer[position:]
        return events

    def _line(self, line: str) -> Optional[SseEvent]:
        if line == "":
            if not self._has_data:
                self._event = ""
                return None
            event = SseEvent(self._event or "message", "\n".join(self._data), self._last_id)
            self._reset_event()
            return event
        if line.startswith(":"):
            return None
        field, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if field == "event":
            self._event = value
        elif field == "data":
            self._data.append(value)
            self._has_data = True
        elif field == "id":
            if "\0" not in value:
                self._last_id = value
        return None

    def _reset_event(self) -> None:
        self._event = ""
        self._data = []
        self._has_data = False
