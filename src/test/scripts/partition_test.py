#!/usr/bin/env python3
"""Partition test: a three-node replication group on a network of its own, cut in every shape.

Written against the contract shared/spec/REPLICATION.md only; python3 standard library, iproute2
(`ip`, `tc`); needs root. The set-up is the multi-host guide (src/site/markdown/multi-host.md),
tested: each node is a host of its own, a network namespace with one interface and one address,
and the three are joined by a Linux bridge in a namespace of its own. Nothing of the host changes:
no address, link, route or rule is added outside the namespaces this run creates, and everything
is removed at the end, after a failure, a Ctrl-C or a SIGTERM too (`--cleanup` removes what an
earlier run killed with SIGKILL left: namespaces named bpt-*, their processes, its directories).

  1. Network (`Network.create`): namespaces bpt-RUN-br (the bridge br0) and bpt-RUN-n1..n3 (the
     nodes); a veth pair per node, eth0 in the node's namespace, nK on the bridge; addresses
     10.A.B.1-3/24 of a subnet derived from the run id, inside the node namespaces only.
  2. Nodes (`Node.start`), as the README's "High availability" section starts them, each in its
     namespace on the same ports a real host would use:
       ip netns exec bpt-RUN-nK java @conf/jvm.options -Dvertx.hazelcast.config=NODE.xml \\
           -jar target/vertx-beanstalkd.jar -cluster -cluster-host ADDR -cluster-port 5801 -conf NODE.json
     NODE.xml is conf/cluster-group.xml with the member list, the interface and the local address
     replaced by the namespaces' addresses (`node_cluster_xml`); NODE.json is {"host": ADDR,
     "port": 11300, "http": {"port": 11380}, "binlog": {"dir": D}, "replication": {"enabled": true,
     "minAcks": M, "whenTooFewStandbys": W}}.
  3. Apps beside each node (`NsProducer`, `NsConsumer`): a producer and a consumer per node, threads
     that enter the node's namespace and connect to the node's address (the sidecar pattern);
     kill-test's clients and ledger (client_ledger.py) record every reply. A watcher polls every
     node's /healthz (role, term) from inside its namespace all along.
  4. Faults (`--faults`, each KIND:STYLE, on whoever is primary when it starts; each waits for a
     stable group first and afterwards, both bounded):
       primary-isolated  the primary cut from both standbys for --cut-seconds, then healed
       standby-isolated  one standby cut from both others
       bridge            only the link primary <-> one standby cut (both still reach the other standby)
       flapping          the primary cut and healed every 1-2 s for --flap-seconds
       pause             SIGSTOP of the primary and a cut; SIGCONT while still cut (--pause-seconds
                         in), healed --cut-seconds after the start
       full-copy         --depth jobs put into a tube nobody consumes (Bench prefill, once), a
                         standby killed, its directory emptied, started again; cut from the others
                         while it says "syncing" (its full copy), healed --cut-seconds later
     STYLE drop: packets silently lost (tc: an htb class whose leaf is a blackhole qdisc, chosen by a
     u32 filter on the peer's address, on both ends); reject: `ip route add blackhole PEER/32` on
     both ends, so that a sender is refused at once (EINVAL).
  5. Stops the apps, drains the tube on the final primary, and judges by what clients were told:
       lost_acknowledged_puts   INSERTED, never reserved nor found by the drain
       deleted_came_back        DELETED acknowledged, the body reserved again by a reserve sent
                                after that (a reserve sent before it and answered after it overlaps
                                the delete: counted apart as reserved_across_a_delete)
       ids_issued_twice         one id INSERTED for two bodies
       acks_after_newer_term    INSERTED/DELETED from a node whose /healthz said primary of term t
                                just before the command was sent and just after the reply, when a
                                node had said primary with a term above t before the command was sent
       backlog_lost             (full-copy) the depth tube holds fewer jobs than were acknowledged
     and per fault: each of those (by when the put, delete or second id was acknowledged: from the
     fault's start until the next fault's), and the longest stretch without an acknowledged put
     by the apps of the majority side (the nodes not cut off; all three for a bridge).

Bounded: every wait has a deadline, the run stops starting faults after --max-minutes, every
process started is ended by its pid (SIGCONT, then SIGKILL). Exit status: 0 no violation; 1 a
violation; 2 set-up failed (not root, no `ip netns`, no jar, the group never formed); 3 a deadline
passed (what was measured up to then is reported).

Usage (from the repository root, as root, after mvn -B -q package -DskipTests):
    python3 src/test/scripts/partition_test.py --faults all --report pt-report.json
    python3 src/test/scripts/partition_test.py --faults primary-isolated:drop,flapping:reject \\
        --when-too-few refuse
    python3 src/test/scripts/partition_test.py --cleanup
"""
import argparse
import atexit
import bisect
import collections
import concurrent.futures
import ctypes
import glob
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid

from client_ledger import (Conn, Consumer, DeadlinePassed, Ledger, Producer, analyse, clock, drain, now,
                           tube_stats, wait_for)
from bench_jar import bench_classpath  # beside this file


ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
PREFIX = "bpt-"                      # every namespace of this script; --cleanup looks for it
MARKER = ".partition-test-run"       # in every directory of this script, with the run id
TCP_PORT, HTTP_PORT, HAZELCAST_PORT, EVENT_BUS_PORT = 11300, 11380, 5701, 5801
HEALTHZ_SECONDS = 0.7
WATCH_SECONDS = 0.2
KINDS = ("primary-isolated", "standby-isolated", "bridge", "flapping", "pause", "full-copy")
STYLES = ("drop", "reject")
CLONE_NEWNET = 0x40000000


class SetupFailed(Exception):
    """The run could not start: not root, no namespaces, no jar, the group never formed."""


def run(*command, check=True):
    """An `ip`/`tc` command; its stderr in the exception when check and it fails."""
    out = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=30)
    if check and out.returncode != 0:
        raise SetupFailed("%s: %s" % (" ".join(command), out.stderr.strip()))
    return out


# ---------------------------------------------------------------------------------------------
# Namespaces

_libc = ctypes.CDLL(None, use_errno=True)


