// SPDX-License-Identifier: GPL-2.0
/*
 * The balloon driver: this domain's memory follows the target the
 * toolstack writes to xenstore (memory/target, in KiB; `xl mem-set`),
 * or an administrator to sysfs.
 *
 * The logic is balloon_core.c's.  Here it gets:
 *  - Xen's count of the domain's pages (XENMEM_current_reservation);
 *  - the pool of empty pages (unpopulated.c) to give pages back through
 *    and take them again, so that the pages a balloon holds serve the
 *    backends' grant mappings too;
 *  - memory hotplug (balloon_hotplug.c), to grow past the boot memory;
 *  - a worker, which moves up to XEN_BALLOON_RUN batches at a time and
 *    waits schedule_delay seconds when memory is short;
 *  - the sysfs files of /sys/devices/system/xen_memory/xen_memory0/,
 *    whose names and units are those the tools know:
 *      target_kb (KiB) and target (bytes), read and write;
 *      schedule_delay, max_schedule_delay (seconds);
 *      retry_count, max_retry_count (0: retry forever);
 *      info/current_kb (Xen's count), info/low_kb (the balloon's pages),
 *      info/high_kb (0: a 64-bit kernel has no high memory).
 *
 * Locking: xen_balloon_lock (a mutex) serialises the worker's runs and
 * the changes of the limits.  A new target does not wait for it (the
 * xenstore watch thread must not wait for a run): it is left in
 * xen_balloon_wanted, with a count of the times one was set, for the
 * worker to take at its next run.
 */
#include <linux/capability.h>
#include <linux/device.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <asm/xen/hypercall.h>
#include <xen/interface/memory.h>
#include <xen/xen.h>
#include <xen/xenbus.h>

#include "balloon.h"

/* Batches per run of the worker before it lets others run. */
#define XEN_BALLOON_RUN		16

#define KB_PER_PAGE		(PAGE_SIZE / SZ_1K)

static DEFINE_MUTEX(xen_balloon_lock);
static struct xen_balloon xen_balloon;
static DEFINE_SPINLOCK(xen_balloon_wanted_lock);
static unsigned long xen_balloon_wanted;	/* pages; 0: none yet */
static unsigned long xen_balloon_aims;		/* targets set so far */

static long xen_balloon_current(void *ctx)
{
	domid_t self = DOMID_SELF;

	return HYPERVISOR_memory_op(XENMEM_current_reservation, &self);
}

static int xen_balloon_give(void *ctx, unsigned int nr)
{
	return xen_pool_balloon_give(nr);
}

/*
 * Past the pages it holds, the balloon adds memory, if it can.  Not for
 * a shortfall that pages lent out to backends explain: the balloon
 * waits for those (xen_balloon_kick()).  A block that could not be
 * added this time (no memory for its struct pages, say) is tried again
 * after the balloon's delay, as if Xen had none to give.  No more blocks
 * at all: -ENOSPC.  Called in the worker's run, under xen_balloon_lock.
 */
static int xen_balloon_take(void *ctx, unsigned int nr)
{
	int rc = xen_pool_balloon_take(nr);
	unsigned long short_by;
	long added;

	if (rc != -ENOSPC)
		return rc;
	short_by = xen_balloon.target - xen_balloon.current_pages;
	if (short_by <= xen_pool_lent_pages())
		return -ENOSPC;
	added = xen_balloon_hotplug();
	if (added > 0)
		return xen_pool_balloon_take(nr);
	return added == -ENOSPC ? -ENOSPC : 0;
}

static const struct xen_balloon_ops xen_balloon_ops = {
	.current_pages = xen_balloon_current,
	.give = xen_balloon_give,
	.take = xen_balloon_take,
};

static void xen_balloon_work(struct work_struct *work);
static DECLARE_DELAYED_WORK(xen_balloon_worker, xen_balloon_work);
/*
 * The worker's queue is unbound: a run (up to 16 batches of hypercalls)
 * goes where the scheduler places it, not on the CPU that queued it.
 * Freezable: the balloon stands still while the domain suspends.
 */
static struct workqueue_struct *xen_balloon_wq;

