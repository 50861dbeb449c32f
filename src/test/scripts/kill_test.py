#!/usr/bin/env python3
"""Kill test: a three-node replication group under load, its primary killed or paused over and over.

Written against the contract shared/spec/REPLICATION.md only. Outside CI; python3 standard
library only; loopback only.

  1. Starts three nodes of the shaded jar on 127.0.0.1, one JVM each, as the README starts them:
       java @conf/jvm.options -Dvertx.hazelcast.config=CLUSTER.xml -jar JAR -cluster
            -cluster-host 127.0.0.1 -conf NODE.json
     NODE.json: {"port": P, "http": {"port": H}, "binlog": {"dir": D},
                 "replication": {"enabled": true, "minAcks": M, "whenTooFewStandbys": W}}
     with free ports and a temporary directory per node.
  2. Waits (polling /healthz, no fixed sleeps) until exactly one node says "role": "primary"
     (with its standbys caught up when it reports "standbys"/"degraded") and its TCP port answers
     `list-tube-used` with USING, and the two others say "standby".
  3. Runs --producers and --consumers over raw beanstalkd TCP. Producers put unique bodies and
     record each INSERTED id and body; consumers `reserve-with-timeout T` (--reserve-timeout),
     record the body, `delete`, and record each DELETED. Where they connect, --clients:
       any (the default): every client tries the nodes' ports in turn until one serves
         (`list-tube-used` answers USING), and does so again after any error. 2 producers and 2
         consumers, T = 1, replies awaited --read-timeout (5 s).
       sidecar: every client is an app beside one node (REPLICATION.md, "Every node serves the
         protocol"): producer-K and consumer-K are pinned to node K mod 3's port and never try
         another, so each node has producers and consumers (3 and 3 by default, at least 3 of
         each). A client whose connection is lost connects to its own node again, once that node
         serves. Replies are awaited --sidecar-read-timeout (30 s: above the product's 10 s
         without a primary and the failover after a pause), so that a client gives up its
         connection only when the node closed it or stopped answering for that long. T = 5 by
         default, so that a reserve waiting across a failover goes on waiting on the new primary.
         A reply INTERNAL_ERROR (a command whose reply was lost in a failover) is counted and the
         client goes on on the same connection; a put so answered is not acknowledged: its job may
         or may not exist, like any unacknowledged put's.
     Beside them, --bus-producers and --bus-consumers (1 each; 0 and 0: none) over the event bus:
     BusClients.java (next to this script), run with the JDK's source launcher on the jar
       java @conf/jvm.options -Dvertx.hazelcast.config=BUS.xml -cp JAR BusClients.java ...
     joins the group's Hazelcast cluster as a lite member (no CP seat, no data partitions; BUS.xml
     is the nodes' file with a port of its own) with its event bus on 127.0.0.1, and uses the
     product's typed client, io.github.vertxbeanstalkd.client.BeanstalkClient, as an app on another
     node of the cluster would: each producer puts unique bodies one at a time, each consumer (a
     client, so a session, of its own) reserves with a 1 s timeout and deletes. It prints one line
     per event (PUT, INSERTED when the put's future succeeded, RESERVED, DELETED when the delete's
     future succeeded, ERROR), stamped with System.nanoTime(), which is the clock of
     time.monotonic() on Linux; a reader thread merges them into the same ledger as the TCP
     clients'. It starts once the group is stable, and the TCP clients and the cycles wait until it
     says READY (the queue's address answered it). Both kinds of client share the tube, so a job
     put over TCP may be consumed over the bus and the other way round.
  4. --cycles times (20) (with --clients sidecar once every TCP client has connected to its node):
     the fault on the current primary, by its pid:
       --fault kill: SIGKILL. Failover time: from the kill until another node's /healthz says
         primary (with a newer term, when terms are reported) and its TCP port answers. The killed
         node is then started again (same directory, same ports) and must report standby
         (possibly syncing first). Each rejoin is reported: from the restarted node's exec to its
         /healthz role standby, its replay (from the exec to its log's "binlog: recovered"), the
         difference, and how it came back (its log: "rewinding from offset", a rewind of its
         diverged tail; "resuming from offset", a resume; otherwise a full copy).
       --fault stop: SIGSTOP for --stop-seconds (8; longer than the group's failure timeout),
         and longer if no other node has become primary by then. Failover time: from SIGSTOP until
         another node is primary and its TCP port answers. After SIGCONT the paused node must step
         down to standby.
     Each cycle ends when the group is again one primary and two standbys.
     With --backlog N, before the clients start, Bench's pipelined prefill puts N jobs into a tube of
     their own on the primary (nobody consumes it), and with --backlog-rate R a thread goes on putting
     into it at R puts per second during the cycles (64 in flight, through any serving node), so the
     group is faulted at depth, with a backlog that grows. At the end the final primary's count of
     that tube must be at least every put acknowledged into it ("backlog" in the report;
     lost_acknowledged is a violation).
  5. Stops the clients, drains the tube on the final primary (reserve-with-timeout 1 until
     TIMED_OUT with nothing reserved or buried left), and reports:
       lost_acknowledged_puts   INSERTED, yet never reserved by a consumer nor found at the end
       deleted_came_back        DELETED was acknowledged, and the body was reserved again by a
                                reserve sent later (one sent before and answered after is counted
                                apart as reserved_across_a_delete)
       ids_issued_twice         one id INSERTED for two different bodies
       ids_went_backwards       a put sent after a failover got an id not above every id
                                acknowledged before the fault (over either transport)
       delivered_under_other_id a body reserved under an id other than the one INSERTED said
       unknown_bodies           a body reserved that no producer sent
       duplicate_deliveries     extra deliveries of a body (allowed: at-least-once)
       failover_ms              per cycle, median and max
       client errors and reconnects, by kind
     With --clients sidecar also ("sidecar" in the report), per TCP client and in total: connects;
     each lost connection (every one a reconnect), split into
       reconnects_own_node_faulted  its node was the one faulted at some moment between the sending
                                    of the command that failed and the loss (from the fault until the
                                    node was back as a standby): allowed
       reconnects_node_survived     any other: a violation (surviving_node_reconnects)
     with the seconds it went without a connection; INTERNAL_ERROR replies by command (allowed);
     and the replies of the commands in flight across a fault (sent before it, answered after),
     for the clients of the surviving nodes and of the faulted one.
     Each figure also by transport, "tcp" and "bus": puts, lost puts, ids went backwards, other
     ids and duplicates by the transport that put the body; deliveries and unknown bodies by the
     one that reserved it; deletes and deleted-came-back by the one whose delete was acknowledged;
     an id issued twice counts under each transport whose put got it.
     The summary goes to stdout, everything to --report (JSON).

Bounded: every wait has a deadline (--start-timeout, --failover-timeout, --rejoin-timeout,
--drain-timeout, socket timeouts, the bus clients' request timeout: --read-timeout). Every process
started is ended by its pid (SIGCONT first if it is paused, then SIGKILL), on success, failure,
Ctrl-C and SIGTERM; the bus clients are first asked to stop (their stdin is closed: they finish
what they hold, end their sessions and leave the cluster), SIGKILL after --bus-stop-timeout. The
temporary directory is removed, unless --keep-dir or a run failed: then its path and the nodes'
(and the bus clients') log tails are printed (not when the build simply has no replication, nor
on Ctrl-C). The report's "bus_clients" has their pid, exit status, and per error kind the first
message, which client saw it and when (first, last) on the wall clock of the nodes' logs; each
cycle has the wall-clock time of its fault ("fault_clock").

Usage (from the repository root):
    mvn -B -q -o package -DskipTests
    python3 src/test/scripts/kill_test.py --fault kill --min-acks 1
    python3 src/test/scripts/kill_test.py --fault stop --stop-seconds 8 --cycles 10
    python3 src/test/scripts/kill_test.py --clients sidecar --fault kill --when-too-few serve
    python3 src/test/scripts/kill_test.py --cluster-config conf/cluster-group.xml --report /tmp/kt.json
--cluster-config is a Hazelcast XML file (a loopback group with the CP Subsystem on three
members), or "generate" (the default while conf/cluster-group.xml is absent): one file per node, a
cluster name of this run's own, free ports, CP Subsystem with 3 members and short timeouts.
A given file is copied per node with only its <cluster-name>, its network <port> and its <tcp-ip>
member list replaced (a name of this run's own, free ports, the three nodes), every other setting
(CP Subsystem, timeouts, properties) kept: the shipped file's fixed name and ports 5701-5710 would
otherwise let the run's nodes join any other group on the machine started from the same file (a
developer's, another run's), or that group's members join the run. --cluster-config-as-is gives
every node the file unchanged.

Exit status: 0 no violation; 1 a violation (with --min-acks 0 lost puts and deleted jobs that came
back are reported but allowed: replication is asynchronous; with --clients sidecar a lost connection
of a client whose node survived is one); 2 the run could not be set up (no jar,
a node would not start, no replication in this build); 3 a deadline passed during the cycles or
the drain (what was measured up to then is still reported).
"""
import argparse
import collections
import concurrent.futures
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid

