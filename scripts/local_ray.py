"""A Ray cluster of several nodes on this machine, on loopback only (127.0.0.1, ports chosen free by
Ray, no dashboard, no usage statistics), for scripts/test-cluster and experiments/cluster/measure.

`ray.cluster_utils.Cluster` starts each node's processes itself and keeps their ids, so a node can
be killed (`kill_node`) without touching any other Ray on the machine.
"""

from __future__ import annotations

import os

# Before ray is imported: no usage statistics, and every node's address stays 127.0.0.1 (Ray
# otherwise resolves 127.0.0.1 to the machine's outward address, which a loopback-only machine
# may not route).
os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"

from ray.cluster_utils import Cluster  # noqa: E402

# Fast failure detection, so a killed node's actors restart within seconds in a test.
SYSTEM_CONFIG = {"health_check_period_ms": 1000, "health_check_failure_threshold": 3, "health_check_timeout_ms": 1000}


class LocalCluster:
    """A head node without CPUs (it only coordinates) and worker nodes added by `add`."""

    def __init__(self, temp_dir: str | None = None):
        head = {
            "num_cpus": 0,
            "include_dashboard": False,
            "node_ip_address": "127.0.0.1",
            "_system_config": SYSTEM_CONFIG,
        }
        if temp_dir:
            head["temp_dir"] = temp_dir
        self.cluster = Cluster(initialize_head=True, head_node_args=head)
        self.nodes = []

    @property
    def address(self) -> str:
        """The head's GCS address (127.0.0.1:PORT) for `ray.init` / `scripts/cluster --address`."""
        return self.cluster.address

    def add(self, num_cpus: int, resources: dict | None = None):
        """Adds a worker node with `num_cpus` logical CPUs and custom `resources`; returns it."""
        node = self.cluster.add_node(num_cpus=num_cpus, resources=resources or {}, node_ip_address="127.0.0.1")
        self.nodes.append(node)
        return node

    @staticmethod
    def node_id(node) -> str:
        """The Ray node id (hex) of a node this cluster started."""
        return node.node_id

    def kill_node(self, node) -> None:
        """Kills every process of `node` at once (SIGKILL), as when a machine dies."""
        self.cluster.remove_node(node, allow_graceful=False)
        self.nodes.remove(node)

    def shutdown(self) -> None:
        """Stops every node this cluster started."""
        self.cluster.shutdown()
