"""What clients of a replication group were told, and the checker that judges it.

Shared by kill_test.py and partition_test.py (python3 standard library only). Written against
the contract shared/spec/REPLICATION.md only: the figures are what clients saw, never what the
nodes say about themselves.

  Conn       a raw beanstalkd connection (any host: loopback for kill-test, a namespace's own
             address for partition-test), every read bounded by the socket timeout
  Ledger     every put sent, every INSERTED, every RESERVED and DELETED, with monotonic times
  Producer   puts unique bodies and records each INSERTED (pinned to one node's port with `pin`,
  Consumer   as an app beside its own node; `pin.host` is where it connects, 127.0.0.1 without)
  analyse    the verdict: lost acknowledged puts, acknowledged deletes that came back, ids issued
             twice or backwards, bodies under another id, unknown bodies, duplicates (allowed)
"""
import collections
import socket
import statistics
import threading
import time
import uuid

HOST = "127.0.0.1"
CONNECT_SECONDS = 0.5
PROBE_SECONDS = 2.0
POLL_SECONDS = 0.05

def now():
    return time.monotonic()


WALL_MINUS_MONOTONIC = time.time() - time.monotonic()


def clock(at):
    """A monotonic time as the wall clock the nodes' logs use, HH:MM:SS.mmm."""
    wall = at + WALL_MINUS_MONOTONIC
    return time.strftime("%H:%M:%S", time.localtime(wall)) + ".%03d" % (int(wall * 1000) % 1000)


class DeadlinePassed(Exception):
    """A wait of the cycles or the drain ran out."""


def wait_for(what, seconds, condition):
    """Polls condition() until it returns a true value, which is returned; DeadlinePassed after `seconds`."""
    end = now() + seconds
    while True:
        value = condition()
        if value:
            return value
        if now() > end:
            raise DeadlinePassed("%s: not within %.0f s" % (what, seconds))
        time.sleep(POLL_SECONDS)



class Conn:
    """A raw beanstalkd connection with line and exact-bytes reads, each bounded by the socket timeout."""

    def __init__(self, port, read_seconds, host=HOST):
        self.port = port
        self.sock = socket.create_connection((host, port), timeout=CONNECT_SECONDS)
        self.sock.settimeout(read_seconds)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = bytearray()

    def send(self, data):
        self.sock.sendall(data)

    def _fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed by the server")
        self.buf += chunk

    def line(self):
        while True:
            i = self.buf.find(b"\r\n")
            if i >= 0:
                text = bytes(self.buf[:i]).decode("latin-1")
                del self.buf[:i + 2]
                return text
            self._fill()

    def exact(self, n):
        while len(self.buf) < n:
            self._fill()
        data = bytes(self.buf[:n])
        del self.buf[:n]
        return data

    def body(self, header):
        n = int(header.rsplit(" ", 1)[1])
        data = self.exact(n + 2)
        if data[-2:] != b"\r\n":
            raise ConnectionError("a body without CR LF after %r" % header)
        return data[:-2].decode("latin-1")

    def call(self, line):
        self.send(line.encode("latin-1") + b"\r\n")
        return self.line()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class Ledger:
    """What every client sent and was told, with monotonic times; shared by the client threads.

    `who` is a client's name: producer-K and consumer-K over TCP, bus-pK and bus-cK over the
    event bus, drain for the final drain; `via` is "tcp" or "bus".
    """

    def __init__(self):
        self.lock = threading.Lock()
        self.sent = {}                     # every body a put carried -> via
        self.inserted = []                 # (id, body, sent_at, acked_at, port or None, via)
        self.seen = []                     # (body, id, at, who, sent_at of the reserve or None)
        self.deleted = {}                  # body -> (id, acked_at, who) of its first acknowledged delete
        self.errors = collections.Counter()      # TCP clients'
        self.bus_errors = collections.Counter()  # bus clients'
        self.reconnects = 0
        self.fault_times = []              # monotonic time of each fault, appended just before it

    def error(self, kind):
        with self.lock:
            self.errors[kind] += 1

    def delete_acked(self, body, job_id, at, who):
        """Keeps the earliest acknowledged delete of a body: a later one (after a duplicate delivery)
        must not hide that the body was reserved again after the first. Under the lock."""
        if body not in self.deleted or at < self.deleted[body][1]:
            self.deleted[body] = (job_id, at, who)


