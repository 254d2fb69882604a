// SPDX-License-Identifier: GPL-2.0
/*
 * netfront's device: the net_device and its negotiation with netback.
 *
 *   probe              -> the interface, with the MAC address the
 *                         toolstack wrote in our node; no carrier
 *   backend InitWait   -> read what it offers once (feature-rx-copy is
 *                         required; feature-sg, checksum and GSO
 *                         features, multi-queue-max-queues, mtu),
 *                         checked; set up the queues, each a transmit
 *                         and a receive ring with an event channel each
 *                         (feature-split-event-channels) or one for both;
 *                         publish them; we are Connected
 *   backend Connected  -> carrier on
 *   backend Closing    -> carrier off, queues taken down; we are Closed
 *
 * The queues live in an array allocated with the device, so that the
 * counters outlive a reconnection and a reader of them never races with
 * a queue going away; nr_queues of them are in use while connected.
 * Queues are set up, enabled and taken down under rtnl_lock, which also
 * serialises them against ndo_open and ndo_stop.
 *
 * A value the backend publishes that makes no sense gets one log line
 * and the device closes; so does anything invalid on a ring.
 */
#include <linux/cpumask.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/if_ether.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/tcp.h>
#include <xen/events.h>
#include <xen/page.h>
#include <xen/xen.h>
#include <xen/xenbus.h>

#include "netfront.h"

static bool trusted = true;
module_param(trusted, bool, 0644);
MODULE_PARM_DESC(trusted,
		 "Trust backends with the memory around the packets they are sent (default yes). When no, every transmitted packet is first copied into pages of its own; a \"trusted\" node of 0 in the device's xenstore directory does the same for one interface. Read when an interface connects.");

static unsigned int max_queues = NETFRONT_MAX_QUEUES;
module_param(max_queues, uint, 0644);
MODULE_PARM_DESC(max_queues,
		 "Most queues an interface uses, 1 to 8 (default 8); never more than online CPUs or than the backend takes. Read when an interface connects.");

/**
 * netfront_broken() - the backend broke the protocol: stop and close
 * @nf: the device
 * @why: what it sent
 * @val: the offending value
 *
 * Any context.  Only the first call logs.
 */
void netfront_broken(struct netfront_info *nf, const char *why,
		     unsigned long long val)
{
	if (xchg(&nf->broken, true))
		return;
	netif_carrier_off(nf->netdev);
	dev_err(&nf->xdev->dev, "backend %s: %s %llu; closing\n",
		nf->xdev->otherend, why, val);
	schedule_work(&nf->close_work);
}

static void netfront_close_work(struct work_struct *work)
{
	struct netfront_info *nf = container_of(work, struct netfront_info,
						close_work);

	xenbus_switch_state(nf->xdev, XenbusStateClosing);
}

/* ---- queues ---- */

/* An event channel for the backend, bound to @handler. */
static int netfront_bind(struct netfront_queue *q, evtchn_port_t *port,
			 int *irq, irq_handler_t handler, const char *name)
{
	struct xenbus_device *xdev = q->nf->xdev;
	int rc;

	rc = xenbus_alloc_evtchn(xdev, port);
	if (rc)
		return rc;
	rc = bind_evtchn_to_irqhandler_lateeoi(*port, handler, 0, name, q);
	if (rc < 0) {
		xenbus_dev_fatal(xdev, rc, "binding event channel %u", *port);
		return rc;
	}
	*irq = rc;
	return 0;
}

static void netfront_unbind(struct netfront_queue *q, evtchn_port_t *port,
			    int *irq)
{
	if (*irq > 0)
		unbind_from_irqhandler(*irq, q);
	else if (*port)
		xenbus_free_evtchn(q->nf->xdev, *port);
	*irq = 0;
	*port = 0;
}

