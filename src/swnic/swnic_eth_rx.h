/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive side of the software NIC's Ethernet port: a thread reading every frame that
 * arrives on the attached interface (an AF_PACKET socket for all protocols, frames the port
 * sent itself left out) and handing it to receive steering (swnic_steer.h).
 */
#ifndef OGDA_SWNIC_ETH_RX_H_
#define OGDA_SWNIC_ETH_RX_H_

#include "doca_error.h"

struct swnic;
struct swnic_eth_rx;

/* Starts receiving on interface ifindex (needs CAP_NET_RAW); errors are logged. */
doca_error_t swnic_eth_rx_start(struct swnic *nic, int ifindex, const char *ifname, struct swnic_eth_rx **rx);
/* Stops the thread and closes the socket; no frame is steered after it returns. NULL: no-op. */
void swnic_eth_rx_stop(struct swnic_eth_rx *rx);

#endif /* OGDA_SWNIC_ETH_RX_H_ */
