/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * opengda-info: the report model. Gathering fills a struct info_report from the library,
 * the CUDA driver, sysfs and procfs; the checks judge it (a pure function of the model, so
 * tests can feed any machine); the renderers print it as text or JSON. Nothing is printed
 * while gathering.
 */
#ifndef OGDA_TOOLS_INFO_INFO_H_
#define OGDA_TOOLS_INFO_INFO_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define INFO_MAX_LIBS 8
#define INFO_MAX_GPUS 16
#define INFO_MAX_DEVS 32
#define INFO_MAX_NICS 32
#define INFO_MAX_PAIRS (INFO_MAX_GPUS * INFO_MAX_NICS)
#define INFO_MAX_BRIDGES 8
#define INFO_MAX_CHECKS 160 /* per-GPU and per-device checks: 3 x 16 GPUs + 64 devices + the rest */
#define INFO_BDF_LEN 16  /* "0000:01:00.0" plus NUL, with room */
#define INFO_TEXT 320

/* Yes / no / could not tell. */
enum info_tri {
	INFO_UNKNOWN = -1,
	INFO_NO = 0,
	INFO_YES = 1,
};

struct info_opts {
	const char *sysfs_root;   /* "/sys" unless --sysfs-root */
	const char *proc_root;    /* "/proc" unless --proc-root */
	uint64_t plan_bytes;      /* GPU memory the examples map for the NIC (--plan-bytes) */
	bool json;
	bool checks_only;
	bool real_roots;          /* both roots are the machine's own: external commands may be asked */
};

struct info_lib {
	char label[32];           /* "CUDA driver" */
	char soname[64];
	bool loaded;
	char path[256];
	char error[256];
};

struct info_gpu {
	char bdf[INFO_BDF_LEN];   /* lower case, "" when the driver gave none */
	char name[128];
	int ordinal;              /* CUDA ordinal; -1 when only sysfs knows it */
	bool in_sysfs;            /* found under <sysfs>/bus/pci/devices */
	int cc_major, cc_minor;
	uint64_t mem_bytes;
	enum info_tri dmabuf;     /* CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED */
	enum info_tri gdr;        /* CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED */
	enum info_tri rdma_writes_ordered;
	uint64_t bar1_bytes;      /* 0 when unknown */
	int numa_node;            /* -1 when unknown */
	enum info_tri persistence;
	char persistence_src[96]; /* how it was learnt, or how to learn it */
};

/* A device doca_devinfo_create_list offers, with what its context reports. */
struct info_dev {
	char name[64];
	bool swnic;
	bool opened;
	char error[160];          /* why it could not be opened or queried */
	char kind[64];            /* "software NIC" / "mlx5 DevX (ConnectX through rdma-core)" */
	bool port_ok;
	uint8_t link_layer;       /* 1 InfiniBand, 2 Ethernet */
	uint8_t port_state;       /* ibv_port_state */
	uint32_t active_mtu;      /* bytes */
	uint32_t max_mtu;
	uint16_t lid;
	uint32_t gid_tbl_len;
	bool gid_ok;
	uint8_t gid[16];
	bool attr_ok;
	uint32_t max_qp, max_qp_wr, max_sge, max_cq, max_cqe, max_mr, max_pd, max_srq, max_srq_wr;
	uint8_t max_rd_atom, max_init_rd_atom;
	bool atomics, rc, uc, dbr_less;
	uint8_t roce_versions;    /* bit mask of 1 << prm_roce_version; 0 without RoCE */
#define INFO_ROCE_V2 (1u << 2) /* 1 << PRM_ROCE_VERSION_2 */
};

/* A ConnectX (PCI vendor 0x15b3) under <sysfs>/class/infiniband. */
struct info_nic {
	char name[64];
	char bdf[INFO_BDF_LEN];
	int numa_node;
	bool offered;             /* doca_devinfo_create_list lists it */
};

enum info_topo {
	INFO_TOPO_UNKNOWN = 0,
	INFO_TOPO_PIX,
	INFO_TOPO_PXB,
	INFO_TOPO_PHB,
	INFO_TOPO_NODE,
	INFO_TOPO_SYS,
};

/* ACS control of one bridge on a GPU-NIC path. */
enum info_acs {
	INFO_ACS_UNREADABLE = 0,  /* extended config space not readable (needs root) */
	INFO_ACS_ABSENT,          /* no ACS capability: nothing redirects */
	INFO_ACS_PRESENT,         /* ctl holds the control register */
};

struct info_bridge {
	char bdf[INFO_BDF_LEN];
	enum info_acs acs;
	uint16_t acs_ctl;
};