def via_of(who):
    return "bus" if who.startswith("bus-") else "drain" if who == "drain" else "tcp"


class Client(threading.Thread):
    """A producer or consumer: reconnects to whichever node serves, and records every reply.

    With `pin` (--clients sidecar) it only ever connects to that node's port, as an app does to
    its own sidecar, and it also records what the sidecar mode reports: each lost connection (when
    the command that failed was sent, when it failed, how), each INTERNAL_ERROR by command, and
    each command in flight across a fault (sent before it, answered after) with its reply.
    """

    def __init__(self, name, nodes, ledger, stopping, args, pin=None):
        super().__init__(name=name, daemon=True)
        self.nodes = nodes
        self.ledger = ledger
        self.stopping = stopping
        self.args = args
        self.pin = pin
        self.read_timeout = args.sidecar_read_timeout if pin is not None else args.read_timeout
        self.conn = None
        self.next_node = 0
        self.connects = []               # monotonic times of every connection made
        self.drops = []                  # (sent_at of the failing command, dropped_at, kind)
        self.internal_errors = []        # (command, sent_at, answered_at) of each INTERNAL_ERROR reply
        self.across = []                 # (command, reply word, sent_at, answered_at, fault_at)
        self.sent_at = None

    def connect(self):
        """Tries the nodes' ports in turn (or the pinned node's only) until one serves; None when stopping."""
        while not self.stopping.is_set():
            if self.pin is not None:
                node = self.pin
            else:
                node = self.nodes[self.next_node % len(self.nodes)]
                self.next_node += 1
            try:
                c = Conn(node.port, PROBE_SECONDS, getattr(node, "host", HOST))
            except OSError:
                if self.pin is not None:
                    self.stopping.wait(POLL_SECONDS)  # its node is down: try again a moment later
                continue
            try:
                if c.call("list-tube-used").startswith("USING ") and self.setup(c):
                    with self.ledger.lock:
                        self.ledger.reconnects += 1
                    self.connects.append(now())
                    c.sock.settimeout(self.read_timeout)
                    return c
            except OSError:
                pass
            c.close()
            if self.pin is not None or self.next_node % len(self.nodes) == 0:
                self.stopping.wait(POLL_SECONDS)  # a full round found no node serving: pace the retries
        return None

    def run(self):
        while not self.stopping.is_set():
            if self.conn is None:
                self.conn = self.connect()
                if self.conn is None:
                    return
            try:
                self.step(self.conn)
            except socket.timeout:
                self.drop("timeout")
            except (OSError, ValueError, IndexError) as e:
                self.drop(type(e).__name__)
        if self.conn is not None:
            self.conn.close()

    def drop(self, kind):
        self.ledger.error(kind)
        if self.pin is not None and not self.stopping.is_set():
            self.drops.append((self.sent_at, now(), kind))
        self.conn.close()
        self.conn = None

    def sending(self):
        self.sent_at = now()
        return self.sent_at

    def answered(self, command, reply):
        """Records, in sidecar mode, an INTERNAL_ERROR and a command in flight across a fault."""
        if self.pin is None:
            return
        word = reply.split(" ")[0]
        at = now()
        if word == "INTERNAL_ERROR":
            self.internal_errors.append((command, self.sent_at, at))
        fault_at = self.ledger.fault_times[-1] if self.ledger.fault_times else None
        if fault_at is not None and self.sent_at < fault_at < at:
            self.across.append((command, word, self.sent_at, at, fault_at))


