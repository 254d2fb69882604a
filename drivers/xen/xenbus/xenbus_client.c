// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers for the drivers of split devices: publishing this end's state,
 * watching the other end's nodes, sharing a ring and allocating its event
 * channel, and reporting errors where the toolstack looks for them
 * (error/<nodename>/error in this domain's home).
 *
 * The "fatal" flavour of each failure also publishes Closing, so that the
 * other end stops waiting; it never recurses into itself.
 *
 * Locking: none; callers serialise their own device's state changes.
 */
#include <linux/err.h>
#include <linux/kstrtox.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <xen/events.h>
#include <xen/grant_table.h>
#include <xen/interface/event_channel.h>
#include <xen/page.h>
#include <xen/xenbus.h>
#include <asm/xen/hypercall.h>

#include "xb_state.h"
#include "xenbus.h"

/**
 * xenbus_strstate() - a state's name
 * @state: any value
 *
 * Return: "Connected" and so on; "Invalid" for a value that is no state.
 */
const char *xenbus_strstate(enum xenbus_state state)
{
	return xb_state_name(state);
}
EXPORT_SYMBOL_GPL(xenbus_strstate);

/**
 * xenbus_read_driver_state() - the state a device's end published
 * @path: the end's directory
 *
 * Return: the state, or XenbusStateUnknown when it cannot be read or is
 * not a state.
 */
enum xenbus_state xenbus_read_driver_state(const char *path)
{
	enum xenbus_state state;
	char *val = xenbus_read(XBT_NIL, path, "state", NULL);

	if (IS_ERR(val))
		return XenbusStateUnknown;
	if (xb_parse_state(val, &state))
		state = XenbusStateUnknown;
	kfree(val);
	return state;
}
EXPORT_SYMBOL_GPL(xenbus_read_driver_state);

/* Write the message to error/<nodename>/error; best effort. */
static __printf(3, 0) void xb_report(struct xenbus_device *dev, int err, const char *fmt,
		      va_list ap)
{
	char *msg, *path;

	msg = kvasprintf(GFP_KERNEL, fmt, ap);
	dev_err(&dev->dev, "%s: %d\n", msg ?: fmt, err);
	if (!msg)
		return;
	path = kasprintf(GFP_KERNEL, "error/%s", dev->nodename);
	if (path)
		xenbus_printf(XBT_NIL, path, "error", "%d %s", -err, msg);
	kfree(path);
	kfree(msg);
}

/**
 * xenbus_dev_error() - report an error on a device
 * @dev: the device
 * @err: the negative errno
 * @fmt: what failed, printf style
 *
 * Logged, and written to error/<nodename>/error for the toolstack.
 */
void xenbus_dev_error(struct xenbus_device *dev, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	xb_report(dev, err, fmt, ap);
	va_end(ap);
}
EXPORT_SYMBOL_GPL(xenbus_dev_error);

static int xb_switch(struct xenbus_device *dev, enum xenbus_state state,
		     bool report);

/**
 * xenbus_dev_fatal() - report an error that ends a device
 * @dev: the device
 * @err: the negative errno
 * @fmt: what failed, printf style
 *
 * As xenbus_dev_error(), then publish Closing.
 */
void xenbus_dev_fatal(struct xenbus_device *dev, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	xb_report(dev, err, fmt, ap);
	va_end(ap);
	xb_switch(dev, XenbusStateClosing, false);
}
EXPORT_SYMBOL_GPL(xenbus_dev_fatal);

/*
 * A number in the other end's directory, from @min to @max: anything else
 * is fatal to the device, and so is its absence when @required.
 */
static int xb_read_number(struct xenbus_device *dev, const char *node,
			  bool required, unsigned int default_val,
			  unsigned int min, unsigned int max, unsigned int *val)
{
	const char *who = dev->bus->frontend ? "backend" : "frontend";
	char *raw;
	int rc;

	raw = xenbus_read(XBT_NIL, dev->otherend, node, NULL);
	if (IS_ERR(raw)) {
		rc = PTR_ERR(raw);
		if (rc == -ENOENT && !required) {
			*val = default_val;
			return 0;
		}
		if (rc == -ENOENT)
			xenbus_dev_fatal(dev, rc, "%s %s missing", who, node);
		else
			xenbus_dev_fatal(dev, rc, "reading %s/%s",
					 dev->otherend, node);
		return rc;
	}
	rc = kstrtouint(raw, 10, val);
	if (rc || *val < min || *val > max) {
		/* At most 16 bytes of it, escaped: it may be anything. */
		xenbus_dev_fatal(dev, -EINVAL, "%s %s %*pE, not %u to %u",
				 who, node, (int)min_t(size_t, strlen(raw), 16),
				 raw, min, max);
		rc = -EINVAL;
	}
	kfree(raw);
	return rc;
}

/**
 * xenbus_read_offer() - read a number the other end offers, checked
 * @dev: the device
 * @node: the node in the other end's directory
 * @default_val: the value when the node is not there
 * @min: the least value the protocol allows
 * @max: the greatest
 * @val: the value read
 *
 * A node that is there must hold a decimal number from @min to @max;
 * anything else is the other end's fault and is fatal to the device: one
 * log line, and Closing (xenbus_dev_fatal()).  So is a failed read.
 *
 * Return: 0 with *@val set, or a negative errno once reported.
 */
int xenbus_read_offer(struct xenbus_device *dev, const char *node,
		      unsigned int default_val, unsigned int min,
		      unsigned int max, unsigned int *val)
{
	return xb_read_number(dev, node, false, default_val, min, max, val);
}
EXPORT_SYMBOL_GPL(xenbus_read_offer);

/**
 * xenbus_read_required() - read a number the other end must publish
 * @dev: the device
 * @node: the node in the other end's directory (it may name a
 *	subdirectory: "queue-1/ring-ref")
 * @min: the least value the protocol allows
 * @max: the greatest
 * @val: the value read
 *
 * As xenbus_read_offer(), but a node that is not there is fatal too.
 *
 * Return: 0 with *@val set, or a negative errno once reported.
 */
int xenbus_read_required(struct xenbus_device *dev, const char *node,
			 unsigned int min, unsigned int max, unsigned int *val)
{
	return xb_read_number(dev, node, true, 0, min, max, val);
}
EXPORT_SYMBOL_GPL(xenbus_read_required);

static int xb_switch(struct xenbus_device *dev, enum xenbus_state state,
		     bool report)
{
	struct xenbus_transaction t;
	unsigned int tries = 0;
	int rc;

	if (dev->state == state)
		return 0;
	do {
		rc = xenbus_transaction_start(&t);
		if (rc)
			break;
		/* Never recreate a directory the toolstack removed. */
		if (!xenbus_exists(t, dev->nodename, "")) {
			xenbus_transaction_end(t, 1);
			rc = 0;
			break;
		}
		rc = xenbus_printf(t, dev->nodename, "state", "%d", state);
		if (rc) {
			xenbus_transaction_end(t, 1);
			break;
		}
		rc = xenbus_transaction_end(t, 0);
	} while (xenbus_transaction_retry(rc, &tries));

	if (rc) {
		dev_err(&dev->dev, "cannot publish state %s: %d\n",
			xb_state_name(state), rc);
		if (report && state != XenbusStateClosing)
			xenbus_dev_fatal(dev, rc, "publishing state %s",
					 xb_state_name(state));
		return rc;
	}
	dev->state = state;
	return 0;
}

/**
 * xenbus_switch_state() - publish this end's state
 * @dev: the device
 * @state: the new state
 *
 * Does nothing when @state is the one published, or when the device's
 * directory is gone.  On failure the device is closed (as with
 * xenbus_dev_fatal()).
 *
 * Return: 0 or a negative errno.
 */
int xenbus_switch_state(struct xenbus_device *dev, enum xenbus_state state)
{
	return xb_switch(dev, state, true);
}
EXPORT_SYMBOL_GPL(xenbus_switch_state);

/**
 * xenbus_frontend_closed() - a frontend has finished closing
 * @dev: the device
 *
 * Publishes Closed and wakes whoever waits for the device to go down.
 *
 * Return: 0.
 */
int xenbus_frontend_closed(struct xenbus_device *dev)
{
	xenbus_switch_state(dev, XenbusStateClosed);
	complete(&dev->down);
	return 0;
}
EXPORT_SYMBOL_GPL(xenbus_frontend_closed);

/**
 * xenbus_watch_path() - watch a path on behalf of a device
 * @dev: the device
 * @path: the path; it stays the caller's, and becomes @watch->node
 * @watch: the watch to register
 * @will_handle: optional filter, see struct xenbus_watch
 * @callback: the callback
 *
 * On failure @watch->node is NULL and the device is closed.
 *
 * Return: 0 or a negative errno.
 */
int xenbus_watch_path(struct xenbus_device *dev, const char *path,
		      struct xenbus_watch *watch,
		      bool (*will_handle)(struct xenbus_watch *watch,
					  const char *path, const char *token),
		      void (*callback)(struct xenbus_watch *watch,
				       const char *path, const char *token))
{
	int rc;

	watch->node = path;
	watch->will_handle = will_handle;
	watch->callback = callback;
	rc = register_xenbus_watch(watch);
	if (rc) {
		watch->node = NULL;
		watch->will_handle = NULL;
		watch->callback = NULL;
		xenbus_dev_fatal(dev, rc, "watching %s", path);
	}
	return rc;
}
EXPORT_SYMBOL_GPL(xenbus_watch_path);

/**
 * xenbus_watch_pathfmt() - watch a path built from a format
 * @dev: the device
 * @watch: the watch to register
 * @will_handle: optional filter, see struct xenbus_watch
 * @callback: the callback
 * @pathfmt: the path, printf style
 *
 * The path is allocated and becomes @watch->node: the caller kfree()s it
 * after unregister_xenbus_watch().  On failure nothing is left allocated
 * and the device is closed.
 *
 * Return: 0 or a negative errno.
 */
int xenbus_watch_pathfmt(struct xenbus_device *dev, struct xenbus_watch *watch,
			 bool (*will_handle)(struct xenbus_watch *watch,
					     const char *path,
					     const char *token),
			 void (*callback)(struct xenbus_watch *watch,
					  const char *path, const char *token),
			 const char *pathfmt, ...)
{
	va_list ap;
	char *path;
	int rc;

	va_start(ap, pathfmt);
	path = kvasprintf(GFP_KERNEL, pathfmt, ap);
	va_end(ap);
	if (!path) {
		xenbus_dev_fatal(dev, -ENOMEM, "allocating a watch path");
		return -ENOMEM;
	}
	rc = xenbus_watch_path(dev, path, watch, will_handle, callback);
	if (rc)
		kfree(path);
	return rc;
}
EXPORT_SYMBOL_GPL(xenbus_watch_pathfmt);

/**
 * xenbus_grant_ring() - grant the pages of a ring to the other end
 * @dev: the device
 * @vaddr: the ring, page aligned, in the kernel's direct map
 * @nr_pages: its size in pages
 * @grefs: out: a grant reference for each page
 *
 * On failure nothing stays granted and the device is closed.  The other
 * end may map a grant before it is told of it (references can be
 * guessed): a page it maps by then is kept, with a reference of its own,
 * until it lets go, so the caller may free the ring as usual.
 *
 * Return: 0 or a negative errno.
 */
int xenbus_grant_ring(struct xenbus_device *dev, void *vaddr,
		      unsigned int nr_pages, grant_ref_t *grefs)
{
	unsigned int i;
	int ref;

	if (WARN_ON(!virt_addr_valid(vaddr) || offset_in_page(vaddr)))
		return -EINVAL;
	for (i = 0; i < nr_pages; i++) {
		unsigned long gfn = virt_to_gfn(vaddr + i * XEN_PAGE_SIZE);

		ref = gnttab_grant_foreign_access(dev->otherend_id, gfn, 0);
		if (ref < 0) {
			while (i--) {
				struct page *page = virt_to_page(vaddr +
								 i * XEN_PAGE_SIZE);

				/* Ours until the other end lets go. */
				get_page(page);
				gnttab_end_foreign_access(grefs[i], page);
				grefs[i] = INVALID_GRANT_REF;
			}
			xenbus_dev_fatal(dev, ref, "granting a ring page");
			return ref;
		}
		grefs[i] = ref;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(xenbus_grant_ring);

/**
 * xenbus_setup_ring() - allocate a zeroed ring and grant it
 * @dev: the device
 * @gfp: allocation flags
 * @vaddr: out: the ring, or NULL on failure
 * @nr_pages: its size in pages, at most XENBUS_MAX_RING_GRANTS
 * @grefs: out: a grant reference per page (INVALID_GRANT_REF on failure)
 *
 * Undo with xenbus_teardown_ring().  On failure the device is closed.
 *
 * Return: 0 or a negative errno.
 */
int xenbus_setup_ring(struct xenbus_device *dev, gfp_t gfp, void **vaddr,
		      unsigned int nr_pages, grant_ref_t *grefs)
{
	unsigned int i;
	void *ring;
	int rc;

	*vaddr = NULL;
	if (!nr_pages || nr_pages > XENBUS_MAX_RING_GRANTS)
		return -EINVAL;
	for (i = 0; i < nr_pages; i++)
		grefs[i] = INVALID_GRANT_REF;
	ring = alloc_pages_exact(nr_pages * PAGE_SIZE, gfp | __GFP_ZERO);
	if (!ring) {
		xenbus_dev_fatal(dev, -ENOMEM, "allocating a ring");
		return -ENOMEM;
	}
	rc = xenbus_grant_ring(dev, ring, nr_pages, grefs);
	if (rc) {
		free_pages_exact(ring, nr_pages * PAGE_SIZE);
		return rc;
	}
	*vaddr = ring;
	return 0;
}
EXPORT_SYMBOL_GPL(xenbus_setup_ring);

/**
 * xenbus_teardown_ring() - take a ring's grants back and free it
 * @vaddr: the ring (may point to NULL); set to NULL
 * @nr_pages: its size in pages
 * @grefs: its grant references; set to INVALID_GRANT_REF
 *
 * A page the other end still maps is freed only once it lets go.
 */
void xenbus_teardown_ring(void **vaddr, unsigned int nr_pages,
			  grant_ref_t *grefs)
{
	unsigned int i;

	for (i = 0; i < nr_pages; i++) {
		struct page *page = *vaddr ?
			virt_to_page(*vaddr + i * PAGE_SIZE) : NULL;

		if (grefs[i] != INVALID_GRANT_REF)
			gnttab_end_foreign_access(grefs[i], page);
		else if (page)
			put_page(page);
		grefs[i] = INVALID_GRANT_REF;
	}
	*vaddr = NULL;
}
EXPORT_SYMBOL_GPL(xenbus_teardown_ring);

/**
 * xenbus_alloc_evtchn() - allocate a port for the other end to bind
 * @dev: the device
 * @port: out: the port, in this domain
 *
 * On failure the device is closed.
 *
 * Return: 0 or a negative errno.
 */
int xenbus_alloc_evtchn(struct xenbus_device *dev, evtchn_port_t *port)
{
	struct evtchn_alloc_unbound op = {
		.dom = DOMID_SELF,
		.remote_dom = dev->otherend_id,
	};
	int rc = HYPERVISOR_event_channel_op(EVTCHNOP_alloc_unbound, &op);

	if (rc) {
		xenbus_dev_fatal(dev, rc, "allocating an event channel");
		return rc;
	}
	*port = op.port;
	return 0;
}
EXPORT_SYMBOL_GPL(xenbus_alloc_evtchn);

/**
 * xenbus_free_evtchn() - close a port that was never bound to an irq
 * @dev: the device
 * @port: the port
 *
 * (unbind_from_irqhandler() closes a bound port itself.)
 *
 * Return: 0 or a negative errno.
 */
int xenbus_free_evtchn(struct xenbus_device *dev, evtchn_port_t port)
{
	struct evtchn_close op = { .port = port };
	int rc = HYPERVISOR_event_channel_op(EVTCHNOP_close, &op);

	if (rc)
		xenbus_dev_error(dev, rc, "closing event channel %u", port);
	return rc;
}
EXPORT_SYMBOL_GPL(xenbus_free_evtchn);