# The clients, their ledger and the checker live in client_ledger.py beside this file (shared with
# partition_test.py); restart_test.py reaches Conn, clock, wait_for and DeadlinePassed through this module.
from client_ledger import (HOST, POLL_SECONDS, PROBE_SECONDS, Conn, Consumer, DeadlinePassed, Ledger, Producer,
                           analyse, clock, drain, now, tube_stats, wait_for)
from bench_jar import bench_classpath  # beside this file


ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
HEALTHZ_SECONDS = 0.7


class SetupFailed(Exception):
    """The run could not start: the jar, the nodes, no replication in this build."""

    def __init__(self, message, show_logs=True):
        super().__init__(message)
        self.show_logs = show_logs


_PICKED_PORTS = set()


def free_port():
    """A free port below the kernel's ephemeral range, not picked before. A node killed with -9
    binds the same ports when it comes back, and a port from the ephemeral range can meanwhile be
    the source port of some outgoing connection: once, Hazelcast's port was taken so and the node
    was not back within 120 s ("Port [50413] is already in use")."""
    low = 32768
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            low = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        pass
    rng = random.Random()
    for _ in range(500):
        port = rng.randint(max(1024, low - 12000), low - 1)
        if port in _PICKED_PORTS:
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind((HOST, port))
            except OSError:
                continue
        _PICKED_PORTS.add(port)
        return port
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------------------------------------
# Nodes


