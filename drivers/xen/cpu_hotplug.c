// SPDX-License-Identifier: GPL-2.0
/*
 * vCPU hotplug driven by the toolstack: "xl vcpu-set" writes "online" or
 * "offline" to cpu/<N>/availability, and this domain brings Linux CPU N
 * up or down to match.  At start, CPUs the toolstack lists as offline
 * are taken down.
 *
 * Runs in the xenstore watch thread only; add_cpu() and remove_cpu()
 * take the hotplug locks they need.
 */
#include <linux/cpu.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/string_choices.h>
#include <xen/xenbus.h>
#include <xen/xen.h>

/* The availability the toolstack gives a CPU: 1 online, 0 offline. */
static int xen_cpu_wanted(unsigned int cpu)
{
	char dir[32];
	char *state;
	int wanted;

	snprintf(dir, sizeof(dir), "cpu/%u", cpu);
	state = xenbus_read(XBT_NIL, dir, "availability", NULL);
	if (IS_ERR(state))
		return PTR_ERR(state);
	if (!strcmp(state, "online"))
		wanted = 1;
	else if (!strcmp(state, "offline"))
		wanted = 0;
	else
		wanted = -EINVAL;
	if (wanted < 0)
		pr_warn("xen: cpu/%u/availability is \"%.16s\"; ignored\n",
			cpu, state);
	kfree(state);
	return wanted;
}

static void xen_cpu_apply(unsigned int cpu)
{
	int wanted = xen_cpu_wanted(cpu);
	int rc = 0;

	if (wanted < 0)
		return;
	if (wanted && !cpu_online(cpu))
		rc = add_cpu(cpu);
	else if (!wanted && cpu_online(cpu))
		rc = remove_cpu(cpu);
	if (rc)
		pr_warn("xen: cannot bring CPU %u %s: %d\n", cpu,
			str_up_down(wanted), rc);
}

static void xen_cpu_watch(struct xenbus_watch *watch, const char *path,
			  const char *token)
{
	unsigned int cpu;

	/* Events for the "cpu" directory itself come at registration. */
	if (sscanf(path, "cpu/%u/availability", &cpu) != 1)
		return;
	if (cpu >= nr_cpu_ids || !cpu_possible(cpu)) {
		pr_warn("xen: toolstack names CPU %u, which this domain lacks\n",
			cpu);
		return;
	}
	xen_cpu_apply(cpu);
}

static struct xenbus_watch xen_cpu_watcher = {
	.node = "cpu",
	.callback = xen_cpu_watch,
};

static int xen_cpu_hotplug_start(struct notifier_block *nb,
				 unsigned long event, void *data)
{
	unsigned int cpu;
	int rc;

	for_each_possible_cpu(cpu)
		if (cpu > 0)
			xen_cpu_apply(cpu);
	rc = register_xenbus_watch(&xen_cpu_watcher);
	if (rc)
		pr_err("xen: no vCPU hotplug: %d\n", rc);
	return NOTIFY_DONE;
}

static struct notifier_block xen_cpu_hotplug_nb = {
	.notifier_call = xen_cpu_hotplug_start,
};

static int __init xen_cpu_hotplug_init(void)
{
	if (!xen_domain() || !IS_ENABLED(CONFIG_HOTPLUG_CPU))
		return 0;
	return register_xenstore_notifier(&xen_cpu_hotplug_nb);
}
late_initcall(xen_cpu_hotplug_init);
