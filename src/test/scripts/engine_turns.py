"""The engine's turns from a JFR recording: the event vertxbeanstalkd.EngineTurn, read per window.

The server records the event only when started with -Dvertxbeanstalkd.engineTurns=true and a
recording whose settings enable it (JFC below: every turn of 1 ms or more). Each event is one turn
of the engine's verticle (a batch of requests, a timer, a resumed slice): its wall-clock duration,
what ran, and the engine thread's CPU time in it, which leaves out the time the thread waited for a
CPU (on a shared machine, other processes' doing). Imported by list_walk.py and flush_under_load.py.
"""
import json
import os
import subprocess
from datetime import datetime

TURN_EVENT = "vertxbeanstalkd.EngineTurn"
JFC = """<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0" label="engine turns">
  <event name="%s">
    <setting name="enabled">true</setting>
    <setting name="threshold">1 ms</setting>
  </event>
</configuration>
""" % TURN_EVENT


def read(jfr_path, java_home):
    """Every recorded engine turn: (start epoch seconds, duration ms, what, CPU ms or None)."""
    jfr = os.path.join(java_home, "bin", "jfr")
    out = subprocess.run([jfr, "print", "--json", "--events", TURN_EVENT, jfr_path], capture_output=True,
                         text=True, check=True, timeout=300).stdout
    events = json.loads(out)["recording"]["events"] if out.strip() else []
    found = []
    for e in events:
        start = datetime.fromisoformat(e["values"]["startTime"].replace("Z", "+00:00")).timestamp()
        cpu = e["values"].get("cpuNanos")
        found.append((start, duration_ms(e["values"]["duration"]), e["values"].get("what"),
                      None if cpu is None else duration_ms(cpu)))
    return found


def duration_ms(value):
    # ISO-8601, e.g. PT0.001234567S (jfr print --json writes timespans so), or nanoseconds.
    if isinstance(value, (int, float)):
        return value / 1e6
    assert value.startswith("PT") and value.endswith("S"), value
    return float(value[2:-1]) * 1e3


def window(all_turns, start, end):
    """The turns of 1 ms or more that began from start to end (epoch s): how many, the longest, and
    those over 5 ms by what ran, in wall-clock time and in CPU time."""
    inside = [t for t in all_turns if start <= t[0] <= end]
    over5, cpu_over5 = {}, {}
    for _, ms, what, cpu_ms in inside:
        if ms > 5.0:
            over5[what] = over5.get(what, 0) + 1
        if cpu_ms is not None and cpu_ms > 5.0:
            cpu_over5[what] = cpu_over5.get(what, 0) + 1
    return {"turnsOver1Ms": len(inside), "longestTurnMs": round(max([t[1] for t in inside], default=0.0), 2),
            "turnsOver5Ms": sum(over5.values()), "over5ByWhat": over5,
            "longestTurnCpuMs": round(max([t[3] or 0.0 for t in inside], default=0.0), 2),
            "turnsOver5MsCpu": sum(cpu_over5.values()), "cpuOver5ByWhat": cpu_over5}