class Node:
    """One member of the group: its JVM (by pid), ports, binlog directory and log file."""

    def __init__(self, index, args, workdir, cluster_xml):
        self.name = "node%d" % (index + 1)
        self.args = args
        self.port = free_port()
        self.http_port = free_port()
        self.dir = os.path.join(workdir, self.name)
        self.binlog = os.path.join(self.dir, "binlog")
        os.makedirs(self.binlog)
        self.log_path = os.path.join(self.dir, "out.log")
        self.cluster_xml = cluster_xml
        self.conf_path = os.path.join(self.dir, "node.json")
        conf = {
            "port": self.port,
            "http": {"port": self.http_port},
            "binlog": {"dir": self.binlog},
            "replication": {"enabled": True, "minAcks": args.min_acks, "whenTooFewStandbys": args.when_too_few},
        }
        for key, value in json.loads(args.extra_conf).items():
            conf[key] = value
        with open(self.conf_path, "w") as f:
            json.dump(conf, f)
        self.proc = None
        self.is_stopped = False
        self.starts = 0

    def start(self):
        command = [self.args.java]
        if self.args.jvm_options:
            command.append("@" + self.args.jvm_options)
        if self.args.jfr:
            # A flight recording of the last 90 s, dumped with the threads when a deadline passes.
            command.append("-XX:StartFlightRecording=name=kt,settings=profile,maxage=90s")
        command += ["-Dvertx.hazelcast.config=" + self.cluster_xml, "-jar", self.args.jar,
                    "-cluster", "-cluster-host", HOST, "-conf", self.conf_path]
        env = {k: v for k, v in os.environ.items() if not k.startswith("BEANSTALKD_")}
        self.starts += 1
        with open(self.log_path, "ab") as log:
            log.write(("\n==== start %d: %s\n" % (self.starts, " ".join(command))).encode())
            log.flush()
            # A session of its own: a Ctrl-C in the terminal reaches this script only, which then
            # ends the node by its pid.
            self.proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                         env=env, cwd=ROOT, start_new_session=True)
        self.is_stopped = False

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def is_alive(self):
        return self.proc is not None and self.proc.poll() is None

    def signal(self, sig):
        os.kill(self.proc.pid, sig)

    def kill(self):
        """SIGKILL by pid; returns once the process is gone."""
        if self.is_alive():
            self.signal(signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait(timeout=30)
        self.is_stopped = False

    def stop(self):
        self.signal(signal.SIGSTOP)
        self.is_stopped = True

    def resume(self):
        self.signal(signal.SIGCONT)
        self.is_stopped = False

    def healthz(self):
        """The /healthz document, or None when the node does not answer (dead, paused, not yet listening)."""
        if not self.is_alive() or self.is_stopped:
            return None
        try:
            with urllib.request.urlopen("http://%s:%d/healthz" % (HOST, self.http_port),
                                        timeout=HEALTHZ_SECONDS) as r:
                return json.loads(r.read().decode("utf-8"))
        except (OSError, ValueError, urllib.error.URLError):
            return None

    def serves(self):
        """Whether the TCP port serves the queue now: `list-tube-used` answers USING."""
        if not self.is_alive() or self.is_stopped:
            return False
        try:
            c = Conn(self.port, PROBE_SECONDS)
        except OSError:
            return False
        try:
            c.send(b"list-tube-used\r\n")
            return c.line().startswith("USING ")
        except OSError:
            return False
        finally:
            c.close()

    def log_contains(self, text):
        """Whether the node's log (its first MiB, where start-up errors are) has `text`."""
        try:
            with open(self.log_path, "rb") as f:
                return text.encode("latin-1") in f.read(1 << 20)
        except OSError:
            return False

    def log_size(self):
        try:
            return os.path.getsize(self.log_path)
        except OSError:
            return 0

    def log_since(self, offset):
        """The node's log from byte `offset` on (its lines since a restart)."""
        try:
            with open(self.log_path, "rb") as f:
                f.seek(offset)
                return f.read().decode("latin-1")
        except OSError:
            return ""

    def log_tail(self, chars=3000):
        try:
            with open(self.log_path, "rb") as f:
                f.seek(0, os.SEEK_END)
                f.seek(max(0, f.tell() - chars))
                return f.read().decode("latin-1")
        except OSError as e:
            return "(no log: %s)" % e

    def __repr__(self):
        return "%s(pid %s, port %d, http %d)" % (self.name, self.pid, self.port, self.http_port)


def isolated_cluster_xml(text, name, port, member_ports):
    """`text` (a Hazelcast XML file) with its cluster name, network port and TCP member list this run's own."""
    members = "".join("<member>%s:%d</member>" % (HOST, p) for p in member_ports)
    replacements = (
        (r"<cluster-name>.*?</cluster-name>", "<cluster-name>%s</cluster-name>" % name),
        (r"<port\b[^>]*>\s*\d+\s*</port>", '<port auto-increment="false">%d</port>' % port),
        (r"<tcp-ip\b[^>]*>.*?</tcp-ip>", '<tcp-ip enabled="true">%s</tcp-ip>' % members),
    )
    # A comment mentioning one of these elements would match first: drop the comments.
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    for pattern, replacement in replacements:
        text, n = re.subn(pattern, lambda m: replacement, text, count=1, flags=re.S)
        if n != 1:
            raise SetupFailed("--cluster-config: no %s element to make this run's own (or use "
                              "--cluster-config-as-is)" % pattern.split("\\")[0].split(">")[0].lstrip("<"))
    return text


def generated_cluster_xml(name, port, member_ports):
    members = "".join("<member>%s:%d</member>" % (HOST, p) for p in member_ports)
    return """<hazelcast xmlns="http://www.hazelcast.com/schema/config">
  <cluster-name>%s</cluster-name>
  <properties>
    <property name="hazelcast.local.localAddress">127.0.0.1</property>
    <property name="hazelcast.wait.seconds.before.join">0</property>
    <property name="hazelcast.phone.home.enabled">false</property>
    <property name="hazelcast.logging.type">slf4j</property>
    <property name="hazelcast.heartbeat.interval.seconds">1</property>
    <property name="hazelcast.max.no.heartbeat.seconds">5</property>
  </properties>
  <network>
    <port auto-increment="false">%d</port>
    <join>
      <auto-detection enabled="false"/>
      <multicast enabled="false"/>
      <tcp-ip enabled="true">%s</tcp-ip>
    </join>
    <interfaces enabled="true"><interface>127.0.0.1</interface></interfaces>
  </network>
  <cp-subsystem>
    <cp-member-count>3</cp-member-count>
    <group-size>3</group-size>
    <session-time-to-live-seconds>5</session-time-to-live-seconds>
    <session-heartbeat-interval-seconds>1</session-heartbeat-interval-seconds>
    <missing-cp-member-auto-removal-seconds>6</missing-cp-member-auto-removal-seconds>
    <raft-algorithm>
      <leader-election-timeout-in-millis>1000</leader-election-timeout-in-millis>
      <leader-heartbeat-period-in-millis>300</leader-heartbeat-period-in-millis>
    </raft-algorithm>
  </cp-subsystem>
  <multimap name="__vertx.subs"><backup-count>1</backup-count><value-collection-type>SET</value-collection-type></multimap>
  <map name="__vertx.haInfo"><backup-count>1</backup-count></map>
  <map name="__vertx.nodeInfo"><backup-count>1</backup-count></map>
</hazelcast>
""" % (name, port, members)


def dump_threads(nodes, args):
    """Each live node's threads (jcmd PID Thread.print) into its directory, before anything is killed:
    what a node that missed a deadline was waiting for. Returns the files written."""
    jcmd = os.path.join(os.path.dirname(os.path.realpath(args.java)), "jcmd")
    written = []
    for node in nodes:
        if not node.is_alive():
            continue
        path = os.path.join(node.dir, "threads-%d.txt" % int(time.time()))
        try:
            with open(path, "w") as out:
                subprocess.run([jcmd, str(node.pid), "Thread.print", "-l"], stdout=out,
                               stderr=subprocess.STDOUT, timeout=30)
            written.append(path)
            if args.jfr:
                recording = os.path.join(node.dir, "recording-%d.jfr" % int(time.time()))
                subprocess.run([jcmd, str(node.pid), "JFR.dump", "name=kt", "filename=" + recording],
                               stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, timeout=60)
                written.append(recording)
        except (OSError, subprocess.TimeoutExpired) as error:
            print("kill-test: no thread dump of %s: %s" % (node.name, error), file=sys.stderr)
    return written


class Group:
    """The three nodes and what was observed of their roles."""

    def __init__(self, nodes):
        self.nodes = nodes
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=len(nodes))
        self.two_primaries = []  # observations where two live nodes said primary at once

    def health(self):
        """Every node's /healthz at once (None for no answer), in node order."""
        found = list(self.pool.map(lambda n: n.healthz(), self.nodes))
        primaries = [(n.name, h.get("term")) for n, h in zip(self.nodes, found) if h and h.get("role") == "primary"]
        if len(primaries) > 1:
            self.two_primaries.append({"t": round(now(), 3), "primaries": primaries})
        return found

    def await_started(self, seconds):
        """Every node answers /healthz with a role; SetupFailed at once when a node exits or has no role."""
        end = now() + seconds
        pending = list(self.nodes)
        while pending:
            for node in list(pending):
                if not node.is_alive():
                    if node.log_contains("unknown key 'replication"):
                        raise SetupFailed("this jar has no replication: its config refuses the 'replication' key "
                                          "(%s exited with %s)" % (node.name, node.proc.returncode), False)
                    raise SetupFailed("%s exited with %s at start (its log: %s)" % (node.name, node.proc.returncode,
                                                                                   node.log_path))
                h = node.healthz()
                if h is not None:
                    if "role" not in h:
                        raise SetupFailed("this jar has no replication: %s's /healthz has no \"role\": %s"
                                          % (node.name, json.dumps(h)), False)
                    pending.remove(node)
            if pending and now() > end:
                raise SetupFailed("no /healthz from %s within %.0f s" % (", ".join(n.name for n in pending), seconds))
            time.sleep(POLL_SECONDS)

    def stable_primary(self):
        """The primary when the group is one primary (serving, standbys caught up) and the rest standbys; else None."""
        found = self.health()
        roles = [h.get("role") if h else None for h in found]
        if roles.count("primary") != 1 or roles.count("standby") != len(self.nodes) - 1:
            return None
        i = roles.index("primary")
        h = found[i]
        # REPLICATION.md: a primary's /healthz says "standbys" (caught up) and "degraded".
        if "standbys" in h and h["standbys"] < len(self.nodes) - 1:
            return None
        if h.get("degraded") is True:
            return None
        return self.nodes[i] if self.nodes[i].serves() else None

    def await_stable(self, what, seconds):
        return wait_for(what + ": one primary serving with every standby caught up", seconds, self.stable_primary)

    def new_primary(self, old, old_term):
        """Another node than `old` that says primary (with a newer term, when terms are reported) and serves."""
        for node, h in zip(self.nodes, self.health()):
            if node is old or not h or h.get("role") != "primary":
                continue
            term = h.get("term")
            if old_term is not None and term is not None and term <= old_term:
                continue
            if node.serves():
                return node, term
        return None

    def serving_primary(self):
        """Any node that says primary and serves, stable group or not; None when there is none."""
        for node, h in zip(self.nodes, self.health()):
            if h and h.get("role") == "primary" and node.serves():
                return node
        return None

    def describe(self):
        return "; ".join("%s: %s" % (n.name, json.dumps(h) if h else "no /healthz")
                         for n, h in zip(self.nodes, self.health()))


# ---------------------------------------------------------------------------------------------
# Clients


