// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/xen/hypercall (privcmd-buf): memory for hypercall arguments.
 *
 * libxencall passes Xen pointers into buffers it mmaps from this file.
 * They are pages of the kernel's own, zeroed, that stay put while
 * mapped: never swapped, migrated or copied on fork, so Xen always
 * finds them where the pointer says.  Each mmap gets its own pages,
 * freed when the mapping goes; the module parameter limit bounds the
 * pages one open file may hold.
 *
 * Locking: privcmd_buf_file.lock (a mutex) guards the file's count.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/slab.h>

#include "privcmd.h"

static unsigned int limit = 64;
module_param(limit, uint, 0644);
MODULE_PARM_DESC(limit,
		 "Pages of hypercall buffers one open privcmd-buf file may hold (default 64)");

/**
 * struct privcmd_buf_file - one open privcmd-buf file
 * @lock: see the file comment
 * @pages: pages its mappings hold
 */
struct privcmd_buf_file {
	struct mutex lock;	/* see above */
	unsigned int pages;
};

/**
 * struct privcmd_buf_map - the pages of one mmap
 * @file: the file they count against
 * @users: the VMAs that map them (a fork or mremap copies one)
 * @count: how many
 * @pages: the pages
 */
struct privcmd_buf_map {
	struct privcmd_buf_file *file;
	refcount_t users;
	unsigned int count;
	struct page *pages[] __counted_by(count);
};

static void privcmd_buf_map_free(struct privcmd_buf_map *map)
{
	unsigned int i;

	for (i = 0; i < map->count; i++)
		if (map->pages[i])
			__free_page(map->pages[i]);
	mutex_lock(&map->file->lock);
	map->file->pages -= map->count;
	mutex_unlock(&map->file->lock);
	kfree(map);
}

static void privcmd_buf_vma_open(struct vm_area_struct *vma)
{
	struct privcmd_buf_map *map = vma->vm_private_data;

	refcount_inc(&map->users);
}

static void privcmd_buf_vma_close(struct vm_area_struct *vma)
{
	struct privcmd_buf_map *map = vma->vm_private_data;

	if (refcount_dec_and_test(&map->users))
		privcmd_buf_map_free(map);
}

/* One mapping, one set of pages: never split or moved. */
static int privcmd_buf_may_split(struct vm_area_struct *vma, unsigned long addr)
{
	return -EINVAL;
}

static int privcmd_buf_mremap(struct vm_area_struct *vma)
{
	return -EINVAL;
}

static const struct vm_operations_struct privcmd_buf_vm_ops = {
	.open = privcmd_buf_vma_open,
	.close = privcmd_buf_vma_close,
	.may_split = privcmd_buf_may_split,
	.mremap = privcmd_buf_mremap,
};

static int privcmd_buf_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct privcmd_buf_file *f = file->private_data;
	unsigned long count = vma_pages(vma);
	struct privcmd_buf_map *map;
	unsigned int i;
	int rc;

	if (!(vma->vm_flags & VM_SHARED) || vma->vm_pgoff)
		return -EINVAL;
	mutex_lock(&f->lock);
	if (count > READ_ONCE(limit) || f->pages + count > READ_ONCE(limit)) {
		mutex_unlock(&f->lock);
		return -ENOMEM;
	}
	f->pages += count;
	mutex_unlock(&f->lock);

	map = kzalloc(struct_size(map, pages, count), GFP_KERNEL);
	if (!map) {
		mutex_lock(&f->lock);
		f->pages -= count;
		mutex_unlock(&f->lock);
		return -ENOMEM;
	}
	map->file = f;
	refcount_set(&map->users, 1);
	map->count = count;
	rc = -ENOMEM;
	for (i = 0; i < count; i++) {
		map->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!map->pages[i])
			goto fail;
	}
	vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
	rc = vm_map_pages_zero(vma, map->pages, count);
	if (rc)
		goto fail;
	vma->vm_private_data = map;
	vma->vm_ops = &privcmd_buf_vm_ops;
	return 0;
fail:
	privcmd_buf_map_free(map);
	return rc;
}

static int privcmd_buf_open(struct inode *inode, struct file *file)
{
	struct privcmd_buf_file *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	mutex_init(&f->lock);
	file->private_data = f;
	return 0;
}

/* Every mapping holds the file: none is left when it is released. */
static int privcmd_buf_release(struct inode *inode, struct file *file)
{
	struct privcmd_buf_file *f = file->private_data;

	WARN_ON(f->pages);
	kfree(f);
	return 0;
}

static const struct file_operations privcmd_buf_fops = {
	.owner		= THIS_MODULE,
	.open		= privcmd_buf_open,
	.release	= privcmd_buf_release,
	.mmap		= privcmd_buf_mmap,
};

struct miscdevice privcmd_buf_misc = {
	.name	= "xen/hypercall",	/* the name libxencall opens */
	.fops	= &privcmd_buf_fops,
	.minor	= MISC_DYNAMIC_MINOR,
};
