// SPDX-License-Identifier: GPL-2.0
/*
 * Bring-up of the xenstore connection.
 *
 * An HVM or PVH guest finds the ring's frame and event channel in HVM
 * parameters set by the toolstack, a PV domU in its start info.  Once
 * the reader and watch threads run, the xenstore notifier chain tells
 * the drivers that wait for xenstore; a driver that registers later is
 * told at once.
 *
 * Dom0 runs xenstored itself, as a program it starts long after boot:
 * the kernel makes the ring (a page and an unbound port for dom0
 * itself), which xenfs publishes as xsd_kva and xsd_port.  xenstored
 * maps them, binds the port and sends a first event once it serves
 * dom0; only then is xenstore up here.
 *
 * Locking: xs_notifier_lock (mutex) orders registration against the
 * moment xenstore comes up.
 */
#include <linux/init.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/pfn.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/hypervisor.h>
#include <asm/xen/page.h>
#include <xen/events.h>
#include <xen/grant_table.h>
#include <xen/hvm.h>
#include <xen/interface/event_channel.h>
#include <xen/interface/grant_table.h>
#include <xen/interface/xen.h>
#include <xen/page.h>
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

/* Dom0: the ring it offers its own xenstored, until one connects. */
static struct xenstore_domain_interface *xs_local_intf;
static evtchn_port_t xs_local_port;
static bool xs_local_heard;	/* a xenstored has sent its first event */

static void xs_announce(struct work_struct *work)
{
	mutex_lock(&xs_notifier_lock);
	if (!xs_ready) {
		WRITE_ONCE(xs_ready, true);
		pr_info("xenstore: xenstored is up (port %u)\n", xs_local_port);
		blocking_notifier_call_chain(&xs_chain, 0, NULL);
	}
	mutex_unlock(&xs_notifier_lock);
}

static DECLARE_WORK(xs_announce_work, xs_announce);

/**
 * xs_local_event() - an event came on dom0's own xenstore ring
 *
 * Called by the ring's interrupt handler: the first says xenstored has
 * connected.
 */
void xs_local_event(void)
{
	if (xen_store_domain_type == XS_LOCAL && !READ_ONCE(xs_ready)) {
		/* Before the work runs: the ring is taken from now on. */
		WRITE_ONCE(xs_local_heard, true);
		schedule_work(&xs_announce_work);
	}
}

/**
 * xenbus_local_ring() - the ring dom0 offers its xenstored
 * @port: set to its event channel
 *
 * Return: the ring's page, or NULL when this domain's xenstore is not
 * its own (not dom0).
 */
void *xenbus_local_ring(evtchn_port_t *port)
{
	*port = READ_ONCE(xs_local_port);
	return xs_local_intf;
}
EXPORT_SYMBOL_GPL(xenbus_local_ring);

/**
 * xenbus_local_ring_mmap() - map dom0's ring into a process
 * @vma: the mapping: one page, shared, at offset 0
 *
 * For the xenstored that serves the ring (xenfs xsd_kva,
 * /dev/xen/xenbus_backend).
 *
 * Return: 0, -ENODEV when this domain's xenstore is not its own, or
 * -EINVAL for another size or offset.
 */
int xenbus_local_ring_mmap(struct vm_area_struct *vma)
{
	if (!xs_local_intf)
		return -ENODEV;
	if (vma->vm_pgoff || vma->vm_end - vma->vm_start != PAGE_SIZE)
		return -EINVAL;
	return remap_pfn_range(vma, vma->vm_start,
			       PHYS_PFN(__pa(xs_local_intf)), PAGE_SIZE,
			       vma->vm_page_prot);
}
EXPORT_SYMBOL_GPL(xenbus_local_ring_mmap);

/**
 * xenbus_local_handover() - offer dom0's ring to a xenstore domain
 * @domid: the domain that is to serve xenstore
 *
 * Grants @domid the ring's page in the grant ref reserved for xenstore
 * and moves the ring to a new port that @domid may bind.  Only before a
 * xenstored has connected: one that has would not know the new port.
 *
 * Return: the new port; -ENODEV when this domain's xenstore is not its
 * own, -EEXIST once a xenstored has connected, or another negative errno
 * (nothing changed).
 */
int xenbus_local_handover(domid_t domid)
{
	struct evtchn_alloc_unbound alloc = {
		.dom = DOMID_SELF,
		.remote_dom = domid,
	};
	int rc;

	if (xen_store_domain_type != XS_LOCAL || !xs_local_intf)
		return -ENODEV;
	mutex_lock(&xs_notifier_lock);
	rc = -EEXIST;
	if (READ_ONCE(xs_ready) || READ_ONCE(xs_local_heard))
		goto out;
	rc = HYPERVISOR_event_channel_op(EVTCHNOP_alloc_unbound, &alloc);
	if (rc)
		goto out;
	rc = xs_comms_rebind(alloc.port);
	if (rc) {
		xen_evtchn_close(alloc.port);
		goto out;
	}
	gnttab_grant_foreign_access_ref(GNTTAB_RESERVED_XENSTORE, domid,
					virt_to_gfn(xs_local_intf), 0);
	WRITE_ONCE(xs_local_port, alloc.port);
	pr_info("xenstore: ring offered to domain %u (port %u)\n", domid,
		alloc.port);
	rc = alloc.port;
out:
	mutex_unlock(&xs_notifier_lock);
	return rc;
}

static struct xenstore_domain_interface *__init xs_local_init(u64 *port)
{
	struct evtchn_alloc_unbound alloc = {
		.dom = DOMID_SELF,
		.remote_dom = 0,
	};
	void *page = (void *)get_zeroed_page(GFP_KERNEL);
	int rc;

	if (!page)
		return NULL;
	rc = HYPERVISOR_event_channel_op(EVTCHNOP_alloc_unbound, &alloc);
	if (rc) {
		pr_err("xenstore: no port for the local xenstored: %d\n", rc);
		free_page((unsigned long)page);
		return NULL;
	}
	xs_local_intf = page;
	xs_local_port = alloc.port;
	*port = alloc.port;
	return page;
}

static int __init xenbus_init(void)
{
	struct xenstore_domain_interface *intf;
	u64 pfn, port;
	int rc;

	if (xen_pv_domain() && xen_initial_domain()) {
		intf = xs_local_init(&port);
		if (!intf)
			return -ENOMEM;
		xen_store_domain_type = XS_LOCAL;
	} else if (xen_pv_domain()) {
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
		/* xenfs must not offer a ring nobody will read. */
		xs_local_intf = NULL;
		return rc;
	}

	if (xen_store_domain_type == XS_LOCAL) {
		pr_info("xenstore: ring for the local xenstored ready (port %llu)\n",
			port);
		return 0;
	}
	mutex_lock(&xs_notifier_lock);
	WRITE_ONCE(xs_ready, true);
	blocking_notifier_call_chain(&xs_chain, 0, NULL);
	mutex_unlock(&xs_notifier_lock);
	pr_info("xenstore: connected (port %llu)\n", port);
	return 0;
}
subsys_initcall(xenbus_init);
