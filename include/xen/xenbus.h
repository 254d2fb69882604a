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

#include <linux/compiler.h>
#include <linux/list.h>
#include <linux/notifier.h>
#include <linux/types.h>
#include <xen/interface/io/xs_wire.h>

/**
 * struct xenbus_transaction - a xenstore transaction
 * @id: its id, 0 (XBT_NIL) for none
 */
struct xenbus_transaction {
	u32 id;
};

/* No transaction: the call stands alone. */
#define XBT_NIL ((struct xenbus_transaction) { 0 })

/**
 * struct xenbus_watch - a watch on a xenstore path and all below it
 * @list: private
 * @node: the path watched
 * @nr_pending: events queued for @callback and not yet delivered
 * @will_handle: optional; called as the event arrives, in the reader's
 *	context: return false to drop it before it is queued
 * @callback: called in the watch thread, one event at a time
 * @token: private; tells this watch's events from others'
 *
 * xenstored fires each watch once when it is registered.
 */
struct xenbus_watch {
	struct list_head list;
	const char *node;
	unsigned int nr_pending;
	bool (*will_handle)(struct xenbus_watch *watch, const char *path,
			    const char *token);
	void (*callback)(struct xenbus_watch *watch, const char *path,
			 const char *token);
	u32 token;
};

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

#endif /* _XEN_XENBUS_H */
