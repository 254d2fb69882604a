// SPDX-License-Identifier: GPL-2.0
/*
 * xenfs: the files the Xen toolstack looks for in /proc/xen.
 *
 *   capabilities  "control_d" in the domain that controls the others
 *   privcmd       hypercalls, as /dev/xen/privcmd
 *   xenbus        xenstore, as /dev/xen/xenbus
 *   xsd_kva       (dom0) the page of dom0's own xenstore ring, to mmap
 *   xsd_port      (dom0) that ring's event channel, in decimal
 *
 * xenstored reads xsd_port and maps xsd_kva to serve dom0
 * (xenbus_probe.c); the others are where older tools look for what
 * /dev/xen now offers.
 */
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/init.h>
#include <linux/magic.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/string.h>
#include <xen/xenbus.h>
#include <xen/xen.h>

#include "../privcmd.h"
#include "../xenbus/xenbus.h"

#define XENFS_MAGIC	0xabba1974

static ssize_t xenfs_capabilities_read(struct file *file, char __user *buf,
				       size_t len, loff_t *ppos)
{
	const char *caps = xen_initial_domain() ? "control_d\n" : "";

	return simple_read_from_buffer(buf, len, ppos, caps, strlen(caps));
}

static const struct file_operations xenfs_capabilities_fops = {
	.read	= xenfs_capabilities_read,
	.llseek	= default_llseek,
};

static ssize_t xenfs_xsd_port_read(struct file *file, char __user *buf,
				   size_t len, loff_t *ppos)
{
	evtchn_port_t port;
	char text[16];

	if (!xenbus_local_ring(&port))
		return -ENODEV;
	snprintf(text, sizeof(text), "%u", port);
	return simple_read_from_buffer(buf, len, ppos, text, strlen(text));
}

static const struct file_operations xenfs_xsd_port_fops = {
	.read	= xenfs_xsd_port_read,
	.llseek	= default_llseek,
};

/* One page, shared, at offset 0: the ring itself. */
static int xenfs_xsd_kva_mmap(struct file *file, struct vm_area_struct *vma)
{
	return xenbus_local_ring_mmap(vma);
}

static const struct file_operations xenfs_xsd_kva_fops = {
	.mmap	= xenfs_xsd_kva_mmap,
	.llseek	= default_llseek,
};

static int xenfs_fill_super(struct super_block *sb, struct fs_context *fc)
{
	bool dom0 = xen_initial_domain();
	const struct tree_descr files[] = {
		[2] = { "xenbus", &xen_xenbus_fops, 0600 },
		{ "capabilities", &xenfs_capabilities_fops, 0444 },
		{ "privcmd", &xen_privcmd_fops, 0600 },
		{ dom0 ? "xsd_kva" : NULL, &xenfs_xsd_kva_fops, 0600 },
		{ dom0 ? "xsd_port" : NULL, &xenfs_xsd_port_fops, 0400 },
		{ "" },
	};

	return simple_fill_super(sb, XENFS_MAGIC, files);
}

/* One superblock for every mount: the files have no state of their own. */
static int xenfs_get_tree(struct fs_context *fc)
{
	return get_tree_single(fc, xenfs_fill_super);
}

static const struct fs_context_operations xenfs_context_ops = {
	.get_tree	= xenfs_get_tree,
};

static struct file_system_type xenfs_type = {
	.name			= "xenfs",
	.owner			= THIS_MODULE,
	.kill_sb		= kill_litter_super,
};

MODULE_ALIAS_FS("xenfs");

static int xenfs_init_fs_context(struct fs_context *fc)
{
	fc->ops = &xenfs_context_ops;
	return 0;
}

static int __init xenfs_init(void)
{
	if (!xen_domain())
		return 0;
	xenfs_type.init_fs_context = xenfs_init_fs_context;
	/* /proc/xen, where the toolstack mounts xenfs. */
	if (IS_ENABLED(CONFIG_XEN_COMPAT_XENFS))
		proc_create_mount_point("xen");
	return register_filesystem(&xenfs_type);
}
module_init(xenfs_init);

static void __exit xenfs_exit(void)
{
	if (xen_domain())
		unregister_filesystem(&xenfs_type);
}
module_exit(xenfs_exit);

MODULE_DESCRIPTION("Xen toolstack files (xenfs, /proc/xen)");
MODULE_LICENSE("GPL");
