// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/xen/gntalloc: pages a process shares with another domain.
 *
 * IOCTL_GNTALLOC_ALLOC_GREF allocates zeroed pages, grants each to the
 * domain named (read-only unless GNTALLOC_FLAG_WRITABLE) and returns the
 * grant references and an offset; mmap of the file at that offset maps
 * the pages into the process, which fills them for the other domain to
 * map (libxenvchan and the like).  IOCTL_GNTALLOC_DEALLOC_GREF ends the
 * grants once nothing maps them here; IOCTL_GNTALLOC_SET_UNMAP_NOTIFY
 * asks for a byte to be cleared, or an event sent, when the process
 * unmaps them, so that the other domain learns this end is gone.
 *
 * A page leaves the kernel's hands only when the other domain has
 * unmapped it too: gnttab_end_foreign_access() frees it then, however
 * long the other domain keeps it.
 *
 * Locking: gntalloc_file.lock (a mutex) protects the file's list of
 * blocks.  A block is freed when its last reference goes: one for being
 * allocated (until DEALLOC or close) and one for each VMA that maps it.
 */
#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <xen/events.h>
#include <xen/grant_table.h>
#include <xen/page.h>
#include <xen/xen.h>
#include <uapi/xen/gntalloc.h>

static unsigned int limit = 1024;
module_param(limit, uint, 0644);
MODULE_PARM_DESC(limit,
		 "Pages all processes together may have granted through gntalloc (default 1024)");

static atomic_t gntalloc_pages = ATOMIC_INIT(0);

/**
 * struct gntalloc_block - the pages of one ALLOC ioctl
 * @list: on gntalloc_file.blocks while allocated
 * @index: its first page in the file's offsets
 * @count: pages
 * @refs: its references: one while allocated, one per VMA
 * @notify_action: UNMAP_NOTIFY_* to do at the last unmap
 * @notify_offset: the byte UNMAP_NOTIFY_CLEAR_BYTE clears, from the
 *	block's start
 * @notify_port: the port UNMAP_NOTIFY_SEND_EVENT signals
 * @pages: the pages
 * @grefs: the grant reference of each
 */
struct gntalloc_block {
	struct list_head list;
	u64 index;
	unsigned int count;
	refcount_t refs;
	unsigned int notify_action;
	unsigned int notify_offset;
	evtchn_port_t notify_port;
	struct page **pages;
	grant_ref_t *grefs;
};

/**
 * struct gntalloc_file - one open /dev/xen/gntalloc
 * @lock: see the file comment
 * @blocks: allocated blocks, by rising index
 * @next_index: the offset (in pages) the next block gets
 */
struct gntalloc_file {
	struct mutex lock;	/* see above */
	struct list_head blocks;
	u64 next_index;
};

/*
 * The last reference: tell the other domain as asked, then end the
 * grants (each page freed once the other domain lets go).
 */
static void gntalloc_block_free(struct gntalloc_block *b)
{
	unsigned int i;

	if (b->notify_action & UNMAP_NOTIFY_CLEAR_BYTE)
		((u8 *)page_address(b->pages[b->notify_offset >> PAGE_SHIFT]))
			[b->notify_offset & ~PAGE_MASK] = 0;
	if (b->notify_action & UNMAP_NOTIFY_SEND_EVENT)
		notify_remote_via_evtchn(b->notify_port);

	/* A block whose arrays could not be had holds no page. */
	for (i = 0; b->pages && b->grefs && i < b->count; i++) {
		if (b->grefs[i] != INVALID_GRANT_REF)
			gnttab_end_foreign_access(b->grefs[i], b->pages[i]);
		else if (b->pages[i])
			__free_page(b->pages[i]);
	}
	atomic_sub(b->count, &gntalloc_pages);
	kvfree(b->pages);
	kvfree(b->grefs);
	kfree(b);
}

static void gntalloc_block_put(struct gntalloc_block *b)
{
	if (refcount_dec_and_test(&b->refs))
		gntalloc_block_free(b);
}

/*
 * A block of @count granted pages, counted against the limit until it is
 * freed.  Return: the block, or ERR_PTR(-ENOSPC or -ENOMEM).
 */