class Producer(Client):
    def __init__(self, index, *rest, **kw):
        super().__init__("producer-%d" % index, *rest, **kw)
        self.prefix = "kt-%s-p%d-" % (uuid.uuid4().hex[:8], index)
        self.seq = 0
        self.interval = 1.0 / self.args.rate if self.args.rate > 0 else 0.0
        self.next_at = now()

    def setup(self, c):
        return c.call("use " + self.args.tube) == "USING " + self.args.tube

    def step(self, c):
        if self.interval:
            self.stopping.wait(max(0.0, self.next_at - now()))
            self.next_at = max(self.next_at + self.interval, now() - 1.0)
            if self.stopping.is_set():
                return
        body = self.prefix + str(self.seq)
        self.seq += 1
        body += "." * max(0, self.args.body_bytes - len(body))
        data = body.encode("latin-1")
        with self.ledger.lock:
            self.ledger.sent[body] = "tcp"
        sent_at = self.sending()
        c.send(b"put 0 0 %d %d\r\n%s\r\n" % (self.args.ttr, len(data), data))
        reply = c.line()
        self.answered("put", reply)
        if reply.startswith("INSERTED "):
            with self.ledger.lock:
                self.ledger.inserted.append((int(reply.split()[1]), body, sent_at, now(), c.port, "tcp"))
        else:
            # INTERNAL_ERROR (too few standbys with "refuse", or a reply lost in a failover),
            # BURIED, DRAINING, ...: not an acknowledged put.
            self.ledger.error("put: " + reply.split(" ")[0])


class Consumer(Client):
    def __init__(self, index, *rest, **kw):
        super().__init__("consumer-%d" % index, *rest, **kw)

    def setup(self, c):
        return (c.call("watch " + self.args.tube) == "WATCHING 2"
                and c.call("ignore default") == "WATCHING 1")

    def step(self, c):
        reserve_sent_at = self.sending()
        reply = c.call("reserve-with-timeout %d" % self.args.reserve_timeout)
        self.answered("reserve", reply)
        if reply.startswith("RESERVED "):
            job_id = int(reply.split()[1])
            body = c.body(reply)
            with self.ledger.lock:
                self.ledger.seen.append((body, job_id, now(), self.name, reserve_sent_at))
            self.sending()
            deleted = c.call("delete %d" % job_id)
            self.answered("delete", deleted)
            if deleted == "DELETED":
                with self.ledger.lock:
                    self.ledger.delete_acked(body, job_id, now(), self.name)
            else:
                self.ledger.error("delete: " + deleted)
        elif reply not in ("TIMED_OUT", "DEADLINE_SOON"):
            self.ledger.error("reserve: " + reply.split(" ")[0])



TRANSPORTS = ("tcp", "bus")


