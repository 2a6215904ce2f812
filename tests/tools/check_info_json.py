# SPDX-License-Identifier: BSD-3-Clause
# Checks opengda-info --json on the pix_switch fake machine (check_info_fake_tree.sh json):
# usage check_info_json.py <report.json> <tree top> full|checks-only. Exit 1 on any mismatch.
import json
import sys

path, top, mode = sys.argv[1], sys.argv[2], sys.argv[3]
with open(path, encoding="utf-8") as f:
    report = json.load(f)  # strict: fails on any malformed or badly escaped output

errors = []


def expect(what, got, want):
    if got != want:
        errors.append(f"{what}: got {got!r}, want {want!r}")


statuses = {(c["id"], c["subject"]): c["status"] for c in report["checks"]}
expect("check statuses", statuses, {
    ("devices", "mlx5_0"): "warn",
    ("gpu", ""): "warn",
    ("topology", "0000:03:00.0"): "ok",
    ("dmabuf", ""): "warn",
    ("peermem", ""): "ok",
    ("gdrcopy", ""): "warn",
    ("peer-mapping-override", ""): "ok",
    ("bar1", "0000:03:00.0"): "ok",
    ("acs", ""): "warn",
    ("iommu", ""): "ok",
    ("persistence", "0000:03:00.0"): "ok",
    ("doorbell", "swnic0"): "warn",
    ("doorbell", "mlx5_0"): "warn",
})
expect("check count", len(report["checks"]), 13)
for c in report["checks"]:
    if c["status"] == "ok":
        expect(f"{c['id']} has no fix", "fix" in c, False)
    elif not c.get("fix") or not c.get("why"):
        errors.append(f"{c['id']}: a {c['status']} check without fix or why")
pmo = next(c for c in report["checks"] if c["id"] == "peer-mapping-override")
# The tree's path holds a quote and a backslash: decoding must give them back exactly.
expect("escaped path", pmo["finding"], f"PeerMappingOverride=1 in {top}/proc/driver/nvidia/params")
acs = next(c for c in report["checks"] if c["id"] == "acs")
expect("acs finding", acs["finding"], "redirect set on 0000:02:00.0 (ReqRedir+ CmpltRedir+)")
expect("summary", report["summary"], {
    "ok": 6, "warn": 7, "fail": 0,
    "gpu_kernels": "no (no CUDA driver)",
    "gpu_kernels_connectx": "no (no GPU)",
    "host_threads": "yes (software NIC)",
})

if mode == "full":
    expect("sections", list(report), ["version", "build", "libraries", "gpus", "devices", "topology",
                                      "system", "checks", "summary"])
    gpu = report["gpus"]["list"]
    expect("gpu count", len(gpu), 1)
    expect("gpu bdf", gpu[0]["bdf"], "0000:03:00.0")
    expect("gpu ordinal", gpu[0]["ordinal"], -1)
    expect("gpu bar1", gpu[0]["bar1_bytes"], 64 << 30)
    expect("gpu dmabuf attribute", gpu[0]["dmabuf_supported"], None)
    expect("gpu persistence", gpu[0]["persistence_mode"], True)
    topo = report["topology"]
    expect("nics", [(n["name"], n["bdf"], n["listed_by_rdma_core"]) for n in topo["nics"]],
           [("mlx5_0", "0000:04:00.0", False)])
    expect("pairs", [(p["gpu"], p["nic"], p["category"]) for p in topo["pairs"]],
           [("0000:03:00.0", "mlx5_0", "PIX")])
    expect("bridges", [(b["bdf"], b["acs"], b.get("acs_ctl")) for b in topo["pairs"][0]["bridges"]],
           [("0000:01:00.0", "absent", None), ("0000:02:00.0", "present", 0x1d), ("0000:02:01.0", "present", 0)])
    devs = report["devices"]["list"]
    expect("devices", [(d["name"], d["software_nic"], d["opened"]) for d in devs], [("swnic0", True, True)])
    expect("swnic link layer", devs[0].get("link_layer"), "Ethernet")
    expect("swnic port state", devs[0].get("port_state"), "ACTIVE")
    sysinfo = report["system"]
    expect("system", (sysinfo["kernel"], sysinfo["nvidia_module"], sysinfo["nvidia_version"],
                      sysinfo["peer_mapping_override"], sysinfo["nvidia_peermem"], sysinfo["gdrdrv"],
                      sysinfo["iommu_active"], sysinfo["iommu_passthrough"]),
           ("6.8.0-45-generic", "open", "570.86.15", True, True, True, True, True))
else:
    expect("sections", list(report), ["version", "checks", "summary"])

if errors:
    print("\n".join(errors))
    sys.exit(1)
print(f"JSON report ({mode}) holds every expectation")
