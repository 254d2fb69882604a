// SPDX-License-Identifier: GPL-2.0
/*
 * netback's vif: its net_device and its side of the negotiation.
 *
 *   probe               -> the interface vif<domid>.<id>, without
 *                          carrier (the toolstack's hotplug script puts
 *                          it on a bridge); offer feature-rx-copy,
 *                          feature-sg, feature-ipv6-csum-offload;
 *                          InitWait; watch hotplug-status
 *   frontend Connected,
 *   hotplug-status
 *   "connected"         -> read its rings (tx-ring-ref, rx-ring-ref,
 *                          event-channel) and what it takes
 *                          (request-rx-copy, required; feature-sg);
 *                          serve them; carrier on; Connected
 *   frontend Closing    -> carrier off, stop serving; Closing
 *   frontend Closed,
 *   or gone             -> Closed; when the toolstack set online to 0,
 *                          the device is removed, and the interface
 *
 * One queue, one event channel for both rings (we offer neither
 * multi-queue-max-queues nor feature-split-event-channels), no GSO.  A
 * value the frontend publishes that makes no sense gets one log line
 * and the device closes.
 */

#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <xen/xen.h>
#include <xen/xenbus.h>

#include "netback.h"

/* ---- the interface ---- */

static int netback_open(struct net_device *dev)
{
	netif_start_queue(dev);
	return 0;
}

static int netback_stop(struct net_device *dev)
{
	netif_stop_queue(dev);
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

static const struct net_device_ops netback_netdev_ops = {
	.ndo_open = netback_open,
	.ndo_stop = netback_stop,
	.ndo_start_xmit = netback_start_xmit,
	.ndo_change_mtu = netback_change_mtu,
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
	dev->features = NETIF_F_SG | NETIF_F_HIGHDMA;
	dev->hw_features = dev->features;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = XEN_NETIF_MAX_TX_SIZE - ETH_HLEN;
	eth_hw_addr_set(dev, addr);
}

/* ---- negotiation ---- */

static int netback_connect(struct netback_vif *vif)
{
	struct xenbus_device *xdev = vif->xdev;
	unsigned int copy, sg, queues, tx_ref, rx_ref, port;
	int rc;

	if (xenbus_read_offer(xdev, "request-rx-copy", 0, 0, 1, &copy) ||
	    xenbus_read_offer(xdev, "feature-sg", 0, 0, 1, &sg) ||
	    xenbus_read_offer(xdev, "multi-queue-num-queues", 1, 1, 1, &queues))
		return -EINVAL;
	if (!copy) {
		xenbus_dev_fatal(xdev, -EOPNOTSUPP,
				 "frontend does not take copied packets (request-rx-copy)");
		return -EOPNOTSUPP;
	}
	rc = xenbus_read_required(xdev, "tx-ring-ref", 0, UINT_MAX, &tx_ref) ?:
	     xenbus_read_required(xdev, "rx-ring-ref", 0, UINT_MAX, &rx_ref) ?:
	     xenbus_read_required(xdev, "event-channel", 0, UINT_MAX, &port);
	if (rc)
		return rc;
	vif->sg = sg;
	rtnl_lock();
	if (!sg && vif->dev->mtu > ETH_DATA_LEN)
		dev_set_mtu(vif->dev, ETH_DATA_LEN);
	rtnl_unlock();
	rc = netback_connect_rings(vif, tx_ref, rx_ref, port);
	if (rc)
		return rc;
	dev_info(&xdev->dev, "%s serving, %s\n", vif->dev->name,
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

static int netback_offer(struct xenbus_device *xdev)
{
	static const char *const ones[] = {
		"feature-rx-copy", "feature-sg", "feature-ipv6-csum-offload",
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
	dev = alloc_netdev(sizeof(*vif), name, NET_NAME_PREDICTABLE,
			   netback_setup);
	if (!dev)
		return -ENOMEM;
	SET_NETDEV_DEV(dev, &xdev->dev);
	vif = netdev_priv(dev);
	vif->xdev = xdev;
	vif->dev = dev;
	mutex_init(&vif->lock);
	init_waitqueue_head(&vif->wq);
	skb_queue_head_init(&vif->rx_queue);
	netif_carrier_off(dev);
	dev_set_drvdata(&xdev->dev, vif);

	rc = register_netdev(dev);
	if (rc) {
		dev_err(&xdev->dev, "registering %s: %d\n", name, rc);
		goto fail;
	}
	rc = netback_offer(xdev);
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
	return 0;

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

	unregister_xenbus_watch(&vif->hotplug_watch);
	kfree(vif->hotplug_watch.node);
	mutex_lock(&vif->lock);
	netback_disconnect_rings(vif);
	mutex_unlock(&vif->lock);
	unregister_netdev(vif->dev);
	skb_queue_purge(&vif->rx_queue);
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
