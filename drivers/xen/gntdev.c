// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/xen/gntdev: other domains' granted pages, mapped into a process
 * (libxengnttab: xenstored and xenconsoled map the rings of the guests
 * they serve).
 *
 * A process names the grants (IOCTL_GNTDEV_MAP_GRANT_REF) and gets an
 * offset, then mmaps that offset of the file.  In a PV domain, Xen
 * writes each grant's frame straight into the process's page-table
 * entry (GNTTABOP_map_grant_ref with GNTMAP_contains_pte), so no page
 * of this domain stands behind it.
 *
 * Xen treats an entry that maps a grant as the grant's: a page-table
 * update that drops it is refused (a debug Xen raises a fault in the
 * kernel) or leaves the grant in use for good.  So every way the
 * process can lose the mapping (munmap, exit, a failed mmap, mremap)
 * first runs the mapping's MMU interval notifier, which unmaps the
 * grants through Xen and leaves the entries empty; the VMA cannot be
 * split, moved, copied on fork or grown.
 *
 * Trust: the other domain may revoke nothing it granted while mapped;
 * Xen refuses a map of a grant that is not there (its status goes back
 * as the error) and keeps the frame until it is unmapped.  User space
 * is not trusted either: counts are bounded, offsets checked.
 *
 * Locking: gntdev_file.lock (mutex) guards the file's list of maps; mmap
 * takes it under the mmap lock, so nothing touches user memory with it
 * held.  gntdev_map.lock (spinlock) guards a mapping's handles and VMA
 * between mmap, close and the notifier, which may run in any context.
 */
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/page.h>
#include <xen/page.h>
#include <xen/events.h>
#include <xen/grant_table.h>
#include <xen/interface/grant_table.h>
#include <xen/xen.h>
#include <uapi/xen/gntdev.h>

static unsigned int limit = 65536;
module_param(limit, uint, 0644);
MODULE_PARM_DESC(limit,
		 "Grants one open file may have mapped at once (default 65536)");

/* Grants a single map ioctl may name: 1 GiB. */
#define GNTDEV_MAX_COUNT	(SZ_1G / PAGE_SIZE)
#define GNTDEV_BATCH		32
#define GNTDEV_NO_HANDLE	((grant_handle_t)~0U)

/**
 * struct gntdev_map - the grants of one map ioctl
 * @list: on gntdev_file.maps
 * @index: its first page in the file's offsets
 * @count: pages
 * @refs: the grants
 * @handles: Xen's handle of each mapped grant, GNTDEV_NO_HANDLE if not
 * @ptes: machine address of the entry each grant is mapped at
 * @lock: see the file comment
 * @vma: where it is mmapped, NULL if not
 * @notifier: runs before the process loses the mapping
 * @notify_action: UNMAP_NOTIFY_* to do when the grants are unmapped
 * @notify_offset: the byte UNMAP_NOTIFY_CLEAR_BYTE clears
 * @notify_port: the port UNMAP_NOTIFY_SEND_EVENT signals
 */
struct gntdev_map {
	struct list_head list;
	u64 index;
	unsigned int count;
	struct ioctl_gntdev_grant_ref *refs;
	grant_handle_t *handles;
	u64 *ptes;
	spinlock_t lock;	/* see above */
	struct vm_area_struct *vma;
	struct mmu_interval_notifier notifier;
	unsigned int notify_action;
	u64 notify_offset;
	evtchn_port_t notify_port;
};

/**
 * struct gntdev_file - one open /dev/xen/gntdev
 * @lock: see the file comment
 * @maps: its maps, by rising @index
 * @mapped: grants named by its maps
 */
struct gntdev_file {
	struct mutex lock;	/* see above */
	struct list_head maps;
	unsigned int mapped;
};

static void gntdev_map_free(struct gntdev_map *map)
{
	kvfree(map->refs);
	kvfree(map->handles);
	kvfree(map->ptes);
	kfree(map);
}

/*
 * Send what was asked for on unmap, once: the other end learns we left.
 * The byte is cleared by a grant copy into the other domain's page, not
 * through the process's mapping: the process may be exiting, its memory
 * no longer current, or the entry already gone.
 */