static void xen_balloon_work(struct work_struct *work)
{
	static unsigned long aims_taken;
	enum xen_balloon_state state;
	unsigned long delay, wanted, aims;
	bool was_stuck;

	spin_lock(&xen_balloon_wanted_lock);
	wanted = xen_balloon_wanted;
	aims = xen_balloon_aims;
	spin_unlock(&xen_balloon_wanted_lock);

	mutex_lock(&xen_balloon_lock);
	if (aims != aims_taken) {
		xen_balloon_set_target(&xen_balloon, wanted);
		aims_taken = aims;
	}
	was_stuck = xen_balloon.state == XEN_BALLOON_STUCK;
	state = xen_balloon_run(&xen_balloon, XEN_BALLOON_RUN);
	delay = xen_balloon.schedule_delay;
	if (state == XEN_BALLOON_STUCK && !was_stuck)
		pr_info("xen: balloon: at %lu KiB, short of its target of %lu KiB (%lu KiB lent out)\n",
			xen_balloon.current_pages * KB_PER_PAGE,
			xen_balloon.target * KB_PER_PAGE,
			xen_pool_lent_pages() * KB_PER_PAGE);
	mutex_unlock(&xen_balloon_lock);

	if (state == XEN_BALLOON_MORE)
		queue_delayed_work(xen_balloon_wq, &xen_balloon_worker, 0);
	else if (state == XEN_BALLOON_WAIT)
		queue_delayed_work(xen_balloon_wq, &xen_balloon_worker,
				   delay * HZ);
}

/* Aim at @pages and start the worker now. */
static void xen_balloon_aim(unsigned long pages)
{
	spin_lock(&xen_balloon_wanted_lock);
	xen_balloon_wanted = pages;
	xen_balloon_aims++;
	spin_unlock(&xen_balloon_wanted_lock);
	mod_delayed_work(xen_balloon_wq, &xen_balloon_worker, 0);
}

/**
 * xen_balloon_kick() - run the balloon soon, if it has not reached its target
 *
 * The pool calls it when pages lent out come back: a balloon that
 * stopped short for want of them may go on.
 *
 * Context: process context.
 */
void xen_balloon_kick(void)
{
	if (READ_ONCE(xen_balloon.state) == XEN_BALLOON_STUCK)
		mod_delayed_work(xen_balloon_wq, &xen_balloon_worker, 0);
}

/*
 * memory/target changed.  The node is the toolstack's: a value that is
 * not a number of KiB, or 0, is refused with one line and the balloon
 * keeps its target.  A dom0's node may not exist (libxl makes it at its
 * first memory call): nothing to do then.
 */
static void xen_balloon_target_watch(struct xenbus_watch *watch,
				     const char *path, const char *token)
{
	unsigned long kb;
	char *val;

	val = xenbus_read(XBT_NIL, "memory", "target", NULL);
	if (IS_ERR(val))
		return;
	if (kstrtoul(val, 10, &kb) || kb < KB_PER_PAGE) {
		pr_warn_ratelimited("xen: balloon: memory/target \"%.32s\" is not a size in KiB; ignored\n",
				    val);
		kfree(val);
		return;
	}
	kfree(val);
	xen_balloon_aim(kb / KB_PER_PAGE);
}

static struct xenbus_watch xen_balloon_watch = {
	.node = "memory/target",
	.callback = xen_balloon_target_watch,
};

static int xen_balloon_xenstore_up(struct notifier_block *nb,
				   unsigned long event, void *data)
{
	int rc = register_xenbus_watch(&xen_balloon_watch);

	if (rc) {
		pr_err("xen: balloon: cannot watch memory/target: %d\n", rc);
		return NOTIFY_DONE;
	}
	/* The toolstack looks for this before it asks us to balloon. */
	xenbus_write(XBT_NIL, "control", "feature-balloon", "1");
	return NOTIFY_DONE;
}

static struct notifier_block xen_balloon_xenstore_nb = {
	.notifier_call = xen_balloon_xenstore_up,
};

/* sysfs */

static ssize_t xen_balloon_show(char *buf, const unsigned long *field,
				unsigned long scale)
{
	unsigned long val;

	mutex_lock(&xen_balloon_lock);
	val = *field;
	mutex_unlock(&xen_balloon_lock);
	return sysfs_emit(buf, "%lu\n", val * scale);
}