static void netfront_queue_down(struct netfront_queue *q)
{
	if (q->napi.poll)
		netif_napi_del(&q->napi);
	q->napi.poll = NULL;
	netfront_unbind(q, &q->tx_port, &q->tx_irq);
	netfront_unbind(q, &q->port, &q->irq);
	netfront_tx_release(q);
	netfront_rx_release(q);
	xenbus_teardown_ring((void **)&q->tx_sring, 1, &q->tx_ring_ref);
	xenbus_teardown_ring((void **)&q->rx_sring, 1, &q->rx_ring_ref);
	q->eoi = 0;
}

static int netfront_queue_up(struct netfront_queue *q)
{
	struct netfront_info *nf = q->nf;
	struct xenbus_device *xdev = nf->xdev;
	int rc;

	q->tx = (struct xen_front_ring) {
		.nr_ents = XEN_SRING_ENTRIES(netif_tx, XEN_PAGE_SIZE),
	};
	q->rx = (struct xen_front_ring) {
		.nr_ents = XEN_SRING_ENTRIES(netif_rx, XEN_PAGE_SIZE),
	};
	if (WARN_ON(q->tx.nr_ents != NETFRONT_RING_SIZE ||
		    q->rx.nr_ents != NETFRONT_RING_SIZE))
		return -EINVAL;
	q->eoi = 0;
	/* Both always, so that netfront_queue_down() finds them set. */
	rc = netfront_tx_init(q);
	rc = netfront_rx_init(q) ?: rc;
	if (rc) {
		xenbus_dev_fatal(xdev, rc, "reserving grant references");
		goto fail;
	}
	rc = xenbus_setup_ring(xdev, GFP_KERNEL, (void **)&q->tx_sring, 1,
			       &q->tx_ring_ref);
	if (!rc)
		rc = xenbus_setup_ring(xdev, GFP_KERNEL, (void **)&q->rx_sring,
				       1, &q->rx_ring_ref);
	if (rc)
		goto fail;
	/* Both ends want an event at the first entry. */
	q->tx_sring->req_event = 1;
	q->tx_sring->rsp_event = 1;
	q->rx_sring->req_event = 1;
	q->rx_sring->rsp_event = 1;

	snprintf(q->name, sizeof(q->name), "%s-q%u%s", nf->netdev->name, q->id,
		 nf->feat.split ? "-rx" : "");
	rc = netfront_bind(q, &q->port, &q->irq, netfront_interrupt, q->name);
	if (rc)
		goto fail;
	if (nf->feat.split) {
		snprintf(q->tx_name, sizeof(q->tx_name), "%s-q%u-tx",
			 nf->netdev->name, q->id);
		rc = netfront_bind(q, &q->tx_port, &q->tx_irq,
				   netfront_tx_interrupt, q->tx_name);
		if (rc)
			goto fail;
	}
	netif_napi_add(nf->netdev, &q->napi, netfront_poll);
	return 0;
fail:
	netfront_queue_down(q);
	return rc;
}

/* ---- negotiation ---- */

/* Read the backend's offer, checked, into a snapshot. */
static int netfront_read_features(struct netfront_info *nf,
				  struct netfront_features *f)
{
	static const char *const flags[] = {
		"feature-rx-copy", "feature-sg", "feature-no-csum-offload",
		"feature-ipv6-csum-offload", "feature-gso-tcpv4",
		"feature-gso-tcpv6", "feature-split-event-channels",
	};
	struct xenbus_device *xdev = nf->xdev;
	unsigned int val[ARRAY_SIZE(flags)], mtu, i;

	/* Booleans are 0 or 1; a queue count, if any, at least 1. */
	for (i = 0; i < ARRAY_SIZE(flags); i++)
		if (xenbus_read_offer(xdev, flags[i], 0, 0, 1, &val[i]))
			return -EINVAL;
	if (xenbus_read_offer(xdev, "multi-queue-max-queues", 0, 1, UINT_MAX,
			      &f->max_queues) ||
	    xenbus_read_offer(xdev, "mtu", 0, ETH_MIN_MTU,
			      nf->netdev->max_mtu, &mtu))
		return -EINVAL;
	if (!val[0]) {
		xenbus_dev_fatal(xdev, -EOPNOTSUPP,
				 "backend does not copy received packets (feature-rx-copy)");
		return -EOPNOTSUPP;
	}
	f->sg = val[1];
	f->csum = !val[2];
	f->ipv6_csum = val[3];
	f->tso4 = val[4];
	f->tso6 = val[5];
	f->split = val[6];
	if (mtu > ETH_DATA_LEN && !f->sg) {
		xenbus_dev_fatal(xdev, -EINVAL, "backend mtu %u without feature-sg",
				 mtu);
		return -EINVAL;
	}
	f->mtu = mtu;
	return 0;
}

