/* SPDX-License-Identifier: BSD-3-Clause */
/* opengda_eth_port_*: the software NIC's Ethernet port (src/swnic/swnic_eth.c), from a doca_dev. */
#include "eth/eth_priv.h"

#include "core/log.h"
#include "devx/sw.h"
#include "opengda.h"
#include "swnic/swnic.h"
#include "swnic/swnic_steer.h"

/* The software NIC behind dev; logs and fails for NULL or a ConnectX. */
static doca_error_t dev_nic(struct doca_dev *dev, const char *func, struct swnic **nic)
{
	struct ogda_devx_pd *pd;
	struct ogda_devx *devx;
	doca_error_t err;

	if (dev == NULL) {
		OGDA_LOG_ERR("%s: dev must not be NULL", func);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = core_dev_resolve(dev, &devx, &pd, NULL);
	if (err != DOCA_SUCCESS)
		return err;
	*nic = ogda_devx_sw_nic(devx);
	if (*nic == NULL) {
		OGDA_LOG_ERR("%s: %s is not a software NIC: its port is the NIC's own", func, core_dev_name(dev));
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	return DOCA_SUCCESS;
}

doca_error_t opengda_eth_port_attach(struct doca_dev *dev, const char *ifname)
{
	struct swnic *nic = NULL;
	doca_error_t err = dev_nic(dev, __func__, &nic);

	if (err != DOCA_SUCCESS)
		return err;
	return swnic_eth_attach(nic, ifname);
}

doca_error_t opengda_eth_port_detach(struct doca_dev *dev)
{
	struct swnic *nic = NULL;
	doca_error_t err = dev_nic(dev, __func__, &nic);

	if (err != DOCA_SUCCESS)
		return err;
	swnic_eth_detach(nic);
	return DOCA_SUCCESS;
}

doca_error_t opengda_eth_port_get_stats(struct doca_dev *dev, struct opengda_eth_port_stats *stats)
{
	struct swnic_eth_stats s = {0};
	struct swnic_steer_stats rx;
	struct swnic *nic = NULL;
	doca_error_t err;

	if (stats == NULL) {
		OGDA_LOG_ERR("%s: stats must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = dev_nic(dev, __func__, &nic);
	if (err != DOCA_SUCCESS)
		return err;
	swnic_eth_get_stats(nic, &s);
	stats->tx_packets = s.tx_packets;
	stats->tx_bytes = s.tx_bytes;
	stats->tx_dropped = s.tx_dropped;
	stats->tx_errors = s.tx_errors;
	swnic_steer_get_stats(nic, &rx);
	stats->rx_frames = rx.rx_frames;
	stats->rx_delivered = rx.rx_delivered;
	stats->rx_missed = rx.rx_missed;
	stats->rx_dropped = rx.rx_dropped;
	stats->rx_queue_drops = rx.rx_queue_drops;
	stats->rx_errors = rx.rx_errors;
	return DOCA_SUCCESS;
}