def sidecar_analysis(clients, cycles):
    """--clients sidecar: per pinned client and in total, its lost connections (each one a
    reconnect) split by whether its own node was the one faulted, its INTERNAL_ERRORs (by command,
    and by when the command was sent: before the fault, during the failover, i.e. before the new
    primary was seen serving, or later), and the replies of its commands in flight across a fault.

    A lost connection counts as "own node faulted" when the client's node was the faulted node of
    a cycle at some moment between the sending of the command that failed and the loss: from the
    fault until the node was back as a standby (or the end of the run, if it never was). Any other
    lost connection, on a node that survived the fault or when nothing was faulted, is a violation.
    """
    windows = [(c["primary"], c["fault_at"], c.get("back_at", float("inf")), c["cycle"])
               for c in cycles if "fault_at" in c]
    faulted_node_of = {fault_at: node for node, fault_at, _, _ in windows}
    rows = []
    totals = collections.Counter()
    internal = collections.Counter()
    internal_when = collections.Counter()

    def when(sent_at, answered_at):
        c = next((c for c in reversed(cycles) if "fault_at" in c and c["fault_at"] <= answered_at), None)
        if c is None:
            return "before any fault"
        if sent_at < c["fault_at"]:
            return "sent before the fault"
        if sent_at <= c.get("promoted_at", float("inf")):
            return "sent during the failover"
        return "sent after the new primary served"
    across = {"own_node_faulted": collections.defaultdict(collections.Counter),
              "node_survived": collections.defaultdict(collections.Counter)}
    for cl in clients:
        node = cl.pin.name
        drops = []
        for sent_at, at, kind in cl.drops:
            start = at if sent_at is None else min(sent_at, at)
            hit = next((w for w in windows if w[0] == node and start <= w[2] and at >= w[1]), None)
            back = next((t for t in cl.connects if t > at), None)
            drops.append({"at": clock(at), "kind": kind, "own_node_faulted": hit is not None,
                          "cycle": hit[3] if hit else None,
                          "seconds_without_connection": round(back - at, 3) if back is not None else None})
        faulted = sum(1 for d in drops if d["own_node_faulted"])
        survived = len(drops) - faulted
        never_back = sum(1 for d in drops if d["seconds_without_connection"] is None)
        row_across = {"own_node_faulted": collections.Counter(), "node_survived": collections.Counter()}
        for command, word, _, _, fault_at in cl.across:
            side = "own_node_faulted" if faulted_node_of.get(fault_at) == node else "node_survived"
            row_across[side]["%s %s" % (command, word)] += 1
            across[side][command][word] += 1
        errors = collections.Counter(command for command, _, _ in cl.internal_errors)
        error_list = []
        for command, sent_at, at in cl.internal_errors:
            internal_when[when(sent_at, at)] += 1
            error_list.append({"command": command, "sent": clock(sent_at), "answered": clock(at),
                               "when": when(sent_at, at)})
        rows.append({"client": cl.name, "node": node, "connects": len(cl.connects),
                     "reconnects_own_node_faulted": faulted, "reconnects_node_survived": survived,
                     "lost_connections_not_reconnected": never_back,
                     "internal_errors": dict(errors), "internal_error_replies": error_list[:50],
                     "in_flight_across_a_fault": {k: dict(v) for k, v in row_across.items()},
                     "lost_connections": drops})
        totals["connects"] += len(cl.connects)
        totals["reconnects_own_node_faulted"] += faulted
        totals["reconnects_node_survived"] += survived
        totals["lost_connections_not_reconnected"] += never_back
        internal.update(errors)
    result = dict(totals)
    result["internal_errors"] = dict(internal)
    result["internal_errors_total"] = sum(internal.values())
    result["internal_errors_when"] = dict(internal_when)
    result["in_flight_across_a_fault"] = {side: {c: dict(w) for c, w in v.items()} for side, v in across.items()}
    result["clients"] = rows
    return result