static struct gntalloc_block *gntalloc_block_alloc(domid_t domid,
						   unsigned int count,
						   bool readonly)
{
	struct gntalloc_block *b;
	unsigned int i;
	int ref;

	if (count > READ_ONCE(limit))
		return ERR_PTR(-ENOSPC);
	if (atomic_add_return(count, &gntalloc_pages) > READ_ONCE(limit)) {
		atomic_sub(count, &gntalloc_pages);
		return ERR_PTR(-ENOSPC);
	}
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b) {
		atomic_sub(count, &gntalloc_pages);
		return ERR_PTR(-ENOMEM);
	}
	/* From here gntalloc_block_free() undoes whatever was done. */
	b->count = count;
	refcount_set(&b->refs, 1);
	b->pages = kvcalloc(count, sizeof(*b->pages), GFP_KERNEL);
	b->grefs = kvmalloc_array(count, sizeof(*b->grefs), GFP_KERNEL);
	if (!b->pages || !b->grefs)
		goto fail;
	for (i = 0; i < count; i++)
		b->grefs[i] = INVALID_GRANT_REF;
	for (i = 0; i < count; i++) {
		b->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!b->pages[i])
			goto fail;
		ref = gnttab_grant_foreign_access(domid,
						  xen_page_to_gfn(b->pages[i]),
						  readonly);
		if (ref < 0)
			goto fail;
		b->grefs[i] = ref;
	}
	return b;
fail:
	gntalloc_block_free(b);
	return ERR_PTR(-ENOMEM);
}

/* The block that starts at page offset @index, or NULL; f->lock held. */
static struct gntalloc_block *gntalloc_find(struct gntalloc_file *f, u64 index)
{
	struct gntalloc_block *b;

	list_for_each_entry(b, &f->blocks, list)
		if (b->index == index)
			return b;
	return NULL;
}

static long gntalloc_ioctl_alloc(struct gntalloc_file *f,
				 struct ioctl_gntalloc_alloc_gref __user *arg)
{
	struct ioctl_gntalloc_alloc_gref op;
	struct gntalloc_block *b;
	long rc;

	if (copy_from_user(&op, arg, offsetof(typeof(op), gref_ids)))
		return -EFAULT;
	if (!op.count || op.flags & ~GNTALLOC_FLAG_WRITABLE)
		return -EINVAL;
	b = gntalloc_block_alloc(op.domid, op.count,
				 !(op.flags & GNTALLOC_FLAG_WRITABLE));
	if (IS_ERR(b))
		return PTR_ERR(b);

	/* User memory is touched only without f->lock (see mmap). */
	rc = -EFAULT;
	if (copy_to_user(arg->gref_ids, b->grefs,
			 array_size(op.count, sizeof(b->grefs[0]))))
		goto put;
	mutex_lock(&f->lock);
	b->index = f->next_index;
	f->next_index += op.count;
	list_add_tail(&b->list, &f->blocks);
	op.index = b->index << PAGE_SHIFT;
	mutex_unlock(&f->lock);
	if (!put_user(op.index, &arg->index))
		return 0;
	/* Unknown to the caller: take it back, unless already gone. */
	mutex_lock(&f->lock);
	if (gntalloc_find(f, op.index >> PAGE_SHIFT) == b)
		list_del(&b->list);
	else
		b = NULL;
	mutex_unlock(&f->lock);
put:
	if (b)
		gntalloc_block_put(b);
	return rc;
}

static long gntalloc_ioctl_dealloc(struct gntalloc_file *f,
				   struct ioctl_gntalloc_dealloc_gref __user *arg)
{
	struct ioctl_gntalloc_dealloc_gref op;
	struct gntalloc_block *b;

	if (copy_from_user(&op, arg, sizeof(op)))
		return -EFAULT;
	if (op.index & ~PAGE_MASK)
		return -EINVAL;
	mutex_lock(&f->lock);
	b = gntalloc_find(f, op.index >> PAGE_SHIFT);
	if (b && b->count == op.count)
		list_del(&b->list);
	else
		b = NULL;
	mutex_unlock(&f->lock);
	if (!b)
		return -ENOENT;
	gntalloc_block_put(b);
	return 0;
}

static long gntalloc_ioctl_notify(struct gntalloc_file *f,
				  struct ioctl_gntalloc_unmap_notify __user *arg)
{
	struct ioctl_gntalloc_unmap_notify op;
	struct gntalloc_block *b;
	u64 page;
	long rc = -ENOENT;

