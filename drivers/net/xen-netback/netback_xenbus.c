// SPDX-License-Identifier: GPL-2.0
/*
 * netback's vif: its net_device and its side of the negotiation.
 *
 *   probe               -> the interface vif<domid>.<id>, without
 *                          carrier (the toolstack's hotplug script puts
 *                          it on a bridge); offer feature-rx-copy,
 *                          feature-sg, feature-ipv6-csum-offload,
 *                          feature-gso-tcpv4 and -tcpv6 (what it sends),
 *                          multi-queue-max-queues; InitWait; watch
 *                          hotplug-status
 *   frontend Connected,
 *   hotplug-status
 *   "connected"         -> read its rings (tx-ring-ref, rx-ring-ref,
 *                          event-channel; under queue-N/ for each of
 *                          several, multi-queue-num-queues) and what it
 *                          takes
 *                          (request-rx-copy, required; feature-sg,
 *                          checksum and GSO features);
 *                          serve them; carrier on; Connected
 *   frontend Closing    -> carrier off, stop serving; Closing
 *   frontend Closed,
 *   or gone             -> Closed; when the toolstack set online to 0,
 *                          the device is removed, and the interface
 *
 * One event channel for both rings of a queue (we do not offer
 * feature-split-event-channels).  GSO both ways, as each end offered
 * (feature-gso-tcpv4 and -tcpv6), and blank checksums towards the guest
 * as it takes them (feature-no-csum-offload, feature-ipv6-csum-offload).
 * A value the frontend publishes that makes no sense (more queues than
 * offered, say) gets one log line and the device closes.
 *
 * The sharing of dom0 between vifs (netback_share.h) takes its settings
 * from the backend node, which the toolstack or an admin in dom0 writes,
 * or from sysfs; see netback_read_share().
 */

#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/string_choices.h>
#include <linux/sysfs.h>
#include <linux/timekeeping.h>
#include <xen/xen.h>
#include <xen/xenbus.h>

#include "netback.h"

static unsigned int max_queues;
module_param(max_queues, uint, 0644);
MODULE_PARM_DESC(max_queues,
		 "Queues a frontend may use for one vif, 1 to 8 (default 0: one per online CPU, at most 8). Offered when the vif appears.");

static unsigned int netback_max_queues(void)
{
	unsigned int n = READ_ONCE(max_queues) ?: num_online_cpus();

	return clamp(n, 1U, (unsigned int)NETBACK_MAX_QUEUES);
}

/* ---- the interface ---- */

static int netback_open(struct net_device *dev)
{
	netif_tx_start_all_queues(dev);
	return 0;
}

static int netback_stop(struct net_device *dev)
{
	netif_tx_stop_all_queues(dev);
	return 0;
}

static int netback_change_mtu(struct net_device *dev, int mtu)
{
	struct netback_vif *vif = netdev_priv(dev);

	if (mtu > ETH_DATA_LEN && READ_ONCE(vif->connected) && !vif->sg)
		return -EINVAL;
	WRITE_ONCE(dev->mtu, mtu);
	return 0;
}

/*
 * Offloads towards the guest: only those its frontend said it takes
 * (rx_gso4/6 already imply SG and the checksum).
 */
static netdev_features_t netback_fix_features(struct net_device *dev,
					      netdev_features_t features)
{
	struct netback_vif *vif = netdev_priv(dev);

	if (!vif->sg)
		features &= ~NETIF_F_SG;
	if (!vif->rx_csum4)
		features &= ~NETIF_F_IP_CSUM;
	if (!vif->rx_csum6)
		features &= ~NETIF_F_IPV6_CSUM;
	if (!vif->rx_gso4)
		features &= ~NETIF_F_TSO;
	if (!vif->rx_gso6)
		features &= ~NETIF_F_TSO6;
	return features;
}

static const struct net_device_ops netback_netdev_ops = {
	.ndo_open = netback_open,
	.ndo_stop = netback_stop,
	.ndo_start_xmit = netback_start_xmit,
	.ndo_select_queue = netback_select_queue,
	.ndo_change_mtu = netback_change_mtu,
	.ndo_fix_features = netback_fix_features,
	.ndo_get_stats64 = dev_get_tstats64,
	.ndo_set_mac_address = eth_mac_addr,
	.ndo_validate_addr = eth_validate_addr,
};

