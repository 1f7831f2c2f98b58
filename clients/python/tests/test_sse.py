"""The event-stream parser under adversarial chunking (offline)."""
from __future__ import annotations

import random
import unittest
from typing import List

from svc_client.sse import SseEvent, SseParser

# One stream touching every rule: a comment, multi-line data, an event without data (not
# dispatched), a field without colon, "data:" without a space, an id, retry and unknown fields,
# non-ASCII text (2-, 3- and 4-byte UTF-8), an empty data line, a value keeping its second space.
LINES = [
    ": a comment, ignored",
    "event: stage",
    'data: {"stage":"syntax.parse",',
    'data: "detail":"café ✓ 🙂"}',
    "",
    "event: nothing",
    "",
    "event: result",
    "id: 7",
    "retry: 1000",
    "unknown: field",
    "data",
    "data:tight",
    "data:  two spaces",
    "",
    ":another comment",
    "event: done",
    "data: {}",
    "",
]
EXPECTED = [
    SseEvent("stage", '{"stage":"syntax.parse",\n"detail":"café ✓ 🙂"}', ""),
    SseEvent("result", "\ntight\n two spaces", "7"),
    SseEvent("done", "{}", "7"),
]


def encode(eol: str, bom: bool = False) -> bytes:
    text = eol.join(LINES) + eol
    return (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")


def parse(chunks: List[bytes]) -> List[SseEvent]:
    parser = SseParser()
    events: List[SseEvent] = []
    for chunk in chunks:
        events.extend(parser.feed(chunk))
    events.extend(parser.close())
    return events


class SseParserTest(unittest.TestCase):
    def test_whole_stream_each_line_ending(self) -> None:
        for eol in ("\n", "\r\n", "\r"):
            with self.subTest(eol=repr(eol)):
                self.assertEqual(parse([encode(eol)]), EXPECTED)

    def test_byte_by_byte(self) -> None:
        for eol in ("\n", "\r\n", "\r"):
            data = encode(eol)
            with self.subTest(eol=repr(eol)):
                self.assertEqual(parse([data[i : i + 1] for i in range(len(data))]), EXPECTED)

    def test_every_split_into_two_chunks(self) -> None:
        for eol in ("\n", "\r\n", "\r"):
            data = encode(eol, bom=True)
            for cut in range(len(data) + 1):
                with self.subTest(eol=repr(eol), cut=cut):
                    self.assertEqual(parse([data[:cut], data[cut:]]), EXPECTED)

    def test_random_chunkings_with_empty_chunks(self) -> None:
        rng = random.Random(20261126)
        for eol in ("\n", "\r\n", "\r"):
            data = encode(eol, bom=True)
            for _ in range(300):
                chunks, i = [], 0
                while i < len(data):
                    n = rng.choice([0, 1, 1, 2, 3, 5, 8, 64])
                    chunks.append(data[i : i + n])
                    i += n
                with self.subTest(eol=repr(eol), sizes=[len(c) for c in chunks][:20]):
                    self.assertEqual(parse(chunks), EXPECTED)

    def test_cr_at_chunk_end_then_lf_is_one_line_end(self) -> None:
        # Were "\r" | "\n" two line ends, the empty line between them would dispatch "a" alone.
        parser = SseParser()
        self.assertEqual(parser.feed(b"data: a\r"), [])
        self.assertEqual(parser.feed(b"\ndata: b\r"), [])
        self.assertEqual(parser.feed(b""), [])
        self.assertEqual(parser.feed(b"\n\r"), [SseEvent("message", "a\nb", "")])
        self.assertEqual(parser.feed(b"\n"), [])

    def test_cr_then_cr_is_two_line_ends(self) -> None:
        parser = SseParser()
        self.assertEqual(parser.feed(b"data: x\r"), [])
        self.assertEqual(parser.feed(b"\r"), [SseEvent("message", "x", "")])

    def test_multi_line_data_joined_with_lf(self) -> None:
        self.assertEqual(parse([b"data: one\ndata: two\ndata: three\n\n"]), [SseEvent("message", "one\ntwo\nthree", "")])

    def test_incomplete_event_at_end_is_discarded(self) -> None:
        self.assertEqual(parse([b"event: result\ndata: {}\n"]), [])
        self.assertEqual(parse([b"event: result\ndata: {}"]), [])

    def test_utf8_split_inside_a_character(self) -> None:
        data = "data: 🙂é\n\n".encode("utf-8")
        start = data.index(b"\xf0")
        for cut in range(start + 1, start + 4):
            with self.subTest(cut=cut):
                self.assertEqual(parse([data[:cut], data[cut:]]), [SseEvent("message", "🙂é", "")])

    def test_invalid_utf8_becomes_replacement_character(self) -> None:
        self.assertEqual(parse([b"data: a\xffb\n\n"]), [SseEvent("message", "a\ufffdb", "")])

    def test_bom_only_at_start(self) -> None:
        self.assertEqual(parse([b"\xef\xbb", b"\xbfdata: x\n\n"]), [SseEvent("message", "x", "")])
        # A BOM later in the stream is not stripped: "\ufeffdata" is an unknown field.
        self.assertEqual(parse([b"data: x\n\n\xef\xbb\xbfdata: y\n\n"]), [SseEvent("message", "x", "")])

    def test_text_chunks(self) -> None:
        self.assertEqual(parse([encode("\r\n").decode("utf-8")[:10], encode("\r\n").decode("utf-8")[10:]]), EXPECTED)  # type: ignore[list-item]


if __name__ == "__main__":
    unittest.main()
