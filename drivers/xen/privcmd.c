// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/xen/privcmd: hypercalls on behalf of the toolstack (libxencall
 * and the libraries above it: xl, xenstored, xenconsoled).
 *
 * IOCTL_PRIVCMD_HYPERCALL makes any hypercall with the caller's
 * arguments: Xen checks what this domain may do, and pointers in the
 * arguments are the caller's user addresses, which Xen reads and writes
 * through the page tables it finds, as it does the kernel's.  A file
 * restricted to one domain (IOCTL_PRIVCMD_RESTRICT, for device models)
 * may make none.  The mapping of other domains' memory (MMAPBATCH_V2,
 * MMAP_RESOURCE) and DM_OP are not here yet.
 */
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <asm/xen/hypercall.h>
#include <xen/interface/xen.h>
#include <xen/xen.h>
#include <uapi/xen/privcmd.h>

#include "privcmd.h"

/* The hypercalls a page of stubs can hold. */
#define PRIVCMD_NR_HYPERCALLS	(PAGE_SIZE / XEN_HYPERCALL_STUB_SIZE)

/**
 * struct privcmd_file - one open privcmd file
 * @domid: the domain it is restricted to, or DOMID_INVALID
 */
struct privcmd_file {
	domid_t domid;
};

static long privcmd_ioctl_hypercall(struct privcmd_file *f, void __user *arg)
{
	struct privcmd_hypercall call;

	if (f->domid != DOMID_INVALID)
		return -EPERM;
	if (copy_from_user(&call, arg, sizeof(call)))
		return -EFAULT;
	if (call.op >= PRIVCMD_NR_HYPERCALLS)
		return -EINVAL;
	return xen_hypercall_any(call.op, call.arg[0], call.arg[1],
				 call.arg[2], call.arg[3], call.arg[4]);
}

static long privcmd_ioctl_restrict(struct privcmd_file *f, void __user *arg)
{
	domid_t domid;

	if (copy_from_user(&domid, arg, sizeof(domid)))
		return -EFAULT;
	if (domid >= DOMID_FIRST_RESERVED)
		return -EINVAL;
	if (f->domid != DOMID_INVALID && f->domid != domid)
		return -EINVAL;
	f->domid = domid;
	return 0;
}

static long privcmd_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	struct privcmd_file *f = file->private_data;

	switch (cmd) {
	case IOCTL_PRIVCMD_HYPERCALL:
		return privcmd_ioctl_hypercall(f, (void __user *)arg);
	case IOCTL_PRIVCMD_RESTRICT:
		return privcmd_ioctl_restrict(f, (void __user *)arg);
	default:
		return -ENOTTY;
	}
}

static int privcmd_open(struct inode *inode, struct file *file)
{
	struct privcmd_file *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	f->domid = DOMID_INVALID;
	file->private_data = f;
	return 0;
}

static int privcmd_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

/* Also the "privcmd" file of xenfs. */
const struct file_operations xen_privcmd_fops = {
	.owner		= THIS_MODULE,
	.open		= privcmd_open,
	.release	= privcmd_release,
	.unlocked_ioctl	= privcmd_ioctl,
};
EXPORT_SYMBOL_GPL(xen_privcmd_fops);

static struct miscdevice privcmd_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "xen/privcmd",
	.fops	= &xen_privcmd_fops,
};

static int __init privcmd_init(void)
{
	if (!xen_domain())
		return -ENODEV;
	return misc_register(&privcmd_dev);
}
module_init(privcmd_init);

static void __exit privcmd_exit(void)
{
	misc_deregister(&privcmd_dev);
}
module_exit(privcmd_exit);

MODULE_DESCRIPTION("Xen hypercalls for the toolstack (/dev/xen/privcmd)");
MODULE_LICENSE("GPL");