def enter_netns(name):
    """Moves the calling thread (only it: a network namespace is per thread) into namespace `name`."""
    fd = os.open("/run/netns/" + name, os.O_RDONLY)
    try:
        if _libc.setns(fd, CLONE_NEWNET) != 0:
            e = ctypes.get_errno()
            raise OSError(e, "setns %s: %s" % (name, os.strerror(e)))
    finally:
        os.close(fd)


class Network:
    """The run's namespaces, veth pairs and bridge, and the cuts between node addresses."""

    def __init__(self, run_id):
        self.run_id = run_id
        self.bridge_ns = "%s%s-br" % (PREFIX, run_id)
        self.node_ns = ["%s%s-n%d" % (PREFIX, run_id, k) for k in (1, 2, 3)]
        # A subnet of this run's own (inside its namespaces only, so no clash with the host's).
        h = int(run_id, 16)
        self.subnet = "10.%d.%d" % (100 + h % 100, (h >> 8) % 256)
        self.addresses = ["%s.%d" % (self.subnet, k) for k in (1, 2, 3)]
        self.created = []
        self.dropped = collections.defaultdict(set)   # node index -> peer addresses dropped (tc)
        self.rejected = collections.defaultdict(set)  # node index -> peer addresses with a blackhole route
        self.lock = threading.Lock()

    def create(self):
        """The guide's hosts and their network: three nodes on one bridge."""
        run("ip", "netns", "add", self.bridge_ns)
        self.created.append(self.bridge_ns)
        run("ip", "-n", self.bridge_ns, "link", "add", "br0", "type", "bridge")
        run("ip", "-n", self.bridge_ns, "link", "set", "br0", "up")
        for k, (ns, addr) in enumerate(zip(self.node_ns, self.addresses), 1):
            run("ip", "netns", "add", ns)
            self.created.append(ns)
            # Created in the two namespaces at once: the host's namespace never holds either end.
            run("ip", "link", "add", "eth0", "netns", ns, "type", "veth", "peer", "name", "n%d" % k,
                "netns", self.bridge_ns)
            run("ip", "-n", self.bridge_ns, "link", "set", "n%d" % k, "master", "br0")
            run("ip", "-n", self.bridge_ns, "link", "set", "n%d" % k, "up")
            run("ip", "-n", ns, "link", "set", "lo", "up")
            run("ip", "-n", ns, "addr", "add", addr + "/24", "dev", "eth0")
            run("ip", "-n", ns, "link", "set", "eth0", "up")

    def remove(self):
        """Deletes the veth pairs and the namespaces (the nodes' processes must be gone first)."""
        for k in (1, 2, 3):
            run("ip", "-n", self.bridge_ns, "link", "del", "n%d" % k, check=False)
        for ns in reversed(self.created):
            run("ip", "netns", "del", ns, check=False)
        self.created = []

    def cut(self, a, b, style):
        """Cuts the link between nodes a and b (indexes) both ways."""
        with self.lock:
            for x, y in ((a, b), (b, a)):
                if style == "drop":
                    self.dropped[x].add(self.addresses[y])
                    self._apply_drops(x)
                else:
                    if self.addresses[y] not in self.rejected[x]:
                        run("ip", "-n", self.node_ns[x], "route", "add", "blackhole", self.addresses[y] + "/32")
                        self.rejected[x].add(self.addresses[y])

    def heal_all(self):
        with self.lock:
            for x in range(3):
                for addr in sorted(self.rejected[x]):
                    run("ip", "-n", self.node_ns[x], "route", "del", "blackhole", addr + "/32", check=False)
                self.rejected[x].clear()
                if self.dropped[x]:
                    self.dropped[x].clear()
                    self._apply_drops(x)

    def cuts(self):
        with self.lock:
            return {"drop": {x: sorted(v) for x, v in self.dropped.items() if v},
                    "reject": {x: sorted(v) for x, v in self.rejected.items() if v}}

    def _apply_drops(self, x):
        """eth0's egress of node x: traffic to the dropped peers goes to a class whose leaf is a
        blackhole qdisc (no tc action modules needed), everything else to the default class."""
        ns = self.node_ns[x]
        run("tc", "-n", ns, "qdisc", "del", "dev", "eth0", "root", check=False)
        if not self.dropped[x]:
            return
        run("tc", "-n", ns, "qdisc", "add", "dev", "eth0", "root", "handle", "1:", "htb", "default", "1")
        for cls in ("1:1", "1:2"):
            run("tc", "-n", ns, "class", "add", "dev", "eth0", "parent", "1:", "classid", cls, "htb",
                "rate", "10gbit", "quantum", "60000")
        run("tc", "-n", ns, "qdisc", "add", "dev", "eth0", "parent", "1:2", "handle", "20:", "blackhole")
        for addr in sorted(self.dropped[x]):
            run("tc", "-n", ns, "filter", "add", "dev", "eth0", "parent", "1:", "protocol", "ip", "prio", "1",
                "u32", "match", "ip", "dst", addr + "/32", "flowid", "1:2")


def check_environment():
    if os.geteuid() != 0:
        raise SetupFailed("needs root (network namespaces)")
    probe = "%sprobe-%s" % (PREFIX, uuid.uuid4().hex[:6])
    try:
        run("ip", "netns", "add", probe)
    except (SetupFailed, OSError) as e:
        raise SetupFailed("`ip netns add` does not work here: %s" % e)
    run("ip", "netns", "del", probe, check=False)


def runs_alive():
    """The run ids whose script is still running (its marker names its pid, and that pid is this script)."""
    alive = set()
    for d in glob.glob(os.path.join(tempfile.gettempdir(), "partition-test-*")):
        try:
            with open(os.path.join(d, MARKER)) as f:
                owner, pid = f.read().split()
            with open("/proc/%d/cmdline" % int(pid), "rb") as f:
                if b"partition-test" in f.read():
                    alive.add(owner)
        except (OSError, ValueError):
            continue
    return alive


