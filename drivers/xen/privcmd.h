/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the privcmd device shares with xenfs, which offers the same file,
 * and its pure logic, for KUnit (dom0_devs_test.c).
 */
#ifndef _XEN_PRIVCMD_H
#define _XEN_PRIVCMD_H

#include <linux/fs.h>
#include <linux/limits.h>
#include <linux/mm.h>

extern const struct file_operations xen_privcmd_fops;

/**
 * privcmd_batch_ok() - are a mapping batch's arguments sane
 * @num: frames to map
 * @addr: where, in the caller's address space
 *
 * Return: true for a page-aligned address and a count that is not zero
 * and whose size in bytes fits an address.
 */
static inline bool privcmd_batch_ok(u64 num, u64 addr)
{
	return num && num <= (ULONG_MAX >> PAGE_SHIFT) && PAGE_ALIGNED(addr);
}

/**
 * privcmd_spread_errors() - run a batch Xen stops at each refusal
 * @n: entries in the batch
 * @update: does entries from @first on, @count of them; returns 0 when
 *	all were done, or the error of the first refused, with *@done
 *	set to how many before it were done
 * @ctx: for @update
 * @err: gets each entry's result: 0, or the error it was refused with
 *
 * An entry refused does not stop the others: the batch goes on after
 * it.  An answer that claims more entries done than were asked stops
 * the batch, with the rest marked -EIO.
 */
static inline void privcmd_spread_errors(unsigned int n,
					 int (*update)(void *ctx,
						       unsigned int first,
						       unsigned int count,
						       unsigned int *done),
					 void *ctx, int *err)
{
	unsigned int i, done;
	int rc;

	for (i = 0; i < n; i++)
		err[i] = 0;
	for (i = 0; i < n; i += done + 1) {
		done = 0;
		rc = update(ctx, i, n - i, &done);
		if (!rc)
			return;
		if (done >= n - i) {
			while (i < n)
				err[i++] = -EIO;
			return;
		}
		err[i + done] = rc;
	}
}

struct miscdevice;

/* /dev/xen/hypercall (privcmd-buf.c), registered with privcmd. */
extern struct miscdevice privcmd_buf_misc;

#endif /* _XEN_PRIVCMD_H */
