/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The XENFEAT_* features Xen offers this guest, read once at boot.
 */
#ifndef _XEN_FEATURES_H
#define _XEN_FEATURES_H

#include <linux/types.h>
#include <xen/interface/features.h>

extern u8 xen_features[XENFEAT_NR_SUBMAPS * 32];

void xen_setup_features(void);

/**
 * xen_feature() - does Xen offer a feature
 * @flag: a XENFEAT_* number
 *
 * Return: 1 if it does, 0 if not (or before xen_setup_features()).
 */
static inline int xen_feature(int flag)
{
	return xen_features[flag];
}

#endif /* _XEN_FEATURES_H */