static void gntdev_unmap_notify(struct gntdev_map *map)
{
	const struct ioctl_gntdev_grant_ref *ref;
	struct gnttab_copy op = {};

	if (map->notify_action & UNMAP_NOTIFY_CLEAR_BYTE) {
		ref = &map->refs[map->notify_offset >> PAGE_SHIFT];
		op.source.u.gmfn = xen_page_to_gfn(ZERO_PAGE(0));
		op.source.domid = DOMID_SELF;
		op.dest.u.ref = ref->ref;
		op.dest.domid = ref->domid;
		op.dest.offset = map->notify_offset & ~PAGE_MASK;
		op.len = 1;
		op.flags = GNTCOPY_dest_gref;
		if (HYPERVISOR_grant_table_op(GNTTABOP_copy, &op, 1) ||
		    op.status != GNTST_okay)
			pr_debug("gntdev: byte to clear in grant %u of domain %u: %d\n",
				 ref->ref, ref->domid, op.status);
	}
	if (map->notify_action & UNMAP_NOTIFY_SEND_EVENT)
		notify_remote_via_evtchn(map->notify_port);
	map->notify_action = 0;
}

/* Unmap the mapped grants among pages [@first, @first + @n) of @map. */
static void gntdev_unmap_grants(struct gntdev_map *map, unsigned int first,
				unsigned int n)
{
	struct gnttab_unmap_grant_ref op[GNTDEV_BATCH];
	unsigned int i, k = 0, slot[GNTDEV_BATCH];
	int rc;

	lockdep_assert_held(&map->lock);
	for (i = first; i < first + n; i++) {
		if (map->handles[i] != GNTDEV_NO_HANDLE) {
			op[k] = (struct gnttab_unmap_grant_ref){
				.host_addr = map->ptes[i],
				.handle = map->handles[i],
			};
			slot[k++] = i;
		}
		if (k == GNTDEV_BATCH || (k && i == first + n - 1)) {
			rc = HYPERVISOR_grant_table_op(GNTTABOP_unmap_grant_ref,
						       op, k);
			while (k--) {
				if (!rc && op[k].status == GNTST_okay)
					map->handles[slot[k]] = GNTDEV_NO_HANDLE;
				else
					pr_warn_ratelimited("gntdev: grant %u of domain %u not unmapped: %d/%d\n",
							    map->refs[slot[k]].ref,
							    map->refs[slot[k]].domid,
							    rc, op[k].status);
			}
			k = 0;
		}
	}
}

static bool gntdev_invalidate(struct mmu_interval_notifier *mn,
			      const struct mmu_notifier_range *range,
			      unsigned long cur_seq)
{
	struct gntdev_map *map = container_of(mn, struct gntdev_map, notifier);
	unsigned long start, end, base, flags;

	spin_lock_irqsave(&map->lock, flags);
	mmu_interval_set_seq(mn, cur_seq);
	if (map->vma) {
		base = map->vma->vm_start;
		start = max(range->start, base);
		end = min(range->end, base + ((unsigned long)map->count << PAGE_SHIFT));
		if (start < end) {
			gntdev_unmap_grants(map, (start - base) >> PAGE_SHIFT,
					    (end - start) >> PAGE_SHIFT);
			/* Once the grants are unmapped: the peer may reuse them. */
			if (map->notify_action)
				gntdev_unmap_notify(map);
		}
	}
	spin_unlock_irqrestore(&map->lock, flags);
	return true;
}

static const struct mmu_interval_notifier_ops gntdev_notifier_ops = {
	.invalidate = gntdev_invalidate,
};

/* Record each entry's machine address; the tables exist once this runs. */
static int gntdev_pte_addr(pte_t *pte, unsigned long addr, void *data)
{
	struct gntdev_map *map = data;
	unsigned int i = (addr - map->vma->vm_start) >> PAGE_SHIFT;

	map->ptes[i] = arbitrary_virt_to_machine(pte);
	return 0;
}