def cleanup_leftovers(run_id=None):
    """Removes what runs of this script left (every run whose script is gone, or run `run_id`'s):
    their processes, by pid, found in their namespaces; the namespaces with their links; their
    directories."""
    tag = PREFIX + (run_id + "-" if run_id else "")
    skip = set() if run_id else runs_alive()
    listed = run("ip", "netns", "list", check=False).stdout.split("\n")
    names = [line.split()[0] for line in listed if line.startswith(tag)
             and line.split()[0][len(PREFIX):].split("-")[0] not in skip]
    removed = {"namespaces": [], "pids": [], "dirs": []}
    for ns in names:
        pids = run("ip", "netns", "pids", ns, check=False).stdout.split()
        for pid in pids:
            for sig in (signal.SIGCONT, signal.SIGKILL):
                try:
                    os.kill(int(pid), sig)
                except (OSError, ValueError):
                    pass
            removed["pids"].append(int(pid))
    deadline = now() + 15
    for ns in names:
        while run("ip", "netns", "pids", ns, check=False).stdout.split() and now() < deadline:
            time.sleep(0.1)
    for ns in names:
        if ns.endswith("-br"):
            for k in (1, 2, 3):
                run("ip", "-n", ns, "link", "del", "n%d" % k, check=False)
    for ns in names:
        run("ip", "netns", "del", ns, check=False)
        removed["namespaces"].append(ns)
    for d in glob.glob(os.path.join(tempfile.gettempdir(), "partition-test-*")):
        try:
            with open(os.path.join(d, MARKER)) as f:
                owner = f.read().strip()
        except OSError:
            continue
        owner = owner.split()[0] if owner.split() else owner
        if (run_id is None and owner not in skip) or owner == run_id:
            shutil.rmtree(d, ignore_errors=True)
            removed["dirs"].append(d)
    return removed


# ---------------------------------------------------------------------------------------------
# Nodes


def make_cluster_tls(workdir, names):
    """--cluster-tls: a CA and a certificate per node, made with the openssl commands of the README's
    "Encrypted cluster traffic" (the guide's TLS step); returns each node's cluster.tls section."""
    d = os.path.join(workdir, "tls")
    os.makedirs(d)

    def openssl(*a):
        out = subprocess.run(("openssl",) + a, cwd=d, capture_output=True, text=True, timeout=60)
        if out.returncode != 0:
            raise SetupFailed("openssl %s: %s" % (" ".join(a), out.stderr.strip()[-500:]))
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "ca.key",
            "-out", "ca.pem", "-days", "3650", "-subj", "/CN=beanstalkd cluster CA", "-addext",
            "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    with open(os.path.join(d, "node.ext"), "w") as f:
        f.write("extendedKeyUsage=serverAuth,clientAuth\n")
    sections = {}
    for name in names:
        openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", name + ".key",
                "-out", name + ".csr", "-subj", "/CN=" + name)
        openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", name + ".pem", "-days", "825", "-extfile", "node.ext")
        sections[name] = {"cert": os.path.join(d, name + ".pem"), "key": os.path.join(d, name + ".key"),
                          "ca": os.path.join(d, "ca.pem")}
    return sections


def node_cluster_xml(text, own, members):
    """conf/cluster-group.xml for one host: its member list, interface and local address made the
    hosts' (the guide's "Hazelcast" step); every other setting kept."""
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    member_list = "".join("\n        <member>%s:%d</member>" % (m, HAZELCAST_PORT) for m in members)
    replacements = (
        (r'(<property name="hazelcast.local.localAddress">)[^<]*(</property>)', r"\g<1>%s\g<2>" % own),
        (r"(<tcp-ip\b[^>]*>).*?(\s*</tcp-ip>)", r"\g<1>%s\g<2>" % member_list),
        (r"(<interfaces\b[^>]*>\s*<interface>)[^<]*(</interface>)", r"\g<1>%s\g<2>" % own),
    )
    for pattern, replacement in replacements:
        text, n = re.subn(pattern, replacement, text, count=1, flags=re.S)
        if n != 1:
            raise SetupFailed("cluster config: no match for %s" % pattern)
    return text