static void netback_setup(struct net_device *dev)
{
	/* The address bridges ignore: the guest's own is behind it. */
	static const u8 addr[ETH_ALEN] = { 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff };

	ether_setup(dev);
	dev->netdev_ops = &netback_netdev_ops;
	dev->pcpu_stat_type = NETDEV_PCPU_STAT_TSTATS;
	dev->hw_features = NETIF_F_SG | NETIF_F_IP_CSUM | NETIF_F_IPV6_CSUM |
			   NETIF_F_TSO | NETIF_F_TSO6;
	dev->features = dev->hw_features | NETIF_F_HIGHDMA;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = XEN_NETIF_MAX_TX_SIZE - ETH_HLEN;
	eth_hw_addr_set(dev, addr);
}

/* ---- negotiation ---- */

/* Read where a queue's rings are: @prefix is "" or "queue-N/". */
static int netback_read_queue(struct xenbus_device *xdev, const char *prefix,
			      struct netback_ring_refs *refs)
{
	char node[32];
	unsigned int v;
	int rc;

	snprintf(node, sizeof(node), "%stx-ring-ref", prefix);
	rc = xenbus_read_required(xdev, node, 0, UINT_MAX, &v);
	if (rc)
		return rc;
	refs->tx = v;
	snprintf(node, sizeof(node), "%srx-ring-ref", prefix);
	rc = xenbus_read_required(xdev, node, 0, UINT_MAX, &v);
	if (rc)
		return rc;
	refs->rx = v;
	snprintf(node, sizeof(node), "%sevent-channel", prefix);
	rc = xenbus_read_required(xdev, node, 0, UINT_MAX, &v);
	if (rc)
		return rc;
	refs->port = v;
	return 0;
}

static int netback_connect(struct netback_vif *vif)
{
	struct netback_ring_refs refs[NETBACK_MAX_QUEUES];
	struct xenbus_device *xdev = vif->xdev;
	unsigned int copy, sg, queues, i;
	unsigned int no_csum4, csum6, gso4, gso6;
	char prefix[16] = "";
	int rc;

	if (xenbus_read_offer(xdev, "request-rx-copy", 0, 0, 1, &copy) ||
	    xenbus_read_offer(xdev, "feature-sg", 0, 0, 1, &sg) ||
	    xenbus_read_offer(xdev, "feature-no-csum-offload", 0, 0, 1, &no_csum4) ||
	    xenbus_read_offer(xdev, "feature-ipv6-csum-offload", 0, 0, 1, &csum6) ||
	    xenbus_read_offer(xdev, "feature-gso-tcpv4", 0, 0, 1, &gso4) ||
	    xenbus_read_offer(xdev, "feature-gso-tcpv6", 0, 0, 1, &gso6) ||
	    xenbus_read_offer(xdev, "multi-queue-num-queues", 1, 1,
			      vif->max_queues, &queues))
		return -EINVAL;
	if (!copy) {
		xenbus_dev_fatal(xdev, -EOPNOTSUPP,
				 "frontend does not take copied packets (request-rx-copy)");
		return -EOPNOTSUPP;
	}
	for (i = 0; i < queues; i++) {
		if (queues > 1)
			snprintf(prefix, sizeof(prefix), "queue-%u/", i);
		rc = netback_read_queue(xdev, prefix, &refs[i]);
		if (rc)
			return rc;
	}
	vif->sg = sg;
	vif->rx_csum4 = !no_csum4;
	vif->rx_csum6 = csum6;
	/* Large packets come in several slots, their checksums blank. */
	vif->rx_gso4 = sg && gso4 && vif->rx_csum4;
	vif->rx_gso6 = sg && gso6 && vif->rx_csum6;
	/* The flows of a previous connection are the queues' no longer. */
	memset(vif->flow_queue, 0, sizeof(vif->flow_queue));
	rtnl_lock();
	if (!sg && vif->dev->mtu > ETH_DATA_LEN)
		dev_set_mtu(vif->dev, ETH_DATA_LEN);
	netdev_update_features(vif->dev);
	rc = netif_set_real_num_tx_queues(vif->dev, queues);
	rtnl_unlock();
	if (rc) {
		xenbus_dev_fatal(xdev, rc, "setting up %u queues", queues);
		return rc;
	}
	rc = netback_connect_rings(vif, refs, queues);
	if (rc)
		return rc;
	dev_info(&xdev->dev, "%s serving %u queue%s, %s\n", vif->dev->name,
		 queues, str_plural(queues),
		 sg ? "several slots a packet" : "one slot a packet");
	rc = xenbus_switch_state(xdev, XenbusStateConnected);
	/* Broken before that: its Closing must stand. */
	if (test_bit(NETBACK_BROKEN, &vif->flags))
		xenbus_switch_state(xdev, XenbusStateClosing);
	return rc;
}

