// SPDX-License-Identifier: GPL-2.0
/*
 * Control of this domain by the toolstack through xenstore.
 *
 * "xl shutdown" and "xl reboot" write "poweroff" or "reboot" to
 * control/shutdown; "xl sysrq" writes a key to control/sysrq.  Each
 * request is taken in a transaction that also clears the node, so that
 * it is acted on once; a conflicting change (-EAGAIN) runs it again.
 * The features offered are advertised under control/ at start.
 *
 * Suspend is not supported yet: a "suspend" request is logged and left
 * unanswered, which the toolstack reports as a timeout.
 *
 * Runs in the xenstore watch thread only; no locks of its own.
 */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/notifier.h>
#include <linux/reboot.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysrq.h>
#include <xen/xenbus.h>
#include <xen/xen.h>

/*
 * Take the request in control/<node>, clearing it.  Return the request
 * (for the caller to kfree) or NULL when there is none.
 */
static char *xen_take_request(const char *node)
{
	struct xenbus_transaction t;
	char *req;
	unsigned int tries = 0;
	int rc;

	do {
		if (xenbus_transaction_start(&t))
			return NULL;
		req = xenbus_read(t, "control", node, NULL);
		if (IS_ERR(req) || !req[0]) {
			xenbus_transaction_end(t, 1);
			if (!IS_ERR(req))
				kfree(req);
			return NULL;
		}
		rc = xenbus_write(t, "control", node, "");
		if (rc) {
			xenbus_transaction_end(t, 1);
			kfree(req);
			return NULL;
		}
		rc = xenbus_transaction_end(t, 0);
		if (rc) {
			kfree(req);
			req = NULL;
		}
	} while (xenbus_transaction_retry(rc, &tries));
	return req;
}

static void xen_shutdown_watch(struct xenbus_watch *watch, const char *path,
			       const char *token)
{
	char *req = xen_take_request("shutdown");

	if (!req)
		return;
	if (!strcmp(req, "poweroff") || !strcmp(req, "halt")) {
		pr_info("xen: %s requested by the toolstack\n", req);
		orderly_poweroff(true);
	} else if (!strcmp(req, "reboot")) {
		pr_info("xen: reboot requested by the toolstack\n");
		orderly_reboot();
	} else if (!strcmp(req, "suspend")) {
		pr_warn("xen: suspend requested, not supported yet\n");
	} else {
		pr_warn("xen: unknown shutdown request \"%.32s\" ignored\n", req);
	}
	kfree(req);
}

static void xen_sysrq_watch(struct xenbus_watch *watch, const char *path,
			    const char *token)
{
	char *req = xen_take_request("sysrq");

	if (!req)
		return;
	handle_sysrq(req[0]);
	kfree(req);
}

static struct xenbus_watch xen_shutdown_watcher = {
	.node = "control/shutdown",
	.callback = xen_shutdown_watch,
};

static struct xenbus_watch xen_sysrq_watcher = {
	.node = "control/sysrq",
	.callback = xen_sysrq_watch,
};

static int xen_control_start(struct notifier_block *nb, unsigned long event,
			     void *data)
{
	static const char * const features[] = {
		"feature-poweroff", "feature-reboot", "feature-sysrq",
	};
	unsigned int i;
	int rc;

	rc = register_xenbus_watch(&xen_shutdown_watcher);
	if (rc)
		pr_err("xen: no shutdown control: %d\n", rc);
	rc = register_xenbus_watch(&xen_sysrq_watcher);
	if (rc)
		pr_err("xen: no sysrq control: %d\n", rc);
	for (i = 0; i < ARRAY_SIZE(features); i++)
		xenbus_write(XBT_NIL, "control", features[i], "1");
	return NOTIFY_DONE;
}

static struct notifier_block xen_control_nb = {
	.notifier_call = xen_control_start,
};

static int __init xen_control_init(void)
{
	if (!xen_domain())
		return 0;
	return register_xenstore_notifier(&xen_control_nb);
}
device_initcall(xen_control_init);
