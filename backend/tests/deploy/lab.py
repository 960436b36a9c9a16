"""A lab host for the deploy tests: a network namespace on 10.200.<x>.0/24 with a real sshd inside.

The namespace isolates only the network (files, pids and cores are this machine's), so the lab's files live under
their own root directory. Needs root (CI runs as root) and Debian's openssh-server and iproute2 (scripts/setup.mjs).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Lab:
    host: str
    port: int
    user: str
    key: Path
    known_hosts: Path
    root: Path
    netns: str
    sshd_pid_file: Path
    sshd_config: Path
    host_key: Path

    def target(self, name: str = "lab", **extra: object) -> dict:
        """An IR target for this lab (2 cores: rt-core 0, be-core 1, like this machine)."""
        return {
            "name": name,
            "kind": "ssh",
            "user": self.user,
            "host": self.host,
            "port": self.port,
            "key": str(self.key),
            "root": str(self.root),
            "platform": None,
            "rt_cores": [0],
            "be_cores": [1],
            "throttle": None,
            "workload": {"kind": "hog"},
            **extra,
        }

    def sshd_running(self) -> bool:
        try:
            os.kill(int(self.sshd_pid_file.read_text()), 0)
            return True
        except (OSError, ValueError):
            return False

    def kill_sshd(self) -> None:
        """The lab's listening sshd and every connection it serves (not the processes started over them)."""
        pids = subprocess.run(["ip", "netns", "pids", self.netns], capture_output=True, text=True).stdout.split()
        for pid in pids:
            try:
                if Path(f"/proc/{pid}/comm").read_text().strip() == "sshd":
                    os.kill(int(pid), 9)
            except (OSError, ValueError):
                pass
        for _ in range(100):
            if not self.sshd_running():
                return
            time.sleep(0.02)

    def start_sshd(self) -> None:
        subprocess.run(
            [
                "ip",
                "netns",
                "exec",
                self.netns,
                "/usr/sbin/sshd",
                "-f",
                str(self.sshd_config),
                "-E",
                str(self.sshd_config.parent / "sshd.log"),
            ],
            check=True,
        )
        for _ in range(200):
            if self.sshd_running():
                return
            time.sleep(0.01)
        raise RuntimeError(f"the lab sshd did not start: {(self.sshd_config.parent / 'sshd.log').read_text()[-2000:]}")


_labs = 0


def _run(*argv: str) -> None:
    subprocess.run(argv, check=True, capture_output=True)


@contextmanager
def lab_host(path_dirs: list[str] | None = None) -> Iterator[Lab]:
    """path_dirs: the PATH of commands on the lab (e.g. without cmake); default the usual system PATH."""
    if os.geteuid() != 0:
        raise RuntimeError("the SSH lab host needs root (network namespaces, sshd); CI runs as root")
    if not Path("/usr/sbin/sshd").exists() or not shutil.which("ip"):
        raise RuntimeError(
            "the SSH lab host needs Debian's openssh-server and iproute2: run node scripts/setup.mjs as root"
        )
    global _labs
    _labs += 1
    x = (
        1 + (os.getpid() * 7 + _labs) % 250
    )  # one subnet per lab: labs of this and of parallel test processes do not collide
    ns, veth = f"chainlab-lab{x}", f"clab{x}"
    host_ip, lab_ip = f"10.200.{x}.1", f"10.200.{x}.2"
    d = Path(tempfile.mkdtemp(prefix="chainlab-lab-"))
    etc, root = d / "etc", d / "root"
    etc.mkdir(mode=0o700)
    root.mkdir()
    _run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(etc / "host_ed25519"))
    _run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(d / "id_ed25519"))
    shutil.copy(d / "id_ed25519.pub", etc / "authorized_keys")
    os.chmod(etc / "authorized_keys", 0o600)
    env_path = ":".join(path_dirs) if path_dirs else "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    (etc / "sshd_config").write_text(f"""Port 22
ListenAddress {lab_ip}
HostKey {etc / "host_ed25519"}
PidFile {d / "sshd.pid"}
AuthorizedKeysFile {etc / "authorized_keys"}
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
SetEnv PATH={env_path}
Subsystem sftp internal-sftp
""")
    pub = (etc / "host_ed25519.pub").read_text().split()
    (d / "known_hosts").write_text(f"{lab_ip} {pub[0]} {pub[1]}\n")
    subprocess.run(["ip", "netns", "del", ns], capture_output=True)
    subprocess.run(["ip", "link", "del", veth], capture_output=True)
    lab = Lab(
        lab_ip,
        22,
        "root",
        d / "id_ed25519",
        d / "known_hosts",
        root,
        ns,
        d / "sshd.pid",
        etc / "sshd_config",
        etc / "host_ed25519",
    )
    try:
        _run("ip", "netns", "add", ns)
        _run("ip", "link", "add", veth, "type", "veth", "peer", "name", f"{veth}p")
        _run("ip", "link", "set", f"{veth}p", "netns", ns)
        _run("ip", "addr", "add", f"{host_ip}/24", "dev", veth)
        _run("ip", "link", "set", veth, "up")
        _run("ip", "netns", "exec", ns, "ip", "addr", "add", f"{lab_ip}/24", "dev", f"{veth}p")
        _run("ip", "netns", "exec", ns, "ip", "link", "set", f"{veth}p", "up")
        _run("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up")
        Path("/run/sshd").mkdir(exist_ok=True)  # Debian sshd's privilege-separation directory
        lab.start_sshd()
        yield lab
    finally:
        lab.kill_sshd()
        subprocess.run(["ip", "link", "del", veth], capture_output=True)
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        shutil.rmtree(d, ignore_errors=True)
