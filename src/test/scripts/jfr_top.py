#!/usr/bin/env python3
"""Where a JFR recording's CPU samples and allocations went, in a few tables.

Usage: src/test/scripts/jfr_top.py RECORDING.jfr [--thread SUBSTRING] [--top N]

Reads `jfr print --json --events jdk.ExecutionSample,jdk.ObjectAllocationSample` and prints:
samples per thread; the hottest methods by own samples and by samples with the method anywhere
on the stack; the same "on the stack" shares for named stages of a bus request (local-delivery
copies, header copies, request parsing, reply building, engine, ...); and the allocation
samples' weight per class and per stage. Shares of stages overlap (a stage inside another counts
in both); they answer "how much would go away if this stage cost nothing".
"""
import argparse
import collections
import json
import subprocess
import sys

# Stage name -> marker sets: a sample is in the stage when, for one of its sets, every substring
# of the set matches some "class.method" on the stack.
STAGES = [
    ("JsonObject deep copy on local delivery (codec transform)", [["JsonObjectMessageCodec.transform"],
                                                                  ["JsonArrayMessageCodec.transform"]]),
    ("message headers copied on receive (MessageImpl copy)", [["MessageImpl.<init>", "HeadersMultiMap"],
                                                               ["MessageImpl.<init>", "MultiMap.caseInsensitiveMultiMap"]]),
    ("a context created per reply (HandlerRegistration.unregister)", [["HandlerRegistration.unregister",
                                                                        "VertxImpl.createContext"]]),
    ("request timeout timer set and cancelled", [["ReplyHandler.<init>", "setTimer"],
                                                 ["ReplyHandler.dispatch", "cancelTimer"]]),
    ("DeliveryOptions built by the sender", [["DeliveryOptions.<init>"], ["DeliveryOptions.addHeader"]]),
    ("JSON wire encode/decode (clustered)", [["JsonObjectMessageCodec.encodeToWire"],
                                             ["JsonObjectMessageCodec.decodeFromWire"], ["JacksonCodec"]]),
    ("api: BusRequests.parse (request checks)", [["api.BusRequests.parse"]]),
    ("api: BusReplies.toJson (reply building)", [["api.BusReplies.toJson"]]),
    ("api: BusFrontVerticle.onRequest (whole)", [["api.BusFrontVerticle.onRequest"]]),
    ("api: BusFrontVerticle.onReply (whole)", [["api.BusFrontVerticle.onReply"]]),
    ("api: typed BeanstalkClient", [["api.BeanstalkClient."]]),
    ("engine: QueueEngineVerticle.handle (whole)", [["engine.QueueEngineVerticle.handle"]]),
    ("engine: JobIndex", [["engine.JobIndex."]]),
    ("TCP front (server package)", [["vertxbeanstalkd.tcp."]]),
    ("bench load generator", [["vertxbeanstalkd.bench."]]),
    ("Hazelcast", [["com.hazelcast."]]),
    ("socket I/O (Netty reads and writes)", [["AbstractEpollStreamChannel"], ["AbstractNioByteChannel"],
                                             ["io.netty.channel.epoll.Native"], ["sun.nio.ch."]]),
]


def frames_of(event):
    trace = event["values"].get("stackTrace") or {}
    out = []
    for frame in trace.get("frames", []):
        method = frame.get("method") or {}
        type_name = (method.get("type") or {}).get("name", "?").replace("/", ".")
        out.append(f"{type_name}.{method.get('name', '?')}")
    return out


def in_stage(frames, marker_sets):
    return any(all(any(m in f for f in frames) for m in markers) for markers in marker_sets)


def thread_of(event, key):
    thread = event["values"].get(key) or {}
    return thread.get("javaName") or thread.get("osName") or "?"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("recording")
    parser.add_argument("--thread", default="", help="only threads whose name contains this")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    raw = subprocess.run(["jfr", "print", "--json", "--stack-depth", "64", "--events",
                          "jdk.ExecutionSample,jdk.ObjectAllocationSample,jdk.ThreadAllocationStatistics",
                          args.recording], check=True, capture_output=True, text=True).stdout
    events = json.loads(raw)["recording"]["events"]

    cpu = [e for e in events if e["type"] == "jdk.ExecutionSample"]
    per_thread = collections.Counter(thread_of(e, "sampledThread") for e in cpu)
    print(f"CPU samples: {len(cpu)}")
    for name, n in per_thread.most_common(args.top):
        print(f"  {n:7d} {100.0 * n / max(1, len(cpu)):5.1f}%  {name}")
    cpu = [e for e in cpu if args.thread in thread_of(e, "sampledThread")]
    total = max(1, len(cpu))
    print(f"\nthreads matching '{args.thread}': {len(cpu)} samples")
    own = collections.Counter()
    anywhere = collections.Counter()
    stages = collections.Counter()
    for e in cpu:
        frames = frames_of(e)
        if frames:
            own[frames[0]] += 1
        for f in set(frames):
            anywhere[f] += 1
        for stage, markers in STAGES:
            if in_stage(frames, markers):
                stages[stage] += 1
    print("\nhottest methods, own samples:")
    for f, n in own.most_common(args.top):
        print(f"  {100.0 * n / total:5.1f}%  {f}")
    print("\nhottest methods of ours, samples with the method on the stack:")
    ours = [(f, n) for f, n in anywhere.most_common() if f.startswith("io.github.")]
    for f, n in ours[:args.top]:
        print(f"  {100.0 * n / total:5.1f}%  {f}")
    print("\nstages, samples with the stage on the stack:")
    for stage, _ in STAGES:
        print(f"  {100.0 * stages[stage] / total:5.1f}%  {stage}")

    print("\nbytes allocated per thread between its first and last jdk.ThreadAllocationStatistics:")
    first, last = {}, {}
    for e in events:
        if e["type"] == "jdk.ThreadAllocationStatistics":
            name = thread_of(e, "thread")
            first.setdefault(name, e["values"])
            last[name] = e["values"]
    for name in sorted(first, key=lambda n: last[n]["allocated"] - first[n]["allocated"], reverse=True)[:args.top]:
        delta = last[name]["allocated"] - first[name]["allocated"]
        if delta > 0:
            print(f"  {delta / 1e6:10.1f} MB  {first[name]['startTime']} .. {last[name]['startTime']}  {name}")

    alloc = [e for e in events if e["type"] == "jdk.ObjectAllocationSample"
             and args.thread in thread_of(e, "eventThread")]
    weight = sum(e["values"].get("weight", 0) for e in alloc)
    by_class = collections.Counter()
    by_stage = collections.Counter()
    for e in alloc:
        w = e["values"].get("weight", 0)
        by_class[(e["values"].get("objectClass") or {}).get("name", "?")] += w
        frames = frames_of(e)
        for stage, markers in STAGES:
            if in_stage(frames, markers):
                by_stage[stage] += w
    print(f"\nallocation samples: {len(alloc)}, weight {weight / 1e6:.0f} MB")
    for name, w in by_class.most_common(args.top):
        print(f"  {100.0 * w / max(1, weight):5.1f}%  {name}")
    print("\nallocation by stage (weight with the stage on the stack):")
    for stage, _ in STAGES:
        print(f"  {100.0 * by_stage[stage] / max(1, weight):5.1f}%  {stage}")


if __name__ == "__main__":
    sys.exit(main())