	if (copy_from_user(&op, arg, sizeof(op)))
		return -EFAULT;
	if (op.action & ~(UNMAP_NOTIFY_CLEAR_BYTE | UNMAP_NOTIFY_SEND_EVENT))
		return -EINVAL;
	page = op.index >> PAGE_SHIFT;
	mutex_lock(&f->lock);
	list_for_each_entry(b, &f->blocks, list) {
		if (page < b->index || page >= b->index + b->count)
			continue;
		b->notify_action = op.action;
		b->notify_offset = op.index - (b->index << PAGE_SHIFT);
		b->notify_port = op.event_channel_port;
		rc = 0;
		break;
	}
	mutex_unlock(&f->lock);
	return rc;
}

static long gntalloc_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	struct gntalloc_file *f = file->private_data;
	void __user *p = (void __user *)arg;

	switch (cmd) {
	case IOCTL_GNTALLOC_ALLOC_GREF:
		return gntalloc_ioctl_alloc(f, p);
	case IOCTL_GNTALLOC_DEALLOC_GREF:
		return gntalloc_ioctl_dealloc(f, p);
	case IOCTL_GNTALLOC_SET_UNMAP_NOTIFY:
		return gntalloc_ioctl_notify(f, p);
	default:
		return -ENOTTY;
	}
}

/* Each VMA holds a reference, a copy (fork, mremap) as well. */
static void gntalloc_vma_open(struct vm_area_struct *vma)
{
	struct gntalloc_block *b = vma->vm_private_data;

	refcount_inc(&b->refs);
}

static void gntalloc_vma_close(struct vm_area_struct *vma)
{
	gntalloc_block_put(vma->vm_private_data);
}

/* One VMA, one block: never split or moved. */
static int gntalloc_vma_may_split(struct vm_area_struct *vma,
				  unsigned long addr)
{
	return -EINVAL;
}

static int gntalloc_vma_mremap(struct vm_area_struct *vma)
{
	return -EINVAL;
}

static const struct vm_operations_struct gntalloc_vm_ops = {
	.open = gntalloc_vma_open,
	.close = gntalloc_vma_close,
	.may_split = gntalloc_vma_may_split,
	.mremap = gntalloc_vma_mremap,
};

static int gntalloc_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct gntalloc_file *f = file->private_data;
	unsigned long pages = vma_pages(vma);
	struct gntalloc_block *b;
	int rc = -EINVAL;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	mutex_lock(&f->lock);
	b = gntalloc_find(f, vma->vm_pgoff);
	if (!b || pages != b->count)
		goto out;
	vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
	rc = vm_map_pages_zero(vma, b->pages, b->count);
	if (rc)
		goto out;
	refcount_inc(&b->refs);
	vma->vm_private_data = b;
	vma->vm_ops = &gntalloc_vm_ops;
out:
	mutex_unlock(&f->lock);
	return rc;
}

static int gntalloc_open(struct inode *inode, struct file *file)
{
	struct gntalloc_file *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	mutex_init(&f->lock);
	INIT_LIST_HEAD(&f->blocks);
	file->private_data = f;
	return 0;
}

/* Blocks still mapped live on until their VMAs close. */
static int gntalloc_release(struct inode *inode, struct file *file)
{
	struct gntalloc_file *f = file->private_data;
	struct gntalloc_block *b, *next;

	list_for_each_entry_safe(b, next, &f->blocks, list) {
		list_del(&b->list);
		gntalloc_block_put(b);
	}
	kfree(f);
	return 0;
}

static const struct file_operations gntalloc_fops = {
	.owner		= THIS_MODULE,
	.open		= gntalloc_open,
	.release	= gntalloc_release,
	.mmap		= gntalloc_mmap,
	.unlocked_ioctl	= gntalloc_ioctl,
};

static struct miscdevice gntalloc_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "xen/gntalloc",
	.fops	= &gntalloc_fops,
};

static int __init gntalloc_init(void)
{
	if (!xen_domain())
		return -ENODEV;
	return misc_register(&gntalloc_dev);
}
module_init(gntalloc_init);

static void __exit gntalloc_exit(void)
{
	misc_deregister(&gntalloc_dev);
}
module_exit(gntalloc_exit);

MODULE_DESCRIPTION("Pages shared with other domains from user space (/dev/xen/gntalloc)");
MODULE_LICENSE("GPL");
