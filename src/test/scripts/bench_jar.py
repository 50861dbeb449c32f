"""Where the load generator is, for the scripts beside this file (imported as client_ledger.py is)."""
import os


def bench_classpath(jar):
    """The load generator's class path: the server jar JAR, then the bench's own jar (BENCH_JAR,
    else the one `mvn package` builds beside the server's, target/vertx-beanstalkd-bench.jar)."""
    default = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "target",
                           "vertx-beanstalkd-bench.jar")
    return jar + os.pathsep + os.path.normpath(os.environ.get("BENCH_JAR", default))
