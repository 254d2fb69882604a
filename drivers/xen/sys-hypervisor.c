// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/hypervisor for Xen guests: which hypervisor this is, which kind of
 * guest we are, this domain's UUID, and what Xen says about itself:
 *
 *   type, guest_type, uuid
 *   version/{major,minor,extra}
 *   compilation/{compiler,compiled_by,compile_date}
 *   properties/{capabilities,changeset,virtual_start,pagesize,features,
 *               buildid}
 *
 * Every file asks Xen (HYPERVISOR_xen_version) when it is read; a query
 * Xen refuses reads as its errno (Xen gives the build id to privileged
 * domains only, for one).
 *
 * Locking: none; nothing is cached.
 */
#include <linux/init.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <asm/xen/hypercall.h>
#include <xen/interface/features.h>
#include <xen/interface/version.h>
#include <xen/interface/xen.h>
#include <xen/xen.h>

#define XEN_ATTR_RO(_group, _name)					\
	static struct kobj_attribute _group##_##_name##_attr =		\
		__ATTR(_name, 0444, _group##_##_name##_show, NULL)

static ssize_t hyp_type_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "xen\n");
}
XEN_ATTR_RO(hyp, type);

static ssize_t hyp_guest_type_show(struct kobject *kobj,
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
XEN_ATTR_RO(hyp, guest_type);

static ssize_t hyp_uuid_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	xen_domain_handle_t handle;
	int rc = HYPERVISOR_xen_version(XENVER_guest_handle, handle);

	return rc ? rc : sysfs_emit(buf, "%pUb\n", handle);
}
XEN_ATTR_RO(hyp, uuid);

static struct attribute *hyp_attrs[] = {
	&hyp_type_attr.attr,
	&hyp_guest_type_attr.attr,
	&hyp_uuid_attr.attr,
	NULL,
};

static const struct attribute_group hyp_group = {
	.attrs = hyp_attrs,
};

/* ---- version/ ---- */

static ssize_t version_major_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	int v = HYPERVISOR_xen_version(XENVER_version, NULL);

	return v < 0 ? v : sysfs_emit(buf, "%d\n", v >> 16);
}
XEN_ATTR_RO(version, major);

static ssize_t version_minor_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	int v = HYPERVISOR_xen_version(XENVER_version, NULL);

	return v < 0 ? v : sysfs_emit(buf, "%d\n", v & 0xffff);
}
XEN_ATTR_RO(version, minor);

static ssize_t version_extra_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	xen_extraversion_t extra = {};
	int rc = HYPERVISOR_xen_version(XENVER_extraversion, extra);

	return rc ? rc : sysfs_emit(buf, "%.*s\n", (int)sizeof(extra), extra);
}
XEN_ATTR_RO(version, extra);

static struct attribute *version_attrs[] = {
	&version_major_attr.attr,
	&version_minor_attr.attr,
	&version_extra_attr.attr,
	NULL,
};

static const struct attribute_group version_group = {
	.name = "version",
	.attrs = version_attrs,
};

/* ---- compilation/ ---- */

enum compile_field { COMPILER, COMPILED_BY, COMPILE_DATE };

static ssize_t compile_show(char *buf, enum compile_field field)
{
	struct xen_compile_info *info = kzalloc(sizeof(*info), GFP_KERNEL);
	ssize_t rc;

	if (!info)
		return -ENOMEM;
	rc = HYPERVISOR_xen_version(XENVER_compile_info, info);
	if (!rc && field == COMPILER)
		rc = sysfs_emit(buf, "%.*s\n", (int)sizeof(info->compiler),
				info->compiler);
	else if (!rc && field == COMPILED_BY)
		rc = sysfs_emit(buf, "%.*s@%.*s\n",
				(int)sizeof(info->compile_by), info->compile_by,
				(int)sizeof(info->compile_domain),
				info->compile_domain);
	else if (!rc)
		rc = sysfs_emit(buf, "%.*s\n", (int)sizeof(info->compile_date),
				info->compile_date);
	kfree(info);
	return rc;
}

static ssize_t compilation_compiler_show(struct kobject *kobj,
					 struct kobj_attribute *attr, char *buf)
{
	return compile_show(buf, COMPILER);
}
XEN_ATTR_RO(compilation, compiler);

static ssize_t compilation_compiled_by_show(struct kobject *kobj,
					    struct kobj_attribute *attr,
					    char *buf)
{
	return compile_show(buf, COMPILED_BY);
}
XEN_ATTR_RO(compilation, compiled_by);

