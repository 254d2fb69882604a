/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Xenstore and xenbus: the client API.
 *
 * Xenstore is a tree of small strings, served by xenstored over a shared
 * ring; the toolstack describes a domain's devices and settings there.
 * Paths are given as a directory and a node, joined with '/' (an empty
 * node means the directory itself); paths that do not start with '/'
 * are relative to this domain's home, /local/domain/<domid>.
 *
 * Every call may sleep.  Several callers may have requests in flight at
 * once; each waits only for its own reply.
 */
#ifndef _XEN_XENBUS_H
#define _XEN_XENBUS_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/completion.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/notifier.h>
#include <linux/types.h>
#include <xen/interface/event_channel.h>
#include <xen/interface/grant_table.h>
#include <xen/interface/io/xenbus.h>
#include <xen/interface/io/xs_wire.h>

/* The most pages a ring shared through xenbus_setup_ring() may have. */
#define XENBUS_MAX_RING_GRANT_ORDER	4
#define XENBUS_MAX_RING_GRANTS		BIT(XENBUS_MAX_RING_GRANT_ORDER)

/**
 * struct xenbus_transaction - a xenstore transaction
 * @id: its id, 0 (XBT_NIL) for none
 */
struct xenbus_transaction {
	u32 id;
};

/*
 * Events a watch may have waiting before the rest come folded into one
 * event for the watched node (see struct xenbus_watch).
 */
#define XENBUS_WATCH_MAX_PENDING	64

/*
 * Tries a transaction gets while it conflicts with others' writes
 * (-EAGAIN); then its caller gives up, so that whoever keeps writing the
 * same nodes cannot keep it retrying for ever.
 */
#define XENBUS_TRANSACTION_TRIES	16

/*
 * Does an error of a xenstore read or scan say only that the node is not
 * there (-ENOENT), or not a number in range (-ERANGE, xenbus_scanf)?
 * Drivers take such a node as absent, not as a failure.
 */
#define XENBUS_EXIST_ERR(err) ({					\
	int __err = (err);						\
	__err == -ENOENT || __err == -ERANGE;				\
})

/**
 * xenbus_transaction_retry() - try a transaction again?
 * @rc: what the try's xenbus_transaction_end() returned
 * @tries: the caller's count of tries, from 0
 *
 * Return: true when @rc is -EAGAIN and tries are left.
 */
static inline bool xenbus_transaction_retry(int rc, unsigned int *tries)
{
	return rc == -EAGAIN && ++*tries < XENBUS_TRANSACTION_TRIES;
}

/* No transaction: the call stands alone. */
#define XBT_NIL ((struct xenbus_transaction) { 0 })

/**
 * struct xenbus_watch - a watch on a xenstore path and all below it
 * @list: private
 * @node: the path watched
 * @nr_pending: events queued for @callback and not yet delivered
 * @overflowed: private; too many events came, and one for @node itself
 *	stands for the rest until it is delivered
 * @will_handle: optional; called as the event arrives, in the reader's
 *	context (interrupts off, a spinlock held: it may not sleep or call
 *	into xenstore): return false to drop it before it is queued
 * @callback: called in the watch thread, one event at a time
 * @token: private; tells this watch's events from others'
 *
 * xenstored fires each watch once when it is registered.  Events are
 * coalesced: a path's event that arrives while one for the same path
 * still waits is dropped, and past a bound of events waiting the rest
 * come as one event for @node; so @callback reads the state it cares
 * about rather than counting events.
 */
struct xenbus_watch {
	struct list_head list;
	const char *node;
	unsigned int nr_pending;
	bool overflowed;
	bool (*will_handle)(struct xenbus_watch *watch, const char *path,
			    const char *token);
	void (*callback)(struct xenbus_watch *watch, const char *path,
			 const char *token);
	u32 token;
};

struct xenbus_bus;