static int netfront_write_queue(struct netfront_info *nf,
				struct netfront_queue *q,
				struct xenbus_transaction t)
{
	const char *dir = nf->xdev->nodename;
	char *qdir = NULL;
	int rc;

	if (nf->nr_queues > 1) {
		qdir = kasprintf(GFP_KERNEL, "%s/queue-%u", dir, q->id);
		if (!qdir)
			return -ENOMEM;
		dir = qdir;
	}
	rc = xenbus_printf(t, dir, "tx-ring-ref", "%u", q->tx_ring_ref);
	if (!rc)
		rc = xenbus_printf(t, dir, "rx-ring-ref", "%u", q->rx_ring_ref);
	if (!rc && q->tx_port) {
		rc = xenbus_printf(t, dir, "event-channel-tx", "%u", q->tx_port);
		if (!rc)
			rc = xenbus_printf(t, dir, "event-channel-rx", "%u",
					   q->port);
	} else if (!rc) {
		rc = xenbus_printf(t, dir, "event-channel", "%u", q->port);
	}
	kfree(qdir);
	return rc;
}

/* What we take from the backend: received packets of several slots
 * (the transmit side needs no announcement), checksums left blank and
 * GSO packets; and that we post receive buffers to be copied into and
 * want events for them.
 */
static const char *const netfront_our_features[] = {
	"request-rx-copy", "feature-rx-notify", "feature-sg",
	"feature-gso-tcpv4", "feature-gso-tcpv6", "feature-ipv6-csum-offload",
};

/* Tell the backend where the queues are, in one transaction. */
static int netfront_publish(struct netfront_info *nf)
{
	struct xenbus_device *xdev = nf->xdev;
	struct xenbus_transaction t;
	unsigned int i;
	unsigned int tries = 0;
	int rc;

	do {
		rc = xenbus_transaction_start(&t);
		if (rc)
			break;
		if (nf->feat.max_queues)
			rc = xenbus_printf(t, xdev->nodename,
					   "multi-queue-num-queues", "%u",
					   nf->nr_queues);
		for (i = 0; !rc && i < nf->nr_queues; i++)
			rc = netfront_write_queue(nf, &nf->queues[i], t);
		for (i = 0; !rc && i < ARRAY_SIZE(netfront_our_features); i++)
			rc = xenbus_write(t, xdev->nodename,
					  netfront_our_features[i], "1");
		if (rc) {
			xenbus_transaction_end(t, 1);
			break;
		}
		rc = xenbus_transaction_end(t, 0);
	} while (xenbus_transaction_retry(rc, &tries));
	if (rc)
		xenbus_dev_fatal(xdev, rc, "publishing the queues");
	return rc;
}

/* Take the queues down; the interface stays, without carrier. */
static void netfront_disconnect(struct netfront_info *nf)
{
	struct net_device *dev = nf->netdev;
	unsigned int i;

	rtnl_lock();
	netif_carrier_off(dev);
	netif_tx_disable(dev);
	for (i = 0; i < nf->nr_queues; i++) {
		if (netif_running(dev))
			napi_disable(&nf->queues[i].napi);
		netfront_queue_down(&nf->queues[i]);
	}
	WRITE_ONCE(nf->nr_queues, 0);
	rtnl_unlock();
}

