#!/usr/bin/env python3
"""Restart test: does restarting one node of a three-node group make the primary change on its own?

A node restarted after a kill -9 comes back with a new CP identity (open-source Hazelcast keeps no
CP state on disk): it removes its former self from the CP members and takes a seat again. The
primary must stay primary through that (with --target standby), and after the failover a kill of
the primary causes, the new primary must stay primary through the old one's return (--target
primary). A change of primary, or of its term, that no kill caused is a spurious failover.

Reuses kill_test.py's nodes, group and connection (three nodes of the shaded jar on 127.0.0.1,
one JVM each, with conf/cluster-group.xml made this run's own: cluster name and ports).
Light load: one producer putting a small job every 20 ms, one consumer reserving and deleting,
each on whatever node serves, ignoring errors (the load is there to keep the Raft log and the
stream busy, not to check the promise: kill_test.py does that).

Each cycle:
  1. waits for the group to be stable (one primary serving, two standbys caught up), notes the
     primary and its term;
  2. kill -9 of the target (a standby, or the primary; --target alternate: both in turn);
  3. after a primary kill, waits for the new primary; then starts the killed node again;
  4. waits until the group is stable again, then watches --watch-seconds more (the CP seat the
     node takes settles for 3 s; Hazelcast's CP leadership rebalance runs every 60 s);
  5. spurious when the primary (or its term) at the end differs from the one expected: the same
     as before for a standby restart, the one elected after the kill for a primary restart.
It also counts, per cycle, the lines "is closed by server" in the nodes' logs.

Bounded: every wait has a deadline; every JVM started is ended by its pid. Outside CI.

Usage (from the repository root, after mvn -B -q package -DskipTests):
    flock /tmp/cluster.lock python3 src/test/scripts/restart_test.py --cycles 40 --target alternate
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import threading
import time
import uuid
import kill_test as kt  # beside this file


def load(stopping, group, counts):
    """One producer and one consumer, each on the first node that serves; errors only counted."""
    tube = "restart-test"
    conns = {"p": None, "c": None}

    def connect():
        for node in group.nodes:
            if node.is_alive():
                try:
                    return kt.Conn(node.port, 3.0)
                except OSError:
                    pass
        return None

    n = 0
    while not stopping.is_set():
        try:
            if conns["p"] is None:
                conns["p"] = connect()
                conns["p"].call("use " + tube)
            if conns["c"] is None:
                conns["c"] = connect()
                conns["c"].call("watch " + tube)
            n += 1
            body = "job-%d" % n
            reply = conns["p"].call("put 0 0 60 %d\r\n%s" % (len(body), body))
            counts["put:" + reply.split(" ")[0]] = counts.get("put:" + reply.split(" ")[0], 0) + 1
            reply = conns["c"].call("reserve-with-timeout 0")
            if reply.startswith("RESERVED"):
                conns["c"].body(reply)
                conns["c"].call("delete " + reply.split(" ")[1])
            time.sleep(0.02)
        except (OSError, AttributeError, ValueError, IndexError):
            counts["errors"] = counts.get("errors", 0) + 1
            for k in ("p", "c"):
                if conns[k] is not None:
                    conns[k].close()
                conns[k] = None
            time.sleep(0.2)
    for c in conns.values():
        if c is not None:
            c.close()


def primary_of(group):
    for node, h in zip(group.nodes, group.health()):
        if h and h.get("role") == "primary":
            return node, h.get("term")
    return None, None


def closed_lines(nodes):
    total = 0
    for node in nodes:
        try:
            with open(node.log_path, "rb") as f:
                total += f.read().count(b"is closed by server")
        except OSError:
            pass
    return total


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--jar", default=os.path.join(kt.ROOT, "target", "vertx-beanstalkd.jar"))
    p.add_argument("--jvm-options", default=os.path.join(kt.ROOT, "conf", "jvm.options"))
    p.add_argument("--java", default=shutil.which("java") or "java")
    p.add_argument("--cluster-config", default=os.path.join(kt.ROOT, "conf", "cluster-group.xml"))
    p.add_argument("--cycles", type=int, default=30)
    p.add_argument("--target", choices=("standby", "primary", "alternate"), default="standby")
    p.add_argument("--watch-seconds", type=float, default=8.0)
    p.add_argument("--timeout", type=float, default=120.0, help="deadline of each wait")
    p.add_argument("--max-minutes", type=float, default=14.0, help="stop starting cycles after this")
    p.add_argument("--keep-dir", action="store_true")
    p.add_argument("--report", default="restart-test-report.json")
    args = p.parse_args()
    # What kill-test's Node reads from its args.
    args.min_acks, args.when_too_few, args.extra_conf = 1, "serve", "{}"

    workdir = tempfile.mkdtemp(prefix="restart-test-")
    hz_ports = [kt.free_port() for _ in range(3)]
    with open(args.cluster_config) as f:
        given = f.read()
    name = "restart-test-" + uuid.uuid4().hex
    xmls = []
    for i, port in enumerate(hz_ports):
        path = os.path.join(workdir, "cluster-%d.xml" % i)
        with open(path, "w") as f:
            f.write(kt.isolated_cluster_xml(given, name, port, hz_ports))
        xmls.append(path)
    nodes = [kt.Node(i, args, workdir, xmls[i]) for i in range(3)]
    group = kt.Group(nodes)
    stopping = threading.Event()
    counts = {}
    cycles = []
    started = time.monotonic()
    ok = False
    print("restart-test: %s in %s, target %s" % (args.jar, workdir, args.target), flush=True)
    try:
        for node in nodes:
            node.start()
        group.await_started(args.timeout)
        group.await_stable("at start", args.timeout)
        loader = threading.Thread(target=load, args=(stopping, group, counts), daemon=True)
        loader.start()
        for cycle in range(1, args.cycles + 1):
            if (time.monotonic() - started) / 60 > args.max_minutes:
                print("restart-test: %.0f minutes passed; no more cycles" % args.max_minutes, flush=True)
                break
            primary = group.await_stable("before cycle %d" % cycle, args.timeout)
            _, term = primary_of(group)
            kind = args.target if args.target != "alternate" else ("standby" if cycle % 2 else "primary")
            victim = primary if kind == "primary" else [n for n in nodes if n is not primary][cycle % 2]
            closed_before = closed_lines(nodes)
            fault_at = time.monotonic()
            victim.kill()
            expected, expected_term = primary, term
            if kind == "primary":
                expected, expected_term = kt.wait_for("a new primary", args.timeout,
                                                      lambda: group.new_primary(victim, term))
            victim.start()
            group.await_stable("after restarting %s" % victim.name, args.timeout)
            rejoined_s = time.monotonic() - fault_at
            # Watch for the moment after: the seat settles, the CP groups rebalance.
            changes = []
            end = time.monotonic() + args.watch_seconds
            while time.monotonic() < end:
                node, t = primary_of(group)
                if node is not None and (node is not expected or (expected_term is not None and t != expected_term)):
                    changes.append((node.name, t))
                time.sleep(0.2)
            now_primary, now_term = primary_of(group)
            spurious = bool(changes) or now_primary is not expected or (
                expected_term is not None and now_term != expected_term)
            row = {"cycle": cycle, "kind": kind, "victim": victim.name, "fault_clock": kt.clock(fault_at),
                   "expected": [expected.name, expected_term],
                   "end": [now_primary.name if now_primary else None, now_term],
                   "rejoined_s": round(rejoined_s, 2), "spurious": spurious,
                   "closed_by_server": closed_lines(nodes) - closed_before}
            cycles.append(row)
            print("restart-test: %s" % json.dumps(row), flush=True)
        ok = True
    except (kt.DeadlinePassed, kt.SetupFailed) as e:
        print("restart-test: stopped: %s; the group: %s" % (e, group.describe()), flush=True)
    finally:
        stopping.set()
        for node in nodes:
            if node.is_alive():
                if node.is_stopped:
                    node.resume()
                node.kill()
    spurious = [c for c in cycles if c["spurious"]]
    summary = {"cycles": len(cycles), "standby_restarts": sum(c["kind"] == "standby" for c in cycles),
               "primary_restarts": sum(c["kind"] == "primary" for c in cycles),
               "spurious_failovers": len(spurious), "spurious_cycles": [c["cycle"] for c in spurious],
               "closed_by_server": sum(c["closed_by_server"] for c in cycles),
               "load": counts, "completed": ok, "workdir": workdir}
    print("restart-test: %s" % json.dumps(summary), flush=True)
    with open(args.report, "w") as f:
        json.dump({"summary": summary, "cycles": cycles}, f, indent=1)
    if args.keep_dir or spurious or not ok:
        print("restart-test: logs kept in %s" % workdir, flush=True)
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0 if ok and not spurious else 1


if __name__ == "__main__":
    sys.exit(main())