static ssize_t compilation_compile_date_show(struct kobject *kobj,
					     struct kobj_attribute *attr,
					     char *buf)
{
	return compile_show(buf, COMPILE_DATE);
}
XEN_ATTR_RO(compilation, compile_date);

static struct attribute *compilation_attrs[] = {
	&compilation_compiler_attr.attr,
	&compilation_compiled_by_attr.attr,
	&compilation_compile_date_attr.attr,
	NULL,
};

static const struct attribute_group compilation_group = {
	.name = "compilation",
	.attrs = compilation_attrs,
};

/* ---- properties/ ---- */

static ssize_t properties_capabilities_show(struct kobject *kobj,
					    struct kobj_attribute *attr,
					    char *buf)
{
	char *caps = kzalloc(sizeof(xen_capabilities_info_t), GFP_KERNEL);
	ssize_t rc;

	if (!caps)
		return -ENOMEM;
	rc = HYPERVISOR_xen_version(XENVER_capabilities, caps);
	if (!rc)
		rc = sysfs_emit(buf, "%.*s\n",
				(int)sizeof(xen_capabilities_info_t), caps);
	kfree(caps);
	return rc;
}
XEN_ATTR_RO(properties, capabilities);

static ssize_t properties_changeset_show(struct kobject *kobj,
					 struct kobj_attribute *attr, char *buf)
{
	xen_changeset_info_t cs = {};
	int rc = HYPERVISOR_xen_version(XENVER_changeset, cs);

	return rc ? rc : sysfs_emit(buf, "%.*s\n", (int)sizeof(cs), cs);
}
XEN_ATTR_RO(properties, changeset);

static ssize_t properties_virtual_start_show(struct kobject *kobj,
					     struct kobj_attribute *attr,
					     char *buf)
{
	struct xen_platform_parameters p = {};
	int rc = HYPERVISOR_xen_version(XENVER_platform_parameters, &p);

	return rc ? rc : sysfs_emit(buf, "%lx\n", (unsigned long)p.virt_start);
}
XEN_ATTR_RO(properties, virtual_start);

static ssize_t properties_pagesize_show(struct kobject *kobj,
					struct kobj_attribute *attr, char *buf)
{
	int v = HYPERVISOR_xen_version(XENVER_pagesize, NULL);

	return v < 0 ? v : sysfs_emit(buf, "%x\n", v);
}
XEN_ATTR_RO(properties, pagesize);

/* The feature bitmap in hex, most significant word first. */
static ssize_t properties_features_show(struct kobject *kobj,
					struct kobj_attribute *attr, char *buf)
{
	struct xen_feature_info fi;
	ssize_t len = 0;
	int i, rc;

	for (i = XENFEAT_NR_SUBMAPS - 1; i >= 0; i--) {
		fi.submap_idx = i;
		rc = HYPERVISOR_xen_version(XENVER_get_features, &fi);
		if (rc)
			return rc;
		len += sysfs_emit_at(buf, len, "%08x", fi.submap);
	}
	return len + sysfs_emit_at(buf, len, "\n");
}
XEN_ATTR_RO(properties, features);

static ssize_t properties_buildid_show(struct kobject *kobj,
				       struct kobj_attribute *attr, char *buf)
{
	const u32 max = 64;
	struct xen_build_id *id = kzalloc(sizeof(*id) + max, GFP_KERNEL);
	int rc;

	if (!id)
		return -ENOMEM;
	id->len = max;
	rc = HYPERVISOR_xen_version(XENVER_build_id, id);
	if (rc > 0)
		rc = sysfs_emit(buf, "%*phN\n", min_t(int, rc, max), id->buf);
	else if (!rc)
		rc = -ENODATA;
	kfree(id);
	return rc;
}
XEN_ATTR_RO(properties, buildid);

static struct attribute *properties_attrs[] = {
	&properties_capabilities_attr.attr,
	&properties_changeset_attr.attr,
	&properties_virtual_start_attr.attr,
	&properties_pagesize_attr.attr,
	&properties_features_attr.attr,
	&properties_buildid_attr.attr,
	NULL,
};

static const struct attribute_group properties_group = {
	.name = "properties",
	.attrs = properties_attrs,
};

static const struct attribute_group *xen_sys_hypervisor_groups[] = {
	&hyp_group,
	&version_group,
	&compilation_group,
	&properties_group,
	NULL,
};

static int __init xen_sys_hypervisor_init(void)
{
	if (!xen_domain())
		return -ENODEV;
	return sysfs_create_groups(hypervisor_kobj, xen_sys_hypervisor_groups);
}
device_initcall(xen_sys_hypervisor_init);
