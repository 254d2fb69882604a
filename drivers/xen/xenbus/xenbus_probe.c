// SPDX-License-Identifier: GPL-2.0
/*
 * Bring-up of the xenstore connection.
 *
 * An HVM or PVH guest finds the ring's frame and event channel in HVM
 * parameters set by the toolstack.  Once the reader and watch threads
 * run, the xenstore notifier chain tells the drivers that wait for
 * xenstore; a driver that registers later is told at once.
 *
 * Locking: xs_notifier_lock (mutex) orders registration against the
 * moment xenstore comes up.
 */
#include <linux/init.h>
#include <linux/io.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/pfn.h>
#include <linux/printk.h>
#include <asm/xen/hypervisor.h>
#include <asm/xen/page.h>
#include <xen/hvm.h>
#include <xen/interface/xen.h>
#include <xen/xenbus.h>
#include <xen/xen.h>

#include "xenbus.h"

enum xenstore_init xen_store_domain_type;
EXPORT_SYMBOL_GPL(xen_store_domain_type);

static BLOCKING_NOTIFIER_HEAD(xs_chain);
static DEFINE_MUTEX(xs_notifier_lock);
static bool xs_ready;

/**
 * xenbus_ready() - is xenstore up
 *
 * Return: true once requests can be made.
 */
bool xenbus_ready(void)
{
	return READ_ONCE(xs_ready);
}
EXPORT_SYMBOL_GPL(xenbus_ready);

/**
 * register_xenstore_notifier() - be told when xenstore is up
 * @nb: called once, with no arguments of interest, when it is (at once
 *	if it is already)
 *
 * Return: 0.
 */
int register_xenstore_notifier(struct notifier_block *nb)
{
	mutex_lock(&xs_notifier_lock);
	if (xs_ready)
		nb->notifier_call(nb, 0, NULL);
	else
		blocking_notifier_chain_register(&xs_chain, nb);
	mutex_unlock(&xs_notifier_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(register_xenstore_notifier);

/**
 * unregister_xenstore_notifier() - no longer be told
 * @nb: a registered notifier
 */
void unregister_xenstore_notifier(struct notifier_block *nb)
{
	blocking_notifier_chain_unregister(&xs_chain, nb);
}
EXPORT_SYMBOL_GPL(unregister_xenstore_notifier);

static int __init xenbus_init(void)
{
	struct xenstore_domain_interface *intf;
	u64 pfn, port;
	int rc;

	if (xen_pv_domain() && !xen_initial_domain()) {
		/* The builder's page, in the boot area, named by machine frame. */
		port = xen_start_info->store_evtchn;
		pfn = mfn_to_pfn(xen_start_info->store_mfn);
		if (!port || pfn == INVALID_P2M_ENTRY) {
			pr_info("xenstore: none given to this domain\n");
			return 0;
		}
		intf = pfn_to_kaddr(pfn);
		xen_store_domain_type = XS_PV;
	} else if (xen_hvm_domain()) {
		if (hvm_get_parameter(HVM_PARAM_STORE_EVTCHN, &port) ||
		    hvm_get_parameter(HVM_PARAM_STORE_PFN, &pfn) || !pfn ||
		    !port) {
			pr_info("xenstore: none given to this domain\n");
			return 0;
		}
		intf = memremap(PFN_PHYS(pfn), PAGE_SIZE, MEMREMAP_WB);
		if (!intf)
			return -ENOMEM;
		xen_store_domain_type = XS_HVM;
	} else {
		return 0;
	}

	rc = xs_comms_init(intf, port);
	if (!rc)
		rc = xs_watch_init();
	if (rc) {
		pr_err("xenstore: cannot start: %d\n", rc);
		return rc;
	}

	mutex_lock(&xs_notifier_lock);
	WRITE_ONCE(xs_ready, true);
	blocking_notifier_call_chain(&xs_chain, 0, NULL);
	mutex_unlock(&xs_notifier_lock);
	pr_info("xenstore: connected (port %llu)\n", port);
	return 0;
}
subsys_initcall(xenbus_init);