/* Map every grant of @map at its entry; 0 or the first failure's errno. */
static int gntdev_map_grants(struct gntdev_map *map, bool readonly)
{
	struct gnttab_map_grant_ref op[GNTDEV_BATCH];
	unsigned int i, j, n;
	int rc = 0, err;

	for (i = 0; i < map->count; i += n) {
		n = min_t(unsigned int, GNTDEV_BATCH, map->count - i);
		for (j = 0; j < n; j++)
			op[j] = (struct gnttab_map_grant_ref){
				.host_addr = map->ptes[i + j],
				.flags = GNTMAP_host_map |
					 GNTMAP_application_map |
					 GNTMAP_contains_pte |
					 (readonly ? GNTMAP_readonly : 0),
				.ref = map->refs[i + j].ref,
				.dom = map->refs[i + j].domid,
			};
		err = HYPERVISOR_grant_table_op(GNTTABOP_map_grant_ref, op, n);
		for (j = 0; j < n; j++) {
			if (!err && op[j].status == GNTST_okay) {
				map->handles[i + j] = op[j].handle;
			} else if (!rc) {
				pr_info_ratelimited("gntdev: Xen would not map grant %u of domain %u: %d/%d\n",
						    op[j].ref, op[j].dom, err,
						    op[j].status);
				rc = err ?: -EFAULT;
			}
		}
	}
	return rc;
}

/*
 * The notifier ran for the whole range before the VMA went.  Only the
 * VMA the map was mmapped at owns it: a copy mremap made and then
 * closed (gntdev_vma_mremap()) does not.
 */
static void gntdev_vma_close(struct vm_area_struct *vma)
{
	struct gntdev_map *map = vma->vm_private_data;
	unsigned long flags;

	if (READ_ONCE(map->vma) != vma)
		return;
	mmu_interval_notifier_remove(&map->notifier);
	spin_lock_irqsave(&map->lock, flags);
	map->vma = NULL;
	spin_unlock_irqrestore(&map->lock, flags);
}

/*
 * A move: the notifier has unmapped the grants from the old range, and
 * the entries come back empty.  Refused, so the VMA stays where it was
 * (its pages fault with SIGBUS until it is unmapped).
 */
static int gntdev_vma_mremap(struct vm_area_struct *vma)
{
	return -EINVAL;
}

static int gntdev_vma_may_split(struct vm_area_struct *vma, unsigned long addr)
{
	return -EINVAL;
}

static const struct vm_operations_struct gntdev_vm_ops = {
	.close		= gntdev_vma_close,
	.may_split	= gntdev_vma_may_split,
	.mremap		= gntdev_vma_mremap,
};

/*
 * Whether @map is mmapped, and where (@start), read under its lock: a
 * close that is clearing it has finished with the map once this returns.
 */
static bool gntdev_mapped_at(struct gntdev_map *map, unsigned long *start)
{
	unsigned long flags;
	bool mapped;

	spin_lock_irqsave(&map->lock, flags);
	mapped = map->vma;
	if (mapped)
		*start = map->vma->vm_start;
	spin_unlock_irqrestore(&map->lock, flags);
	return mapped;
}

static struct gntdev_map *gntdev_find(struct gntdev_file *f, u64 index,
				      unsigned int count)
{
	struct gntdev_map *map;

	list_for_each_entry(map, &f->maps, list)
		if (map->index == index && map->count == count)
			return map;
	return NULL;
}

static int gntdev_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct gntdev_file *f = file->private_data;
	unsigned long count = vma_pages(vma), flags;
	struct gntdev_map *map;
	int rc;

	if (!xen_pv_domain())
		return -ENODEV;	/* an HVM container needs unpopulated pages */
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	mutex_lock(&f->lock);
	map = gntdev_find(f, vma->vm_pgoff, count);
	rc = -EINVAL;
	if (!map)
		goto out;
	rc = -EBUSY;
	if (map->vma)
		goto out;

	vm_flags_set(vma, VM_PFNMAP | VM_IO | VM_DONTCOPY | VM_DONTEXPAND |
			  VM_DONTDUMP);
	vma->vm_ops = &gntdev_vm_ops;
	vma->vm_private_data = map;
	map->vma = vma;
	rc = apply_to_page_range(vma->vm_mm, vma->vm_start,
				 vma->vm_end - vma->vm_start, gntdev_pte_addr,
				 map);
	if (rc)
		goto undo;
	rc = mmu_interval_notifier_insert_locked(&map->notifier, vma->vm_mm,
						 vma->vm_start,
						 vma->vm_end - vma->vm_start,
						 &gntdev_notifier_ops);
	if (rc)
		goto undo;
	rc = gntdev_map_grants(map, !(vma->vm_flags & VM_WRITE));
	if (!rc) {
		mutex_unlock(&f->lock);
		return 0;
	}
	/* A failed mmap is unmapped without a close: undo it all here. */
	spin_lock_irqsave(&map->lock, flags);
	gntdev_unmap_grants(map, 0, map->count);
	spin_unlock_irqrestore(&map->lock, flags);
	mmu_interval_notifier_remove(&map->notifier);