static ssize_t xen_balloon_store_target(const char *buf, size_t count,
					unsigned long long bytes)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (bytes < PAGE_SIZE)
		return -EINVAL;
	xen_balloon_aim(bytes / PAGE_SIZE);
	return count;
}

/* The target last set, whether or not the worker has taken it yet. */
static ssize_t xen_balloon_show_target(char *buf, unsigned long scale)
{
	unsigned long pages;

	spin_lock(&xen_balloon_wanted_lock);
	pages = xen_balloon_wanted;
	spin_unlock(&xen_balloon_wanted_lock);
	return sysfs_emit(buf, "%lu\n", pages * scale);
}

static ssize_t target_kb_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return xen_balloon_show_target(buf, KB_PER_PAGE);
}

static ssize_t target_kb_store(struct device *dev,
			       struct device_attribute *attr,
			       const char *buf, size_t count)
{
	unsigned long long kb;
	int rc = kstrtoull(buf, 10, &kb);

	if (rc)
		return rc;
	if (kb > ULLONG_MAX / SZ_1K)
		return -EINVAL;
	return xen_balloon_store_target(buf, count, kb * SZ_1K);
}
static DEVICE_ATTR_RW(target_kb);

static ssize_t target_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return xen_balloon_show_target(buf, PAGE_SIZE);
}

/* Bytes, with the K, M, G suffixes memparse() knows. */
static ssize_t target_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	char *end;
	unsigned long long bytes = memparse(buf, &end);

	if (end == buf || (*end && *end != '\n'))
		return -EINVAL;
	return xen_balloon_store_target(buf, count, bytes);
}
static DEVICE_ATTR_RW(target);

static ssize_t schedule_delay_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return xen_balloon_show(buf, &xen_balloon.schedule_delay, 1);
}
static DEVICE_ATTR_RO(schedule_delay);

static ssize_t retry_count_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return xen_balloon_show(buf, &xen_balloon.retry_count, 1);
}
static DEVICE_ATTR_RO(retry_count);

/* A limit: a number; @min_val is the least allowed. */
static ssize_t xen_balloon_store_limit(const char *buf, size_t count,
				       unsigned long *field,
				       unsigned long min_val)
{
	unsigned long val;
	int rc;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	rc = kstrtoul(buf, 10, &val);
	if (rc)
		return rc;
	if (val < min_val)
		return -EINVAL;
	mutex_lock(&xen_balloon_lock);
	*field = val;
	mutex_unlock(&xen_balloon_lock);
	/* A balloon that gave up may try again under the new limit. */
	xen_balloon_kick();
	return count;
}

static ssize_t max_schedule_delay_show(struct device *dev,
				       struct device_attribute *attr,
				       char *buf)
{
	return xen_balloon_show(buf, &xen_balloon.max_schedule_delay, 1);
}

static ssize_t max_schedule_delay_store(struct device *dev,
					struct device_attribute *attr,
					const char *buf, size_t count)
{
	return xen_balloon_store_limit(buf, count,
				       &xen_balloon.max_schedule_delay, 1);
}
static DEVICE_ATTR_RW(max_schedule_delay);

static ssize_t max_retry_count_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	return xen_balloon_show(buf, &xen_balloon.max_retry_count, 1);
}

static ssize_t max_retry_count_store(struct device *dev,
				     struct device_attribute *attr,
				     const char *buf, size_t count)
{
	return xen_balloon_store_limit(buf, count,
				       &xen_balloon.max_retry_count, 0);
}
static DEVICE_ATTR_RW(max_retry_count);

static struct attribute *xen_balloon_attrs[] = {
	&dev_attr_target_kb.attr,
	&dev_attr_target.attr,
	&dev_attr_schedule_delay.attr,
	&dev_attr_max_schedule_delay.attr,
	&dev_attr_retry_count.attr,
	&dev_attr_max_retry_count.attr,
	NULL
};

static const struct attribute_group xen_balloon_group = {
	.attrs = xen_balloon_attrs,
};

/* Xen's count now, not the worker's last look. */
static ssize_t current_kb_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	long pages = xen_balloon_current(NULL);

	if (pages < 0)
		return pages;
	return sysfs_emit(buf, "%lu\n", pages * KB_PER_PAGE);
}
static DEVICE_ATTR_RO(current_kb);