static void netback_maybe_connect(struct netback_vif *vif)
{
	struct xenbus_device *xdev = vif->xdev;

	if (vif->connected || !vif->hotplug_ok ||
	    xdev->state != XenbusStateInitWait ||
	    xdev->otherend_state != XenbusStateConnected)
		return;
	netback_connect(vif);
}

/* The toolstack's hotplug script finished with the interface. */
static void netback_hotplug_changed(struct xenbus_watch *watch,
				    const char *path, const char *token)
{
	struct netback_vif *vif = container_of(watch, struct netback_vif,
					       hotplug_watch);
	char *s;

	s = xenbus_read(XBT_NIL, vif->xdev->nodename, "hotplug-status", NULL);
	if (IS_ERR(s))
		return;
	mutex_lock(&vif->lock);
	if (!strcmp(s, "connected")) {
		vif->hotplug_ok = true;
		netback_maybe_connect(vif);
	}
	mutex_unlock(&vif->lock);
	kfree(s);
}

static void netback_otherend_changed(struct xenbus_device *xdev,
				     enum xenbus_state state)
{
	struct netback_vif *vif = dev_get_drvdata(&xdev->dev);
	bool unregister = false;

	mutex_lock(&vif->lock);
	switch (state) {
	case XenbusStateInitialising:
		if (xdev->state == XenbusStateClosed)
			xenbus_switch_state(xdev, XenbusStateInitWait);
		break;
	case XenbusStateConnected:
		netback_maybe_connect(vif);
		break;
	case XenbusStateClosing:
		netback_disconnect_rings(vif);
		xenbus_switch_state(xdev, XenbusStateClosing);
		break;
	case XenbusStateClosed:
	case XenbusStateUnknown:
		netback_disconnect_rings(vif);
		xenbus_switch_state(xdev, XenbusStateClosed);
		unregister = !xenbus_dev_is_online(xdev);
		break;
	default:
		break;
	}
	mutex_unlock(&vif->lock);
	/* From the watch thread, as the bus removes devices. */
	if (unregister)
		device_unregister(&xdev->dev);
}

/* ---- sharing dom0 between vifs: the settings ---- */

/*
 * The settings of a vif's share, in its backend node, changed live:
 *   rate            "BYTES,USEC": the toolstack's rate= (a cap)
 *   share-weight    0 (none) to NETBACK_SHARE_MAX_WEIGHT
 *   share-min-kbps  a minimum rate in kbit/s, 0 for none
 * sysfs has the same (share_weight, share_min_kbps, rate) and what the
 * sharing did (share_stats).  A missing node is 0; one that makes no
 * sense gets a log line and the setting is left as it was.
 */
static int netback_parse_rate(const char *s, u64 *bytes, u64 *usec)
{
	char tail;

	if (sscanf(s, "%llu,%llu%c", bytes, usec, &tail) != 2 ||
	    (*bytes && !*usec))
		return -EINVAL;
	return 0;
}

static void netback_read_share(struct netback_vif *vif)
{
	struct xenbus_device *xdev = vif->xdev;
	unsigned long long v;
	u64 bytes = 0, usec = 0;
	char *s;

	s = xenbus_read(XBT_NIL, xdev->nodename, "rate", NULL);
	if (!IS_ERR(s)) {
		if (netback_parse_rate(s, &bytes, &usec))
			dev_warn(&xdev->dev, "rate \"%s\" is not BYTES,USEC: no cap\n",
				 s);
		kfree(s);
	}
	vif->cap_bytes = bytes;
	vif->cap_usec = usec;
	if (xenbus_scanf(XBT_NIL, xdev->nodename, "share-weight", "%llu",
			 &v) != 1)
		v = 0;
	if (v > NETBACK_SHARE_MAX_WEIGHT)
		dev_warn(&xdev->dev, "share-weight %llu: the largest is %u\n",
			 v, NETBACK_SHARE_MAX_WEIGHT);
	vif->weight = min_t(u64, v, NETBACK_SHARE_MAX_WEIGHT);
	if (xenbus_scanf(XBT_NIL, xdev->nodename, "share-min-kbps", "%llu",
			 &v) != 1)
		v = 0;
	vif->min_kbps = min_t(u64, v, U32_MAX);
}

