/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the privcmd device shares with xenfs, which offers the same file.
 */
#ifndef _XEN_PRIVCMD_H
#define _XEN_PRIVCMD_H

#include <linux/fs.h>

extern const struct file_operations xen_privcmd_fops;

#endif /* _XEN_PRIVCMD_H */
