"""bench/motion.py's count of the frames the compositor presented, on trace events made here.

A frame is a PipelineReporter span of the page's renderer begun at a vsync; its state says
whether it reached the screen. The bench takes the frames begun between its marks, one per
frame sequence number, and the time between the vsyncs of presented frames that follow
each other (a frame time of two vsyncs is one frame dropped).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE, OTHER = 10, 20  # renderer processes: the page's and another


@pytest.fixture(scope="module", name="bench")
def _bench():
    spec = importlib.util.spec_from_file_location("bench_motion", ROOT / "bench" / "motion.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def mark(name: str, ts: float, pid: int = PAGE) -> dict:
    return {"name": name, "ph": "I", "ts": ts, "pid": pid, "tid": 1, "cat": "blink.user_timing"}


def frame(seq: int, state: str, pid: int = PAGE, vsync_us: float = 16_667) -> list[dict]:
    """A PipelineReporter span of frame ``seq`` (begun at its vsync) in ``state``."""
    begin = seq * vsync_us
    args = {"frame_reporter": {"frame_sequence": seq, "state": state}}
    return [{"name": "PipelineReporter", "ph": "b", "ts": begin, "pid": pid, "tid": 2,
             "id2": {"local": hex(seq)}, "args": args},
            {"name": "PipelineReporter", "ph": "e", "ts": begin + 12_000, "pid": pid, "tid": 2,
             "id2": {"local": hex(seq)}, "args": {}}]


def events(*frames: list[dict], acted: float = 0, settled: float = 1e9) -> list[dict]:
    out = [mark("pp:bench-acted", acted), mark("pp:bench-settled", settled)]
    for f in frames:
        out += f
    return out


def test_frames_presented_one_after_another_are_a_vsync_apart(bench):
    deltas, partial = bench.presented_frames(events(
        *(frame(s, "STATE_PRESENTED_ALL") for s in range(10, 20))))
    assert len(deltas) == 9 and partial == 0
    assert all(abs(d - 1000 / 60) < 0.01 for d in deltas)
    assert bench.frame_figures(deltas)["dropped"] == 0


def test_a_frame_not_presented_is_dropped_and_a_missing_vsync_too(bench):
    frames = [frame(s, "STATE_PRESENTED_ALL") for s in (10, 11, 13, 16, 17)]
    frames.append(frame(12, "STATE_DROPPED"))
    deltas, _ = bench.presented_frames(events(*frames))
    assert [round(d / (1000 / 60)) for d in deltas] == [1, 2, 3, 1]
    # 7 vsyncs due after the first frame, 4 frames shown: 3 dropped
    assert bench.frame_figures(deltas)["dropped"] == pytest.approx(3 / 7)


def test_a_frame_counts_once_and_is_partial_only_when_no_part_of_it_was_whole(bench):
    frames = [frame(10, "STATE_PRESENTED_ALL"),
              frame(11, "STATE_PRESENTED_PARTIAL"), frame(11, "STATE_PRESENTED_ALL"),
              frame(12, "STATE_PRESENTED_PARTIAL"), frame(12, "STATE_NO_UPDATE_DESIRED"),
              frame(13, "STATE_NO_UPDATE_DESIRED")]
    deltas, partial = bench.presented_frames(events(*frames))
    assert len(deltas) == 2 and partial == 1


def test_only_the_pages_frames_between_the_marks_count(bench):
    vsync = 16_667  # (as frame() puts them)
    frames = [frame(s, "STATE_PRESENTED_ALL") for s in range(5, 25)]
    frames += [frame(s, "STATE_PRESENTED_ALL", pid=OTHER) for s in range(30, 60, 3)]
    deltas, _ = bench.presented_frames(events(*frames, acted=10 * vsync - 1,
                                              settled=14 * vsync + 1))
    assert len(deltas) == 4  # frames 10..14 of the page: five frames, four frame times
    assert bench.presented_frames([mark("pp:other", 0)]) == ([], 0)


def test_a_trace_as_the_browser_writes_it_is_read(bench):
    data = json.dumps({"traceEvents": events(*(frame(s, "STATE_PRESENTED_ALL")
                                                for s in range(3)))}).encode()
    deltas, _ = bench.presented_frames(bench.trace_events(data))
    assert len(deltas) == 2