static void netback_share_changed(struct xenbus_watch *watch,
				  const char *path, const char *token)
{
	struct netback_vif *vif = container_of(watch, struct netback_vif,
					       share_watch);
	const char *last = strrchr(path, '/');

	/* The first event names the node itself; then only these. */
	if (strcmp(path, vif->xdev->nodename) && last &&
	    strcmp(last, "/rate") && strcmp(last, "/share-weight") &&
	    strcmp(last, "/share-min-kbps"))
		return;
	mutex_lock(&vif->lock);
	netback_read_share(vif);
	netback_share_configure(vif);
	mutex_unlock(&vif->lock);
}

static struct netback_vif *netback_dev_vif(struct device *dev)
{
	return dev_get_drvdata(dev);
}

/* Set @setting, a u32 of @vif's sharing, from sysfs: 0 to @max. */
static ssize_t netback_store_u32(struct netback_vif *vif, u32 *setting,
				 const char *buf, size_t count, u32 max)
{
	u32 v;

	if (kstrtou32(buf, 10, &v) || v > max)
		return -EINVAL;
	mutex_lock(&vif->lock);
	*setting = v;
	netback_share_configure(vif);
	mutex_unlock(&vif->lock);
	return count;
}

static ssize_t share_weight_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(netback_dev_vif(dev)->weight));
}

static ssize_t share_weight_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	struct netback_vif *vif = netback_dev_vif(dev);

	return netback_store_u32(vif, &vif->weight, buf, count,
				 NETBACK_SHARE_MAX_WEIGHT);
}
static DEVICE_ATTR_RW(share_weight);

static ssize_t share_min_kbps_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(netback_dev_vif(dev)->min_kbps));
}

static ssize_t share_min_kbps_store(struct device *dev,
				    struct device_attribute *attr,
				    const char *buf, size_t count)
{
	struct netback_vif *vif = netback_dev_vif(dev);

	return netback_store_u32(vif, &vif->min_kbps, buf, count, U32_MAX);
}
static DEVICE_ATTR_RW(share_min_kbps);

static ssize_t rate_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct netback_vif *vif = netback_dev_vif(dev);
	ssize_t n;

	mutex_lock(&vif->lock);
	n = sysfs_emit(buf, "%llu,%llu\n", vif->cap_bytes, vif->cap_usec);
	mutex_unlock(&vif->lock);
	return n;
}

static ssize_t rate_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	struct netback_vif *vif = netback_dev_vif(dev);
	u64 bytes, usec;

	if (netback_parse_rate(buf, &bytes, &usec))
		return -EINVAL;
	mutex_lock(&vif->lock);
	vif->cap_bytes = bytes;
	vif->cap_usec = usec;
	netback_share_configure(vif);
	mutex_unlock(&vif->lock);
	return count;
}
static DEVICE_ATTR_RW(rate);

static ssize_t share_stats_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	u64 bytes, held;

	netback_share_stats(netback_dev_vif(dev), &bytes, &held);
	return sysfs_emit(buf, "bytes %llu held %llu\n", bytes, held);
}
static DEVICE_ATTR_RO(share_stats);

static struct attribute *netback_attrs[] = {
	&dev_attr_share_weight.attr,
	&dev_attr_share_min_kbps.attr,
	&dev_attr_rate.attr,
	&dev_attr_share_stats.attr,
	NULL
};

static const struct attribute_group netback_group = {
	.attrs = netback_attrs,
};

static const struct attribute_group *netback_groups[] = {
	&netback_group,
	NULL
};

static int netback_offer(struct netback_vif *vif)
{
	struct xenbus_device *xdev = vif->xdev;
	static const char *const ones[] = {
		"feature-rx-copy", "feature-sg", "feature-ipv6-csum-offload",
		"feature-gso-tcpv4", "feature-gso-tcpv6",
	};
	struct xenbus_transaction t;
	unsigned int tries = 0, i;
	int rc;

	do {
		rc = xenbus_transaction_start(&t);
		if (rc)
			break;
		for (i = 0; !rc && i < ARRAY_SIZE(ones); i++)
			rc = xenbus_write(t, xdev->nodename, ones[i], "1");
		if (!rc)
			rc = xenbus_write(t, xdev->nodename, "feature-rx-flip", "0");
		if (!rc)
			rc = xenbus_printf(t, xdev->nodename,
					   "multi-queue-max-queues", "%u",
					   vif->max_queues);
		if (rc) {
			xenbus_transaction_end(t, 1);
			break;
		}
		rc = xenbus_transaction_end(t, 0);
	} while (xenbus_transaction_retry(rc, &tries));
	return rc;
}

