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
 * may make none.
 *
 * IOCTL_PRIVCMD_MMAPBATCH_V2 maps frames of another domain (the domain
 * builder's pages, a guest's console and xenstore rings) into a range
 * the caller mmapped from this file.  In a PV domain each frame goes
 * straight into the process's page-table entry, by an mmu_update that
 * names the frame's owner (the "foreign" domain): Xen checks the
 * caller may map that domain's memory.  A frame Xen refuses gets its
 * error in the caller's array and the others are mapped all the same.
 * munmap drops the frames as any entry is dropped.  MMAP_RESOURCE and
 * DM_OP are not here yet.
 */
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/page.h>
#include <xen/interface/xen.h>
#include <xen/xen.h>
#include <uapi/xen/privcmd.h>

#include "privcmd.h"

/* Frames one mmu_update takes. */
#define PRIVCMD_BATCH		64

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

static vm_fault_t privcmd_fault(struct vm_fault *vmf)
{
	/* A page of the range the caller did not map, or whose map failed. */
	return VM_FAULT_SIGBUS;
}

/*
 * The entries hold other domains' frames, which only an mmu_update that
 * names their owner may write: a change of protection would rewrite
 * them as this domain's, which Xen refuses.  Map again instead.
 */
static int privcmd_mprotect(struct vm_area_struct *vma, unsigned long start,
			    unsigned long end, unsigned long newflags)
{
	return -EACCES;
}

static const struct vm_operations_struct privcmd_vm_ops = {
	.fault		= privcmd_fault,
	.mprotect	= privcmd_mprotect,
};

static int privcmd_mmap(struct file *file, struct vm_area_struct *vma)
{
	if (!xen_pv_domain())
		return -ENODEV;	/* an HVM container needs unpopulated pages */
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	vm_flags_set(vma, VM_IO | VM_PFNMAP | VM_DONTCOPY | VM_DONTEXPAND |
			  VM_DONTDUMP);
	vma->vm_ops = &privcmd_vm_ops;
	return 0;
}

static int privcmd_pte_addr(pte_t *pte, unsigned long addr, void *data)
{
	u64 **next = data;

	*(*next)++ = arbitrary_virt_to_machine(pte) | MMU_NORMAL_PT_UPDATE;
	return 0;
}

/* A batch of entries for one foreign domain, as privcmd_spread_errors() runs it. */
struct privcmd_batch {
	struct mmu_update *req;
	domid_t dom;
};

static int privcmd_update(void *ctx, unsigned int first, unsigned int count,
			  unsigned int *done)
{
	struct privcmd_batch *b = ctx;

	return HYPERVISOR_mmu_update(b->req + first, count, done, b->dom);
}

/*
 * Map @n frames of @dom at @addr of @vma; each frame's result in @err.
 * Return: 0, or an error that stops the whole batch.
 */
static int privcmd_map_frames(struct vm_area_struct *vma, unsigned long addr,
			      const xen_pfn_t *frames, unsigned int n,
			      domid_t dom, int *err)
{
	u64 prot = (pgprot_val(vma->vm_page_prot) & __supported_pte_mask) |
		   _PAGE_SPECIAL;
	struct mmu_update req[PRIVCMD_BATCH];
	u64 ptes[PRIVCMD_BATCH], *next = ptes;
	struct privcmd_batch b = { .req = req, .dom = dom };
	unsigned int i;
	int rc;

	rc = apply_to_page_range(vma->vm_mm, addr, n << PAGE_SHIFT,
				 privcmd_pte_addr, &next);
	if (rc)
		return rc;
	for (i = 0; i < n; i++) {
		req[i].ptr = ptes[i];
		req[i].val = ((u64)frames[i] << PAGE_SHIFT) | prot;
	}
	/* Xen stops at the first frame it refuses: note it, go on after it. */
	privcmd_spread_errors(n, privcmd_update, &b, err);
	return 0;
}

/* The caller's privcmd range of @nr pages at @addr, under its mmap lock. */
static struct vm_area_struct *privcmd_range(struct mm_struct *mm,
					    unsigned long addr,
					    unsigned long nr)
{
	struct vm_area_struct *vma = vma_lookup(mm, addr);

	if (!vma || vma->vm_ops != &privcmd_vm_ops ||
	    (vma->vm_end - addr) >> PAGE_SHIFT < nr)
		return NULL;
	return vma;
}

static long privcmd_ioctl_mmapbatch(struct privcmd_file *f, void __user *arg)
{
	struct privcmd_mmapbatch_v2 m;
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	xen_pfn_t frames[PRIVCMD_BATCH];
	int err[PRIVCMD_BATCH];
	unsigned long addr;
	unsigned int i, j, n;
	bool paged = false;
	int rc;

	if (!xen_pv_domain())
		return -ENODEV;
	if (copy_from_user(&m, arg, sizeof(m)))
		return -EFAULT;
	if (f->domid != DOMID_INVALID && f->domid != m.dom)
		return -EPERM;
	if (!privcmd_batch_ok(m.num, m.addr))
		return -EINVAL;

	/* User memory is touched only without the mmap lock held. */
	for (i = 0; i < m.num; i += n) {
		n = min_t(unsigned int, PRIVCMD_BATCH, m.num - i);
		addr = m.addr + ((unsigned long)i << PAGE_SHIFT);
		if (copy_from_user(frames, m.arr + i, n * sizeof(frames[0])))
			return -EFAULT;
		mmap_read_lock(mm);
		vma = privcmd_range(mm, addr, n);
		rc = vma ? privcmd_map_frames(vma, addr, frames, n, m.dom, err) :
			   -EINVAL;
		mmap_read_unlock(mm);
		if (rc)
			return rc;
		if (copy_to_user(m.err + i, err, n * sizeof(err[0])))
			return -EFAULT;
		for (j = 0; j < n; j++)
			paged |= err[j] == -ENOENT;
	}
	return paged ? -ENOENT : 0;
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
	case IOCTL_PRIVCMD_MMAPBATCH_V2:
		return privcmd_ioctl_mmapbatch(f, (void __user *)arg);
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
	.mmap		= privcmd_mmap,
	.unlocked_ioctl	= privcmd_ioctl,
};
EXPORT_SYMBOL_GPL(xen_privcmd_fops);

static struct miscdevice privcmd_misc = {
	.name	= "xen/privcmd",
	.fops	= &xen_privcmd_fops,
	.minor	= MISC_DYNAMIC_MINOR,
};

static int __init privcmd_init(void)
{
	if (!xen_domain())
		return -ENODEV;
	return misc_register(&privcmd_misc);
}
module_init(privcmd_init);

static void __exit privcmd_exit(void)
{
	misc_deregister(&privcmd_misc);
}
module_exit(privcmd_exit);

MODULE_DESCRIPTION("Xen hypercalls for the toolstack (/dev/xen/privcmd)");
MODULE_LICENSE("GPL");