def analyse(ledger, cycles, args, clients=(), faulted_cycles=None, details=False):
    """`cycles`: those that reached a new primary; `faulted_cycles` (default `cycles`): every cycle
    whose fault happened, which is what explains a sidecar client's lost connection. With `details`,
    result["details"] lists every lost put, deleted body back and id issued twice with the monotonic
    times of their acknowledgements, so that a caller can tell which fault each belongs to."""
    acked, ports, acked_at = {}, {}, {}
    bodies_by_id = collections.defaultdict(set)
    for job_id, body, _, at, port, _ in ledger.inserted:
        acked[body], ports[body], acked_at[body] = job_id, port, at
        bodies_by_id[job_id].add(body)

    def origin(body):
        """The transport whose producer sent the body; "unknown" for a body nobody sent."""
        return ledger.sent.get(body, "unknown")

    times_seen = collections.Counter(s[0] for s in ledger.seen)
    lost = sorted(body for body in acked if times_seen[body] == 0)
    # body -> the first reservation sent after its first acknowledged delete was answered. A
    # reservation sent before the delete was acknowledged and answered after it overlaps the delete:
    # it may have been granted first (kept apart as "reserved_across_a_delete", not a violation).
    came_back, across_delete = {}, {}
    for body, job_id, at, who, sent_at in sorted(ledger.seen, key=lambda s: s[2]):
        if body not in ledger.deleted or at <= ledger.deleted[body][1]:
            continue
        deleted_id, deleted_at, deleted_by = ledger.deleted[body]
        seen = {"body": body, "deleted_id": deleted_id, "deleted_by": deleted_by,
                "reserved_again_id": job_id, "reserved_again_by": who,
                "seconds_after_delete": round(at - deleted_at, 3),
                "reserve_sent_before_delete_s": None if sent_at is None else round(deleted_at - sent_at, 3)}
        if sent_at is None or sent_at > deleted_at:
            came_back.setdefault(body, seen)
        else:
            across_delete.setdefault(body, seen)
    twice = {job_id: sorted(b) for job_id, b in bodies_by_id.items() if len(b) > 1}
    other_id = sorted({(body, job_id, acked[body]) for body, job_id, *_ in ledger.seen
                       if body in acked and acked[body] != job_id})
    unknown = {}  # body -> who reserved it first
    for body, _, _, who, _ in ledger.seen:
        if body not in ledger.sent:
            unknown.setdefault(body, who)
    backwards = []
    for cycle in cycles:
        # Every id acknowledged before the fault, whichever transport (the bus clients' events
        # reach the ledger a moment after they happened, so it is taken again here, by time).
        highest = max([cycle["highest_id_before"]] + [i[0] for i in ledger.inserted if i[3] < cycle["fault_at"]])
        for job_id, body, sent_at, _, port, via in ledger.inserted:
            if sent_at > cycle["promoted_at"] and job_id <= highest:
                backwards.append({"cycle": cycle["cycle"], "id": job_id, "body": body, "via": via,
                                  "highest_id_before": highest})
    failovers = [c["failover_ms"] for c in cycles if c.get("failover_ms") is not None]
    lossy_allowed = args.min_acks == 0
    violations = {
        "lost_acknowledged_puts": 0 if lossy_allowed else len(lost),
        "deleted_came_back": 0 if lossy_allowed else len(came_back),
        "ids_issued_twice": len(twice),
        "ids_went_backwards": len(backwards),
        "delivered_under_other_id": len(other_id),
        "unknown_bodies": len(unknown),
    }
    sidecar = None
    if args.clients == "sidecar":
        sidecar = sidecar_analysis([c for c in clients if c.pin is not None],
                                   cycles if faulted_cycles is None else faulted_cycles)
        # The sidecar pattern's promise: a client whose node survived keeps its connection.
        violations["surviving_node_reconnects"] = sidecar["reconnects_node_survived"]

    def count(items, transport_of):
        return collections.Counter(transport_of(i) for i in items)

    sent_by = count(ledger.sent, origin)
    acked_by = count(ledger.inserted, lambda i: i[5])
    seen_by = count(ledger.seen, lambda s: via_of(s[3]))
    deleted_by = count(ledger.deleted.values(), lambda d: via_of(d[2]))
    lost_by = count(lost, origin)
    back_by = count(came_back.values(), lambda c: via_of(c["deleted_by"]))
    twice_by = collections.Counter(t for bodies in twice.values() for t in {origin(b) for b in bodies})
    backwards_by = count(backwards, lambda b: b["via"])
    other_by = count(other_id, lambda o: origin(o[0]))
    unknown_by = count(unknown.values(), via_of)
    dup_by = collections.Counter()
    for body, n in times_seen.items():
        if n > 1:
            dup_by[origin(body)] += n - 1
    by_transport = {t: {
        "puts_sent": sent_by[t],
        "puts_acknowledged": acked_by[t],
        "deliveries": seen_by[t],
        "deletes_acknowledged": deleted_by[t],
        "lost_acknowledged_puts": lost_by[t],
        "deleted_came_back": back_by[t],
        "ids_issued_twice": twice_by[t],
        "ids_went_backwards": backwards_by[t],
        "delivered_under_other_id": other_by[t],
        "unknown_bodies": unknown_by[t],
        "duplicate_deliveries": dup_by[t],
        "client_errors_total": sum((ledger.errors if t == "tcp" else ledger.bus_errors).values()),
    } for t in TRANSPORTS}
    result = {
        "puts_sent": len(ledger.sent),
        "puts_acknowledged": len(ledger.inserted),
        "deletes_acknowledged": len(ledger.deleted),
        "deliveries": len(ledger.seen),
        "deliveries_by_drain": seen_by["drain"],
        "lost_acknowledged_puts": len(lost),
        "deleted_came_back": len(came_back),
        "reserved_across_a_delete": len(across_delete),
        "ids_issued_twice": len(twice),
        "ids_went_backwards": len(backwards),
        "delivered_under_other_id": len(other_id),
        "unknown_bodies": len(unknown),
        "duplicate_deliveries": sum(n - 1 for n in times_seen.values() if n > 1),
        "bodies_delivered_more_than_once": sum(1 for n in times_seen.values() if n > 1),
        "unacknowledged_puts_delivered": sum(1 for b in times_seen if b in ledger.sent and b not in acked),
        "by_transport": by_transport,
        "failover_ms_median": statistics.median(failovers) if failovers else None,
        "failover_ms_max": max(failovers) if failovers else None,
        "client_errors": dict(ledger.errors),
        "client_errors_total": sum(ledger.errors.values()),
        "client_connects": ledger.reconnects,
        "bus_client_errors": dict(ledger.bus_errors),
        "bus_client_errors_total": sum(ledger.bus_errors.values()),
        "violations": violations,
        "violation_count": sum(violations.values()),
        "examples": {
            "lost": [{"body": b, "id": acked[b], "via": origin(b), "acknowledged_by_port": ports[b],
                      # the first fault after the acknowledgement (None: acknowledged after the last one)
                      "next_fault_cycle": next((c["cycle"] for c in cycles
                                                if c.get("fault_at", float("inf")) > acked_at[b]), None)}
                     for b in lost[:20]],
            "deleted_came_back": [came_back[b] for b in sorted(came_back)[:20]],
            "reserved_across_a_delete": [across_delete[b] for b in sorted(across_delete)[:20]],
            "ids_issued_twice": dict(list(twice.items())[:20]),
            "ids_went_backwards": backwards[:20],
            "delivered_under_other_id": other_id[:20],
            "unknown_bodies": [{"body": b, "reserved_by": w} for b, w in sorted(unknown.items())[:20]],
        },
    }
    if sidecar is not None:
        result["sidecar"] = sidecar
    if details:
        result["details"] = {
            "lost": [{"body": b, "id": acked[b], "acked_at": acked_at[b]} for b in lost],
            "deleted_came_back": [dict(came_back[b], deleted_at=ledger.deleted[b][1]) for b in sorted(came_back)],
            "reserved_across_a_delete": [dict(across_delete[b], deleted_at=ledger.deleted[b][1])
                                         for b in sorted(across_delete)],
            "ids_issued_twice": [{"id": job_id, "bodies": bodies, "acked_at": [acked_at[b] for b in bodies]}
                                 for job_id, bodies in sorted(twice.items())],
        }
    return result