static int netback_probe(struct xenbus_device *xdev,
			 const struct xenbus_device_id *id)
{
	const char *last = strrchr(xdev->nodename, '/');
	char name[IFNAMSIZ];
	struct netback_vif *vif;
	struct net_device *dev;
	unsigned int handle;
	int rc;

	if (!last || kstrtouint(last + 1, 10, &handle))
		return -EINVAL;
	snprintf(name, sizeof(name), "vif%d.%u", xdev->otherend_id, handle);
	dev = alloc_netdev_mqs(sizeof(*vif), name, NET_NAME_PREDICTABLE,
			       netback_setup, NETBACK_MAX_QUEUES, 1);
	if (!dev)
		return -ENOMEM;
	SET_NETDEV_DEV(dev, &xdev->dev);
	vif = netdev_priv(dev);
	vif->xdev = xdev;
	vif->dev = dev;
	vif->max_queues = netback_max_queues();
	mutex_init(&vif->lock);
	netback_init_queues(vif);
	netback_share_vif_init(&vif->share, ktime_get_ns());
	/* One until a frontend asks for more. */
	rc = netif_set_real_num_tx_queues(dev, 1);
	if (rc)
		goto fail;
	netif_carrier_off(dev);
	dev_set_drvdata(&xdev->dev, vif);

	rc = register_netdev(dev);
	if (rc) {
		dev_err(&xdev->dev, "registering %s: %d\n", name, rc);
		goto fail;
	}
	rc = netback_offer(vif);
	if (rc) {
		xenbus_dev_fatal(xdev, rc, "publishing what we offer");
		goto fail_unregister;
	}
	rc = xenbus_switch_state(xdev, XenbusStateInitWait);
	if (rc)
		goto fail_unregister;
	/* Fires at once: the script may have been quicker than us. */
	rc = xenbus_watch_pathfmt(xdev, &vif->hotplug_watch, NULL,
				  netback_hotplug_changed, "%s/hotplug-status",
				  xdev->nodename);
	if (rc)
		goto fail_unregister;
	/* Fires at once too: the settings the toolstack wrote. */
	rc = xenbus_watch_pathfmt(xdev, &vif->share_watch, NULL,
				  netback_share_changed, "%s", xdev->nodename);
	if (rc)
		goto fail_unwatch;
	return 0;

fail_unwatch:
	unregister_xenbus_watch(&vif->hotplug_watch);
	kfree(vif->hotplug_watch.node);
fail_unregister:
	unregister_netdev(dev);
fail:
	dev_set_drvdata(&xdev->dev, NULL);
	free_netdev(dev);
	return rc;
}

static void netback_remove(struct xenbus_device *xdev)
{
	struct netback_vif *vif = dev_get_drvdata(&xdev->dev);

	unregister_xenbus_watch(&vif->share_watch);
	kfree(vif->share_watch.node);
	unregister_xenbus_watch(&vif->hotplug_watch);
	kfree(vif->hotplug_watch.node);
	mutex_lock(&vif->lock);
	netback_disconnect_rings(vif);
	/* Its part in the sharing goes with it. */
	vif->weight = 0;
	vif->min_kbps = 0;
	vif->cap_bytes = 0;
	netback_share_configure(vif);
	mutex_unlock(&vif->lock);
	unregister_netdev(vif->dev);
	dev_set_drvdata(&xdev->dev, NULL);
	free_netdev(vif->dev);
}

static const struct xenbus_device_id netback_vif_ids[] = {
	{ "vif" },
	{ "" }
};

static struct xenbus_driver netback_vif_driver = {
	.ids = netback_vif_ids,
	.probe = netback_probe,
	.remove = netback_remove,
	.otherend_changed = netback_otherend_changed,
	.driver.dev_groups = netback_groups,
};

static int __init netback_init(void)
{
	if (!xen_domain())
		return -ENODEV;
	return xenbus_register_backend(&netback_vif_driver);
}
module_init(netback_init);

static void __exit netback_exit(void)
{
	xenbus_unregister_driver(&netback_vif_driver);
}
module_exit(netback_exit);

MODULE_DESCRIPTION("Xen network device backend");
MODULE_LICENSE("GPL");
MODULE_ALIAS("xen-backend:vif");