/* The backend waits for us: set up the queues and publish them. */
static int netfront_connect(struct netfront_info *nf)
{
	struct net_device *dev = nf->netdev;
	struct netfront_features f = {};
	unsigned int i, n;
	int rc;

	rc = netfront_read_features(nf, &f);
	if (rc)
		return rc;
	n = min3(max(f.max_queues, 1U), clamp(max_queues, 1U,
					      NETFRONT_MAX_QUEUES),
		 num_online_cpus());

	rtnl_lock();
	nf->feat = f;
	nf->bounce = !trusted ||
		     !xenbus_read_unsigned(nf->xdev->nodename, "trusted", 1);
	WRITE_ONCE(nf->broken, false);
	for (i = 0; i < n; i++) {
		rc = netfront_queue_up(&nf->queues[i]);
		if (rc)
			goto fail;
		WRITE_ONCE(nf->nr_queues, i + 1);
	}
	rc = netfront_publish(nf);
	if (!rc)
		rc = netif_set_real_num_queues(dev, n, n);
	if (rc)
		goto fail;
	netdev_update_features(dev);
	if (f.mtu && f.mtu != dev->mtu)
		dev_set_mtu(dev, f.mtu);
	for (i = 0; i < n; i++) {
		netfront_rx_refill(&nf->queues[i]);
		if (netif_running(dev)) {
			napi_enable(&nf->queues[i].napi);
			napi_schedule(&nf->queues[i].napi);
		}
	}
	rtnl_unlock();
	return xenbus_switch_state(nf->xdev, XenbusStateConnected);
fail:
	for (i = 0; i < nf->nr_queues; i++)
		netfront_queue_down(&nf->queues[i]);
	WRITE_ONCE(nf->nr_queues, 0);
	rtnl_unlock();
	return rc;
}

static void netfront_backend_connected(struct netfront_info *nf)
{
	struct net_device *dev = nf->netdev;
	const struct netfront_features *f = &nf->feat;

	if (nf->xdev->state != XenbusStateConnected || !nf->nr_queues ||
	    netif_carrier_ok(dev) || READ_ONCE(nf->broken))
		return;
	rtnl_lock();
	netif_carrier_on(dev);
	if (netif_running(dev))
		netif_tx_wake_all_queues(dev);
	rtnl_unlock();
	netdev_notify_peers(dev);
	netdev_info(dev, "connected: %u queues, mtu %u%s%s%s%s%s%s\n",
		    nf->nr_queues, dev->mtu, f->sg ? ", sg" : "",
		    f->csum ? ", csum" : "", f->ipv6_csum ? ", ipv6-csum" : "",
		    f->tso4 ? ", tso" : "", f->tso6 ? ", tso6" : "",
		    f->split ? ", a channel each way" : "");
	if (nf->bounce)
		netdev_info(dev, "backend not trusted: packets are copied\n");
}

static void netfront_otherend_changed(struct xenbus_device *xdev,
				      enum xenbus_state state)
{
	struct netfront_info *nf = dev_get_drvdata(&xdev->dev);

	switch (state) {
	case XenbusStateInitWait:
		if (xdev->state == XenbusStateInitialising)
			netfront_connect(nf);
		break;
	case XenbusStateConnected:
		netfront_backend_connected(nf);
		break;
	case XenbusStateClosing:
	case XenbusStateClosed:
		if (xdev->state != XenbusStateClosed) {
			netfront_disconnect(nf);
			xenbus_frontend_closed(xdev);
		}
		break;
	default:
		break;
	}
}

/* ---- the net_device ---- */

static int netfront_open(struct net_device *dev)
{
	struct netfront_info *nf = netdev_priv(dev);
	unsigned int i;

	for (i = 0; i < nf->nr_queues; i++) {
		napi_enable(&nf->queues[i].napi);
		/* Whatever arrived while down, and its late EOI. */
		napi_schedule(&nf->queues[i].napi);
	}
	netif_tx_start_all_queues(dev);
	return 0;
}