undo:
	spin_lock_irqsave(&map->lock, flags);
	map->vma = NULL;
	spin_unlock_irqrestore(&map->lock, flags);
	vma->vm_ops = NULL;
	vma->vm_private_data = NULL;
out:
	mutex_unlock(&f->lock);
	return rc;
}

/*
 * The ioctls copy from and to user space without gntdev_file.lock held:
 * mmap takes it under the mmap lock, which a fault on user memory may
 * need.
 */
static long gntdev_ioctl_map(struct gntdev_file *f,
			     struct ioctl_gntdev_map_grant_ref __user *arg)
{
	struct ioctl_gntdev_map_grant_ref head;
	struct gntdev_map *map, *pos;
	u64 index = 0;
	unsigned int i;

	if (copy_from_user(&head, arg, sizeof(head)))
		return -EFAULT;
	if (!head.count || head.count > GNTDEV_MAX_COUNT)
		return -EINVAL;

	map = kzalloc(sizeof(*map), GFP_KERNEL);
	if (!map)
		return -ENOMEM;
	map->count = head.count;
	map->refs = kvcalloc(head.count, sizeof(*map->refs), GFP_KERNEL);
	map->handles = kvcalloc(head.count, sizeof(*map->handles), GFP_KERNEL);
	map->ptes = kvcalloc(head.count, sizeof(*map->ptes), GFP_KERNEL);
	spin_lock_init(&map->lock);
	if (!map->refs || !map->handles || !map->ptes) {
		gntdev_map_free(map);
		return -ENOMEM;
	}
	if (copy_from_user(map->refs, arg->refs,
			   head.count * sizeof(*map->refs))) {
		gntdev_map_free(map);
		return -EFAULT;
	}
	for (i = 0; i < head.count; i++)
		map->handles[i] = GNTDEV_NO_HANDLE;

	mutex_lock(&f->lock);
	if (f->mapped + head.count > READ_ONCE(limit)) {
		mutex_unlock(&f->lock);
		gntdev_map_free(map);
		return -ENOSPC;
	}
	/* The first gap of the offsets that holds it. */
	list_for_each_entry(pos, &f->maps, list) {
		if (pos->index >= index + head.count)
			break;
		index = pos->index + pos->count;
	}
	map->index = index;
	list_add_tail(&map->list, &pos->list);
	f->mapped += head.count;
	mutex_unlock(&f->lock);

	if (put_user(index << PAGE_SHIFT, &arg->index)) {
		/* Nobody knows its offset: nobody can have mmapped it. */
		mutex_lock(&f->lock);
		list_del(&map->list);
		f->mapped -= head.count;
		mutex_unlock(&f->lock);
		gntdev_map_free(map);
		return -EFAULT;
	}
	return 0;
}

static long gntdev_ioctl_unmap(struct gntdev_file *f,
			       struct ioctl_gntdev_unmap_grant_ref __user *arg)
{
	struct ioctl_gntdev_unmap_grant_ref op;
	struct gntdev_map *map;
	unsigned long start;

	if (copy_from_user(&op, arg, sizeof(op)))
		return -EFAULT;
	mutex_lock(&f->lock);
	map = gntdev_find(f, op.index >> PAGE_SHIFT, op.count);
	if (!map) {
		mutex_unlock(&f->lock);
		return -ENOENT;
	}
	if (gntdev_mapped_at(map, &start)) {
		/* Still mmapped: unmap it first (the VMA holds the map). */
		mutex_unlock(&f->lock);
		return -EBUSY;
	}
	list_del(&map->list);
	f->mapped -= map->count;
	mutex_unlock(&f->lock);
	gntdev_map_free(map);
	return 0;
}