struct info_pair {
	int gpu, nic;             /* indexes into gpus[] and nics[] */
	enum info_topo topo;
	int nbridges;
	struct info_bridge bridges[INFO_MAX_BRIDGES];
};

enum info_module {
	INFO_MODULE_NONE = 0,
	INFO_MODULE_PROPRIETARY,
	INFO_MODULE_OPEN,
};

struct info_system {
	char kernel[96];          /* release, e.g. "6.8.0-45-generic" */
	enum info_module nv_module;
	char nv_version[64];      /* "570.86.15", "" when unknown */
	bool ibverbs_loaded;      /* libibverbs.so.1 could be loaded */
	char ibverbs_version[32]; /* "1.14.44" from libibverbs.so.1's file name, "" when unknown */
	bool ibverbs_front;       /* libibverbs.so.1 is OpenGDA's rdma-core front end (opengda-swnic-run) */
	bool gdrapi_loaded;       /* libgdrapi.so.2 could be loaded */
	bool is_root;             /* effective uid 0: peer mappings need no PeerMappingOverride */
	bool peermem;             /* nvidia_peermem (or the older nv_peer_mem) loaded */
	bool gdrdrv;
	enum info_tri peer_mapping_override; /* unknown: no <proc>/driver/nvidia/params */
	bool iommu_active;        /* <sysfs>/class/iommu has entries, or the command line turns it on */
	bool iommu_pt;            /* iommu=pt */
	char iommu_src[128];
	bool persistenced;        /* an nvidia-persistenced process runs */
	bool cuda_loaded;
	char cuda_status[256];
	char rdma_core_status[256];
	uint32_t swnic_count;
};

enum info_status {
	INFO_OK = 0,
	INFO_WARN,
	INFO_FAIL,
};

struct info_check {
	const char *id;           /* stable key for JSON and tests: "dmabuf", "acs", ... */
	const char *title;        /* for the text report */
	char subject[64];         /* the GPU or device it is about, "" for the machine */
	enum info_status status;
	char finding[INFO_TEXT];
	char fix[INFO_TEXT];      /* "" when OK */
	char why[INFO_TEXT];      /* "" when OK */
};

struct info_summary {
	unsigned int ok, warn, fail;
	char gpu_kernels[128];
	char gpu_connectx[128];
	char host_threads[128];
};

struct info_report {
	struct info_opts opts;
	struct info_lib libs[INFO_MAX_LIBS];
	int nlibs;
	struct info_gpu gpus[INFO_MAX_GPUS];
	int ngpus;
	struct info_dev devs[INFO_MAX_DEVS];
	int ndevs;
	char devs_note[256];      /* why the list is empty, when it is */
	struct info_nic nics[INFO_MAX_NICS];
	int nnics;
	struct info_pair pairs[INFO_MAX_PAIRS];
	int npairs;
	struct info_system sys;
	struct info_check checks[INFO_MAX_CHECKS];
	int nchecks;
	struct info_summary summary;
};

/* ---- gathering (each fills its part of the report; failures become text in it) ---- */
void info_gather_libs(struct info_report *r);
void info_gather_gpus(struct info_report *r);
void info_gather_devices(struct info_report *r);
void info_gather_nics(struct info_report *r);
void info_gather_system(struct info_report *r);
void info_gather_topology(struct info_report *r);

/* ---- judging: fills checks[] and summary from the rest of the report ---- */
void info_run_checks(struct info_report *r);

/* ---- output ---- */
void info_render_text(const struct info_report *r);
void info_render_json(const struct info_report *r);

/* ---- names shared by the renderers ---- */
const char *info_status_tag(enum info_status s);   /* "[ OK ]", "[WARN]", "[FAIL]" */
const char *info_status_name(enum info_status s);  /* "ok", "warn", "fail" */
const char *info_topo_name(enum info_topo t);      /* "PIX" ... "SYS", "?" */
const char *info_port_state_name(uint8_t state);
void info_format_gid(const uint8_t gid[16], char *buf, size_t len);
void info_format_bytes(uint64_t bytes, char *buf, size_t len); /* "64 GiB", "256 MiB", "4096 B" */

#define INFO_SWNIC_NO_PCIE \
	"in host memory: no PCIe path (the software NIC reads GPU memory through the CUDA driver)"
#define INFO_TOPO_ADVICE \
	"PIX/PXB best, PHB acceptable, NODE/SYS avoid (they work, at lower bandwidth)"

#endif /* OGDA_TOOLS_INFO_INFO_H_ */