static int netfront_stop(struct net_device *dev)
{
	struct netfront_info *nf = netdev_priv(dev);
	unsigned int i;

	netif_tx_stop_all_queues(dev);
	for (i = 0; i < nf->nr_queues; i++)
		napi_disable(&nf->queues[i].napi);
	return 0;
}

static netdev_features_t netfront_fix_features(struct net_device *dev,
					       netdev_features_t features)
{
	struct netfront_info *nf = netdev_priv(dev);
	const struct netfront_features *f = &nf->feat;

	if (!f->sg)
		features &= ~NETIF_F_SG;
	if (!f->csum)
		features &= ~NETIF_F_IP_CSUM;
	if (!f->ipv6_csum)
		features &= ~NETIF_F_IPV6_CSUM;
	if (!f->tso4)
		features &= ~NETIF_F_TSO;
	if (!f->tso6)
		features &= ~NETIF_F_TSO6;
	return features;
}

static int netfront_change_mtu(struct net_device *dev, int mtu)
{
	/* A packet larger than a page must be sent in several slots. */
	if (mtu > ETH_DATA_LEN && !(dev->features & NETIF_F_SG))
		return -EINVAL;
	WRITE_ONCE(dev->mtu, mtu);
	return 0;
}

static void netfront_get_stats64(struct net_device *dev,
				 struct rtnl_link_stats64 *tot)
{
	struct netfront_info *nf = netdev_priv(dev);
	unsigned int i, start;

	for (i = 0; i < NETFRONT_MAX_QUEUES; i++) {
		struct netfront_stats *tx = &nf->queues[i].tx_stats;
		struct netfront_stats *rx = &nf->queues[i].rx_stats;
		u64 packets, bytes, errors;

		do {
			start = u64_stats_fetch_begin(&tx->syncp);
			packets = u64_stats_read(&tx->packets);
			bytes = u64_stats_read(&tx->bytes);
			errors = u64_stats_read(&tx->errors);
		} while (u64_stats_fetch_retry(&tx->syncp, start));
		tot->tx_packets += packets;
		tot->tx_bytes += bytes;
		tot->tx_errors += errors;

		do {
			start = u64_stats_fetch_begin(&rx->syncp);
			packets = u64_stats_read(&rx->packets);
			bytes = u64_stats_read(&rx->bytes);
			errors = u64_stats_read(&rx->errors);
		} while (u64_stats_fetch_retry(&rx->syncp, start));
		tot->rx_packets += packets;
		tot->rx_bytes += bytes;
		tot->rx_errors += errors;
	}
}

static const struct net_device_ops netfront_netdev_ops = {
	.ndo_open = netfront_open,
	.ndo_stop = netfront_stop,
	.ndo_start_xmit = netfront_start_xmit,
	.ndo_change_mtu = netfront_change_mtu,
	.ndo_fix_features = netfront_fix_features,
	.ndo_get_stats64 = netfront_get_stats64,
	.ndo_set_mac_address = eth_mac_addr,
	.ndo_validate_addr = eth_validate_addr,
};

static void netfront_get_drvinfo(struct net_device *dev,
				 struct ethtool_drvinfo *info)
{
	struct netfront_info *nf = netdev_priv(dev);

	strscpy(info->driver, "xen-netfront", sizeof(info->driver));
	strscpy(info->bus_info, dev_name(&nf->xdev->dev),
		sizeof(info->bus_info));
}

static const struct ethtool_ops netfront_ethtool_ops = {
	.get_drvinfo = netfront_get_drvinfo,
	.get_link = ethtool_op_get_link,
};

/* ---- the driver ---- */

static int netfront_read_mac(struct xenbus_device *xdev, u8 *mac)
{
	char *s = xenbus_read(XBT_NIL, xdev->nodename, "mac", NULL);
	int rc = 0;

	if (IS_ERR(s))
		return PTR_ERR(s);
	if (!mac_pton(s, mac) || !is_valid_ether_addr(mac)) {
		dev_err(&xdev->dev, "mac address \"%.20s\" is not a unicast address\n",
			s);
		rc = -EINVAL;
	}
	kfree(s);
	return rc;
}