/**
 * struct xenbus_device - one end of a split device
 * @devicetype: its type, the directory above it ("vbd", "vif", ...)
 * @nodename: its xenstore directory, e.g. "device/vbd/51712"
 * @otherend: the other end's directory, as the toolstack wrote it
 * @otherend_id: the domain of the other end
 * @otherend_watch: the bus's watch on "@otherend/state"
 * @dev: the driver-model device
 * @state: the state this end last published
 * @down: completed when a closing frontend has reached Closed
 * @otherend_state: private: the other end's state last delivered
 * @bus: private: the bus it is on
 *
 * The bus reads @otherend and @otherend_id before the driver's probe and
 * watches the other end's state for as long as a driver is bound.
 */
struct xenbus_device {
	const char *devicetype;
	const char *nodename;
	const char *otherend;
	int otherend_id;
	struct xenbus_watch otherend_watch;
	struct device dev;
	enum xenbus_state state;
	struct completion down;
	enum xenbus_state otherend_state;
	const struct xenbus_bus *bus;
};

#define to_xenbus_device(d)	container_of_const(d, struct xenbus_device, dev)

/**
 * struct xenbus_device_id - a device type a driver handles
 * @devicetype: the type, as in xenstore; an empty one ends a table
 */
struct xenbus_device_id {
	char devicetype[32];
};

/**
 * struct xenbus_driver - a driver for one end of split devices
 * @name: its name; the first id's type when NULL
 * @ids: the types it handles, ended by an empty one
 * @allow_rebind: do not publish Closed when unbound, so that another
 *	driver can take the device over
 * @not_essential: boot need not wait for its devices to connect
 * @probe: bind to a device; its state is Initialising
 * @otherend_changed: the other end published a new, valid state
 * @remove: unbind; the bus then publishes Closed (see @allow_rebind)
 * @suspend: optional, before the domain is suspended
 * @resume: optional, after it is resumed
 * @uevent: optional, add to the device's uevent
 * @driver: the driver-model driver
 *
 * Every callback runs in process context and may sleep.  Watch events
 * (and so @otherend_changed) are delivered by one thread, one at a time.
 */
struct xenbus_driver {
	const char *name;
	const struct xenbus_device_id *ids;
	bool allow_rebind;
	bool not_essential;
	int (*probe)(struct xenbus_device *dev,
		     const struct xenbus_device_id *id);
	void (*otherend_changed)(struct xenbus_device *dev,
				 enum xenbus_state backend_state);
	void (*remove)(struct xenbus_device *dev);
	int (*suspend)(struct xenbus_device *dev);
	int (*resume)(struct xenbus_device *dev);
	int (*uevent)(const struct xenbus_device *dev,
		      struct kobj_uevent_env *env);
	struct device_driver driver;
};

#define to_xenbus_driver(d)	container_of_const(d, struct xenbus_driver, driver)

int __must_check __xenbus_register_frontend(struct xenbus_driver *drv,
					    struct module *owner,
					    const char *mod_name);
#define xenbus_register_frontend(drv) \
	__xenbus_register_frontend(drv, THIS_MODULE, KBUILD_MODNAME)
int __must_check __xenbus_register_backend(struct xenbus_driver *drv,
					   struct module *owner,
					   const char *mod_name);
#define xenbus_register_backend(drv) \
	__xenbus_register_backend(drv, THIS_MODULE, KBUILD_MODNAME)
void xenbus_unregister_driver(struct xenbus_driver *drv);
int xenbus_dev_is_online(struct xenbus_device *dev);

char **xenbus_directory(struct xenbus_transaction t, const char *dir,
			const char *node, unsigned int *num);
void *xenbus_read(struct xenbus_transaction t, const char *dir,
		  const char *node, unsigned int *len);
int xenbus_write(struct xenbus_transaction t, const char *dir,
		 const char *node, const char *string);
int xenbus_mkdir(struct xenbus_transaction t, const char *dir,
		 const char *node);