def drain(group, args, ledger, primary=None):
    """Reserves and deletes everything left on the final primary (or `primary`); returns the final tube stats."""
    if primary is None:
        primary = group.await_stable("before the drain", args.rejoin_timeout)
    end = now() + args.drain_timeout
    stats = {}
    c = Conn(primary.port, args.read_timeout, getattr(primary, "host", HOST))
    try:
        if c.call("watch " + args.tube) != "WATCHING 2" or c.call("ignore default") != "WATCHING 1":
            raise DeadlinePassed("drain: watch %s refused on %s" % (args.tube, primary.name))
        while True:
            if now() > end:
                raise DeadlinePassed("drain: jobs still there after %.0f s: %s" % (args.drain_timeout, stats))
            reply = c.call("reserve-with-timeout 1")
            if reply.startswith("RESERVED "):
                job_id = int(reply.split()[1])
                body = c.body(reply)
                with ledger.lock:
                    ledger.seen.append((body, job_id, now(), "drain", None))
                c.call("delete %d" % job_id)
                continue
            stats = tube_stats(c, args.tube)
            if stats.get("current-jobs-buried", 0) > 0:
                c.call("use " + args.tube)
                c.call("kick %d" % stats["current-jobs-buried"])
            elif stats.get("current-jobs-ready", 0) + stats.get("current-jobs-reserved", 0) \
                    + stats.get("current-jobs-delayed", 0) == 0:
                return primary.name, stats
    finally:
        c.close()


def tube_stats(c, tube):
    header = c.call("stats-tube " + tube)
    if header == "NOT_FOUND":
        return {}
    doc = c.body(header)
    stats = {}
    for line in doc.splitlines():
        if ": " in line:
            key, value = line.split(": ", 1)
            stats[key.strip()] = int(value) if value.strip().isdigit() else value.strip()
    return stats