static int netfront_probe(struct xenbus_device *xdev,
			  const struct xenbus_device_id *id)
{
	struct net_device *dev;
	struct netfront_info *nf;
	u8 mac[ETH_ALEN];
	unsigned int i;
	int rc;

	rc = netfront_read_mac(xdev, mac);
	if (rc) {
		xenbus_dev_fatal(xdev, rc, "reading mac");
		return rc;
	}
	dev = alloc_etherdev_mq(sizeof(*nf), NETFRONT_MAX_QUEUES);
	if (!dev)
		return -ENOMEM;
	nf = netdev_priv(dev);
	nf->netdev = dev;
	nf->xdev = xdev;
	INIT_WORK(&nf->close_work, netfront_close_work);
	nf->queues = kvcalloc(NETFRONT_MAX_QUEUES, sizeof(*nf->queues),
			      GFP_KERNEL);
	if (!nf->queues) {
		rc = -ENOMEM;
		goto fail;
	}
	for (i = 0; i < NETFRONT_MAX_QUEUES; i++) {
		struct netfront_queue *q = &nf->queues[i];

		q->nf = nf;
		q->id = i;
		spin_lock_init(&q->tx_lock);
		u64_stats_init(&q->tx_stats.syncp);
		u64_stats_init(&q->rx_stats.syncp);
		q->tx_ring_ref = INVALID_GRANT_REF;
		q->rx_ring_ref = INVALID_GRANT_REF;
	}

	eth_hw_addr_set(dev, mac);
	dev->netdev_ops = &netfront_netdev_ops;
	dev->ethtool_ops = &netfront_ethtool_ops;
	dev->hw_features = NETIF_F_SG | NETIF_F_IP_CSUM | NETIF_F_IPV6_CSUM |
			   NETIF_F_TSO | NETIF_F_TSO6;
	dev->features = dev->hw_features | NETIF_F_RXCSUM;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = XEN_NETIF_MAX_TX_SIZE - ETH_HLEN;
	/*
	 * The stack keeps its GSO packets below this, and TCP leaves room
	 * for its headers by itself: 64 KiB - 1, the most a request's size
	 * can say.
	 */
	netif_set_tso_max_size(dev, XEN_NETIF_MAX_TX_SIZE);
	rc = netif_set_real_num_queues(dev, 1, 1);
	if (rc)
		goto fail;
	SET_NETDEV_DEV(dev, &xdev->dev);
	netif_carrier_off(dev);
	dev_set_drvdata(&xdev->dev, nf);
	rc = register_netdev(dev);
	if (rc)
		goto fail;
	netdev_info(dev, "xen virtual interface %s, %pM\n", xdev->nodename,
		    mac);
	return 0;
fail:
	dev_set_drvdata(&xdev->dev, NULL);
	kvfree(nf->queues);
	free_netdev(dev);
	return rc;
}

static void netfront_remove(struct xenbus_device *xdev)
{
	struct netfront_info *nf = dev_get_drvdata(&xdev->dev);

	unregister_netdev(nf->netdev);
	netfront_disconnect(nf);
	cancel_work_sync(&nf->close_work);
	kvfree(nf->queues);
	free_netdev(nf->netdev);
}

static const struct xenbus_device_id netfront_ids[] = {
	{ "vif" },
	{ "" }
};

static struct xenbus_driver netfront_driver = {
	.ids = netfront_ids,
	.probe = netfront_probe,
	.otherend_changed = netfront_otherend_changed,
	.remove = netfront_remove,
};

static int __init netfront_init(void)
{
	if (!xen_domain())
		return -ENODEV;
	return xenbus_register_frontend(&netfront_driver);
}
module_init(netfront_init);

static void __exit netfront_exit(void)
{
	xenbus_unregister_driver(&netfront_driver);
}
module_exit(netfront_exit);

MODULE_DESCRIPTION("Xen virtual network interface frontend");
MODULE_LICENSE("GPL");
MODULE_ALIAS("xen:vif");
