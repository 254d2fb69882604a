// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/hypervisor for Xen guests: which hypervisor this is and which kind
 * of guest we are.  Read-only, computed on each read from state set once
 * at boot.
 */
#include <linux/init.h>
#include <linux/kobject.h>
#include <linux/sysfs.h>
#include <xen/xen.h>

static ssize_t type_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "xen\n");
}

static struct kobj_attribute type_attr = __ATTR_RO(type);

static ssize_t guest_type_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	const char *type;

	if (xen_pv_domain())
		type = "PV";
	else if (xen_pvh_domain())
		type = "PVH";
	else
		type = "HVM";
	return sysfs_emit(buf, "%s\n", type);
}

static struct kobj_attribute guest_type_attr = __ATTR_RO(guest_type);

static struct attribute *xen_sys_hypervisor_attrs[] = {
	&type_attr.attr,
	&guest_type_attr.attr,
	NULL,
};

static const struct attribute_group xen_sys_hypervisor_group = {
	.attrs = xen_sys_hypervisor_attrs,
};

static int __init xen_sys_hypervisor_init(void)
{
	if (!xen_domain())
		return -ENODEV;
	return sysfs_create_group(hypervisor_kobj, &xen_sys_hypervisor_group);
}
device_initcall(xen_sys_hypervisor_init);
