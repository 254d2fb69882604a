// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/xen/xenbus_backend: dom0's own xenstore ring for whoever serves
 * xenstore.  A xenstored daemon in dom0 finds the ring through xenfs
 * (xsd_kva, xsd_port); this device is for a xenstore domain, which
 * init-xenstore-domain builds and then offers the ring to
 * (IOCTL_XENBUS_BACKEND_SETUP).  It also maps the ring's page and tells
 * its port.
 *
 * Trust: every operation wants CAP_SYS_ADMIN, since the ring carries
 * every request of dom0's kernel.  The domain id is Xen's to check (the
 * grant and the port are refused for a domain that does not exist).
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/miscdevice.h>
#include <xen/xenbus.h>
#include <xen/xenbus_dev.h>
#include <xen/xen.h>

#include "xenbus.h"

static int xb_backend_open(struct inode *inode, struct file *file)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return nonseekable_open(inode, file);
}

static long xb_backend_ioctl(struct file *file, unsigned int cmd,
			     unsigned long arg)
{
	evtchn_port_t port;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	switch (cmd) {
	case IOCTL_XENBUS_BACKEND_EVTCHN:
		if (!xenbus_local_ring(&port) || !port)
			return -ENODEV;
		return port;
	case IOCTL_XENBUS_BACKEND_SETUP:
		if (arg >= DOMID_FIRST_RESERVED)
			return -EINVAL;
		return xenbus_local_handover(arg);
	default:
		return -ENOTTY;
	}
}

/* One page, shared, at offset 0: the ring itself. */
static int xb_backend_mmap(struct file *file, struct vm_area_struct *vma)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return xenbus_local_ring_mmap(vma);
}

static const struct file_operations xb_backend_fops = {
	.open		= xb_backend_open,
	.unlocked_ioctl	= xb_backend_ioctl,
	.mmap		= xb_backend_mmap,
};

static struct miscdevice xb_backend_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "xen/xenbus_backend",
	.fops	= &xb_backend_fops,
};

static int __init xb_backend_init(void)
{
	evtchn_port_t port;

	/* Only dom0's own ring is anyone's to serve. */
	if (!xen_initial_domain() || !xenbus_local_ring(&port))
		return -ENODEV;
	return misc_register(&xb_backend_dev);
}
device_initcall(xb_backend_init);