static long gntdev_ioctl_offset(struct gntdev_file *f,
				struct ioctl_gntdev_get_offset_for_vaddr __user *arg)
{
	struct ioctl_gntdev_get_offset_for_vaddr op;
	struct gntdev_map *map;
	unsigned long start;
	bool found = false;

	if (copy_from_user(&op, arg, sizeof(op)))
		return -EFAULT;
	mutex_lock(&f->lock);
	list_for_each_entry(map, &f->maps, list) {
		found = gntdev_mapped_at(map, &start) && start == op.vaddr;
		if (found) {
			op.offset = map->index << PAGE_SHIFT;
			op.count = map->count;
			break;
		}
	}
	mutex_unlock(&f->lock);
	if (!found)
		return -EINVAL;
	return copy_to_user(arg, &op, sizeof(op)) ? -EFAULT : 0;
}

static long gntdev_ioctl_notify(struct gntdev_file *f,
				struct ioctl_gntdev_unmap_notify __user *arg)
{
	struct ioctl_gntdev_unmap_notify op;
	struct gntdev_map *map;
	unsigned long flags;
	long rc = -ENOENT;
	u64 page;

	if (copy_from_user(&op, arg, sizeof(op)))
		return -EFAULT;
	if (op.action & ~(UNMAP_NOTIFY_CLEAR_BYTE | UNMAP_NOTIFY_SEND_EVENT))
		return -EINVAL;
	page = op.index >> PAGE_SHIFT;
	mutex_lock(&f->lock);
	list_for_each_entry(map, &f->maps, list) {
		if (page < map->index || page >= map->index + map->count)
			continue;
		spin_lock_irqsave(&map->lock, flags);
		map->notify_action = op.action;
		map->notify_offset = op.index - (map->index << PAGE_SHIFT);
		map->notify_port = op.event_channel_port;
		spin_unlock_irqrestore(&map->lock, flags);
		rc = 0;
		break;
	}
	mutex_unlock(&f->lock);
	return rc;
}

static long gntdev_ioctl(struct file *file, unsigned int cmd,
			 unsigned long arg)
{
	struct gntdev_file *f = file->private_data;
	void __user *p = (void __user *)arg;

	switch (cmd) {
	case IOCTL_GNTDEV_MAP_GRANT_REF:
		return gntdev_ioctl_map(f, p);
	case IOCTL_GNTDEV_UNMAP_GRANT_REF:
		return gntdev_ioctl_unmap(f, p);
	case IOCTL_GNTDEV_GET_OFFSET_FOR_VADDR:
		return gntdev_ioctl_offset(f, p);
	case IOCTL_GNTDEV_SET_UNMAP_NOTIFY:
		return gntdev_ioctl_notify(f, p);
	case IOCTL_GNTDEV_SET_MAX_GRANTS:
		/* Obsolete; the module parameter "limit" bounds a file. */
		return 0;
	default:
		return -ENOTTY;
	}
}

static int gntdev_open(struct inode *inode, struct file *file)
{
	struct gntdev_file *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	mutex_init(&f->lock);
	INIT_LIST_HEAD(&f->maps);
	file->private_data = f;
	return 0;
}

/* Every VMA holds the file, so none of its maps is mmapped any more. */
static int gntdev_release(struct inode *inode, struct file *file)
{
	struct gntdev_file *f = file->private_data;
	struct gntdev_map *map, *next;

	list_for_each_entry_safe(map, next, &f->maps, list) {
		WARN_ON_ONCE(map->vma);
		gntdev_map_free(map);
	}
	kfree(f);
	return 0;
}

static const struct file_operations gntdev_fops = {
	.owner		= THIS_MODULE,
	.open		= gntdev_open,
	.release	= gntdev_release,
	.mmap		= gntdev_mmap,
	.unlocked_ioctl	= gntdev_ioctl,
};

static struct miscdevice gntdev_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "xen/gntdev",
	.fops	= &gntdev_fops,
};

static int __init gntdev_init(void)
{
	if (!xen_domain())
		return -ENODEV;
	return misc_register(&gntdev_dev);
}
module_init(gntdev_init);

static void __exit gntdev_exit(void)
{
	misc_deregister(&gntdev_dev);
}
module_exit(gntdev_exit);

MODULE_DESCRIPTION("Other domains' granted pages for user space (/dev/xen/gntdev)");
MODULE_LICENSE("GPL");
