// SPDX-License-Identifier: GPL-2.0
/*
 * The XENFEAT_* bitmap, copied out of Xen once so that xen_feature() is
 * a plain array read.
 */
#include <linux/cache.h>
#include <linux/export.h>
#include <linux/init.h>
#include <asm/xen/hypercall.h>
#include <xen/features.h>
#include <xen/interface/version.h>

u8 xen_features[XENFEAT_NR_SUBMAPS * 32] __read_mostly;
EXPORT_SYMBOL_GPL(xen_features);

/**
 * xen_setup_features() - read the features Xen offers
 *
 * Needs the hypercall page.  A submap Xen cannot give reads as no
 * features.
 */
void xen_setup_features(void)
{
	struct xen_feature_info info;
	unsigned int i, j;

	for (i = 0; i < XENFEAT_NR_SUBMAPS; i++) {
		info.submap_idx = i;
		if (HYPERVISOR_xen_version(XENVER_get_features, &info) < 0)
			break;
		for (j = 0; j < 32; j++)
			xen_features[i * 32 + j] = !!(info.submap & BIT(j));
	}
}
