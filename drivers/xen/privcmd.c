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
 * munmap drops the frames as any entry is dropped.
 *
 * IOCTL_PRIVCMD_MMAP_RESOURCE maps a resource Xen keeps for a domain (its
 * grant table, a device model's ioreq pages) the same way: Xen hands
 * out the frames (XENMEM_acquire_resource), owned by that domain.
 *
 * IOCTL_PRIVCMD_DM_OP passes a device model's operations on the domain
 * it serves to Xen (__HYPERVISOR_dm_op).  The buffers are copied in and
 * out, so Xen never works on user memory the process could unmap under
 * it; their number and sizes are bounded.
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
#include <xen/interface/hvm/dm_op.h>
#include <xen/interface/memory.h>
#include <xen/interface/xen.h>
#include <xen/xen-ops.h>
#include <xen/xen.h>
#include <uapi/xen/privcmd.h>

#include "privcmd.h"

/* Frames one mmu_update takes. */
#define PRIVCMD_BATCH		64

/* Frames one MMAP_RESOURCE maps at most: 4 MiB. */
#define PRIVCMD_RESOURCE_MAX	1024

/* A DM_OP's buffers, and the size of each, at most. */
#define PRIVCMD_DM_OP_BUFS	16
#define PRIVCMD_DM_OP_BUF_SIZE	PAGE_SIZE

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
	long ret;

	if (f->domid != DOMID_INVALID)
		return -EPERM;
	if (copy_from_user(&call, arg, sizeof(call)))
		return -EFAULT;
	if (call.op >= PRIVCMD_NR_HYPERCALLS)
		return -EINVAL;
	/* A domain's destruction may take seconds: let others run. */
	xen_preemptible_hcall_begin();
	ret = xen_hypercall_any(call.op, call.arg[0], call.arg[1],
				call.arg[2], call.arg[3], call.arg[4]);
	xen_preemptible_hcall_end();
	return ret;
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
 * The frames are @dom's own numbers (gfns of an HVM domain), or machine
 * frames when @machine (what XENMEM_acquire_resource hands out).
 * Return: 0, or an error that stops the whole batch.
 */
static int privcmd_map_frames(struct vm_area_struct *vma, unsigned long addr,
			      const xen_pfn_t *frames, unsigned int n,
			      domid_t dom, bool machine, int *err)
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
		req[i].ptr = ptes[i] | (machine ? MMU_PT_UPDATE_NO_TRANSLATE : 0);
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
		rc = -EINVAL;
		if (vma)
			rc = privcmd_map_frames(vma, addr, frames, n, m.dom,
						false, err);
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

static long privcmd_ioctl_mmap_resource(struct privcmd_file *f,
					struct privcmd_mmap_resource __user *arg)
{
	struct privcmd_mmap_resource r;
	struct xen_mem_acquire_resource x = {};
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	xen_pfn_t *frames;
	unsigned int i, n;
	int *err;
	long rc;

	if (copy_from_user(&r, arg, sizeof(r)))
		return -EFAULT;
	if (f->domid != DOMID_INVALID && f->domid != r.dom)
		return -EPERM;
	x.domid = r.dom;
	x.type = r.type;
	x.id = r.id;
	/* No address and no frames: how many frames the resource has. */
	if (!r.addr && !r.num) {
		rc = HYPERVISOR_memory_op(XENMEM_acquire_resource, &x);
		if (rc)
			return rc;
		r.num = x.nr_frames;
		return put_user(r.num, &arg->num) ? -EFAULT : 0;
	}
	if (!xen_pv_domain())
		return -ENODEV;
	if (!r.num || r.num > PRIVCMD_RESOURCE_MAX || !PAGE_ALIGNED(r.addr))
		return -EINVAL;
	frames = kcalloc(r.num, sizeof(*frames), GFP_KERNEL);
	err = kcalloc(r.num, sizeof(*err), GFP_KERNEL);
	rc = -ENOMEM;
	if (!frames || !err)
		goto out;
	x.nr_frames = r.num;
	x.frame = r.idx;
	x.frame_list = frames;
	rc = HYPERVISOR_memory_op(XENMEM_acquire_resource, &x);
	if (rc)
		goto out;

	mmap_read_lock(mm);
	vma = privcmd_range(mm, r.addr, r.num);
	rc = vma ? 0 : -EINVAL;
	for (i = 0; !rc && i < r.num; i += n) {
		n = min_t(unsigned int, PRIVCMD_BATCH, r.num - i);
		rc = privcmd_map_frames(vma, r.addr + ((unsigned long)i << PAGE_SHIFT),
					frames + i, n, r.dom, true, err + i);
	}
	mmap_read_unlock(mm);
	for (i = 0; !rc && i < r.num; i++)
		rc = err[i];
out:
	kfree(frames);
	kfree(err);
	return rc;
}

static long privcmd_ioctl_dm_op(struct privcmd_file *f,
				struct privcmd_dm_op __user *arg)
{
	struct privcmd_dm_op_buf ubufs[PRIVCMD_DM_OP_BUFS];
	struct xen_dm_op_buf kbufs[PRIVCMD_DM_OP_BUFS] = {};
	struct privcmd_dm_op op;
	unsigned int i;
	long rc;

	if (copy_from_user(&op, arg, sizeof(op)))
		return -EFAULT;
	if (f->domid != DOMID_INVALID && f->domid != op.dom)
		return -EPERM;
	if (!op.num)
		return -EINVAL;
	if (op.num > PRIVCMD_DM_OP_BUFS)
		return -E2BIG;
	if (copy_from_user(ubufs, op.ubufs, op.num * sizeof(ubufs[0])))
		return -EFAULT;
	for (i = 0; i < op.num; i++) {
		rc = -E2BIG;
		if (ubufs[i].size > PRIVCMD_DM_OP_BUF_SIZE)
			goto out;
		kbufs[i].size = ubufs[i].size;
		kbufs[i].h = memdup_user(ubufs[i].uptr, ubufs[i].size);
		if (IS_ERR(kbufs[i].h)) {
			rc = PTR_ERR(kbufs[i].h);
			kbufs[i].h = NULL;
			goto out;
		}
	}
	rc = HYPERVISOR_dm_op(op.dom, op.num, kbufs);
	/*
	 * Xen writes its answers into the buffers, on failure too.  A
	 * buffer the caller cannot have written back was one for input
	 * only: Xen's answer stands.
	 */
	for (i = 0; i < op.num; i++)
		if (copy_to_user(ubufs[i].uptr, kbufs[i].h, kbufs[i].size))
			pr_debug("privcmd: dm_op buffer %u not written back\n", i);
out:
	for (i = 0; i < op.num; i++)
		kfree(kbufs[i].h);
	return rc;
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
	case IOCTL_PRIVCMD_MMAP_RESOURCE:
		return privcmd_ioctl_mmap_resource(f, (void __user *)arg);
	case IOCTL_PRIVCMD_DM_OP:
		return privcmd_ioctl_dm_op(f, (void __user *)arg);
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
	int rc;

	if (!xen_domain())
		return -ENODEV;
	rc = misc_register(&privcmd_misc);
	if (rc)
		return rc;
	rc = misc_register(&privcmd_buf_misc);
	if (rc)
		misc_deregister(&privcmd_misc);
	return rc;
}
module_init(privcmd_init);

static void __exit privcmd_exit(void)
{
	misc_deregister(&privcmd_buf_misc);
	misc_deregister(&privcmd_misc);
}
module_exit(privcmd_exit);

MODULE_DESCRIPTION("Xen hypercalls for the toolstack (/dev/xen/privcmd)");
MODULE_LICENSE("GPL");