int xenbus_exists(struct xenbus_transaction t, const char *dir,
		  const char *node);
int xenbus_rm(struct xenbus_transaction t, const char *dir, const char *node);
int xenbus_transaction_start(struct xenbus_transaction *t);
int xenbus_transaction_end(struct xenbus_transaction t, int abort);

__scanf(4, 5)
int xenbus_scanf(struct xenbus_transaction t, const char *dir,
		 const char *node, const char *fmt, ...);
unsigned int xenbus_read_unsigned(const char *dir, const char *node,
				  unsigned int default_val);
__printf(4, 5)
int xenbus_printf(struct xenbus_transaction t, const char *dir,
		  const char *node, const char *fmt, ...);
int xenbus_gather(struct xenbus_transaction t, const char *dir, ...);

int register_xenbus_watch(struct xenbus_watch *watch);
void unregister_xenbus_watch(struct xenbus_watch *watch);

/* Where this domain's xenstore connection comes from. */
enum xenstore_init {
	XS_UNKNOWN,
	XS_PV,
	XS_HVM,
	XS_LOCAL,
};

extern enum xenstore_init xen_store_domain_type;

int register_xenstore_notifier(struct notifier_block *nb);
void unregister_xenstore_notifier(struct notifier_block *nb);

bool xenbus_ready(void);
void *xenbus_local_ring(evtchn_port_t *port);
struct vm_area_struct;
int xenbus_local_ring_mmap(struct vm_area_struct *vma);

/* Helpers for drivers (xenbus_client.c). */
const char *xenbus_strstate(enum xenbus_state state);
enum xenbus_state xenbus_read_driver_state(const char *path);
int xenbus_switch_state(struct xenbus_device *dev, enum xenbus_state state);
int xenbus_frontend_closed(struct xenbus_device *dev);

int xenbus_watch_path(struct xenbus_device *dev, const char *path,
		      struct xenbus_watch *watch,
		      bool (*will_handle)(struct xenbus_watch *watch,
					  const char *path, const char *token),
		      void (*callback)(struct xenbus_watch *watch,
				       const char *path, const char *token));
__printf(5, 6)
int xenbus_watch_pathfmt(struct xenbus_device *dev, struct xenbus_watch *watch,
			 bool (*will_handle)(struct xenbus_watch *watch,
					     const char *path,
					     const char *token),
			 void (*callback)(struct xenbus_watch *watch,
					  const char *path, const char *token),
			 const char *pathfmt, ...);

int xenbus_grant_ring(struct xenbus_device *dev, void *vaddr,
		      unsigned int nr_pages, grant_ref_t *grefs);
int xenbus_setup_ring(struct xenbus_device *dev, gfp_t gfp, void **vaddr,
		      unsigned int nr_pages, grant_ref_t *grefs);
void xenbus_teardown_ring(void **vaddr, unsigned int nr_pages,
			  grant_ref_t *grefs);

int xenbus_map_ring_valloc(struct xenbus_device *dev, grant_ref_t *gnt_refs,
			   unsigned int nr_grefs, void **vaddr);
int xenbus_unmap_ring_vfree(struct xenbus_device *dev, void *vaddr);

int xenbus_alloc_evtchn(struct xenbus_device *dev, evtchn_port_t *port);
int xenbus_free_evtchn(struct xenbus_device *dev, evtchn_port_t port);

__printf(3, 4)
void xenbus_dev_error(struct xenbus_device *dev, int err, const char *fmt, ...);
__printf(3, 4)
void xenbus_dev_fatal(struct xenbus_device *dev, int err, const char *fmt, ...);
int xenbus_read_offer(struct xenbus_device *dev, const char *node,
		      unsigned int default_val, unsigned int min,
		      unsigned int max, unsigned int *val);
int xenbus_read_required(struct xenbus_device *dev, const char *node,
			 unsigned int min, unsigned int max, unsigned int *val);

#endif /* _XEN_XENBUS_H */