static ssize_t low_kb_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%lu\n", xen_pool_balloon_pages() * KB_PER_PAGE);
}
static DEVICE_ATTR_RO(low_kb);

static ssize_t high_kb_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "0\n");
}
static DEVICE_ATTR_RO(high_kb);

static struct attribute *xen_balloon_info_attrs[] = {
	&dev_attr_current_kb.attr,
	&dev_attr_low_kb.attr,
	&dev_attr_high_kb.attr,
	NULL
};

static const struct attribute_group xen_balloon_info_group = {
	.name = "info",
	.attrs = xen_balloon_info_attrs,
};

static const struct attribute_group *xen_balloon_groups[] = {
	&xen_balloon_group,
	&xen_balloon_info_group,
	NULL
};

static const struct bus_type xen_memory_subsys = {
	.name = "xen_memory",
	.dev_name = "xen_memory",
};

/* The device is static and never goes: nothing to free. */
static void xen_memory_release(struct device *dev)
{
}

static struct device xen_memory_dev = {
	.id = 0,
	.bus = &xen_memory_subsys,
	.groups = xen_balloon_groups,
	.release = xen_memory_release,
};

/*
 * A PVH or HVM guest started below its maxmem has all of maxmem in its
 * memory map, but Xen backs only the start target: it fills each page
 * on first touch from a cache of that size (populate-on-demand), and
 * kills the domain once a touch finds the cache empty.  So before
 * anything else, the pages of the map that Xen does not count go back,
 * at boot, before user space can touch them.  Xen's count also takes in
 * pages outside the map's RAM (ACPI tables, the console and xenstore
 * rings): those make the debt look smaller than it is, by the few
 * hundred KiB they take, which stay on demand.  Xen covers them from the
 * pages it finds zeroed when its cache runs dry.
 */
static void __init xen_balloon_pay_debt(void)
{
	unsigned long mapped, debt, start = jiffies;
	long tot;

	if (!xen_hvm_domain())
		return;
	tot = xen_balloon_current(NULL);
	mapped = get_num_physpages() - xen_pool_idle_pages() -
		 xen_pool_lent_pages();
	pr_info("xen: balloon: memory map %lu KiB, Xen counts %ld KiB\n",
		mapped * KB_PER_PAGE, tot * KB_PER_PAGE);
	if (tot < 0 || mapped <= tot)
		return;
	debt = mapped - tot;
	mutex_lock(&xen_balloon_lock);
	xen_balloon_set_debt(&xen_balloon, debt);
	xen_balloon_run(&xen_balloon, DIV_ROUND_UP(debt, XEN_BALLOON_BATCH));
	debt = xen_balloon.debt;
	mutex_unlock(&xen_balloon_lock);
	pr_info("xen: balloon: gave back %lu KiB Xen populates on demand, in %u ms\n",
		(mapped - tot - debt) * KB_PER_PAGE,
		jiffies_to_msecs(jiffies - start));
	if (debt) {
		pr_warn("xen: balloon: %lu KiB still to give back; until then, touching them may crash this domain\n",
			debt * KB_PER_PAGE);
		mod_delayed_work(xen_balloon_wq, &xen_balloon_worker,
				 xen_balloon.schedule_delay * HZ);
	}
}

static int __init xen_balloon_init(void)
{
	int rc;

	if (!xen_domain())
		return 0;
	xen_balloon_wq = alloc_workqueue("xen_balloon",
					 WQ_UNBOUND | WQ_FREEZABLE, 1);
	if (!xen_balloon_wq)
		return -ENOMEM;
	xen_balloon_init_core(&xen_balloon, &xen_balloon_ops, NULL);
	xen_balloon_pay_debt();
	rc = xen_balloon_hotplug_init();
	if (rc)
		pr_warn("xen: balloon: cannot grow past the boot memory: %d\n",
			rc);

	rc = subsys_system_register(&xen_memory_subsys, NULL);
	if (!rc) {
		rc = device_register(&xen_memory_dev);
		if (rc)
			put_device(&xen_memory_dev);
	}
	if (rc)
		pr_warn("xen: balloon: no sysfs files: %d\n", rc);

	return register_xenstore_notifier(&xen_balloon_xenstore_nb);
}
device_initcall(xen_balloon_init);