class Node:
    """One host of the guide: its namespace, address, JVM (by pid), directory and log; requests to
    it run on threads inside its namespace."""

    def __init__(self, index, ns, host, args, workdir, cluster_xml_text, members, cluster_tls=None):
        self.index = index
        self.name = "node%d" % (index + 1)
        self.ns = ns
        self.host = host
        self.port = TCP_PORT
        self.http_port = HTTP_PORT
        self.args = args
        self.dir = os.path.join(workdir, self.name)
        self.binlog = os.path.join(self.dir, "binlog")
        os.makedirs(self.binlog)
        self.log_path = os.path.join(self.dir, "out.log")
        self.xml_path = os.path.join(self.dir, "cluster.xml")
        with open(self.xml_path, "w") as f:
            f.write(node_cluster_xml(cluster_xml_text, host, members))
        self.conf_path = os.path.join(self.dir, "node.json")
        conf = {"host": host, "port": TCP_PORT, "http": {"port": HTTP_PORT}, "binlog": {"dir": self.binlog},
                "replication": {"enabled": True, "minAcks": args.min_acks, "whenTooFewStandbys": args.when_too_few}}
        if cluster_tls:
            conf["cluster"] = {"tls": cluster_tls}
        conf.update(json.loads(args.extra_conf))
        with open(self.conf_path, "w") as f:
            json.dump(conf, f)
        self.proc = None
        self.is_stopped = False
        self.starts = 0
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix=self.name,
                                                          initializer=enter_netns, initargs=(ns,))

    def command(self):
        command = ["ip", "netns", "exec", self.ns, self.args.java]
        if self.args.jvm_options:
            command.append("@" + self.args.jvm_options)
        return command + ["-Dvertx.hazelcast.config=" + self.xml_path, "-jar", self.args.jar, "-cluster",
                          "-cluster-host", self.host, "-cluster-port", str(EVENT_BUS_PORT), "-conf", self.conf_path]

    def start(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith("BEANSTALKD_")}
        self.starts += 1
        command = self.command()
        with open(self.log_path, "ab") as log:
            log.write(("\n==== start %d at %s: %s\n" % (self.starts, clock(now()), " ".join(command))).encode())
            log.flush()
            # `ip netns exec` execs the JVM: the pid is the JVM's. A session of its own, so that a
            # Ctrl-C reaches this script only, which ends the node by its pid.
            self.proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                         env=env, cwd=ROOT, start_new_session=True)
        self.is_stopped = False

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def is_alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill(self):
        if self.is_alive():
            try:
                os.kill(self.proc.pid, signal.SIGCONT)
                os.kill(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass
        if self.proc is not None:
            self.proc.wait(timeout=30)
        self.is_stopped = False

    def stop(self):
        os.kill(self.proc.pid, signal.SIGSTOP)
        self.is_stopped = True

    def resume(self):
        os.kill(self.proc.pid, signal.SIGCONT)
        self.is_stopped = False

    def inside(self, fn, *a, timeout=60):
        """fn(*a) on a thread inside this node's namespace."""
        return self.pool.submit(fn, *a).result(timeout=timeout)

    def _healthz(self):
        try:
            with urllib.request.urlopen("http://%s:%d/healthz" % (self.host, self.http_port),
                                        timeout=HEALTHZ_SECONDS) as r:
                return json.loads(r.read().decode("utf-8"))
        except (OSError, ValueError, urllib.error.URLError):
            return None

    def healthz(self):
        if not self.is_alive() or self.is_stopped:
            return None
        return self.inside(self._healthz)

    def _serves(self):
        try:
            c = Conn(self.port, 2.0, self.host)
        except OSError:
            return False
        try:
            c.send(b"list-tube-used\r\n")
            return c.line().startswith("USING ")
        except OSError:
            return False
        finally:
            c.close()

    def serves(self):
        return self.is_alive() and not self.is_stopped and self.inside(self._serves)

    def log_tail(self, chars=2000):
        try:
            with open(self.log_path, "rb") as f:
                f.seek(0, os.SEEK_END)
                f.seek(max(0, f.tell() - chars))
                return f.read().decode("latin-1")
        except OSError as e:
            return "(no log: %s)" % e


class Watch(threading.Thread):
    """Polls every node's /healthz from inside its namespace; keeps each answer with its time."""

    def __init__(self, nodes, stopping):
        super().__init__(name="watch", daemon=True)
        self.nodes, self.stopping = nodes, stopping
        self.samples = []                 # (t, node index, role or None, term or None)
        self.latest = [None] * len(nodes)
        self.lock = threading.Lock()
        self.two_primaries = []

    def run(self):
        while not self.stopping.wait(WATCH_SECONDS):
            self.poll()

    def poll(self):
        futures = []
        for n in self.nodes:
            futures.append(n.pool.submit(n._healthz) if n.is_alive() and not n.is_stopped else None)
        found = []
        for f in futures:
            try:
                found.append(f.result(timeout=5) if f else None)
            except (concurrent.futures.TimeoutError, RuntimeError):
                found.append(None)
        t = now()
        with self.lock:
            for i, h in enumerate(found):
                self.latest[i] = h
                self.samples.append((t, i, h.get("role") if h else None, h.get("term") if h else None))
            primaries = [(self.nodes[i].name, h.get("term")) for i, h in enumerate(found)
                         if h and h.get("role") == "primary"]
            if len(primaries) > 1:
                self.two_primaries.append({"at": clock(t), "primaries": primaries})
        return found

    def stable_primary(self):
        """The primary when one node says primary (serving, standbys caught up, not degraded) and
        the others standby; else None."""
        found = self.poll()
        roles = [h.get("role") if h else None for h in found]
        if roles.count("primary") != 1 or roles.count("standby") != len(self.nodes) - 1:
            return None
        i = roles.index("primary")
        h = found[i]
        if "standbys" in h and h["standbys"] < len(self.nodes) - 1 or h.get("degraded") is True:
            return None
        return self.nodes[i] if self.nodes[i].serves() else None

    def describe(self):
        return "; ".join("%s: %s" % (n.name, json.dumps(h) if h else "no /healthz")
                         for n, h in zip(self.nodes, self.latest))


# ---------------------------------------------------------------------------------------------
# Apps beside each node


class NsProducer(Producer):
    """kill-test's producer, pinned to its node, its socket in the node's namespace."""

    def run(self):
        enter_netns(self.pin.ns)
        super().run()


class NsConsumer(Consumer):
    def run(self):
        enter_netns(self.pin.ns)
        super().run()


def prefill(node, args, jobs):
    """Bench's pipelined prefill, run in the node's namespace against its address; returns the tube."""
    command = ["ip", "netns", "exec", node.ns, args.java, "-Xmx512m", "-cp", bench_classpath(args.jar),
               "io.github.vertxbeanstalkd.bench.Bench", "--mode", "prefill", "--target",
               "%s:%d" % (node.host, node.port), "--jobs", str(jobs), "-s", "100"]
    out = subprocess.run(command, capture_output=True, text=True, timeout=600)
    found = re.search(r"left queued in tube (\S+);", out.stdout)
    errors = re.search(r"errors=(\d+)", out.stdout)
    if out.returncode != 0 or not found or not errors or int(errors.group(1)) != 0:
        raise DeadlinePassed("prefill failed: %s %s" % (out.stdout[-1500:], out.stderr[-1500:]))
    return found.group(1)


# ---------------------------------------------------------------------------------------------
# Faults


class Faults:
    """Runs one fault of a kind and style; what was seen goes into the fault's record."""

    def __init__(self, nodes, net, watch, args):
        self.nodes, self.net, self.watch, self.args = nodes, net, watch, args
        self.backlog = None   # {"tube", "acknowledged"} once full-copy filled one
        self.rng = random.Random(args.seed)

    def isolate(self, i, style):
        for j in range(3):
            if j != i:
                self.net.cut(i, j, style)

    def run(self, rec):
        """The fault `rec` names (its "fault" number, "kind" and "style"); what was seen goes into
        `rec` as it happens, so that a fault stopped half-way is still judged."""
        args = self.args
        number, kind, style = rec["fault"], rec["kind"], rec["style"]
        primary = wait_for("before fault %d: one primary serving, standbys caught up" % number,
                           args.recover_timeout, self.watch.stable_primary)
        p = primary.index
        standbys = [i for i in range(3) if i != p]
        rec.update(primary=primary.name, term=(self.watch.latest[p] or {}).get("term"),
                   load_before=round(os.getloadavg()[0], 2))
        if kind == "full-copy" and self.backlog is None:
            started = now()
            tube = prefill(primary, args, args.depth)
            self.backlog = {"tube": tube, "acknowledged": args.depth}
            rec["prefill_seconds"] = round(now() - started, 1)
            primary = wait_for("after the prefill", args.recover_timeout, self.watch.stable_primary)
            p = primary.index
            standbys = [i for i in range(3) if i != p]
            rec["primary"], rec["term"] = primary.name, (self.watch.latest[p] or {}).get("term")
        rec["start"] = now()
        rec["start_clock"] = clock(rec["start"])
        cut_end = rec["start"] + args.cut_seconds
        if kind == "primary-isolated":
            rec["cut_off"], rec["majority"] = [p], standbys
            self.isolate(p, style)
            self.sleep_until(cut_end)
        elif kind == "standby-isolated":
            s = self.rng.choice(standbys)
            rec["cut_off"], rec["majority"] = [s], [i for i in range(3) if i != s]
            self.isolate(s, style)
            self.sleep_until(cut_end)
        elif kind == "bridge":
            s = self.rng.choice(standbys)
            rec["cut_link"], rec["majority"] = [p, s], [0, 1, 2]
            self.net.cut(p, s, style)
            self.sleep_until(cut_end)
        elif kind == "flapping":
            rec["cut_off"], rec["majority"] = [p], standbys
            end = rec["start"] + args.flap_seconds
            flips = 0
            while now() < end and flips < 100:
                self.isolate(p, style)
                self.sleep_until(min(end, now() + self.rng.uniform(1.0, 2.0)))
                self.net.heal_all()
                flips += 1
                self.sleep_until(min(end, now() + self.rng.uniform(1.0, 2.0)))
            rec["flips"] = flips
        elif kind == "pause":
            rec["cut_off"], rec["majority"] = [p], standbys
            primary.stop()
            self.isolate(p, style)
            self.sleep_until(rec["start"] + args.pause_seconds)
            primary.resume()
            rec["resumed_after_s"] = round(now() - rec["start"], 2)
            self.sleep_until(max(cut_end, now() + 2.0))
        elif kind == "full-copy":
            s = self.rng.choice(standbys)
            fresh = self.nodes[s]
            rec["cut_off"], rec["majority"] = [s], [i for i in range(3) if i != s]
            fresh.kill()
            shutil.rmtree(fresh.binlog)
            os.makedirs(fresh.binlog)
            fresh.start()
            # The cut comes while the fresh node copies: its /healthz says "syncing".
            roles = []

            def syncing():
                h = fresh.healthz()
                role = h.get("role") if h else None
                if role and (not roles or roles[-1] != role):
                    roles.append(role)
                return role == "syncing"
            try:
                wait_for("%s syncing" % fresh.name, args.recover_timeout, syncing)
            finally:
                rec["fresh_roles_before_cut"] = roles
            rec["cut_at_s"] = round(now() - rec["start"], 2)
            self.isolate(s, style)
            self.sleep_until(now() + args.cut_seconds)
        rec["healed"] = now()
        self.net.heal_all()
        rec["cut_seconds"] = round(rec["healed"] - rec["start"], 2)
        try:
            after = wait_for("after fault %d (%s:%s): one primary serving, standbys caught up" % (number, kind, style),
                             args.recover_timeout, self.watch.stable_primary)
        except DeadlinePassed as e:
            rec["group"] = self.watch.describe()
            raise DeadlinePassed("%s; the group: %s" % (e, rec["group"]))
        rec["recovered"] = now()
        rec["recovered_after_heal_s"] = round(rec["recovered"] - rec["healed"], 2)
        rec["new_primary"] = after.name
        rec["new_term"] = (self.watch.latest[after.index] or {}).get("term")

    @staticmethod
    def sleep_until(t):
        time.sleep(max(0.0, t - now()))


# ---------------------------------------------------------------------------------------------
# The verdict


def node_of_producer(producers):
    return {p.prefix: p.pin.index for p in producers}


def stale_acks(ledger, samples, producers, consumers):
    """Acknowledgements that came from a node which, around the command, said primary of a term
    older than one some node had already said primary with before the command was sent."""
    by_node = collections.defaultdict(list)
    first_primary_of = {}   # term -> when a node first said primary with it
    for t, i, role, term in sorted(samples, key=lambda s: s[0]):
        by_node[i].append((t, role, term))
        if role == "primary" and term is not None and term not in first_primary_of:
            first_primary_of[term] = t
    times = {i: [r[0] for r in rows] for i, rows in by_node.items()}
    newer_since = {}        # term -> earliest time a node said primary with a higher term

    def newer_began(term):
        if term not in newer_since:
            newer_since[term] = min((t for x, t in first_primary_of.items() if x > term), default=None)
        return newer_since[term]

    def around(i, sent_at, acked_at):
        """The node's last /healthz before the command was sent and its first after the reply."""
        rows, ts = by_node[i], times.get(i, [])
        k = bisect.bisect_right(ts, sent_at) - 1
        m = bisect.bisect_left(ts, acked_at)
        return (rows[k] if k >= 0 else None), (rows[m] if m < len(rows) else None)

    prefix_node = node_of_producer(producers)
    consumer_node = {c.name: c.pin.index for c in consumers}
    found = []
    for job_id, body, sent_at, acked_at, _, _ in ledger.inserted:
        i = next((n for pre, n in prefix_node.items() if body.startswith(pre)), None)
        if i is not None:
            found += _stale("put", job_id, i, sent_at, acked_at, around, newer_began)
    # A delete's send time is not kept; its reservation (the step before) bounds it from below.
    reserved_at = {}
    for body, job_id, at, who, _ in ledger.seen:
        reserved_at.setdefault((body, who), []).append(at)
    for body, (job_id, acked_at, who) in ledger.deleted.items():
        i = consumer_node.get(who)
        if i is None:
            continue
        sent_at = max((t for t in reserved_at.get((body, who), []) if t <= acked_at), default=acked_at)
        found += _stale("delete", job_id, i, sent_at, acked_at, around, newer_began)
    return found


def _stale(what, job_id, i, sent_at, acked_at, around, newer_began):
    before, after = around(i, sent_at, acked_at)
    if not before or not after or before[1] != "primary" or after[1] != "primary" or before[2] != after[2]:
        return []
    began = newer_began(before[2])
    if began is None or began >= sent_at:
        return []
    return [{"what": what, "id": job_id, "node": "node%d" % (i + 1), "term": before[2], "sent": clock(sent_at),
             "acked": clock(acked_at), "newer_term_began": clock(began), "sent_at": sent_at}]


def longest_gap(ledger, producers, faults):
    """Per fault: the longest stretch, from its start until the group was stable again, without a
    put acknowledged to an app of the majority side."""
    prefix_node = node_of_producer(producers)
    acks = collections.defaultdict(list)
    for _, body, _, acked_at, _, _ in ledger.inserted:
        i = next((n for pre, n in prefix_node.items() if body.startswith(pre)), None)
        if i is not None:
            acks[i].append(acked_at)
    for rec in faults:
        if "start" not in rec:
            continue
        end = rec.get("recovered", now())
        times = sorted(t for i in rec["majority"] for t in acks[i] if rec["start"] <= t <= end)
        edges = [rec["start"]] + times + [end]
        gap, at = 0.0, rec["start"]
        for a, b in zip(edges, edges[1:]):
            if b - a > gap:
                gap, at = b - a, a
        rec["longest_without_ack_s"] = round(gap, 2)
        rec["longest_without_ack_from"] = clock(at)
        rec["majority_acks"] = len(times)


def attribute(result, stale, faults):
    """Counts every violation under the fault in whose span (its start until the next fault's) it was
    acknowledged: a put lost, a delete that came back, the later of an id's two acknowledgements."""
    starts = [(rec["start"], rec) for rec in faults if "start" in rec]
    for _, rec in starts:
        rec.update(lost=0, deleted_came_back=0, reserved_across_a_delete=0, ids_issued_twice=0, acks_after_newer_term=0)

    def owner(t):
        hit = None
        for start, rec in starts:
            if start <= t:
                hit = rec
        return hit
    before = collections.Counter()
    d = result["details"]
    for kind, items, when in (("lost", d["lost"], lambda x: x["acked_at"]),
                              ("deleted_came_back", d["deleted_came_back"], lambda x: x["deleted_at"]),
                              ("reserved_across_a_delete", d["reserved_across_a_delete"], lambda x: x["deleted_at"]),
                              ("ids_issued_twice", d["ids_issued_twice"], lambda x: max(x["acked_at"]))):
        for x in items:
            at = when(x)
            rec = owner(at)
            if rec is None:
                before[kind] += 1
            else:
                rec[kind] += 1
                # When the first and last of them were acknowledged: which stage of the fault.
                span = rec.setdefault(kind + "_acked_between", [at, at])
                span[0], span[1] = min(span[0], at), max(span[1], at)
    for rec in faults:
        for kind in ("lost", "deleted_came_back", "reserved_across_a_delete", "ids_issued_twice"):
            span = rec.get(kind + "_acked_between")
            if span and "start" in rec:
                rec[kind + "_acked_between"] = ["%+.2f s" % (t - rec["start"]) for t in span]
    for x in stale:
        rec = owner(x.pop("sent_at"))
        if rec is not None:
            rec["acks_after_newer_term"] += 1
        else:
            before["acks_after_newer_term"] += 1
    return dict(before)


def as_cycles(faults, nodes):
    """The faults as the checker's sidecar analysis reads cycles: "primary" there is the node whose
    apps may lose their connection (the one cut off; for a bridge, the standby whose link was cut)."""
    cycles = []
    for f in faults:
        if "start" not in f:
            continue
        cut = f.get("cut_off") or f.get("cut_link", [])[1:]
        cycles.append(dict(f, primary=nodes[cut[0]].name if cut else f.get("primary"), cycle=f["fault"],
                           fault_at=f["start"], back_at=f.get("recovered", float("inf"))))
    return cycles


def summarize(report):
    r = report.get("result") or {}
    a = report["args"]
    print("\n==== partition test: minAcks %s, whenTooFewStandbys %s, %d of %d faults"
          % (a["min_acks"], a["when_too_few"], len(report["faults"]), len(a["fault_list"])))
    print("  %-3s %-17s %-6s %-6s %-6s %6s %6s %5s %5s %5s %8s %9s %5s"
          % ("#", "kind", "style", "from", "to", "cut s", "back s", "lost", "back", "twice", "staleAck",
             "noAck s", "load"))
    for f in report["faults"]:
        print("  %-3s %-17s %-6s %-6s %-6s %6s %6s %5s %5s %5s %8s %9s %5s" % (
            f["fault"], f["kind"], f["style"], f["primary"], f.get("new_primary", "-"), f.get("cut_seconds", "-"),
            f.get("recovered_after_heal_s", "-"), f.get("lost", "-"), f.get("deleted_came_back", "-"),
            f.get("ids_issued_twice", "-"), f.get("acks_after_newer_term", "-"), f.get("longest_without_ack_s", "-"),
            f.get("load_before", "-")))
    if r:
        print("  puts acknowledged %d, deletes acknowledged %d, deliveries %d (%d by the drain)"
              % (r["puts_acknowledged"], r["deletes_acknowledged"], r["deliveries"], r["deliveries_by_drain"]))
        for key, value in sorted(r["partition_violations"].items()):
            print("  %-28s %8d%s" % (key, value, "  VIOLATION" if value else ""))
        print("  duplicate deliveries (allowed) %d; client errors %s" % (
            r["duplicate_deliveries"], json.dumps(r["client_errors"], sort_keys=True)))
        if "sidecar" in r:
            print("  apps' lost connections: own node cut %d, other nodes %d (reported, not judged); INTERNAL_ERROR %s"
                  % (r["sidecar"]["reconnects_own_node_faulted"], r["sidecar"]["reconnects_node_survived"],
                     json.dumps(r["sidecar"]["internal_errors"], sort_keys=True)))
        if r.get("backlog"):
            print("  backlog %s" % json.dumps(r["backlog"], sort_keys=True))
    if report["two_primaries_seen"]:
        print("  two nodes said primary at once: %d sample(s)" % len(report["two_primaries_seen"]))
    if report.get("error"):
        print("  STOPPED: " + report["error"])
    print("  verdict: %s; report: %s" % (report["verdict"], report["report_path"]))


# ---------------------------------------------------------------------------------------------


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--jar", default=os.path.join(ROOT, "target", "vertx-beanstalkd.jar"))
    p.add_argument("--jvm-options", default=os.path.join(ROOT, "conf", "jvm.options"))
    p.add_argument("--java", default=shutil.which("java") or "java")
    p.add_argument("--cluster-config", default=os.path.join(ROOT, "conf", "cluster-group.xml"))
    p.add_argument("--faults", default="primary-isolated:drop",
                   help="comma-separated KIND:STYLE (KIND: %s; STYLE: %s), or 'all' (every kind in both styles)"
                        % (", ".join(KINDS), ", ".join(STYLES)))
    p.add_argument("--repeat", type=int, default=1, help="run the fault list this many times")
    p.add_argument("--cut-seconds", type=float, default=10.0)
    p.add_argument("--flap-seconds", type=float, default=15.0)
    p.add_argument("--pause-seconds", type=float, default=8.0, help="SIGSTOP length in the pause fault")
    p.add_argument("--depth", type=int, default=200000, help="jobs in the full-copy fault's backlog")
    p.add_argument("--min-acks", type=int, choices=(0, 1), default=1)
    p.add_argument("--when-too-few", choices=("serve", "refuse"), default="serve",
                   help="replication.whenTooFewStandbys (the product's default: serve)")
    p.add_argument("--extra-conf", default="{}", help="JSON merged into every node's config")
    p.add_argument("--cluster-tls", action="store_true",
                   help="the guide's cluster TLS: a CA and node certificates made with openssl, cluster.tls on every node")
    p.add_argument("--rate", type=float, default=100.0, help="puts per second per producer (one per node)")
    p.add_argument("--body-bytes", type=int, default=0)
    p.add_argument("--ttr", type=int, default=30)
    p.add_argument("--tube", default="partition-test")
    p.add_argument("--reserve-timeout", type=int, default=5)
    p.add_argument("--sidecar-read-timeout", type=float, default=30.0,
                   help="seconds an app waits for a reply before it gives up its connection")
    p.add_argument("--read-timeout", type=float, default=10.0)
    p.add_argument("--start-timeout", type=float, default=180.0)
    p.add_argument("--recover-timeout", type=float, default=120.0,
                   help="seconds a fault waits for a stable group before it starts and after it healed")
    p.add_argument("--drain-timeout", type=float, default=120.0)
    p.add_argument("--max-minutes", type=float, default=15.0, help="no fault starts after this")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--run-id", default=None, help="hex; names the namespaces bpt-RUN-* (default: random)")
    p.add_argument("--report", default="partition-test-report.json")
    p.add_argument("--logs-dir", default=None, help="copy the nodes' logs here before the directory is removed")
    p.add_argument("--keep-dir", action="store_true", help="keep the nodes' directories (the namespaces go anyway)")
    p.add_argument("--cleanup", action="store_true",
                   help="remove what earlier runs left (namespaces bpt-*, their processes, directories; not those of a"
                        " run still going, unless named by --run-id), then exit")
    args = p.parse_args(argv)
    if args.run_id is not None and not re.fullmatch(r"[0-9a-f]{4,8}", args.run_id):
        p.error("--run-id: 4 to 8 hex digits")
    if args.cleanup:
        return args
    args.jar = os.path.abspath(args.jar)
    args.jvm_options = os.path.abspath(args.jvm_options) if args.jvm_options else ""
    args.cluster_config = os.path.abspath(args.cluster_config)
    names = [f.strip() for f in args.faults.split(",") if f.strip()]
    if names == ["all"]:
        names = ["%s:%s" % (k, s) for k in KINDS for s in STYLES]
    fault_list = []
    for f in names:
        kind, _, style = f.partition(":")
        if kind not in KINDS or (style or "drop") not in STYLES:
            p.error("--faults: %r is not KIND:STYLE" % f)
        fault_list.append((kind, style or "drop"))
    args.fault_list = fault_list * max(1, args.repeat)
    if args.flap_seconds > 60 or args.cut_seconds > 120 or args.pause_seconds >= args.cut_seconds + 60:
        p.error("faults are bounded: --cut-seconds <= 120, --flap-seconds <= 60")
    args.clients = "sidecar"
    return args


def main(argv):
    args = parse_args(argv)
    if args.cleanup:
        if os.geteuid() != 0:
            print("partition-test: --cleanup needs root", file=sys.stderr)
            return 2
        print("partition-test: removed %s" % json.dumps(cleanup_leftovers(args.run_id)))
        return 0
    run_id = args.run_id or uuid.uuid4().hex[:6]
    report = {"args": {k: v for k, v in vars(args).items()}, "run_id": run_id, "faults": [], "result": None,
              "error": None, "drained": False, "two_primaries_seen": [], "verdict": "SETUP FAILED",
              "report_path": os.path.abspath(args.report)}
    net, nodes, clients, watch = None, [], [], None
    workdir = None
    stopping = threading.Event()
    ledger = Ledger()
    status = 2
    done = {"cleaned": False}

    def clean_up():
        """Idempotent: processes by pid, then links and namespaces, then the directory."""
        if done["cleaned"]:
            return
        done["cleaned"] = True
        stopping.set()
        for n in nodes:
            try:
                n.kill()
            except (OSError, subprocess.TimeoutExpired) as e:
                print("partition-test: could not end %s (pid %s): %s" % (n.name, n.pid, e), file=sys.stderr)
            n.pool.shutdown(wait=False)
        if net is not None:
            net.remove()
        if workdir is not None:
            if args.logs_dir:
                os.makedirs(args.logs_dir, exist_ok=True)
                for n in nodes:
                    shutil.copy(n.log_path, os.path.join(args.logs_dir, "%s-%s.log" % (run_id, n.name)))
            if not args.keep_dir:
                shutil.rmtree(workdir, ignore_errors=True)
    atexit.register(clean_up)

    def on_signal(signum, frame):
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)

    try:
        for path in (args.jar, args.jvm_options, args.cluster_config):
            if path and not os.path.isfile(path):
                raise SetupFailed("%s does not exist (build with: mvn -B -q package -DskipTests)" % path)
        check_environment()
        workdir = tempfile.mkdtemp(prefix="partition-test-%s-" % run_id)
        with open(os.path.join(workdir, MARKER), "w") as f:
            f.write("%s %d" % (run_id, os.getpid()))
        net = Network(run_id)
        net.create()
        with open(args.cluster_config) as f:
            xml = f.read()
        names = ["node%d" % (i + 1) for i in range(3)]
        tls = make_cluster_tls(workdir, names) if args.cluster_tls else {}
        nodes = [Node(i, net.node_ns[i], net.addresses[i], args, workdir, xml, net.addresses, tls.get(names[i]))
                 for i in range(3)]
        report["nodes"] = {n.name: {"namespace": n.ns, "address": n.host} for n in nodes}
        print("partition-test: run %s; nodes %s; in %s" % (
            run_id, ", ".join("%s %s" % (n.name, n.host) for n in nodes), workdir), flush=True)
        for n in nodes:
            n.start()
        report["nodes_pids"] = {n.name: n.pid for n in nodes}
        watch = Watch(nodes, stopping)
        try:
            first = wait_for("at start: one primary serving, standbys caught up", args.start_timeout,
                             watch.stable_primary)
        except DeadlinePassed as e:
            dead = [n.name for n in nodes if not n.is_alive()]
            raise SetupFailed("%s (exited: %s); the group: %s" % (e, dead or "none", watch.describe()))
        watch.start()
        producers = [NsProducer(i, nodes, ledger, stopping, args, pin=nodes[i]) for i in range(3)]
        consumers = [NsConsumer(i, nodes, ledger, stopping, args, pin=nodes[i]) for i in range(3)]
        clients = producers + consumers
        for c in clients:
            c.start()
        try:
            wait_for("every app connected to its node", args.start_timeout, lambda: all(c.connects for c in clients))
        except DeadlinePassed as e:
            raise SetupFailed("%s; the group: %s" % (e, watch.describe()))
        print("partition-test: %s is primary; apps beside each node; %d faults" % (first.name, len(args.fault_list)),
              flush=True)
        status = 3
        faults = Faults(nodes, net, watch, args)
        began = now()
        for number, (kind, style) in enumerate(args.fault_list, 1):
            if now() - began > args.max_minutes * 60:
                report["skipped_faults"] = ["%s:%s" % f for f in args.fault_list[number - 1:]]
                print("partition-test: --max-minutes passed; %d faults not run" % len(report["skipped_faults"]))
                break
            rec = {"fault": number, "kind": kind, "style": style}
            report["faults"].append(rec)
            faults.run(rec)
            print("  fault %d %s:%s on %s (term %s): healed after %.1f s, %s primary (term %s) %.1f s later" % (
                number, kind, style, rec["primary"], rec["term"], rec["cut_seconds"], rec["new_primary"],
                rec["new_term"], rec["recovered_after_heal_s"]), flush=True)
        stopping.set()
        for c in clients:
            c.join(timeout=args.sidecar_read_timeout + 5)
        final = wait_for("before the drain", args.recover_timeout, watch.stable_primary)
        name, stats = final.inside(drain, None, args, ledger, final, timeout=args.drain_timeout + 30)
        report["final_primary"], report["final_tube_stats"], report["drained"] = name, stats, True
        if faults.backlog is not None:
            final = wait_for("before the backlog's count", args.recover_timeout, watch.stable_primary)

            def count():
                c = Conn(final.port, 30.0, final.host)
                try:
                    return tube_stats(c, faults.backlog["tube"])
                finally:
                    c.close()
            s = final.inside(count)
            held = sum(int(s.get(k, 0)) for k in ("current-jobs-ready", "current-jobs-delayed",
                                                  "current-jobs-buried", "current-jobs-reserved"))
            report["backlog"] = dict(faults.backlog, held=held,
                                     lost_acknowledged=max(0, faults.backlog["acknowledged"] - held))
        status = None
    except SetupFailed as e:
        report["error"] = str(e)
        print("partition-test: cannot run: %s" % e, file=sys.stderr)
    except (DeadlinePassed, OSError, KeyboardInterrupt, SystemExit, concurrent.futures.TimeoutError) as e:
        report["error"] = "%s: %s" % (type(e).__name__, e)
        report["verdict"] = "STOPPED"
        status = 130 if isinstance(e, KeyboardInterrupt) else 3
        stopping.set()
        if net is not None:
            net.heal_all()
        for c in clients:
            c.join(timeout=args.sidecar_read_timeout + 2)
        if watch is not None and not isinstance(e, (KeyboardInterrupt, SystemExit)) and ledger.inserted:
            try:
                final = wait_for("a primary for the drain", 60, watch.stable_primary)
                name, stats = final.inside(drain, None, args, ledger, final, timeout=args.drain_timeout + 30)
                report["final_primary"], report["final_tube_stats"], report["drained"] = name, stats, True
            except (DeadlinePassed, OSError, ValueError, concurrent.futures.TimeoutError) as drain_error:
                report["drain_error"] = "%s: %s" % (type(drain_error).__name__, drain_error)
    finally:
        try:
            if ledger.inserted:
                producers = [c for c in clients if isinstance(c, NsProducer)]
                consumers = [c for c in clients if isinstance(c, NsConsumer)]
                result = analyse(ledger, [], args, clients, as_cycles(report["faults"], nodes), details=True)
                samples = list(watch.samples) if watch is not None else []
                stale = stale_acks(ledger, samples, producers, consumers)
                longest_gap(ledger, producers, report["faults"])
                result["before_any_fault"] = attribute(result, stale, report["faults"])
                del result["details"]
                result["acks_after_newer_term"] = len(stale)
                result["examples"]["acks_after_newer_term"] = stale[:20]
                if report.get("backlog"):
                    result["backlog"] = report["backlog"]
                v = result["violations"]
                result["partition_violations"] = {
                    "lost_acknowledged_puts": v["lost_acknowledged_puts"],
                    "deleted_came_back": v["deleted_came_back"],
                    "ids_issued_twice": v["ids_issued_twice"],
                    "acks_after_newer_term": len(stale),
                    "delivered_under_other_id": v["delivered_under_other_id"],
                    "unknown_bodies": v["unknown_bodies"],
                    "backlog_lost": (report.get("backlog") or {}).get("lost_acknowledged", 0),
                }
                report["result"] = result
                if status is None:
                    status = 1 if sum(result["partition_violations"].values()) else 0
                    report["verdict"] = "FAIL" if status else "PASS"
            elif status is None:
                status, report["verdict"] = 3, "STOPPED"
                report["error"] = "no put was acknowledged"
        finally:
            if watch is not None:
                report["two_primaries_seen"] = watch.two_primaries[:50]
            if status not in (0, None) and nodes:
                report["log_tails"] = {n.name: n.log_tail() for n in nodes}
            clean_up()
            for f in report["faults"]:
                for key in ("start", "healed", "recovered"):
                    f.pop(key, None)
            with open(args.report, "w") as f:
                json.dump(report, f, indent=2, sort_keys=True, default=str)
            summarize(report)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