class BusClients:
    """The event-bus producers and consumers: one JVM running BusClients.java (by its pid), whose
    stdout a reader thread turns into ledger entries."""

    EVENT = re.compile(r"^(HELLO|READY|PUT|INSERTED|RESERVED|DELETED|ERROR|STOPPED) (-?\d+) (\S+)(?: (.*))?$")

    def __init__(self, args, workdir, cluster_xml, ledger):
        self.args = args
        self.ledger = ledger
        self.dir = os.path.join(workdir, "bus")
        os.makedirs(self.dir)
        self.log_path = os.path.join(self.dir, "out.log")
        self.cluster_xml = cluster_xml
        self.proc = None
        self.reader = None
        self.ready = threading.Event()
        self.shift = None          # seconds to add to the JVM's System.nanoTime() / 1e9
        self.pending_puts = {}     # body -> sent_at, until the put's INSERTED or ERROR
        self.error_examples = {}   # kind -> the first message, who, and when (first, last) on the logs' clock
        self.unparsed = []         # lines that were no event (the first 20)
        self.stopped_summary = None
        self.prefix = "bus-%s-" % uuid.uuid4().hex[:8]

    def start(self):
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "BusClients.java")
        command = [self.args.java]
        if self.args.jvm_options:
            # The Hazelcast --add-opens the nodes get; the rest is harmless for a client.
            command.append("@" + self.args.jvm_options)
        command += ["-Dvertx.hazelcast.config=" + self.cluster_xml, "-cp", self.args.jar, script,
                    "--tube", self.args.tube, "--producers", str(self.args.bus_producers),
                    "--consumers", str(self.args.bus_consumers), "--rate", str(self.args.rate),
                    "--ttr", str(self.args.ttr), "--body-bytes", str(self.args.body_bytes),
                    "--prefix", self.prefix, "--request-timeout-ms", str(int(self.args.read_timeout * 1000))]
        env = {k: v for k, v in os.environ.items() if not k.startswith("BEANSTALKD_")}
        with open(self.log_path, "ab") as log:
            log.write(("==== %s\n" % " ".join(command)).encode())
            log.flush()
            # Its own session, as the nodes: a Ctrl-C reaches this script only, which then stops it.
            self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                                         env=env, cwd=ROOT, start_new_session=True)
        self.reader = threading.Thread(target=self._read, name="bus-reader", daemon=True)
        self.reader.start()

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def is_alive(self):
        return self.proc is not None and self.proc.poll() is None

    def await_ready(self, seconds):
        end = now() + seconds
        while not self.ready.wait(POLL_SECONDS):
            if not self.is_alive():
                self.reader.join(timeout=5)
                if self.ready.is_set():
                    break
                raise SetupFailed("the bus clients exited with %s before READY (their log: %s)"
                                  % (self.proc.returncode, self.log_path))
            if now() > end:
                raise SetupFailed("the bus clients not READY within %.0f s (their log: %s)" % (seconds, self.log_path))

    def ask_stop(self):
        """Closes their stdin: they finish what they hold, end their sessions and leave the cluster."""
        if self.proc is not None and not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()
            except OSError:
                pass

    def stop(self, seconds):
        """ask_stop(), waits `seconds` for the exit, then SIGKILL by pid; returns once every event
        they printed is in the ledger."""
        if self.proc is None:
            return
        self.ask_stop()
        try:
            self.proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            print("kill-test: the bus clients did not stop within %.0f s: SIGKILL" % seconds, file=sys.stderr)
            self.kill()
        self.reader.join(timeout=10)

    def kill(self):
        if self.is_alive():
            os.kill(self.proc.pid, signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait(timeout=30)

    @staticmethod
    def unescape(text):
        return re.sub(r"\\(.)", lambda m: {"n": "\n", "r": "\r"}.get(m.group(1), m.group(1)), text)

    def _read(self):
        for raw in self.proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            m = self.EVENT.match(line)
            if not m:
                with self.ledger.lock:
                    self.ledger.bus_errors["unparsed output"] += 1
                    if len(self.unparsed) < 20:
                        self.unparsed.append(line[:300])
                continue
            event, nanos, who, rest = m.group(1), int(m.group(2)), m.group(3), m.group(4) or ""
            if event == "HELLO":
                # System.nanoTime() is CLOCK_MONOTONIC on Linux, as time.monotonic(): the same
                # clock, no shift. Elsewhere the JVM's clock is moved onto this one at HELLO.
                offset = now() - nanos / 1e9
                self.shift = 0.0 if abs(offset) < 1.0 else offset
                continue
            at = nanos / 1e9 + (self.shift or 0.0)
            try:
                self._event(event, at, who, rest)
            except (ValueError, IndexError):
                with self.ledger.lock:
                    self.ledger.bus_errors["unparsed output"] += 1
                    if len(self.unparsed) < 20:
                        self.unparsed.append(line[:300])

    def _event(self, event, at, who, rest):
        ledger = self.ledger
        if event == "READY":
            self.ready.set()
        elif event == "STOPPED":
            self.stopped_summary = rest
        elif event == "PUT":
            body = self.unescape(rest)
            with ledger.lock:
                ledger.sent[body] = "bus"
                self.pending_puts[body] = at
        elif event in ("INSERTED", "RESERVED", "DELETED"):
            job_id, body = rest.split(" ", 1)
            job_id, body = int(job_id), self.unescape(body)
            with ledger.lock:
                if event == "INSERTED":
                    sent_at = self.pending_puts.pop(body, at)
                    ledger.inserted.append((job_id, body, sent_at, at, None, "bus"))
                elif event == "RESERVED":
                    ledger.seen.append((body, job_id, at, who, None))
                else:
                    ledger.delete_acked(body, job_id, at, who)
        elif event == "ERROR":
            kind, _, message = rest.partition(" ")
            with ledger.lock:
                ledger.bus_errors[kind] += 1
                example = self.error_examples.setdefault(kind, {"message": self.unescape(message)[:500],
                                                               "first": clock(at), "by": collections.Counter()})
                example["last"] = clock(at)
                example["by"][who] += 1

    def log_tail(self, chars=3000):
        try:
            with open(self.log_path, "rb") as f:
                f.seek(0, os.SEEK_END)
                f.seek(max(0, f.tell() - chars))
                return f.read().decode("latin-1")
        except OSError as e:
            return "(no log: %s)" % e

    def describe(self):
        return {"pid": self.pid, "prefix": self.prefix, "cluster_config": self.cluster_xml,
                "exit_status": self.proc.returncode if self.proc else None,
                "clock_shift_seconds": self.shift, "stopped": self.stopped_summary,
                "error_examples": self.error_examples, "unparsed_output": self.unparsed}


# ---------------------------------------------------------------------------------------------
# Faults, drain, analysis


class BacklogProducer(threading.Thread):
    """--backlog-rate: puts into the backlog tube as fast as the rate allows, through any serving node,
    PIPELINE puts in flight, and counts each INSERTED: nobody consumes that tube, so at the end it must
    hold at least every acknowledged put (a job whose put was not acknowledged may be there too)."""
    PIPELINE = 64

    def __init__(self, nodes, tube, args, stopping):
        super().__init__(name="backlog-producer", daemon=True)
        self.nodes, self.tube, self.args, self.stopping = nodes, tube, args, stopping
        self.acked = 0
        self.errors = 0
        self.body = b"b" * max(1, args.body_bytes or 100)

    def run(self):
        interval = self.PIPELINE / self.args.backlog_rate if self.args.backlog_rate > 0 else 0.0
        next_at = now()
        while not self.stopping.is_set():
            try:
                c = self.connect()
                if c is None:
                    self.stopping.wait(0.2)
                    continue
                while not self.stopping.is_set():
                    if interval:
                        self.stopping.wait(max(0.0, next_at - now()))
                        next_at = max(next_at + interval, now() - 1.0)
                    put = b"put 0 0 60 %d\r\n%s\r\n" % (len(self.body), self.body)
                    c.send(put * self.PIPELINE)
                    for _ in range(self.PIPELINE):
                        if c.line().startswith("INSERTED "):
                            self.acked += 1
                        else:
                            self.errors += 1
            except (OSError, ConnectionError, ValueError):
                # What was in flight is unacknowledged; the count keeps only INSERTED replies read.
                self.errors += 1

    def connect(self):
        for node in self.nodes:
            if node.is_alive() and not node.is_stopped:
                try:
                    c = Conn(node.port, self.args.read_timeout)
                    if c.call("use " + self.tube) == "USING " + self.tube:
                        return c
                    c.close()
                except (OSError, ConnectionError):
                    pass
        return None


def prefill_backlog(primary, args, workdir):
    """--backlog: Bench's pipelined prefill puts N jobs into a tube of its own on the primary; returns the tube."""
    out = subprocess.run([args.java, "-Xmx1g", "-cp", bench_classpath(args.jar), "io.github.vertxbeanstalkd.bench.Bench",
                          "--mode", "prefill", "--target", "%s:%d" % (HOST, primary.port), "--jobs", str(args.backlog),
                          "-s", str(max(1, args.body_bytes or 100))],
                         capture_output=True, text=True, timeout=3600)
    found = re.search(r"left queued in tube (\S+);", out.stdout)
    errors = re.search(r"errors=(\d+)", out.stdout)
    if out.returncode != 0 or not found or not errors or int(errors.group(1)) != 0:
        raise SetupFailed("the backlog's prefill failed: %s %s" % (out.stdout[-2000:], out.stderr[-2000:]))
    return found.group(1)


def run_cycle(number, group, args, ledger, cycles):
    """One fault on the current primary; what was measured goes to `cycles`, as far as it got."""
    primary = group.await_stable("before cycle %d" % number, args.rejoin_timeout)
    if args.settle_seconds > 0:
        # A group that has just become stable again (a node just promoted into the CP Subsystem) is
        # left alone this long before the fault: 0 (the default) faults it at once.
        time.sleep(args.settle_seconds)
        primary = group.await_stable("before cycle %d, after settling" % number, args.rejoin_timeout)
    h = primary.healthz() or {}
    old_term = h.get("term")
    cycle = {"cycle": number, "fault": args.fault, "primary": primary.name, "term": old_term,
             # A machine short of CPU starves Hazelcast's heartbeats (5 s in cluster-group.xml): say how busy it was.
             "load_before": round(os.getloadavg()[0], 2)}
    cycles.append(cycle)
    with ledger.lock:
        highest_before = max((i[0] for i in ledger.inserted), default=0)
    fault_at = now()
    ledger.fault_times.append(fault_at)
    cycle["fault_at"] = fault_at  # here already: an unfinished cycle's fault still explains a lost connection
    cycle["fault_clock"] = clock(fault_at)
    if args.fault == "kill":
        primary.kill()
    else:
        primary.stop()
    try:
        new, new_term = wait_for("cycle %d: a new primary after %s of %s" % (number, args.fault, primary.name),
                                 args.failover_timeout, lambda: group.new_primary(primary, old_term))
    except DeadlinePassed as e:
        cycle["group"] = group.describe()
        raise DeadlinePassed("%s; the group: %s" % (e, cycle["group"]))
    promoted_at = now()
    cycle.update(failover_ms=round((promoted_at - fault_at) * 1000), new_primary=new.name, new_term=new_term,
                 highest_id_before=highest_before, promoted_at=promoted_at, fault_at=fault_at)
    if args.fault == "kill":
        log_mark = primary.log_size()
        cycle["restarted_at"] = now()
        restarted_wall = time.time()
        primary.start()
    else:
        # The pause lasts --stop-seconds (a fault of a chosen length, not a wait for an event), and
        # at least until the failover was seen.
        time.sleep(max(0.0, fault_at + args.stop_seconds - now()))
        primary.resume()
        cycle["resumed_after_ms"] = round((now() - fault_at) * 1000)
    roles = []

    def rejoined():
        # Every node's /healthz, not the faulted one's alone: a resumed primary that still says
        # primary beside the new one is recorded in two_primaries_seen.
        h = group.health()[group.nodes.index(primary)]
        role = h.get("role") if h else None
        if role and (not roles or roles[-1] != role):
            roles.append(role)
        return role == "standby"

    try:
        wait_for("cycle %d: %s back as standby" % (number, primary.name), args.rejoin_timeout, rejoined)
    finally:
        cycle["rejoin_roles"] = roles
    cycle["back_at"] = now()
    cycle["rejoin_ms"] = round((cycle["back_at"] - promoted_at) * 1000)
    if args.fault == "kill":
        # From the restarted node's exec to its /healthz role standby (caught up, following), beside
        # its replay (exec to its log's "binlog: recovered") and how it came back.
        cycle["rejoin_from_exec_ms"] = round((cycle["back_at"] - cycle["restarted_at"]) * 1000)
        text = primary.log_since(log_mark)
        recovered = re.search(r"^(\d\d):(\d\d):(\d\d)\.(\d{3}) .*binlog: recovered (\d+) jobs", text, re.M)
        if recovered:
            h, m, sec, ms = (int(x) for x in recovered.groups()[:4])
            day = restarted_wall - (restarted_wall % 86400)
            at = day + h * 3600 + m * 60 + sec + ms / 1000.0
            if at < restarted_wall - 43200:
                at += 86400
            cycle["replay_ms"] = round((at - restarted_wall) * 1000)
            cycle["replayed_jobs"] = int(recovered.group(5))
            cycle["rejoin_beyond_replay_ms"] = cycle["rejoin_from_exec_ms"] - cycle["replay_ms"]
        cycle["rejoin_how"] = ("rewind" if "rewinding from offset" in text
                               else "resume" if "resuming from offset" in text
                               else "full copy" if "following the primary of term" in text else "?")
    return cycle


def backlog_check(group, tube, args, producer):
    """The backlog tube on the final primary against every put acknowledged into it."""
    primary = group.await_stable("before the backlog's count", args.rejoin_timeout)
    c = Conn(primary.port, 30.0)
    try:
        stats = tube_stats(c, tube)
    finally:
        c.close()
    held = sum(int(stats.get(k, 0)) for k in ("current-jobs-ready", "current-jobs-delayed", "current-jobs-buried",
                                               "current-jobs-reserved"))
    acked = args.backlog + (producer.acked if producer else 0)
    print("kill-test: backlog %s holds %d jobs; %d puts were acknowledged into it" % (tube, held, acked), flush=True)
    return {"tube": tube, "held": held, "acknowledged": acked,
            "added_during_cycles": producer.acked if producer else 0,
            "lost_acknowledged": max(0, acked - held)}


def print_summary(report):
    r = report.get("result") or {}
    print("\n==== kill test: --fault %s --min-acks %d --when-too-few %s%s, %d of %d cycles"
          % (report["args"]["fault"], report["args"]["min_acks"], report["args"]["when_too_few"],
             " --clients sidecar" if report["args"]["clients"] == "sidecar" else "",
             len(report["cycles"]), report["args"]["cycles"]))
    for c in report["cycles"]:
        print("  cycle %2d: %s (term %s) -> %s (term %s) in %s ms; back as standby %s ms later via %s; load %s"
              % (c["cycle"], c["primary"], c.get("term"), c.get("new_primary"), c.get("new_term"),
                 c.get("failover_ms"), c.get("rejoin_ms"), c.get("rejoin_roles"), c.get("load_before")))
        if "rejoin_from_exec_ms" in c:
            print("            rejoin: standby %s ms after its exec; replay of %s jobs %s ms; %s ms beyond the "
                  "replay; by %s" % (c["rejoin_from_exec_ms"], c.get("replayed_jobs"), c.get("replay_ms"),
                                     c.get("rejoin_beyond_replay_ms"), c.get("rejoin_how")))
    beyond = sorted(c["rejoin_beyond_replay_ms"] for c in report["cycles"] if "rejoin_beyond_replay_ms" in c)
    if beyond:
        hows = collections.Counter(c.get("rejoin_how") for c in report["cycles"] if "rejoin_how" in c)
        print("  rejoin beyond the replay, ms: median %d, max %d (%d rejoins: %s)" % (
            beyond[len(beyond) // 2], beyond[-1], len(beyond), ", ".join("%s %d" % kv for kv in sorted(hows.items()))))
    if r and not report["drained"]:
        print("  (stopped before the drain: jobs still queued count as lost below)")
    if r:
        by = r["by_transport"]
        print("  puts sent %d, acknowledged %d; deliveries %d (%d by the drain); deletes acknowledged %d"
              % (r["puts_sent"], r["puts_acknowledged"], r["deliveries"], r["deliveries_by_drain"],
                 r["deletes_acknowledged"]))
        print("  %-28s %8s %8s %8s" % ("", "total", "tcp", "bus"))
        for key in ("puts_sent", "puts_acknowledged", "deliveries", "deletes_acknowledged"):
            print("  %-28s %8d %8d %8d" % (key, r[key], by["tcp"][key], by["bus"][key]))
        for key in ("lost_acknowledged_puts", "deleted_came_back", "ids_issued_twice", "ids_went_backwards",
                    "delivered_under_other_id", "unknown_bodies"):
            print("  %-28s %8d %8d %8d%s" % (key, r[key], by["tcp"][key], by["bus"][key],
                                           "  VIOLATION" if r["violations"][key] else ""))
        print("  %-28s %8d %8d %8d  (%d bodies; allowed)" % (
            "duplicate_deliveries", r["duplicate_deliveries"], by["tcp"]["duplicate_deliveries"],
            by["bus"]["duplicate_deliveries"], r["bodies_delivered_more_than_once"]))
        print("  (puts, lost, backwards, other id, duplicates: by the transport that put the body; deliveries,"
              " unknown: by the one that reserved; deletes, came back: by the one that deleted)")
        print("  failover ms: median %s, max %s" % (r["failover_ms_median"], r["failover_ms_max"]))
        print("  tcp client connects %d, errors %d: %s" % (r["client_connects"], r["client_errors_total"],
                                                          json.dumps(r["client_errors"], sort_keys=True)))
        print("  bus client errors %d: %s" % (r["bus_client_errors_total"],
                                             json.dumps(r["bus_client_errors"], sort_keys=True)))
        if "sidecar" in r:
            print_sidecar(r["sidecar"], r["violations"]["surviving_node_reconnects"])
    if report["two_primaries_seen"]:
        print("  two nodes said primary at once %d time(s) (see the report)" % len(report["two_primaries_seen"]))
    if report.get("error"):
        print("  STOPPED: " + report["error"])
    print("  verdict: %s; report: %s" % (report["verdict"], report["report_path"]))


def print_sidecar(sc, violations):
    def across(counts):
        return ", ".join("%s %d" % (k, n) for k, n in sorted(counts.items())) or "-"

    print("  tcp clients pinned to their own node (--clients sidecar): reconnects when their node was the one"
          " faulted (allowed) / when it survived (must be 0)")
    print("    %-12s %-6s %8s %8s %8s %9s  %s" % ("client", "node", "connects", "faulted", "survived",
                                                  "INT_ERR", "in flight across a fault of another node"))
    for row in sc["clients"]:
        print("    %-12s %-6s %8d %8d %8d%s %9d  %s" % (
            row["client"], row["node"], row["connects"], row["reconnects_own_node_faulted"],
            row["reconnects_node_survived"], "!" if row["reconnects_node_survived"] else " ",
            sum(row["internal_errors"].values()), across(row["in_flight_across_a_fault"]["node_survived"])))
    print("    %-12s %-6s %8d %8d %8d%s %9d" % (
        "total", "", sc["connects"], sc["reconnects_own_node_faulted"], sc["reconnects_node_survived"],
        " " if not sc["reconnects_node_survived"] else "!", sc["internal_errors_total"]))
    print("  %-28s %8d%s" % ("surviving_node_reconnects", sc["reconnects_node_survived"],
                             "  VIOLATION" if violations else ""))
    if sc["lost_connections_not_reconnected"]:
        print("  lost connections not reconnected by the end: %d" % sc["lost_connections_not_reconnected"])
    print("  INTERNAL_ERROR replies (a reply lost in a failover; allowed): %s; by when the command was sent: %s"
          % (json.dumps(sc["internal_errors"], sort_keys=True), json.dumps(sc["internal_errors_when"], sort_keys=True)))
    for side, label in (("node_survived", "on surviving nodes"), ("own_node_faulted", "on the faulted node")):
        counts = sc["in_flight_across_a_fault"][side]
        print("  commands in flight across a fault, %s: %s" % (label, "; ".join(
            "%s: %s" % (command, across(words)) for command, words in sorted(counts.items())) or "none"))


# ---------------------------------------------------------------------------------------------


def parse_args(argv):
    shipped = os.path.join(ROOT, "conf", "cluster-group.xml")
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--jar", default=os.path.join(ROOT, "target", "vertx-beanstalkd.jar"))
    p.add_argument("--jvm-options", default=os.path.join(ROOT, "conf", "jvm.options"),
                   help="an @argfile for every node; '' for none")
    p.add_argument("--java", default=shutil.which("java") or "java")
    p.add_argument("--cluster-config", default=shipped if os.path.isfile(shipped) else "generate",
                   help="Hazelcast XML for every node, or 'generate' (default while %s is absent)" % shipped)
    p.add_argument("--cluster-config-as-is", action="store_true",
                   help="give every node --cluster-config unchanged (its own cluster name and ports: it may join "
                        "or be joined by other members on the machine)")
    p.add_argument("--cycles", type=int, default=20)
    p.add_argument("--fault", choices=("kill", "stop"), default="kill")
    p.add_argument("--stop-seconds", type=float, default=8.0, help="length of a SIGSTOP pause (--fault stop)")
    p.add_argument("--settle-seconds", type=float, default=0.0,
                   help="wait this long once the group is stable before each fault (default 0: at once)")
    p.add_argument("--min-acks", type=int, choices=(0, 1), default=1)
    p.add_argument("--when-too-few", choices=("refuse", "serve"), default="refuse",
                   help="replication.whenTooFewStandbys")
    p.add_argument("--extra-conf", default="{}", help="JSON merged into every node's config")
    p.add_argument("--clients", choices=("any", "sidecar"), default="any",
                   help="any: every TCP client tries the nodes' ports in turn (the default); sidecar: each is pinned "
                        "to one node's port (round-robin over the nodes) and never tries another")
    p.add_argument("--producers", type=int, default=None, help="TCP producers (2; with --clients sidecar 3)")
    p.add_argument("--consumers", type=int, default=None, help="TCP consumers (2; with --clients sidecar 3)")
    p.add_argument("--reserve-timeout", type=int, default=None,
                   help="the TCP consumers' reserve-with-timeout, seconds (1; with --clients sidecar 5, so that a "
                        "reserve waiting across a failover goes on waiting on the new primary)")
    p.add_argument("--sidecar-read-timeout", type=float, default=30.0,
                   help="with --clients sidecar: seconds a TCP client waits for a reply before it gives up its "
                        "connection (above the product's 10 s without a primary and a pause's failover)")
    p.add_argument("--bus-producers", type=int, default=1,
                   help="producers over the event bus (BusClients.java, the typed client)")
    p.add_argument("--bus-consumers", type=int, default=1, help="consumers over the event bus")
    p.add_argument("--bus-stop-timeout", type=float, default=30.0,
                   help="seconds the bus clients get to stop cleanly before SIGKILL")
    p.add_argument("--rate", type=float, default=200.0, help="puts per second per producer; 0: as fast as acked")
    p.add_argument("--body-bytes", type=int, default=0, help="pad bodies to this length")
    p.add_argument("--ttr", type=int, default=30)
    p.add_argument("--tube", default="kill-test")
    p.add_argument("--read-timeout", type=float, default=5.0, help="seconds a client waits for a reply")
    p.add_argument("--start-timeout", type=float, default=120.0)
    p.add_argument("--failover-timeout", type=float, default=30.0)
    p.add_argument("--rejoin-timeout", type=float, default=120.0)
    p.add_argument("--drain-timeout", type=float, default=120.0)
    p.add_argument("--workdir", default=None, help="where the temporary directory goes")
    p.add_argument("--keep-dir", action="store_true", help="keep the nodes' directories and logs")
    p.add_argument("--jfr", action="store_true",
                   help="record every node with JFR (profile settings, the last 90 s) and dump the recordings"
                        " next to the thread dumps when a deadline passes")
    p.add_argument("--backlog", type=int, default=0,
                   help="jobs put (Bench prefill) into a tube of their own before the cycles; never consumed")
    p.add_argument("--backlog-rate", type=float, default=0.0,
                   help="with --backlog: puts per second added to it during the cycles (0: none)")
    p.add_argument("--report", default="kill-test-report.json")
    args = p.parse_args(argv)
    # The nodes run in the repository root; paths given relative to the caller's directory stay right.
    args.jar = os.path.abspath(args.jar)
    args.jvm_options = os.path.abspath(args.jvm_options) if args.jvm_options else ""
    if args.cluster_config != "generate":
        args.cluster_config = os.path.abspath(args.cluster_config)
    elif args.cluster_config_as_is:
        p.error("--cluster-config-as-is needs a --cluster-config file")
    sidecar = args.clients == "sidecar"
    if args.producers is None:
        args.producers = 3 if sidecar else 2
    if args.consumers is None:
        args.consumers = 3 if sidecar else 2
    if args.reserve_timeout is None:
        args.reserve_timeout = 5 if sidecar else 1
    if args.cycles < 0 or args.producers < 1 or args.consumers < 1:
        p.error("--cycles must be >= 0, --producers and --consumers >= 1")
    if sidecar and (args.producers < 3 or args.consumers < 3):
        p.error("--clients sidecar needs --producers and --consumers >= 3 (each node gets producers and consumers)")
    tcp_read_timeout = args.sidecar_read_timeout if sidecar else args.read_timeout
    if not 0 <= args.reserve_timeout < tcp_read_timeout:
        p.error("--reserve-timeout must be >= 0 and below the TCP clients' read timeout (%s s)" % tcp_read_timeout)
    if args.bus_producers < 0 or args.bus_consumers < 0:
        p.error("--bus-producers and --bus-consumers must be >= 0")
    if args.settle_seconds < 0:
        p.error("--settle-seconds must be >= 0")
    if args.fault == "stop" and args.stop_seconds <= 0:
        p.error("--stop-seconds must be positive")
    try:
        if not isinstance(json.loads(args.extra_conf), dict):
            raise ValueError
    except ValueError:
        p.error("--extra-conf must be a JSON object")
    return args


def main(argv):
    args = parse_args(argv)
    report = {"args": vars(args).copy(), "cycles": [], "two_primaries_seen": [], "result": None, "error": None,
              "drained": False,
              "report_path": os.path.abspath(args.report), "verdict": "SETUP FAILED"}
    for path, what in ((args.jar, "--jar"), (args.jvm_options, "--jvm-options")):
        if path and not os.path.isfile(path):
            print("kill-test: %s %s does not exist (build with: mvn -B -q -o package -DskipTests)" % (what, path),
                  file=sys.stderr)
            return 2
    if args.cluster_config != "generate" and not os.path.isfile(args.cluster_config):
        print("kill-test: --cluster-config %s does not exist" % args.cluster_config, file=sys.stderr)
        return 2

    workdir = tempfile.mkdtemp(prefix="kill-test-", dir=args.workdir)
    nodes, group, clients, bus = [], None, [], None
    stopping = threading.Event()
    ledger = Ledger()
    status = 2  # until the cycles start; then 3 until the verdict
    show_logs = True

    def on_sigterm(signum, frame):
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, on_sigterm)

    try:
        if args.cluster_config_as_is:
            xmls = [args.cluster_config] * 3
        else:
            hz_ports = [free_port() for _ in range(3)]
            name = "kill-test-" + uuid.uuid4().hex
            if args.cluster_config != "generate":
                with open(args.cluster_config) as f:
                    given = f.read()
            xmls = []
            # The nodes' three files, then the bus clients' (the same file with a port of its own,
            # outside the member list: it joins through the nodes; lite membership is set in Java).
            for i, port in enumerate(hz_ports + [free_port()]):
                path = os.path.join(workdir, "cluster-%s.xml" % (i if i < 3 else "bus"))
                with open(path, "w") as f:
                    f.write(generated_cluster_xml(name, port, hz_ports) if args.cluster_config == "generate"
                            else isolated_cluster_xml(given, name, port, hz_ports))
                xmls.append(path)
        bus_xml = xmls[3] if len(xmls) > 3 else xmls[0]
        xmls = xmls[:3]
        report["cluster_config"] = xmls
        print("kill-test: %s; Hazelcast config %s; in %s" % (
            args.jar, "generated" if args.cluster_config == "generate" else
            args.cluster_config + (" as is" if args.cluster_config_as_is else
                                   " (cluster name %s, ports %s)" % (name, hz_ports)), workdir), flush=True)
        nodes = [Node(i, args, workdir, xmls[i]) for i in range(3)]
        for node in nodes:
            node.start()
        report["nodes"] = {n.name: {"pid": n.pid, "port": n.port, "http": n.http_port} for n in nodes}
        group = Group(nodes)
        group.await_started(args.start_timeout)
        try:
            first = group.await_stable("at start", args.start_timeout)
        except DeadlinePassed as e:
            raise SetupFailed("%s; the group: %s" % (e, group.describe()))
        backlog_tube, backlog_producer = None, None
        if args.backlog:
            started = now()
            backlog_tube = prefill_backlog(first, args, workdir)
            report["backlog"] = {"tube": backlog_tube, "prefilled": args.backlog,
                                 "prefill_seconds": round(now() - started, 1)}
            print("kill-test: %d jobs put into %s in %.0f s" % (args.backlog, backlog_tube, now() - started), flush=True)
            first = group.await_stable("after the backlog's prefill", args.rejoin_timeout)
            if args.backlog_rate > 0:
                backlog_producer = BacklogProducer(nodes, backlog_tube, args, stopping)
                backlog_producer.start()
        if args.bus_producers or args.bus_consumers:
            print("kill-test: %s is primary; starting %d producers, %d consumers over the event bus" % (
                first.name, args.bus_producers, args.bus_consumers), flush=True)
            bus = BusClients(args, workdir, bus_xml, ledger)
            bus.start()
            report["bus_clients"] = {"pid": bus.pid, "cluster_config": bus_xml}
            bus.await_ready(args.start_timeout)
        print("kill-test: %s is primary; starting %d producers, %d consumers over TCP" % (
            first.name, args.producers, args.consumers), flush=True)

        if args.clients == "sidecar":
            # Each client is an app beside one node: producer-K and consumer-K on node K mod 3.
            clients = [Producer(i, nodes, ledger, stopping, args, pin=nodes[i % len(nodes)])
                       for i in range(args.producers)]
            clients += [Consumer(i, nodes, ledger, stopping, args, pin=nodes[i % len(nodes)])
                        for i in range(args.consumers)]
            print("kill-test: each TCP client pinned to its node: %s" % ", ".join(
                "%s %s" % (c.name, c.pin.name) for c in clients), flush=True)
        else:
            clients = [Producer(i, nodes, ledger, stopping, args) for i in range(args.producers)]
            clients += [Consumer(i, nodes, ledger, stopping, args) for i in range(args.consumers)]
        for c in clients:
            c.start()
        if args.clients == "sidecar":
            # The first fault must find every node with its apps connected.
            try:
                wait_for("every TCP client connected to its node", args.start_timeout,
                         lambda: all(c.connects for c in clients))
            except DeadlinePassed as e:
                raise SetupFailed("%s (not connected: %s); the group: %s" % (
                    e, ", ".join(c.name for c in clients if not c.connects), group.describe()))
        status = 3
        for number in range(1, args.cycles + 1):
            cycle = run_cycle(number, group, args, ledger, report["cycles"])
            print("  cycle %d: %s -> %s in %d ms; rejoined via %s%s" % (
                number, cycle["primary"], cycle["new_primary"], cycle["failover_ms"], cycle["rejoin_roles"],
                "" if "rejoin_from_exec_ms" not in cycle else "; standby %d ms after its exec (replay %s ms, by %s)" % (
                    cycle["rejoin_from_exec_ms"], cycle.get("replay_ms"), cycle.get("rejoin_how"))), flush=True)
        stopping.set()
        if bus is not None:
            bus.ask_stop()  # both kinds of client stop at once
        for c in clients:
            c.join(timeout=c.read_timeout + 5)
        if bus is not None:
            bus.stop(args.bus_stop_timeout)
        if backlog_producer is not None:
            backlog_producer.join(timeout=args.read_timeout + 5)
        final, stats = drain(group, args, ledger)
        report["final_primary"], report["final_tube_stats"] = final, stats
        report["drained"] = True
        result = analyse(ledger, report["cycles"], args, clients)
        if backlog_tube is not None:
            result["backlog"] = backlog_check(group, backlog_tube, args, backlog_producer)
            if result["backlog"]["lost_acknowledged"]:
                result["violation_count"] += 1
        report["result"] = result
        status = 1 if result["violation_count"] else 0
        report["verdict"] = "FAIL" if status else "PASS"
    except SetupFailed as e:
        report["error"] = str(e)
        show_logs = e.show_logs
        print("kill-test: cannot run: %s" % e, file=sys.stderr)
    except (DeadlinePassed, OSError, KeyboardInterrupt, SystemExit) as e:
        report["error"] = "%s: %s" % (type(e).__name__, e)
        report["verdict"] = "STOPPED"
        if isinstance(e, DeadlinePassed) and group is not None:
            report["thread_dumps"] = dump_threads(group.nodes, args)
        if isinstance(e, KeyboardInterrupt):
            status, show_logs = 130, False
        elif isinstance(e, SystemExit):
            status, show_logs = (e.code if isinstance(e.code, int) else 3), False
        # The clients stop before the ledger is read (they would go on reserving and deleting while it
        # is analysed); what is still queued is drained from whichever node serves as primary, if
        # one does, so that jobs merely left in the queue are not counted as lost.
        stopping.set()
        if bus is not None and not isinstance(e, (KeyboardInterrupt, SystemExit)):
            bus.ask_stop()
        for c in clients:
            c.join(timeout=c.read_timeout + 2)
        if bus is not None and not isinstance(e, (KeyboardInterrupt, SystemExit)):
            bus.stop(args.bus_stop_timeout)
        if group is not None and not isinstance(e, (KeyboardInterrupt, SystemExit)) and (ledger.inserted or ledger.seen):
            try:
                primary = group.serving_primary()
                if primary is not None:
                    final, stats = drain(group, args, ledger, primary)
                    report["final_primary"], report["final_tube_stats"] = final, stats
                    report["drained"] = True
            except (DeadlinePassed, OSError, ValueError) as drain_error:
                report["drain_error"] = "%s: %s" % (type(drain_error).__name__, drain_error)
            except (KeyboardInterrupt, SystemExit) as drain_error:
                # Interrupted while draining: what was measured is still analysed and reported.
                report["drain_error"] = "interrupted: %s" % type(drain_error).__name__
                status = 130 if isinstance(drain_error, KeyboardInterrupt) else (
                    drain_error.code if isinstance(drain_error.code, int) else 3)
                show_logs = False
        if ledger.inserted or ledger.seen:
            report["result"] = analyse(ledger, [c for c in report["cycles"] if "promoted_at" in c], args, clients,
                                       report["cycles"])
    finally:
        stopping.set()
        for c in clients:
            c.join(timeout=c.read_timeout + 2)
        if bus is not None:
            # Ctrl-C and SIGTERM come here without the clean stop: SIGKILL by pid at once.
            try:
                bus.kill()
            except (OSError, subprocess.TimeoutExpired) as e:
                print("kill-test: could not end the bus clients (pid %s): %s" % (bus.pid, e), file=sys.stderr)
            if bus.reader is not None:
                bus.reader.join(timeout=5)
            report["bus_clients"] = bus.describe()
        if group is not None:
            report["two_primaries_seen"] = group.two_primaries
            group.pool.shutdown(wait=True)
        failed = status != 0
        if failed:
            report["log_tails"] = {n.name: n.log_tail() for n in nodes}
            if bus is not None:
                report["log_tails"]["bus"] = bus.log_tail()
        for node in nodes:
            try:
                if node.is_alive() and node.is_stopped:
                    node.resume()
                node.kill()
            except (OSError, subprocess.TimeoutExpired) as e:
                print("kill-test: could not end %s: %s" % (node, e), file=sys.stderr)
        if failed and nodes and show_logs:
            sys.stdout.flush()
            for n in nodes:
                print("---- %s log tail ----\n%s" % (n.name, n.log_tail(1500)), file=sys.stderr)
            if bus is not None:
                print("---- bus clients log tail ----\n%s" % bus.log_tail(1500), file=sys.stderr)
        if args.keep_dir or (failed and show_logs):
            print("kill-test: nodes' directories and logs kept in %s" % workdir)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
        for c in report["cycles"]:
            c.pop("promoted_at", None)
            c.pop("fault_at", None)
            c.pop("back_at", None)
        with open(args.report, "w") as f:
            json.dump(report, f, indent=2, sort_keys=True)
        if report["result"] is not None or report["cycles"]:
            print_summary(report)
        elif report["error"]:
            print("kill-test: %s; report: %s" % (report["verdict"], report["report_path"]))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
